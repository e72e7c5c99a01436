#pragma once
/// @file
/// The exact Euclidean distance transform (EDT) of a binary image distributed by rows, and its CCM cost function.
///
/// Every pixel gets the squared Euclidean distance to the nearest feature pixel (a pixel equal to 0), exactly, in
/// integers, and optionally that feature's index. Features are only the image's own zero pixels: nothing outside the
/// image counts. An image without any feature gives −1 ("unreachable") everywhere.
///
/// Algorithm: Meijster, Roerdink & Hesselink (2002), split for rows distributed in blocks (Miguet's layout, article
/// [2]: blocks of r rows, block b on processor b mod P). Phase 1 runs down and up each block alone and summarises it
/// by the first and last feature row of each column; one all-gather of the summaries gives every processor the
/// feature rows nearest above and below its blocks; phase 2 runs along each row (the lower envelope of the columns'
/// parabolas). No image data moves: the all-gather carries 2 rows per block, so large blocks (r = ⌈height/P⌉) are
/// what the EDT wants, and its cost function says how much smaller ones cost.

#include <cstdint>
#include <span>
#include <vector>

#include <llc/algorithms/row_image.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc {

/// The exact squared Euclidean distance transform.
///
/// @param g        the processors holding the image.
/// @param width    pixels per row (≥ 1), the same on every rank.
/// @param height   rows (≥ 1), the same on every rank; (width − 1)² + (height − 1)² must fit in int32.
/// @param r        rows per block (≥ 1), the same on every rank.
/// @param image    this processor's rows (block_rows_held(P, rank, height, r) × width pixels), row-major, in
///                 increasing row order; 0 marks a feature.
/// @param squared  out, same shape: the squared distance to the nearest feature, −1 if the image has none.
/// @param nearest  out (optional, empty to skip), same shape: that feature's index row · width + column, −1 if none.
///                 Where several features are nearest, one of them, the same at every P and r.
/// @throws llc::Error on every rank for a bad or differing width, height or r, a span of the wrong size, or an image
///         too large for int32 squared distances.
///
/// Collective over g: one all-gatherv of the blocks' summaries (none at P = 1). Traced as "edt.summaries".
/// Cost: cost::euclidean_distance_transform(P, width, height, r).
void euclidean_distance_transform(Group& g,
                                  std::int64_t width,
                                  std::int64_t height,
                                  std::int64_t r,
                                  std::span<const std::uint8_t> image,
                                  std::span<std::int32_t> squared,
                                  std::span<std::int32_t> nearest = {});

namespace cost {

/// The CCM cost of llc::euclidean_distance_transform on P processors, from the kernel constants
/// "dt.edt_columns.2^k" (phase 1, seconds per pixel of a block of 2^k pixels), "dt.edt_rows.2^k" (phase 2, per pixel
/// of a row of 2^k pixels) and "dt.edt_carry" (per column and block of the scans over the summaries), and the
/// profile's all-gather:
///   Φ = C·N_max + T_allgather(P, 8·B·width) + S·B·width + R·N_max
/// where N_max is the most pixels a processor holds and B = ⌈height/r⌉ the number of blocks (no all-gather at
/// P = 1). @throws llc::Error for P < 1, width, height or r < 1, or a profile without the constants.
[[nodiscard]] Expr euclidean_distance_transform(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, const Profile& profile);

}  // namespace cost

namespace detail::edt {
/// The kernel probes whose constants cost::euclidean_distance_transform reads (llc-probe runs them through the
/// distance-transform card).
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
}  // namespace detail::edt

}  // namespace llc
