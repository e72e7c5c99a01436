// Path planning by red/blue sweeps against Dijkstra on the same graph (8-neighbours, (tc(p) + tc(q))/2, × √2 on
// diagonals), the thesis' worked examples (miguet-thesis.md §10 F), at every P with several block and segment sizes;
// obstacles; the argument errors on every rank; the cost function's structure.
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using llc::Pixel;
constexpr double inf = std::numeric_limits<double>::infinity();

llc::Group& world() {
    return llc::Group::world();
}

std::vector<double> dijkstra(const std::vector<double>& tc, int width, int height, const std::vector<Pixel>& sources) {
    std::vector<double> f(tc.size(), inf);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (const Pixel& s : sources) {
        const auto i = static_cast<int>(s.row * width + s.column);
        f[static_cast<std::size_t>(i)] = 0.0;
        queue.push({0.0, i});
    }
    while (!queue.empty()) {
        const auto [d, i] = queue.top();
        queue.pop();
        if (d > f[static_cast<std::size_t>(i)]) {
            continue;
        }
        for (int dy = -1; dy <= 1; ++dy) {
            for (int dx = -1; dx <= 1; ++dx) {
                const int y = i / width + dy;
                const int x = i % width + dx;
                if ((dy == 0 && dx == 0) || y < 0 || y >= height || x < 0 || x >= width) {
                    continue;
                }
                const int j = y * width + x;
                const double c = (tc[static_cast<std::size_t>(i)] + tc[static_cast<std::size_t>(j)]) / 2.0;
                const double candidate = d + (dx != 0 && dy != 0 ? std::sqrt(2.0) * c : c);
                if (candidate < f[static_cast<std::size_t>(j)]) {
                    f[static_cast<std::size_t>(j)] = candidate;
                    queue.push({candidate, j});
                }
            }
        }
    }
    return f;
}

/// Runs path planning on the rows of block layout r this rank holds and checks them against `expected`.
int check(const std::vector<double>& tc,
          int width,
          int height,
          const std::vector<Pixel>& sources,
          const std::vector<double>& expected,
          int r,
          int k,
          double tolerance = 1e-9) {
    std::vector<double> local;
    std::vector<int> rows;
    for (int j = 0; j < height; ++j) {
        if ((j / r) % world().size() == world().rank()) {
            rows.push_back(j);
            local.insert(local.end(), tc.begin() + j * width, tc.begin() + (j + 1) * width);
        }
    }
    std::vector<double> out(local.size(), -1.0);
    const llc::PathPlanningReport report = llc::path_planning(world(), width, height, r, local, sources, out, k);
    // The sequential count (what the cost prices a map by when no run reported on it) is the run's at every P, r, k.
    EXPECT_EQ(llc::path_planning_sweeps(width, height, tc, sources), report.sweeps)
        << width << " × " << height << ", r = " << r << ", k = " << k << ", P = " << world().size();
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (int x = 0; x < width; ++x) {
            const double want = expected[static_cast<std::size_t>(rows[i] * width + x)];
            const double got = out[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)];
            if (std::isinf(want)) {
                EXPECT_TRUE(std::isinf(got)) << "pixel (" << rows[i] << ", " << x << "): " << got;
            } else {
                EXPECT_NEAR(got, want, tolerance * std::max(1.0, want))
                    << "pixel (" << rows[i] << ", " << x << ") of " << width << " × " << height << ", r = " << r
                    << ", k = " << k << ", P = " << world().size();
            }
        }
    }
    return report.sweeps;
}

TEST(PathPlanningTest, ThesisExamples) {
    // 3 × 3, tc ≡ 1, source at the centre: 1 to the sides, √2 to the corners.
    const std::vector<double> ones(9, 1.0);
    const double s = std::sqrt(2.0);
    check(ones, 3, 3, {{1, 1}}, {s, 1, s, 1, 0, 1, s, 1, s}, 1, 1, 1e-12);
    // The 5 × 5 map of §10 F from (4, 0) and from (2, 2).
    const std::vector<double> tc = {1, 1, 1, 1, 1, 1, 9, 9, 9, 1, 1, 1, 1, 9, 1, 9, 9, 1, 9, 1, 1, 1, 1, 9, 1};
    const std::vector<double> from_corner = {6.2426,  6.6569,  7.6569, 8.6569, 9.6569, 5.2426,  8.8284, 8.4142, 10.4853,
                                             10.0711, 4.8284,  3.8284, 3.4142, 8.4142, 11.0711, 5.0000, 6.0000, 2.4142,
                                             7.4142,  12.0711, 0.0000, 1.0000, 2.0000, 7.0000,  12.0000};
    for (const int r : {1, 2, 5}) {
        check(tc, 5, 5, {{4, 0}}, from_corner, r, 2, 1e-4);
    }
    std::vector<double> from_centre = dijkstra(tc, 5, 5, {{2, 2}});
    EXPECT_NEAR(from_centre[0], 3.4142, 1e-4);
    EXPECT_NEAR(from_centre[4], 6.8284, 1e-4);
    EXPECT_NEAR(from_centre[24], 10.2426, 1e-4);
    check(tc, 5, 5, {{2, 2}}, from_centre, 2, 3);
}

TEST(PathPlanningTest, SourcesThatTheFirstRedSweepCannotSpread) {
    // A source at the end of one row, or in the bottom-right corner: the first red sweep changes nothing, and only the
    // blue sweep after it reaches the rest. (Stopping after that red sweep left everything else at +∞.)
    const double s = std::sqrt(2.0);
    for (const int r : {1, 2}) {
        check(std::vector<double>(6, 1.0), 6, 1, {{0, 5}}, {5, 4, 3, 2, 1, 0}, r, 1, 1e-12);
        check(std::vector<double>(6, 1.0), 1, 6, {{5, 0}}, {5, 4, 3, 2, 1, 0}, r, 1, 1e-12);
        check(std::vector<double>(9, 1.0), 3, 3, {{2, 2}}, {2 * s, 1 + s, 2, 1 + s, s, 1, 2, 1, 0}, r, 2, 1e-12);
    }
}

TEST(PathPlanningTest, RandomMapsEqualDijkstraAtEveryLayout) {
    std::mt19937 rng(99);  // the same maps on every rank
    for (const auto& [width, height] : {std::pair{13, 11}, std::pair{1, 9}, std::pair{9, 1}, std::pair{20, 7}}) {
        std::vector<double> tc(static_cast<std::size_t>(width * height));
        for (auto& c : tc) {
            c = rng() % 10 == 0 ? inf : static_cast<double>(rng() % 9);  // obstacles and free (0) cells
        }
        std::vector<Pixel> sources{{0, 0}, {height - 1, width / 2}};
        tc[0] = 1.0;
        const std::vector<double> expected = dijkstra(tc, width, height, sources);
        // Each sweep steps the whole ring per segment: oversubscribed rings (P > 2 on two cores) take fewer layouts.
        const bool crowded = world().size() > 2;
        for (const int r : {1, 2, height}) {
            for (const int k : {1, 3, width + height}) {
                if (crowded && (k == 1 || r == 1)) {
                    continue;
                }
                check(tc, width, height, sources, expected, r, k);
            }
        }
        check(tc, width, height, sources, expected, 3, 0);  // k from path_planning_layout
    }
}

TEST(PathPlanningTest, ASpiralNeedsManySweeps) {
    // A corridor that turns back and forth: the path changes colour many times, so many sweeps run.
    const int width = 9;
    const int height = 9;
    std::vector<double> tc(81, 1.0);
    for (int y = 1; y < height; y += 2) {
        for (int x = 0; x < width; ++x) {
            const bool gap = (y / 2) % 2 == 0 ? x == width - 1 : x == 0;
            tc[static_cast<std::size_t>(y * width + x)] = gap ? 1.0 : inf;
        }
    }
    const std::vector<double> expected = dijkstra(tc, width, height, {{0, 0}});
    const int sweeps = check(tc, width, height, {{0, 0}}, expected, 2, 4);
    EXPECT_GE(sweeps, 4);
}

TEST(PathPlanningTest, BadArgumentsFailOnEveryRank) {
    const int P = world().size();
    const auto rows = static_cast<std::size_t>(llc::block_rows_held(P, world().rank(), 4, 1));
    std::vector<double> costs(rows * 3, 1.0);
    std::vector<double> out(costs.size());
    const std::vector<Pixel> source{{0, 0}};
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::path_planning(world(), 3, 4, 1, costs, std::vector<Pixel>{{4, 0}}, out);
        },
        {"llc::path_planning", "sources[0]", "(4, 0)"});
    llc::test::expect_error_everywhere([&] { (void)llc::path_planning(world(), 3, 4, 1, costs, {}, out); },
                                       {"llc::path_planning", "sources"});
    // A NaN cost on rank 0's first pixel: rank 0 names it, every rank fails.
    std::vector<double> bad = costs;
    if (world().rank() == 0) {
        bad[1] = std::nan("");
    }
    llc::test::expect_error_everywhere([&] { (void)llc::path_planning(world(), 3, 4, 1, bad, source, out); },
                                       {"llc::path_planning"});
    EXPECT_THROW((void)llc::path_planning_sweeps(3, 4, std::vector<double>(11, 1.0), source), llc::Error);
    EXPECT_THROW((void)llc::path_planning_sweeps(3, 1, std::vector<double>{1, -2, 1}, source), llc::Error);
    EXPECT_THROW((void)llc::path_planning_sweeps(3, 1, std::vector<double>(3, 1.0), {}), llc::Error);
    if (world().rank() == 0) {
        try {
            std::vector<double> three(3);
            (void)llc::path_planning(world().self(), 3, 1, 1, std::vector<double>{1, -2, 1}, source, three);
            ADD_FAILURE() << "a negative cost was accepted";
        } catch (const llc::Error& e) {
            EXPECT_NE(std::string(e.what()).find("(0, 1)"), std::string::npos) << e.what();
        }
    }
    if (P > 1) {
        const std::vector<Pixel> differs{{world().rank() == 0 ? 1 : 2, 0}};
        llc::test::expect_error_everywhere([&] { (void)llc::path_planning(world(), 3, 4, 1, costs, differs, out); },
                                           {"llc::path_planning"});
    }
}

TEST(PathPlanningTest, DefaultLayoutIsSegmentsOf256ColumnsInBlocksOfAQuarterOfThat) {
    const llc::SweepLayout big = llc::path_planning_layout(2, 4096, 4096);
    EXPECT_EQ(big.k, 256);
    EXPECT_EQ(big.r, 64);
    // Narrow maps: whole rows; short ones: at most ⌈height/P⌉ rows a block, at least one.
    const llc::SweepLayout narrow = llc::path_planning_layout(3, 100, 1000);
    EXPECT_EQ(narrow.k, 100);
    EXPECT_EQ(narrow.r, 25);
    const llc::SweepLayout flat = llc::path_planning_layout(4, 4096, 10);
    EXPECT_EQ(flat.r, 3);
    EXPECT_EQ(llc::path_planning_layout(1, 2, 1).r, 1);
    EXPECT_THROW((void)llc::path_planning_layout(0, 64, 64), llc::Error);
    EXPECT_THROW((void)llc::path_planning_layout(2, 0, 64), llc::Error);
    EXPECT_THROW((void)llc::path_planning_layout(2, 64, -1), llc::Error);
}

TEST(PathPlanningTest, CostIsSweepsOfPipelineSteps) {
    llc::cost::Profile profile;
    // Every table at the same constants: a pixel costs the same in the caches and from memory, red or blue.
    for (const char* table : {"dt.path_sweep", "dt.path_memory", "dt.path_sweep_blue", "dt.path_memory_blue"}) {
        profile.set_kernel(llc::cost::kernel_size_key(table, 3), {4e-9, "pixel"});
        profile.set_kernel(llc::cost::kernel_size_key(table, 11), {2e-9, "pixel"});
    }
    profile.set_kernel("dt.path_setup", {1e-9, "pixel"});
    profile.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(2), 16), {0.0, "excess"});
    profile.set_collective("shift", 2, llc::cost::Piecewise::constant(5e-6));
    profile.set_collective("allreduce", 1, llc::cost::Piecewise::constant(0.0));
    profile.set_collective("allreduce", 2, llc::cost::Piecewise::constant(3e-6));
    const auto model = llc::cost::make_model("ccm", profile);
    // One processor: the run's setup (1 ns a pixel), then each sweep the whole map, 2^11 wide and more → 2 ns a
    // pixel, plus its allreduce.
    const double one = llc::cost::predict(llc::cost::path_planning(1, 4096, 10, 10, 1, 3, profile), *model);
    EXPECT_NEAR(one, 1e-9 * 4096 * 10 + 3 * 2e-9 * 4096 * 10, 1e-12);
    const llc::cost::Expr two = llc::cost::path_planning(2, 64, 64, 8, 16, 4, profile);
    ASSERT_EQ(two.children().size(), 4U);
    EXPECT_EQ(two.children()[0].label(), "pp.red");
    EXPECT_EQ(two.children()[1].label(), "pp.blue");
    EXPECT_EQ(two.children()[0].children().back().op(), "allreduce");
    // The setup joins the first step of the first sweep: blocks of 8 rows on 2 processors hold 32 rows each, 32 × 64
    // pixels at 1 ns; the other red sweep's first step is without it.
    EXPECT_NEAR(two.children()[0].children().front().work() - two.children()[2].children().front().work(),
                1e-9 * 32 * 64,
                1e-15);
    llc::cost::Profile without;
    for (const auto& [key, constant] : profile.kernels()) {
        if (key != "dt.path_setup") {
            without.set_kernel(key, constant);
        }
    }
    try {
        (void)llc::cost::path_planning(1, 64, 64, 8, 16, 2, without);
        FAIL() << "a profile without dt.path_setup priced path planning";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'dt.path_setup'"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)llc::cost::path_planning(2, 64, 64, 8, 16, 0, profile), llc::Error);
    EXPECT_THROW((void)llc::cost::path_planning_sweep(2, 64, 64, 8, 16, false, llc::cost::Profile{}), llc::Error);
}

TEST(PathPlanningTest, BlueSweepsArePricedAtTheirOwnConstants) {
    llc::cost::Profile profile;
    profile.set_kernel(llc::cost::kernel_size_key("dt.path_sweep", 11), {2e-9, "pixel"});
    profile.set_kernel(llc::cost::kernel_size_key("dt.path_memory", 11), {2e-9, "pixel"});
    profile.set_kernel("dt.path_setup", {1e-9, "pixel"});
    profile.set_collective("allreduce", 1, llc::cost::Piecewise::constant(0.0));
    const auto model = llc::cost::make_model("ccm", profile);
    const auto three_sweeps = [&] {
        return llc::cost::predict(llc::cost::path_planning(1, 4096, 10, 10, 1, 3, profile), *model);
    };
    const double pixels = 4096.0 * 10;
    // A profile without blue constants (made before they were measured): an error naming the missing table, not blue
    // sweeps priced at the red ones.
    try {
        (void)three_sweeps();
        FAIL() << "a profile without dt.path_sweep_blue priced path planning";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'dt.path_sweep_blue.2^e'"), std::string::npos) << e.what();
    }
    profile.set_kernel(llc::cost::kernel_size_key("dt.path_sweep_blue", 11), {5e-9, "pixel"});
    try {
        (void)three_sweeps();
        FAIL() << "a profile without dt.path_memory_blue priced path planning";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'dt.path_memory_blue.2^e'"), std::string::npos) << e.what();
    }
    // With them: red, blue, red.
    profile.set_kernel(llc::cost::kernel_size_key("dt.path_memory_blue", 11), {5e-9, "pixel"});
    EXPECT_NEAR(three_sweeps(), 1e-9 * pixels + (2e-9 + 5e-9 + 2e-9) * pixels, 1e-12);
    const auto sweep = [&](bool blue) {
        return llc::cost::predict(llc::cost::path_planning_sweep(1, 4096, 10, 10, 1, blue, profile), *model);
    };
    EXPECT_NEAR(sweep(true) / sweep(false), 2.5, 1e-9);
}

}  // namespace
