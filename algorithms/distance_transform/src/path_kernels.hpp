#pragma once
// The kernel of a red or blue sweep of path planning (thesis §2.2.2): one pass row's segment.

#include <cstdint>
#include <span>

namespace llc::detail::sweep {

/// A pixel of the map during the sweeps: its path cost so far and its traversal cost.
struct Cell {
    double f;
    double tc;
};

/// Segment [x0, x1) (pass columns) of one row: f(p) = min(f(p), f(q) + c(q, p)) for q = W, NW, N, NE of the pass
/// (the mirror for the blue sweep), c(q, p) = (tc(q) + tc(p))/2, times √2 on a diagonal; `above` is the row before in
/// the pass (null outside the map). Returns whether some f went down.
bool path_segment(std::span<Cell> row, const Cell* above, std::int64_t x0, std::int64_t x1, bool blue);

}  // namespace llc::detail::sweep
