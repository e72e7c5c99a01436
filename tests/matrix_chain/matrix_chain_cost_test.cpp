// llc::cost::matrix_chain and the article's closed forms against the thesis' reference values (digest §2.4, §10 D).
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>

namespace {

namespace cost = llc::cost;

TEST(MatrixChainCost, ArticleTParAndROpt) {
    // τ_a = 15 µs, τ_c = 12 µs, n = 576, p = 16: the digest's table (asymptotic T_par).
    EXPECT_NEAR(cost::miguet_dp_time(576, 16, 1, 15e-6, 12e-6), 56.01, 0.01);
    EXPECT_NEAR(cost::miguet_dp_time(576, 16, 4, 15e-6, 12e-6), 42.02, 0.01);
    EXPECT_NEAR(cost::miguet_dp_time(576, 16, 36, 15e-6, 12e-6), 91.57, 0.01);
    EXPECT_NEAR(cost::miguet_dp_arith(576, 16, 4, 15e-6), 35.02, 0.01);
    EXPECT_NEAR(cost::miguet_r_opt_approx(576, 16, 0.8), 4.38, 0.005);
    EXPECT_NEAR(cost::miguet_r_opt_exact(576, 16, 0.8), 4.21, 0.005);
    EXPECT_NEAR(cost::miguet_r_opt_approx(360, 8, 0.8), 4.90, 0.005);
    EXPECT_NEAR(cost::miguet_r_opt_approx(360, 16, 0.8), 3.46, 0.005);
    EXPECT_NEAR(cost::miguet_r_opt_approx(360, 8, 0.48), 3.79, 0.005);
}

TEST(MatrixChainCost, ExactCountsOfTheSchedule) {
    EXPECT_EQ(cost::matrix_chain_updates(16, 576, 4, 15), 2311770.0);
    EXPECT_EQ(cost::matrix_chain_rotated_words(16, 576, 4), 573654.0);
    EXPECT_EQ(cost::matrix_chain_updates(4, 8, 1, 3), 34.0);
    EXPECT_EQ(cost::matrix_chain_rotated_words(4, 8, 1), 34.0);
    EXPECT_EQ(cost::matrix_chain_updates(4, 8, 2, 3), 49.0);
    EXPECT_EQ(cost::matrix_chain_rotated_words(4, 8, 2), 21.0);
    // All processors together do every update once: (n³ − n)/6.
    double total = 0.0;
    for (int q = 0; q < 5; ++q) {
        total += cost::matrix_chain_updates(5, 101, 3, q);
    }
    EXPECT_EQ(total, (101.0 * 101 * 101 - 101) / 6);
}

cost::Profile profile(double tau_a, double shift_seconds, double tau_edge = 0.0, double tau_diag = 0.0) {
    cost::Profile p;
    p.set_kernel(cost::kernel_size_key("mc.update", 2), {tau_a, "update"});
    p.set_kernel(cost::kernel_size_key("mc.update", 12), {tau_a, "update"});
    p.set_kernel(cost::kernel_size_key("mc.edge", 3), {tau_edge > 0.0 ? tau_edge : tau_a, "update"});
    p.set_kernel(cost::kernel_size_key("mc.diag", 3), {tau_diag > 0.0 ? tau_diag : tau_a, "update"});
    for (const int P : {2, 4, 16}) {
        p.set_collective("shift", P, cost::Piecewise::constant(shift_seconds));
        p.set_collective("bcast", P, cost::Piecewise::constant(0.0));
    }
    return p;
}

TEST(MatrixChainCost, ExprPricesTheSchedule) {
    const cost::Profile p = profile(1e-9, 1e-5);
    const auto model = cost::make_model("ccm", p);
    // P = 1: every update, no communication.
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 300, 300, p), *model), (300.0 * 300 * 300 - 300) / 6 * 1e-9, 1e-12);
    // P = 4, r = 2, n = 8: 3 shifts of 10 µs, and W summed over steps ≥ the last processor's work / 1 (per-step max).
    const double t = cost::predict(cost::matrix_chain(4, 8, 2, p), *model);
    EXPECT_GE(t, 3 * 1e-5 + 49e-9 - 1e-15);
    EXPECT_LE(t, 3 * 1e-5 + 84e-9);
    // The model's r: no communication cost pushes r down to the wrap's balance, a dear one up.
    EXPECT_LE(cost::matrix_chain_best_r(4, 400, profile(1e-9, 0.0)), 2);
    EXPECT_GE(cost::matrix_chain_best_r(4, 400, profile(1e-9, 1e-3)), 50);
    EXPECT_EQ(cost::matrix_chain_best_r(1, 400, p), llc::default_block_size(1, 400));
    EXPECT_THROW((void)cost::matrix_chain(2, 10, 0, p), llc::Error);
    EXPECT_THROW((void)cost::matrix_chain(2, 10, 2, cost::Profile{}), llc::Error);
}

TEST(MatrixChainCost, PricesMiddleEdgesAndDiagonalByTheirOwnConstants) {
    // n = 128, r = 64, P = 1: two diagonal blocks of 64·63·65/6 = 43680 updates each, and the block (0, 1) with
    // 64²·63 = 258048 edge updates and a middle k range of length 1 (64² updates).
    const cost::Profile p = profile(1e-9, 0.0, 2e-9, 3e-9);
    const auto model = cost::make_model("ccm", p);
    EXPECT_EQ(2 * 43680.0 + 258048.0 + 4096.0, (128.0 * 128 * 128 - 128) / 6);
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 128, 64, p), *model),
                4096 * 1e-9 + 258048 * 2e-9 + 2 * 43680 * 3e-9,
                1e-12);
    // A profile without the edge constants (made before llc-probe measured them) is refused.
    cost::Profile old;
    old.set_kernel(cost::kernel_size_key("mc.update", 2), {1e-9, "update"});
    EXPECT_THROW((void)cost::matrix_chain(1, 128, 64, old), llc::Error);
}

TEST(MatrixChainCost, OneProcessorWithTheDefaultRIsPricedByTheWholeEngine) {
    // With "mc.run_solo.2^e" in the profile, P = 1 at the default r is (n³ − n)/6 updates at the whole engine's
    // constant (interpolated in log n between the measured sizes).
    const cost::Profile blocks_only = profile(1e-9, 0.0, 2e-9, 3e-9);
    cost::Profile p = blocks_only;
    p.set_kernel(cost::kernel_size_key("mc.run", 9), {9e-10, "update"});  // side by side: not read at P = 1
    p.set_kernel(cost::kernel_size_key("mc.run_solo", 9), {4e-10, "update"});
    p.set_kernel(cost::kernel_size_key("mc.run_solo", 11), {6e-10, "update"});
    const auto model = cost::make_model("ccm", p);
    const auto updates = [](double n) { return (n * n * n - n) / 6; };
    ASSERT_EQ(llc::default_block_size(1, 1024), 64);
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 1024, 64, p), *model), updates(1024) * 5e-10, 1e-12);
    // Below the smallest measured n, its constant.
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 128, 64, p), *model), updates(128) * 4e-10, 1e-15);
}

TEST(MatrixChainCost, BlockPricesAreScaledToTheWholeEngine) {
    // Another r at P = 1, and every P > 1, are priced block by block, scaled by the whole engine's run time over the
    // blocks' price of the same one-processor run (n = 2^e, the default r), in log n between the measured sizes; the
    // solo runs at P = 1, the side-by-side ones at P > 1. Without run constants the scale is 1.
    const cost::Profile blocks_only = profile(1e-9, 0.0, 2e-9, 3e-9);
    cost::Profile p = blocks_only;
    p.set_kernel(cost::kernel_size_key("mc.run", 9), {9e-10, "update"});
    p.set_kernel(cost::kernel_size_key("mc.run_solo", 9), {4e-10, "update"});
    p.set_kernel(cost::kernel_size_key("mc.run_solo", 11), {6e-10, "update"});
    const auto model = cost::make_model("ccm", p);
    const auto plain_model = cost::make_model("ccm", blocks_only);
    const auto plain = [&](int P, std::int64_t n, std::int64_t r) {
        return cost::predict(cost::matrix_chain(P, n, r, blocks_only), *plain_model);
    };
    const auto updates = [](double n) { return (n * n * n - n) / 6; };
    const double ratio9 = 4e-10 * updates(512) / plain(1, 512, 64);
    const double ratio11 = 6e-10 * updates(2048) / plain(1, 2048, 64);
    EXPECT_NEAR(
        cost::predict(cost::matrix_chain(1, 1024, 32, p), *model), plain(1, 1024, 32) * (ratio9 + ratio11) / 2, 1e-12);
    // P = 2 (no communication priced in this profile): the side-by-side run at 2^9 sets the scale at every n.
    const double side_by_side = 9e-10 * updates(512) / plain(1, 512, 64);
    EXPECT_NEAR(cost::predict(cost::matrix_chain(2, 1024, 64, p), *model), plain(2, 1024, 64) * side_by_side, 1e-12);
    EXPECT_LT(side_by_side, 1.0);  // the engine here is faster per update than the blocks' 1–3 ns
}

}  // namespace
