#pragma once
/// @file
/// Chamfer distance transforms (Rosenfeld–Pfaltz, Borgefors) on images distributed by rows, pipelined along a ring
/// as Miguet & Robert do it (article [2], "Path planning on a ring of processors"; thesis §2.2), and their CCM cost.
///
/// Every pixel gets the chamfer distance to the nearest feature pixel (a pixel equal to 0): the least total weight
/// of a path of mask steps. Two passes compute it: forward (top to bottom, left to right) with the mask's forward
/// half, then backward (bottom to top, right to left) with its mirror. Pixels outside the image are not features and
/// are not crossed. A pixel that no path reaches — every pixel, when the image has no feature — gets −1.
///
/// Distribution (article [2]): blocks of r rows, block b on processor b mod P. Each pass is a pipeline along the
/// ring: a processor computes its block in segments of k columns, each row's segment shifted `lead` columns left of
/// the one above (a parallelogram), and passes the last rows' segment to the next processor, which computes its
/// block's segment at the next step. Each step is one Group::shift.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc {

/// A chamfer mask, by its forward half: steps (dy, dx) with dy < 0, or dy = 0 and dx < 0, each with a positive
/// weight; the backward pass uses the mirrored steps (−dy, −dx).
class ChamferMask {
  public:
    struct Step {
        int dy;
        int dx;
        std::int32_t weight;
    };
    /// d4, the city-block distance: (0,−1) and (−1,0), weight 1.
    [[nodiscard]] static ChamferMask d4();
    /// d8, the chessboard distance: the 3 × 3 neighbours, weight 1.
    [[nodiscard]] static ChamferMask d8();
    /// Borgefors' 3-4: axial 3, diagonal 4.
    [[nodiscard]] static ChamferMask chamfer34();
    /// Borgefors' 5-7-11 (5 × 5): axial 5, diagonal 7, knight 11.
    [[nodiscard]] static ChamferMask chamfer5711();
    /// A mask of one's own: the forward-half steps. @throws llc::Error naming the step for an empty list, a step
    /// that is not in the forward half (or is (0, 0)), a repeated step, a weight ≤ 0, or |dy|, |dx| > 8.
    [[nodiscard]] static ChamferMask custom(std::vector<Step> forward, std::string name = "custom");

    [[nodiscard]] const std::vector<Step>& forward() const noexcept { return forward_; }
    /// The forward steps within the row (dy = 0), which the pass takes one pixel after the other.
    [[nodiscard]] std::span<const Step> in_row() const noexcept { return in_row_; }
    [[nodiscard]] const std::string& name() const noexcept { return name_; }
    /// Rows above a pixel that its forward steps read (1 for 3 × 3 masks, 2 for 5 × 5).
    [[nodiscard]] int reach() const noexcept { return reach_; }
    /// Columns by which each row's segment must lag the row above in the pipeline: max over steps of ⌈dx / −dy⌉, at
    /// least 0 (0 for d4, 1 for d8 and 3-4, 2 for 5-7-11).
    [[nodiscard]] int lead() const noexcept { return lead_; }

  private:
    ChamferMask(std::vector<Step> forward, std::string name);
    std::vector<Step> forward_;
    std::vector<Step> in_row_;
    std::string name_;
    int reach_ = 1;
    int lead_ = 0;
};

/// The chamfer distance transform.
///
/// @param g       the processors holding the image.
/// @param width   pixels per row (≥ 1); @param height rows (≥ 1); @param r rows per block (≥ 1): all the same on
///                every rank. The distances must fit in int32 (checked: the mask's largest weight × (width + height)).
/// @param image   this processor's rows (block_rows_held(P, rank, height, r) × width pixels, row_image.hpp),
///                row-major in increasing row order; 0 marks a feature.
/// @param mask    the chamfer mask, the same on every rank.
/// @param out     out, same shape: the distances, −1 where no path of mask steps reaches a feature.
/// @param k       segment length of the pipeline (≥ 1), the same on every rank; 0: the one the cost model prices
///                lowest for this P, image and r (needs `profile`; without one, ⌈width / 16⌉).
/// @throws llc::Error on every rank for bad or differing arguments or spans of the wrong size.
///
/// Collective over g: at P > 1, each pass is a sequence of Group::shift steps ("dt.forward", "dt.backward"); at P = 1
/// the passes run whole, with no communication. Cost: cost::chamfer_distance_transform.
void chamfer_distance_transform(Group& g,
                                std::int64_t width,
                                std::int64_t height,
                                std::int64_t r,
                                std::span<const std::uint8_t> image,
                                const ChamferMask& mask,
                                std::span<std::int32_t> out,
                                std::int64_t k = 0,
                                const cost::Profile* profile = nullptr);

/// A pipeline's layout: r rows per block, segments of k columns.
struct SweepLayout {
    std::int64_t r = 1;
    std::int64_t k = 1;
};

/// A layout that keeps the pipeline busy without a profile: segments of k = min(width, 512) columns and blocks of
/// r = k/4 rows (at most ⌈height/P⌉, at least 1), so a step computes r·k ≈ 64 Ki pixels (a shift costs a few
/// microseconds beside it) and a block's parallelogram lags its segment by r·lead ≤ k/4·lead columns (the next
/// processor starts a fraction of a step later, where r = ⌈height/P⌉ made it wait r·lead/k steps: a third of a pass
/// at 2048², P = 2, k = 64). @throws llc::Error for P, width or height < 1.
[[nodiscard]] SweepLayout sweep_layout(int P, std::int64_t width, std::int64_t height, const ChamferMask& mask);

namespace cost {

/// The CCM cost of llc::chamfer_distance_transform (article [2] §4, with the step count of the actual schedule):
/// each pass is a sequence of steps; step t costs max over processors of (its r·k-pixel segment's compute) plus
/// T_shift(P, the bytes a processor sends and receives), i.e. article [2]'s τ_step = β + k·τ_c + r·k·τ_a with β + k·τ_c
/// measured as the profile's shift. Per-pixel compute from the kernel constants "dt.sweep.<mask>.2^j" (seconds per
/// pixel of one pass over rows of 2^j-pixel segments, on a 40 MB image; "dt.sweep_cache.<mask>.2^j" on a 5 MB one,
/// the two read by the busiest processor's bytes; a custom mask takes the standard mask with the nearest number of
/// steps). At P = 1: the two passes over the whole image, no communication.
[[nodiscard]] Expr chamfer_distance_transform(int P,
                                              std::int64_t width,
                                              std::int64_t height,
                                              std::int64_t r,
                                              std::int64_t k,
                                              const ChamferMask& mask,
                                              const Profile& profile);

/// The segment length k that chamfer_distance_transform(P, width, height, r, k, mask) prices lowest, among powers of
/// two and their 1.5 multiples from 8 to width + height·lead (one segment a row). @throws as that function.
[[nodiscard]] std::int64_t best_segment(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, const ChamferMask& mask, const Profile& profile);

/// The layout (r, k) that chamfer_distance_transform prices lowest on P processors: r over powers of two from 16 to
/// ⌈height/P⌉ (and ⌈height/P⌉ itself; smaller blocks make steps too short to hide a shift), each with its
/// best_segment; llc::sweep_layout's rule when it prices lower still. At P = 1: one block, whole rows (what the
/// transform does there). @throws as chamfer_distance_transform.
[[nodiscard]] SweepLayout best_sweep_layout(
    int P, std::int64_t width, std::int64_t height, const ChamferMask& mask, const Profile& profile);

/// Article [2]'s closed form (§4, Proposition), for checking the model against the paper's numbers:
/// T_par(r, k) = (β + k·τ_c + r·k·τ_a)·[(p − 1)(1 + r/k) + n²/(p·r·k)] for one sweep of an n × n image.
[[nodiscard]] double miguet_sweep_time(double n, double p, double r, double k, double beta, double tau_c, double tau_a);
/// Article [2]'s k_par(r) = sqrt(β/(τ_c + r·τ_a) · (n²/(p(p−1)r) + r)) and k_max(r) = (n − p·r)/(p + 1).
[[nodiscard]] double miguet_k_par(double n, double p, double r, double beta, double tau_c, double tau_a);
[[nodiscard]] double miguet_k_max(double n, double p, double r);

}  // namespace cost

namespace detail::sweep {
/// The kernel probes whose constants cost::chamfer_distance_transform reads (llc-probe runs them through the
/// distance-transform card).
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
}  // namespace detail::sweep

}  // namespace llc
