#pragma once
// The matrix chain's policy for the interval-DP engine (interval_dp.hpp), private to llc_algorithms: its min-plus
// ranges over k (one, two or four rows against a column) and its push form for the edges.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>
#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include "min_plus.hpp"
#include "min_plus_rows.hpp"

namespace llc::detail::interval_dp {

/// n·max(dims)³ (n = count, the dimensions' count: one more than the matrices), a bound on every candidate
/// c(i,k) + c(k+1,j) + dims[i]·dims[k+1]·dims[j+1] of the chain, in long double so that it does not overflow. The
/// engine's arithmetic is chosen by it: double below 2^53, the tagged middle below 2^42, int64 unchecked below 2^62.
[[nodiscard]] inline long double chain_candidate_bound(const std::int64_t* dims, std::size_t count) {
    long double top = 0.0L;
    for (std::size_t e = 0; e < count; ++e) {
        top = std::max(top, static_cast<long double>(dims[e]));
    }
    return static_cast<long double>(count) * top * top * top;
}

/// push_edges' lower edges of a block's rows taken four rows a group (DoubleChainPolicy::push_rows_grouped, AVX-512
/// builds): the group's tagged minima, kept in EdgeWork from the group's bottom row to its top row.
struct LowerEdgeGroup {
    std::vector<double> acc;  ///< row t of the group (row bottom − t) at t·width
    std::vector<double> tag;  ///< c(bottom − t, k) + (k − base)·2^−10 at t·span + (k − base)
    std::int64_t bottom = 0;
    std::int64_t base = 0;  ///< the group's top row: every k of its lower edges is at least base
    std::int64_t span = 0;
};

/// The k loop of the edges' push form for one strip of 8 columns j: for k in [k0, k1) ascending, candidate(k) (the 8
/// lanes' c(i, k) + c(k + 1, j) + f) replaces (v, w) = (value, k) lane by lane where strictly smaller — the result of
/// one such loop, computed over four interleaved chains (k − k0 ≡ 0, 1, 2, 3 mod 4), each with its own first minimum,
/// merged at the end by the smaller value and on a tie the smaller k. One loop's compare and blend make a chain of
/// several cycles from each k to the next, which held the edges at a few times the middle's cost per update
/// (push_edges was 22 % of a P = 2 run at n = 4000 in perf, for 8 % of the updates); four chains overlap. The (v, w)
/// passed in keep every tie, as strict < does. V holds the values (int64 or double), w the k (int64 lanes).
template <class V, class Candidate>
inline __attribute__((always_inline)) void push_strip(
    std::int64_t k0, std::int64_t k1, const Candidate& candidate, V& v, Lanes& w) {
    const V top = V{} + std::numeric_limits<std::remove_cvref_t<decltype(v[0])>>::max();
    std::array<V, 4> best{top, top, top, top};
    std::array<Lanes, 4> first{Lanes{}, Lanes{}, Lanes{}, Lanes{}};
    std::int64_t k = k0;
    for (; k + 4 <= k1; k += 4) {
        for (std::size_t q = 0; q < 4; ++q) {
            const std::int64_t kq = k + static_cast<std::int64_t>(q);
            const V c = candidate(kq);
            const Lanes less = c < best[q];
            best[q] = less ? c : best[q];
            first[q] = less ? Lanes{} + kq : first[q];
        }
    }
    for (; k < k1; ++k) {  // the last k, into chain 0: above its own k, so strict < keeps its earlier ties
        const V c = candidate(k);
        const Lanes less = c < best[0];
        best[0] = less ? c : best[0];
        first[0] = less ? Lanes{} + k : first[0];
    }
    const auto merge = [&](std::size_t a, std::size_t b) {
        const Lanes take = (best[b] < best[a]) | ((best[b] == best[a]) & (first[b] < first[a]));
        best[a] = take ? best[b] : best[a];
        first[a] = take ? first[b] : first[a];
    };
    merge(0, 1);
    merge(2, 3);
    merge(0, 2);
    const Lanes less = best[0] < v;
    v = less ? best[0] : v;
    w = less ? first[0] : w;
}

#if defined(__AVX512F__)
/// The strip's own k in upper_edge_strips (and its tagged form): lane t (j = s0 + t) is final once the pushes of the
/// lanes before it are in, and is pushed, k = j, to the lanes after it: c(i, j) + c(j + 1, j') + a(j)·z. The value
/// travels as a lane broadcast (vpermq), not through memory: the chain from one lane to the next is the strip's
/// critical path (a store and a scalar reload of the vector ran at about a third of push_edges' cycles in perf).
/// crows: the strip's columns of the diagonal block, row k at (k − b0)·width; a(j): dims[i]·dims[j + 1] in every lane.
/// maskz with every lane set: GCC 12 reports the plain intrinsic's undefined source as uninitialised (see times).
template <class T, class V, class A>
inline __attribute__((always_inline)) void strip_own_k(std::int64_t s0,
                                                       std::int64_t len,
                                                       __mmask8 valid,
                                                       const T* crows,
                                                       std::int64_t b0,
                                                       std::int64_t width,
                                                       const A& a,
                                                       V z,
                                                       V& v,
                                                       Lanes& w) {
    for (std::int64_t t = 0; t + 1 < len; ++t) {
        const std::int64_t j = s0 + t;
        const auto later = static_cast<__mmask8>(valid & ~((2U << t) - 1U));  // c(j + 1, j') set for j' > j
        const V x = reinterpret_cast<V>(_mm512_maskz_loadu_epi64(later, crows + (j + 1 - b0) * width));
        const V c = reinterpret_cast<V>(
                        _mm512_maskz_permutexvar_epi64(0xFF, _mm512_set1_epi64(t), reinterpret_cast<__m512i>(v))) +
                    (x + times<V, true>(a(j), z));
        __mmask8 less = 0;
        if constexpr (std::is_same_v<T, double>) {
            less =
                _mm512_mask_cmp_pd_mask(later, reinterpret_cast<__m512d>(c), reinterpret_cast<__m512d>(v), _CMP_LT_OQ);
        } else {
            less = _mm512_mask_cmplt_epi64_mask(later, reinterpret_cast<__m512i>(c), reinterpret_cast<__m512i>(v));
        }
        v = reinterpret_cast<V>(
            _mm512_mask_mov_epi64(reinterpret_cast<__m512i>(v), less, reinterpret_cast<__m512i>(c)));
        w = reinterpret_cast<Lanes>(_mm512_mask_mov_epi64(reinterpret_cast<__m512i>(w), less, _mm512_set1_epi64(j)));
    }
}

/// Hands the strip's len final (value, k) to finish(j, value, k), j = s0 + t. Stored by intrinsic, not memcpy from
/// &v: taking v's address kept it on the stack through strip_own_k's chain (a store and a reload in every step of its
/// critical path; P = 2, n = 4000: 4 % of the run).
template <class T, class V, class Finish>
inline __attribute__((always_inline)) void finish_strip(
    std::int64_t s0, std::int64_t len, V v, Lanes w, const Finish& finish) {
    alignas(64) std::array<T, 8> vs{};
    alignas(64) std::array<std::int64_t, 8> ws{};
    _mm512_store_si512(vs.data(), reinterpret_cast<__m512i>(v));
    _mm512_store_si512(ws.data(), reinterpret_cast<__m512i>(w));
    for (std::int64_t t = 0; t < len; ++t) {
        finish(s0 + t, vs[static_cast<std::size_t>(t)], ws[static_cast<std::size_t>(t)]);
    }
}

/// ChainPolicy::upper_edge's work (and DoubleChainPolicy's, T = double), its conditions checked: every
/// dims[i]·dims[k + 1] below 2^32 for int64; for double every candidate an integer below 2^53.
template <class T, class Finish>
void upper_edge_strips(const T* dims,
                       std::int64_t i,
                       std::int64_t b0,
                       std::int64_t b1,
                       const T* row,
                       const T* diag,
                       const T* val,
                       const std::int64_t* arg,
                       const Finish& finish) {
    using V = typename Simd<T>::V;
    const std::int64_t width = b1 - b0;
    const V vtop = V{} + std::numeric_limits<T>::max();
    const auto load = [](__mmask8 mask, auto src, const void* p) {
        return reinterpret_cast<decltype(src)>(_mm512_mask_loadu_epi64(reinterpret_cast<__m512i>(src), mask, p));
    };
    for (std::int64_t s0 = b0; s0 < b1; s0 += 8) {
        const std::int64_t len = std::min<std::int64_t>(8, b1 - s0);
        const __mmask8 valid = valid_lanes(len);
        V v = load(valid, vtop, val + (s0 - b0));
        Lanes w = load(valid, Lanes{}, arg + (s0 - b0));
        const V z = load(valid, V{}, dims + s0 + 1);
        const T* crows = diag + (s0 - b0);
        push_strip(
            b0,
            s0,
            [&](std::int64_t k) {
                const V x = load(valid, V{}, crows + (k + 1 - b0) * width);
                return plus_product((V{} + row[k - i]) + x, V{} + dims[i] * dims[k + 1], z);
            },
            v,
            w);
        strip_own_k<T>(
            s0, len, valid, crows, b0, width, [&](std::int64_t j) { return V{} + dims[i] * dims[j + 1]; }, z, v, w);
        finish_strip<T>(s0, len, v, w, finish);
    }
}
#endif

/// The push form's scalar loop over [m0, len): the candidate cik + crow[m] + a·g[m] replaces (val, arg)[m] when
/// strictly smaller (T = int64 or double, as the policy's values).
template <class T>
inline void push_scalar(std::int64_t k,
                        T cik,
                        const T* crow,
                        const T* g,
                        T a,
                        std::int64_t m0,
                        std::int64_t len,
                        T* val,
                        std::int64_t* arg) {
    for (std::int64_t m = m0; m < len; ++m) {
        const T c = cik + crow[m] + a * g[m];
        const bool less = c < val[m];
        val[m] = less ? c : val[m];
        arg[m] = less ? k : arg[m];
    }
}

/// Matrix chain: f(i, j, k) = dims[i]·dims[k+1]·dims[j+1].
struct ChainPolicy {
    const std::int64_t* dims;
    bool saturating;
    [[nodiscard]] Best<std::int64_t> range(std::int64_t i,
                                           std::int64_t j,
                                           std::int64_t k0,
                                           std::int64_t k1,
                                           const std::int64_t* row,
                                           const std::int64_t* col) const {
        const std::int64_t* g = dims + k0 + 1;
        Best<std::int64_t> best{};
        if (saturating) {
            std::int64_t a = 0;
            if (__builtin_mul_overflow(dims[i], dims[j + 1], &a)) {
                a = std::numeric_limits<std::int64_t>::max();
            }
            best = min_plus_saturating(row, col, g, a, k1 - k0);
        } else {
            // Not saturating: n·max(d)³ < 2^62, so every dimension is below 2^21 and only a can reach 2^32.
            const std::int64_t a = dims[i] * dims[j + 1];
            best = a < (std::int64_t{1} << 32) ? min_plus<std::int64_t, true, true>(row, col, g, a, k1 - k0)
                                               : min_plus<std::int64_t, true, false>(row, col, g, a, k1 - k0);
        }
        best.m += k0;
        return best;
    }
    /// range for rows i and i + 1 against column j at once (compute_middle): min_plus_pair where the arithmetic is
    /// narrow, else two range calls. row1 = &c(i + 1, k0).
    [[nodiscard]] std::array<Best<std::int64_t>, 2> range2(std::int64_t i,
                                                           std::int64_t j,
                                                           std::int64_t k0,
                                                           std::int64_t k1,
                                                           const std::int64_t* row0,
                                                           const std::int64_t* row1,
                                                           const std::int64_t* col) const {
        constexpr std::int64_t narrow = std::int64_t{1} << 32;
        const std::int64_t a0 = saturating ? narrow : dims[i] * dims[j + 1];
        const std::int64_t a1 = saturating ? narrow : dims[i + 1] * dims[j + 1];
        if (a0 >= narrow || a1 >= narrow) {
            return {range(i, j, k0, k1, row0, col), range(i + 1, j, k0, k1, row1, col)};
        }
        std::array<Best<std::int64_t>, 2> best = min_plus_pair(row0, row1, col, dims + k0 + 1, a0, a1, k1 - k0);
        best[0].m += k0;
        best[1].m += k0;
        return best;
    }
    /// range for rows i … i + 3 against column j at once (compute_middle): min_plus_quad where the arithmetic is
    /// narrow, else range2 twice. rows[t] = &c(i + t, k0).
    [[nodiscard]] std::array<Best<std::int64_t>, 4> range4(std::int64_t i,
                                                           std::int64_t j,
                                                           std::int64_t k0,
                                                           std::int64_t k1,
                                                           const std::array<const std::int64_t*, 4>& rows,
                                                           const std::int64_t* col) const {
        return quad<true>(i, j, k0, k1, rows, col);
    }
#if defined(__AVX512F__)
    /// range4 whose k are group starts where the products are narrow (min_plus_quad<false>), the exact k otherwise:
    /// compute_middle merges a row's chunks by (value, k) and then calls first_in_group once per entry.
    [[nodiscard]] std::array<Best<std::int64_t>, 4> range4_coarse(std::int64_t i,
                                                                  std::int64_t j,
                                                                  std::int64_t k0,
                                                                  std::int64_t k1,
                                                                  const std::array<const std::int64_t*, 4>& rows,
                                                                  const std::int64_t* col) const {
        return quad<false>(i, j, k0, k1, rows, col);
    }
    /// The exact k of range4_coarse's merged result `best` over the k range [kb, ke): row = &c(i, kb), col =
    /// &c(kb + 1, j). An exact k (the products not narrow) is returned as it is.
    [[nodiscard]] std::int64_t first_in_group(std::int64_t i,
                                              std::int64_t j,
                                              std::int64_t kb,
                                              std::int64_t ke,
                                              const std::int64_t* row,
                                              const std::int64_t* col,
                                              Best<std::int64_t> best) const {
        const std::int64_t a = dims[i] * dims[j + 1];
        if (saturating || a >= (std::int64_t{1} << 32)) {
            return best.m;
        }
        return kb + min_plus_first_in_group(row, col, dims + kb + 1, a, ke - kb, best.m - kb, best.value);
    }
#endif
    [[nodiscard]] static std::int64_t finish(std::int64_t, std::int64_t, std::int64_t m) {
        return m;
    }
    /// range4 (Exact) or range4_coarse: min_plus_quad<Exact> where every dims[i + t]·dims[j + 1] is narrow, else
    /// range2 twice (exact k).
    template <bool Exact>
    [[nodiscard]] std::array<Best<std::int64_t>, 4> quad(std::int64_t i,
                                                         std::int64_t j,
                                                         std::int64_t k0,
                                                         std::int64_t k1,
                                                         const std::array<const std::int64_t*, 4>& rows,
                                                         const std::int64_t* col) const {
        constexpr std::int64_t narrow = std::int64_t{1} << 32;
        std::array<std::int64_t, 4> a{};
        bool fits = !saturating;
        for (std::size_t t = 0; t < 4 && fits; ++t) {
            a[t] = dims[i + static_cast<std::int64_t>(t)] * dims[j + 1];
            fits = a[t] < narrow;
        }
        if (!fits) {
            const auto lo = range2(i, j, k0, k1, rows[0], rows[1], col);
            const auto hi = range2(i + 2, j, k0, k1, rows[2], rows[3], col);
            return {lo[0], lo[1], hi[0], hi[1]};
        }
        std::array<Best<std::int64_t>, 4> best =
            min_plus_quad<std::int64_t, Exact>(rows, col, dims + k0 + 1, a, k1 - k0);
        for (Best<std::int64_t>& b : best) {
            b.m += k0;
        }
        return best;
    }
    /// Whether push may be used (the saturating arithmetic goes through range only).
    [[nodiscard]] bool pushes() const {
        return !saturating;
    }
    /// push for every k in [k0, k1) (chain_push_rows where the products are narrow, else push k by k).
    void push_rows(std::int64_t i,
                   std::int64_t k0,
                   std::int64_t k1,
                   const std::int64_t* cik,
                   const std::int64_t* crows,
                   std::int64_t stride,
                   std::int64_t j0,
                   std::int64_t* val,
                   std::int64_t* arg) const;
    /// For j in [j0, j0 + len): the candidate c(i,k) + c(k+1,j) + dims[i]·dims[k+1]·dims[j+1] (crow[j − j0] =
    /// c(k+1, j)) replaces (val, arg)[j − j0] when strictly smaller — the same int64 value as range computes.
    void push(std::int64_t i,
              std::int64_t k,
              std::int64_t cik,
              const std::int64_t* crow,
              std::int64_t j0,
              std::int64_t len,
              std::int64_t* val,
              std::int64_t* arg) const {
        const std::int64_t a = dims[i] * dims[k + 1];
        const std::int64_t* g = dims + j0 + 1;
        std::int64_t m = 0;
        if (a < (std::int64_t{1} << 32)) {  // dims below 2^21 (not saturating): the product is one vpmuludq
            using V = Simd<std::int64_t>::V;
            V vc;
            V va;
            V vk;
            for (int l = 0; l < 8; ++l) {
                vc[l] = cik;
                va[l] = a;
                vk[l] = k;
            }
            for (; m + 8 <= len; m += 8) {
                V x;
                V z;
                V v;
                V w;
                std::memcpy(&x, crow + m, sizeof(V));
                std::memcpy(&z, g + m, sizeof(V));
                std::memcpy(&v, val + m, sizeof(V));
                std::memcpy(&w, arg + m, sizeof(V));
                const V c = vc + x + times<V, true>(va, z);
                const V less = c < v;
                v = less ? c : v;
                w = less ? vk : w;
                std::memcpy(val + m, &v, sizeof(V));
                std::memcpy(arg + m, &w, sizeof(V));
            }
        }
        push_scalar(k, cik, crow, g, a, m, len, val, arg);
    }
    /// The upper edge of row i of an off-diagonal block [b0, b1) and its entries made final (push_edges): for each
    /// strip of 8 columns j, the k in [b0, strip) in registers (k inner, as chain_push_rows: no load and store of
    /// val and arg per k, no scalar tail per j), then the strip's own k one by one, each entry made final by
    /// finish(j, value, k) and pushed to the strip's later lanes. row[k − i] = c(i, k), written by finish before a
    /// later strip reads it; diag[(k − b0)·width + (j − b0)] = c(k, j) for k ≤ j; val and arg hold the lower edge
    /// and the middle merged. The same candidates, k ascending with strict <, as push k by k: the same (val, arg).
    /// Returns false (nothing done) without AVX-512 or where some dims[i]·dims[k + 1] reaches 2^32; push_edges then
    /// takes the push form.
    template <class Finish>
    bool upper_edge(std::int64_t i,
                    std::int64_t b0,
                    std::int64_t b1,
                    const std::int64_t* row,
                    const std::int64_t* diag,
                    const std::int64_t* val,
                    const std::int64_t* arg,
                    const Finish& finish) const {
#if defined(__AVX512F__)
        std::int64_t top = 0;
        for (std::int64_t k = b0; k + 1 < b1; ++k) {
            top = std::max(top, dims[k + 1]);
        }
        if (saturating || dims[i] * top >= (std::int64_t{1} << 32)) {  // not saturating: dims below 2^21
            return false;
        }
        upper_edge_strips(dims, i, b0, b1, row, diag, val, arg, finish);
        return true;
#else
        (void)i, (void)b0, (void)b1, (void)row, (void)diag, (void)val, (void)arg, (void)finish;
        return false;
#endif
    }
};

/// ChainPolicy::push for every k in [k0, k1), k ascending, with the candidates of a strip of 8 j kept in registers
/// across the k: push's loop, k outer, loaded and stored val and arg for every k (four loads and two stores a vector;
/// the loop was a quarter of a one-processor run at n = 1000 in perf). cik[k − k0] = c(i, k); the row of c(k + 1, ·)
/// for the block's columns at crows + (k − k0)·stride, stride the block's width (the length of val and arg). Every
/// dims[i]·dims[k + 1] below 2^32 (see times). The same candidates in the same order with strict <: the same
/// (val, arg) as push k by k.
template <class T>
void chain_push_rows(const T* dims,
                     std::int64_t i,
                     std::int64_t k0,
                     std::int64_t k1,
                     const T* cik,
                     const T* crows,
                     std::int64_t stride,
                     std::int64_t j0,
                     T* val,
                     std::int64_t* arg) {
    using V = typename Simd<T>::V;
    const std::int64_t len = stride;  // the block's width: val, arg and the rows of c(k + 1, ·) alike
    const T* g = dims + j0 + 1;
    std::int64_t m = 0;
    for (; m + 8 <= len; m += 8) {
        V v;
        Lanes w;
        V z;
        std::memcpy(&v, val + m, sizeof(V));
        std::memcpy(&w, arg + m, sizeof(Lanes));
        std::memcpy(&z, g + m, sizeof(V));
        push_strip(
            k0,
            k1,
            [&](std::int64_t k) {
                V x;
                std::memcpy(&x, crows + (k - k0) * stride + m, sizeof(V));
                return plus_product((V{} + cik[k - k0]) + x, V{} + dims[i] * dims[k + 1], z);
            },
            v,
            w);
        std::memcpy(val + m, &v, sizeof(V));
        std::memcpy(arg + m, &w, sizeof(Lanes));
    }
#if defined(__AVX512F__)
    if (m < len) {
        // The last 1 … 7 columns as one strip, the lanes past len masked (not loaded, not stored), instead of the
        // scalar loop below: at the default r = 103 of P = 2, n = 4000, 7 of every block's 103 columns.
        const __mmask8 valid = valid_lanes(len - m);
        const auto load = [valid](auto src, const void* p) {
            return reinterpret_cast<decltype(src)>(_mm512_mask_loadu_epi64(reinterpret_cast<__m512i>(src), valid, p));
        };
        V v = load(V{} + std::numeric_limits<T>::max(), val + m);
        Lanes w = load(Lanes{}, arg + m);
        const V z = load(V{}, g + m);
        push_strip(
            k0,
            k1,
            [&](std::int64_t k) {
                const V x = load(V{}, crows + (k - k0) * stride + m);
                return plus_product((V{} + cik[k - k0]) + x, V{} + dims[i] * dims[k + 1], z);
            },
            v,
            w);
        _mm512_mask_storeu_epi64(val + m, valid, reinterpret_cast<__m512i>(v));
        _mm512_mask_storeu_epi64(arg + m, valid, reinterpret_cast<__m512i>(w));
        m = len;
    }
#endif
    for (std::int64_t k = k0; k < k1 && m < len; ++k) {
        const T a = dims[i] * dims[k + 1];
        for (std::int64_t t = m; t < len; ++t) {
            const T c = cik[k - k0] + crows[(k - k0) * stride + t] + a * g[t];
            const bool less = c < val[t];
            val[t] = less ? c : val[t];
            arg[t] = less ? k : arg[t];
        }
    }
}

inline void ChainPolicy::push_rows(std::int64_t i,
                                   std::int64_t k0,
                                   std::int64_t k1,
                                   const std::int64_t* cik,
                                   const std::int64_t* crows,
                                   std::int64_t stride,
                                   std::int64_t j0,
                                   std::int64_t* val,
                                   std::int64_t* arg) const {
    std::int64_t top = 0;
    for (std::int64_t k = k0; k < k1; ++k) {
        top = std::max(top, dims[k + 1]);
    }
    if (dims[i] * top < (std::int64_t{1} << 32)) {  // dims below 2^21 (pushes: not saturating): no overflow
        chain_push_rows(dims, i, k0, k1, cik, crows, stride, j0, val, arg);
        return;
    }
    for (std::int64_t k = k0; k < k1; ++k) {
        push(i, k, cik[k - k0], crows + (k - k0) * stride, j0, stride, val, arg);
    }
}

}  // namespace llc::detail::interval_dp
