#pragma once
/// @file
/// Greyscale images for the tools (llc-run's image algorithms): binary PGM (P5, 8 or 16 bits) and PNG (greyscale, 8 or
/// 16 bits, through libpng) in; 16-bit PGM out. A corrupt or truncated file is a std::runtime_error that names it.
///
/// Hostile input: no header makes a reader allocate before it is checked. A PGM's pixels must be in the file; a PNG's
/// width × height must fit in what its compressed stream can expand to (deflate's ratio is at most 1032:1); and every
/// input of the tools holds at most max_input_elements() pixels or values (as OpenCV's CV_IO_MAX_IMAGE_PIXELS).

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

/// The most pixels or values the tools read from one input file: $LLC_MAX_INPUT_ELEMENTS when set to a positive
/// integer, else 2^30 (a 32768 × 32768 image). A user with a larger input raises it.
[[nodiscard]] std::int64_t max_input_elements();

/// width × height, when both are at least 1 and their product is at most max_input_elements() (checked without
/// overflow). @throws std::runtime_error "WHAT: W × H = N elements exceed the limit of L (LLC_MAX_INPUT_ELEMENTS)".
std::int64_t check_input_elements(const std::string& what, std::int64_t width, std::int64_t height);

/// Reads `path` by its content (a PGM starts "P5", a PNG with its signature): a binary PGM with maxval < 65536 or a
/// greyscale PNG (8 or 16 bits; palette, colour and alpha are refused). @throws std::runtime_error naming the file
/// and what is wrong with it (missing, unreadable, not a PGM or PNG, truncated, corrupt, not greyscale, empty).
[[nodiscard]] GreyImage read_grey_image(const std::string& path);

/// The bytes of a 16-bit binary PGM (P5, maxval 65535, big-endian samples) of `values` clamped to [0, 65535].
[[nodiscard]] std::vector<char> pgm16(std::int64_t width, std::int64_t height, const std::vector<std::int32_t>& values);

}  // namespace llc::tools
