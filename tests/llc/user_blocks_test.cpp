// A user holding contiguous blocks (docs/embedding.md, "Calling each algorithm from contiguous blocks"): every
// algorithm is called from a contiguous block of its input on each rank — rank r holds entries [start(r), start(r) +
// size(r)) of BlockDistribution(n, P), or of the image's rows — with the one conversion the page gives, the result is
// converted back to contiguous blocks, gathered, and compared with an oracle written here (a DFT, a product,
// brute-force distances, the ranks of straight lines, the textbook chain DP), not with the library's layout code. At
// every P.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/distribution.hpp>
#include <llc/llc.hpp>

namespace {

llc::Group& world() {
    return llc::Group::world();
}

/// Rank r's contiguous block of `whole`: [r·⌊n/P⌋ + min(r, n mod P), …), ⌊n/P⌋ entries and one more on the first
/// n mod P ranks — written out, as a user's code computes it.
template <class T>
std::vector<T> my_block(const std::vector<T>& whole, std::int64_t unit = 1) {
    const std::int64_t n = static_cast<std::int64_t>(whole.size()) / unit;
    const std::int64_t P = world().size();
    const std::int64_t r = world().rank();
    const std::int64_t begin = r * (n / P) + std::min(r, n % P);
    const std::int64_t size = n / P + (r < n % P ? 1 : 0);
    return {whole.begin() + begin * unit, whole.begin() + (begin + size) * unit};
}

TEST(UserBlocks, Fft) {
    auto& g = world();
    for (const std::int64_t n : {1, 8, 12, 30, 64}) {
        std::vector<std::complex<double>> x(static_cast<std::size_t>(n));
        for (std::int64_t j = 0; j < n; ++j) {
            x[static_cast<std::size_t>(j)] = {std::sin(0.3 * static_cast<double>(j)) + 1.0,
                                              0.1 * static_cast<double>(j % 5)};
        }
        // The FFT takes the blocks directly (block layout, natural order out): no conversion.
        const std::vector<std::complex<double>> out = llc::fft(g, my_block(x));
        const std::vector<std::complex<double>> all = g.allgatherv(out);
        ASSERT_EQ(all.size(), x.size());
        for (std::int64_t k = 0; k < n; ++k) {
            std::complex<double> sum{};
            for (std::int64_t j = 0; j < n; ++j) {
                const double angle = -2.0 * std::numbers::pi * static_cast<double>(j * k % n) / static_cast<double>(n);
                sum += x[static_cast<std::size_t>(j)] * std::polar(1.0, angle);
            }
            EXPECT_LT(std::abs(all[static_cast<std::size_t>(k)] - sum), 1e-9 * static_cast<double>(n))
                << "n " << n << " k " << k;
        }
    }
}

TEST(UserBlocks, Symv) {
    auto& g = world();
    for (const auto mapping : {llc::SymvMapping::reflection, llc::SymvMapping::standard}) {
        for (const std::int64_t n : {1, 5, 8, 19}) {
            const auto a = [](std::int64_t i, std::int64_t j) {
                return 1.0 / static_cast<double>(1 + i + 2 * j) + (i == j ? 2.0 : 0.0);
            };
            const llc::SymmetricMatrix<double> A(g, n, a, mapping);  // a(i, j) is asked for i ≥ j only
            std::vector<double> x(static_cast<std::size_t>(n));
            std::vector<double> y0(static_cast<std::size_t>(n));
            for (std::int64_t i = 0; i < n; ++i) {
                x[static_cast<std::size_t>(i)] = static_cast<double>(i % 7) - 2.5;
                y0[static_cast<std::size_t>(i)] = 0.5 * static_cast<double>(i);
            }
            // Plain vectors are contiguous blocks: no conversion.
            std::vector<double> y = my_block(y0);
            llc::symv(g, 2.0, A, my_block(x), 0.5, y);
            const std::vector<double> all = g.allgatherv(y);
            ASSERT_EQ(all.size(), x.size());
            for (std::int64_t i = 0; i < n; ++i) {
                double sum = 0.0;
                for (std::int64_t j = 0; j < n; ++j) {
                    sum += (i >= j ? a(i, j) : a(j, i)) * x[static_cast<std::size_t>(j)];
                }
                EXPECT_NEAR(
                    all[static_cast<std::size_t>(i)], 2.0 * sum + 0.5 * y0[static_cast<std::size_t>(i)], 1e-12 * n)
                    << llc::to_string(mapping) << " n " << n << " i " << i;
            }
            // α = 0: y = βy in the blocks, x not read.
            const std::vector<double> before = y;
            llc::symv(g, 0.0, A, std::vector<double>(y.size(), std::nan("")), 0.5, y);
            for (std::size_t k = 0; k < y.size(); ++k) {
                EXPECT_EQ(y[k], 0.5 * before[k]);
            }
        }
    }
}

/// Issue #30's case: the identity, x = 1 … 8 in contiguous blocks, the reflection mapping. It read
/// `1 2 5 6 7 8 3 4` at P = 2; now the blocks are read as blocks.
TEST(UserBlocks, SymvIdentityReadsTheUsersBlocks) {
    auto& g = world();
    const llc::SymmetricMatrix<double> A(g, 8, [](std::int64_t i, std::int64_t j) { return i == j ? 1.0 : 0.0; });
    const std::vector<double> whole{1, 2, 3, 4, 5, 6, 7, 8};
    const std::vector<double> x = my_block(whole);
    std::vector<double> y(x.size());
    llc::symv(g, 1.0, A, x, 0.0, y);
    EXPECT_EQ(y, x);
    EXPECT_EQ(g.allgatherv(y), whole);
    // The identity commutes with any misreading that reads y as x was read; a diagonal of distinct entries does not:
    // x read in A's layout would pair x's entries with the wrong a_ii.
    const llc::SymmetricMatrix<double> D(
        g, 8, [](std::int64_t i, std::int64_t j) { return i == j ? static_cast<double>(i + 1) : 0.0; });
    llc::symv(g, 1.0, D, x, 0.0, y);
    EXPECT_EQ(g.allgatherv(y), (std::vector<double>{1, 4, 9, 16, 25, 36, 49, 64}));
}

TEST(UserBlocks, DistanceTransform) {
    auto& g = world();
    const std::int64_t W = 9;
    const std::int64_t H = 13;
    std::vector<std::uint8_t> image(static_cast<std::size_t>(W * H), 1);
    image[static_cast<std::size_t>(2 * W + 3)] = 0;  // features
    image[static_cast<std::size_t>(11 * W + 7)] = 0;
    image[static_cast<std::size_t>(6 * W + 0)] = 0;
    for (const auto metric : {llc::Metric::d4, llc::Metric::d8, llc::Metric::euclidean}) {
        for (const std::int64_t r : {1, 3}) {
            // One conversion in (rows_from_blocks), one back (rows_to_blocks).
            const auto part = llc::rows_from_blocks(g, W, H, r, std::span<const std::uint8_t>(my_block(image, W)));
            const auto distances = llc::distance_transform(g, part, metric);
            const std::vector<std::int32_t> all = g.allgatherv(llc::rows_to_blocks(g, distances));
            ASSERT_EQ(all.size(), image.size());
            for (std::int64_t p = 0; p < W * H; ++p) {
                std::int64_t best = std::numeric_limits<std::int64_t>::max();
                for (std::int64_t f = 0; f < W * H; ++f) {
                    if (image[static_cast<std::size_t>(f)] != 0) {
                        continue;
                    }
                    const std::int64_t dr = std::abs(p / W - f / W);
                    const std::int64_t dc = std::abs(p % W - f % W);
                    best = std::min(best,
                                    metric == llc::Metric::d4   ? dr + dc
                                    : metric == llc::Metric::d8 ? std::max(dr, dc)
                                                                : dr * dr + dc * dc);
                }
                EXPECT_EQ(all[static_cast<std::size_t>(p)], best)
                    << llc::metric_name(metric) << " r " << r << " p " << p;
            }
        }
    }
}

TEST(UserBlocks, ContourRanking) {
    auto& g = world();
    const std::int64_t W = 10;
    const std::int64_t H = 7;
    // Vertical lines in columns 1, 4 and 8, each pixel pointing south (6), heads on the last row.
    std::vector<std::int8_t> map(static_cast<std::size_t>(W * H), -1);
    for (const std::int64_t col : {1, 4, 8}) {
        for (std::int64_t row = 0; row < H; ++row) {
            map[static_cast<std::size_t>(row * W + col)] = row == H - 1 ? 8 : 6;
        }
    }
    // One conversion in and one back: redistribute between the blocks of rows and PixelBlocks.
    const auto rows = llc::expand(llc::BlockDistribution(H, g.size()), W);
    const llc::PixelBlocks blocks(W, H, g.size());
    const llc::SuccessorMap succ(g, W, H, llc::redistribute(g, rows, blocks, my_block(map, W)));
    const std::vector<llc::ContourRank> ranks = llc::contour_rank(g, succ);
    const std::vector<llc::ContourRank> all = g.allgatherv(llc::redistribute(g, blocks, rows, ranks));
    ASSERT_EQ(all.size(), map.size());
    for (std::int64_t p = 0; p < W * H; ++p) {
        const std::int64_t row = p / W;
        const std::int64_t col = p % W;
        const bool edge = col == 1 || col == 4 || col == 8;
        const llc::ContourRank expected = edge ? llc::ContourRank{(H - 1) * W + col, H - 1 - row} : llc::ContourRank{};
        EXPECT_EQ(all[static_cast<std::size_t>(p)], expected) << "pixel " << p;
    }
}

TEST(UserBlocks, MatrixChain) {
    auto& g = world();
    const std::vector<std::int64_t> dims{30, 35, 15, 5, 10, 20, 25, 7, 40};
    // The dimensions are replicated: a user holding them in blocks gathers them (one allgatherv); the result's cost and
    // order are on every rank, its table's columns placed by table.columns().
    const std::vector<std::int64_t> gathered = g.allgatherv(my_block(dims));
    for (const std::int64_t r : {1, 2, 3}) {
        const llc::MatrixChainResult result = llc::matrix_chain(g, gathered, {.r = r});
        const auto n = static_cast<std::int64_t>(dims.size()) - 1;
        std::vector<std::int64_t> m(static_cast<std::size_t>(n * n), 0);  // CLRS §15.2
        for (std::int64_t len = 2; len <= n; ++len) {
            for (std::int64_t i = 0; i + len - 1 < n; ++i) {
                const std::int64_t j = i + len - 1;
                std::int64_t best = std::numeric_limits<std::int64_t>::max();
                for (std::int64_t k = i; k < j; ++k) {
                    best =
                        std::min(best,
                                 m[static_cast<std::size_t>(i * n + k)] + m[static_cast<std::size_t>((k + 1) * n + j)] +
                                     dims[static_cast<std::size_t>(i)] * dims[static_cast<std::size_t>(k + 1)] *
                                         dims[static_cast<std::size_t>(j + 1)]);
                }
                m[static_cast<std::size_t>(i * n + j)] = best;
            }
        }
        EXPECT_EQ(result.cost, m[static_cast<std::size_t>(n - 1)]) << "r " << r;
        const llc::BlockCyclicDistribution columns = result.table.columns();
        std::int64_t owned = 0;
        for (std::int64_t j = 0; j < n; ++j) {
            if ((j / r) % g.size() == g.rank()) {  // Alloc(j) = ⌊j/r⌋ mod P, written out
                EXPECT_EQ(columns.owner(j), g.rank());
                EXPECT_EQ(result.table.value(0, j), m[static_cast<std::size_t>(j)]) << "column " << j;
                ++owned;
            }
        }
        EXPECT_EQ(columns.local_size(g.rank()), owned);
    }
}

}  // namespace
