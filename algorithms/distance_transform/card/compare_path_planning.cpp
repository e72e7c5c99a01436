// llc-compare path-planning: llc::path_planning at the world's P (llc::path_planning_layout's blocks and segments)
// against Dijkstra's algorithm on the same graph — the 8-neighbour grid, moves costing (tc(p) + tc(q))/2, × √2 on a
// diagonal — with a binary heap (std::priority_queue, stale entries skipped), the textbook way to get these costs on
// one processor, and against our own P = 1; both on rank 0 while the other ranks wait, timed interleaved. Two maps from
// a random blob image, the source the first free pixel from the middle on:
//   path-planning-obstacles  blobs are obstacles, the rest costs 1 (llc-validate's map: a quarter is unreachable, which
//                            Dijkstra never visits while each sweep passes over it)
//   path-planning-terrain    blobs cost 5 to cross, the rest 1 (every pixel reachable)
// Both take about as many sweeps (28–30 at 1024² and 2048²): paths bend around the blobs. Before timing, rank 0
// checks that our one-processor costs, and our distributed run's (gathered), equal Dijkstra's (relative 1e-9: the two
// add the same moves in other orders).
// Default n: 1024, 2048 (n × n pixels); repeat 5.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <numbers>
#include <optional>
#include <queue>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"
#include "inputs.hpp"

namespace llc::cards {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// The least path costs from `source` over the n × n map `tc`, by Dijkstra's algorithm with a binary heap.
std::vector<double> dijkstra(std::span<const double> tc, std::int64_t n, Pixel source) {
    std::vector<double> f(tc.size(), infinity);
    using Entry = std::pair<double, std::int64_t>;  // (cost, pixel)
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    const std::int64_t start = source.row * n + source.column;
    f[static_cast<std::size_t>(start)] = 0.0;
    heap.emplace(0.0, start);
    while (!heap.empty()) {
        const auto [cost, p] = heap.top();
        heap.pop();
        if (cost > f[static_cast<std::size_t>(p)]) {
            continue;  // a stale entry: p was settled cheaper
        }
        const std::int64_t y = p / n;
        const std::int64_t x = p % n;
        for (std::int64_t dy = -1; dy <= 1; ++dy) {
            for (std::int64_t dx = -1; dx <= 1; ++dx) {
                const std::int64_t v = y + dy;
                const std::int64_t u = x + dx;
                if ((dy == 0 && dx == 0) || v < 0 || v >= n || u < 0 || u >= n) {
                    continue;
                }
                const auto q = static_cast<std::size_t>(v * n + u);
                const double c = 0.5 * tc[static_cast<std::size_t>(p)] + 0.5 * tc[q];
                const double next = cost + (dy != 0 && dx != 0 ? std::numbers::sqrt2 * c : c);
                if (next < f[q]) {
                    f[q] = next;
                    heap.emplace(next, static_cast<std::int64_t>(q));
                }
            }
        }
    }
    return f;
}

/// Ours on `g`, in llc::path_planning_layout's blocks and segments.
struct Ours {
    Ours(Group& g, const std::vector<double>& map, std::int64_t side, Pixel from)
        : group(g), n(side), layout(path_planning_layout(g.size(), n, n)), source(from) {
        DistributedImage<double> part = distribute_rows(g, ImageView<const double>{n, n, map}, layout.r);
        rows = part.layout;
        costs = std::move(part.rows);
        out.resize(costs.size());
    }
    void operator()() { (void)path_planning(group, n, n, layout.r, costs, {&source, 1}, out, layout.k); }
    Group& group;
    std::int64_t n;
    SweepLayout layout;
    Pixel source;
    RowBlocks rows;  ///< which rows this processor holds
    std::vector<double> costs;
    std::vector<double> out;
    /// The whole output on rank 0 (one gatherv); empty elsewhere. Collective over the group.
    [[nodiscard]] std::vector<double> gathered() {
        return gather_rows(group, DistributedImage<double>{rows, group.rank(), out}, 0).pixels;
    }
};

void check_against_dijkstra(std::span<const double> ours,
                            std::span<const double> theirs,
                            std::int64_t n,
                            const std::string& map) {
    for (std::size_t i = 0; i < ours.size(); ++i) {
        const bool same = std::isinf(ours[i]) ? std::isinf(theirs[i])
                                              : std::abs(ours[i] - theirs[i]) <= 1e-9 * std::max(1.0, theirs[i]);
        if (!same) {
            throw std::runtime_error("llc-compare path-planning: our cost differs from Dijkstra's at pixel " +
                                     std::to_string(i) + " of " + map + ", n = " + std::to_string(n) + " (" +
                                     std::to_string(ours[i]) + " against " + std::to_string(theirs[i]) + ")");
        }
    }
}

/// Times ours, ours at P = 1 and Dijkstra on one map, adding their rows to `rows`.
void time_one_map(Group& world,
                  const std::string& name,
                  const std::vector<double>& map,
                  const std::vector<std::uint8_t>& blobs,
                  std::int64_t n,
                  int repeat,
                  std::vector<Row>& rows) {
    const Pixel source = dt::middle_free_pixel(blobs, n);
    Ours ours(world, map, n, source);
    std::optional<Ours> one;  // ours on rank 0 alone
    std::vector<double> peer;
    if (world.rank() == 0) {
        one.emplace(world.self(), map, n, source);
        (*one)();
        peer = dijkstra(map, n, source);
        check_against_dijkstra(one->out, peer, n, name);
    }
    ours();
    if (const std::vector<double> all = ours.gathered(); world.rank() == 0) {
        check_against_dijkstra(all, peer, n, name + " at P = " + std::to_string(world.size()));
    }
    const std::vector<std::function<void()>> bodies{[&] { ours(); },
                                                    [&] {
                                                        if (one) {
                                                            (*one)();
                                                        }
                                                    },
                                                    [&] {
                                                        if (world.rank() == 0) {
                                                            peer = dijkstra(map, n, source);
                                                        }
                                                    }};
    const std::vector<double> time = time_medians_interleaved(world, repeat, bodies);
    rows.push_back({name, world.size(), n, time[0], "dijkstra-binary-heap", time[2]});
    rows.push_back({name, world.size(), n, time[0], "ours-P1", time[1]});
}

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes =
        options.sizes.empty() ? std::vector<std::int64_t>{1024, 2048} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 5;
    const std::vector<std::pair<std::string, double>> kinds{{"path-planning-obstacles", infinity},
                                                            {"path-planning-terrain", 5.0}};  // a blob's cost
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const std::vector<std::uint8_t> blobs = random_blob_image(n, n, dt::blob_seed);
        for (const auto& [name, blob_cost] : kinds) {
            time_one_map(world, name, dt::blob_cost_map(blobs, blob_cost), blobs, n, repeat, rows);
        }
    }
    return rows;
}

}  // namespace

Comparison path_planning_comparison() {
    return {"path-planning",
            "path planning by red/blue sweeps vs Dijkstra (binary heap) on one processor and vs our P = 1",
            run};
}

}  // namespace llc::cards
