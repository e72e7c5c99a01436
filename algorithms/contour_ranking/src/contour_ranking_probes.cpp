// Contour ranking's kernel constants:
// - cr.local: seconds per pixel of everything contour_rank does on one processor outside the merge of the lists
//   (validation, local ranking, resolution), timed as a whole one-processor run on a 512 × 512 image of the paper's
//   diagonal lines at 25 % density (the merge of a single block's list is a few hundred segments, under 1 %);
// - cr.merge: seconds per segment of one merge of boundary lists and its backward resolution, on chains of four
//   segments given in shuffled order, as lists of adjacent regions link up.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/group.hpp>

#include "merge.hpp"

namespace llc::detail::contour_ranking {

namespace {

double local_probe(bool quick) {
    constexpr std::int64_t side = 512;
    Group& alone = Group::world().self();
    const std::vector<std::int8_t> codes = synthetic_successor_map(side, side, 0.25, ContourLines::diagonal);
    const SuccessorMap map = SuccessorMap::from_whole(alone, side, side, codes);
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        const auto ranks = llc::contour_rank(alone, map, ContourPattern::one_level_direct);
        sink += ranks.back().rank;
    });
    volatile std::int64_t keep = sink;  // the ranking's result is used
    (void)keep;
    return t / static_cast<double>(side * side);
}

double merge_probe(bool quick) {
    constexpr std::int64_t segments = 1 << 14;
    std::vector<Segment> lists;
    for (std::int64_t s = 0; s < segments; ++s) {
        // Segment s covers pixels 4s … 4s + 3; every fourth ends at a head, the others lead into the next.
        const std::int64_t first = 4 * s;
        const std::int64_t out = s % 4 == 3 ? kNone : first + 4;
        lists.push_back({first, first + 3, 4, out, first, 3});
    }
    std::shuffle(lists.begin(), lists.end(), std::mt19937_64(7));
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        std::vector<Level> levels;
        levels.push_back(merge(lists));
        sink += static_cast<std::int64_t>(resolve_backward(levels).size());
    });
    volatile std::int64_t keep = sink;
    (void)keep;
    return t / static_cast<double>(segments);
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    return {
        {"cr.local", "pixel of a one-processor contour ranking (validation, local ranking, resolution)", local_probe},
        {"cr.merge", "segment of a merge of boundary lists and its backward resolution", merge_probe}};
}

}  // namespace llc::detail::contour_ranking
