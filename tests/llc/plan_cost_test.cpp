// Plans expose their cost (issue #30): FftPlan::cost(profile) and SymmetricMatrix::cost(profile, overlap), symv's plan,
// are the expressions their cards' cost functions give for the same P, n and options — node for node (JSON) and
// priced alike under CCM — and name a missing kernel table as those functions do. At every P.
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/profile.hpp>
#include <llc/llc.hpp>

#include "structure_profile.hpp"

namespace {

/// Every key the probes write (value per key so that a swapped key changes the price), and every collective.
llc::cost::Profile profile_of(const std::vector<llc::cost::KernelProbe>& probes, int max_P) {
    namespace op = llc::names::op;
    llc::cost::Profile profile = llc::test::structure_profile(max_P,
                                                              {},
                                                              {op::allgather,
                                                               op::alltoall,
                                                               op::swap,
                                                               op::swap_cold,
                                                               op::swap_cold_heap,
                                                               op::shift,
                                                               op::shift_overlap,
                                                               op::allreduce,
                                                               op::barrier});
    double value = 1e-9;
    for (const llc::cost::KernelProbe& probe : probes) {
        for (const std::string& name : {probe.name, probe.solo_name}) {
            if (!name.empty()) {
                profile.set_kernel(name, {value, probe.unit});
                value += 1e-11;
            }
        }
    }
    return profile;
}

TEST(PlanCost, FftPlanIsTheCostFunction) {
    llc::Group& g = llc::Group::world();
    const llc::cost::Profile profile = profile_of(llc::detail::fft::kernel_probes(), g.size());
    const auto ccm = llc::cost::make_model("ccm", profile);
    for (const std::int64_t n : {6, 64, 1024}) {
        for (const auto layout : {llc::FftLayout::block, llc::FftLayout::replicated}) {
            for (const auto order : {llc::FftOrder::natural, llc::FftOrder::scrambled}) {
                const llc::FftPlan plan(g, n, {.layout = layout, .order = order});
                const llc::cost::Expr expected = llc::cost::fft(g.size(), n, layout, order, profile);
                const llc::cost::Expr got = plan.cost(profile);
                EXPECT_EQ(got.to_json(), expected.to_json()) << "n " << n;
                EXPECT_GT(llc::cost::predict(got, *ccm), 0.0);
                EXPECT_EQ(llc::cost::predict(got, *ccm), llc::cost::predict(expected, *ccm));
            }
        }
    }
    const llc::FftPlan plan(g, 64);
    EXPECT_THROW((void)plan.cost(llc::cost::Profile{}), llc::Error);  // no kernel tables: named, never a fallback
}

TEST(PlanCost, SymmetricMatrixIsTheCostFunction) {
    llc::Group& g = llc::Group::world();
    const llc::cost::Profile profile = profile_of(llc::detail::symv::kernel_probes(), g.size());
    const auto ccm = llc::cost::make_model("ccm", profile);
    for (const auto mapping : {llc::SymvMapping::reflection, llc::SymvMapping::standard}) {
        for (const std::int64_t n : {5, 64, 300}) {
            const llc::SymmetricMatrix<double> A(
                g, n, [](std::int64_t, std::int64_t) { return 1.0; }, mapping);
            for (const bool overlap : {true, false}) {
                const llc::cost::Expr expected = llc::cost::symv(g.size(), n, mapping, profile, overlap);
                EXPECT_EQ(A.cost(profile, overlap).to_json(), expected.to_json()) << "n " << n;
                EXPECT_GT(llc::cost::predict(A.cost(profile, overlap), *ccm), 0.0);
            }
        }
    }
}

TEST(PlanCost, SymvFromBlocksAddsTheRedistributionsItRuns) {
    llc::Group& g = llc::Group::world();
    const llc::cost::Profile profile = profile_of(llc::detail::symv::kernel_probes(), g.size());
    const std::int64_t n = 19;
    for (const auto mapping : {llc::SymvMapping::reflection, llc::SymvMapping::standard}) {
        const llc::SymmetricMatrix<double> A(
            g, n, [](std::int64_t, std::int64_t) { return 1.0; }, mapping);
        const llc::BlockDistribution blocks(n, g.size());
        for (const double beta : {0.0, 1.0}) {
            const llc::cost::Expr expr = llc::cost::symv(g.size(), n, mapping, blocks, profile, true, beta != 0.0);
            // The redistributions the call runs: one superstep "alltoallv" each in its trace.
            std::vector<double> x(static_cast<std::size_t>(blocks.local_size(g.rank())), 1.0);
            std::vector<double> y(x.size(), 1.0);
            llc::Trace::enable(true);
            llc::symv(g, 1.0, A, x, beta, y);
            const llc::TraceNode record = llc::Trace::local();
            llc::Trace::enable(false);
            int traced = 0;
            for (const llc::TraceNode& node : record.children) {
                traced += node.op == "alltoallv" ? 1 : 0;
            }
            int priced = 0;
            for (const llc::cost::Expr& item : expr.children()) {
                priced += item.op() == "alltoallv" ? 1 : 0;
            }
            const bool moves = mapping == llc::SymvMapping::reflection && g.size() > 1;
            EXPECT_EQ(traced, moves ? (beta != 0.0 ? 3 : 2) : 0) << llc::to_string(mapping);
            EXPECT_EQ(priced, traced) << llc::to_string(mapping);
            if (!moves) {
                EXPECT_EQ(expr.to_json(), A.cost(profile).to_json());
            }
        }
    }
}

}  // namespace
