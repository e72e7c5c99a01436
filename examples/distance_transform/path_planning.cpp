// Path planning (algorithms/distance_transform) in a short program: a terrain map made on rank 0 — open ground, rough
// ground that costs five times as much to cross, and impassable rocks — scattered by rows, the least cost of a path
// from the top-left corner to every pixel, the cost of reaching the opposite corner, and a check of the result by the
// shortest-path optimality conditions. (`llc-run path-planning --profile FILE` also prints a run's predicted time.)
//
//   mpirun -np 3 build/bin/llc-example-path-planning 512
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>
#include <vector>

#include <llc/algorithms.hpp>
#include <llc/llc.hpp>

namespace {

/// The terrain: blobs of rock (+∞) on open ground (cost 1) with a band of rough ground (cost 5) across the middle;
/// the corners are kept clear so that a path can start and end there.
llc::Image<double> terrain(std::int64_t n) {
    const std::vector<std::uint8_t> rocks = llc::random_blob_image(n, n, /*seed=*/7);
    llc::Image<double> map{n, n, std::vector<double>(static_cast<std::size_t>(n * n))};
    for (std::int64_t y = 0; y < n; ++y) {
        for (std::int64_t x = 0; x < n; ++x) {
            const auto i = static_cast<std::size_t>(y * n + x);
            const bool corner = (y < n / 8 && x < n / 8) || (y >= n - n / 8 && x >= n - n / 8);
            const bool rough = std::abs(y - n / 2) < n / 10;
            map.pixels[i] = rocks[i] != 0 && !corner ? std::numeric_limits<double>::infinity() : rough ? 5.0 : 1.0;
        }
    }
    return map;
}

/// Whether `cost` is the least path cost from `start` over `map` by the shortest-path optimality conditions: zero at
/// the start, no move between neighbours that would lower a pixel's cost, and every other reached pixel reached by some
/// move from a neighbour (with positive move costs these make each cost the least one; obstacles stay unreached).
bool least_costs(const llc::Image<double>& map, const llc::Image<double>& cost, llc::Pixel start) {
    const std::int64_t w = map.width;
    const std::int64_t h = map.height;
    const auto tolerance = [](double a) { return 1e-9 * std::max(1.0, a); };
    for (std::int64_t y = 0; y < h; ++y) {
        for (std::int64_t x = 0; x < w; ++x) {
            const double c = cost.view().at(y, x);
            const bool is_start = y == start.row && x == start.column;
            bool tight = is_start ? c == 0.0 : !std::isfinite(c);
            for (std::int64_t dy = -1; dy <= 1; ++dy) {
                for (std::int64_t dx = -1; dx <= 1; ++dx) {
                    const std::int64_t v = y + dy;
                    const std::int64_t u = x + dx;
                    if ((dy == 0 && dx == 0) || v < 0 || v >= h || u < 0 || u >= w) {
                        continue;
                    }
                    const double step =
                        (map.view().at(y, x) + map.view().at(v, u)) / 2 * (dy != 0 && dx != 0 ? std::sqrt(2.0) : 1.0);
                    const double via = cost.view().at(v, u) + step;
                    if (via < c - tolerance(c)) {
                        return false;  // a cheaper way in
                    }
                    tight = tight || (std::isfinite(c) && std::abs(via - c) <= tolerance(c));
                }
            }
            if (!tight) {
                return false;  // a cost no path gives
            }
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = env.world();
    // n: the image's side, a whole number ≥ 1 (strtoll and the end pointer reject "abc" and "12x", atoll would not).
    char* end = nullptr;
    const std::int64_t n = argc > 1 ? std::strtoll(argv[1], &end, 10) : 512;
    if (argc > 1 && (end == argv[1] || *end != '\0' || n < 1)) {
        if (world.rank() == 0) {
            std::fprintf(
                stderr, "usage: llc-example-path-planning [n]: n = '%s' must be a whole number >= 1\n", argv[1]);
        }
        return 2;
    }

    // The map exists on rank 0 only (as if read from a file there); scatter_rows gives every processor its blocks of
    // r rows (block b on processor b mod P), the layout of the pipelined sweeps.
    llc::Image<double> map;
    if (world.rank() == 0) {
        map = terrain(n);
    }
    const llc::SweepLayout layout = llc::path_planning_layout(world.size(), n, n);
    const llc::DistributedImage<double> mine = llc::scatter_rows(world, map, layout.r, /*root=*/0);

    const llc::Pixel start{0, 0};
    std::vector<double> cost(mine.rows.size());
    const llc::PathPlanningReport report =
        llc::path_planning(world, n, n, layout.r, mine.rows, {&start, 1}, cost, layout.k);

    // The path costs back on rank 0, in map order.
    const llc::Image<double> costs =
        llc::gather_rows(world, llc::DistributedImage<double>{mine.layout, mine.rank, std::move(cost)}, /*root=*/0);
    bool right = true;
    if (world.rank() == 0) {
        right = least_costs(map, costs, start);
        const double goal = costs.view().at(n - 1, n - 1);
        std::size_t reached = 0;
        for (const double c : costs.pixels) {
            reached += std::isfinite(c) ? 1 : 0;
        }
        std::printf("%lld × %lld terrain on %d processors (blocks of %lld rows, segments of %lld columns)\n",
                    static_cast<long long>(n),
                    static_cast<long long>(n),
                    world.size(),
                    static_cast<long long>(layout.r),
                    static_cast<long long>(layout.k));
        std::printf("%d sweeps; %zu of %lld pixels reachable from (0, 0)\n",
                    report.sweeps,
                    reached,
                    static_cast<long long>(n * n));
        std::printf("least cost from (0, 0) to (%lld, %lld): %.3f (a straight diagonal over open ground: %.3f)\n",
                    static_cast<long long>(n - 1),
                    static_cast<long long>(n - 1),
                    goal,
                    std::sqrt(2.0) * static_cast<double>(n - 1));
        if (!right) {
            std::fprintf(stderr, "the path costs break the shortest-path optimality conditions\n");
        }
    }
    return world.allreduce(right ? 0 : 1, llc::Op::max) == 0 ? 0 : 1;
}
