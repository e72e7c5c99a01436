// Contour ranking's kernel constants, by the side 2^e of the block (e = 8 … 12: 0.06–16 M pixels, in and beyond the
// last-level cache; the largest side prices the larger blocks, the smallest the blocks of the demo's small maps at
// P = 2, 320 × 640 pixels):
// - cr.pixel.2^e: seconds per pixel of everything contour_rank does on one processor outside the merge of the lists
//   (validation, local ranking, resolution), timed as a whole one-processor run on a 2^e × 2^e map without edge pixels;
// - cr.edge_run.2^e: seconds per pixel of a run on the paper's diagonal lines at 100 % density (every pixel an edge
//   pixel); the cost function prices an edge pixel at the difference from cr.pixel. The edge-free run is timed once a
//   size, for cr.pixel, not again beside each density's run (it was, for four keys). That saves little: the edge-free
//   run is cheap (2^12: ~1.3 s of one quick round's ~47 s, the 100 % run's two calls ~25 s, loaded machine);
// - cr.sparse_run.2^e: the same for lines 16 pixels apart (6.25 %): the walks along lines at least 8 apart share no
//   cache line of the 8-byte arrays, so each step misses, where at 100 % eight neighbouring walks share one (a 5 % map
//   took 40–60 % more per edge pixel than the dense lines price);
// - cr.quarter_run.2^e: the same for lines 4 pixels apart (25 %): the price does not grow linearly with the spacing
//   between 1 and 16 (the 25 % maps were priced 20–45 % high when interpolated between the other two);
// - cr.merge: seconds per segment of one merge of boundary lists and its backward resolution, on chains of four
//   segments given in shuffled order, as lists of adjacent regions link up.
// - cr.walk.<side> (the walk ladder, sides 2048 … 4096): seconds per step of step 1's walk along lines 16 apart, the
//   place of the walks' cache step between the whole-run probes at 2^11 and 2^12 (the cost function reads the
//   whole-run tables between those two sizes along the ladder's shape).
// - tr.pixel.2^e: seconds per pixel of a one-processor trace_contours of a
//   2^e × 2^e image without foreground;
// - tr.state.2^e: seconds per border state on top of that, from the random blob image (llc::random_blob_image, the
//   image llc-compare and llc-validate trace) less the empty one;
// - tr.rank.2^e: seconds per border state of a one-processor contour_rank of that blob image's BorderMap;
// - tr.rank_cut.2^e (e = 9 … 11): seconds per border state of the local ranking of that BorderMap cut at its middle
//   column (step 1 finding the segments, the boundary list, step 3): the work a block with cut borders does at P > 1
//   and a one-processor run, where every border is a cycle, skips.
// The per-size constants are measured alone on the node too (the one-processor run's prices).
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/group.hpp>

#include "cut_ranking.hpp"
#include "merge.hpp"

namespace llc::detail::contour_ranking {

namespace {

namespace cr_names = llc::names::contour_ranking;

/// The density of cr.sparse_edge's lines: 16 pixels apart; of cr.quarter_edge's: 4 apart.
constexpr double kSparseDensity = 1.0 / 16.0;
constexpr double kQuarterDensity = 1.0 / 4.0;

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

/// Seconds per pixel of the whole one-processor run of lines at `density` (cr.edge_run, cr.quarter_run, cr.sparse_run).
double lines_run_probe(bool quick, int e, double density) {
    const std::int64_t side = std::int64_t{1} << e;
    return one_processor_run(quick, side, density) / static_cast<double>(side * side);
}

/// The seed of the probes' blob images: not the validation case's (docs/validation.md).
constexpr std::uint64_t blob_probe_seed = 7321;

/// A side × side binary image: empty, or a random blob image like the validation's, from another seed.
BinaryImage probe_image(std::int64_t side, bool blobs) {
    if (blobs) {
        return BinaryImage::from_whole(
            Group::world().self(), side, side, kept_random_blob_image(side, side, blob_probe_seed));
    }
    const std::vector<std::uint8_t> empty(static_cast<std::size_t>(side * side), 0);
    return BinaryImage::from_whole(Group::world().self(), side, side, empty);
}

/// Seconds of one one-processor trace_contours of `image`; its border states in `states`.
double trace_run(bool quick, const BinaryImage& image, std::int64_t& states) {
    Group& alone = Group::world().self();
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        const BorderMap map = trace_contours(alone, image);
        states = static_cast<std::int64_t>(map.states().size());
        sink += states;
    });
    volatile std::int64_t keep = sink;
    (void)keep;
    return t;
}

double trace_pixel_probe(bool quick, int e) {
    const std::int64_t side = std::int64_t{1} << e;
    std::int64_t states = 0;
    return trace_run(quick, probe_image(side, false), states) / static_cast<double>(side * side);
}

double trace_state_probe(bool quick, int e) {
    const std::int64_t side = std::int64_t{1} << e;
    std::int64_t none = 0;
    std::int64_t states = 0;
    const double empty = trace_run(quick, probe_image(side, false), none);
    const double blobs = trace_run(quick, probe_image(side, true), states);
    // At least a thousandth of the whole run: noise must not make the difference zero or negative.
    return std::max(blobs - empty, 1e-3 * blobs) / static_cast<double>(std::max<std::int64_t>(states, 1));
}

double trace_rank_probe(bool quick, int e) {
    Group& alone = Group::world().self();
    const std::int64_t side = std::int64_t{1} << e;
    const BorderMap map = trace_contours(alone, probe_image(side, true));
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        const auto ranks = contour_rank(alone, map, ContourPattern::one_level_direct);
        sink += ranks.empty() ? 0 : ranks.back().rank;
    });
    volatile std::int64_t keep = sink;
    (void)keep;
    return t / static_cast<double>(std::max<std::size_t>(map.states().size(), 1));
}

/// Seconds per border state of the local ranking of a block with cut borders: the blob image's one-processor
/// BorderMap with the links across its middle column cut, as the line between two blocks cuts them at P = 2.
double trace_rank_cut_probe(bool quick, int e) {
    Group& alone = Group::world().self();
    const std::int64_t side = std::int64_t{1} << e;
    const BorderMap map = trace_contours(alone, probe_image(side, true));
    const std::vector<std::int32_t> cut = cut_at_column(map, side / 2);
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        std::size_t boundary = 0;
        const auto ranks = rank_cut_block(map, cut, boundary);
        sink += static_cast<std::int64_t>(boundary) + (ranks.empty() ? 0 : ranks.back().rank);
    });
    volatile std::int64_t keep = sink;
    (void)keep;
    return t / static_cast<double>(std::max<std::size_t>(map.states().size(), 1));
}

/// Lines the walk ladder walks a side: neighbouring lines, one after the other, as find_segments meets their starts.
constexpr std::int64_t kWalkLines = 16;

/// Seconds per step of step 1's walk (find_segments) on a side × side block of lines 16 pixels apart, successor NE
/// (one row up, one column right, as the paper's diagonal lines): from each line's start, follow the successor array
/// (8 B a pixel, the PixelView's), recording the path, then mark every node of the path in the result array (16 B a
/// pixel). Both arrays are side × side, as the run's, so a step's stride (a row) and what one walk touches before the
/// next, neighbouring walk reuses it are the run's. Only kWalkLines neighbouring lines are walked, the longest (from
/// the left column's lowest starts, as the run's row-major scan meets them): the rest of the run (validation, the
/// cycles' ranking, resolution) is not timed, and the cost function reads the ladder's shape, not its level. Only
/// those lines' entries are written (and their pages touched) before timing.
double walk_probe(bool quick, std::int64_t side) {
    const auto n = static_cast<std::size_t>(side * side);
    const auto next = std::make_unique_for_overwrite<std::int64_t[]>(n);
    const auto result = std::make_unique_for_overwrite<ContourRank[]>(n);
    std::vector<std::int64_t> starts;
    for (std::int64_t r = (side - 1) / 16 * 16; r >= 0 && std::ssize(starts) < kWalkLines; r -= 16) {
        starts.insert(starts.begin(), r * side);  // (r, 0): lines with (row + column) % 16 == 0
    }
    for (const std::int64_t start : starts) {
        for (std::int64_t r = start / side, c = 0; r >= 0 && c < side; --r, ++c) {
            const auto i = static_cast<std::size_t>(r * side + c);
            next[i] = r > 0 && c + 1 < side ? (r - 1) * side + c + 1 : kNone;
            result[i] = {};
        }
    }
    std::vector<std::int64_t> path;
    path.reserve(static_cast<std::size_t>(side));
    std::int64_t steps = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        steps = 0;
        for (const std::int64_t start : starts) {
            path.clear();
            for (std::int64_t i = start; i != kNone; i = next[static_cast<std::size_t>(i)]) {
                path.push_back(i);
            }
            for (const std::int64_t i : path) {
                result[static_cast<std::size_t>(i)].head = start;
            }
            steps += static_cast<std::int64_t>(path.size());
        }
    });
    volatile std::int64_t keep = result[static_cast<std::size_t>(starts.back())].head;  // the marks are used
    (void)keep;
    return t / static_cast<double>(std::max<std::int64_t>(steps, 1));
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
    // Up to 2^12: the walks along sparse lines jump a row (a page and more of each per-pixel array) at every step, and
    // a 4096² map's arrays outgrow what 2^11 prices (its 5 % points were 10–25 % low). From 2^8: the demo's smallest
    // map (640², llc-validate --quick's small class) has blocks of 320 × 640 pixels at P = 2 (a side of 452), which
    // 2^9 and above left to extrapolate below them.
    for (int e = 8; e <= 12; ++e) {
        const std::string side = "2^" + std::to_string(e);
        probes.push_back(
            {key(cr_names::pixel, e),
             "pixel of a one-processor contour ranking (validation, local ranking, resolution), " + side + " block",
             [e](bool quick) { return pixel_probe(quick, e); },
             solo(cr_names::pixel, e)});
        for (const auto& [name, density] : {std::pair{cr_names::edge_run, 1.0},
                                            std::pair{cr_names::quarter_run, kQuarterDensity},
                                            std::pair{cr_names::sparse_run, kSparseDensity}}) {
            probes.push_back({key(name, e),
                              "pixel of a one-processor contour ranking of lines " +
                                  std::to_string(static_cast<int>(1.0 / density)) + " pixels apart (the whole run; " +
                                  cr_names::pixel + " is the run without edge pixels), " + side + " block",
                              [e, density](bool quick) { return lines_run_probe(quick, e, density); },
                              solo(name, e)});
            // 0.7–2.5 s a call at 2^12 (16 M pixels): side by side and alone in one round of a quick calibration
            // (its two rounds were 1–8 % apart side by side, as the rounds of the smaller sizes; 2–17 % alone).
            probes.back().quick_one_round = e == 12;
        }
    }
    // Tracing also at 2^12: a 4096² image (16 MiB) is read from memory, where 2^11 (4 MiB) stays in the last-level
    // cache, and that image's trace costs 1.5× per pixel what 2^11 prices; from 2^8 for the demo's blocks, as above.
    for (int e = 8; e <= 12; ++e) {
        const std::string side = "2^" + std::to_string(e);
        probes.push_back({key(cr_names::trace_pixel, e),
                          "pixel of a one-processor trace_contours without foreground, " + side + " image",
                          [e](bool quick) { return trace_pixel_probe(quick, e); },
                          solo(cr_names::trace_pixel, e)});
        probes.push_back({key(cr_names::trace_state, e),
                          "border state of a one-processor trace_contours of random blobs, on top of " +
                              std::string(cr_names::trace_pixel) + ", " + side + " image",
                          [e](bool quick) { return trace_state_probe(quick, e); },
                          solo(cr_names::trace_state, e)});
        probes.push_back({key(cr_names::trace_rank, e),
                          "border state of a one-processor contour_rank of random blobs' borders, " + side + " image",
                          [e](bool quick) { return trace_rank_probe(quick, e); },
                          solo(cr_names::trace_rank, e)});
    }
    // The ranking of a block with cut borders, priced at P > 1 only (no solo constant): at the sides of the validated
    // blocks at P = 2 (452–2534), the smallest and largest priced at the end values.
    for (int e = 9; e <= 11; ++e) {
        probes.push_back({key(cr_names::trace_rank_cut, e),
                          "border state of a block's local ranking with cut borders (segments, boundary list, step 3), "
                          "random blobs cut at the middle column, 2^" +
                              std::to_string(e) + " image",
                          [e](bool quick) { return trace_rank_cut_probe(quick, e); }});
    }
    // Every probe above times a whole one-processor run (ranking, or tracing) of a 2^e × 2^e image: at sides the
    // validation cases never run (tests/tools/calibration_disjoint_test.cpp).
    for (cost::KernelProbe& probe : probes) {
        const auto at = probe.name.rfind(".2^");
        probe.whole_run_of = "contour-ranking";
        probe.whole_run_size = std::int64_t{1} << std::stoi(probe.name.substr(at + 3));
        if (probe.name.starts_with("tr.")) {  // the tracing probes' blob images
            probe.seed = blob_probe_seed;
        }
    }
    // The walk ladder: where between 2^11 and 2^12 the walks' per-step cost steps (the whole-run probes straddle it);
    // a kernel of the run, not a whole run. Side by side only (the cost function reads its shape, not its level), in a
    // quick calibration's last round only: 16 walks of up to a side each, ~0.2–0.4 µs a step on the quiet VM (the
    // 6.25 % runs' price per edge pixel): ~10–20 ms a call at 4096, ~0.15 s a rung (the quick budget), four rungs.
    for (const std::int64_t side : cr_names::walk_sides) {
        probes.push_back({cr_names::walk_key(side),
                          "step of a walk along lines 16 apart (successor and result arrays), " + std::to_string(side) +
                              " × " + std::to_string(side) + " block",
                          [side](bool quick) { return walk_probe(quick, side); }});
        probes.back().quick_one_round = true;
    }
    probes.push_back(
        {cr_names::merge, "segment of a merge of boundary lists and its backward resolution", merge_probe});
    return probes;
}

}  // namespace llc::detail::contour_ranking
