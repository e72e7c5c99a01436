// The segments' merge and backward resolution, and the patterns' merge trees (see merge.hpp).
#include "merge.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/par.hpp>
#include <llc/trace.hpp>

namespace llc::detail::contour_ranking {

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

namespace {

/// A cycle of child segments (indices into kids, in successor order): every one resolved at once, the head being
/// the smallest index on the cycle.
void close_cycle(const std::vector<Segment>& kids, const std::vector<std::size_t>& cycle, std::vector<Link>& links) {
    const std::size_t m = cycle.size();
    std::int64_t period = 0;
    std::size_t low = 0;
    for (std::size_t k = 0; k < m; ++k) {
        period += kids[cycle[k]].length;
        low = kids[cycle[k]].low < kids[cycle[low]].low ? k : low;
    }
    const Segment& h = kids[cycle[low]];
    links[cycle[low]] = {kNone, 0, {h.low, (period - h.low_to_last) % period, period}};
    // Walk back around the cycle from the head's segment: each predecessor's last is one segment further.
    for (std::size_t step = 1; step < m; ++step) {
        const std::size_t k = (low + m - step) % m;
        const std::size_t after = cycle[(k + 1) % m];
        const Resolution& r = links[after].cycle;
        links[cycle[k]] = {kNone, 0, {h.low, (r.rank_last + kids[after].length) % period, period}};
    }
}

}  // namespace

/// Merges the boundary lists `kids` of disjoint regions: chains of segments linked out → first become one composite
/// segment each; chains that close are cycles, resolved here.
Level merge(std::vector<Segment> kids) {
    Level level{std::move(kids), {}, {}};
    const std::vector<Segment>& c = level.children;
    std::unordered_map<std::int64_t, std::size_t> by_first;
    by_first.reserve(c.size());
    for (std::size_t s = 0; s < c.size(); ++s) {
        by_first[c[s].first] = s;
    }
    std::vector<std::int64_t> next(c.size(), kNone);
    std::vector<char> entered(c.size(), 0);
    for (std::size_t s = 0; s < c.size(); ++s) {
        const auto it = c[s].out == kNone ? by_first.end() : by_first.find(c[s].out);
        if (it != by_first.end()) {
            next[s] = static_cast<std::int64_t>(it->second);
            entered[it->second] = 1;
        }
    }
    level.links.resize(c.size());
    std::vector<char> done(c.size(), 0);
    std::vector<std::size_t> chain;
    for (std::size_t start = 0; start < c.size(); ++start) {
        if (entered[start] != 0) {
            continue;  // inside a chain, or on a cycle
        }
        chain.clear();
        for (auto s = static_cast<std::int64_t>(start); s != kNone; s = next[static_cast<std::size_t>(s)]) {
            chain.push_back(static_cast<std::size_t>(s));
        }
        Segment composite{c[chain.front()].first,
                          c[chain.back()].last,
                          0,
                          c[chain.back()].out,
                          std::numeric_limits<std::int64_t>::max(),
                          0};
        const auto index = static_cast<std::int64_t>(level.composites.size());
        std::int64_t offset = 0;  // steps from the current child's last to the composite's last
        for (auto k = chain.rbegin(); k != chain.rend(); ++k) {
            const Segment& child = c[*k];
            level.links[*k] = {index, offset, {}};
            if (child.low < composite.low) {
                composite.low = child.low;
                composite.low_to_last = child.low_to_last + offset;
            }
            offset += child.length;
            done[*k] = 1;
        }
        composite.length = offset;
        level.composites.push_back(composite);
    }
    // What is left lies on cycles: every segment is entered.
    for (std::size_t start = 0; start < c.size(); ++start) {
        if (done[start] != 0) {
            continue;
        }
        chain.clear();
        auto s = static_cast<std::int64_t>(start);
        do {
            chain.push_back(static_cast<std::size_t>(s));
            done[static_cast<std::size_t>(s)] = 1;
            s = next[static_cast<std::size_t>(s)];
        } while (s != static_cast<std::int64_t>(start));
        close_cycle(c, chain, level.links);
    }
    return level;
}

namespace {

bool on_border(const PixelBlock& region, std::int64_t index, std::int64_t width, std::int64_t per_pixel) {
    const std::int64_t pixel = index / per_pixel;
    const std::int64_t r = pixel / width;
    const std::int64_t c = pixel % width;
    return r == region.row0 || r == region.row0 + region.rows - 1 || c == region.col0 ||
           c == region.col0 + region.cols - 1;
}

}  // namespace

/// A region's boundary list: the segments that leave it, or whose first pixel is on its border (only those can be
/// entered from outside). The rest end at a head inside and are resolved as (last, 0).
std::vector<Segment> boundary_list(std::span<const Segment> segments,
                                   const PixelBlock& region,
                                   std::int64_t width,
                                   std::int64_t per_pixel) {
    std::vector<Segment> out;
    for (const Segment& s : segments) {
        if (s.out != kNone || on_border(region, s.first, width, per_pixel)) {
            out.push_back(s);
        }
    }
    return out;
}

/// The backward phase: from the last (widest) merge down to the first, every child's resolution from its
/// composite's; a composite that no wider merge lists ends at its own last pixel. Returns the resolutions of the
/// first merge's children, by first pixel.
std::unordered_map<std::int64_t, Resolution> resolve_backward(const std::vector<Level>& levels) {
    std::unordered_map<std::int64_t, Resolution> above;
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        std::vector<Resolution> composite(level->composites.size());
        for (std::size_t k = 0; k < composite.size(); ++k) {
            const Segment& s = level->composites[k];
            const auto it = above.find(s.first);
            composite[k] = it == above.end() ? Resolution{s.last, 0, 0} : it->second;
        }
        std::unordered_map<std::int64_t, Resolution> here;
        here.reserve(level->children.size());
        for (std::size_t k = 0; k < level->children.size(); ++k) {
            const Link& link = level->links[k];
            Resolution r = link.cycle;
            if (link.composite != kNone) {
                r = composite[static_cast<std::size_t>(link.composite)];
                r.rank_last += link.offset;
                r.rank_last = r.period == 0 ? r.rank_last : r.rank_last % r.period;
            }
            here[level->children[k].first] = r;
        }
        above = std::move(here);
    }
    return above;
}

namespace {

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
        const Label label(names::contour_ranking::allgatherv);
        kids = g.allgatherv(held);
    } else {
        std::vector<double> weights;
        for (const PlanNode& child : node.children) {
            weights.push_back(child.range.count());
        }
        // Weights equal to the children's block counts, which sum to g.size(): the subgroups are exactly the
        // children's runs of holders (split_sizes returns exact quotas).
        const Label label(names::contour_ranking::division);  // the children's own supersteps name themselves
        const auto parts = weighted_par(g, weights, [&](Group& sub, int t) {
            return forward(sub, node.children[static_cast<std::size_t>(t)], layout, held, levels);
        });
        for (const auto& part_list : parts) {
            kids.insert(kids.end(), part_list.begin(), part_list.end());
        }
    }
    levels.push_back(merge(std::move(kids)));
    return boundary_list(levels.back().composites, layout.pixels(node.range), layout.width, layout.per_pixel);
}

}  // namespace

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
        const Label label(names::contour_ranking::bal_permute);
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
    const Label label(names::contour_ranking::bal_return);
    const std::vector<Resolution> mine = group.alltoallv(std::span<const Resolution>(back), counts);
    std::unordered_map<std::int64_t, Resolution> out;
    for (std::size_t k = 0; k < boundary.size(); ++k) {
        out[boundary[k].first] = mine[k];
    }
    return out;
}

BlockGrid grid_of(int P) {
    const int q = integer_sqrt(P);
    return q * q == P ? BlockGrid{q, q} : BlockGrid{P, 1};
}

namespace {

PlanNode gather_node(const BlockRange& range) {
    PlanNode node{range, true, {}};
    for (int r = range.r0; r < range.r1; ++r) {
        for (int c = range.c0; c < range.c1; ++c) {
            node.children.push_back({{r, r + 1, c, c + 1}, false, {}});
        }
    }
    return node;
}

/// Quadrants down to single blocks (halves where a side is one block long).
PlanNode quad_node(const BlockRange& range) {
    PlanNode node{range, false, {}};
    if (range.count() <= 1) {
        return node;
    }
    const auto halves = [](int a, int b) {
        return b - a >= 2 ? std::vector<std::pair<int, int>>{{a, a + (b - a) / 2}, {a + (b - a) / 2, b}}
                          : std::vector<std::pair<int, int>>{{a, b}};
    };
    for (const auto& [r0, r1] : halves(range.r0, range.r1)) {
        for (const auto& [c0, c1] : halves(range.c0, range.c1)) {
            node.children.push_back(quad_node({r0, r1, c0, c1}));
        }
    }
    return node;
}

}  // namespace

PlanNode plan_of(ContourPattern pattern, const BlockGrid& grid) {
    const BlockRange all{0, grid.rows, 0, grid.cols};
    switch (pattern) {
        case ContourPattern::one_level_direct:
            return gather_node(all);
        case ContourPattern::two_level_row_column: {
            // The rows of the grid; on strips (one column) ⌈√P⌉ runs of consecutive strips, the nearest to rows.
            const int runs = grid.cols > 1 ? grid.rows : integer_sqrt(grid.rows - 1) + 1;
            PlanNode node{all, false, {}};
            for (int k = 0; k < runs; ++k) {
                const auto [r0, rows] = part(k, runs, grid.rows);
                node.children.push_back(gather_node({static_cast<int>(r0), static_cast<int>(r0 + rows), 0, grid.cols}));
            }
            return node;
        }
        case ContourPattern::log_level_quad:
        case ContourPattern::log_level_balanced:
        case ContourPattern::automatic:
            break;
    }
    return quad_node(all);
}

void leaves_of(const PlanNode& node, int cols, std::vector<int>& out) {
    if (node.children.empty() && !node.gather) {
        out.push_back(node.range.r0 * cols + node.range.c0);
    }
    for (const PlanNode& child : node.children) {
        leaves_of(child, cols, out);
    }
}

/// The bit-reversal permutation of 0 … n−1 (paper §5.2, logp-lev-bal): i goes to its rank among 0 … n−1 ordered by
/// their reversed ⌈log2 n⌉-bit expansions. For n a power of two that is rev(i) itself; otherwise it is still a
/// permutation of 0 … n−1 that sends neighbours far apart.
std::vector<int> bit_reversal(int n) {
    int bits = 0;
    while ((1 << bits) < n) {
        ++bits;
    }
    const auto rev = [bits](int i) {
        int r = 0;
        for (int b = 0; b < bits; ++b) {
            r |= ((i >> b) & 1) << (bits - 1 - b);
        }
        return r;
    };
    std::vector<int> order(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        order[static_cast<std::size_t>(i)] = i;
    }
    std::sort(order.begin(), order.end(), [&](int a, int b) { return rev(a) < rev(b); });
    std::vector<int> sigma(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        sigma[static_cast<std::size_t>(order[static_cast<std::size_t>(k)])] = k;
    }
    return sigma;
}

/// logp-lev-bal's placement: the rank that holds block b's list during the merge, P_{i,j} → P_{σ(i),σ(j)}.
std::vector<int> balanced_holders(const BlockGrid& grid) {
    const std::vector<int> row = bit_reversal(grid.rows);
    const std::vector<int> col = bit_reversal(grid.cols);
    std::vector<int> holder(static_cast<std::size_t>(grid.rows * grid.cols));
    for (int i = 0; i < grid.rows; ++i) {
        for (int j = 0; j < grid.cols; ++j) {
            holder[static_cast<std::size_t>(i * grid.cols + j)] =
                row[static_cast<std::size_t>(i)] * grid.cols + col[static_cast<std::size_t>(j)];
        }
    }
    return holder;
}
}  // namespace llc::detail::contour_ranking
