// Contour ranking by the C³ paper's three steps (§5): local ranking into block segments, the merge of the blocks'
// boundary lists, and the resolution of every pixel. The segment design is the digest's §3.4, extended to cycles.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/error.hpp>

namespace llc {
namespace {

constexpr std::array<int, 8> kRowStep = {0, -1, -1, -1, 0, 1, 1, 1};
constexpr std::array<int, 8> kColStep = {1, 1, 0, -1, -1, -1, 0, 1};
constexpr std::int64_t kNone = -1;

bool is_direction(std::int8_t code) {
    return code >= 0 && code < 8;
}

/// The largest q with q² ≤ p.
int integer_sqrt(int p) {
    int q = static_cast<int>(std::sqrt(static_cast<double>(p)));
    while (q * q > p) {
        --q;
    }
    while ((q + 1) * (q + 1) <= p) {
        ++q;
    }
    return q;
}

/// The part [i·n/k, (i+1)·n/k) of n items cut into k.
std::pair<std::int64_t, std::int64_t> part(std::int64_t i, std::int64_t k, std::int64_t n) {
    const std::int64_t begin = i * n / k;
    return {begin, (i + 1) * n / k - begin};
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

/// The codes of this block and of every other block's border: enough to see every neighbour of this block's pixels.
class Neighbourhood {
  public:
    Neighbourhood(Group& group, const SuccessorMap& succ) : succ_(succ) {
        std::vector<std::int8_t> mine;
        for_each_border_pixel(succ.block(), [&](std::int64_t r, std::int64_t c) { mine.push_back(local(r, c)); });
        const std::vector<std::int8_t> all = group.allgatherv(std::span<const std::int8_t>(mine));
        std::size_t next = 0;
        for (int q = 0; q < group.size(); ++q) {
            const PixelBlock b = block_of(q, group.size(), succ.width(), succ.height());
            for_each_border_pixel(b, [&](std::int64_t r, std::int64_t c) {
                if (q != group.rank()) {
                    border_[r * succ.width() + c] = all[next];
                }
                ++next;
            });
        }
    }

    /// The code of pixel (r, c) of this block or next to it; non-edge off the image.
    [[nodiscard]] std::int8_t at(std::int64_t r, std::int64_t c) const {
        if (r < 0 || c < 0 || r >= succ_.height() || c >= succ_.width()) {
            return succ_code::non_edge;
        }
        if (succ_.block().contains(r, c)) {
            return local(r, c);
        }
        const auto it = border_.find(r * succ_.width() + c);
        return it == border_.end() ? succ_code::non_edge : it->second;
    }

  private:
    [[nodiscard]] std::int8_t local(std::int64_t r, std::int64_t c) const {
        const PixelBlock& b = succ_.block();
        return succ_.codes()[static_cast<std::size_t>((r - b.row0) * b.cols + (c - b.col0))];
    }

    const SuccessorMap& succ_;
    std::unordered_map<std::int64_t, std::int8_t> border_;
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

/// A maximal run of one contour inside a block (digest §3.4): `first` has no predecessor in the block, `out` is
/// succ(last) outside the block or kNone when `last` is a head. `low` is the smallest index on the run and
/// `low_to_last` its distance to `last`, which pick a cycle's canonical head.
struct Segment {
    std::int64_t first;
    std::int64_t last;
    std::int64_t length;
    std::int64_t out;
    std::int64_t low;
    std::int64_t low_to_last;
};

/// Where a segment's last pixel stands on its contour: rank(x) = (distance(x, last) + rank_last) mod period, the
/// period being the cycle's length, or 0 for an open list (no modulus).
struct Resolution {
    std::int64_t head = kNone;
    std::int64_t rank_last = 0;
    std::int64_t period = 0;
};

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

/// Step 2's merge: the resolution of every segment of `lists` (the union of blocks' boundary lists that covers
/// every contour crossing a border), following out → first links; a cycle of segments gets its canonical head.
std::unordered_map<std::int64_t, Resolution> merge(const std::vector<Segment>& lists) {
    std::unordered_map<std::int64_t, std::size_t> by_first;
    for (std::size_t s = 0; s < lists.size(); ++s) {
        by_first[lists[s].first] = s;
    }
    std::vector<Resolution> done(lists.size());
    std::vector<char> state(lists.size(), 0);  // 0 open, 1 on the current path, 2 resolved
    std::vector<std::size_t> path;
    for (std::size_t start = 0; start < lists.size(); ++start) {
        path.clear();
        std::size_t s = start;
        while (state[s] == 0) {
            state[s] = 1;
            path.push_back(s);
            const auto it = lists[s].out == kNone ? by_first.end() : by_first.find(lists[s].out);
            if (it == by_first.end()) {
                // The list ends here: last is the head (validation guarantees every out is some segment's first).
                done[s] = {lists[s].last, 0, 0};
                state[s] = 2;
                path.pop_back();
                break;
            }
            s = it->second;
        }
        if (state[s] == 1) {
            // A cycle: the path from s on. Its head is the smallest index on it.
            const auto from = static_cast<std::size_t>(std::find(path.begin(), path.end(), s) - path.begin());
            std::int64_t period = 0;
            std::size_t low = from;
            for (std::size_t k = from; k < path.size(); ++k) {
                period += lists[path[k]].length;
                if (lists[path[k]].low < lists[path[low]].low) {
                    low = k;
                }
            }
            const Segment& h = lists[path[low]];
            done[path[low]] = {h.low, (period - h.low_to_last) % period, period};
            state[path[low]] = 2;
            // Walk back around the cycle from the head's segment: each predecessor's last is one segment further.
            for (std::size_t step = 1; step < path.size() - from; ++step) {
                const std::size_t k = from + (low - from + path.size() - from - step) % (path.size() - from);
                const std::size_t after = path[from + (k - from + 1) % (path.size() - from)];
                done[path[k]] = {h.low, (done[after].rank_last + lists[after].length) % period, period};
                state[path[k]] = 2;
            }
            path.resize(from);
        }
        // Unwind the open path onto the resolved segment it reached.
        while (!path.empty()) {
            const std::size_t t = path.back();
            const std::size_t after = by_first.at(lists[t].out);
            const Resolution& r = done[after];
            const std::int64_t rank = r.rank_last + lists[after].length;
            done[t] = {r.head, r.period == 0 ? rank : rank % r.period, r.period};
            state[t] = 2;
            path.pop_back();
        }
    }
    std::unordered_map<std::int64_t, Resolution> out;
    for (std::size_t s = 0; s < lists.size(); ++s) {
        out[lists[s].first] = done[s];
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

std::vector<ContourRank> contour_rank(Group& group, const SuccessorMap& succ, ContourPattern pattern) {
    group.check_same("llc::contour_rank", {{"pattern", static_cast<long long>(pattern)}});
    validate_successor_map(group, succ);
    const PixelBlock& b = succ.block();
    std::vector<ContourRank> result(static_cast<std::size_t>(b.size()));
    // Step 1: local ranking. The boundary list keeps the segments that leave the block or may be entered from outside.
    const LocalRanking local = rank_locally(succ, result);
    std::vector<Segment> boundary;
    const auto on_border = [&](std::int64_t index) {
        const std::int64_t r = index / succ.width();
        const std::int64_t c = index % succ.width();
        return r == b.row0 || r == b.row0 + b.rows - 1 || c == b.col0 || c == b.col0 + b.cols - 1;
    };
    for (const Segment& s : local.segments) {
        if (s.out != kNone || on_border(s.first)) {
            boundary.push_back(s);
        }
    }
    // Step 2 (1-lev-dir): every boundary list to every processor, merged by each.
    const std::vector<Segment> lists = group.allgatherv(std::span<const Segment>(boundary));
    const auto resolved = merge(lists);
    // Step 3: every pixel from its segment's last.
    for (std::size_t i = 0; i < result.size(); ++i) {
        const std::int64_t s = local.segment_of[i];
        if (s == kNone) {
            continue;  // non-edge, or on a cycle inside the block (done in step 1)
        }
        const Segment& seg = local.segments[static_cast<std::size_t>(s)];
        const auto it = resolved.find(seg.first);
        const Resolution r = it == resolved.end() ? Resolution{seg.last, 0, 0} : it->second;
        const std::int64_t rank = local.to_last[i] + r.rank_last;
        result[i] = {r.head, r.period == 0 ? rank : rank % r.period};
    }
    return result;
}

}  // namespace llc
