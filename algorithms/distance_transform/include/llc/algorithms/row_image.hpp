#pragma once
/// @file
/// Images, and images distributed by rows as the sweeps of article [2] (Miguet, "Path planning on a ring of
/// processors") want them: blocks of r rows, block b on processor b mod P, each processor keeping its rows in
/// increasing order, row-major. The distance transforms and path planning take and return these; the helpers move a
/// whole image to and from that layout.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <llc/distribution.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>

namespace llc {

/// Rows of an image of `height` rows that processor `rank` of P holds in blocks of r rows (block b on processor
/// b mod P): its spans hold rows × width pixels. @throws llc::Error for P < 1, a rank outside [0, P), height < 0 or
/// r < 1.
[[nodiscard]] std::int64_t block_rows_held(int P, int rank, std::int64_t height, std::int64_t r);

/// A width × height image, row-major, that does not own its pixels.
template <class T>
struct ImageView {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::span<T> pixels;  ///< width · height values, row by row

    [[nodiscard]] T& at(std::int64_t row, std::int64_t column) const {
        return pixels[static_cast<std::size_t>(row * width + column)];
    }
    [[nodiscard]] std::span<T> row(std::int64_t row) const {
        return pixels.subspan(static_cast<std::size_t>(row * width), static_cast<std::size_t>(width));
    }
    /// The read-only view of the same pixels.
    operator ImageView<const T>() const requires(!std::is_const_v<T>) { return {width, height, pixels}; }
};

/// A width × height image, row-major, that owns its pixels.
template <class T>
struct Image {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<T> pixels;  ///< width · height values, row by row

    [[nodiscard]] ImageView<T> view() { return {width, height, pixels}; }
    [[nodiscard]] ImageView<const T> view() const { return {width, height, pixels}; }
    [[nodiscard]] bool empty() const noexcept { return pixels.empty(); }
};

/// Where the rows of a width × height image live on P processors: blocks of r rows, block b on processor b mod P
/// (article [2]). The last block may be short; processors beyond the blocks hold no rows.
struct RowBlocks {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::int64_t r = 1;
    int P = 1;

    /// The layout, checked. @throws llc::Error naming `function` for width or height < 1, r < 1 or P < 1.
    static RowBlocks checked(const char* function, std::int64_t width, std::int64_t height, std::int64_t r, int P);

    /// The processor holding image row `row`.
    [[nodiscard]] int owner(std::int64_t row) const noexcept { return static_cast<int>((row / r) % P); }
    /// How many rows processor `rank` holds.
    [[nodiscard]] std::int64_t rows_held(int rank) const { return block_rows_held(P, rank, height, r); }
    /// Where image row `row` sits among its owner's rows: the owner's earlier blocks are all full.
    [[nodiscard]] std::int64_t local_row(std::int64_t row) const noexcept { return (row / r / P) * r + row % r; }
    /// The image row of the `local`-th row that processor `rank` holds.
    [[nodiscard]] std::int64_t image_row(int rank, std::int64_t local) const noexcept {
        return ((local / r) * P + rank) * r + local % r;
    }

    // The Distribution concept (<llc/distribution.hpp>) over the image's row indices 0 … height−1 (owner above is
    // already the row's): BlockCyclicDistribution(height, r, P). pixels() is the same over row-major pixel indices,
    // which is how a DistributedImage's `rows` vector is laid out.
    [[nodiscard]] std::int64_t global_size() const noexcept { return height; }
    [[nodiscard]] int processors() const noexcept { return P; }
    [[nodiscard]] std::int64_t local_index(std::int64_t row) const noexcept { return local_row(row); }
    [[nodiscard]] std::int64_t local_size(int rank) const { return rows_held(rank); }
    [[nodiscard]] std::int64_t global_index(int rank, std::int64_t local) const noexcept {
        return image_row(rank, local);
    }
    /// The layout over row-major pixel indices row·width + column: expand(*this, width).
    [[nodiscard]] auto pixels() const;
};

inline auto RowBlocks::pixels() const {
    return expand(*this, width);
}

/// One processor's part of an image distributed by RowBlocks: its rows, in increasing order.
template <class T>
struct DistributedImage {
    RowBlocks layout;
    int rank = 0;
    std::vector<T> rows;  ///< layout.rows_held(rank) × layout.width values

    /// This processor's rows as an image of rows_held(rank) rows (row i is image row layout.image_row(rank, i)).
    [[nodiscard]] ImageView<T> local() { return {layout.width, layout.rows_held(rank), rows}; }
    [[nodiscard]] ImageView<const T> local() const { return {layout.width, layout.rows_held(rank), rows}; }
};

namespace detail {
/// The rows of `image` that processor `rank` holds under `layout`, in increasing order.
template <class T>
std::vector<T> rows_of(const RowBlocks& layout, int rank, std::span<const T> image) {
    std::vector<T> rows;
    rows.reserve(static_cast<std::size_t>(layout.rows_held(rank) * layout.width));
    for (std::int64_t b = rank; b * layout.r < layout.height; b += layout.P) {
        const std::int64_t first = b * layout.r;
        const std::int64_t last = std::min(layout.height, first + layout.r);
        rows.insert(rows.end(), image.begin() + first * layout.width, image.begin() + last * layout.width);
    }
    return rows;
}

/// Every processor's rows concatenated in rank order (what gatherv returns) put back in image order.
template <class T>
std::vector<T> image_from_ranks(const RowBlocks& layout, std::span<const T> by_rank) {
    std::vector<T> image(by_rank.size());
    auto from = by_rank.begin();
    for (int q = 0; q < layout.P; ++q) {
        for (std::int64_t b = q; b * layout.r < layout.height; b += layout.P) {
            const std::int64_t first = b * layout.r;
            const std::int64_t count = (std::min(layout.height, first + layout.r) - first) * layout.width;
            std::copy_n(from, count, image.begin() + first * layout.width);
            from += count;
        }
    }
    return image;
}

/// "" when `image` is a whole width × height image, else the message naming `function` and `argument`.
std::string image_problem(
    const char* function, const char* argument, std::int64_t width, std::int64_t height, std::size_t pixels);

/// A row-distributed input and the output written beside it, as the transforms and path planning take them: their
/// names ("image.size()") and sizes.
struct RowsArguments {
    const char* input;
    std::size_t input_size;
    const char* output;
    std::size_t output_size;
};
/// "" when the input holds processor `rank`'s rows of a width-wide image of `height` rows in blocks of r
/// (block_rows_held(P, rank, height, r) × width values) and the output as many, else the message naming `function`,
/// the argument and the sizes.
std::string rows_problem(
    const char* function, int P, int rank, std::int64_t width, std::int64_t height, std::int64_t r, RowsArguments a);
}  // namespace detail

/// Processor g.rank()'s rows of an image that every processor holds whole (a replicated image). No data moves; one
/// agreement check that width, height and r are the same on every rank.
/// @throws llc::Error on every rank for width or height < 1, r < 1, pixels of the wrong size, or differing sizes.
template <class T>
[[nodiscard]] DistributedImage<T> distribute_rows(Group& g, ImageView<const T> image, std::int64_t r) {
    constexpr const char* function = "llc::distribute_rows";
    g.check_same(function,
                 {{"image.width", image.width}, {"image.height", image.height}, {"r", r}},
                 detail::image_problem(function, "image", image.width, image.height, image.pixels.size()));
    const RowBlocks layout = RowBlocks::checked(function, image.width, image.height, r, g.size());
    return {layout, g.rank(), detail::rows_of(layout, g.rank(), image.pixels)};
}

/// Every processor's rows of an image that only `root` holds (`image` is not read elsewhere): the size is broadcast
/// from the root, the rows move in one scatterv.
/// @throws llc::Error on every rank for a root outside [0, P), differing roots or r, r < 1, or (from the root's
///         verdict) an image with width or height < 1 or pixels of the wrong size.
template <class T>
[[nodiscard]] DistributedImage<T> scatter_rows(Group& g, ImageView<const T> image, std::int64_t r, int root) {
    constexpr const char* function = "llc::scatter_rows";
    std::string problem = g.root_error(function, root);
    if (problem.empty() && g.rank() == root) {
        problem = detail::image_problem(function, "image", image.width, image.height, image.pixels.size());
    }
    g.check_same(function, {{"root", root}, {"r", r}}, problem);
    std::int64_t size[2] = {image.width, image.height};
    g.bcast(std::span<std::int64_t>(size), root);
    const RowBlocks layout = RowBlocks::checked(function, size[0], size[1], r, g.size());
    std::vector<T> by_rank;
    std::vector<int> counts;
    if (g.rank() == root) {
        for (int q = 0; q < g.size(); ++q) {
            const std::vector<T> rows = detail::rows_of(layout, q, image.pixels);
            counts.push_back(static_cast<int>(rows.size()));
            by_rank.insert(by_rank.end(), rows.begin(), rows.end());
        }
    }
    return {layout, g.rank(), g.scatterv(std::span<const T>(by_rank), std::span<const int>(counts), root)};
}

/// Processor g.rank()'s rows of a width × height image of which every processor holds a contiguous block of rows in
/// row-major order, `local` = the pixels of rows [start, start + local_size) of BlockDistribution(height, P) — a
/// user's own layout. One all-to-all (llc::redistribute over RowBlocks::pixels()). The inverse is rows_to_blocks.
/// @throws llc::Error on every rank as RowBlocks::checked and llc::redistribute (local.size() not this rank's rows ×
///         width, sizes that differ across the ranks).
template <class T>
[[nodiscard]] DistributedImage<T> rows_from_blocks(
    Group& g, std::int64_t width, std::int64_t height, std::int64_t r, std::span<const T> local) {
    constexpr const char* function = "llc::rows_from_blocks";
    std::string problem;
    if (width < 1 || height < 1 || r < 1) {
        problem = argument_message(function,
                                   "width, height, r",
                                   std::to_string(width) + ", " + std::to_string(height) + ", " + std::to_string(r),
                                   "must all be ≥ 1");
    }
    g.check_same(function, {{"width", width}, {"height", height}, {"r", r}}, problem);
    const RowBlocks layout = RowBlocks::checked(function, width, height, r, g.size());
    return {
        layout, g.rank(), redistribute(g, expand(BlockDistribution(height, g.size()), width), layout.pixels(), local)};
}

/// This processor's contiguous block of rows (BlockDistribution(height, P), row-major) of an image distributed by
/// RowBlocks: the inverse of rows_from_blocks, one all-to-all. @throws llc::Error on every rank as gather_rows.
template <class T>
[[nodiscard]] std::vector<T> rows_to_blocks(Group& g, const DistributedImage<T>& part);

/// distribute_rows and scatter_rows of an owned image.
template <class T>
[[nodiscard]] DistributedImage<T> distribute_rows(Group& g, const Image<T>& image, std::int64_t r) {
    return distribute_rows(g, image.view(), r);
}
template <class T>
[[nodiscard]] DistributedImage<T> scatter_rows(Group& g, const Image<T>& image, std::int64_t r, int root) {
    return scatter_rows(g, image.view(), r, root);
}

/// The whole image on `root` from every processor's rows (one gatherv); an empty Image elsewhere.
/// @throws llc::Error on every rank for a root outside [0, P), or parts whose layouts differ or whose rows are not
///         layout.rows_held(rank) × width values.
template <class T>
[[nodiscard]] Image<T> gather_rows(Group& g, const DistributedImage<T>& part, int root);

/// The whole image on every processor from every processor's rows (one allgatherv). @throws as gather_rows.
template <class T>
[[nodiscard]] Image<T> allgather_rows(Group& g, const DistributedImage<T>& part);

namespace detail {
/// The checks gather_rows and allgather_rows share.
template <class T>
void check_part(Group& g, const char* function, const DistributedImage<T>& part, std::string problem, int root = -1) {
    const RowBlocks& L = part.layout;
    if (problem.empty() && (L.P != g.size() || part.rank != g.rank())) {
        problem = argument_message(
            function,
            "part.layout.P / part.rank",
            std::to_string(L.P) + " / " + std::to_string(part.rank),
            "must be this group's size / rank " + std::to_string(g.size()) + " / " + std::to_string(g.rank()));
    }
    if (problem.empty() && (L.width < 1 || L.height < 1 || L.r < 1)) {
        problem = argument_message(
            function,
            "part.layout",
            "width " + std::to_string(L.width) + ", height " + std::to_string(L.height) + ", r " + std::to_string(L.r),
            "must all be ≥ 1");
    }
    if (problem.empty() && static_cast<std::int64_t>(part.rows.size()) != L.rows_held(g.rank()) * L.width) {
        problem =
            argument_message(function,
                             "part.rows.size()",
                             std::to_string(part.rows.size()),
                             "must be this rank's rows × width = " + std::to_string(L.rows_held(g.rank()) * L.width));
    }
    g.check_same(
        function,
        {{"part.layout.width", L.width}, {"part.layout.height", L.height}, {"part.layout.r", L.r}, {"root", root}},
        problem);
}
}  // namespace detail

template <class T>
Image<T> gather_rows(Group& g, const DistributedImage<T>& part, int root) {
    constexpr const char* function = "llc::gather_rows";
    detail::check_part(g, function, part, g.root_error(function, root), root);
    const std::vector<T> by_rank = g.gatherv(std::span<const T>(part.rows), root);
    if (g.rank() != root) {
        return {};
    }
    return {part.layout.width, part.layout.height, detail::image_from_ranks(part.layout, std::span<const T>(by_rank))};
}

template <class T>
std::vector<T> rows_to_blocks(Group& g, const DistributedImage<T>& part) {
    detail::check_part(g, "llc::rows_to_blocks", part, {});
    const RowBlocks& L = part.layout;
    return redistribute(
        g, L.pixels(), expand(BlockDistribution(L.height, g.size()), L.width), std::span<const T>(part.rows));
}

template <class T>
Image<T> allgather_rows(Group& g, const DistributedImage<T>& part) {
    constexpr const char* function = "llc::allgather_rows";
    detail::check_part(g, function, part, {});
    const std::vector<T> by_rank = g.allgatherv(std::span<const T>(part.rows));
    return {part.layout.width, part.layout.height, detail::image_from_ranks(part.layout, std::span<const T>(by_rank))};
}

}  // namespace llc
