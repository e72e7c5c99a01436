#pragma once
/// @file
/// Transitional: the validation cases not yet on their card (llc/tools/card.hpp), one file per family.
#include <vector>

#include <llc/tools/validation_case.hpp>

#include "report.hpp"

namespace llc::validate {

/// The cases not yet on a card, in report order (cases.cpp).
[[nodiscard]] std::vector<Case> legacy_cases();

[[nodiscard]] std::vector<Case> distance_transform_cases();
[[nodiscard]] std::vector<Case> matrix_chain_cases();
[[nodiscard]] std::vector<Case> contour_ranking_cases();
[[nodiscard]] std::vector<Case> symv_cases();

}  // namespace llc::validate
