#pragma once
// Internals of contour ranking shared by the algorithm, its cost function and its kernel probes: the segments and
// their merge (digest §3.4, extended to cycles), and the patterns' merge trees over the block grid (C³ §5.2).
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>

namespace llc::detail::contour_ranking {

inline constexpr std::int64_t kNone = -1;

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

/// How a child segment of a merge reaches its contour's head: through composite segment `composite` of the merged
/// region, its last pixel `offset` steps before the composite's last; or, on a contour that closed in this merge
/// (composite = kNone), directly by `cycle`.
struct Link {
    std::int64_t composite = kNone;
    std::int64_t offset = 0;
    Resolution cycle{};
};

/// One merge of the forward phase (digest §3.4): the children's boundary lists, the composite segments of their
/// union, and each child's link to its composite. Kept for the backward phase.
struct Level {
    std::vector<Segment> children;
    std::vector<Link> links;
    std::vector<Segment> composites;
};

/// The grid of blocks block_of lays out: rows × cols blocks, block i·cols + j held by rank i·cols + j.
struct BlockGrid {
    int rows = 1;
    int cols = 1;
};

/// A rectangle of blocks: block rows [r0, r1), block columns [c0, c1).
struct BlockRange {
    int r0 = 0;
    int r1 = 0;
    int c0 = 0;
    int c1 = 0;
    [[nodiscard]] int count() const noexcept { return (r1 - r0) * (c1 - c0); }
};

/// A node of a pattern's merge tree: a region of blocks and how its children's lists reach its processors. A leaf is
/// one block; a `gather` node's children are leaves whose lists one allgatherv spreads; any other node is a division
/// (weighted_par) into its children, whose results its exchange spreads. In both, the node's processors are its
/// leaves' holders in depth-first order, so that every child is a run of consecutive ranks.
struct PlanNode {
    BlockRange range;
    bool gather = false;
    std::vector<PlanNode> children;
};

/// What the forward phase needs besides the group: the image and grid, to turn block ranges into pixel regions.
struct ImageLayout {
    int P;
    BlockGrid grid;
    std::int64_t width;
    std::int64_t height;
    /// Nodes per pixel: a node's global index is pixel·per_pixel + slot (1 for successor maps, 8 for border states).
    std::int64_t per_pixel = 1;

    [[nodiscard]] PixelBlock pixels(const BlockRange& range) const {
        const PixelBlock a = block_of(range.r0 * grid.cols + range.c0, P, width, height);
        const PixelBlock z = block_of((range.r1 - 1) * grid.cols + range.c1 - 1, P, width, height);
        return {a.row0, a.col0, z.row0 + z.rows - a.row0, z.col0 + z.cols - a.col0};
    }
};

/// The largest q with q² ≤ p.
[[nodiscard]] int integer_sqrt(int p);
/// The part [i·n/k, (i+1)·n/k) of n items cut into k: (begin, length).
[[nodiscard]] std::pair<std::int64_t, std::int64_t> part(std::int64_t i, std::int64_t k, std::int64_t n);

/// Merges the boundary lists `kids` of disjoint regions: chains of segments linked out → first become one composite
/// segment each; chains that close are cycles, resolved here.
[[nodiscard]] Level merge(std::vector<Segment> kids);
/// A region's boundary list: the segments that leave it, or whose first pixel is on its border (only those can be
/// entered from outside). The rest end at a head inside and are resolved as (last, 0). Node index i lies on pixel
/// i / per_pixel.
[[nodiscard]] std::vector<Segment> boundary_list(std::span<const Segment> segments,
                                                 const PixelBlock& region,
                                                 std::int64_t width,
                                                 std::int64_t per_pixel = 1);
/// The backward phase: from the last (widest) merge down to the first, every child's resolution from its
/// composite's; a composite that no wider merge lists ends at its own last pixel. Returns the resolutions of the
/// first merge's children, by first pixel.
[[nodiscard]] std::unordered_map<std::int64_t, Resolution> resolve_backward(const std::vector<Level>& levels);
/// Step 2 by `pattern` (not automatic) for this processor's block list `boundary`: the forward merges over the
/// pattern's tree, then the backward phase; the resolution of each of its segments, by first. Collective over `group`.
[[nodiscard]] std::unordered_map<std::int64_t, Resolution> merge_pattern(Group& group,
                                                                         ContourPattern pattern,
                                                                         const ImageLayout& layout,
                                                                         const std::vector<Segment>& boundary);

/// Throws llc::Error on every rank when `pattern` is not a ContourPattern or differs across ranks, or with `error`
/// (this rank's own verdict on other arguments) when not empty.
void check_pattern(Group& group, const char* function, ContourPattern pattern, std::string error);
/// The CCM expression of ranking a width × height graph of `density` nodes per pixel with `pattern` (not automatic) on
/// P processors: cost::contour_rank of a successor map or of a BorderDensity.
using PatternPrice = cost::Expr (*)(
    int P, std::int64_t width, std::int64_t height, double density, ContourPattern pattern, const cost::Profile&);

/// The pattern whose `price` the CCM under `profile` predicts lowest; logp-lev-quad (the paper's best overall, §5.3)
/// when profile is nullptr.
[[nodiscard]] ContourPattern cheapest_pattern(
    int P, std::int64_t width, std::int64_t height, double density, const cost::Profile* profile, PatternPrice price);

/// `pattern`, or for automatic the cheapest_pattern by `price` at the graph's density (nodes per pixel, `local_nodes`
/// summed over the group by one allreduce).
[[nodiscard]] ContourPattern resolve_pattern(Group& group,
                                             ContourPattern pattern,
                                             std::int64_t local_nodes,
                                             std::int64_t width,
                                             std::int64_t height,
                                             const cost::Profile* profile,
                                             PatternPrice price);

/// The grid of block_of: q × q for P = q², else P × 1 (row strips).
[[nodiscard]] BlockGrid grid_of(int P);
/// The merge tree of `pattern` (not automatic) over `grid`.
[[nodiscard]] PlanNode plan_of(ContourPattern pattern, const BlockGrid& grid);
/// The blocks (i·cols + j) of the leaves of `node`, depth first.
void leaves_of(const PlanNode& node, int cols, std::vector<int>& out);
/// The bit-reversal permutation of 0 … n−1 (see the definition).
[[nodiscard]] std::vector<int> bit_reversal(int n);
/// logp-lev-bal's placement: the rank that holds block b's list during the merge, P_{i,j} → P_{σ(i),σ(j)}.
[[nodiscard]] std::vector<int> balanced_holders(const BlockGrid& grid);

}  // namespace llc::detail::contour_ranking
