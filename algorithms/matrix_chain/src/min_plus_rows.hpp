#pragma once
// The engine's middle-range kernel (interval_dp.hpp, compute_middle), private to llc_algorithms: R rows of a block
// against one column at once.
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <limits>
#include <tuple>
#include <type_traits>

#include "min_plus.hpp"

namespace llc::detail::interval_dp {

/// min_plus of R rows against one column at once (int64, weighted, narrow: every a[r] and g[m] below 2^32): rows
/// i … i + R − 1 of a block against column j. The column (read from L2 in the engine's middle range) and the
/// dimensions g are loaded once for all R rows: with R = 4 a group of 32 k loads 4 column and 4 g vectors for 16
/// candidate vectors, against 8 for 8 with two rows (min_plus_pair), and the rows stay in L1 across the block's
/// columns. Per row the same groups, strict < and first-equal scan as min_plus: each result is exactly min_plus's
/// (the smallest k on a tie).
/// One row's share of a group of 32 k (min_plus_rows): the candidates x + y + a·z of the four vectors, their minimum
/// kept per lane with the group's start where strictly smaller. Plain vector arguments, inlined: held in registers.
template <class V>
inline __attribute__((always_inline)) void fold_group(const V x0,
                                                      const V x1,
                                                      const V x2,
                                                      const V x3,
                                                      const V y0,
                                                      const V y1,
                                                      const V y2,
                                                      const V y3,
                                                      const V z0,
                                                      const V z1,
                                                      const V z2,
                                                      const V z3,
                                                      const V va,
                                                      const Lanes start,
                                                      V& vbest,
                                                      Lanes& vgroup) {
    const V c0 = plus_product(x0 + y0, va, z0);
    const V c1 = plus_product(x1 + y1, va, z1);
    const V c2 = plus_product(x2 + y2, va, z2);
    const V c3 = plus_product(x3 + y3, va, z3);
    const V ma = c1 < c0 ? c1 : c0;
    const V mb = c3 < c2 ? c3 : c2;
    const V mm = mb < ma ? mb : ma;
    const Lanes less = mm < vbest;
    vbest = less ? mm : vbest;
    vgroup = less ? start : vgroup;
}

/// min_plus of four rows against one column at once (int64, weighted, narrow: every a[r] and g[m] below 2^32): rows
/// i … i + 3 of a block against column j. The column (read from L2 in the engine's middle range) and the dimensions g
/// are loaded once for the four rows: a group of 32 k loads 4 column and 4 g vectors for 16 candidate vectors, against
/// 8 for 8 with two rows (min_plus_pair), and the four rows stay in L1 across the block's columns. Per row the same
/// groups, strict < and first-equal scan as min_plus: each result is exactly min_plus's (the smallest k on a tie).
/// Exact = false (AVX-512 builds): no first-equal scan; each m is the start of the first group of 32 k that holds the
/// minimum (min_plus_first_in_group finds the k in it later). Within a range and across ranges taken in ascending k,
/// those group starts order the ties as the k do, so a caller can merge ranges first and scan once at the end.
/// T = double: the same with the candidates in double (DoubleChainPolicy), a fused multiply-add for a·g + (x + y).
template <class T = std::int64_t, bool Exact = true>
inline std::array<Best<T>, 4> min_plus_quad(
    const std::array<const T*, 4>& rows, const T* col, const T* g, const std::array<T, 4>& a, std::int64_t len) {
    using V = typename Simd<T>::V;
    using I = Lanes;
    constexpr int lanes = 8;
    constexpr std::int64_t group = 4 * lanes;
    constexpr T top_value = std::numeric_limits<T>::max();
    std::array<Best<T>, 4> best;
    best.fill(Best<T>{top_value, 0});
    std::int64_t m = 0;
#if defined(__AVX512F__)
    constexpr bool masked_tail = true;
#else
    constexpr bool masked_tail = false;
#endif
    if (len >= group || (masked_tail && len > 0)) {
        const T* const r0 = rows[0];
        const T* const r1 = rows[1];
        const T* const r2 = rows[2];
        const T* const r3 = rows[3];
        const V va0 = V{} + a[0];
        const V va1 = V{} + a[1];
        const V va2 = V{} + a[2];
        const V va3 = V{} + a[3];
        V vb0 = V{} + top_value;
        V vb1 = vb0;
        V vb2 = vb0;
        V vb3 = vb0;
        I vg0 = I{} + 0;
        I vg1 = vg0;
        I vg2 = vg0;
        I vg3 = vg0;
        I start = vg0;
        const auto ld = [](const T* p) {
            V v;
            std::memcpy(&v, p, sizeof(V));
            return v;
        };
        const auto fold_four_rows = [&](std::int64_t at) __attribute__((always_inline)) {
            const V y0 = ld(col + at);
            const V y1 = ld(col + at + lanes);
            const V y2 = ld(col + at + 2 * lanes);
            const V y3 = ld(col + at + 3 * lanes);
            V z0 = ld(g + at);
            V z1 = ld(g + at + lanes);
            V z2 = ld(g + at + 2 * lanes);
            V z3 = ld(g + at + 3 * lanes);
#if defined(__AVX512F__)
            // The four g vectors in registers for the four rows: without this empty asm GCC 12 folds each load of g
            // into every row's multiply-add (16 loads of g a group instead of 4: 36 loads for 16 candidate vectors,
            // 24 with it), and the kernel was bound by its loads — a P = 2 run at n = 4000 went from 668–690 ms to
            // 551–585 ms (llc-run, alternated, medians of 5).
            asm("" : "+v"(z0), "+v"(z1), "+v"(z2), "+v"(z3));
#endif
            const T* p = r0 + at;
            fold_group(ld(p), ld(p + 8), ld(p + 16), ld(p + 24), y0, y1, y2, y3, z0, z1, z2, z3, va0, start, vb0, vg0);
            p = r1 + at;
            fold_group(ld(p), ld(p + 8), ld(p + 16), ld(p + 24), y0, y1, y2, y3, z0, z1, z2, z3, va1, start, vb1, vg1);
            p = r2 + at;
            fold_group(ld(p), ld(p + 8), ld(p + 16), ld(p + 24), y0, y1, y2, y3, z0, z1, z2, z3, va2, start, vb2, vg2);
            p = r3 + at;
            fold_group(ld(p), ld(p + 8), ld(p + 16), ld(p + 24), y0, y1, y2, y3, z0, z1, z2, z3, va3, start, vb3, vg3);
        };
        for (; m + group <= len; m += group) {
            fold_four_rows(m);
            start += group;
        }
        if (m < len && len >= group) {
            // The last, partial group as a whole group ending at len, over k the groups before have already taken:
            // strict < keeps their minima and group starts, and a minimum first reached past them is first reached
            // in [len − 32, len), the group this start names. Cheaper than the masked group below (at r = 32 the
            // masked tail was 15 % of a one-processor run at n = 400 in perf, most ranges being a few groups long).
            m = len - group;
            start = I{} + m;
            fold_four_rows(m);
            m = len;
        }
#if defined(__AVX512F__)
        if (m < len) {
            // The last, partial group, its lanes past len masked (not loaded, and set above every candidate), as in
            // min_plus_pair.
            const __mmask8 k0 = valid_lanes(len - m);
            const __mmask8 k1 = valid_lanes(len - m - lanes);
            const __mmask8 k2 = valid_lanes(len - m - 2 * lanes);
            const __mmask8 k3 = valid_lanes(len - m - 3 * lanes);
            const auto mld = [](__mmask8 k, const T* p) { return reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, p)); };
            const V y0 = mld(k0, col + m);
            const V y1 = mld(k1, col + m + lanes);
            const V y2 = mld(k2, col + m + 2 * lanes);
            const V y3 = mld(k3, col + m + 3 * lanes);
            const V z0 = mld(k0, g + m);
            const V z1 = mld(k1, g + m + lanes);
            const V z2 = mld(k2, g + m + 2 * lanes);
            const V z3 = mld(k3, g + m + 3 * lanes);
            const V top = V{} + top_value;
            const auto tail_row = [&](const T* row, V va, V& vb, I& vg) {
                const auto cand = [&](__mmask8 k, std::int64_t at, V y, V z) {
                    return reinterpret_cast<V>(
                        _mm512_mask_mov_epi64(reinterpret_cast<__m512i>(top),
                                              k,
                                              reinterpret_cast<__m512i>(plus_product(mld(k, row + at) + y, va, z))));
                };
                const V c0 = cand(k0, m, y0, z0);
                const V c1 = cand(k1, m + lanes, y1, z1);
                const V c2 = cand(k2, m + 2 * lanes, y2, z2);
                const V c3 = cand(k3, m + 3 * lanes, y3, z3);
                const V ma = c1 < c0 ? c1 : c0;
                const V mb = c3 < c2 ? c3 : c2;
                const V mm = mb < ma ? mb : ma;
                const I less = mm < vb;
                vb = less ? mm : vb;
                vg = less ? start : vg;
            };
            tail_row(r0, va0, vb0, vg0);
            tail_row(r1, va1, vb1, vg1);
            tail_row(r2, va2, vb2, vg2);
            tail_row(r3, va3, vb3, vg3);
            m = len;
        }
#endif
        const std::array<V, 4> vas{va0, va1, va2, va3};
        const std::array<V, 4> vbs{vb0, vb1, vb2, vb3};
        const std::array<I, 4> vgs{vg0, vg1, vg2, vg3};
        for (std::size_t r = 0; r < 4; ++r) {
            std::int64_t first = 0;
            std::tie(best[r].value, first) = merge_lanes(vbs[r], vgs[r]);
            const T* row = rows[r];
            const V var = vas[r];
            const auto load = [&](std::int64_t at) {
#if defined(__AVX512F__)
                // Masked past len (the partial group): those lanes read nothing and hold the top, never the best.
                const __mmask8 k = valid_lanes(len - at);
                const V x = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, row + at));
                const V y = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, col + at));
                const V z = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, g + at));
                return reinterpret_cast<V>(
                    _mm512_mask_mov_epi64(reinterpret_cast<__m512i>(V{} + top_value),
                                          k,
                                          reinterpret_cast<__m512i>(plus_product(x + y, var, z))));
#else
                return plus_product(ld(row + at) + ld(col + at), var, ld(g + at));
#endif
            };
            if constexpr (Exact) {
                best[r].m = first_equal<V>(load, first, best[r].value);
            } else {
                best[r].m = first;
            }
        }
    }
    if (m < len) {  // the rest, one row at a time; its m lie above the groups', so a tie keeps theirs
        for (std::size_t r = 0; r < 4; ++r) {
            const Best<T> rest = min_plus<T, true, true>(rows[r] + m, col + m, g + m, a[r], len - m);
            if (rest.value < best[r].value) {
                best[r] = {rest.value, rest.m + m};
            }
        }
    }
    return best;
}

#if defined(__AVX512F__)
/// The smallest m in [first, min(first + 32, len)) with row[m] + col[m] + a·g[m] = best (int64, narrow: a and every
/// g[m] below 2^32), which one of them is: min_plus_quad<false>'s group start made exact. Lanes at or past len are
/// not loaded.
template <class T>
std::int64_t min_plus_first_in_group(
    const T* row, const T* col, const T* g, T a, std::int64_t len, std::int64_t first, T best) {
    using V = typename Simd<T>::V;
    const V va = V{} + a;
    const auto load = [&](std::int64_t at) {
        const __mmask8 k = valid_lanes(len - at);
        const V x = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, row + at));
        const V y = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, col + at));
        const V z = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, g + at));
        return reinterpret_cast<V>(_mm512_mask_mov_epi64(reinterpret_cast<__m512i>(V{} + std::numeric_limits<T>::max()),
                                                         k,
                                                         reinterpret_cast<__m512i>(plus_product(x + y, va, z))));
    };
    return first_equal<V>(load, first, best);
}
#endif

}  // namespace llc::detail::interval_dp
