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

/// random_blob_image(width, height, seed) at the default coverage, made once in this process and kept until it ends
/// (read-only; thread-safe). For the kernel probes, which ask for the same few images in every round of a calibration
/// (llc-probe): made anew, the 4096 x 2048, 2048² and 4096² images of the chamfer, path planning, EDT and tracing
/// probes were ~1.7 G pixels of untimed painting a quick calibration, seconds of it. The probes' timed calls read the
/// same pixels as before, and each probe's warm-up call (or, for a quick call over a second, the conversion the probe
/// makes of the pixels first) still comes before its first sample. Not for validation cases or runs: they make each
/// image once anyway.
[[nodiscard]] const std::vector<std::uint8_t>& kept_random_blob_image(std::int64_t width,
                                                                      std::int64_t height,
                                                                      std::uint64_t seed);

}  // namespace llc
