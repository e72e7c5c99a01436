// The exact EDT's kernel constants, measured with the kernels euclidean_distance_transform runs, on images of random
// discs (a blob image, as the validation and the benchmarks use): phase 1 per pixel by block size, phase 2 per pixel
// by row length (its envelope depends on the row, not on the image's height), the scans per column and block.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "edt_kernels.hpp"

namespace llc::detail::edt {

namespace {

/// The seeds of the probes' blob images: not the validation cases' (docs/validation.md).
constexpr std::uint64_t columns_probe_seed = 11;
constexpr std::uint64_t rows_probe_seed = 12;

double columns_probe(bool quick, int k) {
    const int width = 1 << ((k + 1) / 2);
    const int rows = 1 << (k / 2);
    const std::vector<std::uint8_t>& image = kept_random_blob_image(width, rows, columns_probe_seed);
    std::vector<std::int32_t> nearest(image.size());
    std::vector<std::int32_t> first(static_cast<std::size_t>(width));
    std::vector<std::int32_t> last(static_cast<std::size_t>(width));
    const double t =
        cost::median_seconds_per_call(quick, [&] { column_pass(image, width, rows, 0, nearest, first, last); });
    return t / static_cast<double>(image.size());
}

double rows_probe(bool quick, int j) {
    const int width = 1 << j;
    // Square images, as the transform is validated on: the cost per pixel depends on the vertical distances a column
    // holds (so on the height) and, past the caches, on the image's size. A probe on 2^20 pixels in rows of 2^12
    // priced the 4096² transform 12–19 % low.
    const int rows = std::max(8, width);
    const std::vector<std::uint8_t>& image = kept_random_blob_image(width, rows, rows_probe_seed);
    std::vector<std::int32_t> nearest(image.size());
    std::vector<std::int32_t> first(static_cast<std::size_t>(width));
    std::vector<std::int32_t> last(static_cast<std::size_t>(width));
    column_pass(image, width, rows, 0, nearest, first, last);
    const std::vector<std::int32_t> none(static_cast<std::size_t>(width), no_row);
    // In place, as euclidean_distance_transform runs it (phase 2 overwrites phase 1's rows): each call first restores
    // phase 1's result, and the restoring copy's own time is taken off.
    std::vector<std::int32_t> squared(image.size());
    RowScratch scratch(width);
    const double both = cost::median_seconds_per_call(quick, [&] {
        std::copy(nearest.begin(), nearest.end(), squared.begin());
        row_pass(squared, none, none, 0, rows, scratch, squared, std::span<std::int32_t>());
    });
    const double copy =
        cost::median_seconds_per_call(quick, [&] { std::copy(nearest.begin(), nearest.end(), squared.begin()); });
    return std::max(both - copy, 0.0) / static_cast<double>(image.size());
}

double carry_probe(bool quick) {
    constexpr int width = 4096;
    constexpr int blocks = 64;
    std::vector<std::int32_t> summaries(static_cast<std::size_t>(width) * blocks, no_row);
    for (std::size_t i = 0; i < summaries.size(); i += 3) {
        summaries[i] = static_cast<std::int32_t>(i % 1000);
    }
    std::vector<std::int32_t> carry(width, no_row);
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (int b = 0; b < blocks; ++b) {
            carry_over(std::span(summaries).subspan(static_cast<std::size_t>(b) * width, width), carry);
        }
    });
    return t / (static_cast<double>(width) * blocks);
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    namespace names = llc::names::distance_transform;
    std::vector<cost::KernelProbe> probes;
    for (int k = 10; k <= 24; k += 2) {
        probes.push_back({cost::kernel_size_key(names::edt_columns, k),
                          "pixel of the EDT's column pass over a block of 2^" + std::to_string(k) + " pixels",
                          [k](bool quick) { return columns_probe(quick, k); }});
        probes.back().seed = columns_probe_seed;
    }
    for (int j = 4; j <= 13; ++j) {
        probes.push_back({cost::kernel_size_key(names::edt_rows, j),
                          "pixel of the EDT's row pass on a square image of 2^" + std::to_string(j) + " × 2^" +
                              std::to_string(j) + " pixels",
                          [j](bool quick) { return rows_probe(quick, j); }});
        probes.back().seed = rows_probe_seed;
    }
    probes.push_back({names::edt_carry, "column and block of the EDT's scans over the block summaries", carry_probe});
    for (cost::KernelProbe& probe : probes) {
        // The largest take a second or more a call: full calibrations only.
        probe.full_only = probe.name == cost::kernel_size_key(names::edt_columns, 24) ||
                          probe.name == cost::kernel_size_key(names::edt_rows, 13);
    }
    return probes;
}

}  // namespace llc::detail::edt
