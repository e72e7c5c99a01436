// The CCM cost of the distributed exact EDT (euclidean_distance.hpp): phase 1 as the W of the summaries' all-gather,
// then the scans and phase 2 as local work that no collective ends.
#include <algorithm>
#include <string>

#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/error.hpp>

namespace llc::cost {

Expr euclidean_distance_transform(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, const Profile& profile) {
    constexpr const char* name = "llc::cost::euclidean_distance_transform";
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    for (const auto& [argument, value] : {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}}) {
        if (value < 1) {
            throw_argument_error(name, argument, std::to_string(value), "must be at least 1");
        }
    }
    // The busiest processor holds the most rows (processor 0 when the blocks do not divide evenly).
    std::int64_t rows = 0;
    for (int q = 0; q < P; ++q) {
        rows = std::max(rows, block_rows_held(P, q, height, r));
    }
    const auto pixels = static_cast<double>(rows * width);
    const auto w = static_cast<double>(width);
    const auto blocks = static_cast<double>((height + r - 1) / r);
    namespace names = llc::names::distance_transform;
    // Each table is required: kernel_size_table throws naming the key the profile lacks. At P = 1 rank 0's own values
    // (the processor a one-processor run runs on), at P > 1 the slowest rank's (kernel_table.hpp).
    const KernelSizeTable columns = kernel_size_table(profile, names::edt_columns, P);
    const KernelSizeTable row_pass = kernel_size_table(profile, names::edt_rows, P);
    // Phase 1 streams over a block; its cost per pixel depends on the block's size. Phase 2 on the row's length.
    const double block_pixels = static_cast<double>(std::min(r, height)) * w;
    const double phase1 = kernel_per_unit(columns, block_pixels, 0.0) * pixels;
    const double phase2 = kernel_per_unit(row_pass, w, 0.0) * pixels;
    const double scans = kernel_seconds(profile, names::edt_carry, P) * blocks * w;
    if (P == 1) {
        return Expr::sequence(names::edt, {Expr::compute(names::edt_row_pass, phase1 + scans + phase2)});
    }
    // h of an all-gather is the whole result: two int32 rows per block.
    const double summary_bytes = 2.0 * 4.0 * blocks * w;
    return Expr::sequence(names::edt,
                          {Expr::normal(names::edt_summaries, phase1, "allgatherv", P, summary_bytes),
                           Expr::compute(names::edt_row_pass, scans + phase2)});
}

}  // namespace llc::cost
