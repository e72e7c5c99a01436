// The effective last-level cache rule (llc/cost/cache_step.hpp) on synthetic swap medians whose step is known by
// construction, and its place in the profile's meta. Expected values are written out by hand, not computed by the rule.
#include <algorithm>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/cache_step.hpp>
#include <llc/cost/profile.hpp>

namespace {

using llc::cost::Profile;
using llc::cost::Sample;

constexpr double MiB = 1024.0 * 1024.0;

/// Working sets 64 KiB … 256 MiB (powers of two), priced `cache` s/B up to and including `last_in_cache` bytes and
/// `memory` s/B above it, plus a fixed 2 µs latency.
std::vector<Sample> step_samples(double last_in_cache, double cache, double memory) {
    std::vector<Sample> s;
    for (double b = 64.0 * 1024; b <= 256.0 * MiB; b *= 2.0) {
        s.push_back({b, 2e-6 + b * (b <= last_in_cache ? cache : memory)});
    }
    return s;
}

TEST(CacheStepTest, plateau_step_plateau_gives_the_last_size_at_cache_speed) {
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(step_samples(32.0 * MiB, 1e-11, 8e-11)), 32.0 * MiB);
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(step_samples(4.0 * MiB, 1e-11, 8e-11)), 4.0 * MiB);
}

TEST(CacheStepTest, the_samples_order_does_not_matter) {
    std::vector<Sample> s = step_samples(16.0 * MiB, 1e-11, 5e-11);
    std::reverse(s.begin(), s.end());
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(s), 16.0 * MiB);
    std::rotate(s.begin(), s.begin() + 5, s.end());
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(s), 16.0 * MiB);
}

TEST(CacheStepTest, a_middle_plateau_nearer_cache_speed_counts_as_cache) {
    // As on the 2-core VM: ~1e-11 s/B to 1 MiB (L2), ~3.8e-11 to 32 MiB (L3 as the VM gives it), ~8e-11 beyond.
    std::vector<Sample> s = step_samples(32.0 * MiB, 3.8e-11, 8e-11);
    for (Sample& x : s) {
        if (x.bytes <= 1.0 * MiB) {
            x.seconds = 2e-6 + x.bytes * 1e-11;
        }
    }
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(s), 32.0 * MiB);
}

TEST(CacheStepTest, one_fast_sample_among_the_slow_ones_does_not_move_the_step) {
    std::vector<Sample> s = step_samples(32.0 * MiB, 1e-11, 8e-11);
    for (Sample& x : s) {
        if (x.bytes == 128.0 * MiB) {
            x.seconds = x.bytes * 1e-11;  // priced at cache speed by noise
        }
    }
    EXPECT_DOUBLE_EQ(llc::cost::effective_cache_bytes(s), 32.0 * MiB);
}

TEST(CacheStepTest, no_step_or_too_few_samples_is_not_found) {
    // Flat: memory speed within 1.5 × cache speed.
    EXPECT_EQ(llc::cost::effective_cache_bytes(step_samples(32.0 * MiB, 1e-11, 1.4e-11)), 0.0);
    // All in cache up to the largest size: no step.
    EXPECT_EQ(llc::cost::effective_cache_bytes(step_samples(512.0 * MiB, 1e-11, 8e-11)), 0.0);
    // Three samples of at least 64 KiB (the ones below are latency-bound and left out).
    const std::vector<Sample> few = {{1024.0, 1e-3},
                                     {32.0 * MiB, 32.0 * MiB * 1e-11},
                                     {64.0 * MiB, 64.0 * MiB * 8e-11},
                                     {128.0 * MiB, 128.0 * MiB * 8e-11}};
    EXPECT_EQ(llc::cost::effective_cache_bytes(few), 0.0);
    EXPECT_EQ(llc::cost::effective_cache_bytes({}), 0.0);
}

TEST(CacheStepTest, cache_bytes_is_the_effective_cache_where_recorded_else_the_reported_one) {
    Profile p;
    p.meta().llc_bytes = 480.0 * MiB;
    EXPECT_DOUBLE_EQ(p.meta().cache_bytes(), 480.0 * MiB);  // not recorded: today's behaviour
    p.meta().effective_llc_bytes = 48.0 * MiB;
    EXPECT_DOUBLE_EQ(p.meta().cache_bytes(), 48.0 * MiB);
}

}  // namespace
