// Expr: construction checks, evaluation against closed forms worked out by hand, JSON round trip.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/error.hpp>
#include <llc/partners.hpp>

#include "test_model.hpp"

namespace {

using namespace llc::cost;
using llc::cost::testing::LinearModel;

// The CCM paper's FFT (Figure 4) as an Expr: divide (D per element of n/2), PAR of two half-size FFTs on half the
// processors with a swap of n/2 complex numbers, combine (F per element of n/2); seqFFT (C·n·log2 n) on one processor.
Expr fft(int P, double n, double C, double D, double F) {
    if (P == 1) {
        return Expr::compute("seqfft", C * n * std::log2(n));
    }
    const Expr half = fft(P / 2, n / 2, C, D, F);
    const double bytes = 2.0 * (n / 2) * 16.0;  // each processor sends and receives n/2 complex<double>
    return Expr::sequence("fft",
                          {Expr::compute("divide", D * n / 2),
                           Expr::division("par", P, {P / 2, P / 2}, {half, half}, bytes),
                           Expr::compute("combine", F * n / 2)});
}

TEST(ExprTest, fft_matches_the_ccm_closed_form) {
    const LinearModel model;
    const double C = 3e-9;
    const double D = 1e-9;
    const double F = 2e-9;
    for (const int P : {1, 2, 4, 8, 64}) {
        const double n = 1 << 20;
        // Φ = Σ_{i=0}^{log P − 1} [(D + F)·n/2^{i+1} + T_g(bytes_i)] + C·(n/P)·log2(n/P).
        double expected = C * (n / P) * std::log2(n / P);
        double division = 0.0;
        for (int i = 0; (1 << i) < P; ++i) {
            const double m = n / std::pow(2.0, i + 1);
            expected += (D + F) * m;
            division += model.split + model.e * (2.0 * m * 16.0) + model.rejoin;
        }
        expected += division;
        const Breakdown b = evaluate(fft(P, n, C, D, F), model);
        EXPECT_NEAR(b.total, expected, 1e-12 * expected) << "P = " << P;
        EXPECT_NEAR(b.division, division, 1e-12 * expected + 1e-18) << "P = " << P;
        EXPECT_NEAR(b.compute + b.comm + b.division, b.total, 1e-15);
        EXPECT_EQ(b.comm, 0.0);
        EXPECT_DOUBLE_EQ(predict(fft(P, n, C, D, F), model), b.total);
    }
}

TEST(ExprTest, shared_subtrees_keep_huge_P_cheap) {
    const Expr e = fft(1 << 20, std::pow(2.0, 30), 1e-9, 1e-9, 1e-9);
    // T(1) = 1, T(P) = 4 + 2·T(P/2): T(2^k) = 5·2^k − 4 nodes as a tree, k + 1 distinct ones in memory.
    EXPECT_DOUBLE_EQ(e.tree_size(), 5.0 * (1 << 20) - 4.0);
    const Expr small = fft(4096, 1 << 24, 1e-9, 1e-9, 1e-9);
    EXPECT_GT(predict(small, LinearModel{}), 0.0);
}

TEST(ExprTest, division_takes_the_slowest_task_and_normal_adds_W) {
    const LinearModel model;
    const Expr fast = Expr::normal("fast", 1e-3, "allreduce", 3, 800);
    const Expr slow = Expr::normal("slow", 5e-3, "bcast", 1, 0);
    const Expr d = Expr::division("split", 4, {3, 1}, {fast, slow}, 1000);
    const Breakdown b = evaluate(d, model);
    ASSERT_EQ(b.children.size(), 2u);
    EXPECT_DOUBLE_EQ(b.children[0].total, 1e-3 + 1e-6 + 800e-9);
    EXPECT_DOUBLE_EQ(b.children[1].total, 5e-3 + 1e-6);
    EXPECT_EQ(b.critical, 1);
    const double tg = 1e-5 + 2e-9 * 1000 + 1e-6;
    EXPECT_DOUBLE_EQ(b.split, 1e-5);
    EXPECT_DOUBLE_EQ(b.exchange, 2e-6);
    EXPECT_DOUBLE_EQ(b.total, tg + 5e-3 + 1e-6);
    EXPECT_DOUBLE_EQ(b.compute, 5e-3);
    EXPECT_DOUBLE_EQ(b.comm, 1e-6);
    EXPECT_NEAR(b.division, tg, 1e-18);
}

TEST(ExprTest, overlapped_work_hides_the_collective_up_to_its_length) {
    const LinearModel model;  // a shift of 1000 bytes costs 1 µs + 1 µs = 2 µs
    const double t_f = 1e-6 + 1e-9 * 1000;
    // Less work in flight than the transfer: the rest of the transfer is exposed.
    const Breakdown partly = evaluate(Expr::overlapped("ring", 3e-6, 0.5e-6, "shift", 4, 1000), model);
    EXPECT_DOUBLE_EQ(partly.total, 3e-6 + t_f);
    EXPECT_DOUBLE_EQ(partly.compute, 3.5e-6);
    EXPECT_DOUBLE_EQ(partly.comm, t_f - 0.5e-6);
    // More work than the transfer: the transfer is hidden whole.
    const Breakdown hidden = evaluate(Expr::overlapped("ring", 3e-6, 5e-6, "shift", 4, 1000), model);
    EXPECT_DOUBLE_EQ(hidden.total, 8e-6);
    EXPECT_DOUBLE_EQ(hidden.comm, 0.0);
    // No overlap: a normal superstep.
    EXPECT_DOUBLE_EQ(predict(Expr::overlapped("ring", 3e-6, 0.0, "shift", 4, 1000), model),
                     predict(Expr::normal("ring", 3e-6, "shift", 4, 1000), model));
    EXPECT_THROW((void)Expr::overlapped("ring", 0.0, -1.0, "shift", 4, 0), llc::Error);
    EXPECT_THROW((void)Expr::overlapped("ring", 0.0, NAN, "shift", 4, 0), llc::Error);
    // V survives the JSON round trip and shows in the text.
    const Expr e = Expr::overlapped("ring", 3e-6, 5e-6, "shift", 4, 1000);
    const Expr back = Expr::from_json(e.to_json());
    EXPECT_DOUBLE_EQ(back.overlap(), 5e-6);
    EXPECT_EQ(back.to_json(), e.to_json());
    EXPECT_NE(e.to_text().find("overlapped"), std::string::npos) << e.to_text();
}

TEST(ExprTest, fewer_processors_than_tasks_run_tasks_in_turn) {
    const LinearModel model;
    const std::vector<Expr> tasks{Expr::compute("t0", 1.0), Expr::compute("t1", 2.0), Expr::compute("t2", 3.0)};
    const Expr d = Expr::division("three on two", 2, {1, 1, 1}, tasks, 0);
    // Equal weights: llc::assign_tasks places them; the busiest processor's sum is the time.
    const std::vector<double> equal{1, 1, 1};
    const std::vector<int> owners = llc::assign_tasks(2, equal);
    EXPECT_EQ(d.owners(), owners);
    double load[2] = {0, 0};
    for (int t = 0; t < 3; ++t) {
        load[owners[static_cast<std::size_t>(t)]] += t + 1.0;
    }
    const Breakdown b = evaluate(d, model);
    EXPECT_DOUBLE_EQ(b.total, std::max(load[0], load[1]) + 1e-5 + 1e-6);

    const std::vector<double> weights{1, 2, 3};
    const Expr w = Expr::weighted_division("weighted", 2, weights, tasks, 0);
    EXPECT_EQ(w.owners(), llc::assign_tasks(2, weights));
    EXPECT_EQ(w.op(), "weighted_par");
    const Expr big = Expr::weighted_division(
        "weighted", 6, weights, {Expr::compute("a", 1), Expr::compute("b", 1), Expr::compute("c", 1)}, 0);
    EXPECT_EQ(big.sizes(), llc::split_sizes(6, weights));
}

TEST(ExprTest, arguments_are_checked) {
    EXPECT_THROW((void)Expr::normal("x", -1.0, "bcast", 2, 0), llc::Error);
    EXPECT_THROW((void)Expr::normal("x", 0.0, "bcast", 0, 0), llc::Error);
    EXPECT_THROW((void)Expr::normal("x", 0.0, "", 2, 0), llc::Error);
    EXPECT_THROW((void)Expr::normal("x", 0.0, "bcast", 2, NAN), llc::Error);
    const Expr t = Expr::compute("t", 1.0);
    EXPECT_THROW((void)Expr::division("d", 4, {2, 1}, {t, t}, 0), llc::Error);  // sizes add up to 3
    EXPECT_THROW((void)Expr::division("d", 4, {2, 2}, {t}, 0), llc::Error);     // one task short
    EXPECT_THROW((void)Expr::division("d", 4, {4, 0}, {t, t}, 0), llc::Error);
    try {
        (void)Expr::division("d", 4, {2, 2}, {Expr::normal("n", 0, "bcast", 4, 0), t}, 0);
        FAIL() << "a task running on the whole group was accepted";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("tasks[0]"), std::string::npos) << e.what();
    }
}

TEST(ExprTest, json_and_text) {
    const Expr e = Expr::sequence("prog",
                                  {Expr::normal("reduce", 1e-3, "allreduce", 4, 64),
                                   Expr::division("par",
                                                  4,
                                                  {2, 2},
                                                  {Expr::sequence("left", {Expr::normal("b", 2e-3, "bcast", 2, 128)}),
                                                   Expr::compute("right", 3e-3)},
                                                  256)});
    const Expr back = Expr::from_json(e.to_json());
    EXPECT_EQ(back.to_json(), e.to_json());
    const LinearModel model;
    EXPECT_DOUBLE_EQ(predict(back, model), predict(e, model));
    const std::string text = e.to_text();
    EXPECT_NE(text.find("allreduce"), std::string::npos) << text;
    EXPECT_NE(text.find("task 1"), std::string::npos) << text;
    const std::string btext = evaluate(e, model).to_text();
    EXPECT_NE(btext.find("left"), std::string::npos) << btext;
    EXPECT_NE(evaluate(e, model).to_json().find("\"critical\""), std::string::npos);
    EXPECT_THROW((void)Expr::from_json("{\"kind\":\"loop\",\"label\":\"x\"}"), llc::Error);
    EXPECT_THROW((void)Expr::from_json("{\"kind\":\"normal\",\"label\":\"x\"}"), llc::Error);
    EXPECT_EQ(format_seconds(1.5e-3), "1.5 ms");
    EXPECT_EQ(format_bytes(2048), "2.0 KiB");
}

TEST(ExprTest, extrapolation_is_flagged_upwards) {
    const LinearModel model;  // flags P > 64
    const Expr e = Expr::sequence("s", {Expr::normal("a", 0, "bcast", 2, 0), Expr::normal("b", 0, "bcast", 128, 0)});
    const Breakdown b = evaluate(e, model);
    EXPECT_TRUE(b.extrapolated);
    EXPECT_FALSE(b.children[0].extrapolated);
    EXPECT_TRUE(b.children[1].extrapolated);
}

}  // namespace
