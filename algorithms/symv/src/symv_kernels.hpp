#pragma once
// The inner loops of symv, shared by the product and by its kernel probes (so that the profile's constants time the
// code that runs).
#include <cstdint>

namespace llc::detail::symv {

/// One stored row segment a[0, len) = a_{i, c…c+len−1} of an off-diagonal block, used both ways in one pass: returns
/// the row contribution Σ_j a_j·x_j (x = x_c…) and adds the column contributions a_j·x_i to g (g = partial sums of
/// y_c…). Reading each entry once for both halves is what makes the packed product as cheap as a full one: the loop is
/// memory-bound. Four partial sums let the compiler vectorise without reassociating floating point itself.
template <class T>
inline T fused_row(const T* __restrict__ a, std::int64_t len, const T* __restrict__ x, T xi, T* __restrict__ g) {
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
        g[j] += a[j] * xi;
        g[j + 1] += a[j + 1] * xi;
        g[j + 2] += a[j + 2] * xi;
        g[j + 3] += a[j + 3] * xi;
    }
    for (; j < len; ++j) {
        s0 += a[j] * x[j];
        g[j] += a[j] * xi;
    }
    return (s0 + s1) + (s2 + s3);
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
