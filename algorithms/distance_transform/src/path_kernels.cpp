#include "path_kernels.hpp"

#include <numbers>

namespace llc::detail::sweep {

bool path_segment(std::span<Cell> row, const Cell* above, std::int64_t x0, std::int64_t x1, bool blue) {
    const auto width = static_cast<std::int64_t>(row.size());
    const std::int64_t step = blue ? -1 : 1;  // physical direction of the pass along the row
    const std::int64_t first = blue ? width - 1 - x0 : x0;
    constexpr double root2 = std::numbers::sqrt2;
    bool changed = false;
    // The pass's previous pixel (W of a red sweep, E of a blue one), carried in registers: the last iteration's
    // result, not reloaded from the store just made (a load behind a store to the same place waits for it). Outside
    // the segment it is the row's own (another segment's, already final), or none at the row's end.
    const std::int64_t before_first = first - step;
    const bool before_inside = before_first >= 0 && before_first < width;
    bool has_before = before_inside;
    double before_f = before_inside ? row[static_cast<std::size_t>(before_first)].f : 0.0;
    double before_tc = before_inside ? row[static_cast<std::size_t>(before_first)].tc : 0.0;
    for (std::int64_t i = 0; i < x1 - x0; ++i) {
        const std::int64_t x = first + i * step;
        Cell& p = row[static_cast<std::size_t>(x)];
        double f = p.f;
        const double half = 0.5 * p.tc;
        const auto relax = [&](const Cell& q, bool diagonal) {
            const double c = half + 0.5 * q.tc;
            const double candidate = q.f + (diagonal ? root2 * c : c);
            f = candidate < f ? candidate : f;
        };
        if (above != nullptr) {
            if (x > 0 && x + 1 < width) {
                // Inside the row: NW, N, NE without a bounds test each. The same candidates in the same order as
                // the edge pixels' loop, so the same f to the bit; the loop's six branches a pixel made the sweep's
                // speed depend on where the linker put it (red segment medians 26.7-28.5 or 37.2-39.5 us at n = 1024,
                // P = 2, from one build to the next, unchanged source).
                relax(above[x - 1], true);
                relax(above[x], false);
                relax(above[x + 1], true);
            } else {
                for (const std::int64_t dx : {-1, 0, 1}) {
                    const std::int64_t u = x + dx;
                    if (u >= 0 && u < width) {
                        relax(above[u], dx != 0);
                    }
                }
            }
        }
        if (has_before) {
            const double candidate = before_f + (half + 0.5 * before_tc);
            f = candidate < f ? candidate : f;
        }
        changed |= f < p.f;
        p.f = f;  // f ≤ p.f: it started there and only fell
        before_f = f;
        before_tc = p.tc;
        has_before = true;
    }
    return changed;
}

}  // namespace llc::detail::sweep
