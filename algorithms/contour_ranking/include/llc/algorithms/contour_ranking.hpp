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
#include <span>
#include <vector>

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

/// How step 2 (the merge of the boundary lists) communicates. Only 1-lev-dir exists so far.
enum class ContourPattern {
    one_level_direct,  ///< 1-lev-dir: every processor's boundary list to every other (one allgather), merged by all
};

/// Checks `succ`: every code in [−1, 8], no successor off the image or on a non-edge pixel, no pixel with two
/// predecessors. Collective over succ's group (an allgather of the blocks' borders, an allreduce of the verdict).
/// @throws llc::Error on every rank, naming the smallest bad pixel as (row, col) and what is wrong with it.
void validate_successor_map(Group& group, const SuccessorMap& succ);

/// Every pixel's head and rank, for this rank's block (row-major), by the paper's three steps: local ranking with
/// the block's boundary list, the merge of the boundary lists by `pattern`, and the resolution of every pixel from
/// the final head and rank of its segment's last pixel. Validates `succ` first.
/// Collective over `group`. Cost: O(block) local work, one allgather of the boundary lists (O(border edge pixels)
/// per block), O(total list size) merge on every processor.
[[nodiscard]] std::vector<ContourRank> contour_rank(Group& group,
                                                    const SuccessorMap& succ,
                                                    ContourPattern pattern = ContourPattern::one_level_direct);

}  // namespace llc
