// The walk of the optimal tree after the ring DP (matrix_chain.cpp's walk_tree): its trace against the cost
// expression's "mc.walk" steps when the expression is given the tree's levels.
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/group.hpp>
#include <llc/trace.hpp>

#include "trace_fixtures.hpp"

namespace {

using llc::Group;
using llc::test::matrix_chain::random_dims;
using llc::test::matrix_chain::shape_profile;

TEST(MatrixChain, TraceOfTheTreeWalkMirrorsItsGivenLevels) {
    // After "mc.result" the engine walks the optimal tree: one "mc.walk" allreduce per level, 8 bytes a node. Given
    // the levels of the tree it ran (its parenthesisation), the cost expression ends in the same steps, one by one.
    Group& g = Group::world();
    if (g.size() == 1) {
        GTEST_SKIP() << "one processor: no superstep";
    }
    std::mt19937_64 rng(5);
    for (const std::int64_t r : {1, 4, 7}) {
        const auto dims = random_dims(rng, 40, 30);
        llc::Trace::enable(true);
        g.restart_superstep_clock();
        const llc::MatrixChainResult result = llc::matrix_chain(g, dims, {.r = r});
        const llc::Trace trace = llc::Trace::gather(g);
        llc::Trace::enable(false);
        if (g.rank() != 0) {
            continue;
        }
        const std::vector<std::int64_t> levels = llc::cost::matrix_chain_walk_levels(result.parenthesization);
        EXPECT_GE(levels.size(), std::size_t{6}) << "39 internal nodes need at least 6 levels";
        const llc::cost::Expr expr = llc::cost::matrix_chain(g.size(), 40, r, shape_profile(), levels);
        const std::vector<llc::cost::Expr>& steps = expr.children();
        const std::vector<llc::TraceNode>& nodes = trace.merged().children;
        ASSERT_GE(nodes.size(), steps.size()) << "r=" << r;
        std::size_t walks = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string at = "r=" + std::to_string(r) + " step " + std::to_string(i);
            EXPECT_EQ(nodes[i].label, steps[i].label()) << at;
            // The trace records the operation ("shift"); the expression names the variant that prices it
            // ("shift.written"): the same step, as llc::cost::compare matches them.
            EXPECT_EQ(nodes[i].op, llc::cost::base_collective(steps[i].op())) << at;
            EXPECT_DOUBLE_EQ(static_cast<double>(nodes[i].bytes), steps[i].bytes()) << at;
            walks += steps[i].label() == std::string(llc::names::matrix_chain::walk) ? 1 : 0;
        }
        EXPECT_EQ(walks, levels.size()) << "r=" << r;
        // Nothing collective after the walk: whatever the trace holds beyond is local work.
        for (std::size_t i = steps.size(); i < nodes.size(); ++i) {
            EXPECT_NE(nodes[i].kind, llc::StepKind::normal) << "r=" << r << " node " << i << " " << nodes[i].label;
        }
    }
}

}  // namespace
