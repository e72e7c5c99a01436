#pragma once
// The inner loops of symv, shared by the product and by its kernel probes (so that the profile's constants time the
// code that runs).
#include <cstdint>
#include <cstring>

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

}  // namespace llc::detail::symv
