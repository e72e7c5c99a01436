// llc::tools' timing rule: the batch, the agreement of every rank on each sample, and the stop rule of a run.
#include <atomic>
#include <cmath>
#include <chrono>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <mpi.h>

#include <llc/tools/timing.hpp>

namespace {

int world_size() {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}

int world_rank() {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/// Every rank's copy of `values`, gathered, must be equal to rank 0's.
void expect_same_everywhere(const std::vector<double>& values) {
    std::vector<double> root = values;
    MPI_Bcast(root.data(), static_cast<int>(root.size()), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    EXPECT_EQ(values, root);
}

TEST(ToolsTiming, BatchIsOneOnSeveralProcessorsAndFillsASampleOnOne) {
    using llc::tools::batch_for;
    using llc::tools::max_batch;
    using llc::tools::min_sample_seconds;
    EXPECT_EQ(batch_for(MPI_COMM_SELF, 1e-7), static_cast<int>(std::ceil(min_sample_seconds / 1e-7)));
    EXPECT_EQ(batch_for(MPI_COMM_SELF, min_sample_seconds), 1);
    EXPECT_EQ(batch_for(MPI_COMM_SELF, 1.0), 1);
    EXPECT_EQ(batch_for(MPI_COMM_SELF, 0.0), max_batch);
    EXPECT_EQ(batch_for(MPI_COMM_SELF, 1e-12), max_batch);
    EXPECT_EQ(batch_for(MPI_COMM_WORLD, 1e-7),
              world_size() > 1 ? 1 : static_cast<int>(std::ceil(min_sample_seconds / 1e-7)));
}

TEST(ToolsTiming, SampleIsTheSlowestRankPerCall) {
    // Rank r sleeps (r + 1) ms per call: the sample is the last rank's time per call, on every rank.
    const int rank = world_rank();
    const auto nap = std::chrono::milliseconds(rank + 1);
    const double t = llc::tools::time_sample(MPI_COMM_WORLD, 3, [&] { std::this_thread::sleep_for(nap); });
    EXPECT_GE(t, 1e-3 * world_size());
    EXPECT_LT(t, 1e-3 * world_size() + 0.05);
    expect_same_everywhere({t});
}

TEST(ToolsTiming, SampleOnRankCountsOnlyThatRank) {
    const int rank = world_rank();
    const int who = world_size() - 1;
    const double t = llc::tools::time_sample_on_rank(
        MPI_COMM_WORLD, who, 2, [&] { std::this_thread::sleep_for(std::chrono::milliseconds(rank == who ? 2 : 0)); });
    EXPECT_GE(t, 2e-3);
    EXPECT_LT(t, 0.05);
    expect_same_everywhere({t});
}

TEST(ToolsTiming, RunStopsAtTheRuleAndRanksAgree) {
    int calls = 0;
    // max_samples bounds the run; a warm-up call comes first (batch 1 for a 1 ms body).
    const llc::tools::SamplingRule capped{3, 6, 1e9, 0.0};
    const auto capped_samples = llc::tools::sample(
        MPI_COMM_WORLD,
        [&] {
            ++calls;
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        },
        capped);
    EXPECT_EQ(capped_samples.size(), 6U);
    EXPECT_EQ(calls, 7);
    expect_same_everywhere(capped_samples);

    // A spent budget stops the run at min_samples.
    const llc::tools::SamplingRule budget{4, 100, 1e-9, 0.0};
    const auto budget_samples = llc::tools::sample(
        MPI_COMM_WORLD, [] { std::this_thread::sleep_for(std::chrono::microseconds(200)); }, budget);
    EXPECT_EQ(budget_samples.size(), 4U);
    expect_same_everywhere(budget_samples);
}

TEST(ToolsTiming, ShortCallsOnOneProcessorAreBatched) {
    std::atomic<long> calls{0};
    const llc::tools::SamplingRule rule{3, 3, 1e9, 0.0};
    const auto samples = llc::tools::sample(
        MPI_COMM_SELF, [&] { calls.fetch_add(1, std::memory_order_relaxed); }, rule);
    ASSERT_EQ(samples.size(), 3U);
    // A call that does almost nothing takes far less than min_sample_seconds: each sample batches several calls.
    EXPECT_GT(calls.load(), 1 + 3);
    for (const double s : samples) {
        EXPECT_LT(s, llc::tools::min_sample_seconds);
    }
}

}  // namespace
