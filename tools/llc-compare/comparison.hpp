#pragma once
/// @file
/// Transitional: the comparisons not yet on their card (llc/tools/card.hpp), one file each.
#include <vector>

#include <llc/tools/comparison.hpp>

namespace llc::compare {

/// The comparisons not yet on a card (comparisons.cpp).
[[nodiscard]] std::vector<Comparison> legacy_comparisons();

[[nodiscard]] Comparison matrix_chain_comparison();
[[nodiscard]] Comparison distance_transform_comparison();  ///< only with OpenCV (LLC_HAVE_OPENCV)
[[nodiscard]] Comparison path_planning_comparison();
[[nodiscard]] Comparison contour_ranking_comparison();  ///< only with OpenCV (LLC_HAVE_OPENCV)
[[nodiscard]] Comparison symv_comparison();             ///< only with OpenBLAS (LLC_HAVE_OPENBLAS)

}  // namespace llc::compare
