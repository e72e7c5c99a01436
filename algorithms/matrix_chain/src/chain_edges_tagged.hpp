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
// passed on to the later lanes) keep the (value, k) form: one k per lane, the strip's critical path. The lower edges
// of four rows share their k below the four (lower_edge_grouped): a vector of c(k + 1, ·) and the broadcast of d_{k+1}
// loaded once for four candidate vectors (P = 2, n = 4000, r = 126, llc-run alternated: 344-347 → 330-341 ms).
#if defined(__AVX512F__)
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <immintrin.h>
#include <limits>
#include <vector>

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

/// The lower edge of G rows at once, tagged: for t < G (row i[t], its values tag[t][k − base] = c(i[t], k) +
/// (k − base)·2^−10) and the block's `stride` columns j, acc[t·stride + (j − j0)] takes the minimum over k in [k0, k1)
/// of tag[t][k − base] + c(k + 1, j) + d_{i[t]}·d_{k+1}·d_{j+1}, the row of c(k + 1, ·) at crows + (k − k0)·stride.
/// Each vector of c(k + 1, ·) and each broadcast of d_{k+1} serve the G rows: the product is taken as
/// d_{k+1}·(d_{i[t]}·d_{j+1}), the same exact integer as (d_{i[t]}·d_{k+1})·d_{j+1} (every candidate below 2^42).
template <std::size_t G>
inline void lower_edge_tagged_rows(const double* dims,
                                   const std::array<std::int64_t, G>& i,
                                   const std::array<const double*, G>& tag,
                                   std::int64_t base,
                                   std::int64_t k0,
                                   std::int64_t k1,
                                   const double* crows,
                                   std::int64_t stride,
                                   std::int64_t j0,
                                   double* acc) {
    using V = Simd<double>::V;
    const V vtop = V{} + std::numeric_limits<double>::max();
    for (std::int64_t m = 0; m < stride; m += 8) {
        const __mmask8 valid = valid_lanes(stride - m);
        const auto load = [valid](V src, const double* p) {
            return reinterpret_cast<V>(_mm512_mask_loadu_pd(reinterpret_cast<__m512d>(src), valid, p));
        };
        const V z = load(V{}, dims + j0 + 1 + m);
        std::array<V, G> dz;
        std::array<V, G> best;
        for (std::size_t t = 0; t < G; ++t) {
            dz[t] = splat(dims[i[t]]) * z;
            best[t] = load(vtop, acc + static_cast<std::int64_t>(t) * stride + m);
        }
        for (std::int64_t k = k0; k < k1; ++k) {
            const V x = load(V{}, crows + (k - k0) * stride + m);
            const V dk = splat(dims[k + 1]);
            for (std::size_t t = 0; t < G; ++t) {
                const V c = plus_product(x + splat(tag[t][k - base]), dk, dz[t]);
                best[t] = c < best[t] ? c : best[t];
            }
        }
        for (std::size_t t = 0; t < G; ++t) {
            _mm512_mask_storeu_pd(
                acc + static_cast<std::int64_t>(t) * stride + m, valid, reinterpret_cast<__m512d>(best[t]));
        }
    }
}

/// The lower edge of row i of the off-diagonal block of rows [a0, a1) and columns [b0, b0 + width), k in [i, a1 − 1),
/// merged into (val, arg) as chain_push_rows_tagged does, with the k shared by a group of rows taken once for all of
/// them: the rows are taken bottom up, and rows a1 − 1 − 4q … a1 − 4 − 4q form a group whose lower edges all hold k in
/// [bottom, a1 − 1) (rows below the group, final before any of its rows is), run for the four rows at the group's
/// bottom row; each row adds its own k in [i, bottom) (rows of the group below it) when its turn comes. The tags of
/// the group share one base (its top row), so the smallest candidate still carries the smallest k. in_i = &c(i, i)
/// in the received trapezoid (each row above one longer: row i − 1 starts b0 − i + 1 entries before it); fresh holds
/// the block's rows row-major, width apart.
inline void lower_edge_grouped(const double* dims,
                               std::int64_t i,
                               std::int64_t a0,
                               std::int64_t a1,
                               std::int64_t b0,
                               std::int64_t width,
                               const double* in_i,
                               const double* fresh,
                               double* val,
                               std::int64_t* arg,
                               LowerEdgeGroup& group) {
    const std::int64_t k1 = a1 - 1;
    const auto row_of = [&](std::int64_t k) { return fresh + (k + 1 - a0) * width; };  // c(k + 1, ·)
    if ((k1 - i) % 4 == 0) {
        const std::int64_t g = std::min<std::int64_t>(4, i - a0 + 1);
        group.bottom = i;
        group.base = i - g + 1;
        group.span = std::max<std::int64_t>(1, k1 - group.base);
        group.acc.assign(static_cast<std::size_t>(4 * width), std::numeric_limits<double>::max());
        group.tag.resize(static_cast<std::size_t>(4 * group.span));
        const double* src = in_i;
        for (std::int64_t t = 0; t < g; ++t) {
            const std::int64_t it = i - t;
            if (t > 0) {
                src -= b0 - it;
            }
            double* tag = group.tag.data() + t * group.span;
            for (std::int64_t k = it; k < k1; ++k) {
                tag[k - group.base] = src[k - it] + static_cast<double>(k - group.base) * k_fraction;
            }
        }
        const auto tags = [&](std::int64_t t) -> const double* { return group.tag.data() + t * group.span; };
        const auto shared = [&]<std::size_t G>(const std::array<std::int64_t, G>& rows,
                                               const std::array<const double*, G>& row_tags) {
            lower_edge_tagged_rows<G>(dims, rows, row_tags, group.base, i, k1, row_of(i), width, b0, group.acc.data());
        };
        if (g == 4) {
            shared(std::array{i, i - 1, i - 2, i - 3}, std::array{tags(0), tags(1), tags(2), tags(3)});
        } else if (g == 3) {
            shared(std::array{i, i - 1, i - 2}, std::array{tags(0), tags(1), tags(2)});
        } else if (g == 2) {
            shared(std::array{i, i - 1}, std::array{tags(0), tags(1)});
        } else {
            shared(std::array{i}, std::array{tags(0)});
        }
    }
    const std::int64_t t = group.bottom - i;
    double* acc = group.acc.data() + t * width;
    lower_edge_tagged_rows<1>(dims,
                              std::array{i},
                              std::array<const double*, 1>{group.tag.data() + t * group.span},
                              group.base,
                              i,
                              group.bottom,
                              row_of(i),
                              width,
                              b0,
                              acc);
    using V = Simd<double>::V;
    for (std::int64_t m = 0; m < width; m += 8) {
        const __mmask8 valid = valid_lanes(width - m);
        V v = reinterpret_cast<V>(
            _mm512_mask_loadu_pd(reinterpret_cast<__m512d>(V{} + std::numeric_limits<double>::max()), valid, val + m));
        Lanes w = reinterpret_cast<Lanes>(_mm512_maskz_loadu_epi64(valid, arg + m));
        merge_tagged(reinterpret_cast<V>(_mm512_maskz_loadu_pd(valid, acc + m)), group.base, v, w);
        _mm512_mask_storeu_pd(val + m, valid, reinterpret_cast<__m512d>(v));
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
