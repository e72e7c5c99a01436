#pragma once
/// @file
/// Contour tracing: the borders of a distributed binary image (Suzuki & Abe's border following, as OpenCV's
/// findContours) as a successor graph on border states, BorderMap, and the CCM cost of tracing it. Ranking those
/// borders (contour_rank of a BorderMap, contours) is in <llc/algorithms/contour_ranking.hpp>.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <llc/algorithms/contour_blocks.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>
#include <llc/huge_pages.hpp>

namespace llc {

struct ContourRank;         // <llc/algorithms/contour_ranking.hpp>
enum class ContourPattern;  // <llc/algorithms/contour_ranking.hpp>

/// Which pixels of a binary image are connected. `eight`: foreground 8-connected, background 4-connected (OpenCV's
/// findContours); `four`: foreground 4-connected, background 8-connected.
enum class Connectivity { four = 4, eight = 8 };

/// Asks Linux to back the whole 2 MiB pages inside `bytes` with huge pages (MADV_HUGEPAGE, then MADV_COLLAPSE); advice
/// only, errors ignored, nothing elsewhere. llc-compare gives it to a peer's input, so that the peer reads huge pages
/// as BinaryImage's pixels are (on a mapping of their own, below).
void advise_huge_pages(std::span<const std::uint8_t> bytes) noexcept;

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
    [[nodiscard]] std::span<const std::uint8_t> pixels() const noexcept {
        if (huge_.data() != nullptr) {
            return {static_cast<const std::uint8_t*>(huge_.data()), count_};
        }
        return small_;
    }

  private:
    std::int64_t width_;
    std::int64_t height_;
    PixelBlock block_;
    /// A block of a huge page or more: its pixels on huge pages of their own mapping. The trace reads an image row by
    /// row, and with 4 KiB pages a 4096-pixel row is a page, a page-table walk per row (−10 % of the trace of a 4096²
    /// image here). A mapping of its own, not the caller's vector advised: advice on the allocator's memory leaves
    /// pages already faulted in at 4 KiB as they are and stays on the heap after the image is gone
    /// (llc/huge_pages.hpp). A smaller block keeps the caller's vector (`small_`).
    HugePageMemory huge_;
    std::size_t count_ = 0;
    std::vector<std::uint8_t> small_;
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

namespace cost {

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

}  // namespace cost

}  // namespace llc
