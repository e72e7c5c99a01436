#pragma once
// Exact Euclidean distance transform kernels (Meijster, Roerdink & Hesselink 2002), split so that rows can be
// distributed: phase 1 runs down and up each block of consecutive rows alone and summarises the block by the first
// and last feature row of every column; phase 2 runs along each row once the feature rows above and below the block
// are known.

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace llc::detail::edt {

/// "No feature in this column (so far)": a row index no image has.
inline constexpr std::int32_t no_row = -1;

/// Phase 1 on one block of `rows` consecutive image rows whose first is global row `y0`. `image` is the block,
/// row-major, `width` pixels a row; a pixel equal to 0 is a feature. On return `nearest_row[y·width + x]` is the
/// global row of the feature nearest to (x, y0 + y) in column x within the block (the upper one on a tie; no_row if
/// the column has none in the block), `first[x]` the first feature row of column x in the block and `last[x]` the last
/// (no_row if none).
void column_pass(std::span<const std::uint8_t> image,
                 int width,
                 int rows,
                 std::int32_t y0,
                 std::span<std::int32_t> nearest_row,
                 std::span<std::int32_t> first,
                 std::span<std::int32_t> last);

/// One step of the scans over the blocks' summaries: the feature row nearest past a block in each column is the
/// block's own (`summary`: its last feature rows, scanning down; its first, scanning up) where it has one, else the one
/// nearest past the blocks before it (`carry`, updated in place).
void carry_over(std::span<const std::int32_t> summary, std::span<std::int32_t> carry);

/// One parabola of a row's lower envelope: centre u, F = g2[u] + u², and where it starts to be the lowest, with its
/// value there less x² (F − 2·start·u), which is what a new parabola is compared with.
struct Piece {
    std::int64_t F;
    std::int64_t at_start;
    std::int32_t centre;
    std::int32_t start;
};

/// Scratch of phase 2 for rows of `width` pixels: per row of a batch, its vertical distances and the lower envelope of
/// its parabolas.
struct RowScratch {
    static constexpr int ways = 4;  ///< rows whose envelopes are built interleaved
    explicit RowScratch(int width);
    std::array<std::vector<std::int64_t>, ways> g2;    ///< squared vertical distance per column (−1: none)
    std::array<std::vector<std::int32_t>, ways> rows;  ///< the feature row that distance is to
    std::array<std::vector<Piece>, ways> pieces;       ///< the envelope, as a stack
};

/// Phase 2 on `rows` consecutive global rows from y0, all in one block: `nearest_rows` is phase 1's result for them
/// (row-major), `above` and `below` the feature rows of each column nearest above and below the block (no_row if
/// none). Writes the squared Euclidean distance to the nearest feature of the whole image into `squared` (−1 if the
/// image has no feature) and, if `feature` is not empty, that feature's index (row · width + column; −1 if none).
/// `squared` may be `nearest_rows` itself: each batch of rows is read before it is written.
void row_pass(std::span<const std::int32_t> nearest_rows,
              std::span<const std::int32_t> above,
              std::span<const std::int32_t> below,
              std::int32_t y0,
              int rows,
              RowScratch& scratch,
              std::span<std::int32_t> squared,
              std::span<std::int32_t> feature);

}  // namespace llc::detail::edt
