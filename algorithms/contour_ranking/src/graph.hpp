#pragma once
// Internals shared by contour ranking of successor maps and of traced borders: the halo of a block (its pixels and
// the ring of pixels around it, from the other blocks' borders) and the three steps of the ranking on any successor
// graph whose nodes are owned by the blocks (pixels of a successor map, or border states of a binary image).
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>

#include "merge.hpp"

namespace llc::detail::contour_ranking {

/// The Freeman directions' steps: 0 = E, 1 = NE, 2 = N, … 7 = SE, row 0 on top.
inline constexpr std::array<int, 8> kRowStep = {0, -1, -1, -1, 0, 1, 1, 1};
inline constexpr std::array<int, 8> kColStep = {1, 1, 0, -1, -1, -1, 0, 1};

/// Width and height ≥ 0 and the same on every rank, else llc::Error on every rank (with `error`, this rank's own
/// verdict, when not empty).
inline void check_sizes(
    Group& group, const char* function, std::int64_t width, std::int64_t height, std::string error) {
    if (error.empty() && (width < 0 || height < 0)) {
        error = argument_message(
            function, width < 0 ? "width" : "height", std::to_string(width < 0 ? width : height), "must be ≥ 0");
    }
    group.check_same(function, {{"width", width}, {"height", height}}, error);
}

/// This rank's block of a width × height image given by `local_size` values: checks the sizes (collective) and
/// returns block_of(rank).
inline PixelBlock checked_block(
    Group& group, const char* function, std::int64_t width, std::int64_t height, std::size_t local_size) {
    const PixelBlock block =
        width >= 0 && height >= 0 ? block_of(group.rank(), group.size(), width, height) : PixelBlock{};
    std::string error;
    if (width >= 0 && height >= 0 && static_cast<std::int64_t>(local_size) != block.size()) {
        error = argument_message(function,
                                 "local.size()",
                                 std::to_string(local_size),
                                 "must be this rank's block size " + std::to_string(block.size()));
    }
    check_sizes(group, function, width, height, error);
    return block;
}

/// This rank's block (row-major) of the whole image `all` (width·height values, row-major): checks the sizes
/// (collective, `all.size()` named in the error) and copies the block's rows.
template <class T>
std::vector<T> block_from_whole(
    Group& group, const char* function, std::int64_t width, std::int64_t height, std::span<const T> all) {
    std::string error;
    if (width >= 0 && height >= 0 && static_cast<std::int64_t>(all.size()) != width * height) {
        error = argument_message(function,
                                 "all.size()",
                                 std::to_string(all.size()),
                                 "must be width·height = " + std::to_string(width * height));
    }
    check_sizes(group, function, width, height, error);
    const PixelBlock b = block_of(group.rank(), group.size(), width, height);
    std::vector<T> local;
    local.reserve(static_cast<std::size_t>(b.size()));
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        const auto row = all.subspan(static_cast<std::size_t>(r * width + b.col0), static_cast<std::size_t>(b.cols));
        local.insert(local.end(), row.begin(), row.end());
    }
    return local;
}

/// Calls f(r, c) for every pixel on the perimeter of `b`, in one fixed order (row-major).
template <class F>
void for_each_border_pixel(const PixelBlock& b, F&& f) {
    if (b.rows <= 0 || b.cols <= 0) {
        return;
    }
    const std::int64_t last_row = b.row0 + b.rows - 1;
    const std::int64_t last_col = b.col0 + b.cols - 1;
    for (std::int64_t r = b.row0; r <= last_row; ++r) {
        if (r == b.row0 || r == last_row) {
            for (std::int64_t c = b.col0; c <= last_col; ++c) {
                f(r, c);
            }
        } else {
            f(r, b.col0);
            if (last_col != b.col0) {
                f(r, last_col);
            }
        }
    }
}

/// The number of pixels for_each_border_pixel visits on `b`.
[[nodiscard]] inline std::int64_t perimeter(const PixelBlock& b) {
    if (b.rows <= 0 || b.cols <= 0) {
        return 0;
    }
    if (b.rows == 1) {
        return b.cols;
    }
    return 2 * b.cols + (b.rows - 2) * (b.cols == 1 ? 1 : 2);
}

/// The ring of pixels around a block, one pixel wide, from the other blocks' perimeters (`outside` off the image): the
/// rows above and below (columns col0 − 1 … col0 + cols, corners included) and the columns left and right (rows row0 …
/// row0 + rows − 1). Collective: one allgatherv of the blocks' perimeters.
template <class T>
class Ring {
  public:
    Ring(Group& group,
         const PixelBlock& block,
         std::int64_t width,
         std::int64_t height,
         std::span<const T> local,
         T outside)
        : block_(block),
          top_(static_cast<std::size_t>(block.cols + 2), outside),
          bottom_(top_),
          left_(static_cast<std::size_t>(block.rows), outside),
          right_(left_) {
        std::vector<T> mine;
        mine.reserve(static_cast<std::size_t>(perimeter(block_)));
        for_each_border_pixel(block_, [&](std::int64_t r, std::int64_t c) {
            mine.push_back(local[static_cast<std::size_t>((r - block_.row0) * block_.cols + c - block_.col0)]);
        });
        const std::vector<T> all = group.allgatherv(std::span<const T>(mine));
        const PixelBlock around{block_.row0 - 1, block_.col0 - 1, block_.rows + 2, block_.cols + 2};
        // Only the other blocks' perimeter rows that cross the ring's rows are read pixel by pixel; this block's own
        // perimeter and every other row are stepped over by their lengths (at P = 2 a strip reads the one row of the
        // other strip it needs, not all of its 2·4096 + 2·2048 perimeter pixels with a test each).
        std::size_t next = 0;
        for (int q = 0; q < group.size(); ++q) {
            const PixelBlock b = block_of(q, group.size(), width, height);
            if (q == group.rank() || b.rows <= 0 || b.cols <= 0) {
                next += static_cast<std::size_t>(perimeter(b));
                continue;
            }
            const std::int64_t last_row = b.row0 + b.rows - 1;
            for (std::int64_t r = b.row0; r <= last_row; ++r) {
                const bool whole_row = r == b.row0 || r == last_row;
                const std::int64_t length = whole_row ? b.cols : (b.cols == 1 ? 1 : 2);
                if (r < around.row0 || r >= around.row0 + around.rows) {
                    next += static_cast<std::size_t>(length);
                    continue;
                }
                const auto take = [&](std::int64_t c) {
                    if (around.contains(r, c) && !block_.contains(r, c)) {
                        slot(r, c) = all[next];
                    }
                    ++next;
                };
                if (whole_row) {
                    for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
                        take(c);
                    }
                } else {
                    take(b.col0);
                    if (b.cols != 1) {
                        take(b.col0 + b.cols - 1);
                    }
                }
            }
        }
    }

    /// The row above the block: cols + 2 values, from column col0 − 1.
    [[nodiscard]] std::span<const T> top() const noexcept { return top_; }
    /// The row below the block, like top().
    [[nodiscard]] std::span<const T> bottom() const noexcept { return bottom_; }
    /// The column left of the block: rows values, from row row0.
    [[nodiscard]] std::span<const T> left() const noexcept { return left_; }
    /// The column right of the block, like left().
    [[nodiscard]] std::span<const T> right() const noexcept { return right_; }

  private:
    T& slot(std::int64_t r, std::int64_t c) {
        if (r == block_.row0 - 1) {
            return top_[static_cast<std::size_t>(c - block_.col0 + 1)];
        }
        if (r == block_.row0 + block_.rows) {
            return bottom_[static_cast<std::size_t>(c - block_.col0 + 1)];
        }
        return (c < block_.col0 ? left_ : right_)[static_cast<std::size_t>(r - block_.row0)];
    }

    PixelBlock block_;
    std::vector<T> top_;
    std::vector<T> bottom_;
    std::vector<T> left_;
    std::vector<T> right_;
};

/// The values of this block and of the ring of pixels around it (Ring): every neighbour of this block's pixels, in
/// one padded array read in constant time. Collective: one allgatherv of the blocks' perimeters.
template <class T>
class Halo {
  public:
    Halo(Group& group,
         const PixelBlock& block,
         std::int64_t width,
         std::int64_t height,
         std::span<const T> local,
         T outside)
        : block_(block), stride_(block_.cols + 2), halo_(new T[static_cast<std::size_t>((block_.rows + 2) * stride_)]) {
        // Every slot written once: the ring's rows and columns, the block's rows between them.
        const Ring<T> ring(group, block, width, height, local, outside);
        std::copy(ring.top().begin(), ring.top().end(), halo_.get());
        std::copy(ring.bottom().begin(), ring.bottom().end(), halo_.get() + (block_.rows + 1) * stride_);
        for (std::int64_t r = 0; r < block_.rows; ++r) {
            T* row = halo_.get() + (r + 1) * stride_;
            const auto k = static_cast<std::size_t>(r);
            row[0] = ring.left()[k];
            const auto values =
                local.subspan(static_cast<std::size_t>(r * block_.cols), static_cast<std::size_t>(block_.cols));
            std::copy(values.begin(), values.end(), row + 1);
            row[stride_ - 1] = ring.right()[k];
        }
    }

    /// The value of pixel (r, c) of this block or next to it; `outside` off the image.
    [[nodiscard]] T at(std::int64_t r, std::int64_t c) const { return halo_[slot(r, c)]; }

  private:
    [[nodiscard]] std::size_t slot(std::int64_t r, std::int64_t c) const {
        return static_cast<std::size_t>((r - block_.row0 + 1) * stride_ + (c - block_.col0 + 1));
    }

    PixelBlock block_;
    std::int64_t stride_;
    std::unique_ptr<T[]> halo_;  ///< (rows + 2) × stride, not value-initialised: every slot is written once
};

/// Step 1: a block's segments and their nodes: segment k's nodes, in path order (first … last), are
/// nodes[start[k] … start[k + 1]). Only the nodes on segments are listed (at P > 1 a small part of the block): an
/// array a node for the segment and the distance of every node would be written and read again by step 3, and its
/// fresh pages are faulted in at every call.
struct LocalRanking {
    std::vector<Segment> segments;
    std::vector<std::int64_t> nodes;
    std::vector<std::size_t> start{0};
};

/// A placeholder head for the nodes on segments between steps 1 and 3 (any value but kNone): rank_cycles skips them,
/// and step 3 writes their results.
inline constexpr std::int64_t kOnSegment = -2;

/// Ranks the cycle through `head` (its smallest node) into `result`, walking it from both ends at once: forward by
/// `view.next` and backward by `predecessor`, two independent chains of loads instead of one (the walk is bound by
/// their latency). A node b steps before the head has rank b; one a steps after it has rank length − a, set when the
/// walks meet. `forward` is scratch space. `Index` holds node numbers (32 bits when they fit: the chains' loads then
/// touch half the bytes).
template <class Index, class View>
void rank_cycle(const View& view,
                std::size_t head,
                std::span<const Index> predecessor,
                std::span<Index> forward,
                std::vector<ContourRank>& result) {
    const std::int64_t id = view.global(head);
    std::size_t after = 0;                     // the forward walk's nodes, in forward[0, after)
    auto f = static_cast<std::int64_t>(head);  // the last node the forward walk took
    auto g = static_cast<std::int64_t>(head);  // the last node the backward walk took
    std::int64_t before = 0;
    while (true) {
        const std::int64_t next_f = view.next(static_cast<std::size_t>(f));
        if (next_f == g) {
            break;
        }
        f = next_f;
        forward[after++] = static_cast<Index>(f);
        const std::int64_t next_g = predecessor[static_cast<std::size_t>(g)];
        if (next_g == f) {
            break;
        }
        g = next_g;
        result[static_cast<std::size_t>(g)] = {id, ++before};
    }
    const auto length = static_cast<std::int64_t>(after) + before + 1;
    result[head] = {id, 0};
    for (std::size_t k = 0; k < after; ++k) {
        result[static_cast<std::size_t>(forward[k])] = {id, length - 1 - static_cast<std::int64_t>(k)};
    }
}

/// Ranks the cycles inside the block (every node active and not ranked yet: the nodes on segments are marked
/// kOnSegment) into `result`, each from its smallest node (the first met), which is the canonical head since global
/// indices increase with i. `for_each_link` calls its argument with every link i → j inside the block. `predecessor`:
/// every node's predecessor in the block when step 1 made it (P > 1), else empty (made here at the first cycle).
template <class Index, class View, class Links>
void rank_cycles(const View& view,
                 const Links& for_each_link,
                 std::unique_ptr<Index[]> predecessor,
                 std::vector<ContourRank>& result) {
    const std::size_t n = view.size();
    // The walk's scratch is made at the first cycle, and the predecessors then if step 1 did not: maps of lists have
    // no cycles, and pay nothing for them.
    std::unique_ptr<Index[]> forward;
    for (std::size_t start = 0; start < n; ++start) {
        if (!view.active(start) || result[start].head != kNone) {
            continue;
        }
        if (!predecessor) {
            // Every node of a cycle has its predecessor set; the others are never read.
            predecessor = std::make_unique_for_overwrite<Index[]>(n);
            for_each_link([&](std::size_t i, std::size_t j) { predecessor[j] = static_cast<Index>(i); });
        }
        if (!forward) {
            forward = std::make_unique_for_overwrite<Index[]>(n);
        }
        rank_cycle<Index>(
            view, start, std::span<const Index>(predecessor.get(), n), std::span<Index>(forward.get(), n), result);
    }
}

/// Step 1's segments (rank_locally): every path from an active node without a predecessor in the block (−1 in
/// `predecessor`), to its last node in the block, into `out`; their nodes marked kOnSegment in `result`.
template <class Index, class View>
void find_segments(const View& view,
                   std::span<const Index> predecessor,
                   LocalRanking& out,
                   std::vector<ContourRank>& result) {
    const std::size_t n = view.size();
    for (std::size_t start = 0; start < n; ++start) {
        if (!view.active(start) || predecessor[start] >= 0) {
            continue;
        }
        const std::size_t begin = out.nodes.size();
        for (auto i = static_cast<std::int64_t>(start); i != kNone; i = view.next(static_cast<std::size_t>(i))) {
            out.nodes.push_back(i);
        }
        const std::span<const std::int64_t> path(out.nodes.data() + begin, out.nodes.size() - begin);
        const auto last = static_cast<std::size_t>(path.back());
        Segment s{view.global(static_cast<std::size_t>(path.front())),
                  view.global(last),
                  static_cast<std::int64_t>(path.size()),
                  view.out(last),
                  std::numeric_limits<std::int64_t>::max(),
                  0};
        for (std::size_t k = 0; k < path.size(); ++k) {
            const auto slot = static_cast<std::size_t>(path[k]);
            result[slot].head = kOnSegment;
            if (view.global(slot) < s.low) {
                s.low = view.global(slot);
                s.low_to_last = static_cast<std::int64_t>(path.size() - 1 - k);
            }
        }
        out.segments.push_back(s);
        out.start.push_back(out.nodes.size());
    }
}

/// rank_locally's work with node numbers in `Index`: when the block has `segments` (some active node without a
/// successor in it, so some without a predecessor), one array of every node's predecessor in the block (−1: none)
/// finds the segments' first nodes and then serves rank_cycles' backward walks (two passes over the links were one
/// more array and one more pass over the block); otherwise cycles only (every border at P = 1), the search skipped.
template <class Index, class View, class Links>
void rank_nodes(
    const View& view, const Links& for_each_link, bool segments, LocalRanking& out, std::vector<ContourRank>& result) {
    std::unique_ptr<Index[]> predecessor;
    if (segments) {
        const std::size_t n = view.size();
        predecessor = std::make_unique_for_overwrite<Index[]>(n);
        std::fill_n(predecessor.get(), n, Index{-1});
        for_each_link([&](std::size_t i, std::size_t j) { predecessor[j] = static_cast<Index>(i); });
        find_segments<Index>(view, std::span<const Index>(predecessor.get(), n), out, result);
    }
    // What is left are cycles inside the block: every node has a predecessor in it.
    rank_cycles<Index>(view, for_each_link, std::move(predecessor), result);
}

/// Step 1 on the block's part of a successor graph. `View` gives the block's nodes 0 … size() − 1:
/// `active(i)` (a node of the graph), `global(i)` (its index in the whole graph, increasing with i), `next(i)` (its
/// successor's node in the block, or kNone) and `out(i)` (when next(i) is kNone: its successor's global index, or kNone
/// for a head). Cycles inside the block are ranked at once into `result` (one entry per node).
template <class View>
LocalRanking rank_locally(const View& view, std::vector<ContourRank>& result) {
    const std::size_t n = view.size();
    // Calls f(i, j) for every link i → j inside the block.
    const auto for_each_link = [&](auto&& f) {
        for (std::size_t i = 0; i < n; ++i) {
            if (view.active(i)) {
                const std::int64_t j = view.next(i);
                if (j != kNone) {
                    f(i, static_cast<std::size_t>(j));
                }
            }
        }
    };
    // Segments start at the active nodes without a predecessor in the block. Successors are injective (a validated
    // map; the border step is invertible), so when every active node has its successor in the block, every one has a
    // predecessor too: cycles only (every border at P = 1), and the search for starts is skipped.
    std::size_t active = 0;
    std::size_t links = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (view.active(i)) {
            ++active;
            links += view.next(i) != kNone ? 1 : 0;
        }
    }
    LocalRanking out;
    const bool segments = links != active;
    if (n <= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
        rank_nodes<std::int32_t>(view, for_each_link, segments, out, result);
    } else {
        rank_nodes<std::int64_t>(view, for_each_link, segments, out, result);
    }
    return out;
}

/// Step 3: every node on one of `local`'s segments from its segment's last, whose resolution `resolved` holds by the
/// segment's first (a segment it does not list ends at a head inside the block: its last, rank 0), into `result`.
inline void resolve_locally(const LocalRanking& local,
                            const std::unordered_map<std::int64_t, Resolution>& resolved,
                            std::vector<ContourRank>& result) {
    for (std::size_t k = 0; k < local.segments.size(); ++k) {
        const auto it = resolved.find(local.segments[k].first);
        const Resolution r = it == resolved.end() ? Resolution{local.segments[k].last, 0, 0} : it->second;
        const std::size_t begin = local.start[k];
        const std::size_t end = local.start[k + 1];
        for (std::size_t m = begin; m < end; ++m) {
            const auto to_last = static_cast<std::int64_t>(end - 1 - m);
            const std::int64_t rank = to_last + r.rank_last;
            result[static_cast<std::size_t>(local.nodes[m])] = {r.head, r.period == 0 ? rank : rank % r.period};
        }
    }
}

/// Steps 1–3 on the block's part of a successor graph (`view` as for rank_locally): every node's head and rank (one
/// entry per node; inactive nodes (−1, −1)). `pattern` is not automatic. Collective over `group`.
template <class View>
std::vector<ContourRank> rank_graph(
    Group& group, ContourPattern pattern, const ImageLayout& layout, const PixelBlock& block, const View& view) {
    std::vector<ContourRank> result(view.size());
    // Step 1: local ranking. The boundary list keeps the segments that leave the block or may be entered from outside.
    const LocalRanking local = rank_locally(view, result);
    const std::vector<Segment> boundary = boundary_list(local.segments, block, layout.width, layout.per_pixel);
    // Step 2: the merge of the boundary lists by the pattern, forward and backward.
    const auto resolved = merge_pattern(group, pattern, layout, boundary);
    // Step 3: every node from its segment's last.
    resolve_locally(local, resolved, result);
    return result;
}

}  // namespace llc::detail::contour_ranking
