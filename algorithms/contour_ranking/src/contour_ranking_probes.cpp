// Contour ranking's kernel constants, by the side 2^e of the block (e = 9 … 11: 0.25–4 M pixels, in and beyond the
// last-level cache; the largest side prices the larger blocks):
// - cr.pixel.2^e: seconds per pixel of everything contour_rank does on one processor outside the merge of the lists
//   (validation, local ranking, resolution), timed as a whole one-processor run on a 2^e × 2^e map without edge pixels;
// - cr.edge.2^e: seconds per edge pixel on top of that, from a run on the paper's diagonal lines at 100 % density
// (every
//   pixel an edge pixel) less the run without edge pixels (a 100 % map takes about four times a 5 % one, so one
//   constant per pixel, measured at 25 %, under-predicted 100 % maps by 70 % and over-predicted 5 % ones);
// - cr.merge: seconds per segment of one merge of boundary lists and its backward resolution, on chains of four
//   segments given in shuffled order, as lists of adjacent regions link up.
// The per-size constants are measured alone on the node too (the one-processor run's prices).
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/group.hpp>

#include "merge.hpp"

namespace llc::detail::contour_ranking {

namespace {

/// Seconds of one one-processor contour_rank of a side × side diagonal-line map at `density`.
double one_processor_run(bool quick, std::int64_t side, double density) {
    Group& alone = Group::world().self();
    const std::vector<std::int8_t> codes = synthetic_successor_map(side, side, density, ContourLines::diagonal);
    const SuccessorMap map = SuccessorMap::from_whole(alone, side, side, codes);
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        const auto ranks = llc::contour_rank(alone, map, ContourPattern::one_level_direct);
        sink += ranks.back().rank;
    });
    volatile std::int64_t keep = sink;  // the ranking's result is used
    (void)keep;
    return t;
}

double pixel_probe(bool quick, int e) {
    const std::int64_t side = std::int64_t{1} << e;
    return one_processor_run(quick, side, 0.0) / static_cast<double>(side * side);
}

double edge_probe(bool quick, int e) {
    const std::int64_t side = std::int64_t{1} << e;
    const double without = one_processor_run(quick, side, 0.0);
    const double all_edges = one_processor_run(quick, side, 1.0);
    // At least a thousandth of the whole run: noise must not make the difference zero or negative.
    return std::max(all_edges - without, 1e-3 * all_edges) / static_cast<double>(side * side);
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
    const auto key = [](const char* name, int e) { return cost::kernel_size_key(name, e); };
    const auto solo = [](const char* name, int e) { return cost::kernel_size_key(cost::solo_kernel_name(name), e); };
    std::vector<cost::KernelProbe> probes;
    for (int e = 9; e <= 11; ++e) {
        const std::string side = "2^" + std::to_string(e);
        probes.push_back(
            {key("cr.pixel", e),
             "pixel of a one-processor contour ranking (validation, local ranking, resolution), " + side + " block",
             [e](bool quick) { return pixel_probe(quick, e); },
             solo("cr.pixel", e)});
        probes.push_back({key("cr.edge", e),
                          "edge pixel of a one-processor contour ranking, on top of cr.pixel, " + side + " block",
                          [e](bool quick) { return edge_probe(quick, e); },
                          solo("cr.edge", e)});
    }
    probes.push_back({"cr.merge", "segment of a merge of boundary lists and its backward resolution", merge_probe});
    return probes;
}

}  // namespace llc::detail::contour_ranking
