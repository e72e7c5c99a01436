#pragma once
// The block layout of contour ranking written out in the tests, so that they scatter inputs and gather results
// without the library's layout code (block_of, from_whole): with P = q² processors a q × q grid, rank i·q + j holding
// rows [i·H/q, (i+1)·H/q) and columns [j·W/q, (j+1)·W/q); with any other P, P row strips, rank i holding rows
// [i·H/P, (i+1)·H/P) and every column (integer division: the remainder goes to the later blocks; blocks may be empty).
#include <cstdint>
#include <vector>

namespace llc::test::contour_blocks {

/// Rows [row0, row0 + rows) × columns [col0, col0 + cols) of the image.
struct Block {
    std::int64_t row0;
    std::int64_t col0;
    std::int64_t rows;
    std::int64_t cols;
};

inline Block block(int rank, int P, std::int64_t width, std::int64_t height) {
    int q = 0;
    while ((q + 1) * (q + 1) <= P) {
        ++q;
    }
    if (q * q == P) {
        const std::int64_t i = rank / q;
        const std::int64_t j = rank % q;
        return {
            i * height / q, j * width / q, (i + 1) * height / q - i * height / q, (j + 1) * width / q - j * width / q};
    }
    return {rank * height / P, 0, (rank + 1) * height / P - rank * height / P, width};
}

/// The values of `whole` (width × height, row-major) in rank's block, row-major.
template <class T>
std::vector<T> scatter(const std::vector<T>& whole, int rank, int P, std::int64_t width, std::int64_t height) {
    const Block b = block(rank, P, width, height);
    std::vector<T> out;
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
            out.push_back(whole[static_cast<std::size_t>(r * width + c)]);
        }
    }
    return out;
}

/// The whole image from every rank's block concatenated in rank order (an allgatherv of the blocks).
template <class T>
std::vector<T> gather(const std::vector<T>& blocks, int P, std::int64_t width, std::int64_t height) {
    std::vector<T> out(static_cast<std::size_t>(width * height));
    std::size_t next = 0;
    for (int rank = 0; rank < P; ++rank) {
        const Block b = block(rank, P, width, height);
        for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
            for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
                out[static_cast<std::size_t>(r * width + c)] = blocks.at(next++);
            }
        }
    }
    return out;
}

}  // namespace llc::test::contour_blocks
