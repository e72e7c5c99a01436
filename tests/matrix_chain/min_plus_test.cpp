// The engine's min-plus kernels (algorithms/matrix_chain/src/min_plus.hpp) against a scalar loop written here, on
// operands drawn from {0, 1, 2, 3} so that nearly every range has tied minima: the value and the smallest k must be
// the loop's, at every length 0 … 300 (no groups, groups and whole vectors left, scalar tails), narrow and wide
// products, doubles without a product, two and four rows at once, the four rows in double (DoubleChainPolicy's kernel)
// and, with AVX-512, their coarse form (group starts) made exact by min_plus_first_in_group; and the tagged tile
// (min_plus_tile.hpp: four rows against one or two columns, k in the candidates' fraction).
#include "../../algorithms/matrix_chain/src/min_plus.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "../../algorithms/matrix_chain/src/min_plus_rows.hpp"
#include "../../algorithms/matrix_chain/src/min_plus_tile.hpp"

namespace {

namespace dp = llc::detail::interval_dp;

/// min over m of row[m] + col[m] + a·g[m], first m on a tie.
template <class T>
std::pair<T, std::int64_t> reference(const T* row, const T* col, const T* g, T a, std::int64_t len) {
    T best = std::numeric_limits<T>::max();
    std::int64_t at = 0;
    for (std::int64_t m = 0; m < len; ++m) {
        const T c = row[m] + col[m] + (g != nullptr ? a * g[m] : T{0});
        if (c < best) {
            best = c;
            at = m;
        }
    }
    return {best, at};
}

TEST(MinPlus, TiesGoToTheSmallestKAtEveryLength) {
    std::mt19937_64 rng(12345);
    std::uniform_int_distribution<std::int64_t> small(0, 3);
    constexpr std::size_t size = 320;
    std::vector<std::int64_t> r0(size), r1(size), r2(size), r3(size), col(size), g(size);
    std::vector<double> d0(size), dc(size);
    for (int trial = 0; trial < 40; ++trial) {
        for (std::size_t k = 0; k < size; ++k) {
            r0[k] = small(rng);
            r1[k] = small(rng);
            r2[k] = small(rng);
            r3[k] = small(rng);
            col[k] = small(rng);
            g[k] = small(rng);
            d0[k] = static_cast<double>(small(rng));
            dc[k] = static_cast<double>(small(rng));
        }
        const std::int64_t a0 = trial % 3;
        const std::int64_t a1 = (trial / 3) % 3;
        for (std::int64_t len = 0; len <= 300; ++len) {
            const auto want0 = reference(r0.data(), col.data(), g.data(), a0, len);
            const auto want1 = reference(r1.data(), col.data(), g.data(), a1, len);
            for (const auto got : {dp::min_plus<std::int64_t, true, true>(r0.data(), col.data(), g.data(), a0, len),
                                   dp::min_plus<std::int64_t, true, false>(r0.data(), col.data(), g.data(), a0, len)}) {
                ASSERT_EQ(got.value, want0.first) << "len " << len;
                ASSERT_EQ(got.m, want0.second) << "len " << len;
            }
            const auto pair = dp::min_plus_pair(r0.data(), r1.data(), col.data(), g.data(), a0, a1, len);
            ASSERT_EQ(pair[0].value, want0.first) << "len " << len;
            ASSERT_EQ(pair[0].m, want0.second) << "len " << len;
            ASSERT_EQ(pair[1].value, want1.first) << "len " << len;
            ASSERT_EQ(pair[1].m, want1.second) << "len " << len;
            const std::array<std::int64_t, 4> a{a0, a1, (a0 + 1) % 3, (a1 + 2) % 3};
            const std::array<const std::int64_t*, 4> rows{r0.data(), r1.data(), r2.data(), r3.data()};
            const auto quad = dp::min_plus_quad(rows, col.data(), g.data(), a, len);
            for (std::size_t t = 0; t < 4; ++t) {
                const auto want = reference(rows[t], col.data(), g.data(), a[t], len);
                ASSERT_EQ(quad[t].value, want.first) << "len " << len << " row " << t;
                ASSERT_EQ(quad[t].m, want.second) << "len " << len << " row " << t;
            }
            std::array<std::vector<double>, 4> drows;
            for (std::size_t t = 0; t < 4; ++t) {
                drows[t].assign(rows[t], rows[t] + size);
            }
            const std::vector<double> dcol(col.begin(), col.end());
            const std::vector<double> dg(g.begin(), g.end());
            const std::array<const double*, 4> drp{drows[0].data(), drows[1].data(), drows[2].data(), drows[3].data()};
            const std::array<double, 4> da{static_cast<double>(a[0]),
                                           static_cast<double>(a[1]),
                                           static_cast<double>(a[2]),
                                           static_cast<double>(a[3])};
            const auto dquad = dp::min_plus_quad<double>(drp, dcol.data(), dg.data(), da, len);
            for (std::size_t t = 0; t < 4 && len > 0; ++t) {  // (len 0: each arithmetic's own maximum)
                const auto want = reference(rows[t], col.data(), g.data(), a[t], len);
                ASSERT_EQ(dquad[t].value, static_cast<double>(want.first)) << "len " << len << " row " << t;
                ASSERT_EQ(dquad[t].m, want.second) << "len " << len << " row " << t;
                const auto weighted = dp::min_plus<double, true, true>(drp[t], dcol.data(), dg.data(), da[t], len);
                ASSERT_EQ(weighted.m, want.second) << "len " << len << " row " << t;
            }
#if defined(__AVX512F__)
            const auto coarse = dp::min_plus_quad<std::int64_t, false>(rows, col.data(), g.data(), a, len);
            const auto dcoarse = dp::min_plus_quad<double, false>(drp, dcol.data(), dg.data(), da, len);
            for (std::size_t t = 0; t < 4 && len > 0; ++t) {
                const auto want = reference(rows[t], col.data(), g.data(), a[t], len);
                ASSERT_EQ(coarse[t].value, want.first) << "len " << len << " row " << t;
                ASSERT_EQ(
                    dp::min_plus_first_in_group(rows[t], col.data(), g.data(), a[t], len, coarse[t].m, want.first),
                    want.second)
                    << "len " << len << " row " << t;
                ASSERT_EQ(dp::min_plus_first_in_group<double>(
                              drp[t], dcol.data(), dg.data(), da[t], len, dcoarse[t].m, dcoarse[t].value),
                          want.second)
                    << "len " << len << " row " << t;
            }
#endif
            const auto wantd = reference<double>(d0.data(), dc.data(), nullptr, 0.0, len);
            const auto gotd = dp::min_plus<double, false>(d0.data(), dc.data(), nullptr, 0.0, len);
            ASSERT_EQ(gotd.value, wantd.first) << "len " << len;
            ASSERT_EQ(gotd.m, wantd.second) << "len " << len;
        }
    }
}

TEST(MinPlusTile, TaggedMinimaGiveTheValueAndTheSmallestK) {
    // Rows tagged as compute_middle_tagged tags them (entry m plus m·2^−10), operands in {0 … 3}: floor of each tagged
    // minimum must be the reference's value and its fraction the reference's smallest m, for one and two columns.
    std::mt19937_64 rng(54321);
    std::uniform_int_distribution<std::int64_t> small(0, 3);
    constexpr std::size_t size = 320;
    std::array<std::vector<std::int64_t>, 4> rows;
    std::array<std::vector<double>, 4> tagged;
    std::array<std::vector<std::int64_t>, 2> cols;
    std::array<std::vector<double>, 2> dcols;
    std::vector<std::int64_t> g(size);
    std::vector<double> dg(size);
    for (int trial = 0; trial < 30; ++trial) {
        for (std::size_t t = 0; t < 4; ++t) {
            rows[t].resize(size);
            tagged[t].resize(size);
            for (std::size_t k = 0; k < size; ++k) {
                rows[t][k] = small(rng);
                tagged[t][k] = static_cast<double>(rows[t][k]) + static_cast<double>(k) * dp::k_fraction;
            }
        }
        for (std::size_t c = 0; c < 2; ++c) {
            cols[c].resize(size);
            dcols[c].resize(size);
            for (std::size_t k = 0; k < size; ++k) {
                cols[c][k] = small(rng);
                dcols[c][k] = static_cast<double>(cols[c][k]);
            }
        }
        for (std::size_t k = 0; k < size; ++k) {
            g[k] = small(rng);
            dg[k] = static_cast<double>(g[k]);
        }
        std::array<std::array<double, 4>, 2> a;
        for (std::size_t c = 0; c < 2; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                a[c][t] = static_cast<double>((trial + static_cast<int>(c + 2 * t)) % 4);
            }
        }
        const std::array<const double*, 4> rp{tagged[0].data(), tagged[1].data(), tagged[2].data(), tagged[3].data()};
        for (std::int64_t len = 1; len <= 300; ++len) {
            const auto two = dp::min_plus_tile<2>(rp, {dcols[0].data(), dcols[1].data()}, dg.data(), a, len);
            const auto one = dp::min_plus_tile<1>(rp, {dcols[1].data()}, dg.data(), {a[1]}, len);
            for (std::size_t t = 0; t < 4; ++t) {
                for (std::size_t c = 0; c < 2; ++c) {
                    const auto want =
                        reference(rows[t].data(), cols[c].data(), g.data(), static_cast<std::int64_t>(a[c][t]), len);
                    for (const double v :
                         c == 1 ? std::vector<double>{two[c][t], one[0][t]} : std::vector<double>{two[c][t]}) {
                        const double value = std::floor(v);
                        ASSERT_EQ(value, static_cast<double>(want.first)) << "len " << len << " row " << t;
                        ASSERT_EQ(static_cast<std::int64_t>((v - value) * dp::k_fraction_span), want.second)
                            << "len " << len << " row " << t << " column " << c;
                    }
                }
            }
        }
        const auto none = dp::min_plus_tile<2>(rp, {dcols[0].data(), dcols[1].data()}, dg.data(), a, 0);
        EXPECT_EQ(none[0][0], std::numeric_limits<double>::max());
    }
}

}  // namespace
