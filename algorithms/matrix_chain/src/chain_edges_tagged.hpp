#pragma once
// The edges of an off-diagonal block with k in the candidates' fraction (DoubleChainPolicy when every candidate is
// below 2^42 and the block at most 1024 wide, AVX-512 builds), private to llc_algorithms: push_edges' lower edge and
// the part of its upper edge left of each strip, values only.
//
// Why: the push form (chain_policy.hpp, push_strip) keeps per lane a value and its k, a compare and two blends per k
// and strip on top of the add, the multiply-add and the broadcasts; the edges were 20 % of rank 0's samples at P = 2,
// n = 4000 (r = 103) for 8 % of the updates once the middle ran as a tagged tile (min_plus_tile.hpp). As there, the
// value c(i, k) of each k is copied with (k − base)·2^−10 added, so the smallest candidate of a lane is its smallest
// cost with the smallest k, and one vminpd replaces the compare and the blends. The strip's own k (each final value
// passed on to the later lanes) keep the (value, k) form: one k per lane, the strip's critical path.
#if defined(__AVX512F__)
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <immintrin.h>
#include <limits>

#include "chain_policy.hpp"
#include "min_plus.hpp"
#include "min_plus_tile.hpp"

namespace llc::detail::interval_dp {

/// x in every lane, as one broadcast (vbroadcastsd, which a vaddpd takes from memory): V{} + x is 0.0 + x in every
/// lane, which GCC computes as a scalar add before the broadcast (0.0 + −0.0 is +0.0), two more operations per k.
inline Simd<double>::V splat(double x) {
    return reinterpret_cast<Simd<double>::V>(_mm512_set1_pd(x));
}

/// The minimum over k in [k0, k1) of candidate(k) (tagged candidates: ties need no rule), over four interleaved
/// chains so that consecutive k do not wait on one another's minimum; the maximum of double when the range is empty.
template <class Candidate>
inline __attribute__((always_inline)) Simd<double>::V push_strip_tagged(std::int64_t k0,
                                                                        std::int64_t k1,
                                                                        const Candidate& candidate) {
    using V = Simd<double>::V;
    const V top = V{} + std::numeric_limits<double>::max();
    std::array<V, 4> best{top, top, top, top};
    std::int64_t k = k0;
    for (; k + 4 <= k1; k += 4) {
        for (std::size_t q = 0; q < 4; ++q) {
            const V c = candidate(k + static_cast<std::int64_t>(q));
            best[q] = c < best[q] ? c : best[q];
        }
    }
    for (; k < k1; ++k) {
        const V c = candidate(k);
        best[0] = c < best[0] ? c : best[0];
    }
    const V a = best[1] < best[0] ? best[1] : best[0];
    const V b = best[3] < best[2] ? best[3] : best[2];
    return b < a ? b : a;
}

/// Merges tagged minima (k = base + fraction·1024) into (v, w) where strictly smaller: floor gives the cost, the
/// fraction its k. A lane without a candidate (the maximum of double) is never smaller.
inline void merge_tagged(Simd<double>::V tagged, std::int64_t base, Simd<double>::V& v, Lanes& w) {
    using V = Simd<double>::V;
    const __m512d t = reinterpret_cast<__m512d>(tagged);
    const __m512d value = _mm512_maskz_roundscale_pd(0xFF, t, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m512d steps = _mm512_mul_pd(_mm512_sub_pd(t, value), _mm512_set1_pd(double(k_fraction_span)));
    const __m512i k = _mm512_add_epi64(_mm512_cvttpd_epi64(steps), _mm512_set1_epi64(base));
    const __mmask8 less = _mm512_cmp_pd_mask(value, reinterpret_cast<__m512d>(v), _CMP_LT_OQ);
    v = reinterpret_cast<V>(_mm512_mask_mov_pd(reinterpret_cast<__m512d>(v), less, value));
    w = reinterpret_cast<Lanes>(_mm512_mask_mov_epi64(reinterpret_cast<__m512i>(w), less, k));
}

/// chain_push_rows with tagged candidates: for k in [k0, k1) (k1 − k0 ≤ 1024), c(i, k) + c(k + 1, j) + d_i·d_{k+1}·
/// d_{j+1} replaces (val, arg)[j − j0] where strictly smaller (on a tie, the smallest k), for the block's `stride`
/// columns. cik[k − k0] = c(i, k); the row of c(k + 1, ·) at crows + (k − k0)·stride.
inline void chain_push_rows_tagged(const double* dims,
                                   std::int64_t i,
                                   std::int64_t k0,
                                   std::int64_t k1,
                                   const double* cik,
                                   const double* crows,
                                   std::int64_t stride,
                                   std::int64_t j0,
                                   double* val,
                                   std::int64_t* arg) {
    using V = Simd<double>::V;
    alignas(64) std::array<double, k_fraction_span> tagged;  // c(i, k) + (k − k0)·2^−10
    alignas(64) std::array<double, k_fraction_span> a;       // d_i·d_{k+1}
    for (std::int64_t k = k0; k < k1; ++k) {
        const auto m = static_cast<std::size_t>(k - k0);
        tagged[m] = cik[m] + static_cast<double>(k - k0) * k_fraction;
        a[m] = dims[i] * dims[k + 1];
    }
    const double* g = dims + j0 + 1;
    for (std::int64_t m = 0; m < stride; m += 8) {
        const __mmask8 valid = valid_lanes(stride - m);
        const auto load = [valid](auto src, const void* p) {
            return reinterpret_cast<decltype(src)>(_mm512_mask_loadu_epi64(reinterpret_cast<__m512i>(src), valid, p));
        };
        const V z = load(V{}, g + m);
        const V best = push_strip_tagged(k0, k1, [&](std::int64_t k) {
            const auto at = static_cast<std::size_t>(k - k0);
            const V x = load(V{}, crows + (k - k0) * stride + m);
            return plus_product(splat(tagged[at]) + x, splat(a[at]), z);
        });
        V v = load(V{} + std::numeric_limits<double>::max(), val + m);
        Lanes w = load(Lanes{}, arg + m);
        merge_tagged(best, k0, v, w);
        _mm512_mask_storeu_epi64(val + m, valid, reinterpret_cast<__m512i>(v));
        _mm512_mask_storeu_epi64(arg + m, valid, reinterpret_cast<__m512i>(w));
    }
}

/// upper_edge_strips (chain_policy.hpp) with the k left of each strip tagged (b1 − b0 ≤ 1024): strips of 8 columns,
/// each first merging the k in [b0, s0) (c(i, k) final from the strips before) as tagged minima, then its own k one by
/// one as lane broadcasts, exactly as upper_edge_strips does.
template <class Finish>
void upper_edge_strips_tagged(const double* dims,
                              std::int64_t i,
                              std::int64_t b0,
                              std::int64_t b1,
                              const double* diag,
                              const double* val,
                              const std::int64_t* arg,
                              const Finish& finish) {
    using V = Simd<double>::V;
    const std::int64_t width = b1 - b0;
    const V vtop = V{} + std::numeric_limits<double>::max();
    alignas(64) std::array<double, k_fraction_span> tagged;  // c(i, k) + (k − b0)·2^−10, k < the current strip
    alignas(64) std::array<double, k_fraction_span> a;       // d_i·d_{k+1}
    for (std::int64_t k = b0; k < b1; ++k) {
        a[static_cast<std::size_t>(k - b0)] = dims[i] * dims[k + 1];
    }
    const auto load = [](__mmask8 mask, auto src, const void* p) {
        return reinterpret_cast<decltype(src)>(_mm512_mask_loadu_epi64(reinterpret_cast<__m512i>(src), mask, p));
    };
    for (std::int64_t s0 = b0; s0 < b1; s0 += 8) {
        const std::int64_t len = std::min<std::int64_t>(8, b1 - s0);
        const __mmask8 valid = valid_lanes(len);
        V v = load(valid, vtop, val + (s0 - b0));
        Lanes w = load(valid, Lanes{}, arg + (s0 - b0));
        const V z = load(valid, V{}, dims + s0 + 1);
        const double* crows = diag + (s0 - b0);
        const V left = push_strip_tagged(b0, s0, [&](std::int64_t k) {
            const auto at = static_cast<std::size_t>(k - b0);
            const V x = load(valid, V{}, crows + (k + 1 - b0) * width);
            return plus_product(splat(tagged[at]) + x, splat(a[at]), z);
        });
        merge_tagged(left, b0, v, w);
        // The strip's own k, as upper_edge_strips; each final c(i, j) tagged for the strips after it.
        strip_own_k<double>(
            s0,
            len,
            valid,
            crows,
            b0,
            width,
            [&](std::int64_t j) { return splat(a[static_cast<std::size_t>(j - b0)]); },
            z,
            v,
            w);
        finish_strip<double>(s0, len, v, w, [&](std::int64_t j, double value, std::int64_t k) {
            finish(j, value, k);
            tagged[static_cast<std::size_t>(j - b0)] = value + static_cast<double>(j - b0) * k_fraction;
        });
    }
}

}  // namespace llc::detail::interval_dp
#endif
