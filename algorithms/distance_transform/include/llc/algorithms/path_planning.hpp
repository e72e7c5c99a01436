#pragma once
/// @file
/// Path planning on a cost map distributed by rows (Bitz & Kung; Miguet & Robert, article [2] §2; thesis §2.2.2), and
/// its CCM cost.
///
/// Every pixel p has a traversal cost tc(p) ≥ 0 (+∞: an obstacle). Moving between 8-neighbours p and q costs
/// (tc(p) + tc(q))/2, times √2 on a diagonal. path_planning gives every pixel the least cost of a path from the nearest
/// source (+∞ where none reaches), by the thesis' red and blue sweeps — red: top to bottom, left to right, from W,
/// NW, N, NE; blue: the mirror — alternated until a sweep other than the first changes nothing (so at least one red and
/// one blue sweep: a first red sweep that changes nothing proves nothing when the sources lie below or right of the
/// rest). Each sweep is the ring pipeline of the chamfer passes (chamfer.hpp): blocks of r rows, block b on processor
/// b mod P, segments of k columns, one Group::shift a step; after each sweep one allreduce says whether anything
/// changed.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <llc/algorithms/chamfer.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc {

/// A pixel of the map: (row, column).
struct Pixel {
    std::int64_t row;
    std::int64_t column;
};

/// What path_planning did.
struct PathPlanningReport {
    int sweeps = 0;  ///< red and blue sweeps run, the last of which changed nothing
};

/// The layout path planning runs best in without a profile: segments of k = min(width, 256) columns and blocks of
/// r = k/4 rows (at most ⌈height/P⌉, at least 1), so a step computes r·k ≈ 16 Ki pixels, a quarter of the chamfer's
/// (sweep_layout): a path-planning pixel costs several times a chamfer pixel, so a smaller step still hides the
/// shift, and the pipeline waits less at each block's ends. At P = 2 (llc-run path-planning, medians of 5–7) it ran
/// 1024², 2048², 4096² in 17.7, 77, 349 ms against 18.3, 89, 374 ms in the chamfer's (128, 512); (32, 256), (64, 512)
/// and (32, 128) were slower. @throws llc::Error for P, width or height < 1.
[[nodiscard]] SweepLayout path_planning_layout(int P, std::int64_t width, std::int64_t height);

/// Least path costs from `sources` over the cost map.
///
/// @param g        the processors holding the map.
/// @param width, height, r  the map and its layout (r rows a block), the same on every rank (each ≥ 1).
/// @param costs    this processor's rows (block_rows_held(P, rank, height, r) × width values), row-major in increasing
///                 row order; each ≥ 0 or +∞.
/// @param sources  the pixels where paths start (cost 0 there), the same list on every rank, at least one.
/// @param out      out, same shape as `costs`: the least cost of a path from a source, +∞ where none reaches.
/// @param k        segment length of the pipeline (≥ 1), or 0 for llc::path_planning_layout's.
/// @throws llc::Error on every rank for a negative or NaN cost (naming the pixel), a source outside the map, no
///         source, sources or sizes that differ across ranks, or spans of the wrong size.
///
/// Collective over g: per sweep the pipeline's shifts ("pp.red", "pp.blue") and one allreduce ("pp.changed").
/// Cost: cost::path_planning.
PathPlanningReport path_planning(Group& g,
                                 std::int64_t width,
                                 std::int64_t height,
                                 std::int64_t r,
                                 std::span<const double> costs,
                                 std::span<const Pixel> sources,
                                 std::span<double> out,
                                 std::int64_t k = 0);

namespace cost {

/// The CCM cost of one red or blue sweep (article [2] §4: the pipeline's steps, as for the chamfer passes, at the
/// kernel constants "dt.path_sweep.2^j", seconds per pixel in segments of 2^j columns on an 8 MiB map, and
/// "dt.path_memory.2^j", the same on a 64 MiB map, between which the processor's cells choose by their bytes; a blue
/// sweep at its own "dt.path_sweep_blue.2^j" and "dt.path_memory_blue.2^j"; the solo constants at P = 1, the
/// side-by-side ones at P > 1; keys in distance_transform_names.hpp) followed by the allreduce that ends it.
/// @throws llc::Error for P, width, height, r or k < 1, or a profile without one of the tables (naming its key).
[[nodiscard]] Expr path_planning_sweep(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, std::int64_t k, bool blue, const Profile& profile);

/// `sweeps` sweeps, red and blue alternately from red: the cost of a run that reported that many, with the run's
/// setup ("dt.path_setup" a pixel of the busiest processor). @throws as path_planning_sweep, for sweeps < 1, or a
/// profile without "dt.path_setup".
[[nodiscard]] Expr path_planning(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, std::int64_t k, int sweeps, const Profile& profile);

}  // namespace cost

/// The sweeps path_planning takes on the whole `width` × `height` map `costs` (row-major) from `sources`: the same at
/// every P and layout (each pipelined sweep computes what the sequential sweep does), found here by the sequential
/// sweeps alone, on this processor, without MPI — what cost::path_planning needs to price a map no run has reported
/// on. @throws llc::Error as path_planning does for bad sizes, costs or sources.
[[nodiscard]] int path_planning_sweeps(std::int64_t width,
                                       std::int64_t height,
                                       std::span<const double> costs,
                                       std::span<const Pixel> sources);

namespace detail::sweep {
/// The kernel probes whose constants cost::path_planning reads (llc-probe runs them through the path-planning card).
[[nodiscard]] std::vector<cost::KernelProbe> path_kernel_probes();
}  // namespace detail::sweep

}  // namespace llc
