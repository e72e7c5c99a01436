#pragma once
// The middle-range kernel of the matrix chain in double when every candidate is below 2^42 (compute_middle_tagged in
// interval_dp.hpp), private to llc_algorithms: four rows against W columns at once, values only, each candidate
// carrying its k in its fraction.
//
// Why: the four-row kernel (min_plus_rows.hpp) keeps per row and lane a value and the group where it was first
// reached (a compare and two blends per 32 k) and reads 1.5 vectors per candidate vector; a tile of four rows against
// two columns reads 0.875, but its eight (value, group) pairs do not fit AVX-512's 32 registers. Here the group is not
// kept at all: the rows of a chunk of at most 1024 k are copied with m·2^−10 added to entry m (m = k − k0), so the
// candidate of k is c(i,k) + c(k+1,j) + d_i·d_{k+1}·d_{j+1} + m·2^−10, and the smallest of them is the smallest cost
// with, on a tie, the smallest m — the smallest-k rule, with nothing to track. Exact while every cost is below 2^42:
// the integer part then takes at most 43 bits and the fraction 10 of double's 53, so every sum and fused multiply-add
// is exact, and floor() and the fraction give back the cost and m.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>

#include "min_plus.hpp"

namespace llc::detail::interval_dp {

/// The weight of one step of k in a tagged candidate, and the longest chunk that can be tagged.
inline constexpr double k_fraction = 0x1p-10;
inline constexpr std::int64_t k_fraction_span = 1024;

/// The minimum of each of eight vectors, in one vector (lane q: the minimum of the q-th argument's lanes).
inline Simd<double>::V lane_minima(Simd<double>::V a,
                                   Simd<double>::V b,
                                   Simd<double>::V c,
                                   Simd<double>::V d,
                                   Simd<double>::V e,
                                   Simd<double>::V f,
                                   Simd<double>::V g,
                                   Simd<double>::V h) {
    using V = Simd<double>::V;
    // Round 1: lanes 2l, 2l + 1 of x and of y side by side; round 2: pairs of those; round 3: halves.
    const auto pair1 = [](V x, V y) {
        const V even = __builtin_shuffle(x, y, Lanes{0, 8, 2, 10, 4, 12, 6, 14});
        const V odd = __builtin_shuffle(x, y, Lanes{1, 9, 3, 11, 5, 13, 7, 15});
        return even < odd ? even : odd;  // [x01 y01 x23 y23 x45 y45 x67 y67]
    };
    const auto pair2 = [](V x, V y) {
        const V lo = __builtin_shuffle(x, y, Lanes{0, 1, 8, 9, 4, 5, 12, 13});
        const V hi = __builtin_shuffle(x, y, Lanes{2, 3, 10, 11, 6, 7, 14, 15});
        return lo < hi ? lo : hi;  // [x0123 y0123 x'0123 y'0123 x4567 y4567 x'4567 y'4567]
    };
    const auto pair3 = [](V x, V y) {
        const V lo = __builtin_shuffle(x, y, Lanes{0, 1, 2, 3, 8, 9, 10, 11});
        const V hi = __builtin_shuffle(x, y, Lanes{4, 5, 6, 7, 12, 13, 14, 15});
        return lo < hi ? lo : hi;
    };
    return pair3(pair2(pair1(a, b), pair1(c, d)), pair2(pair1(e, f), pair1(g, h)));
}

/// out[c][t] = min over m in [0, len) of rows[t][m] + cols[c][m] + a[c][t]·g[m] (the maximum of double when len = 0):
/// rows i … i + 3 (tagged copies) against columns j … j + W − 1 of a block, W = 1 or 2. Each vector of a column and of
/// g is loaded once for the four rows, each vector of a row once for the W columns; the empty asm statements keep
/// them in registers (GCC 12 otherwise folds a load into every operation that uses it, which undoes the sharing).
template <std::size_t W>
std::array<std::array<double, 4>, W> min_plus_tile(const std::array<const double*, 4>& rows,
                                                   const std::array<const double*, W>& cols,
                                                   const double* g,
                                                   const std::array<std::array<double, 4>, W>& a,
                                                   std::int64_t len) {
    using V = Simd<double>::V;
    constexpr std::int64_t lanes = 8;
    constexpr double top = std::numeric_limits<double>::max();
    std::array<std::array<double, 4>, W> out;
    for (auto& o : out) {
        o.fill(top);
    }
    std::int64_t m = 0;
    if (len >= lanes) {
        std::array<std::array<V, 4>, W> acc;
        std::array<std::array<V, 4>, W> av;
        for (std::size_t c = 0; c < W; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                acc[c][t] = V{} + top;
                av[c][t] = V{} + a[c][t];
            }
        }
        V one = V{} + 1.0;  // held in a register (as the loads below), not rebuilt for each use
#if defined(__AVX512F__)
        asm("" : "+v"(one));
#endif
        const auto load = [](const double* p) {
            V v;
            std::memcpy(&v, p, sizeof(V));
#if defined(__AVX512F__)
            asm("" : "+v"(v));
#endif
            return v;
        };
        for (; m + lanes <= len; m += lanes) {
            std::array<V, W> y;
            for (std::size_t c = 0; c < W; ++c) {
                y[c] = load(cols[c] + m);
            }
            const V z = load(g + m);
            for (std::size_t t = 0; t < 4; ++t) {
                const V x = load(rows[t] + m);
                for (std::size_t c = 0; c < W; ++c) {
                    // Column 1's sum x + y as a fused multiply-add by one (exact, as the add): the tile's adds and
                    // minima otherwise crowd the pipes the multiply-adds leave idle.
                    const V s = c == 1 ? plus_product(x, one, y[c]) : x + y[c];
                    const V v = plus_product(s, av[c][t], z);
                    acc[c][t] = v < acc[c][t] ? v : acc[c][t];
                }
            }
        }
        if constexpr (W == 2) {
            // The eight lane minima at once: three rounds of pairing vectors lane against lane (2 shuffles and a min
            // each, 21 operations) instead of eight horizontal minima.
            const V all =
                lane_minima(acc[0][0], acc[0][1], acc[0][2], acc[0][3], acc[1][0], acc[1][1], acc[1][2], acc[1][3]);
            for (std::size_t c = 0; c < W; ++c) {
                for (std::size_t t = 0; t < 4; ++t) {
                    out[c][t] = all[static_cast<int>(4 * c + t)];
                }
            }
        } else {
            for (std::size_t c = 0; c < W; ++c) {
                for (std::size_t t = 0; t < 4; ++t) {
                    for (std::int64_t l = 0; l < lanes; ++l) {
                        out[c][t] = std::min(out[c][t], acc[c][t][l]);
                    }
                }
            }
        }
    }
    for (; m < len; ++m) {  // the last len mod 8 k (exact in any order: every operation is)
        for (std::size_t c = 0; c < W; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                out[c][t] = std::min(out[c][t], rows[t][m] + cols[c][m] + a[c][t] * g[m]);
            }
        }
    }
    return out;
}

}  // namespace llc::detail::interval_dp
