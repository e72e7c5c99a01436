#pragma once
/// @file
/// How contour ranking and contour tracing distribute an image over a group: PixelBlock and block_of, and the whole
/// placement as an llc::Distribution over row-major pixel indices, PixelBlocks.

#include <algorithm>
#include <cstdint>
#include <string>

#include <llc/error.hpp>

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

/// The placement block_of makes of a width × height image on P processors, as an llc::Distribution
/// (<llc/distribution.hpp>) over the row-major pixel indices row·width + column: processor q holds block_of(q, P,
/// width, height)'s pixels, row-major within the block (the order of SuccessorMap::codes, BinaryImage::pixels and
/// contour_rank's result). A user's contiguous blocks of rows convert with llc::redistribute(g, expand(
/// BlockDistribution(height, P), width), PixelBlocks(width, height, P), local).
class PixelBlocks {
  public:
    PixelBlocks() = default;
    /// @throws llc::Error naming llc::PixelBlocks for width or height < 0 or P < 1.
    PixelBlocks(std::int64_t width, std::int64_t height, int P) : width_(width), height_(height), P_(P) {
        if (width < 0 || height < 0 || P < 1) {
            throw_argument_error("llc::PixelBlocks",
                                 "width, height, P",
                                 std::to_string(width) + ", " + std::to_string(height) + ", " + std::to_string(P),
                                 "must be width, height ≥ 0 and P ≥ 1");
        }
        int q = 1;
        while ((q + 1) * (q + 1) <= P) {
            ++q;
        }
        grid_ = q * q == P ? q : 0;
    }

    [[nodiscard]] std::int64_t width() const noexcept { return width_; }
    [[nodiscard]] std::int64_t height() const noexcept { return height_; }
    /// block_of(q, P, width, height).
    [[nodiscard]] PixelBlock block(int q) const { return block_of(q, P_, width_, height_); }

    [[nodiscard]] std::int64_t global_size() const noexcept { return width_ * height_; }
    [[nodiscard]] int processors() const noexcept { return P_; }
    [[nodiscard]] int owner(std::int64_t i) const noexcept {
        const std::int64_t row = i / width_;
        const std::int64_t col = i % width_;
        return grid_ > 0 ? static_cast<int>(part_of(row, grid_, height_) * grid_ + part_of(col, grid_, width_))
                         : static_cast<int>(part_of(row, P_, height_));
    }
    [[nodiscard]] std::int64_t local_index(std::int64_t i) const {
        const PixelBlock b = block(owner(i));
        return (i / width_ - b.row0) * b.cols + (i % width_ - b.col0);
    }
    [[nodiscard]] std::int64_t local_size(int q) const { return block(q).size(); }
    [[nodiscard]] std::int64_t global_index(int q, std::int64_t l) const {
        const PixelBlock b = block(q);
        return (b.row0 + l / b.cols) * width_ + b.col0 + l % b.cols;
    }

  private:
    /// The part of [0, n) cut into k parts [i·n/k, (i+1)·n/k) that holds x: the largest i with i·n/k ≤ x (the parts
    /// before it that are empty start at or before x too, and end there).
    [[nodiscard]] static std::int64_t part_of(std::int64_t x, std::int64_t k, std::int64_t n) noexcept {
        return std::min(k - 1, ((x + 1) * k - 1) / n);
    }

    std::int64_t width_ = 0;
    std::int64_t height_ = 0;
    int P_ = 1;
    int grid_ = 1;  ///< q when P = q², else 0 (row strips)
};

}  // namespace llc
