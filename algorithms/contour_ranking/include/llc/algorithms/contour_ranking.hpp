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
/// Distribution (block_of): when P = q² is a perfect square, a q × q grid of blocks as in the paper, rank i·q + j
/// holding rows [i·H/q, (i+1)·H/q) and columns [j·W/q, (j+1)·W/q); otherwise P row strips, rank i holding rows
/// [i·H/P, (i+1)·H/P) and every column. Sizes need not divide evenly; blocks may be empty (P > H).

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

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

/// A rectangle of pixels: rows [row0, row0 + rows), columns [col0, col0 + cols).
struct PixelBlock {
    std::int64_t row0 = 0;
    std::int64_t col0 = 0;
    std::int64_t rows = 0;
    std::int64_t cols = 0;

    [[nodiscard]] std::int64_t size() const noexcept { return rows * cols; }
    [[nodiscard]] bool contains(std::int64_t r, std::int64_t c) const noexcept {
        return r >= row0 && r < row0 + rows && c >= col0 && c < col0 + cols;
    }
};

/// The block of `rank` among `processors` for a width × height image (the rule in the file comment).
[[nodiscard]] PixelBlock block_of(int rank, int processors, std::int64_t width, std::int64_t height);

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

/// Which pixels of a binary image are connected. `eight`: foreground 8-connected, background 4-connected (OpenCV's
/// findContours); `four`: foreground 4-connected, background 8-connected.
enum class Connectivity { four = 4, eight = 8 };

/// This processor's block of a binary image, distributed by block_of like SuccessorMap. A pixel is foreground when
/// its value is nonzero (as OpenCV); pixels off the image are background.
class BinaryImage {
  public:
    /// This rank's block of the whole image `all` (width·height values, row-major, the same on every rank).
    /// Collective: @throws llc::Error on every rank when width, height differ across ranks, are negative, or
    /// all.size() ≠ width·height.
    [[nodiscard]] static BinaryImage from_whole(Group& group,
                                                std::int64_t width,
                                                std::int64_t height,
                                                std::span<const std::uint8_t> all);
    /// This rank's block given directly (block_of(rank, P, width, height), row-major). Collective, like from_whole.
    BinaryImage(Group& group, std::int64_t width, std::int64_t height, std::vector<std::uint8_t> local);

    [[nodiscard]] std::int64_t width() const noexcept { return width_; }
    [[nodiscard]] std::int64_t height() const noexcept { return height_; }
    [[nodiscard]] const PixelBlock& block() const noexcept { return block_; }
    [[nodiscard]] std::span<const std::uint8_t> pixels() const noexcept { return pixels_; }

  private:
    std::int64_t width_;
    std::int64_t height_;
    PixelBlock block_;
    std::vector<std::uint8_t> pixels_;
};

namespace detail::contour_ranking {
/// std::allocator, except that value-initialisation (vector::resize) leaves the new elements uninitialised.
template <class T>
struct UninitializedAllocator : std::allocator<T> {
    using value_type = T;
    UninitializedAllocator() = default;
    template <class U>
    UninitializedAllocator(const UninitializedAllocator<U>& /*other*/) noexcept {}
    template <class U>
    struct rebind {
        using other = UninitializedAllocator<U>;
    };
    template <class U>
    void construct(U* p) noexcept {
        ::new (static_cast<void*>(p)) U;
    }
    template <class U, class... Args>
    void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
}  // namespace detail::contour_ranking

/// The borders of a binary image as a successor graph on border states, made by trace_contours.
///
/// A border is what Suzuki & Abe's border following (OpenCV's findContours) traces between a foreground component and
/// a background component next to it: outer borders and hole borders. Its pixels may repeat (a 1-pixel line is
/// traced out and back), so the nodes are states: state p·8 + b is pixel p (= row·width + col) entered from its
/// neighbour in Freeman direction b (the direction from p back to the previous pixel). The next pixel is the first
/// foreground neighbour counter-clockwise after b (8-connectivity: among all 8 neighbours; 4-connectivity: among the 4
/// axial ones), so the successor state depends on p's 3 × 3 neighbourhood alone, and every border is one cycle of
/// states, followed in OpenCV's order (background on the right, foreground on the left: outer borders run
/// counter-clockwise on screen, holes clockwise). A pixel with no foreground neighbour (8-connectivity) or no axial one
/// (4-connectivity) is a border of one state, p·8 + 0, its own successor. The states of a pixel are held by the
/// pixel's block.
class BorderMap {
  public:
    [[nodiscard]] std::int64_t width() const noexcept { return width_; }
    [[nodiscard]] std::int64_t height() const noexcept { return height_; }
    [[nodiscard]] Connectivity connectivity() const noexcept { return connectivity_; }
    /// The number of processors the map was traced on (its blocks are block_of(rank, processors(), …)).
    [[nodiscard]] int processors() const noexcept { return processors_; }
    [[nodiscard]] const PixelBlock& block() const noexcept { return block_; }
    /// This block's border states, increasing.
    [[nodiscard]] std::span<const std::int64_t> states() const noexcept { return states_; }
    /// Each state's successor state (possibly held by another block).
    [[nodiscard]] std::span<const std::int64_t> successors() const noexcept { return successors_; }

  private:
    friend BorderMap trace_contours(Group&, const BinaryImage&, Connectivity);
    friend std::vector<ContourRank> contour_rank(Group&, const BorderMap&, ContourPattern, const cost::Profile*);
    friend struct BorderMapAccess;

    BorderMap() = default;

    std::int64_t width_ = 0;
    std::int64_t height_ = 0;
    Connectivity connectivity_ = Connectivity::eight;
    int processors_ = 1;
    PixelBlock block_;
    /// trace_contours writes every element it keeps, so growing these arrays does not fill them first.
    template <class T>
    using Array = std::vector<T, detail::contour_ranking::UninitializedAllocator<T>>;

    Array<std::int64_t> states_;
    Array<std::int64_t> successors_;
    Array<std::int32_t> local_next_;  ///< each state's successor among states_ (index), or −1 outside the block; 32
                                      ///< bits: the walks along the borders chase it, and half the bytes keep more of
                                      ///< it in cache (a block holds fewer than 2^31 states)
    Array<std::uint8_t> flags_;       ///< bit 0: the background pixel north of the state's pixel is passed on the way
                                      ///< from b to the next pixel (tells outer borders from holes); bits 1–3: the
                                      ///< move into the state's pixel, (b + 4) mod 8 (the walks need not read states_)
};

/// The borders of `image` (see BorderMap), traced locally on every block with a one-pixel halo from the neighbouring
/// blocks (one allgatherv of the blocks' borders). Collective over `group`.
/// @throws llc::Error on every rank for a connectivity other than four or eight.
[[nodiscard]] BorderMap trace_contours(Group& group,
                                       const BinaryImage& image,
                                       Connectivity connectivity = Connectivity::eight);

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

/// A pixel of a contour.
struct ContourPoint {
    std::int64_t row = 0;
    std::int64_t col = 0;
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
/// @throws llc::Error on every rank when ranks.size() ≠ borders.states().size() on some rank or root is out of range.
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

/// What the costs of trace_contours and of contour_rank on a BorderMap depend on besides the image's size: how many
/// border states the image has, per pixel (about the fraction of foreground pixels on a border; a 1-pixel line counts
/// twice, as it is traced out and back).
struct BorderDensity {
    double states_per_pixel = 0.0;
};

/// The border density of a traced image: all blocks' states over width·height (0 for an empty image). Collective
/// (one allreduce).
[[nodiscard]] BorderDensity border_density(Group& group, const BorderMap& borders);

/// The cost of trace_contours(P processors, a width × height image with `density`), superstep by superstep: the halo's
/// allgatherv of the blocks' perimeters (a byte a pixel), then the block's scan, priced per pixel by the profile's
/// "tr.pixel.2^e" and per border state on top by "tr.state.2^e" (e = log2 of the block's side; the solo constants at
/// P = 1). @throws llc::Error naming the argument (P < 1, negative sizes, a density outside [0, 8]) or the missing
/// kernel constant.
[[nodiscard]] Expr trace_contours(
    int P, std::int64_t width, std::int64_t height, BorderDensity density, const Profile& profile);

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
