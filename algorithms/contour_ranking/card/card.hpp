#pragma once
/// @file
/// The parts of contour ranking's card, one file each.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

[[nodiscard]] run::RunCommand contour_ranking_run_command();        ///< run_contour_ranking.cpp
[[nodiscard]] std::vector<validate::Case> contour_ranking_cases();  ///< cases_contour_ranking.cpp
[[nodiscard]] compare::Comparison contour_ranking_comparison();     ///< compare_contour_ranking.cpp (with OpenCV)

/// The options of llc-run contour-ranking that both its modes read, checked (run_contour_ranking.cpp).
struct RunOptions {
    std::optional<std::string> input;  ///< --input: a binary image to trace (the tracing mode)
    Connectivity connectivity = Connectivity::eight;
    ContourPattern pattern = ContourPattern::automatic;
    std::optional<std::string> output;
    std::optional<cost::Profile> profile;  ///< --profile: auto's choice (the driver prices the run with its own copy)
};

/// llc-run contour-ranking --input: the image read, to be traced and its borders ranked (run_contour_tracing.cpp).
/// Collective. @throws run::UsageError on every rank naming the file.
[[nodiscard]] std::unique_ptr<run::Run> contour_tracing_run(Group& world, RunOptions options);

}  // namespace llc::cards
