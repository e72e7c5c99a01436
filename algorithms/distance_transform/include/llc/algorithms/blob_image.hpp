#pragma once
/// @file
/// Random blob images: the synthetic binary images the distance transforms are calibrated, validated and benchmarked
/// on (and that `llc-run … --n N --seed S` generates). Discs of random centres and radii are painted non-zero until
/// they cover about `coverage` of the image (by their summed areas, overlaps included); the rest stays 0, the features.

#include <cstdint>
#include <vector>

namespace llc {

/// A width × height image, row-major, discs of radius 2 … 2 + max(width, height)/64 painted 255 on 0. The same
/// (width, height, seed, coverage) give the same image on every run and machine. @throws llc::Error for width or
/// height < 1, or coverage outside [0, 10].
[[nodiscard]] std::vector<std::uint8_t> random_blob_image(std::int64_t width,
                                                          std::int64_t height,
                                                          std::uint64_t seed,
                                                          double coverage = 0.7);

}  // namespace llc
