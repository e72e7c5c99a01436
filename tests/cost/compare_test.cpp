// compare(): hand-built traces against hand-priced expressions, node by node.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <llc/cost/compare.hpp>
#include <llc/trace.hpp>

#include "test_model.hpp"

namespace {

using namespace llc::cost;
using llc::StepKind;
using llc::TraceNode;
using llc::cost::testing::LinearModel;

TraceNode normal(std::string label, std::string op, int P, std::uint64_t bytes, double compute, double comm) {
    TraceNode n;
    n.label = std::move(label);
    n.kind = StepKind::normal;
    n.op = std::move(op);
    n.P = P;
    n.bytes = bytes;
    n.compute = compute;
    n.comm = comm;
    return n;
}

TraceNode task(int index, int P, double duration, std::vector<TraceNode> children) {
    TraceNode n;
    n.label = "task";
    n.kind = StepKind::task;
    n.task = index;
    n.P = P;
    n.comm = duration;
    n.children = std::move(children);
    return n;
}

TraceNode measured_run() {
    TraceNode division;
    division.label = "par";
    division.kind = StepKind::division;
    division.op = "par";
    division.P = 4;
    division.sizes = {2, 2};
    division.bytes = 1000;
    division.compute = 0.25e-3;  // the divide step before the division
    division.split = 1e-5;
    division.tasks = 4e-3;  // the slowest task, merged over processors
    division.exchange = 3e-5;
    // Task 1 first: tasks are matched by index, not position.
    division.children = {task(1, 2, 4e-3, {normal("b", "bcast", 2, 128, 3e-3, 5e-5)}),
                         task(0, 2, 2e-3, {normal("b", "bcast", 2, 128, 1.5e-3, 4e-5)})};
    TraceNode root;
    root.kind = StepKind::root;
    root.children = {normal("init", "allreduce", 4, 64, 1e-3, 2e-5), division};
    return root;
}

Expr predicted_run(Expr extra = Expr::sequence("none", {})) {
    return Expr::sequence("prog",
                          {Expr::compute("prep", 0.5e-3),
                           Expr::normal("init", 0.4e-3, "allreduce", 4, 64),
                           Expr::compute("divide", 0.2e-3),
                           Expr::division("par",
                                          4,
                                          {2, 2},
                                          {Expr::sequence("left", {Expr::normal("b", 1e-3, "bcast", 2, 128)}),
                                           Expr::sequence("right", {Expr::normal("b", 2e-3, "bcast", 2, 128)})},
                                          1000),
                           extra});
}

TEST(CompareTest, node_by_node_against_hand_computed_values) {
    const LinearModel model;  // T_f = 1e-6 + 1e-9 h; T_g = 1e-5 + 2e-9 h + 1e-6
    const Comparison c = compare(measured_run(), predicted_run(), model);
    EXPECT_TRUE(c.structure_matches) << c.to_text();
    EXPECT_EQ(c.model, "linear-test");
    ASSERT_EQ(c.root.children.size(), 2u);

    const ComparisonNode& init = c.root.children[0];
    EXPECT_EQ(init.status, MatchStatus::matched);
    EXPECT_DOUBLE_EQ(init.predicted_compute,
                     0.9e-3);  // "prep" is charged to the next collective's W, as the trace does
    EXPECT_DOUBLE_EQ(init.predicted_comm, 1e-6 + 64e-9);
    EXPECT_DOUBLE_EQ(init.predicted, 0.9e-3 + 1e-6 + 64e-9);
    EXPECT_DOUBLE_EQ(init.measured, 1.02e-3);
    EXPECT_DOUBLE_EQ(init.relative_error, (init.predicted - 1.02e-3) / 1.02e-3);

    const ComparisonNode& par = c.root.children[1];
    EXPECT_EQ(par.kind, "division");
    const double tg = 1e-5 + 2e-9 * 1000 + 1e-6;
    const double task0 = 1e-3 + 1e-6 + 128e-9;
    const double task1 = 2e-3 + 1e-6 + 128e-9;
    EXPECT_DOUBLE_EQ(par.predicted, 0.2e-3 + tg + task1);  // "divide" is the division's W, as in the trace
    EXPECT_DOUBLE_EQ(par.predicted_compute, 0.2e-3);
    EXPECT_DOUBLE_EQ(par.measured_compute, 0.25e-3);
    EXPECT_DOUBLE_EQ(par.measured, 0.25e-3 + 1e-5 + 4e-3 + 3e-5);  // W + split + tasks + exchange
    EXPECT_DOUBLE_EQ(par.predicted_comm, tg);
    EXPECT_DOUBLE_EQ(par.measured_comm, 1e-5 + 3e-5);
    ASSERT_EQ(par.children.size(), 2u);
    EXPECT_EQ(par.children[0].label, "task 0");
    EXPECT_DOUBLE_EQ(par.children[0].predicted, task0);
    EXPECT_DOUBLE_EQ(par.children[0].measured, 2e-3);
    ASSERT_EQ(par.children[0].children.size(), 1u);
    EXPECT_DOUBLE_EQ(par.children[0].children[0].measured, 1.54e-3);
    EXPECT_DOUBLE_EQ(par.children[1].measured, 4e-3);
    EXPECT_DOUBLE_EQ(par.children[1].children[0].measured, 3.05e-3);

    EXPECT_DOUBLE_EQ(c.predicted, 0.5e-3 + 0.4e-3 + 1e-6 + 64e-9 + 0.2e-3 + tg + task1);
    EXPECT_DOUBLE_EQ(c.measured, 1.02e-3 + 4.29e-3);
    EXPECT_DOUBLE_EQ(c.relative_error, (c.predicted - c.measured) / c.measured);
    EXPECT_NE(c.to_text().find("task 1"), std::string::npos);
    EXPECT_NE(c.to_json().find("\"relative_error\""), std::string::npos);
}

TEST(CompareTest, differences_in_shape_are_reported_not_dropped) {
    const LinearModel model;
    TraceNode run = measured_run();
    run.children.push_back(normal("late", "barrier", 4, 0, 1e-4, 1e-5));
    Comparison c = compare(run, predicted_run(), model);
    EXPECT_FALSE(c.structure_matches);
    ASSERT_EQ(c.root.children.size(), 3u);
    EXPECT_EQ(c.root.children[2].status, MatchStatus::only_measured);
    EXPECT_TRUE(std::isnan(c.root.children[2].predicted));

    // A predicted superstep missing from the trace.
    c = compare(measured_run(), predicted_run(Expr::normal("extra", 0, "barrier", 4, 0)), model);
    EXPECT_FALSE(c.structure_matches);
    EXPECT_EQ(c.root.children.back().status, MatchStatus::only_predicted);

    // Another collective than predicted.
    TraceNode wrong = measured_run();
    wrong.children[0].op = "bcast";
    c = compare(wrong, predicted_run(), model);
    EXPECT_FALSE(c.structure_matches);
    EXPECT_EQ(c.root.children[0].status, MatchStatus::mismatch);
    EXPECT_NE(c.root.children[0].note.find("allreduce"), std::string::npos) << c.root.children[0].note;

    // v-variants are the same collective.
    TraceNode v = measured_run();
    v.children[0].op = "allreduce";
    v.children[1].children[0].children[0].op = "bcast";
    c = compare(v, predicted_run(), model);
    EXPECT_TRUE(c.structure_matches);

    // A missing task.
    TraceNode one_task = measured_run();
    one_task.children[1].children.pop_back();  // drop task 0
    c = compare(one_task, predicted_run(), model);
    EXPECT_FALSE(c.structure_matches);
    EXPECT_EQ(c.root.children[1].children[0].status, MatchStatus::only_predicted);

    // A normal superstep where a division was predicted.
    TraceNode kinds = measured_run();
    kinds.children[1] = normal("par", "allgather", 4, 1000, 0, 1e-3);
    c = compare(kinds, predicted_run(), model);
    EXPECT_EQ(c.root.children[1].status, MatchStatus::mismatch);
}

TEST(CompareTest, trailing_work_is_unrecorded_but_counted) {
    const LinearModel model;
    const Comparison c = compare(measured_run(), predicted_run(Expr::compute("combine", 1e-3)), model);
    EXPECT_TRUE(c.structure_matches) << c.to_text();
    EXPECT_EQ(c.root.children.back().status, MatchStatus::unrecorded);
    EXPECT_DOUBLE_EQ(c.root.children.back().predicted, 1e-3);
    EXPECT_TRUE(std::isnan(c.root.children.back().measured));
}

TEST(CompareTest, a_sub_tree_against_one_expression) {
    const LinearModel model;
    const TraceNode run = measured_run();
    const Expr par = Expr::division(
        "par", 4, {2, 2}, {Expr::normal("b", 1e-3, "bcast", 2, 128), Expr::normal("b", 2e-3, "bcast", 2, 128)}, 1000);
    const Comparison c = compare(run.children[1], par, model);
    EXPECT_TRUE(c.structure_matches) << c.to_text();
    EXPECT_DOUBLE_EQ(c.measured, 4.29e-3);
    EXPECT_EQ(c.root.children.size(), 2u);
}

TEST(CompareTest, relative_error_edges) {
    EXPECT_NEAR(relative_error(1.1, 1.0), 0.1, 1e-15);
    EXPECT_NEAR(relative_error(0.9, 1.0), -0.1, 1e-15);
    EXPECT_TRUE(std::isnan(relative_error(1.0, 0.0)));
    EXPECT_TRUE(std::isnan(relative_error(NAN, 1.0)));
}

}  // namespace
