// Contour ranking by the C³ paper's three steps (§5): local ranking into block segments, the merge of the blocks'
// boundary lists by one of the four patterns of §5.2 (forward merges, then a backward pass without communication),
// and the resolution of every pixel. The segment design is the digest's §3.4, extended to cycles.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>
#include <llc/par.hpp>

#include "merge.hpp"

namespace llc {
namespace {

using namespace detail::contour_ranking;

constexpr std::array<int, 8> kRowStep = {0, -1, -1, -1, 0, 1, 1, 1};
constexpr std::array<int, 8> kColStep = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr std::array<ContourPattern, 5> kPatterns = {ContourPattern::one_level_direct,
                                                     ContourPattern::two_level_row_column,
                                                     ContourPattern::log_level_quad,
                                                     ContourPattern::log_level_balanced,
                                                     ContourPattern::automatic};

bool is_direction(std::int8_t code) {
    return code >= 0 && code < 8;
}

/// Calls f(r, c) for every pixel on the perimeter of `b`, in one fixed order (row-major).
template <class F>
void for_each_border_pixel(const PixelBlock& b, F&& f) {
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        const bool whole_row = r == b.row0 || r == b.row0 + b.rows - 1;
        for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
            if (whole_row || c == b.col0 || c == b.col0 + b.cols - 1) {
                f(r, c);
            }
        }
    }
}

/// The codes of this block and of the ring of pixels around it (from the other blocks' borders): every neighbour of
/// this block's pixels, in one padded array so that validation reads each in constant time.
class Neighbourhood {
  public:
    Neighbourhood(Group& group, const SuccessorMap& succ)
        : block_(succ.block()),
          stride_(block_.cols + 2),
          halo_(static_cast<std::size_t>((block_.rows + 2) * stride_), succ_code::non_edge) {
        std::vector<std::int8_t> mine;
        for_each_border_pixel(block_, [&](std::int64_t r, std::int64_t c) {
            mine.push_back(succ.codes()[static_cast<std::size_t>((r - block_.row0) * block_.cols + c - block_.col0)]);
        });
        for (std::int64_t r = 0; r < block_.rows; ++r) {
            const auto row =
                succ.codes().subspan(static_cast<std::size_t>(r * block_.cols), static_cast<std::size_t>(block_.cols));
            std::copy(row.begin(), row.end(), halo_.begin() + slot(block_.row0 + r, block_.col0));
        }
        const std::vector<std::int8_t> all = group.allgatherv(std::span<const std::int8_t>(mine));
        const PixelBlock ring{block_.row0 - 1, block_.col0 - 1, block_.rows + 2, block_.cols + 2};
        std::size_t next = 0;
        for (int q = 0; q < group.size(); ++q) {
            const PixelBlock b = block_of(q, group.size(), succ.width(), succ.height());
            for_each_border_pixel(b, [&](std::int64_t r, std::int64_t c) {
                if (q != group.rank() && ring.contains(r, c)) {
                    halo_[slot(r, c)] = all[next];
                }
                ++next;
            });
        }
    }

    /// The code of pixel (r, c) of this block or next to it; non-edge off the image.
    [[nodiscard]] std::int8_t at(std::int64_t r, std::int64_t c) const { return halo_[slot(r, c)]; }

  private:
    [[nodiscard]] std::size_t slot(std::int64_t r, std::int64_t c) const {
        return static_cast<std::size_t>((r - block_.row0 + 1) * stride_ + (c - block_.col0 + 1));
    }

    PixelBlock block_;
    std::int64_t stride_;
    std::vector<std::int8_t> halo_;
};

enum class Fault : std::int64_t { bad_code = 0, off_image = 1, to_non_edge = 2, two_predecessors = 3 };

/// A fault as one number, smallest pixel first, so that one allreduce(min) picks the same fault everywhere.
std::int64_t fault_key(std::int64_t index, Fault fault, int direction) {
    return index * 32 + static_cast<std::int64_t>(fault) * 8 + direction;
}

[[noreturn]] void throw_fault(std::int64_t key, std::int64_t width) {
    const std::int64_t index = key / 32;
    const auto fault = static_cast<Fault>((key % 32) / 8);
    const int direction = static_cast<int>(key % 8);
    const std::int64_t r = index / width;
    const std::int64_t c = index % width;
    const std::string pixel = "pixel (" + std::to_string(r) + ", " + std::to_string(c) + ")";
    std::string why;
    switch (fault) {
        case Fault::bad_code:
            why = "its code is outside [-1, 8]";
            break;
        case Fault::off_image:
            why = "its successor (direction " + std::to_string(direction) + ") is off the image";
            break;
        case Fault::to_non_edge:
            why = "its successor (" + std::to_string(r + kRowStep[direction]) + ", " +
                  std::to_string(c + kColStep[direction]) + ") is a non-edge pixel";
            break;
        case Fault::two_predecessors:
            why = "it has two predecessors";
            break;
    }
    throw_argument_error("llc::validate_successor_map", "succ", pixel, why);
}

/// The smallest fault key of this block, or max() for none.
std::int64_t first_fault(const SuccessorMap& succ, const Neighbourhood& around) {
    const PixelBlock& b = succ.block();
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
            const std::int64_t index = r * succ.width() + c;
            const std::int8_t code = around.at(r, c);
            if (code < -1 || code > 8) {
                best = std::min(best, fault_key(index, Fault::bad_code, 0));
                continue;
            }
            if (is_direction(code)) {
                const std::int64_t tr = r + kRowStep[code];
                const std::int64_t tc = c + kColStep[code];
                if (tr < 0 || tc < 0 || tr >= succ.height() || tc >= succ.width()) {
                    best = std::min(best, fault_key(index, Fault::off_image, code));
                } else if (around.at(tr, tc) == succ_code::non_edge) {
                    best = std::min(best, fault_key(index, Fault::to_non_edge, code));
                }
            }
            int predecessors = 0;
            for (int d = 0; d < 8; ++d) {
                // The neighbour in direction d points back here when its code is the opposite direction.
                const std::int8_t n = around.at(r + kRowStep[d], c + kColStep[d]);
                predecessors += n == (d + 4) % 8 ? 1 : 0;
            }
            if (predecessors > 1 && code != succ_code::non_edge) {
                best = std::min(best, fault_key(index, Fault::two_predecessors, 0));
            }
        }
    }
    return best;
}

/// Step 1: this block's segments, and for each pixel its segment (or kNone) and distance to the segment's last.
/// Cycles inside the block are ranked at once into `result`.
struct LocalRanking {
    std::vector<Segment> segments;
    std::vector<std::int64_t> segment_of;
    std::vector<std::int64_t> to_last;
};

LocalRanking rank_locally(const SuccessorMap& succ, std::vector<ContourRank>& result) {
    const PixelBlock& b = succ.block();
    const auto codes = succ.codes();
    const auto n = static_cast<std::size_t>(b.size());
    // The in-block successor of local pixel i, or kNone (head, or successor outside the block).
    std::vector<std::int64_t> next(n, kNone);
    std::vector<char> has_predecessor(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
        if (is_direction(codes[i])) {
            const std::int64_t r = static_cast<std::int64_t>(i) / b.cols + b.row0 + kRowStep[codes[i]];
            const std::int64_t c = static_cast<std::int64_t>(i) % b.cols + b.col0 + kColStep[codes[i]];
            if (b.contains(r, c)) {
                next[i] = (r - b.row0) * b.cols + (c - b.col0);
                has_predecessor[static_cast<std::size_t>(next[i])] = 1;
            }
        }
    }
    const auto global = [&](std::int64_t i) { return (i / b.cols + b.row0) * succ.width() + i % b.cols + b.col0; };
    LocalRanking out{{}, std::vector<std::int64_t>(n, kNone), std::vector<std::int64_t>(n, 0)};
    std::vector<std::int64_t> path;
    for (std::size_t start = 0; start < n; ++start) {
        if (codes[start] == succ_code::non_edge || has_predecessor[start]) {
            continue;
        }
        path.clear();
        for (auto i = static_cast<std::int64_t>(start); i != kNone; i = next[static_cast<std::size_t>(i)]) {
            path.push_back(i);
        }
        const std::int64_t last = path.back();
        const std::int8_t last_code = codes[static_cast<std::size_t>(last)];
        Segment s{global(path.front()), global(last), static_cast<std::int64_t>(path.size()), kNone, 0, 0};
        if (is_direction(last_code)) {
            s.out = s.last + kRowStep[last_code] * succ.width() + kColStep[last_code];
        }
        s.low = std::numeric_limits<std::int64_t>::max();
        for (std::size_t k = 0; k < path.size(); ++k) {
            const auto slot = static_cast<std::size_t>(path[k]);
            out.segment_of[slot] = static_cast<std::int64_t>(out.segments.size());
            out.to_last[slot] = static_cast<std::int64_t>(path.size() - 1 - k);
            if (global(path[k]) < s.low) {
                s.low = global(path[k]);
                s.low_to_last = out.to_last[slot];
            }
        }
        out.segments.push_back(s);
    }
    // What is left are cycles inside the block: every pixel has a predecessor in it.
    for (std::size_t start = 0; start < n; ++start) {
        if (codes[start] == succ_code::non_edge || out.segment_of[start] != kNone || result[start].head != kNone) {
            continue;
        }
        path.clear();
        std::int64_t low_k = 0;
        for (auto i = static_cast<std::int64_t>(start); path.empty() || i != path.front();
             i = next[static_cast<std::size_t>(i)]) {
            if (global(i) < global(path.empty() ? i : path[static_cast<std::size_t>(low_k)])) {
                low_k = static_cast<std::int64_t>(path.size());
            }
            path.push_back(i);
        }
        const auto length = static_cast<std::int64_t>(path.size());
        for (std::int64_t k = 0; k < length; ++k) {
            result[static_cast<std::size_t>(path[static_cast<std::size_t>(k)])] = {
                global(path[static_cast<std::size_t>(low_k)]), ((low_k - k) % length + length) % length};
        }
    }
    return out;
}

/// The forward phase on `node`, run by its processors `g` (consecutive leaves' holders): this processor holds the
/// list `held` of its leaf. Returns the node's region's boundary list, the same on every processor of g, and appends
/// each merge this processor takes part in to `levels` (narrowest first).
std::vector<Segment> forward(Group& g,
                             const PlanNode& node,
                             const ImageLayout& layout,
                             std::span<const Segment> held,
                             std::vector<Level>& levels) {
    if (node.children.empty()) {
        return {held.begin(), held.end()};
    }
    std::vector<Segment> kids;
    if (node.gather) {
        kids = g.allgatherv(held);
    } else {
        std::vector<double> weights;
        for (const PlanNode& child : node.children) {
            weights.push_back(child.range.count());
        }
        // Weights equal to the children's block counts, which sum to g.size(): the subgroups are exactly the
        // children's runs of holders (split_sizes returns exact quotas).
        const auto parts = weighted_par(g, weights, [&](Group& sub, int t) {
            return forward(sub, node.children[static_cast<std::size_t>(t)], layout, held, levels);
        });
        for (const auto& part_list : parts) {
            kids.insert(kids.end(), part_list.begin(), part_list.end());
        }
    }
    levels.push_back(merge(std::move(kids)));
    return boundary_list(levels.back().composites, layout.pixels(node.range), layout.width);
}

/// Step 2 by `pattern` for this processor's block list `boundary`: the resolution of each of its segments, by first.
std::unordered_map<std::int64_t, Resolution> merge_pattern(Group& group,
                                                           ContourPattern pattern,
                                                           const ImageLayout& layout,
                                                           const std::vector<Segment>& boundary) {
    const PlanNode plan = plan_of(pattern, layout.grid);
    std::vector<int> leaves;
    leaves_of(plan, layout.grid.cols, leaves);
    const bool balanced = pattern == ContourPattern::log_level_balanced;
    std::vector<int> holder(leaves.size());
    for (std::size_t b = 0; b < holder.size(); ++b) {
        holder[b] = static_cast<int>(b);
    }
    std::vector<Segment> held = boundary;
    std::vector<int> counts(static_cast<std::size_t>(group.size()), 0);
    if (balanced) {
        // The paper's first permutation: block b's list to the processor that holds it during the merge.
        holder = balanced_holders(layout.grid);
        counts[static_cast<std::size_t>(holder[static_cast<std::size_t>(group.rank())])] =
            static_cast<int>(boundary.size());
        held = group.alltoallv(std::span<const Segment>(boundary), counts);
    }
    std::vector<int> order(leaves.size());
    for (std::size_t k = 0; k < leaves.size(); ++k) {
        order[k] = holder[static_cast<std::size_t>(leaves[k])];
    }
    Group& ordered = group.reordered(order);
    ordered.set_superstep_clock(group.superstep_clock());
    std::vector<Level> levels;
    (void)forward(ordered, plan, layout, held, levels);
    group.set_superstep_clock(ordered.superstep_clock());
    auto resolved = resolve_backward(levels);
    if (!balanced) {
        return resolved;
    }
    // The return permutation (digest A9): the resolutions of the held list, in its order, back to its block's rank.
    std::vector<Resolution> back(held.size());
    for (std::size_t k = 0; k < held.size(); ++k) {
        const auto it = resolved.find(held[k].first);
        back[k] = it == resolved.end() ? Resolution{held[k].last, 0, 0} : it->second;
    }
    const auto it = std::find(holder.begin(), holder.end(), group.rank());
    std::fill(counts.begin(), counts.end(), 0);
    counts[static_cast<std::size_t>(it - holder.begin())] = static_cast<int>(back.size());
    const std::vector<Resolution> mine = group.alltoallv(std::span<const Resolution>(back), counts);
    std::unordered_map<std::int64_t, Resolution> out;
    for (std::size_t k = 0; k < boundary.size(); ++k) {
        out[boundary[k].first] = mine[k];
    }
    return out;
}

void check_sizes(Group& group, const char* function, std::int64_t width, std::int64_t height, std::string error) {
    if (error.empty() && (width < 0 || height < 0)) {
        error = argument_message(
            function, width < 0 ? "width" : "height", std::to_string(width < 0 ? width : height), "must be ≥ 0");
    }
    group.check_same(function, {{"width", width}, {"height", height}}, error);
}

}  // namespace

PixelBlock block_of(int rank, int processors, std::int64_t width, std::int64_t height) {
    const int q = integer_sqrt(processors);
    if (q * q == processors) {
        const auto [row0, rows] = part(rank / q, q, height);
        const auto [col0, cols] = part(rank % q, q, width);
        return {row0, col0, rows, cols};
    }
    const auto [row0, rows] = part(rank, processors, height);
    return {row0, 0, rows, width};
}

SuccessorMap SuccessorMap::from_whole(Group& group,
                                      std::int64_t width,
                                      std::int64_t height,
                                      std::span<const std::int8_t> all) {
    const char* function = "llc::SuccessorMap::from_whole";
    std::string error;
    if (width >= 0 && height >= 0 && static_cast<std::int64_t>(all.size()) != width * height) {
        error = argument_message(function,
                                 "all.size()",
                                 std::to_string(all.size()),
                                 "must be width·height = " + std::to_string(width * height));
    }
    check_sizes(group, function, width, height, error);
    const PixelBlock b = block_of(group.rank(), group.size(), width, height);
    std::vector<std::int8_t> local;
    local.reserve(static_cast<std::size_t>(b.size()));
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        const auto row = all.subspan(static_cast<std::size_t>(r * width + b.col0), static_cast<std::size_t>(b.cols));
        local.insert(local.end(), row.begin(), row.end());
    }
    return SuccessorMap(group, width, height, std::move(local));
}

SuccessorMap::SuccessorMap(Group& group, std::int64_t width, std::int64_t height, std::vector<std::int8_t> local)
    : width_(width), height_(height), codes_(std::move(local)) {
    const char* function = "llc::SuccessorMap";
    block_ = width >= 0 && height >= 0 ? block_of(group.rank(), group.size(), width, height) : PixelBlock{};
    std::string error;
    if (width >= 0 && height >= 0 && static_cast<std::int64_t>(codes_.size()) != block_.size()) {
        error = argument_message(function,
                                 "local.size()",
                                 std::to_string(codes_.size()),
                                 "must be this rank's block size " + std::to_string(block_.size()));
    }
    check_sizes(group, function, width, height, error);
}

void validate_successor_map(Group& group, const SuccessorMap& succ) {
    const Neighbourhood around(group, succ);
    const std::int64_t fault = group.allreduce(first_fault(succ, around), Op::min);
    if (fault != std::numeric_limits<std::int64_t>::max()) {
        throw_fault(fault, succ.width());
    }
}

std::string_view to_string(ContourPattern pattern) {
    switch (pattern) {
        case ContourPattern::one_level_direct:
            return "1-lev-dir";
        case ContourPattern::two_level_row_column:
            return "2-lev-rc";
        case ContourPattern::log_level_quad:
            return "logp-lev-quad";
        case ContourPattern::log_level_balanced:
            return "logp-lev-bal";
        case ContourPattern::automatic:
            return "auto";
    }
    return "?";
}

ContourPattern contour_pattern_from_string(std::string_view name) {
    for (const auto p : kPatterns) {
        if (name == to_string(p)) {
            return p;
        }
    }
    throw_argument_error("llc::contour_pattern_from_string",
                         "pattern",
                         std::string(name),
                         "must be one of 1-lev-dir, 2-lev-rc, logp-lev-quad, logp-lev-bal, auto");
}

std::vector<ContourRank> contour_rank(Group& group,
                                      const SuccessorMap& succ,
                                      ContourPattern pattern,
                                      const cost::Profile* profile) {
    const char* function = "llc::contour_rank";
    const bool known = std::find(kPatterns.begin(), kPatterns.end(), pattern) != kPatterns.end();
    group.check_same(
        function,
        {{"pattern", static_cast<long long>(pattern)}},
        known ? std::string()
              : argument_message(
                    function, "pattern", std::to_string(static_cast<long long>(pattern)), "is not a ContourPattern"));
    validate_successor_map(group, succ);
    const PixelBlock& b = succ.block();
    std::vector<ContourRank> result(static_cast<std::size_t>(b.size()));
    if (pattern == ContourPattern::automatic) {
        const auto edges = static_cast<std::int64_t>(std::count_if(
            succ.codes().begin(), succ.codes().end(), [](std::int8_t c) { return c != succ_code::non_edge; }));
        const std::int64_t total = group.allreduce(edges, Op::sum);
        const std::int64_t pixels = succ.width() * succ.height();
        const double density = pixels == 0 ? 0.0 : static_cast<double>(total) / static_cast<double>(pixels);
        pattern = choose_contour_pattern(group.size(), succ.width(), succ.height(), density, profile);
    }
    // Step 1: local ranking. The boundary list keeps the segments that leave the block or may be entered from outside.
    const LocalRanking local = rank_locally(succ, result);
    const std::vector<Segment> boundary = boundary_list(local.segments, b, succ.width());
    // Step 2: the merge of the boundary lists by the pattern, forward and backward.
    const ImageLayout layout{group.size(), grid_of(group.size()), succ.width(), succ.height()};
    const auto resolved = merge_pattern(group, pattern, layout, boundary);
    // Step 3: every pixel from its segment's last.
    std::vector<Resolution> last_of(local.segments.size());
    for (std::size_t k = 0; k < last_of.size(); ++k) {
        const auto it = resolved.find(local.segments[k].first);
        last_of[k] = it == resolved.end() ? Resolution{local.segments[k].last, 0, 0} : it->second;
    }
    for (std::size_t i = 0; i < result.size(); ++i) {
        const std::int64_t s = local.segment_of[i];
        if (s == kNone) {
            continue;  // non-edge, or on a cycle inside the block (done in step 1)
        }
        const Resolution& r = last_of[static_cast<std::size_t>(s)];
        const std::int64_t rank = local.to_last[i] + r.rank_last;
        result[i] = {r.head, r.period == 0 ? rank : rank % r.period};
    }
    return result;
}

std::vector<std::int8_t> synthetic_successor_map(
    std::int64_t width, std::int64_t height, double density, ContourLines lines, std::int64_t offset) {
    const char* function = "llc::synthetic_successor_map";
    if (width < 0 || height < 0) {
        throw_argument_error(
            function, width < 0 ? "width" : "height", std::to_string(width < 0 ? width : height), "must be ≥ 0");
    }
    if (!(density >= 0.0 && density <= 1.0)) {
        throw_argument_error(function, "density", std::to_string(density), "must be in [0, 1]");
    }
    std::vector<std::int8_t> codes(static_cast<std::size_t>(width * height), succ_code::non_edge);
    if (density == 0.0) {
        return codes;
    }
    const auto k = std::max<std::int64_t>(1, std::llround(1.0 / density));
    for (std::int64_t r = 0; r < height; ++r) {
        for (std::int64_t c = 0; c < width; ++c) {
            const bool diagonal = lines == ContourLines::diagonal;
            if ((diagonal ? (c - r - offset) % k : (c - offset) % k) != 0) {
                continue;
            }
            const bool end = r == height - 1 || (diagonal && c == width - 1);
            codes[static_cast<std::size_t>(r * width + c)] =
                end ? succ_code::head : static_cast<std::int8_t>(diagonal ? 7 : 6);
        }
    }
    return codes;
}

ContourPattern choose_contour_pattern(
    int P, std::int64_t width, std::int64_t height, double edge_density, const cost::Profile* profile) {
    if (profile == nullptr) {
        return ContourPattern::log_level_quad;
    }
    const auto model = cost::make_model("ccm", *profile);
    ContourPattern best = ContourPattern::one_level_direct;
    double best_time = std::numeric_limits<double>::max();
    for (const auto p : kPatterns) {
        if (p == ContourPattern::automatic) {
            continue;
        }
        const double t = cost::predict(cost::contour_rank(P, width, height, edge_density, p, *profile), *model);
        if (t < best_time) {
            best_time = t;
            best = p;
        }
    }
    return best;
}

}  // namespace llc
