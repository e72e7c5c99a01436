// The trace: structure of normal and division supersteps, max over processors, and the communicator cache.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <llc/llc.hpp>

namespace {

llc::Group& world() {
    return llc::Group::world();
}

std::vector<int> recurse(llc::Group& g, int depth) {
    if (depth == 0) {
        return {g.size()};
    }
    auto [a, b] = llc::par(
        g, [&](llc::Group& s) { return recurse(s, depth - 1); }, [&](llc::Group& s) { return recurse(s, depth - 1); });
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

TEST(TraceTest, RecordsNormalAndDivisionSupersteps) {
    auto& g = world();
    llc::Trace::enable(true);
    {
        const llc::Label label("sum");
        (void)g.allreduce(1, llc::Op::sum);
    }
    (void)recurse(g, 2);
    g.barrier();
    const llc::Trace trace = llc::Trace::gather(g);
    llc::Trace::enable(false);
    if (g.rank() != 0) {
        EXPECT_TRUE(trace.empty());
        return;
    }
    const llc::TraceNode& root = trace.merged();
    EXPECT_EQ(root.ranks, g.size());
    ASSERT_EQ(root.children.size(), 4U);  // allreduce, par, barrier, and the local work closed by gather
    EXPECT_EQ(root.children[0].kind, llc::StepKind::normal);
    EXPECT_EQ(root.children[0].label, "sum");
    EXPECT_EQ(root.children[0].op, "allreduce");
    EXPECT_EQ(root.children[0].P, g.size());
    const llc::TraceNode& division = root.children[1];
    EXPECT_EQ(division.kind, llc::StepKind::division);
    EXPECT_EQ(division.op, "par");
    ASSERT_EQ(division.children.size(), 2U);  // both tasks, whichever processors ran them
    EXPECT_EQ(division.children[0].task, 0);
    EXPECT_EQ(division.children[1].task, 1);
    if (g.size() >= 4) {
        // Second level: each task divided again.
        ASSERT_FALSE(division.children[0].children.empty());
        EXPECT_EQ(division.children[0].children[0].kind, llc::StepKind::division);
        EXPECT_EQ(division.children[0].children[0].P, (g.size() + 1) / 2);
    }
    if (g.size() > 1) {
        EXPECT_GT(division.bytes, 0U);
    }
    EXPECT_EQ(root.children[2].op, "barrier");
    EXPECT_EQ(root.children[3].kind, llc::StepKind::compute);
    // Every task of a division ends with its trailing local work (all of it for a leaf).
    EXPECT_EQ(division.children[0].children.back().kind, llc::StepKind::compute);
    EXPECT_GE(division.total(), division.exchange);
    // Round trip through JSON keeps the tree.
    const llc::TraceNode back = llc::trace_from_json(llc::to_json(root));
    EXPECT_EQ(back.children.size(), root.children.size());
    EXPECT_EQ(back.children[1].children.size(), 2U);
    EXPECT_NE(trace.chrome_json().find("traceEvents"), std::string::npos);
}

void busy_wait(double seconds) {
    const double end = MPI_Wtime() + seconds;
    while (MPI_Wtime() < end) {
    }
}

TEST(TraceTest, DivisionChargesWorkBeforeItAndTasksInTurn) {
    auto& g = world();
    g.barrier();
    llc::Trace::enable(true);
    g.barrier();
    busy_wait(0.05);  // local work before the division: its W
    // Three tasks of 0.02 s; with P < 3 some processor runs several in turn.
    (void)llc::weighted_par(g, {1.0, 1.0, 1.0}, [](llc::Group&, int t) {
        busy_wait(0.02);
        return t;
    });
    g.barrier();
    const llc::Trace trace = llc::Trace::gather(g);
    llc::Trace::enable(false);
    if (g.rank() != 0) {
        return;
    }
    const llc::TraceNode& division = trace.merged().children.at(1);
    ASSERT_EQ(division.kind, llc::StepKind::division);
    EXPECT_GE(division.compute, 0.045);
    const int most_tasks_per_processor = g.size() >= 3 ? 1 : (g.size() == 2 ? 2 : 3);
    EXPECT_GE(division.tasks, 0.019 * most_tasks_per_processor);
    EXPECT_GE(division.total(), division.compute + division.tasks);
}

TEST(TraceTest, ShiftIsANormalSuperstep) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    // Uneven: rank r sends r + 1 doubles and receives what its predecessor sends.
    const std::vector<double> send(static_cast<std::size_t>(me + 1), 1.0);
    std::vector<double> recv(static_cast<std::size_t>((me + P - 1) % P + 1));
    g.barrier();
    llc::Trace::enable(true);
    g.shift(std::span<const double>(send), std::span<double>(recv));
    busy_wait(0.03);  // the next superstep's W: the shift's agreement checks must not take it
    g.barrier();
    const llc::Trace trace = llc::Trace::gather(g);
    llc::Trace::enable(false);
    if (me != 0) {
        return;
    }
    ASSERT_EQ(trace.per_rank().size(), static_cast<std::size_t>(P));
    for (int q = 0; q < P; ++q) {
        const llc::TraceNode& root = trace.per_rank()[static_cast<std::size_t>(q)];
        ASSERT_GE(root.children.size(), 2U);
        const llc::TraceNode& shift = root.children[0];
        EXPECT_EQ(shift.kind, llc::StepKind::normal);
        EXPECT_EQ(shift.op, "shift");
        EXPECT_EQ(shift.label, "shift");
        EXPECT_EQ(shift.P, P);
        const std::uint64_t sent = static_cast<std::uint64_t>(q + 1) * sizeof(double);
        const std::uint64_t received = static_cast<std::uint64_t>((q + P - 1) % P + 1) * sizeof(double);
        EXPECT_EQ(shift.bytes, sent + received) << "rank " << q;
        const llc::TraceNode& barrier = root.children[1];
        EXPECT_EQ(barrier.op, "barrier");
        EXPECT_GE(barrier.compute, 0.025) << "rank " << q;
    }
    const llc::TraceNode& merged = trace.merged().children.at(0);
    EXPECT_EQ(merged.op, "shift");
    // The maximum over ranks: the last rank sends P and receives P - 1 (at P = 1: one each way).
    EXPECT_EQ(merged.bytes, static_cast<std::uint64_t>(P == 1 ? 2 : 2 * P - 1) * sizeof(double));
}

TEST(TraceTest, SplitPhaseShiftCountsTheOverlappingWorkAsW) {
    auto& g = world();
    const std::vector<double> send(1000, 1.0);
    std::vector<double> recv(1000);
    g.barrier();
    llc::Trace::enable(true);
    busy_wait(0.01);  // work before the start
    llc::ShiftInFlight flight = g.shift_start(std::span<const double>(send), std::span<double>(recv));
    busy_wait(0.03);  // work while the messages are in flight
    flight.wait();
    busy_wait(0.02);  // the next superstep's W
    g.barrier();
    const llc::Trace trace = llc::Trace::gather(g);
    llc::Trace::enable(false);
    if (g.rank() != 0) {
        return;
    }
    for (const llc::TraceNode& root : trace.per_rank()) {
        ASSERT_GE(root.children.size(), 2U);
        const llc::TraceNode& shift = root.children[0];
        EXPECT_EQ(shift.kind, llc::StepKind::normal);
        EXPECT_EQ(shift.op, "shift.overlap");
        EXPECT_EQ(shift.P, g.size());
        EXPECT_EQ(shift.bytes, 2000 * sizeof(double));
        EXPECT_GE(shift.compute, 0.039);  // both pieces of work
        // No bound on shift.comm: oversubscribed, a rank waits for its neighbours' time slices, not for the network.
        EXPECT_GE(shift.comm, 0.0);
        const llc::TraceNode& barrier = root.children[1];
        EXPECT_EQ(barrier.op, "barrier");
        EXPECT_GE(barrier.compute, 0.019);
        // The next superstep starts where the shift's ended: its work did not leak into the barrier's W.
        EXPECT_GE(barrier.start, shift.start + shift.compute + shift.comm - 1e-9);
    }
}

TEST(TraceTest, MergeTakesMaximaAndMinimumStartWithoutCountingAWaitTwice) {
    llc::TraceNode a;
    llc::TraceNode step;
    step.label = "x";
    step.kind = llc::StepKind::normal;
    step.op = "bcast";
    step.P = 2;
    step.bytes = 8;
    step.start = 1.0;
    step.compute = 0.5;
    step.comm = 0.1;
    a.children.push_back(step);
    llc::TraceNode b = a;
    b.children[0].start = 0.5;
    b.children[0].compute = 0.2;
    b.children[0].comm = 0.3;
    llc::merge_into(a, b);
    EXPECT_EQ(a.ranks, 2);
    EXPECT_DOUBLE_EQ(a.children[0].start, 0.5);
    EXPECT_DOUBLE_EQ(a.children[0].compute, 0.5);
    // The slowest processor's step is a's, 0.5 + 0.1: b's 0.3 of communication is mostly its wait for a's W, and
    // the merged step must not count it on top of a's W (0.5 + 0.3).
    EXPECT_DOUBLE_EQ(a.children[0].comm, 0.1);
    EXPECT_DOUBLE_EQ(a.children[0].total(), 0.6);
}

TEST(TraceTest, MergedNormalStepIsTheSlowestProcessorsStep) {
    llc::TraceNode step;
    step.kind = llc::StepKind::normal;
    step.compute = 0.2;
    step.comm = 0.5;  // the slowest whole step, with the lighter W
    llc::TraceNode other = step;
    other.compute = 0.4;
    other.comm = 0.1;
    llc::merge_into(step, other);
    EXPECT_DOUBLE_EQ(step.compute, 0.4);
    EXPECT_DOUBLE_EQ(step.comm, 0.3);
    EXPECT_DOUBLE_EQ(step.total(), 0.7);
}

TEST(SubgroupCacheTest, RepeatedDivisionsDoNotSplitAgain) {
    auto& g = world();
    const int before = g.splits();
    (void)recurse(g, 3);
    const int first = g.splits();
    for (int i = 0; i < 5; ++i) {
        (void)recurse(g, 3);
    }
    EXPECT_EQ(g.splits(), first);
    // At most one split of the world for the halves' shape (none if an earlier test made it, none at P = 1, where
    // the tasks run in turn on the cached self group).
    EXPECT_LE(first - before, 1);
    EXPECT_EQ(g.depth(), 0);
}

TEST(SubgroupTest, DepthParentAndPath) {
    auto& g = world();
    auto [depth, path_ok] = llc::par(
        g, [&](llc::Group& s) { return s.depth(); }, [&](llc::Group& s) { return s.parent() == &g ? 1 : 0; });
    EXPECT_EQ(depth, 1);
    EXPECT_EQ(path_ok, 1);
}

}  // namespace
