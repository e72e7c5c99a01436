#pragma once
/// @file
/// Transitional: the comparisons not yet on their card (llc/tools/card.hpp), one file each.
#include <vector>

#include <llc/tools/comparison.hpp>

namespace llc::compare {

/// The comparisons not yet on a card (comparisons.cpp).
[[nodiscard]] std::vector<Comparison> legacy_comparisons();

[[nodiscard]] Comparison par_comparison();

}  // namespace llc::compare
