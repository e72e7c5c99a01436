// The engine's kept arrays under a program's control (llc::release_matrix_chain_cache, set_matrix_chain_cache_limit,
// matrix_chain_cache_usage): a release empties the cache, a limit of 0 keeps nothing, and every run after them is
// still right against the textbook DP (textbook_dp.hpp, which shares no code with the library).
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/group.hpp>

#include "textbook_dp.hpp"

namespace {

using llc::test::interval_dp::textbook_table;

/// n = 600 matrices: each rank's table holds its costs in an array of 256 KiB or more at P ≤ 2, the size the engine
/// keeps (smaller arrays are left to the allocator).
constexpr int matrices = 600;

std::vector<std::int64_t> chain_dims() {
    std::mt19937_64 rng(23);
    std::uniform_int_distribution<std::int64_t> dim(1, 300);
    std::vector<std::int64_t> dims(matrices + 1);
    for (auto& d : dims) {
        d = dim(rng);
    }
    return dims;
}

/// Runs matrix_chain, checks its cost and every owned split against the textbook DP, and drops the
/// result (its arrays go back to the engine).
void run_and_check(const std::vector<std::int64_t>& dims, const char* when) {
    llc::Group& g = llc::Group::world();
    const auto& oracle = textbook_table(dims);
    const std::int64_t want = oracle.cost;
    const std::vector<std::int32_t>& split = oracle.split;
    const llc::MatrixChainResult got = llc::matrix_chain(g, dims);
    const std::int64_t n = got.table.n();
    ASSERT_EQ(n, matrices);
    EXPECT_EQ(got.cost, want) << when;
    // (The parenthesisation follows from the splits, checked here entry by entry; matrix_chain_test checks the string.)
    for (std::int64_t j = 0; j < n; ++j) {
        for (std::int64_t i = 0; got.table.owns(j) && i < j; ++i) {
            ASSERT_EQ(got.table.split(i, j), split[static_cast<std::size_t>(i * n + j)])
                << when << " (" << i << "," << j << ")";
        }
    }
}

TEST(MatrixChainCache, ReleaseAndLimitFreeAndRunsStayRight) {
    const auto dims = chain_dims();
    EXPECT_EQ(llc::matrix_chain_cache_usage().limit_bytes, llc::matrix_chain_cache_default_limit);

    run_and_check(dims, "first run");
    const llc::MatrixChainCacheUsage kept = llc::matrix_chain_cache_usage();
    EXPECT_GT(kept.bytes, 0U) << "a dropped result's large arrays are kept";
    EXPECT_GT(kept.arrays, 0U);

    llc::release_matrix_chain_cache();
    const llc::MatrixChainCacheUsage released = llc::matrix_chain_cache_usage();
    EXPECT_EQ(released.bytes, 0U);
    EXPECT_EQ(released.arrays, 0U);
    EXPECT_EQ(released.limit_bytes, llc::matrix_chain_cache_default_limit);  // a release does not change the limit

    run_and_check(dims, "after a release");
    EXPECT_GT(llc::matrix_chain_cache_usage().bytes, 0U) << "kept again after the release";
    run_and_check(dims, "on the kept arrays");  // takes the arrays the last run gave back

    EXPECT_EQ(llc::set_matrix_chain_cache_limit(0), llc::matrix_chain_cache_default_limit);
    EXPECT_EQ(llc::matrix_chain_cache_usage().bytes, 0U) << "a lower limit frees what is above it";
    run_and_check(dims, "with a limit of 0");
    EXPECT_EQ(llc::matrix_chain_cache_usage().bytes, 0U) << "a limit of 0 keeps nothing";
    EXPECT_EQ(llc::matrix_chain_cache_usage().limit_bytes, 0U);

    EXPECT_EQ(llc::set_matrix_chain_cache_limit(llc::matrix_chain_cache_default_limit), 0U);
    run_and_check(dims, "with the limit restored");
    EXPECT_GT(llc::matrix_chain_cache_usage().bytes, 0U);
    llc::release_matrix_chain_cache();
}

TEST(MatrixChainCache, ARunKeepsItsFourArraysOnly) {
    // A run's large arrays are its costs, its splits and its two message buffers, each taken once at its largest
    // size: a run that grew its buffers step by step gave its outgrown ones back too (5 arrays at n = 600), and the 16
    // the cache keeps then no longer held the tables of the run before (a loop alternating two configurations faulted
    // its tables in again).
    const auto dims = chain_dims();
    llc::release_matrix_chain_cache();
    run_and_check(dims, "first run");
    const llc::MatrixChainCacheUsage once = llc::matrix_chain_cache_usage();
    EXPECT_GE(once.arrays, 2U) << "the costs and the splits are kept";
    EXPECT_LE(once.arrays, 4U) << "costs, splits and two message buffers, no more";
    run_and_check(dims, "second run");
    const llc::MatrixChainCacheUsage twice = llc::matrix_chain_cache_usage();
    EXPECT_EQ(twice.arrays, once.arrays) << "the second run took the first run's arrays";
    EXPECT_EQ(twice.bytes, once.bytes);
    llc::release_matrix_chain_cache();
}

}  // namespace
