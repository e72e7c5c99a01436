#pragma once
// The inner loops of symv, shared by the product and by its kernel probes (so that the profile's constants time the
// code that runs).
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <llc/algorithms/symv.hpp>

namespace llc::detail::symv {

/// One stored row segment a[0, len) = a_{i, c…c+len−1} of an off-diagonal block, used both ways in one pass: returns
/// the row contribution Σ_j a_j·x_j (x = x_c…) and adds the column contributions a_j·x_i to g (g = partial sums of
/// y_c…). Reading each entry once for both halves is what makes the packed product as cheap as a full one: the loop is
/// memory-bound. Written with GCC vectors of 32 bytes and two vector partial sums: the compiler does not vectorise a
/// floating-point sum by itself (it may not reassociate), and a scalar loop ran 3–5× slower than OpenBLAS dspmv.
template <class T>
inline T fused_row(const T* __restrict__ a, std::int64_t len, const T* __restrict__ x, T xi, T* __restrict__ g) {
    typedef T V __attribute__((vector_size(32)));
    constexpr std::int64_t w = sizeof(V) / sizeof(T);
    V s0{};
    V s1{};
    const V vxi = V{} + xi;
    std::int64_t j = 0;
    for (; j + 2 * w <= len; j += 2 * w) {
        V a0;
        V a1;
        V x0;
        V x1;
        V g0;
        V g1;
        std::memcpy(&a0, a + j, sizeof(V));  // unaligned loads: rows of a packed triangle start anywhere
        std::memcpy(&a1, a + j + w, sizeof(V));
        std::memcpy(&x0, x + j, sizeof(V));
        std::memcpy(&x1, x + j + w, sizeof(V));
        std::memcpy(&g0, g + j, sizeof(V));
        std::memcpy(&g1, g + j + w, sizeof(V));
        s0 += a0 * x0;
        s1 += a1 * x1;
        g0 += a0 * vxi;
        g1 += a1 * vxi;
        std::memcpy(g + j, &g0, sizeof(V));
        std::memcpy(g + j + w, &g1, sizeof(V));
    }
    const V s = s0 + s1;
    T sum{};
    for (std::int64_t k = 0; k < w; ++k) {
        sum += s[k];
    }
    for (; j < len; ++j) {
        sum += a[j] * x[j];
        g[j] += a[j] * xi;
    }
    return sum;
}

/// Σ_j a_j·x_j over [0, len): a row of the standard algorithm's full rows.
template <class T>
inline T dot(const T* __restrict__ a, std::int64_t len, const T* __restrict__ x) {
    T s0{};
    T s1{};
    T s2{};
    T s3{};
    std::int64_t j = 0;
    for (; j + 4 <= len; j += 4) {
        s0 += a[j] * x[j];
        s1 += a[j + 1] * x[j + 1];
        s2 += a[j + 2] * x[j + 2];
        s3 += a[j + 3] * x[j + 3];
    }
    for (; j < len; ++j) {
        s0 += a[j] * x[j];
    }
    return (s0 + s1) + (s2 + s3);
}

/// The kernel tables' sizes: the probe at 2^e runs a share of (probe_side_scale · 2^e)² entries, and cost::symv reads
/// the table at √(the busiest rank's entries) / probe_side_scale. The scale keeps the probed products off the validated
/// sizes (powers of two: at P = 2 a share of 2^2e entries is a product of 2^(e+1) rows) and between them, so the
/// calibration never times a validated product (docs/validation.md).
inline constexpr double probe_side_scale = 1.5;

/// Where one row block of rank q lies: its rows and where they start among q's local rows.
struct LocalBlock {
    int b;
    std::int64_t begin;
    std::int64_t end;
    std::int64_t local;  ///< index of its first row among the rank's rows
};

inline std::vector<LocalBlock> local_blocks(const SymvLayout& layout, int q) {
    std::vector<LocalBlock> blocks;
    std::int64_t local = 0;
    for (const int b : layout.blocks_of(q)) {
        blocks.push_back({b, layout.block_begin(b), layout.block_begin(b + 1), local});
        local += layout.block_size(b);
    }
    return blocks;
}

/// Reflection mapping, the busy part of step s of processor q (`row(k)`: q's local row k as stored, a_{i,0…i}): for
/// each of q's row blocks b and each block c < b of processor d = (q + s) mod P, one pass over A_{b,c} adds
/// (A_{b,c})ᵀ X_b to `gamma` (d's partial sums, in d's local layout) and A_{b,c} X_c to `mine` (q's y', local layout).
/// The article's phases fall out of c < b: in its phase 1 (q + s < P) only block w = 2P−1−q lies below both of d's
/// blocks, in phase 2 both of q's blocks lie below block d and none below 2P−1−d, whose partial sum passes through.
/// Shared by the product and its probes, so that the profile's constants time these passes over rows of this shape.
template <class T, class Row>
void reflection_step(
    const SymvLayout& layout, int q, Row&& row, std::span<const T> x, int d, std::span<T> gamma, std::span<T> mine) {
    const std::vector<LocalBlock> rows = local_blocks(layout, q);
    const std::vector<LocalBlock> cols = local_blocks(layout, d);
    for (const LocalBlock& rb : rows) {
        for (const LocalBlock& cb : cols) {
            if (cb.b >= rb.b || cb.begin == cb.end) {
                continue;
            }
            const std::int64_t len = cb.end - cb.begin;
            T* g = gamma.data() + cb.local;
            for (std::int64_t i = rb.begin; i < rb.end; ++i) {
                const std::int64_t k = rb.local + (i - rb.begin);
                const T* a = row(k) + cb.begin;
                mine[static_cast<std::size_t>(k)] +=
                    fused_row(a, len, x.data() + cb.begin, x[static_cast<std::size_t>(i)], g);
            }
        }
    }
}

/// The diagonal blocks A_{b,b} of rank q: the full symmetric product from their stored lower halves (article [3]
/// §3.2 leaves this implicit: the strict lower part gives both a row and a column contribution, the diagonal one).
template <class T, class Row>
void reflection_diagonal(const SymvLayout& layout, int q, Row&& row, std::span<const T> x, std::span<T> mine) {
    for (const LocalBlock& rb : local_blocks(layout, q)) {
        T* g = mine.data() + rb.local;
        for (std::int64_t i = rb.begin; i < rb.end; ++i) {
            const std::int64_t k = rb.local + (i - rb.begin);
            const T* a = row(k);
            const T xi = x[static_cast<std::size_t>(i)];
            const T r = fused_row(a + rb.begin, i - rb.begin, x.data() + rb.begin, xi, g);
            mine[static_cast<std::size_t>(k)] += r + a[i] * xi;
        }
    }
}

/// Standard mapping, the busy part of a step of rank q (`rows` local rows, `row(k)`: a_{i,0…n−1}): its rows' block
/// of columns c times `held` = X_c.
template <class T, class Row>
void standard_step(
    const SymvLayout& layout, std::int64_t rows, Row&& row, int c, std::span<const T> held, std::span<T> mine) {
    const std::int64_t begin = layout.block_begin(c);
    const std::int64_t len = layout.block_size(c);
    for (std::int64_t k = 0; k < rows; ++k) {
        mine[static_cast<std::size_t>(k)] += dot(row(k) + begin, len, held.data());
    }
}

}  // namespace llc::detail::symv
