#include "path_kernels.hpp"

#include <numbers>

namespace llc::detail::sweep {

bool path_segment(std::span<Cell> row, const Cell* above, std::int64_t x0, std::int64_t x1, bool blue) {
    const auto width = static_cast<std::int64_t>(row.size());
    const std::int64_t step = blue ? -1 : 1;  // physical direction of the pass along the row
    const std::int64_t first = blue ? width - 1 - x0 : x0;
    constexpr double root2 = std::numbers::sqrt2;
    bool changed = false;
    for (std::int64_t i = 0; i < x1 - x0; ++i) {
        const std::int64_t x = first + i * step;
        Cell& p = row[static_cast<std::size_t>(x)];
        double f = p.f;
        const double half = 0.5 * p.tc;
        if (above != nullptr) {
            for (const std::int64_t dx : {-1, 0, 1}) {
                const std::int64_t u = x + dx;
                if (u >= 0 && u < width) {
                    const Cell& q = above[u];
                    const double c = half + 0.5 * q.tc;
                    const double candidate = q.f + (dx == 0 ? c : root2 * c);
                    f = candidate < f ? candidate : f;
                }
            }
        }
        const std::int64_t before = x - step;  // W of the pass (E of the blue sweep)
        if (before >= 0 && before < width) {
            const Cell& q = row[static_cast<std::size_t>(before)];
            const double candidate = q.f + (half + 0.5 * q.tc);
            f = candidate < f ? candidate : f;
        }
        if (f < p.f) {
            p.f = f;
            changed = true;
        }
    }
    return changed;
}

}  // namespace llc::detail::sweep
