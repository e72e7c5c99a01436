#pragma once
/// @file
/// Greyscale images for the tools (llc-run's image algorithms): binary PGM (P5, 8 or 16 bits) and PNG (greyscale, 8 or
/// 16 bits, through libpng) in; 16-bit PGM out. A corrupt or truncated file is a std::runtime_error that names it.

#include <cstdint>
#include <string>
#include <vector>

namespace llc::tools {

/// A greyscale image, row-major, each sample widened to 16 bits.
struct GreyImage {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<std::uint16_t> pixels;
};

/// Reads `path` by its content (a PGM starts "P5", a PNG with its signature): a binary PGM with maxval < 65536 or a
/// greyscale PNG (8 or 16 bits; palette, colour and alpha are refused). @throws std::runtime_error naming the file
/// and what is wrong with it (missing, unreadable, not a PGM or PNG, truncated, corrupt, not greyscale, empty).
[[nodiscard]] GreyImage read_grey_image(const std::string& path);

/// The bytes of a 16-bit binary PGM (P5, maxval 65535, big-endian samples) of `values` clamped to [0, 65535].
[[nodiscard]] std::vector<char> pgm16(std::int64_t width, std::int64_t height, const std::vector<std::int32_t>& values);

}  // namespace llc::tools
