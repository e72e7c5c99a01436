#pragma once
/// @file
/// The distance transforms and path planning on images distributed by rows (row_image.hpp), by metric: one entry
/// point over chamfer_distance_transform (chamfer.hpp), euclidean_distance_transform (euclidean_distance.hpp) and
/// path_planning (path_planning.hpp), which take raw spans.
#include <cstdint>
#include <span>
#include <string_view>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc {

/// The distances distance_transform computes: the chamfer metrics of the thesis (int32 distances) or the exact
/// Euclidean one (int32 squared distances, exact).
enum class Metric {
    d4,           ///< city block: steps (0, ±1), (±1, 0) of weight 1
    d8,           ///< chessboard: the 8 neighbours, weight 1
    chamfer34,    ///< Borgefors 3-4: weight 3 across, 4 diagonally
    chamfer5711,  ///< Borgefors 5-7-11 (5 × 5 mask)
    euclidean,    ///< exact squared Euclidean distance
};

/// "d4", "d8", "chamfer34", "chamfer5711", "euclidean".
[[nodiscard]] std::string_view metric_name(Metric metric) noexcept;
/// metric_name under the name every enum of llc has for it (llc-run's options parse enums by their to_string).
[[nodiscard]] inline std::string_view to_string(Metric metric) noexcept {
    return metric_name(metric);
}
/// The metric named by metric_name. @throws llc::Error naming `function` and the value for any other name.
[[nodiscard]] Metric parse_metric(std::string_view name, const char* function = "llc::parse_metric");
/// The chamfer mask of a chamfer metric. @throws llc::Error for Metric::euclidean.
[[nodiscard]] ChamferMask chamfer_mask(Metric metric);

/// The distance of every pixel to the nearest feature (a pixel equal to 0), in the same layout as `image`; −1 where
/// no feature is reachable (everywhere, when the image has none). For Metric::euclidean the exact squared distance.
///
/// `k`: the chamfer pipeline's segment length (0: the cost model's choice with `profile`, ⌈width/16⌉ without);
/// ignored by the Euclidean transform, whose cost does not depend on it. The layout's r is the image's.
/// @throws llc::Error on every rank as chamfer_distance_transform and euclidean_distance_transform do, and for an
///         image part that is not this group's (layout.P ≠ size(), rank ≠ rank()).
/// Collective over g. Cost: cost::chamfer_distance_transform or cost::euclidean_distance_transform.
[[nodiscard]] DistributedImage<std::int32_t> distance_transform(Group& g,
                                                                const DistributedImage<std::uint8_t>& image,
                                                                Metric metric,
                                                                std::int64_t k = 0,
                                                                const cost::Profile* profile = nullptr);
/// The same with any chamfer mask (ChamferMask::custom).
[[nodiscard]] DistributedImage<std::int32_t> distance_transform(Group& g,
                                                                const DistributedImage<std::uint8_t>& image,
                                                                const ChamferMask& mask,
                                                                std::int64_t k = 0,
                                                                const cost::Profile* profile = nullptr);

/// Least path costs and the number of sweeps it took.
struct PlannedPaths {
    DistributedImage<double> cost;  ///< least cost of a path from a source, +∞ where none reaches
    PathPlanningReport report;
};

/// path_planning on a cost map distributed by rows; the result in the same layout. @throws as path_planning, and
/// for a map part that is not this group's. Collective over g. Cost: cost::path_planning per sweep.
[[nodiscard]] PlannedPaths path_planning(Group& g,
                                         const DistributedImage<double>& costs,
                                         std::span<const Pixel> sources,
                                         std::int64_t k = 0);

namespace cost {

/// The CCM cost of distance_transform by metric: chamfer_distance_transform(P, width, height, r, k, chamfer_mask
/// (metric), profile) for the chamfer metrics, euclidean_distance_transform(P, width, height, r, profile) (k unused)
/// for Metric::euclidean. @throws as those functions.
[[nodiscard]] Expr distance_transform(int P,
                                      std::int64_t width,
                                      std::int64_t height,
                                      std::int64_t r,
                                      std::int64_t k,
                                      Metric metric,
                                      const Profile& profile);

}  // namespace cost

}  // namespace llc
