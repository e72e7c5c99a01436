#pragma once
// The min-plus kernels of the interval-DP engine (interval_dp.hpp), private to llc_algorithms: over a range of k, the
// smallest c(i,k) + c(k+1,j) (+ the chain's product) and the smallest k reaching it.
#include <array>
#include <cstdint>
#include <cstring>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

namespace llc::detail::interval_dp {

template <class T>
struct Best {
    T value;
    std::int64_t m;  ///< the smallest optimal k (min_plus: its offset in the range)
};

/// 64-byte vectors (GCC vector extensions: AVX-512 registers where the build targets them, pairs of AVX2 otherwise).
template <class T>
struct Simd;
template <>
struct Simd<std::int64_t> {
    using V = std::int64_t __attribute__((vector_size(64)));
};
template <>
struct Simd<double> {
    using V = double __attribute__((vector_size(64)));
};
using Lanes = std::int64_t __attribute__((vector_size(64)));

/// a·z lane by lane. Narrow: every a and z below 2^32, so the 64-bit product is one vpmuludq (AVX-512F) instead of
/// vpmullq's three µops; the same exact value.
template <class V, bool Narrow>
inline V times(V a, V z) {
#if defined(__AVX512F__)
    if constexpr (Narrow && sizeof(V) == 64 && std::is_integral_v<std::remove_cvref_t<decltype(a[0])>>) {
        // maskz with every lane set: the plain _mm512_mul_epu32 reads _mm512_undefined_epi32(), which GCC 12 reports
        // as uninitialised (-Werror); the same vpmuludq.
        return reinterpret_cast<V>(
            _mm512_maskz_mul_epu32(0xFF, reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(z)));
    }
#endif
    return a * z;
}

/// s + a·z lane by lane, the candidates' sum. int64: the narrow product (times). double: one fused multiply-add where
/// the build has AVX-512 (every operand and result an integer below 2^53, so the sum is exact either way).
template <class V>
inline V plus_product(V s, V va, V z) {
#if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64 && std::is_same_v<std::remove_cvref_t<decltype(s[0])>, double>) {
        return reinterpret_cast<V>(
            _mm512_fmadd_pd(reinterpret_cast<__m512d>(va), reinterpret_cast<__m512d>(z), reinterpret_cast<__m512d>(s)));
    }
#endif
    return s + times<V, true>(va, z);
}

/// Every lane of v set to the lanes' minimum (three shuffles and minima; eight lanes).
template <class V>
V all_min(V v) {
    static_assert(sizeof(V) / sizeof(v[0]) == 8, "all_min: eight lanes");
    V t = __builtin_shufflevector(v, v, 4, 5, 6, 7, 0, 1, 2, 3);
    v = t < v ? t : v;
    t = __builtin_shufflevector(v, v, 2, 3, 0, 1, 6, 7, 4, 5);
    v = t < v ? t : v;
    t = __builtin_shufflevector(v, v, 1, 0, 3, 2, 5, 4, 7, 6);
    return t < v ? t : v;
}

/// The lanes' minimum of `vbest`, and the smallest `vgroup` among the lanes holding it: in registers, branch-free (a
/// branchy merge of eight lanes, mispredicted and spilling the loop's vectors, cost as much as a tenth of a 512-long
/// range).
template <class V, class I>
std::pair<decltype(V{}[0] + 0), std::int64_t> merge_lanes(V vbest, I vgroup) {
    const V best = all_min(vbest);
    I top;
    for (int l = 0; l < 8; ++l) {
        top[l] = std::numeric_limits<std::int64_t>::max();
    }
    const I first = all_min(vbest == best ? vgroup : top);
    return {best[0], first[0]};
}

/// The lanes of a and b that are equal, as bits (lane l at bit l).
template <class V>
inline unsigned equal_lanes(V a, V b) {
#if defined(__AVX512F__)
    if constexpr (sizeof(V) == 64 && std::is_integral_v<std::remove_cvref_t<decltype(a[0])>>) {
        return _mm512_cmpeq_epi64_mask(reinterpret_cast<__m512i>(a), reinterpret_cast<__m512i>(b));
    } else if constexpr (sizeof(V) == 64) {
        return _mm512_cmp_pd_mask(reinterpret_cast<__m512d>(a), reinterpret_cast<__m512d>(b), _CMP_EQ_OQ);
    }
#endif
    const auto eq = a == b;
    unsigned bits = 0;
    for (int l = 0; l < static_cast<int>(sizeof(V) / sizeof(a[0])); ++l) {
        bits |= eq[l] != 0 ? 1U << l : 0U;
    }
    return bits;
}

/// The first m in [first, first + 4·lanes) whose candidate c(m) (load(m): the lanes at m … m + lanes − 1) equals
/// `best`, which one of them does: four vector compares, not 32 scalar candidates (a scalar rescan cost as much as a
/// sixth of a 512-long range).
template <class V, class Load>
inline __attribute__((always_inline)) std::int64_t first_equal(const Load& load,
                                                               std::int64_t first,
                                                               decltype(V{}[0] + 0) best) {
    constexpr int lanes = 64 / sizeof(V{}[0]);
    const V vb = V{} + best;  // best in every lane
    for (int q = 0; q < 4; ++q) {
        if (const unsigned bits = equal_lanes(load(first + q * lanes), vb); bits != 0) {
            return first + q * lanes + __builtin_ctz(bits);
        }
    }
    return first;  // not reached: some lane of the group holds best
}

/// min over m in [0, len) of row[m] + col[m] (+ a·g[m] when Weighted), and the smallest m reaching it. Both operands
/// contiguous, so the loop runs 64 bytes at a time (AVX-512 where the build targets it). The loop keeps values only
/// for groups of four vectors (32 or so m): per lane the group minimum, and the first group at which the lane reached
/// its best (strict <); after the loop the best value is the lanes' minimum, the first group holding it is the
/// smallest such group over the lanes that reach it, and one scan of that group finds its first m. The tie rule is
/// exactly the scalar one (the smallest m), at a compare and two blends per four vectors instead of per vector. The
/// whole vectors left after the groups (all of a range shorter than a group) keep per lane their first minimum and its
/// m, the rest is scalar.
/// Narrow (int64, Weighted): a and every g[m] below 2^32 (see times).
template <class T, bool Weighted, bool Narrow = false>
Best<T> min_plus(const T* row, const T* col, const T* g, T a, std::int64_t len) {
    constexpr int lanes = 64 / sizeof(T);
    constexpr std::int64_t group = 4 * lanes;
    using V = typename Simd<T>::V;
    using I = Lanes;
    static_assert(sizeof(T) == 8, "min_plus: 64-bit values");
    const auto candidate = [&](std::int64_t m) {
        T c = row[m] + col[m];
        if constexpr (Weighted) {
            c += a * g[m];
        }
        return c;
    };
    V va;
    for (int l = 0; l < lanes; ++l) {
        va[l] = a;
    }
    const auto load = [&](std::int64_t at) {
        V x;
        V y;
        std::memcpy(&x, row + at, sizeof(V));
        std::memcpy(&y, col + at, sizeof(V));
        V c = x + y;
        if constexpr (Weighted) {
            V z;
            std::memcpy(&z, g + at, sizeof(V));
            c += times<V, Narrow>(va, z);
        }
        return c;
    };
    T best = std::numeric_limits<T>::max();
    std::int64_t best_m = 0;
    std::int64_t m = 0;
    if (len >= group) {
        V vbest;
        I vgroup;
        I start;
        for (int l = 0; l < lanes; ++l) {
            vbest[l] = std::numeric_limits<T>::max();
            vgroup[l] = 0;
            start[l] = 0;
        }
        for (; m + group <= len; m += group) {
            const V c0 = load(m);
            const V c1 = load(m + lanes);
            const V c2 = load(m + 2 * lanes);
            const V c3 = load(m + 3 * lanes);
            const V c01 = c1 < c0 ? c1 : c0;
            const V c23 = c3 < c2 ? c3 : c2;
            const V c = c23 < c01 ? c23 : c01;
            const I less = c < vbest;
            vbest = less ? c : vbest;
            vgroup = less ? start : vgroup;
            start += group;
        }
        std::int64_t first = 0;
        std::tie(best, first) = merge_lanes(vbest, vgroup);
        best_m = first_equal<V>(load, first, best);
    }
    if (len - m >= lanes) {
        // The whole vectors left (all of a short range): per lane its first minimum and its m, as one group each.
        V vbest;
        I vm;
        I vidx;
        for (int l = 0; l < lanes; ++l) {
            vbest[l] = std::numeric_limits<T>::max();
            vm[l] = m + l;
            vidx[l] = m + l;
        }
        for (; m + lanes <= len; m += lanes) {
            const V c = load(m);
            const I less = c < vbest;
            vbest = less ? c : vbest;
            vm = less ? vidx : vm;
            vidx += lanes;
        }
        T rest = vbest[0];
        std::int64_t rest_m = vm[0];
        for (int l = 1; l < lanes; ++l) {
            if (vbest[l] < rest || (vbest[l] == rest && vm[l] < rest_m)) {
                rest = vbest[l];
                rest_m = vm[l];
            }
        }
        if (rest < best) {  // every m here lies above the groups': a tie keeps theirs
            best = rest;
            best_m = rest_m;
        }
    }
    for (; m < len; ++m) {
        const T c = candidate(m);
        if (c < best) {
            best = c;
            best_m = m;
        }
    }
    return {best, best_m};
}

#if defined(__AVX512F__)
/// The mask of the first min(max(count, 0), 8) lanes.
inline __mmask8 valid_lanes(std::int64_t count) {
    return count >= 8 ? __mmask8{0xFF} : count <= 0 ? __mmask8{0} : static_cast<__mmask8>((1U << count) - 1U);
}
#endif

/// min_plus of two rows against one column at once (int64, weighted, narrow: a0, a1 and every g[m] below 2^32): rows
/// i and i + 1 of a block against column j, so that the column, read from L2 in the engine's middle range, is loaded
/// once for both (on this VM the middle ran 0.30 ns an update with its operands in L2 against 0.21 ns in L1). Each
/// result is exactly min_plus's.
inline std::array<Best<std::int64_t>, 2> min_plus_pair(const std::int64_t* row0,
                                                       const std::int64_t* row1,
                                                       const std::int64_t* col,
                                                       const std::int64_t* g,
                                                       std::int64_t a0,
                                                       std::int64_t a1,
                                                       std::int64_t len) {
    using T = std::int64_t;
    using V = Simd<T>::V;
    using I = Lanes;
    constexpr int lanes = 8;
    constexpr std::int64_t group = 4 * lanes;
    std::array<Best<T>, 2> best{Best<T>{std::numeric_limits<T>::max(), 0}, Best<T>{std::numeric_limits<T>::max(), 0}};
    std::int64_t m = 0;
#if defined(__AVX512F__)
    constexpr bool masked_tail = true;
#else
    constexpr bool masked_tail = false;
#endif
    if (len >= group || (masked_tail && len > 0)) {
        V va0;
        V va1;
        V vbest0;
        V vbest1;
        I vgroup0;
        I vgroup1;
        I start;
        for (int l = 0; l < lanes; ++l) {
            va0[l] = a0;
            va1[l] = a1;
            vbest0[l] = vbest1[l] = std::numeric_limits<T>::max();
            vgroup0[l] = vgroup1[l] = start[l] = 0;
        }
        for (; m + group <= len; m += group) {
            V c0[4];
            V c1[4];
            for (int q = 0; q < 4; ++q) {
                V x0;
                V x1;
                V y;
                V z;
                std::memcpy(&x0, row0 + m + q * lanes, sizeof(V));
                std::memcpy(&x1, row1 + m + q * lanes, sizeof(V));
                std::memcpy(&y, col + m + q * lanes, sizeof(V));
                std::memcpy(&z, g + m + q * lanes, sizeof(V));
                c0[q] = x0 + y + times<V, true>(va0, z);
                c1[q] = x1 + y + times<V, true>(va1, z);
            }
            const V m0a = c0[1] < c0[0] ? c0[1] : c0[0];
            const V m0b = c0[3] < c0[2] ? c0[3] : c0[2];
            const V m0 = m0b < m0a ? m0b : m0a;
            const V m1a = c1[1] < c1[0] ? c1[1] : c1[0];
            const V m1b = c1[3] < c1[2] ? c1[3] : c1[2];
            const V m1 = m1b < m1a ? m1b : m1a;
            const I less0 = m0 < vbest0;
            const I less1 = m1 < vbest1;
            vbest0 = less0 ? m0 : vbest0;
            vgroup0 = less0 ? start : vgroup0;
            vbest1 = less1 ? m1 : vbest1;
            vgroup1 = less1 ? start : vgroup1;
            start += group;
        }
#if defined(__AVX512F__)
        if (m < len) {
            // The last, partial group, its lanes past len masked (not loaded, and set above every candidate): one more
            // group instead of a tail taken one row at a time with a per-lane merge each (min_plus), which cost as much
            // as a chunk's groups at the engine's r = 103 (a range of 312: 0.34 against 0.22 ns an update).
            V top;
            for (int l = 0; l < lanes; ++l) {
                top[l] = std::numeric_limits<T>::max();
            }
            V c0[4];
            V c1[4];
            for (int q = 0; q < 4; ++q) {
                const std::int64_t at = m + q * lanes;
                const __mmask8 k = valid_lanes(len - at);
                const V x0 = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, row0 + at));
                const V x1 = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, row1 + at));
                const V y = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, col + at));
                const V z = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, g + at));
                c0[q] = reinterpret_cast<V>(_mm512_mask_mov_epi64(
                    reinterpret_cast<__m512i>(top), k, reinterpret_cast<__m512i>(x0 + y + times<V, true>(va0, z))));
                c1[q] = reinterpret_cast<V>(_mm512_mask_mov_epi64(
                    reinterpret_cast<__m512i>(top), k, reinterpret_cast<__m512i>(x1 + y + times<V, true>(va1, z))));
            }
            const V m0a = c0[1] < c0[0] ? c0[1] : c0[0];
            const V m0b = c0[3] < c0[2] ? c0[3] : c0[2];
            const V m0 = m0b < m0a ? m0b : m0a;
            const V m1a = c1[1] < c1[0] ? c1[1] : c1[0];
            const V m1b = c1[3] < c1[2] ? c1[3] : c1[2];
            const V m1 = m1b < m1a ? m1b : m1a;
            const I less0 = m0 < vbest0;
            const I less1 = m1 < vbest1;
            vbest0 = less0 ? m0 : vbest0;
            vgroup0 = less0 ? start : vgroup0;
            vbest1 = less1 ? m1 : vbest1;
            vgroup1 = less1 ? start : vgroup1;
            m = len;
        }
#endif
        const std::array<const T*, 2> rows{row0, row1};
        const std::array<const V*, 2> vbests{&vbest0, &vbest1};
        const std::array<const I*, 2> vgroups{&vgroup0, &vgroup1};
        for (int r = 0; r < 2; ++r) {
            std::int64_t first = 0;
            std::tie(best[r].value, first) = merge_lanes(*vbests[r], *vgroups[r]);
            const V va = r == 0 ? va0 : va1;
            const auto load = [&, row = rows[r]](std::int64_t at) {
#if defined(__AVX512F__)
                // Masked past len (the partial group): those lanes read nothing and hold the top, never the best.
                const __mmask8 k = valid_lanes(len - at);
                const V x = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, row + at));
                const V y = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, col + at));
                const V z = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(k, g + at));
                V top;
                for (int l = 0; l < lanes; ++l) {
                    top[l] = std::numeric_limits<T>::max();
                }
                return reinterpret_cast<V>(_mm512_mask_mov_epi64(
                    reinterpret_cast<__m512i>(top), k, reinterpret_cast<__m512i>(x + y + times<V, true>(va, z))));
#else
                V x;
                V y;
                V z;
                std::memcpy(&x, row + at, sizeof(V));
                std::memcpy(&y, col + at, sizeof(V));
                std::memcpy(&z, g + at, sizeof(V));
                return x + y + times<V, true>(va, z);
#endif
            };
            best[r].m = first_equal<V>(load, first, best[r].value);
        }
    }
    if (m < len) {  // the rest, one row at a time; its m lie above the groups', so a tie keeps theirs
        const std::array<Best<T>, 2> rest{min_plus<T, true, true>(row0 + m, col + m, g + m, a0, len - m),
                                          min_plus<T, true, true>(row1 + m, col + m, g + m, a1, len - m)};
        for (int r = 0; r < 2; ++r) {
            if (rest[r].value < best[r].value) {
                best[r] = {rest[r].value, rest[r].m + m};
            }
        }
    }
    return best;
}

/// The same with int64 arithmetic that saturates at INT64_MAX instead of wrapping: exact wherever the true value
/// fits, and INT64_MAX (≥ every representable cost) where it does not.
inline Best<std::int64_t> min_plus_saturating(
    const std::int64_t* row, const std::int64_t* col, const std::int64_t* g, std::int64_t a, std::int64_t len) {
    constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
    Best<std::int64_t> best{top, 0};
    for (std::int64_t m = 0; m < len; ++m) {
        std::int64_t c = 0;
        std::int64_t f = 0;
        if (__builtin_add_overflow(row[m], col[m], &c) || __builtin_mul_overflow(a, g[m], &f) ||
            __builtin_add_overflow(c, f, &c)) {
            c = top;
        }
        if (c < best.value) {
            best = {c, m};
        }
    }
    return best;
}

}  // namespace llc::detail::interval_dp
