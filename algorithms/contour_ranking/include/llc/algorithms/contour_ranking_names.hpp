#pragma once
/// @file
/// The named joins of contour ranking and tracing: the kernel keys its probes write (llc-probe) and its cost functions
/// read, and the superstep labels its implementation records (llc::Label) and its cost expressions price. Declared
/// once here; the probes, the cost functions, the implementation and the card use these constants, never the strings.

#include <array>
#include <cstdint>
#include <string>

namespace llc::names::contour_ranking {

// Kernel keys: written by the probes (llc-probe, "<key>.2^e" by the side 2^e of the block, and "<key>_solo.2^e"
// measured alone on the node), read by the cost functions (llc::cost::contour_rank, llc::cost::trace_contours).
inline constexpr const char* pixel = "cr.pixel";  ///< seconds per pixel of a map's validation, ranking, resolution
// The lines' runs, measured whole: seconds per pixel of the one-processor run of a map of lines side by side (100 %),
// 4 apart (25 %) and 16 apart (6.25 %). The cost function subtracts cr.pixel (the run without edge pixels, measured
// once a size) to price an edge pixel on top of it.
inline constexpr const char* edge_run = "cr.edge_run";        ///< per pixel of a whole run, lines side by side
inline constexpr const char* quarter_run = "cr.quarter_run";  ///< per pixel of a whole run, lines 4 apart
inline constexpr const char* sparse_run = "cr.sparse_run";    ///< per pixel of a whole run, lines 16 apart
// The same prices as older llc-probe builds wrote them, the difference already taken (read when a profile has no
// "<…>_run" table): seconds per edge pixel on top of cr.pixel.
inline constexpr const char* edge = "cr.edge";                  ///< per edge pixel on top, lines side by side (100 %)
inline constexpr const char* quarter_edge = "cr.quarter_edge";  ///< per edge pixel on top, lines 4 apart (25 %)
inline constexpr const char* sparse_edge = "cr.sparse_edge";    ///< per edge pixel on top, lines 16 apart (6.25 %)
inline constexpr const char* merge = "cr.merge";  ///< per segment of a merge of boundary lists (one key, no sizes)
/// The walk's cache step, found by a probe rather than assumed: seconds per step of step 1's walk along lines 16
/// pixels apart (the successor array and the result array of a side × side block, one row a step), written as
/// "cr.walk.<side>" (walk_key) at a ladder of sides from 2^11 to 2^12 that no validation case runs. The cost function
/// reads the ranking's whole-run tables between their 2^11 and 2^12 sizes along this ladder's shape, not on a line in
/// log2 of the side: where the ladder steps is where the runs step.
inline constexpr const char* walk = "cr.walk";
/// The walk ladder's sides: 2^11, 2^11.5, 2^11.75 and 2^12, rounded (the step is looked for where the whole runs
/// straddle it). None is a validated side (640 … 3584, the test in tests/contour_ranking checks it): the ladder times a
/// kernel of the ranking, not a validated input. Every rung is required where the cost function reads the ladder.
inline constexpr std::array<std::int64_t, 4> walk_sides = {2048, 2896, 3444, 4096};
/// The key of the walk ladder's rung at `side`: "cr.walk.<side>".
inline std::string walk_key(std::int64_t side) {
    return std::string(walk) + "." + std::to_string(side);
}
inline constexpr const char* trace_pixel = "tr.pixel";  ///< per pixel of trace_contours on an empty image
inline constexpr const char* trace_state = "tr.state";  ///< per border state of trace_contours on top
inline constexpr const char* trace_rank = "tr.rank";    ///< per border state of contour_rank of a BorderMap
/// Per border state of a block's local ranking when borders leave it (P > 1): step 1 finding the segments, the
/// boundary list and step 3, which a one-processor run (tr.rank: every border a cycle) skips.
inline constexpr const char* trace_rank_cut = "tr.rank_cut";

// Superstep labels: recorded by the implementation's trace, priced by the cost expressions.
inline constexpr const char* ranking = "cr";                            ///< the whole contour_rank of a successor map
inline constexpr const char* validate_borders = "cr.validate.borders";  ///< validation's allgatherv of the perimeters
inline constexpr const char* validate = "cr.validate";                  ///< validation's allreduce of the verdict
inline constexpr const char* local = "cr.local";              ///< local ranking and resolution of a map's block
inline constexpr const char* bal_permute = "cr.bal.permute";  ///< logp-lev-bal: the lists to their holders
inline constexpr const char* bal_return = "cr.bal.return";    ///< logp-lev-bal: the resolutions back
inline constexpr const char* leaf = "cr.leaf";                ///< a block of the merge tree (nothing to do)
inline constexpr const char* gather = "cr.gather";            ///< a gather node: allgatherv, then the merge
inline constexpr const char* allgatherv = "cr.allgatherv";    ///< a gather node's allgatherv of the lists
inline constexpr const char* merging = "cr.merge";            ///< the merge of a node's lists (local work)
inline constexpr const char* level = "cr.level";              ///< a division node: division, then the merge
inline constexpr const char* division = "cr.division";        ///< a division node's division into its children
inline constexpr const char* tracing = "tr";                  ///< the whole trace_contours
inline constexpr const char* halo = "tr.halo";                ///< tracing's allgatherv of the blocks' perimeters
inline constexpr const char* scan = "tr.scan";                ///< tracing's scan of the block
inline constexpr const char* border_ranking = "tr.rank";      ///< the whole contour_rank of a BorderMap
inline constexpr const char* border_local = "tr.local";       ///< its local ranking and resolution
inline constexpr const char* trace_and_rank = "trace+rank";   ///< tracing then ranking (llc-validate's cr-trace)

}  // namespace llc::names::contour_ranking
