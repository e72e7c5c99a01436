// llc-validate's slices (tools/llc-validate/slices.hpp): a round's sampling rule shared among its slices, and the
// passes' rounds. The expected rules are worked out by hand from the two rules llc-validate measures with (main.cpp).
#include "slices.hpp"

#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include <llc/error.hpp>

namespace {

using llc::tools::SamplingRule;
using llc::validate::round_of_pass;
using llc::validate::slice_rule;

void expect_rule(const SamplingRule& got, const SamplingRule& want) {
    EXPECT_EQ(got.min_samples, want.min_samples);
    EXPECT_EQ(got.max_samples, want.max_samples);
    EXPECT_DOUBLE_EQ(got.budget_seconds, want.budget_seconds);
    EXPECT_DOUBLE_EQ(got.target_rse, want.target_rse);
    EXPECT_DOUBLE_EQ(got.min_seconds, want.min_seconds);
    EXPECT_EQ(got.max_short_samples, want.max_short_samples);
    EXPECT_EQ(got.budget_counts_warm_up, want.budget_counts_warm_up);
    EXPECT_DOUBLE_EQ(got.second_warm_up_below, want.second_warm_up_below);
}

const SamplingRule full{4, 34, 0.2, 0.01, 0.02, 400};
const SamplingRule quick{3, 14, 0.05, 0.02, 0.004, 200};

TEST(ValidateSlices, OneSliceIsTheRoundsRuleUnchanged) {
    // --slices 1 must measure exactly as llc-validate did before slices (the A/B against the old measurement).
    expect_rule(slice_rule(full, 1), full);
    expect_rule(slice_rule(quick, 1), quick);
    const SamplingRule odd{0, 0, 0.0, 0.0, 0.0, 0};
    expect_rule(slice_rule(odd, 1), odd);
}

TEST(ValidateSlices, ThreeSlicesShareTheRoundsSamplesAndTime) {
    // 4 / 3 → 1 sample at least; ⌈34 / 3⌉ = 12 at most; ⌈400 / 3⌉ = 134 while short; a third of 0.2 s and of 20 ms;
    // the RSE target √3 × 1 %.
    // A slice's warm-up counts towards its budget.
    // A slice's visit whose warm-up is under 2 ms warms up twice.
    expect_rule(slice_rule(full, 3), {1, 12, 0.2 / 3, 0.01 * std::sqrt(3.0), 0.02 / 3, 134, true, 2e-3});
    // 3 / 3 → 1; ⌈14 / 3⌉ = 5; ⌈200 / 3⌉ = 67.
    expect_rule(slice_rule(quick, 3), {1, 5, 0.05 / 3, 0.02 * std::sqrt(3.0), 0.004 / 3, 67, true, 2e-3});
    // Two slices: 4 / 2 = 2 at least, 17 at most, 200 while short.
    expect_rule(slice_rule(full, 2), {2, 17, 0.1, 0.01 * std::sqrt(2.0), 0.01, 200, true, 2e-3});
}

TEST(ValidateSlices, ASliceTakesOneSampleAtLeastAndNoFewerThanItsMinimumAtMost) {
    // More slices than samples: still one sample a slice (a visit with none would measure nothing).
    const SamplingRule slice = slice_rule(full, 10);
    EXPECT_EQ(slice.min_samples, 1);
    EXPECT_EQ(slice.max_samples, 4);  // ⌈34 / 10⌉
    const SamplingRule tight = slice_rule({6, 6, 0.1, 0.0, 0.0, 0}, 4);
    EXPECT_EQ(tight.min_samples, 1);
    EXPECT_EQ(tight.max_samples, 2);
    EXPECT_EQ(tight.max_short_samples, 0);  // no short-case cap stays none
    EXPECT_EQ(tight.target_rse, 0.0);       // no RSE stop stays none
    // The slices' budgets add up to the round's: the run takes as long as before, spread over more moments.
    EXPECT_NEAR(4 * tight.budget_seconds, 0.1, 1e-15);
}

TEST(ValidateSlices, NoSlicesIsAnError) {
    EXPECT_THROW((void)slice_rule(full, 0), llc::Error);
    EXPECT_THROW((void)slice_rule(full, -3), llc::Error);
}

TEST(ValidateSlices, PassesGoRoundByRoundSoEveryRoundSpansTheRun) {
    // 3 rounds × 3 slices = 9 passes: 0 1 2 0 1 2 0 1 2 — each round gets one pass in every third of the run.
    std::vector<int> rounds;
    for (int pass = 0; pass < 9; ++pass) {
        rounds.push_back(round_of_pass(pass, 3));
    }
    EXPECT_EQ(rounds, (std::vector<int>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
    // One slice a round: pass k is round k, the order before slices.
    for (int pass = 0; pass < 3; ++pass) {
        EXPECT_EQ(round_of_pass(pass, 3), pass);
    }
}

}  // namespace
