#pragma once
/// @file
/// How contour ranking and contour tracing distribute an image over a group: PixelBlock and block_of.

#include <cstdint>

namespace llc {

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

/// The block of `rank` among `processors` for a width × height image: when P = q² is a perfect square, a q × q grid
/// of blocks as in the C³ paper, rank i·q + j holding rows [i·H/q, (i+1)·H/q) and columns [j·W/q, (j+1)·W/q);
/// otherwise P row strips, rank i holding rows [i·H/P, (i+1)·H/P) and every column. Sizes need not divide evenly;
/// blocks may be empty (P > H).
[[nodiscard]] PixelBlock block_of(int rank, int processors, std::int64_t width, std::int64_t height);

}  // namespace llc
