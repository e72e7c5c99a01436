// llc::cost::matrix_chain and the article's closed forms against the thesis' reference values (digest §2.4, §10 D).
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>

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

namespace names = llc::names::matrix_chain;

double updates(double n) {
    return (n * n * n - n) / 6;
}

/// The blocks' price of a one-processor run of n = B·r matrices, counted by hand: B diagonal blocks of r(r−1)(r+1)/6
/// updates at τ_diag; B(B−1)/2 off-diagonal blocks of r²(r−1) edge updates at τ_edge and r² updates per index of
/// their middle k range (b·r − (a+1)·r + 1 long) at τ_mid.
double one_processor_blocks(std::int64_t n, std::int64_t r, double tau_mid, double tau_edge, double tau_diag) {
    const std::int64_t B = n / r;
    const auto rd = static_cast<double>(r);
    double t = static_cast<double>(B) * rd * (rd - 1) * (rd + 1) / 6 * tau_diag;
    for (std::int64_t a = 0; a < B; ++a) {
        for (std::int64_t b = a + 1; b < B; ++b) {
            t += rd * rd * (rd - 1) * tau_edge + rd * rd * static_cast<double>(b * r - (a + 1) * r + 1) * tau_mid;
        }
    }
    return t;
}

/// The three block tables (τ_mid at every length, τ_edge and τ_diag at every r) and the collectives, no run table.
cost::Profile block_tables(double tau_a, double shift_seconds, double tau_edge = 0.0, double tau_diag = 0.0) {
    cost::Profile p;
    p.set_kernel(cost::kernel_size_key(names::middle, 2), {tau_a, "update"});
    p.set_kernel(cost::kernel_size_key(names::middle, 12), {tau_a, "update"});
    p.set_kernel(cost::kernel_size_key(names::edge, 3), {tau_edge > 0.0 ? tau_edge : tau_a, "update"});
    p.set_kernel(cost::kernel_size_key(names::diag, 3), {tau_diag > 0.0 ? tau_diag : tau_a, "update"});
    for (const int P : {2, 4, 16}) {
        p.set_collective("shift", P, cost::Piecewise::constant(shift_seconds));
        p.set_collective("shift.written", P, cost::Piecewise::constant(shift_seconds));
        p.set_collective("bcast", P, cost::Piecewise::constant(0.0));
        // No lockstep excess: each ring step costs its busiest processor's priced blocks (LockstepExcess… adds one).
        p.set_kernel(cost::kernel_size_key(cost::lockstep_key(P), 16), {0.0, "excess"});
    }
    return p;
}

/// The constant of a whole-run table ("mc.run", "mc.run_wide") at n matrices with block size r whose run lasts
/// `ratio` times the blocks' price of the same run.
double run_at(double ratio, std::int64_t n, std::int64_t r, double tau_a, double tau_edge, double tau_diag) {
    return ratio * one_processor_blocks(n, r, tau_a, tau_edge, tau_diag) / updates(static_cast<double>(n));
}

/// The block tables and run tables that leave the blocks' prices as they are: "mc.run" at n = 2^7 (r = 64) and
/// "mc.run_wide" at n = 2^8 (r = 128), each priced at exactly the blocks' sum, so that the engine's scale is 1 at every
/// n, r and P.
cost::Profile profile(double tau_a, double shift_seconds, double tau_edge = 0.0, double tau_diag = 0.0) {
    cost::Profile p = block_tables(tau_a, shift_seconds, tau_edge, tau_diag);
    const double edge = tau_edge > 0.0 ? tau_edge : tau_a;
    const double diag = tau_diag > 0.0 ? tau_diag : tau_a;
    p.set_kernel(cost::kernel_size_key(names::run, 7), {run_at(1.0, 128, 64, tau_a, edge, diag), "update"});
    p.set_kernel(cost::kernel_size_key(names::run_wide, 8), {run_at(1.0, 256, 128, tau_a, edge, diag), "update"});
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

/// The message of the llc::Error that pricing `call` throws ("" if none).
template <class F>
std::string error_of(F&& call) {
    try {
        (void)call();
    } catch (const llc::Error& e) {
        return e.what();
    }
    return "";
}

TEST(MatrixChainCost, PricesMiddleEdgesAndDiagonalByTheirOwnConstants) {
    // n = 128, r = 64: two diagonal blocks of 64·63·65/6 = 43680 updates each, and the block (0, 1) with
    // 64²·63 = 258048 edge updates and a middle k range of length 1 (64² updates). At P = 2 each processor computes
    // its diagonal block at macro-step 0, then processor 1 the block (0, 1); no communication is priced here.
    const cost::Profile p = profile(1e-9, 0.0, 2e-9, 3e-9);
    const auto model = cost::make_model("ccm", p);
    EXPECT_EQ(2 * 43680.0 + 258048.0 + 4096.0, updates(128));
    EXPECT_DOUBLE_EQ(one_processor_blocks(128, 64, 1e-9, 2e-9, 3e-9), 4096 * 1e-9 + 258048 * 2e-9 + 2 * 43680 * 3e-9);
    EXPECT_NEAR(
        cost::predict(cost::matrix_chain(2, 128, 64, p), *model), 43680 * 3e-9 + 4096 * 1e-9 + 258048 * 2e-9, 1e-12);
    // P = 1, r = 32 (not the default: block by block): 4 diagonal blocks of 32·31·33/6 = 5456 updates, 6 off-diagonal
    // ones of 32²·31 = 31744 edge updates, and middle ranges of length 1 (three blocks), 33 (two) and 65 (one).
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 128, 32, p), *model),
                4 * 5456 * 3e-9 + 6 * 31744 * 2e-9 + 1024.0 * (3 * 1 + 2 * 33 + 65) * 1e-9,
                1e-12);
}

TEST(MatrixChainCost, AProfileWithoutAKeyIsRefusedNamingIt) {
    // No silent fallback: a profile made before llc-probe measured a table is an error that names the missing key.
    const cost::Profile p = profile(1e-9, 0.0, 2e-9, 3e-9);
    cost::Profile no_edges_at_all;
    no_edges_at_all.set_kernel(cost::kernel_size_key(names::middle, 2), {1e-9, "update"});
    no_edges_at_all.set_kernel(cost::kernel_size_key(names::run, 7), {1e-9, "update"});
    EXPECT_NE(error_of([&] { return cost::matrix_chain(1, 128, 64, no_edges_at_all); }).find("mc.edge.2^e"),
              std::string::npos);
    // Without the whole engine's run table: refused at P = 1 with the default r (priced by it), at another r and at
    // P > 1 (scaled by it), and when choosing r.
    const cost::Profile no_run = block_tables(1e-9, 1e-5, 2e-9, 3e-9);
    for (const auto& message : {error_of([&] { return cost::matrix_chain(1, 128, 64, no_run); }),
                                error_of([&] { return cost::matrix_chain(1, 128, 32, no_run); }),
                                error_of([&] { return cost::matrix_chain(2, 128, 16, no_run); }),
                                error_of([&] { return cost::matrix_chain_best_r(4, 400, no_run); })}) {
        EXPECT_NE(message.find("mc.run.2^e"), std::string::npos) << message;
        EXPECT_NE(message.find("llc-probe"), std::string::npos) << message;
    }
    EXPECT_EQ(error_of([&] { return cost::matrix_chain(2, 128, 16, p); }), "");
    // With "mc.run" but not "mc.run_wide" (a profile made before llc-probe measured it): refused, naming it.
    cost::Profile no_wide = no_run;
    no_wide.set_kernel(cost::kernel_size_key(names::run, 7), {1e-9, "update"});
    for (const auto& message : {error_of([&] { return cost::matrix_chain(1, 128, 64, no_wide); }),
                                error_of([&] { return cost::matrix_chain(2, 128, 16, no_wide); })}) {
        EXPECT_NE(message.find("mc.run_wide.2^e"), std::string::npos) << message;
    }
}

TEST(MatrixChainCost, OneProcessorWithTheDefaultRIsPricedAtTheWholeEngineLevel) {
    // With "mc.run_solo.2^e" in the profile, P = 1 at the default r is priced block by block at the whole engine's
    // level: at each measured n exactly (n³ − n)/6 updates at its constant; between and beyond them the blocks' price
    // times the ratio run / blocks, interpolated in log n (held at the nearest measured n outside).
    cost::Profile p = block_tables(1e-9, 0.0, 2e-9, 3e-9);
    p.set_kernel(cost::kernel_size_key(names::run, 9), {9e-10, "update"});  // side by side: not read at P = 1
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run), 9), {4e-10, "update"});
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run), 11), {6e-10, "update"});
    // At r = 64 the wide run's level is not read (EngineScale: r = 64 is mc.run's own block size).
    p.set_kernel(cost::kernel_size_key(names::run_wide, 9), {1e-6, "update"});
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run_wide), 9), {1e-6, "update"});
    const auto model = cost::make_model("ccm", p);
    ASSERT_EQ(llc::default_block_size(1, 1024), 64);
    const auto price = [&](std::int64_t n) {
        return cost::predict(cost::matrix_chain(1, n, llc::default_block_size(1, n), p), *model);
    };
    EXPECT_NEAR(price(512), updates(512) * 4e-10, 1e-12);
    EXPECT_NEAR(price(2048), updates(2048) * 6e-10, 1e-12);
    const double ratio9 = 4e-10 * updates(512) / one_processor_blocks(512, 64, 1e-9, 2e-9, 3e-9);
    const double ratio11 = 6e-10 * updates(2048) / one_processor_blocks(2048, 64, 1e-9, 2e-9, 3e-9);
    EXPECT_NEAR(price(1024), one_processor_blocks(1024, 64, 1e-9, 2e-9, 3e-9) * (ratio9 + ratio11) / 2, 1e-12);
    // Below the smallest measured n and above the largest, the nearest ratio.
    EXPECT_NEAR(price(128), one_processor_blocks(128, 64, 1e-9, 2e-9, 3e-9) * ratio9, 1e-15);
    const cost::Profile unscaled = profile(1e-9, 0.0, 2e-9, 3e-9);  // its run table at the blocks' own level
    const double blocks4000 =
        cost::predict(cost::matrix_chain(1, 4000, 64, unscaled), *cost::make_model("ccm", unscaled));
    EXPECT_NEAR(price(4000), blocks4000 * ratio11, 1e-12 * blocks4000);
}

TEST(MatrixChainCost, BlockPricesAreScaledToTheWholeEngine) {
    // Another r at P = 1, and every P > 1, are priced block by block, scaled by the whole engine's run time over the
    // blocks' price of the same one-processor run (n = 2^e, the default r), in log n between the measured sizes; the
    // solo runs at P = 1, the side-by-side ones at P > 1. `unscaled`'s run table is at the blocks' own level.
    const cost::Profile unscaled = profile(1e-9, 0.0, 2e-9, 3e-9);
    cost::Profile p = block_tables(1e-9, 0.0, 2e-9, 3e-9);
    p.set_kernel(cost::kernel_size_key(names::run, 9), {9e-10, "update"});
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run), 9), {4e-10, "update"});
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run), 11), {6e-10, "update"});
    // Not read at r ≤ 64 (below: r = 32 and 64).
    p.set_kernel(cost::kernel_size_key(names::run_wide, 9), {1e-6, "update"});
    p.set_kernel(cost::kernel_size_key(cost::solo_kernel_name(names::run_wide), 9), {1e-6, "update"});
    const auto model = cost::make_model("ccm", p);
    const auto plain_model = cost::make_model("ccm", unscaled);
    const auto plain = [&](int P, std::int64_t n, std::int64_t r) {
        return cost::predict(cost::matrix_chain(P, n, r, unscaled), *plain_model);
    };
    const double ratio9 = 4e-10 * updates(512) / one_processor_blocks(512, 64, 1e-9, 2e-9, 3e-9);
    const double ratio11 = 6e-10 * updates(2048) / one_processor_blocks(2048, 64, 1e-9, 2e-9, 3e-9);
    EXPECT_NEAR(plain(1, 1024, 32), one_processor_blocks(1024, 32, 1e-9, 2e-9, 3e-9), 1e-12);
    EXPECT_NEAR(
        cost::predict(cost::matrix_chain(1, 1024, 32, p), *model), plain(1, 1024, 32) * (ratio9 + ratio11) / 2, 1e-12);
    // P = 2 (no communication priced in this profile): the side-by-side run at 2^9 sets the scale at every n.
    const double side_by_side = 9e-10 * updates(512) / one_processor_blocks(512, 64, 1e-9, 2e-9, 3e-9);
    EXPECT_NEAR(cost::predict(cost::matrix_chain(2, 1024, 64, p), *model), plain(2, 1024, 64) * side_by_side, 1e-12);
    EXPECT_LT(side_by_side, 1.0);  // the engine here is faster per update than the blocks' 1–3 ns
}

TEST(MatrixChainCost, TheEngineScaleFollowsTheBlockSize) {
    // "mc.run" (r = 64) at 1.5 times its blocks' price and "mc.run_wide" (r = 128) at 0.9: a run at r ≤ 64 is scaled by
    // 1.5, at r ≥ 128 by 0.9, and between them linearly in 1/r — at r = 96, (1/64 − 1/96) / (1/64 − 1/128) = 2/3 of
    // the way: 1.5 − (2/3)·0.6 = 1.1. No communication or lockstep excess is priced, so each price is the scale times
    // the blocks'.
    cost::Profile p = block_tables(1e-9, 0.0, 2e-9, 3e-9);
    for (const std::string& run : {std::string(names::run), cost::solo_kernel_name(names::run)}) {
        p.set_kernel(cost::kernel_size_key(run, 9), {run_at(1.5, 512, 64, 1e-9, 2e-9, 3e-9), "update"});
    }
    for (const std::string& wide : {std::string(names::run_wide), cost::solo_kernel_name(names::run_wide)}) {
        p.set_kernel(cost::kernel_size_key(wide, 9), {run_at(0.9, 512, 128, 1e-9, 2e-9, 3e-9), "update"});
    }
    const cost::Profile unscaled = profile(1e-9, 0.0, 2e-9, 3e-9);
    const auto model = cost::make_model("ccm", p);
    const auto plain_model = cost::make_model("ccm", unscaled);
    for (const int P : {1, 2}) {
        const auto ratio = [&](std::int64_t r) {
            return cost::predict(cost::matrix_chain(P, 1536, r, p), *model) /
                   cost::predict(cost::matrix_chain(P, 1536, r, unscaled), *plain_model);
        };
        EXPECT_NEAR(ratio(32), 1.5, 1e-12) << "P = " << P;
        EXPECT_NEAR(ratio(64), 1.5, 1e-12) << "P = " << P;
        EXPECT_NEAR(ratio(96), 1.1, 1e-12) << "P = " << P;
        EXPECT_NEAR(ratio(128), 0.9, 1e-12) << "P = " << P;
        EXPECT_NEAR(ratio(192), 0.9, 1e-12) << "P = " << P;
    }
    // The model's r follows: with the wide blocks' level 0.6 of the narrow ones', r = 128 is cheaper than r = 64 here.
    EXPECT_GT(cost::matrix_chain_best_r(2, 1536, p), 64);
}

TEST(MatrixChainCost, LockstepExcessRaisesEveryRingStepAndItsAbsenceIsAnError) {
    // At P > 1 every macro-step is a lockstep step: its W is raised by the profile's excess at P (here 10 % at every
    // step length), the shifts are not; one processor has no one to wait for.
    const cost::Profile plain = profile(1e-9, 1e-5);
    cost::Profile excess = plain;
    excess.set_kernel(cost::kernel_size_key(cost::lockstep_key(2), 16), {0.1, "excess"});
    const auto plain_model = cost::make_model("ccm", plain);
    const auto excess_model = cost::make_model("ccm", excess);
    const cost::Breakdown before = cost::evaluate(cost::matrix_chain(2, 300, 20, plain), *plain_model);
    const cost::Breakdown after = cost::evaluate(cost::matrix_chain(2, 300, 20, excess), *excess_model);
    EXPECT_GT(before.compute, 0.0);
    EXPECT_NEAR(after.compute, 1.1 * before.compute, 1e-12 * before.compute);
    EXPECT_NEAR(after.comm, before.comm, 1e-15);
    EXPECT_NEAR(cost::predict(cost::matrix_chain(1, 300, 20, excess), *excess_model),
                cost::predict(cost::matrix_chain(1, 300, 20, plain), *plain_model),
                1e-15);
    // A profile without the lockstep table at P = 2 (made before it was measured): an error naming it.
    cost::Profile without;
    without.set_collective("shift", 2, cost::Piecewise::constant(1e-5));
    without.set_collective("shift.written", 2, cost::Piecewise::constant(1e-5));
    without.set_collective("bcast", 2, cost::Piecewise::constant(0.0));
    for (const auto& [key, value] : plain.kernels()) {
        if (key.rfind("lockstep.", 0) != 0) {
            without.set_kernel(key, value);
        }
    }
    try {
        (void)cost::matrix_chain(2, 300, 20, without);
        FAIL() << "a profile without lockstep.excess.p2 priced the ring";
    } catch (const llc::Error& error) {
        EXPECT_NE(std::string(error.what()).find("'lockstep.excess.p2.2^e'"), std::string::npos) << error.what();
    }
}

TEST(MatrixChainCost, TheTreeWalkIsOneAllreducePerLevel) {
    // The levels of the tree a parenthesisation writes, root first: each "(" is an internal node one level below
    // the "(" around it.
    EXPECT_EQ(cost::matrix_chain_walk_levels("((A1(A2A3))A4)"), (std::vector<std::int64_t>{1, 1, 1}));
    EXPECT_EQ(cost::matrix_chain_walk_levels("((A1A2)(A3A4))"), (std::vector<std::int64_t>{1, 2}));
    EXPECT_EQ(cost::matrix_chain_walk_levels("A1"), (std::vector<std::int64_t>{}));
    EXPECT_THROW((void)cost::matrix_chain_walk_levels("((A1A2)"), llc::Error);
    EXPECT_THROW((void)cost::matrix_chain_walk_levels("(A1A2))"), llc::Error);
    // At P = 2 each level adds an allreduce of 8 bytes a node (here 2 µs + 1 ns a byte); at P = 1 the walk has no
    // collective and adds nothing.
    cost::Profile p = profile(1e-9, 1e-5);
    p.set_collective("allreduce", 2, cost::Piecewise::linear(2e-6, 1e-9));
    const auto model = cost::make_model("ccm", p);
    const std::vector<std::int64_t> levels{1, 2, 4, 1};
    const cost::Expr with = cost::matrix_chain(2, 300, 20, p, levels);
    EXPECT_NEAR(cost::predict(with, *model) - cost::predict(cost::matrix_chain(2, 300, 20, p), *model),
                4 * 2e-6 + 8 * 8 * 1e-9,
                1e-15);
    EXPECT_EQ(with.children().back().label(), std::string(names::walk));
    EXPECT_EQ(with.children().back().op(), "allreduce");
    EXPECT_EQ(cost::predict(cost::matrix_chain(1, 300, 64, p, levels), *model),
              cost::predict(cost::matrix_chain(1, 300, 64, p), *model));
    // A level of no node, or of n or more (a tree of n matrices has n − 1 internal nodes): an error naming it.
    EXPECT_THROW((void)cost::matrix_chain(2, 300, 20, p, std::vector<std::int64_t>{1, 0}), llc::Error);
    EXPECT_THROW((void)cost::matrix_chain(2, 300, 20, p, std::vector<std::int64_t>{300}), llc::Error);
}

}  // namespace

TEST(MatrixChainCost, RotationsArePricedAsWrittenShifts) {
    // Each rotation sends trapezoids the sender has just computed: "shift.written" prices it (here 4× the plain
    // shift's 10 µs); the plain "shift" never does.
    const cost::Profile plain = profile(1e-9, 1e-5);
    cost::Profile written = plain;
    written.set_collective("shift.written", 2, cost::Piecewise::constant(4e-5));
    const cost::Expr e = cost::matrix_chain(2, 300, 20, written);
    std::size_t rotations = 0;
    for (const cost::Expr& step : e.children()) {
        if (step.label() == std::string(names::rotate)) {
            ++rotations;
            EXPECT_EQ(step.op(), "shift.written");
        }
    }
    EXPECT_EQ(rotations, 300U / 20U - 1U);  // one a macro-step after the first
    const cost::Breakdown b = cost::evaluate(cost::matrix_chain(2, 300, 20, plain), *cost::make_model("ccm", plain));
    const cost::Breakdown a = cost::evaluate(e, *cost::make_model("ccm", written));
    EXPECT_NEAR(a.comm - b.comm, static_cast<double>(rotations) * 3e-5, 1e-12);
    EXPECT_NEAR(a.compute, b.compute, 1e-15);
    // The trace records the operation ("shift"): the written shift is that operation in a cache state.
    EXPECT_EQ(cost::base_collective("shift.written"), "shift");
}

TEST(MatrixChainCost, AProfileWithoutTheWrittenShiftIsRefusedAtPAboveOne) {
    // A profile made before llc-probe measured "shift.written" (llc-probe --inspect lists it as missing): an error
    // naming the function and the collective at P > 1, never the plain shift's price; P = 1 has no rotation.
    const cost::Profile current = profile(1e-9, 1e-5);
    cost::Profile old;
    for (const auto& [key, value] : current.kernels()) {
        old.set_kernel(key, value);
    }
    for (const int P : {2, 4}) {
        old.set_collective("shift", P, cost::Piecewise::constant(1e-5));
        old.set_collective("bcast", P, cost::Piecewise::constant(0.0));
    }
    for (const int P : {2, 4}) {
        try {
            (void)cost::matrix_chain(P, 300, 20, old);
            FAIL() << "a profile without shift.written priced the ring at P = " << P;
        } catch (const llc::Error& error) {
            const std::string what = error.what();
            EXPECT_NE(what.find("llc::cost::matrix_chain"), std::string::npos) << what;
            EXPECT_NE(what.find("'shift.written'"), std::string::npos) << what;
            EXPECT_NE(what.find("P = " + std::to_string(P)), std::string::npos) << what;
        }
        EXPECT_THROW((void)cost::matrix_chain_best_r(P, 300, old), llc::Error);
    }
    EXPECT_GT(cost::predict(cost::matrix_chain(1, 300, 64, old), *cost::make_model("ccm", old)), 0.0);
}
