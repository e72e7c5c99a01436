#pragma once
/// @file
/// The inputs the two cards' parts share, each made in one place: the blob images the validation cases and the
/// comparisons run on, the cost maps path planning reads from them, and where its paths start.
#include <cstdint>
#include <span>
#include <vector>

#include <llc/algorithms/path_planning.hpp>
#include <llc/tools/validation_case.hpp>

namespace llc::cards::dt {

/// The seed of the blob image (llc::random_blob_image) of every validation case and comparison.
inline constexpr std::uint64_t blob_seed = 20261125;

/// The sides n of the n × n images of the validation cases.
[[nodiscard]] std::vector<std::int64_t> validation_sizes(validate::SizeClass size_class);

/// A cost map read from a blob image: its free pixels (0) cost 1 to cross, its blobs `blob_cost` (+∞: obstacles).
[[nodiscard]] std::vector<double> blob_cost_map(std::span<const std::uint8_t> blobs, double blob_cost);

/// Where the paths of the validation case and of the comparison start on an n × n blob image: its first free pixel
/// from the middle on, so that paths run both ways.
[[nodiscard]] Pixel middle_free_pixel(std::span<const std::uint8_t> blobs, std::int64_t n);

}  // namespace llc::cards::dt
