#pragma once
/// @file
/// Contour ranking (Hambrusch & Khokhar, "C³: A parallel model for coarse-grained machines", §5).
///
/// A successor map gives every pixel of a width × height image one code: −1 non-edge, 8 head, or the Freeman
/// direction 0–7 of its successor (0 = E, 1 = NE, 2 = N, 3 = NW, 4 = W, 5 = SW, 6 = S, 7 = SE; row 0 on top, so N is
/// row − 1). The successors form lists (ending at a head) and cycles (closed contours, which the paper leaves out).
/// Ranking gives every edge pixel the head of its contour, as the index row·width + col, and its rank, the number of
/// successor steps to the head (the head has rank 0). A cycle has no head: its canonical head is the smallest pixel
/// index on the cycle, the same at every P.
///
/// Successor maps and binary images are distributed by block_of (<llc/algorithms/contour_blocks.hpp>). Tracing the
/// contours of a binary image (trace_contours, BorderMap) is in <llc/algorithms/contour_tracing.hpp>, which this
/// header includes; ranking a BorderMap's borders (contour_rank, contours) is here.

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/algorithms/contour_blocks.hpp>
#include <llc/algorithms/contour_tracing.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc {

/// The successor codes of a map.
namespace succ_code {
inline constexpr std::int8_t non_edge = -1;
inline constexpr std::int8_t head = 8;
}  // namespace succ_code

/// This processor's block of a successor map, with the image's size.
class SuccessorMap {
  public:
    /// This rank's block of the whole map `all` (width·height codes, row-major, the same on every rank).
    /// Collective over `group`: @throws llc::Error on every rank when width, height differ across ranks, are negative,
    /// or all.size() ≠ width·height.
    [[nodiscard]] static SuccessorMap from_whole(Group& group,
                                                 std::int64_t width,
                                                 std::int64_t height,
                                                 std::span<const std::int8_t> all);

    /// This rank's block given directly: `local` holds block_of(rank, P, width, height)'s codes, row-major.
    /// Collective over `group`, like from_whole.
    SuccessorMap(Group& group, std::int64_t width, std::int64_t height, std::vector<std::int8_t> local);

    [[nodiscard]] std::int64_t width() const noexcept { return width_; }
    [[nodiscard]] std::int64_t height() const noexcept { return height_; }
    [[nodiscard]] const PixelBlock& block() const noexcept { return block_; }
    [[nodiscard]] std::span<const std::int8_t> codes() const noexcept { return codes_; }

  private:
    std::int64_t width_;
    std::int64_t height_;
    PixelBlock block_;
    std::vector<std::int8_t> codes_;
};

/// The head and rank of one pixel; (−1, −1) for a non-edge pixel.
struct ContourRank {
    std::int64_t head = -1;
    std::int64_t rank = -1;
    friend bool operator==(const ContourRank&, const ContourRank&) = default;
};

/// How step 2, the merge of the blocks' boundary lists, communicates (C³ paper §5.2, Figure 12). Every pattern gives
/// the same result; they differ in which processors exchange which lists. On row strips (P not a square) each works on
/// the strips as a P × 1 grid: see the README.
enum class ContourPattern {
    one_level_direct,      ///< 1-lev-dir: every block's list to every processor (one allgatherv), merged by all
    two_level_row_column,  ///< 2-lev-rc: allgatherv in each row of blocks, merged into the row's strip, whose list the
                           ///< division's exchange sends down each column (on strips: ⌈√P⌉ runs of strips)
    log_level_quad,        ///< logp-lev-quad: quadrants merged recursively, a division into four per level
    log_level_balanced,    ///< logp-lev-bal: the block lists moved to bit-reversed processors first, then merged as
                           ///< quad (long distances while lists are short), the results moved back
    automatic,             ///< the pattern cost::contour_rank prices lowest with the given profile; quad without one
};

/// "1-lev-dir", "2-lev-rc", "logp-lev-quad", "logp-lev-bal", "auto".
[[nodiscard]] std::string_view to_string(ContourPattern pattern);
/// Inverse of to_string. @throws llc::Error naming `pattern` and the accepted names.
[[nodiscard]] ContourPattern contour_pattern_from_string(std::string_view name);

/// The paper's synthetic images (C³ §5.3): lines through the whole image, spaced for an edge-pixel density.
enum class ContourLines { diagonal, vertical };

/// A width × height successor map of lines k = round(1 / density) pixels apart (density in [0, 1]; 0 gives no edge
/// pixel): diagonal (pixels with (col − row − offset) mod k = 0, each pointing SE, heads on the last row and column;
/// the paper's test image) or vertical (columns with (col − offset) mod k = 0, pointing S, heads on the last row).
/// @throws llc::Error naming the argument for negative sizes or a density outside [0, 1].
[[nodiscard]] std::vector<std::int8_t> synthetic_successor_map(
    std::int64_t width, std::int64_t height, double density, ContourLines lines, std::int64_t offset = 0);

/// Checks `succ`: every code in [−1, 8], no successor off the image or on a non-edge pixel, no pixel with two
/// predecessors. Collective over succ's group (an allgather of the blocks' borders, an allreduce of the verdict).
/// @throws llc::Error on every rank, naming the smallest bad pixel as (row, col) and what is wrong with it.
void validate_successor_map(Group& group, const SuccessorMap& succ);

/// Every pixel's head and rank, for this rank's block (row-major), by the paper's three steps: local ranking with
/// the block's boundary list, the merge of the boundary lists by `pattern` (forward, then backward without
/// communication), and the resolution of every pixel from the final head and rank of its segment's last pixel.
/// Validates `succ` first. `profile` is read by ContourPattern::automatic only (may be nullptr).
/// Collective over `group`. Cost: O(block) local work, the pattern's supersteps over the boundary lists
/// (O(border edge pixels) per block), cost::contour_rank.
[[nodiscard]] std::vector<ContourRank> contour_rank(Group& group,
                                                    const SuccessorMap& succ,
                                                    ContourPattern pattern = ContourPattern::one_level_direct,
                                                    const cost::Profile* profile = nullptr);

/// The pattern `automatic` resolves to for P processors, a width × height map with the given fraction of edge
/// pixels: the lowest CCM price of cost::contour_rank under `profile`, or logp-lev-quad (the paper's best overall,
/// §5.3) when profile is nullptr. Never returns automatic.
[[nodiscard]] ContourPattern choose_contour_pattern(
    int P, std::int64_t width, std::int64_t height, double edge_density, const cost::Profile* profile);

/// Every border state's head and rank, for this block's states (in the order of borders.states()), by the same three
/// steps and patterns as contour_rank of a successor map. Every border is a cycle: its head is its smallest state
/// (so the head's pixel is the border's topmost, then leftmost pixel), the head's rank is 0 and the state k steps
/// before it has rank k. ContourPattern::automatic takes the pattern cost::contour_rank of the image's BorderDensity
/// (one allreduce) prices lowest under `profile` (logp-lev-quad without one). Collective over `group`.
/// @throws llc::Error on every rank when `borders` was traced on another number of processors or the pattern is not
/// a ContourPattern.
[[nodiscard]] std::vector<ContourRank> contour_rank(Group& group,
                                                    const BorderMap& borders,
                                                    ContourPattern pattern = ContourPattern::one_level_direct,
                                                    const cost::Profile* profile = nullptr);

/// A pixel of a contour: 32-bit row and column, as OpenCV's cv::Point (contours refuses an image wider or taller than
/// 2^31 − 1 pixels). Writing the points is most of what contours does on the root: 8 bytes a point, not 16.
struct ContourPoint {
    std::int32_t row = 0;
    std::int32_t col = 0;
    friend bool operator==(const ContourPoint&, const ContourPoint&) = default;
};

/// One border as OpenCV's findContours gives it (RETR_LIST, CHAIN_APPROX_NONE): its pixels in tracing order.
struct Contour {
    std::int64_t id = 0;  ///< its head state (see contour_rank of a BorderMap)
    bool hole = false;    ///< a hole's border (around a background component inside the foreground), else outer
    std::vector<ContourPoint> points;  ///< from the head's pixel, following successors, each state's pixel once
};

/// The contours of `borders`, ranked by `ranks` (contour_rank(group, borders, …) on this rank), gathered on `root`
/// (one gatherv): every border as a Contour, in increasing id (so in raster order of their first pixels); empty on
/// the other ranks. A border is outer when the background pixel north of its head's pixel is passed by one of its
/// own states at that pixel (the head of an outer border is its component's topmost-leftmost pixel, whose north is the
/// outer background; a hole's head lies on the row above the hole, whose north is not in the hole). Collective.
/// @throws llc::Error on every rank when ranks.size() ≠ borders.states().size() on some rank, root is out of range or
/// the image is wider or taller than 2^31 − 1 pixels (ContourPoint).
[[nodiscard]] std::vector<Contour> contours(Group& group,
                                            const BorderMap& borders,
                                            std::span<const ContourRank> ranks,
                                            int root = 0);

namespace cost {

/// The cost of contour_rank(P processors, a width × height map, `edge_density` of its pixels edge pixels, `pattern`)
/// on the paper's synthetic image (C³ §5.3: diagonal lines, spaced for the density), superstep by superstep as
/// contour_rank runs it: local ranking, the pattern's collectives and divisions over the boundary lists (sizes from
/// the block grid and the density), the merges, the resolution. Local work is priced from the profile's per-size
/// "cr.pixel.2^e" (seconds per pixel) and per edge pixel on top, between "cr.edge.2^e" (lines side by side),
/// "cr.quarter_edge.2^e" (lines 4 apart) and "cr.sparse_edge.2^e" (lines 16 apart: walks that share no cache line)
/// linearly in the lines' spacing 1/density; merges from "cr.merge" (per segment). Every one of these keys is required
/// (names in <llc/algorithms/contour_ranking_names.hpp>).
/// @throws llc::Error naming the argument (P < 1, negative sizes, density outside [0, 1], automatic) or the missing
/// kernel constant.
[[nodiscard]] Expr contour_rank(int P,
                                std::int64_t width,
                                std::int64_t height,
                                double edge_density,
                                ContourPattern pattern,
                                const Profile& profile);

/// The cost of contour_rank(P processors, the BorderMap of a width × height image with `density`, `pattern`): the
/// local ranking and resolution of the block's states ("tr.rank.2^e" per state) and the pattern's supersteps over the
/// boundary lists. A block's list holds the borders that cross its perimeter; for borders that run in every direction
/// a line of length ℓ is crossed 2·λ·ℓ/π times (Cauchy–Crofton, λ the border length per pixel, ≈ states_per_pixel),
/// and each segment has two ends, so a region of rows × cols pixels is priced with (rows + cols − 1)·2λ/π segments
/// (the successor maps' rule for lines of density 2λ/π). @throws llc::Error like trace_contours, and for automatic.
[[nodiscard]] Expr contour_rank(int P,
                                std::int64_t width,
                                std::int64_t height,
                                BorderDensity density,
                                ContourPattern pattern,
                                const Profile& profile);

/// C³ units of one run (paper §5.3, Figure 14): communication units (set-ups, link and processor congestion) and
/// computation units (bytes touched / l), each summed over the supersteps.
struct ContourC3Units {
    double communication = 0.0;
    double computation = 0.0;
    double setups = 0.0;  ///< how many message set-ups the communication units include (the "k" of Figure 14's ks)
};

/// The paper's C³ analysis of the four patterns on a √P × √P mesh (P a perfect square; h, b, l, s of `machine`): every
/// superstep's messages placed on the mesh, charged with the average distance the messages travel (so quad's long
/// last steps and bal's long first ones show) and the congestion of Figure 3. Our derivation: the paper's is in its
/// tech report [12], not available. @throws llc::Error for P not a perfect square or automatic.
[[nodiscard]] ContourC3Units contour_rank_c3_units(int P,
                                                   std::int64_t width,
                                                   std::int64_t height,
                                                   double edge_density,
                                                   ContourPattern pattern,
                                                   const C3Machine& machine);

}  // namespace cost

namespace detail::contour_ranking {
/// The kernel probes whose constants cost::contour_rank and cost::trace_contours read (the keys of
/// <llc/algorithms/contour_ranking_names.hpp>; llc-probe runs them through the contour-ranking card).
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
}  // namespace detail::contour_ranking

}  // namespace llc
