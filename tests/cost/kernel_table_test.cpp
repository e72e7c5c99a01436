// The shared per-size kernel helpers: the profile keys, the table read back from a Profile, the interpolation in
// log2 of the size, and the probes' timing and input values.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>

#include <gtest/gtest.h>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/error.hpp>
#include <llc/version.hpp>

namespace {

using llc::cost::kernel_per_unit;
using llc::cost::kernel_seconds;
using llc::cost::kernel_size_key;
using llc::cost::kernel_size_table;
using llc::cost::KernelSizeTable;
using llc::cost::Profile;
using llc::cost::rank0_kernel_key;
using llc::cost::rank0_kernel_name;
using llc::cost::solo_kernel_name;

TEST(KernelTableTest, key_names_the_power_of_two) {
    EXPECT_EQ(kernel_size_key("dp.step", 12), "dp.step.2^12");
    EXPECT_EQ(kernel_size_key("fft.leaf", 0), "fft.leaf.2^0");
}

TEST(KernelTableTest, table_reads_only_its_own_keys) {
    Profile p;
    p.set_kernel("dp.step.2^4", {3e-9, "step"});
    p.set_kernel("dp.step.2^10", {1e-9, "step"});
    p.set_kernel("dp.step", {7e-9, "step"});           // the single constant, not part of the table
    p.set_kernel("dp.step_solo.2^4", {5e-9, "step"});  // another table whose name starts alike
    const KernelSizeTable table = kernel_size_table(p, "dp.step");
    ASSERT_EQ(table.size(), 2U);
    EXPECT_DOUBLE_EQ(table.at(4), 3e-9);
    EXPECT_DOUBLE_EQ(table.at(10), 1e-9);
}

TEST(KernelTableTest, a_missing_table_is_an_error_naming_the_key_and_the_probe_version) {
    Profile p;
    p.set_kernel("dp.step.2^4", {3e-9, "step"});
    try {
        (void)kernel_size_table(p, "dp.other");
        FAIL() << "a missing table priced silently";
    } catch (const llc::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'dp.other.2^e'"), std::string::npos) << what;
        EXPECT_NE(what.find(std::string("llc-probe of llc ") + llc::version), std::string::npos) << what;
    }
    EXPECT_THROW((void)kernel_size_table(p, "dp.other", 1), llc::Error);
    EXPECT_NO_THROW((void)kernel_size_table(p, "dp.step", 1));  // no solo sizes: the side-by-side ones stand
}

TEST(KernelTableTest, one_processor_reads_the_solo_constants_where_measured) {
    Profile p;
    p.set_kernel("dp.step.2^4", {3e-9, "step"});
    p.set_kernel("dp.step.2^10", {1e-9, "step"});
    p.set_kernel(kernel_size_key(solo_kernel_name("dp.step"), 10), {0.5e-9, "step"});
    EXPECT_EQ(solo_kernel_name("dp.step"), "dp.step_solo");
    const KernelSizeTable one = kernel_size_table(p, "dp.step", 1);
    ASSERT_EQ(one.size(), 2U);
    EXPECT_DOUBLE_EQ(one.at(4), 3e-9);     // not measured alone: the side-by-side value
    EXPECT_DOUBLE_EQ(one.at(10), 0.5e-9);  // measured alone: that value
    const KernelSizeTable two = kernel_size_table(p, "dp.step", 2);
    EXPECT_DOUBLE_EQ(two.at(10), 1e-9);  // side by side for P > 1
}

TEST(KernelTableTest, rank0_keys_name_the_table_or_the_single_constant) {
    EXPECT_EQ(rank0_kernel_name("dt.edt_rows"), "dt.edt_rows_rank0");
    EXPECT_EQ(rank0_kernel_key("dt.edt_rows.2^12"), "dt.edt_rows_rank0.2^12");
    EXPECT_EQ(rank0_kernel_key("dt.edt_carry"), "dt.edt_carry_rank0");
    EXPECT_EQ(rank0_kernel_key("fft.leaf_oop_solo.2^9"), "fft.leaf_oop_solo_rank0.2^9");
}

TEST(KernelTableTest, one_processor_reads_rank0_then_solo_over_the_slowest_rank) {
    Profile p;
    p.set_kernel("dp.step.2^4", {3e-9, "step"});  // the slowest rank's, side by side
    p.set_kernel("dp.step.2^8", {2e-9, "step"});
    p.set_kernel("dp.step.2^10", {1e-9, "step"});
    p.set_kernel(rank0_kernel_key("dp.step.2^8"), {1.5e-9, "step"});
    p.set_kernel(rank0_kernel_key("dp.step.2^10"), {0.8e-9, "step"});
    p.set_kernel(kernel_size_key(solo_kernel_name("dp.step"), 10), {0.5e-9, "step"});
    const KernelSizeTable one = kernel_size_table(p, "dp.step", 1);
    ASSERT_EQ(one.size(), 3U);
    EXPECT_DOUBLE_EQ(one.at(4), 3e-9);     // neither on rank 0 nor alone: the side-by-side value
    EXPECT_DOUBLE_EQ(one.at(8), 1.5e-9);   // rank 0's own
    EXPECT_DOUBLE_EQ(one.at(10), 0.5e-9);  // alone on the node wins over rank 0 side by side
    const KernelSizeTable two = kernel_size_table(p, "dp.step", 2);
    EXPECT_DOUBLE_EQ(two.at(8), 2e-9);  // P > 1: the slowest rank's
    EXPECT_DOUBLE_EQ(two.at(10), 1e-9);
    EXPECT_EQ(kernel_size_table(p, "dp.step").at(8), 2e-9);  // the plain table is the side-by-side one
}

TEST(KernelTableTest, single_constant_on_one_processor_is_rank0s_where_measured) {
    Profile p;
    p.set_kernel("dp.carry", {4e-9, "carry"});
    EXPECT_DOUBLE_EQ(kernel_seconds(p, "dp.carry", 1), 4e-9);  // no rank-0 value: the side-by-side one
    p.set_kernel(rank0_kernel_key("dp.carry"), {3e-9, "carry"});
    EXPECT_DOUBLE_EQ(kernel_seconds(p, "dp.carry", 1), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_seconds(p, "dp.carry", 2), 4e-9);
    EXPECT_THROW((void)kernel_seconds(p, "dp.other", 1), llc::Error);
}

TEST(KernelTableTest, per_unit_is_linear_in_log2_between_sizes_and_flat_outside) {
    const KernelSizeTable table{{4, 4.0}, {8, 2.0}};
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 16.0, 0.0), 4.0);    // a measured size
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 256.0, 0.0), 2.0);   // the other one
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 64.0, 0.0), 3.0);    // 2^6: half way in log2
    EXPECT_NEAR(kernel_per_unit(table, 32.0, 0.0), 3.5, 1e-12);  // 2^5: a quarter of the way
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 2.0, 0.0), 4.0);     // below the smallest: its value
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 1.0, 0.0), 4.0);     // size 1 (log2 = 0)
    EXPECT_DOUBLE_EQ(kernel_per_unit(table, 1e9, 0.0), 2.0);     // above the largest: its value
    EXPECT_DOUBLE_EQ(kernel_per_unit({}, 64.0, 9.0), 9.0);       // empty: the fallback
}

TEST(KernelTimingTest, median_of_a_call_that_takes_a_known_time) {
    // A body that busy-waits about 1 ms: the median of its samples is at least that and not far above it.
    const auto wait_1ms = [] {
        const auto start = std::chrono::steady_clock::now();
        while (std::chrono::steady_clock::now() - start < std::chrono::microseconds(1000)) {
        }
    };
    const double t = llc::cost::median_seconds_per_call(true, wait_1ms);
    EXPECT_GE(t, 1e-3);
    EXPECT_LT(t, 50e-3);
}

TEST(KernelTimingTest, settled_is_a_spread_of_at_most_two_percent_of_the_smallest) {
    using llc::cost::settled;
    EXPECT_TRUE(settled({1.00, 1.01, 1.019}));
    EXPECT_TRUE(settled({2.0, 2.0, 2.0}));
    EXPECT_FALSE(settled({1.00, 1.03, 1.01}));   // 3 %
    EXPECT_FALSE(settled({1.02, 0.99, 1.005}));  // the smallest is not first: 3.0 %
    EXPECT_FALSE(settled({1.0, 2.0, 1.0}));
}

TEST(KernelTimingTest, a_quick_probe_takes_five_samples_unless_its_first_three_are_settled) {
    // The most calls of three tries: a loaded machine may stretch a warm-up past a third of the budget, and the probe
    // then takes one sample.
    const auto most_calls = [](bool quick, auto micros) {
        int most = 0;
        for (int attempt = 0; attempt < 3; ++attempt) {
            int calls = 0;
            const auto body = [&] {
                const auto wait = std::chrono::microseconds(micros(calls++));
                const auto start = std::chrono::steady_clock::now();
                while (std::chrono::steady_clock::now() - start < wait) {
                }
            };
            (void)llc::cost::median_seconds_per_call(quick, body);
            most = std::max(most, calls);
        }
        return most;
    };
    // Calls alternating 1 ms and 3 ms never settle: the warm-up and five samples, as before the early stop.
    EXPECT_EQ(most_calls(true, [](int call) { return call % 2 == 0 ? 1000 : 3000; }), 6);
    // A full probe never stops early: the warm-up and nine samples of a steady 1 ms call (budget 1.5 s).
    EXPECT_EQ(most_calls(false, [](int) { return 1000; }), 10);
}

TEST(KernelTableTest, by_footprint_reads_between_the_cache_and_the_memory_tables) {
    using llc::cost::kernel_per_unit_by_footprint;
    const llc::cost::KernelSizeTable cache = {{4, 1e-9}, {6, 3e-9}};
    const llc::cost::KernelSizeTable memory = {{4, 5e-9}, {6, 1e-9}};
    constexpr double small = 1 << 20;  // the in-cache table's data
    constexpr double big = 1 << 26;    // the streamed table's data
    // In the caches, in memory, and half-way in log2 of the bytes (2^23), at a size in each table and between.
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 16.0, 1 << 10, small, big), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 16.0, small, small, big), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 16.0, big, small, big), 5e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 64.0, 1e12, small, big), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 16.0, 1 << 23, small, big), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, memory, 32.0, 1 << 23, small, big), 2.5e-9);
    // Without the streamed table: the in-cache one at every footprint.
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_footprint(cache, {}, 64.0, 1e12, small, big), 3e-9);
}

TEST(KernelTableTest, by_cache_reads_the_table_on_the_working_sets_side_of_the_effective_cache) {
    using llc::cost::kernel_per_unit_by_cache;
    const llc::cost::KernelSizeTable cache = {{4, 1e-9}, {6, 3e-9}};
    const llc::cost::KernelSizeTable memory = {{4, 5e-9}, {6, 1e-9}};
    constexpr double small = 1 << 20;  // the in-cache table's data
    constexpr double big = 1 << 26;    // the streamed table's data
    constexpr double step = 1 << 24;   // the effective cache, between them
    // Up to the step the in-cache table, past it the streamed one: never the blend (3e-9 at 2^23 and x = 16 above).
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 23, small, big, step, 1), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, step, small, big, step, 1), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, step + 1, small, big, step, 1), 5e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 32.0, 1 << 25, small, big, step, 1), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 32.0, 1 << 23, small, big, step, 1), 2e-9);
    // Two ranks sharing the cache: 2^23 bytes each is the step's 2^24, 2^23 + 1 each is past it.
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 23, small, big, step, 2), 1e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, (1 << 23) + 1, small, big, step, 2), 5e-9);
    // A streamed probe that fits the effective cache still prices what lies beyond it (the slowest measured).
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 25, small, 1 << 23, step, 1), 5e-9);
    // No step recorded, no streamed table, or an in-cache probe that does not fit: the blend, as before.
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 23, small, big, 0.0, 1), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, {}, 64.0, 1e12, small, big, step, 1), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 23, small, big, 1 << 19, 1), 3e-9);
    EXPECT_DOUBLE_EQ(kernel_per_unit_by_cache(cache, memory, 16.0, 1 << 23, small, big, 1 << 20, 2), 3e-9);
}

TEST(KernelTableTest, ranks_sharing_the_cache_are_those_a_node_held) {
    using llc::cost::ranks_sharing_cache;
    llc::cost::ProfileMeta meta;
    EXPECT_EQ(ranks_sharing_cache(meta, 1), 1);
    EXPECT_EQ(ranks_sharing_cache(meta, 4), 4);  // nothing recorded: every rank on one node
    meta.world_size = 2;
    EXPECT_EQ(ranks_sharing_cache(meta, 1), 1);
    EXPECT_EQ(ranks_sharing_cache(meta, 2), 2);
    EXPECT_EQ(ranks_sharing_cache(meta, 8), 2);
    meta.world_size = 16;
    meta.nodes = {4, 4, 4, 3};
    EXPECT_EQ(ranks_sharing_cache(meta, 2), 2);
    EXPECT_EQ(ranks_sharing_cache(meta, 16), 4);
}

TEST(KernelTimingTest, probe_values_are_reproducible_in_range_and_not_constant) {
    llc::cost::ProbeValues a(42);
    llc::cost::ProbeValues b(42);
    std::set<double> seen;
    for (int i = 0; i < 1000; ++i) {
        const double x = a();
        EXPECT_EQ(x, b());
        EXPECT_GE(x, -1.0);
        EXPECT_LT(x, 1.0);
        seen.insert(x);
    }
    EXPECT_GT(seen.size(), 990U);
    EXPECT_NE(llc::cost::ProbeValues(1)(), llc::cost::ProbeValues(2)());
}

}  // namespace
