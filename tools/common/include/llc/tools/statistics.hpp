#pragma once
/// @file
/// Statistics of timing samples, shared by the llc tools.

#include <vector>

namespace llc::tools {

/// Linear-interpolated quantile q ∈ [0, 1] of the finite values; NaN when there are none.
[[nodiscard]] double quantile(std::vector<double> values, double q);
/// quantile(values, 0.5).
[[nodiscard]] double median(std::vector<double> values);
/// Relative standard error of the median, robustly: 1.2533 · 1.4826 · MAD / (√n · median) (normal-equivalent spread
/// from the median absolute deviation, asymptotic SE of a median). Infinity for fewer than 3 values, 0 for a zero
/// median.
[[nodiscard]] double median_rse(const std::vector<double>& values);

}  // namespace llc::tools
