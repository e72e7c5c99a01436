// llc::symv against oracles that share nothing with the ring: a plain double loop over the full matrix and, when
// OpenBLAS is there, CBLAS dsymv and dspmv; every P, both mappings, overlap on and off. Vectors and matrix rows are
// scattered and gathered by the article's row layout written here (rows_of), which a test holds SymvLayout to.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/group.hpp>
#include <llc/trace.hpp>

#ifdef LLC_HAVE_OPENBLAS
#include <cblas.h>
#endif

#include "../support/expect_error.hpp"
#include "smpi_sizes.hpp"
#include "symv_rows.hpp"

namespace {

using llc::Group;
using llc::SymmetricMatrix;
using llc::SymvLayout;
using llc::SymvMapping;
using llc::Triangle;
using llc::test::symv_rows::gather;
using llc::test::symv_rows::rows_of;
using llc::test::symv_rows::scatter;

/// A random n × n matrix (row-major), symmetric or not, the same on every rank (fixed seed).
std::vector<double> random_matrix(std::int64_t n, unsigned seed, bool symmetric) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    const auto un = static_cast<std::size_t>(n);
    std::vector<double> m(un * un);
    for (std::size_t i = 0; i < un; ++i) {
        for (std::size_t j = 0; j < un; ++j) {
            m[i * un + j] = dist(rng);
        }
    }
    if (symmetric) {
        for (std::size_t i = 0; i < un; ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                m[j * un + i] = m[i * un + j];
            }
        }
    }
    return m;
}

std::vector<double> random_vector(std::int64_t n, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    std::vector<double> v(static_cast<std::size_t>(n));
    for (auto& x : v) {
        x = dist(rng);
    }
    return v;
}

/// The oracle: y = αAx + βy with a plain double loop over the full symmetric matrix, and the error bound
/// 4nε(|α||A||x| + |β||y|)_i of each entry.
struct Reference {
    std::vector<double> y;
    std::vector<double> bound;
};

Reference plain_loop(std::int64_t n,
                     double alpha,
                     const std::vector<double>& a,
                     const std::vector<double>& x,
                     double beta,
                     const std::vector<double>& y,
                     double eps) {
    const auto un = static_cast<std::size_t>(n);
    Reference r{std::vector<double>(un), std::vector<double>(un)};
    for (std::size_t i = 0; i < un; ++i) {
        double sum = 0.0;
        double abs = 0.0;
        for (std::size_t j = 0; j < un; ++j) {
            sum += a[i * un + j] * x[j];
            abs += std::abs(a[i * un + j] * x[j]);
        }
        r.y[i] = alpha * sum + (beta == 0.0 ? 0.0 : beta * y[i]);
        r.bound[i] = 4.0 * static_cast<double>(n) * eps * (std::abs(alpha) * abs + std::abs(beta * y[i])) + 1e-300;
    }
    return r;
}

/// This rank's share of the symmetric matrix `a` (n × n row-major) laid out by rows_of, for from_local: each row i
/// a_{i,0…i} (reflection) or a_{i,0…n−1} (standard).
SymmetricMatrix<double> by_test_layout(Group& g, std::int64_t n, const std::vector<double>& a, SymvMapping mapping) {
    std::vector<double> local;
    for (const std::int64_t i : rows_of(n, g.size(), mapping, g.rank())) {
        const std::int64_t end = mapping == SymvMapping::reflection ? i + 1 : n;
        for (std::int64_t j = 0; j < end; ++j) {
            local.push_back(a[static_cast<std::size_t>(i * n + j)]);
        }
    }
    return SymmetricMatrix<double>::from_local(g, n, std::move(local), mapping);
}

/// Runs llc::symv on the distributed matrix and returns the whole y on every rank (x and y scattered and gathered by
/// rows_of).
template <class T>
std::vector<T> run(Group& g,
                   T alpha,
                   const SymmetricMatrix<T>& A,
                   const std::vector<T>& x,
                   T beta,
                   const std::vector<T>& y,
                   bool overlap) {
    const std::vector<T> xl = scatter(x, A.mapping(), g.size(), g.rank());
    std::vector<T> yl = scatter(y, A.mapping(), g.size(), g.rank());
    llc::symv<T>(g, alpha, A, A.layout(), xl, beta, yl, llc::SymvOptions{overlap});
    return gather(g, A.n(), A.mapping(), yl);
}

std::vector<std::int64_t> sizes(int P) {
    if (llc::test::under_smpi) {  // n < P, uneven splits of 2P ± 1 rows, a prime above P (smpi_sizes.hpp)
        return {1, 13, 2 * P + 1, 97};
    }
    return {1, 2, 2 * P - 1, 2 * P, 2 * P + 1, 7, 13, 31, 97, 1000};
}

struct Scalars {
    double alpha;
    double beta;
};
constexpr Scalars scalars[] = {{0.0, 0.0}, {0.0, -1.5}, {2.0, 0.0}, {-1.25, 0.5}};

TEST(SymvLayout, BlocksCoverTheRowsAndLocateInverts) {
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        for (const int P : {1, 2, 3, 4, 5, 8}) {
            for (const std::int64_t n : {1, 2, 3, 7, 15, 16, 17, 100}) {
                const SymvLayout L(n, P, mapping);
                EXPECT_EQ(L.block_begin(0), 0);
                EXPECT_EQ(L.block_begin(L.blocks()), n);
                std::int64_t rows = 0;
                for (int q = 0; q < P; ++q) {
                    rows += L.local_rows(q);
                }
                EXPECT_EQ(rows, n);
                for (int b = 0; b < L.blocks(); ++b) {
                    EXPECT_LE(L.block_begin(b), L.block_begin(b + 1)) << "n " << n << " P " << P << " b " << b;
                }
                for (std::int64_t i = 0; i < n; ++i) {
                    const auto [q, k] = L.locate(i);
                    // The k-th row of processor q, counted through its blocks in order.
                    std::int64_t left = k;
                    std::int64_t row = -1;
                    for (const int b : L.blocks_of(q)) {
                        if (left < L.block_size(b)) {
                            row = L.block_begin(b) + left;
                            break;
                        }
                        left -= L.block_size(b);
                    }
                    EXPECT_EQ(row, i) << "n " << n << " P " << P;
                }
            }
        }
    }
    // Reflection: processor q holds blocks q and 2P−1−q, which pair rows i and n−1−i.
    const SymvLayout L(20, 2, SymvMapping::reflection);
    EXPECT_EQ(L.blocks_of(0), (std::vector<int>{0, 3}));
    EXPECT_EQ(L.block_begin(1), 5);
    EXPECT_EQ(L.block_begin(3), 15);
}

TEST(SymvLayout, AgreesWithTheLayoutOfTheTests) {
    // Every query of SymvLayout against rows_of: uneven splits, n < 2P (empty blocks), P > n, odd n.
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        for (const int P : {1, 2, 3, 4, 5, 8, 13}) {
            for (const std::int64_t n : {1, 2, 3, 5, 7, 10, 15, 16, 17, 31, 100}) {
                const SymvLayout L(n, P, mapping);
                for (int q = 0; q < P; ++q) {
                    const std::vector<std::int64_t> rows = rows_of(n, P, mapping, q);
                    const std::string at = std::string(llc::to_string(mapping)) + " n " + std::to_string(n) + " P " +
                                           std::to_string(P) + " q " + std::to_string(q);
                    // The blocks' rows, in order, are the test's rows.
                    std::vector<std::int64_t> from_blocks;
                    for (const int b : L.blocks_of(q)) {
                        EXPECT_EQ(L.block_owner(b), q) << at << " block " << b;
                        for (std::int64_t i = L.block_begin(b); i < L.block_begin(b + 1); ++i) {
                            from_blocks.push_back(i);
                        }
                    }
                    EXPECT_EQ(from_blocks, rows) << at;
                    EXPECT_EQ(L.local_rows(q), static_cast<std::int64_t>(rows.size())) << at;
                    std::int64_t entries = 0;
                    for (std::size_t k = 0; k < rows.size(); ++k) {
                        entries += mapping == SymvMapping::reflection ? rows[k] + 1 : n;
                        EXPECT_EQ(L.locate(rows[k]), (std::pair<int, std::int64_t>{q, static_cast<std::int64_t>(k)}))
                            << at << " row " << rows[k];
                    }
                    EXPECT_EQ(L.local_entries(q), entries) << at;
                }
            }
        }
    }
}

TEST(Symv, MatrixAndVectorsFollowTheLayoutOfTheTests) {
    // The library's own scatter and gather (the constructors, distribute_vector, gather_vector) put each row where
    // rows_of says, at this P.
    Group& g = Group::world();
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        for (const std::int64_t n :
             {std::int64_t{1}, std::int64_t{2 * g.size() - 1}, std::int64_t{2 * g.size() + 1}, std::int64_t{37}}) {
            const std::vector<double> a = random_matrix(n, 41, true);
            const auto A = SymmetricMatrix<double>::from_full(g, n, a, Triangle::lower, mapping);
            const std::vector<std::int64_t> rows = rows_of(n, g.size(), mapping, g.rank());
            EXPECT_EQ(std::vector<std::int64_t>(A.local_row_indices().begin(), A.local_row_indices().end()), rows);
            for (std::size_t k = 0; k < rows.size() && k < static_cast<std::size_t>(A.local_rows()); ++k) {
                const auto row = A.row(static_cast<std::int64_t>(k));
                const auto i = static_cast<std::size_t>(rows[k]);
                EXPECT_TRUE(std::equal(row.begin(), row.end(), a.begin() + static_cast<std::ptrdiff_t>(i * n)))
                    << "row " << rows[k] << " n " << n;
            }
            std::vector<double> v(static_cast<std::size_t>(n));
            for (std::size_t i = 0; i < v.size(); ++i) {
                v[i] = static_cast<double>(i);
            }
            const std::vector<double> mine = scatter(v, mapping, g.size(), g.rank());
            EXPECT_EQ(llc::distribute_vector<double>(A.layout(), g.rank(), v), mine) << "n " << n;
            EXPECT_EQ(llc::gather_vector<double>(g, A.layout(), mine), v) << "n " << n;
        }
    }
}

TEST(SymvLayout, ReflectionStorageIsBalanced) {
    // Each rank stores at most 1.02·n²/(2P) + O(n) entries (the O(n): one row pair more and an odd n's middle row).
    for (const int P : {1, 2, 3, 4, 5, 8, 32}) {
        for (const std::int64_t n : {1, 2, 7, 100, 1000, 1001, 4097}) {
            const SymvLayout L(n, P, SymvMapping::reflection);
            std::int64_t total = 0;
            for (int q = 0; q < P; ++q) {
                const auto entries = static_cast<double>(L.local_entries(q));
                const auto nd = static_cast<double>(n);
                EXPECT_LE(entries, 1.02 * nd * nd / (2.0 * P) + 2.0 * (nd + 1.0)) << "n " << n << " P " << P;
                total += L.local_entries(q);
            }
            EXPECT_EQ(total, n * (n + 1) / 2);  // the triangle once, nothing stored twice
        }
    }
}

TEST(Symv, StorageOfEachRankOnTheMatrix) {
    Group& g = Group::world();
    const std::int64_t n = 1000;
    const SymmetricMatrix<double> A(g, n, [](std::int64_t i, std::int64_t j) { return static_cast<double>(i - j); });
    const double bound = 1.02 * static_cast<double>(n * n) / (2.0 * g.size()) + 2.0 * (n + 1);
    EXPECT_LE(static_cast<double>(A.local_entries()), bound);
    EXPECT_LE(A.local_data().size(), static_cast<std::size_t>(bound));
    EXPECT_EQ(g.allreduce(A.local_entries(), llc::Op::sum), n * (n + 1) / 2);
}

TEST(Symv, MatchesThePlainLoopEverywhere) {
    Group& g = Group::world();
    const double eps = std::numeric_limits<double>::epsilon();
    for (const std::int64_t n : sizes(g.size())) {
        const std::vector<double> a = random_matrix(n, 11 + static_cast<unsigned>(n), true);
        const std::vector<double> x = random_vector(n, 23);
        const std::vector<double> y0 = random_vector(n, 37);
        for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
            const auto A = by_test_layout(g, n, a, mapping);  // the rows cut by rows_of, not by the library
            for (const bool overlap : {true, false}) {
                for (const auto [alpha, beta] : scalars) {
                    if (llc::test::under_smpi && alpha * beta == 0.0 && alpha + beta != 0.0) {
                        continue;  // alpha or beta alone zero: local paths, at P <= 8 (smpi_sizes.hpp)
                    }
                    const Reference ref = plain_loop(n, alpha, a, x, beta, y0, eps);
                    const std::vector<double> y = run(g, alpha, A, x, beta, y0, overlap);
                    ASSERT_EQ(y.size(), ref.y.size());
                    for (std::size_t i = 0; i < y.size(); ++i) {
                        ASSERT_LE(std::abs(y[i] - ref.y[i]), ref.bound[i])
                            << "n " << n << " i " << i << " alpha " << alpha << " beta " << beta << " mapping "
                            << static_cast<int>(mapping) << " overlap " << overlap;
                    }
                }
            }
        }
    }
}

#ifdef LLC_HAVE_OPENBLAS
TEST(Symv, MatchesCblasDsymvAndDspmv) {
    Group& g = Group::world();
    const double eps = std::numeric_limits<double>::epsilon();
    const std::int64_t largest = llc::test::under_smpi ? 101 : 1000;  // smpi_sizes.hpp
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2 * g.size() + 1}, std::int64_t{101}, largest}) {
        const std::vector<double> a = random_matrix(n, 5, true);
        const std::vector<double> x = random_vector(n, 6);
        const std::vector<double> y0 = random_vector(n, 7);
        const auto A = SymmetricMatrix<double>::from_full(g, n, a);
        for (const auto [alpha, beta] : scalars) {
            const Reference ref = plain_loop(n, alpha, a, x, beta, y0, eps);  // the bound only
            std::vector<double> blas = y0;
            cblas_dsymv(CblasRowMajor,
                        CblasLower,
                        static_cast<int>(n),
                        alpha,
                        a.data(),
                        static_cast<int>(n),
                        x.data(),
                        1,
                        beta,
                        blas.data(),
                        1);
            std::vector<double> packed;
            for (std::int64_t i = 0; i < n; ++i) {
                for (std::int64_t j = 0; j <= i; ++j) {
                    packed.push_back(a[static_cast<std::size_t>(i * n + j)]);
                }
            }
            std::vector<double> spmv = y0;
            cblas_dspmv(CblasRowMajor,
                        CblasLower,
                        static_cast<int>(n),
                        alpha,
                        packed.data(),
                        x.data(),
                        1,
                        beta,
                        spmv.data(),
                        1);
            const std::vector<double> y = run(g, alpha, A, x, beta, y0, true);
            for (std::size_t i = 0; i < y.size(); ++i) {
                ASSERT_LE(std::abs(y[i] - blas[i]), ref.bound[i]) << "dsymv n " << n << " i " << i;
                ASSERT_LE(std::abs(y[i] - spmv[i]), ref.bound[i]) << "dspmv n " << n << " i " << i;
            }
        }
    }
}
#else
TEST(Symv, MatchesCblasDsymvAndDspmv) {
    GTEST_SKIP() << "built without OpenBLAS (libopenblas-dev)";
}
#endif

TEST(Symv, EitherTriangleAndEveryConstructorGiveTheSameProduct) {
    Group& g = Group::world();
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{2 * g.size() + 1}, std::int64_t{53}}) {
        // A non-symmetric square: its lower triangle read as lower, and its transpose read as upper, are one matrix.
        const std::vector<double> m = random_matrix(n, 3, false);
        const auto un = static_cast<std::size_t>(n);
        std::vector<double> t(un * un);
        std::vector<double> packed;
        for (std::size_t i = 0; i < un; ++i) {
            for (std::size_t j = 0; j < un; ++j) {
                t[j * un + i] = m[i * un + j];
            }
            for (std::size_t j = 0; j <= i; ++j) {
                packed.push_back(m[i * un + j]);
            }
        }
        const std::vector<double> x = random_vector(n, 4);
        const std::vector<double> y0 = random_vector(n, 5);
        const auto lower = SymmetricMatrix<double>::from_full(g, n, m, Triangle::lower);
        const auto upper = SymmetricMatrix<double>::from_full(g, n, t, Triangle::upper);
        const auto from_packed = SymmetricMatrix<double>::from_packed(g, n, packed);
        const SymmetricMatrix<double> generated(
            g, n, [&](std::int64_t i, std::int64_t j) { return m[static_cast<std::size_t>(i * n + j)]; });
        const auto local = SymmetricMatrix<double>::from_local(
            g, n, std::vector<double>(lower.local_data().begin(), lower.local_data().end()));
        const std::vector<double> expected = run(g, 1.5, lower, x, -0.5, y0, true);
        for (const auto* other : {&upper, &from_packed, &generated, &local}) {
            EXPECT_EQ(run(g, 1.5, *other, x, -0.5, y0, true), expected) << "n " << n;
        }
        // The standard mapping stores both triangles; lower and upper input agree there too.
        const auto std_lower = SymmetricMatrix<double>::from_full(g, n, m, Triangle::lower, SymvMapping::standard);
        const auto std_upper = SymmetricMatrix<double>::from_full(g, n, t, Triangle::upper, SymvMapping::standard);
        EXPECT_EQ(run(g, 1.5, std_lower, x, -0.5, y0, false), run(g, 1.5, std_upper, x, -0.5, y0, false));
    }
}

TEST(Symv, MessagesOfTheArticle) {
    // n = 2pr: x replicated by one allgatherv, then exactly p − 1 shifts per processor, each sending and receiving one
    // block pair of partial sums, 2r words each way (article [3] §4.2.1; digest §10 H). A random symmetric integer
    // matrix and vector: the product is exact, so it must equal the dense A·x exactly.
    Group& g = Group::world();
    const int P = g.size();
    for (const std::int64_t r : {1, 2, 3}) {
        const std::int64_t n = 2 * P * r;
        std::vector<double> a = random_matrix(n, 2, true);
        std::vector<double> xf = random_vector(n, 3);
        for (auto* v : {&a, &xf}) {
            for (double& e : *v) {
                e = std::round(e * 20.0);
            }
        }
        const auto un = static_cast<std::size_t>(n);
        std::vector<double> dense(un, 0.0);
        for (std::size_t i = 0; i < un; ++i) {
            for (std::size_t j = 0; j < un; ++j) {
                dense[i] += a[i * un + j] * xf[j];
            }
        }
        const auto A = SymmetricMatrix<double>::from_full(g, n, a);
        const std::vector<double> x = scatter(xf, SymvMapping::reflection, P, g.rank());
        std::vector<double> y(x.size());
        for (const bool overlap : {false, true}) {
            llc::Trace::enable(true);
            llc::symv<double>(g, 1.0, A, A.layout(), x, 0.0, y, llc::SymvOptions{overlap});
            const llc::TraceNode record = llc::Trace::local();
            llc::Trace::enable(false);
            int shifts = 0;
            int allgathers = 0;
            for (const llc::TraceNode& node : record.children) {
                if (node.op == (overlap ? "shift.overlap" : "shift")) {
                    ++shifts;
                    EXPECT_EQ(node.bytes, static_cast<std::uint64_t>(2 * 2 * r * 8)) << "r " << r;
                } else if (node.op == "allgatherv") {
                    ++allgathers;
                    EXPECT_EQ(node.bytes, static_cast<std::uint64_t>(n * 8));
                }
            }
            EXPECT_EQ(shifts, P - 1) << "r " << r << " overlap " << overlap;
            EXPECT_EQ(gather(g, n, SymvMapping::reflection, y), dense) << "r " << r;
            EXPECT_EQ(allgathers, P > 1 ? 1 : 0);
        }
    }
}

TEST(Symv, SequentialReferenceReadsOneTriangle) {
    const std::int64_t n = 23;
    const std::vector<double> a = random_matrix(n, 31, true);
    std::vector<double> garbled = a;  // the upper triangle replaced: the lower read must not see it
    const auto un = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < un; ++i) {
        for (std::size_t j = i + 1; j < un; ++j) {
            garbled[i * un + j] = 1e3;
        }
    }
    const std::vector<double> x = random_vector(n, 32);
    const std::vector<double> y0 = random_vector(n, 33);
    const Reference ref = plain_loop(n, 1.5, a, x, -2.0, y0, std::numeric_limits<double>::epsilon());
    std::vector<double> y = y0;
    llc::sequential::symv_full<double>(n, 1.5, garbled, Triangle::lower, x, -2.0, y);
    for (std::size_t i = 0; i < un; ++i) {
        EXPECT_LE(std::abs(y[i] - ref.y[i]), ref.bound[i]) << "i " << i;
    }
    EXPECT_THROW(
        llc::sequential::symv_full<double>(n, 1.0, garbled, Triangle::lower, x, 0.0, std::span<double>(y).first(3)),
        llc::Error);
}

TEST(Symv, FloatFollows) {
    Group& g = Group::world();
    const std::int64_t n = 2 * g.size() + 37;
    const std::vector<double> a = random_matrix(n, 8, true);
    const std::vector<double> x = random_vector(n, 9);
    const std::vector<double> y0 = random_vector(n, 10);
    std::vector<float> af(a.begin(), a.end());
    std::vector<float> xf(x.begin(), x.end());
    std::vector<float> yf(y0.begin(), y0.end());
    // The oracle in double on the float-rounded inputs, the bound with float's ε.
    const Reference ref = plain_loop(n,
                                     0.75,
                                     std::vector<double>(af.begin(), af.end()),
                                     std::vector<double>(xf.begin(), xf.end()),
                                     2.0,
                                     std::vector<double>(yf.begin(), yf.end()),
                                     std::numeric_limits<float>::epsilon());
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        const auto A = SymmetricMatrix<float>::from_full(g, n, af, Triangle::lower, mapping);
        const std::vector<float> y = run(g, 0.75F, A, xf, 2.0F, yf, true);
        for (std::size_t i = 0; i < y.size(); ++i) {
            ASSERT_LE(std::abs(static_cast<double>(y[i]) - ref.y[i]), ref.bound[i]) << "i " << i;
        }
    }
}

TEST(Symv, NanPropagatesAsBlas) {
    Group& g = Group::world();
    const std::int64_t n = 2 * g.size() + 3;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<double> a = random_matrix(n, 12, true);
    const auto un = static_cast<std::size_t>(n);
    a[2 * un + 1] = a[1 * un + 2] = nan;  // a_21 = a_12: rows 1 and 2 of Ax are NaN, the others are not
    const std::vector<double> x = random_vector(n, 13);
    std::vector<double> y0 = random_vector(n, 14);
    y0[0] = nan;
    const auto A = SymmetricMatrix<double>::from_full(g, n, a);
    // β = 0: y's NaN is not read; A's NaN reaches rows 1 and 2 only.
    std::vector<double> y = run(g, 1.0, A, x, 0.0, y0, true);
    for (std::size_t i = 0; i < un; ++i) {
        EXPECT_EQ(std::isnan(y[i]), i == 1 || i == 2) << "i " << i;
    }
    // α = 0: A is not read; y's NaN stays in y_0 (β ≠ 0).
    y = run(g, 0.0, A, x, 2.0, y0, true);
    for (std::size_t i = 0; i < un; ++i) {
        EXPECT_EQ(std::isnan(y[i]), i == 0) << "i " << i;
    }
    // Both non-zero: the union.
    y = run(g, 1.0, A, x, 1.0, y0, false);
    for (std::size_t i = 0; i < un; ++i) {
        EXPECT_EQ(std::isnan(y[i]), i <= 2) << "i " << i;
    }
}

TEST(Symv, BadInputIsAnErrorOnEveryRank) {
    Group& g = Group::world();
    const std::int64_t n = 2 * g.size() + 1;
    const auto A = SymmetricMatrix<double>::from_full(g, n, random_matrix(n, 1, true));
    const auto rows = static_cast<std::size_t>(A.local_rows());
    std::vector<double> x(rows, 1.0);
    std::vector<double> y(rows, 0.0);
    std::vector<double> longer(rows + 1, 1.0);
    using llc::test::expect_error_everywhere;
    // Wrong lengths on every rank: each names the argument and its value.
    expect_error_everywhere([&] { llc::symv<double>(g, 1.0, A, A.layout(), longer, 0.0, y); },
                            {"llc::symv", "x.size()", std::to_string(rows + 1)});
    expect_error_everywhere([&] { llc::symv<double>(g, 1.0, A, A.layout(), x, 0.0, std::span<double>(longer)); },
                            {"llc::symv", "y.size()", std::to_string(rows + 1)});
    // Wrong on one rank only: still an error everywhere.
    expect_error_everywhere(
        [&] {
            std::span<const double> xs = g.rank() == g.size() - 1 ? std::span<const double>(longer) : x;
            llc::symv<double>(g, 1.0, A, A.layout(), xs, 0.0, y);
        },
        {"llc::symv"});
    // α differing across ranks.
    if (g.size() > 1) {
        expect_error_everywhere([&] { llc::symv<double>(g, g.rank() == 0 ? 2.0 : 1.0, A, A.layout(), x, 0.0, y); },
                                {"llc::symv", "alpha"});
    }
    // n = 0, n differing across ranks, input of the wrong size.
    expect_error_everywhere(
        [&] { (void)SymmetricMatrix<double>(g, 0, [](std::int64_t, std::int64_t) { return 1.0; }); },
        {"llc::SymmetricMatrix", "n", "0"});
    if (g.size() > 1) {
        expect_error_everywhere(
            [&] { (void)SymmetricMatrix<double>(g, 5 + g.rank(), [](std::int64_t, std::int64_t) { return 1.0; }); },
            {"llc::SymmetricMatrix", "n"});
    }
    expect_error_everywhere([&] { (void)SymmetricMatrix<double>::from_full(g, 4, std::vector<double>(15)); },
                            {"from_full", "full.size()", "15"});
    expect_error_everywhere([&] { (void)SymmetricMatrix<double>::from_packed(g, 4, std::vector<double>(11)); },
                            {"from_packed", "packed.size()", "11"});
    expect_error_everywhere([&] { (void)SymmetricMatrix<double>::from_local(g, 4, std::vector<double>(1000)); },
                            {"from_local", "local.size()", "1000"});
    expect_error_everywhere([&] { llc::symv<double>(g, 1.0, SymmetricMatrix<double>{}, {}, 0.0, {}); },
                            {"llc::symv", "A.n()"});
    expect_error_everywhere([&] { (void)llc::gather_vector<double>(g, A.layout(), longer); },
                            {"llc::gather_vector", "local.size()"});
    EXPECT_THROW((void)llc::distribute_vector<double>(A.layout(), g.rank(), std::vector<double>(rows + 100)),
                 llc::Error);
}

}  // namespace
