// The cost expression mirrors the supersteps FftPlan::execute performs: the merged trace of one execution has the
// same nodes as llc::cost::fft in order: normal and division supersteps (labels, operations, P, bytes, subgroup sizes)
// and the local computations that no collective ends.
#include <complex>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/cost/profile.hpp>
#include <llc/llc.hpp>

namespace {

using llc::cost::Expr;
using llc::cost::ExprKind;

/// The nodes of an expression in order, sequences flattened.
void flatten(const Expr& e, std::vector<Expr>& out) {
    if (e.kind() == ExprKind::sequence) {
        for (const Expr& child : e.children()) {
            flatten(child, out);
        }
    } else {
        out.push_back(e);
    }
}

void expect_mirrors(const Expr& expected, const std::vector<llc::TraceNode>& nodes, const std::string& where) {
    std::vector<Expr> steps;
    flatten(expected, steps);
    ASSERT_EQ(steps.size(), nodes.size()) << where;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const Expr& e = steps[i];
        const llc::TraceNode& t = nodes[i];
        const std::string at = where + "/" + std::to_string(i) + " " + e.label();
        if (e.kind() == ExprKind::compute) {
            // Local work that no collective ends: the trace records it at the end of a task or before
            // Trace::gather, under the label in force there, so only the kind is compared.
            EXPECT_EQ(t.kind, llc::StepKind::compute) << at;
            continue;
        }
        EXPECT_EQ(e.label(), t.label) << at;
        EXPECT_EQ(e.processors(), t.P) << at;
        EXPECT_DOUBLE_EQ(e.bytes(), static_cast<double>(t.bytes)) << at;
        if (e.kind() == ExprKind::normal) {
            EXPECT_EQ(t.kind, llc::StepKind::normal) << at;
            // The expression prices the block exchanges as cold swaps ("swap.cold"); the trace records the operation,
            // "swap" (and alltoallv as itself, which base_collective would fold onto alltoall).
            std::string op = e.op();
            if (op.ends_with(llc::cost::cold_suffix)) {
                op.erase(op.size() - llc::cost::cold_suffix.size());
            }
            EXPECT_EQ(op, t.op) << at;
            continue;
        }
        ASSERT_EQ(t.kind, llc::StepKind::division) << at;
        EXPECT_EQ(e.sizes(), t.sizes) << at;
        ASSERT_EQ(t.children.size(), e.children().size()) << at;
        for (const llc::TraceNode& task : t.children) {
            expect_mirrors(e.children()[static_cast<std::size_t>(task.task)],
                           task.children,
                           at + "/task" + std::to_string(task.task));
        }
    }
}

TEST(FftTraceTest, ExpressionMirrorsTheTrace) {
    auto& world = llc::Group::world();
    // Every table the expression reads, one price each (the shape, not the prices, is compared).
    const std::map<int, double> one{{10, 1e-9}};
    const llc::cost::FftConstants k{.leaf_by_size = one,
                                    .leaf_oop_by_size = one,
                                    .leaf_oop_solo_by_size = one,
                                    .leaf_strided_by_size = {{2, one}, {4, one}, {8, one}},
                                    .divide_by_size = one,
                                    .combine_by_size = one,
                                    .reorder_by_size = one,
                                    .leaf_dif_by_size = one,
                                    .llc_bytes = 1e9};
    for (const std::int64_t n : {std::int64_t{4096}, std::int64_t{1000}, std::int64_t{6}}) {
        for (const auto layout : {llc::FftLayout::replicated, llc::FftLayout::block}) {
            for (const auto order : {llc::FftOrder::natural, llc::FftOrder::scrambled}) {
                llc::FftPlan plan(world, n, {.layout = layout, .order = order});
                std::vector<std::complex<double>> x(static_cast<std::size_t>(plan.input_size()), {1.0, 0.5});
                llc::Trace::enable(true);
                world.restart_superstep_clock();  // enable() restarts the trace clock, not the groups' clocks
                (void)plan.execute(x);
                const llc::Trace trace = llc::Trace::gather(world);  // closes the trailing computation first
                llc::Trace::enable(false);
                if (world.rank() != 0) {
                    continue;
                }
                const Expr expected = llc::cost::fft(world.size(), n, layout, order, k);
                expect_mirrors(expected,
                               trace.merged().children,
                               std::string(llc::to_string(layout)) + "/" + std::string(llc::to_string(order)) +
                                   " n=" + std::to_string(n));
            }
        }
    }
}

}  // namespace
