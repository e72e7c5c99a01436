// The distributed exact EDT: phase 1 per block, the blocks' summaries all-gathered, scans over them for the feature
// rows nearest above and below each block, phase 2 per row (edt_kernels.hpp).
#include <algorithm>
#include <climits>
#include <string>
#include <vector>

#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

#include "edt_kernels.hpp"

namespace llc {

namespace {

constexpr const char* function = "llc::euclidean_distance_transform";

/// This processor's blocks, in increasing order.
std::vector<std::int64_t> blocks_of(int P, int rank, std::int64_t height, std::int64_t r) {
    std::vector<std::int64_t> blocks;
    const std::int64_t count = (height + r - 1) / r;
    for (std::int64_t b = rank; b < count; b += P) {
        blocks.push_back(b);
    }
    return blocks;
}

/// This processor's verdict on its arguments ("" when they are good).
std::string argument_problem(const Group& g,
                             std::int64_t width,
                             std::int64_t height,
                             std::int64_t r,
                             std::size_t image,
                             std::size_t squared,
                             std::size_t nearest) {
    if (width < 1) {
        return argument_message(function, "width", std::to_string(width), "must be at least 1");
    }
    if (height < 1) {
        return argument_message(function, "height", std::to_string(height), "must be at least 1");
    }
    if (r < 1) {
        return argument_message(function, "r", std::to_string(r), "must be at least 1");
    }
    if ((width - 1) * (width - 1) + (height - 1) * (height - 1) > INT_MAX) {
        return argument_message(function,
                                "width × height",
                                std::to_string(width) + " × " + std::to_string(height),
                                "is too large: the squared distances must fit in int32");
    }
    const std::string rows = detail::rows_problem(
        function, g.size(), g.rank(), width, height, r, {"image.size()", image, "squared.size()", squared});
    if (!rows.empty()) {
        return rows;
    }
    const auto pixels = static_cast<std::size_t>(block_rows_held(g.size(), g.rank(), height, r) * width);
    if (nearest != 0 && nearest != pixels) {
        return argument_message(function,
                                "nearest.size()",
                                std::to_string(nearest),
                                "must be 0 (not wanted) or image.size() = " + std::to_string(pixels));
    }
    return {};
}

}  // namespace

void euclidean_distance_transform(Group& g,
                                  std::int64_t width,
                                  std::int64_t height,
                                  std::int64_t r,
                                  std::span<const std::uint8_t> image,
                                  std::span<std::int32_t> squared,
                                  std::span<std::int32_t> nearest) {
    const std::string problem = argument_problem(g, width, height, r, image.size(), squared.size(), nearest.size());
    g.check_same(function, {{"width", width}, {"height", height}, {"r", r}}, problem);
    const auto w = static_cast<std::size_t>(width);
    const std::vector<std::int64_t> mine = blocks_of(g.size(), g.rank(), height, r);
    const auto rows_of = [&](std::int64_t b) { return static_cast<int>(std::min(r, height - b * r)); };

    // Phase 1 per block, into `squared` (it holds the nearest feature row of each pixel's column until phase 2
    // overwrites it: row_pass reads a batch of rows before it writes them); each block's summary: the first and the
    // last feature row of each column.
    std::vector<std::int32_t> summaries(mine.size() * 2 * w);
    std::size_t offset = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const std::size_t n = static_cast<std::size_t>(rows_of(mine[i])) * w;
        detail::edt::column_pass(image.subspan(offset, n),
                                 static_cast<int>(width),
                                 rows_of(mine[i]),
                                 static_cast<std::int32_t>(mine[i] * r),
                                 squared.subspan(offset, n),
                                 std::span(summaries).subspan(2 * i * w, w),
                                 std::span(summaries).subspan((2 * i + 1) * w, w));
        offset += n;
    }
    // Every block's summary, processor by processor (processor q's blocks are q, q + P, …).
    const std::vector<std::int32_t> all = [&] {
        if (g.size() == 1) {
            return summaries;
        }
        const Label label(names::distance_transform::edt_summaries);
        return g.allgatherv(std::span<const std::int32_t>(summaries));
    }();
    const auto P = static_cast<std::int64_t>(g.size());
    const std::int64_t blocks = (height + r - 1) / r;
    const auto summary_of = [&](std::int64_t b) {
        // Blocks before b's own on processors q < b mod P: ⌈(blocks − q)/P⌉ each; then b's place among its own.
        std::int64_t before = 0;
        for (std::int64_t q = 0; q < b % P; ++q) {
            before += (blocks - q + P - 1) / P;
        }
        return all.data() + static_cast<std::size_t>(before + b / P) * 2 * w;
    };
    // The feature rows nearest above and below each of this processor's blocks: scans over all blocks in order.
    std::vector<std::vector<std::int32_t>> above(mine.size());
    std::vector<std::vector<std::int32_t>> below(mine.size());
    std::vector<std::int32_t> carry(w, detail::edt::no_row);
    for (std::int64_t b = 0, i = 0; b < blocks; ++b) {
        if (i < static_cast<std::int64_t>(mine.size()) && mine[static_cast<std::size_t>(i)] == b) {
            above[static_cast<std::size_t>(i++)] = carry;
        }
        detail::edt::carry_over(std::span(summary_of(b) + w, w), carry);
    }
    std::fill(carry.begin(), carry.end(), detail::edt::no_row);
    for (std::int64_t b = blocks - 1, i = static_cast<std::int64_t>(mine.size()) - 1; b >= 0; --b) {
        if (i >= 0 && mine[static_cast<std::size_t>(i)] == b) {
            below[static_cast<std::size_t>(i--)] = carry;
        }
        detail::edt::carry_over(std::span(summary_of(b), w), carry);
    }
    // Phase 2 per row.
    detail::edt::RowScratch scratch(static_cast<int>(width));
    offset = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const std::size_t n = static_cast<std::size_t>(rows_of(mine[i])) * w;
        detail::edt::row_pass(std::span<const std::int32_t>(squared.subspan(offset, n)),
                              above[i],
                              below[i],
                              static_cast<std::int32_t>(mine[i] * r),
                              rows_of(mine[i]),
                              scratch,
                              squared.subspan(offset, n),
                              nearest.empty() ? nearest : nearest.subspan(offset, n));
        offset += n;
    }
}

}  // namespace llc
