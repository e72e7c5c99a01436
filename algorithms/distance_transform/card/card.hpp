#pragma once
/// @file
/// The parts of the distance transforms' and path planning's cards, one file each (inputs.hpp and run_rows.hpp: what
/// the parts share).
#include <vector>

#include <llc/tools/card.hpp>

namespace llc::cards {

// The distance-transform card.
[[nodiscard]] run::RunCommand distance_transform_run_command();        ///< run_distance_transform.cpp
[[nodiscard]] std::vector<validate::Case> distance_transform_cases();  ///< cases_distance_transform.cpp
[[nodiscard]] compare::Comparison distance_transform_comparison();     ///< compare_distance_transform.cpp (OpenCV)

// The path-planning card.
[[nodiscard]] run::RunCommand path_planning_run_command();        ///< run_path_planning.cpp
[[nodiscard]] std::vector<validate::Case> path_planning_cases();  ///< cases_path_planning.cpp
[[nodiscard]] compare::Comparison path_planning_comparison();     ///< compare_path_planning.cpp

}  // namespace llc::cards
