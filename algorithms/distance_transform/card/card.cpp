// The cards of the distance transforms and of path planning (llc/tools/card.hpp): how llc-run, llc-validate,
// llc-compare and llc-probe run them. Two cards, as the two are two algorithms over the same row layout: each has its
// own llc-run command, cases, peer and probes.
#include "card.hpp"

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/tools/card.hpp>

namespace llc::cards {

tools::Card distance_transform_card() {
    std::vector<cost::KernelProbe> probes = detail::edt::kernel_probes();
    for (auto& probe : detail::sweep::kernel_probes()) {
        probes.push_back(std::move(probe));
    }
    return {
        .name = "distance-transform",
        .summary =
            "chamfer (d4, d8, 3-4, 5-7-11) and exact Euclidean distance transforms by rows on a ring "
            "(Miguet [2])",
        .layer = tools::CardLayer::algorithm,
        .commands = {distance_transform_run_command()},
        .cases = distance_transform_cases(),
#ifdef LLC_HAVE_OPENCV
        .comparisons = {distance_transform_comparison()},
        .no_peer = {},
#else
        .comparisons = {},
        .no_peer = "built without OpenCV (libopencv-dev): its peer, cv::distanceTransform, is left out",
#endif
        .probes = std::move(probes),
    };
}

tools::Card path_planning_card() {
    return {
        .name = "path-planning",
        .summary = "least path costs over a cost map by red/blue sweeps on a ring (Miguet [2], thesis §2.2.2)",
        .layer = tools::CardLayer::algorithm,
        .commands = {path_planning_run_command()},
        .cases = path_planning_cases(),
        .comparisons = {path_planning_comparison()},
        .no_peer = {},
        .probes = detail::sweep::path_kernel_probes(),
    };
}

}  // namespace llc::cards

LLC_REGISTER_CARD(llc::cards::distance_transform_card)
LLC_REGISTER_CARD(llc::cards::path_planning_card)
