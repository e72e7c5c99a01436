// P-3PC (Seinstra & Koelma): Table 1 of the paper (DAS, µs) as the profile; the estimators of Fig. 6 reproduce the
// values re-derived in shared/research/p3pc-point-to-point-model.md §10 (TC1, TC2, TC5–TC10). Sizes in the paper are
// 4-byte floats (K = 1024); the profile is in bytes, so every size is multiplied by 4. Times stay in µs (the model is
// linear in the time unit).

#include <array>
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>

namespace {

using namespace llc::cost;

constexpr double floats = 4.0;  // bytes per float
constexpr std::array<double, 5> m{0, 1024, 51200, 102400, 512000};

Profile table1() {
    const std::array<std::array<double, 5>, 12> rows{{
        {5.98, 61.72, 4355.45, 10246.77, 58596.98},      // send cc
        {8.04, 60.74, 4363.35, 9853.95, 57141.29},       // send cn
        {7.93, 248.88, 5722.00, 15142.74, 90478.81},     // send nc
        {8.29, 133.88, 5582.23, 14137.45, 87870.27},     // send nn
        {14.86, 58.08, 5754.93, 12037.78, 60062.70},     // recv cc
        {14.89, 127.30, 9527.59, 19467.08, 98016.47},    // recv cn
        {14.43, 46.56, 5517.28, 12364.45, 61446.05},     // recv nc
        {14.82, 125.05, 9340.63, 19685.86, 98275.11},    // recv nn
        {23.61, 131.39, 4506.32, 11007.89, 61277.46},    // full cc
        {25.54, 214.10, 8665.39, 19195.53, 97219.23},    // full cn
        {27.05, 206.94, 6696.30, 18015.91, 95546.60},    // full nc
        {24.47, 287.89, 11746.29, 25652.54, 132399.20},  // full nn
    }};
    Profile p;
    const Path paths[] = {Path::send, Path::recv, Path::full};
    const Layout layouts[] = {Layout::cc, Layout::cn, Layout::nc, Layout::nn};
    for (int r = 0; r < 12; ++r) {
        std::vector<Sample> points;
        for (std::size_t i = 0; i < m.size(); ++i) {
            points.push_back({m[i] * floats, rows[static_cast<std::size_t>(r)][i]});
        }
        p.set_point_to_point(paths[r / 4], layouts[r % 4], Piecewise::through(points));
    }
    return p;
}

TEST(P3PCTest, tc1_interpolation_and_extrapolation) {
    const P3PC model(table1());
    EXPECT_NEAR(model.time(Path::send, Layout::cc, 16384 * floats), 1376.13, 0.01);
    EXPECT_NEAR(model.time(Path::full, Layout::cc, 16384 * floats), 1470.65, 0.01);
    EXPECT_NEAR(model.time(Path::send, Layout::nc, 16384 * floats), 1924.32, 0.01);
    EXPECT_NEAR(model.time(Path::recv, Layout::cn, 16384 * floats), 3004.94, 0.01);
    EXPECT_NEAR(model.time(Path::full, Layout::nn, 512 * floats), 156.18, 0.01);
    EXPECT_NEAR(model.time(Path::full, Layout::cc, 544 * floats), 80.87, 0.01);
    EXPECT_NEAR(model.time(Path::full, Layout::nn, 102400 * floats), 25652.54, 1e-9);
    EXPECT_NEAR(model.time(Path::send, Layout::cc, 1048576 * floats), 121935.76, 0.01);
    EXPECT_NEAR(model.time(Path::send, Layout::cc, 2097152 * floats), 245712.29, 0.01);
    // As a Model, prices beyond the largest benchmarked size (500K floats) are flagged.
    EXPECT_FALSE(model.collective("bcast", 4, 1024 * floats).extrapolated);
    EXPECT_TRUE(model.collective("bcast", 4, 1048576 * floats).extrapolated);
}

TEST(P3PCTest, tc2_loggp_star_view) {
    const P3PC star(table1(), P3PCOptions{Layout::cc, true});
    EXPECT_EQ(star.name(), "p3pc-loggp*");
    EXPECT_NEAR(star.time(Path::send, Layout::nn, 16384 * floats), 1453.02, 0.01);
    EXPECT_NEAR(star.time(Path::recv, Layout::cn, 16384 * floats), 1453.02, 0.01);
    for (const Layout l : {Layout::cc, Layout::cn, Layout::nc, Layout::nn}) {
        EXPECT_NEAR(star.time(Path::full, l, 16384 * floats), 1470.65, 0.01);
    }
}

struct Grid {
    int X;
    int Y;
};
constexpr Grid grids[] = {{1, 16}, {2, 8}, {4, 4}, {8, 2}, {16, 1}};

TEST(P3PCTest, tc5_tc6_scatter_512) {
    const P3PC model(table1());
    const P3PC star(table1(), P3PCOptions{Layout::cc, true});
    const double block = 512.0 * 512.0 / 16 * floats;
    const double total = 512.0 * 512.0 * floats;
    const double oft[] = {20736.43, 29134.03, 29134.03, 29134.03, 29134.03};
    const double sbt[] = {25223.38, 25946.20, 27359.45, 30898.48, 39814.78};
    for (int g = 0; g < 5; ++g) {
        EXPECT_NEAR(model.oft_scatter(16, grids[g].X, block), oft[g], 0.01) << "grid " << g;
        EXPECT_NEAR(model.sbt_scatter(16, grids[g].X, total), sbt[g], 0.01) << "grid " << g;
        EXPECT_NEAR(star.oft_scatter(16, grids[g].X, block), 21812.99, 0.01) << "grid " << g;
        EXPECT_NEAR(star.sbt_scatter(16, grids[g].X, total), 25223.38, 0.01) << "grid " << g;
    }
}

TEST(P3PCTest, tc7_gathers_512) {
    const P3PC model(table1());
    const double block = 512.0 * 512.0 / 16 * floats;
    const double total = 512.0 * 512.0 * floats;
    const double oft[] = {27030.21, 45074.10, 45074.10, 45074.10, 45074.10};
    const double sbt[] = {28377.88, 29580.80, 31993.01, 36789.53, 46355.55};
    for (int g = 0; g < 5; ++g) {
        EXPECT_NEAR(model.oft_gather(16, grids[g].X, block), oft[g], 0.01) << "grid " << g;
        EXPECT_NEAR(model.sbt_gather(16, grids[g].X, total), sbt[g], 0.01) << "grid " << g;
    }
}

TEST(P3PCTest, tc8_tree_choice_for_256) {
    const P3PC model(table1());
    const P3PC star(table1(), P3PCOptions{Layout::cc, true});
    const double block = 256.0 * 256.0 / 16 * floats;
    const double total = 256.0 * 256.0 * floats;
    const double oft[] = {4943.7, 8779.8, 8779.8, 8779.8, 8779.8};
    const double sbt[] = {5525.5, 5730.5, 6108.1, 6830.9, 8244.2};
    for (int g = 0; g < 5; ++g) {
        const double o = model.oft_scatter(16, grids[g].X, block);
        const double s = model.sbt_scatter(16, grids[g].X, total);
        EXPECT_NEAR(o, oft[g], 0.1) << "grid " << g;
        EXPECT_NEAR(s, sbt[g], 0.1) << "grid " << g;
        EXPECT_EQ(o < s, g == 0) << "P-3PC picks OFT for 1x16 only, grid " << g;
        EXPECT_NEAR(star.oft_scatter(16, grids[g].X, block), 5741.8, 0.1);
        EXPECT_NEAR(star.sbt_scatter(16, grids[g].X, total), 5525.5, 0.1);
    }
}

TEST(P3PCTest, tc9_border_exchange_prefers_2x8_where_loggp_star_prefers_4x4) {
    const P3PC model(table1());
    const P3PC star(table1(), P3PCOptions{Layout::cc, true});
    const auto exchange = [](const P3PC& mdl, Grid g, double bw) {
        const double imw = 512.0 / g.X;
        const double imh = 512.0 / g.Y;
        return mdl.border_exchange(bw * imh * floats, (imw + 2 * bw) * bw * floats, g.X > 1, g.Y > 1);
    };
    const double p3pc5[] = {1906.5, 1721.8, 1853.1, 2751.8, 4551.1};
    const double star5[] = {1906.5, 1354.6, 1142.5, 1354.6, 1780.6};
    const double p3pc1[] = {446.9, 449.0, 474.1, 683.6, 1043.5};
    const double star1[] = {446.9, 369.5, 316.7, 370.6, 441.3};
    int best_p3pc = 0;
    int best_star = 0;
    for (int g = 0; g < 5; ++g) {
        EXPECT_NEAR(exchange(model, grids[g], 19), p3pc5[g], 0.1) << "sigma 5, grid " << g;
        EXPECT_NEAR(exchange(star, grids[g], 19), star5[g], 0.1) << "sigma 5, grid " << g;
        EXPECT_NEAR(exchange(model, grids[g], 4), p3pc1[g], 0.1) << "sigma 1, grid " << g;
        EXPECT_NEAR(exchange(star, grids[g], 4), star1[g], 0.1) << "sigma 1, grid " << g;
        if (exchange(model, grids[g], 19) < exchange(model, grids[best_p3pc], 19)) {
            best_p3pc = g;
        }
        if (exchange(star, grids[g], 19) < exchange(star, grids[best_star], 19)) {
            best_star = g;
        }
    }
    EXPECT_EQ(best_p3pc, 1);  // 2x8
    EXPECT_EQ(best_star, 2);  // 4x4
    // The printed four-term formula for 1x16, sigma 1.
    EXPECT_NEAR(model.border_exchange(4 * 32 * floats, (512 + 8) * 4 * floats), 561.7, 0.1);
}

TEST(P3PCTest, tc10_3pc_is_loggp_with_the_section_3_2_mapping) {
    // o = g = 5, L = 10, G = 0.01 per byte: t_cs = t_cr = g, t_cf = 2o + L, t_a = G.
    Profile p;
    for (const Layout l : {Layout::cc, Layout::cn, Layout::nc, Layout::nn}) {
        p.set_point_to_point(Path::send, l, Piecewise::linear(5, 0.01));
        p.set_point_to_point(Path::recv, l, Piecewise::linear(5, 0.01));
        p.set_point_to_point(Path::full, l, Piecewise::linear(20, 0.01));
    }
    const P3PC model(p);
    EXPECT_DOUBLE_EQ(model.time(Path::send, Layout::cc, 1000), 15.0);
    EXPECT_DOUBLE_EQ(model.time(Path::recv, Layout::cc, 1000), 15.0);
    EXPECT_DOUBLE_EQ(model.time(Path::full, Layout::cc, 1000), 30.0);
    // As a Model: swap of 1000 bytes each way is one full path.
    EXPECT_DOUBLE_EQ(model.collective("swap", 2, 2000).seconds, 30.0);
    EXPECT_DOUBLE_EQ(model.collective("shift", 5, 2000).seconds, 30.0);  // to the next processor: one full path
    // bcast on 4: two rounds, the critical path (full) dominates.
    EXPECT_DOUBLE_EQ(model.collective("bcast", 4, 1000).seconds, 60.0);
}

TEST(P3PCTest, incomplete_table_is_an_error) {
    Profile p;
    p.set_point_to_point(Path::send, Layout::cc, Piecewise::linear(1, 1));
    EXPECT_THROW(P3PC{p}, llc::Error);
}

// Seidel's broadcasts under P-3PC: a hop is a full path of the layout. ST on 2^d processors has d hops of the whole
// message (Table I: d·m·a + d·b), so it costs d full paths of m bytes.
TEST(P3PCTest, seidel_binomial_is_d_full_paths) {
    const P3PC model(table1());
    for (const double bytes : {0.0, 100.0, 65536.0}) {
        const double expected = 3 * model.time(Path::full, Layout::cc, bytes);
        EXPECT_NEAR(model.collective("bcast.st", 8, bytes).seconds, expected, 1e-12 * expected) << bytes;
    }
    EXPECT_EQ(model.collective("bcast.bst", 1, 100.0).seconds, 0.0);
}

}  // namespace
