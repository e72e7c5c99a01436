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

/// How unevenly the processors ran the same work side by side: by_probe[i][r] is rank r's median time of probe i (NaN
/// or absent where rank r has none). For each rank r > 0, the median over the probes both r and rank 0 ran of
/// by_probe[i][r] / by_probe[i][0]; returns the one farthest from 1 (by its logarithm: 0.8 is farther than 1.2), or
/// 1 when no rank but 0 ran a probe. Identical processors give 1 within their noise.
[[nodiscard]] double rank_ratio(const std::vector<std::vector<double>>& by_probe);

}  // namespace llc::tools
