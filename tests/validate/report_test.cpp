// llc-validate's report arithmetic: the noise floor of a point (pairwise_spread), per case (noise_floor), and the share
// of predictions inside the measured band (accuracy), on hand-made reports whose answers are worked out below.
#include "report.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

namespace {

using llc::validate::Measurement;
using llc::validate::Prediction;
using llc::validate::Processors;
using llc::validate::Report;

TEST(ValidateReport, PairwiseSpreadIsTheMedianPairDifferenceOverTheReference) {
    // Rounds 1.0, 1.1, 1.3: pair differences 0.1, 0.3, 0.2 → median 0.2, over the pooled median 1.1.
    EXPECT_NEAR(llc::validate::pairwise_spread({1.0, 1.1, 1.3}, 1.1), 0.2 / 1.1, 1e-12);
    // Two rounds: the one difference.
    EXPECT_NEAR(llc::validate::pairwise_spread({2.0, 3.0}, 2.5), 0.4, 1e-12);
    // Equal rounds repeat perfectly.
    EXPECT_EQ(llc::validate::pairwise_spread({5.0, 5.0, 5.0}, 5.0), 0.0);
    // Fewer than two rounds, or no positive reference: no spread to speak of.
    EXPECT_TRUE(std::isnan(llc::validate::pairwise_spread({1.0}, 1.0)));
    EXPECT_TRUE(std::isnan(llc::validate::pairwise_spread({}, 1.0)));
    EXPECT_TRUE(std::isnan(llc::validate::pairwise_spread({1.0, 2.0}, 0.0)));
}

Measurement point(const std::string& algorithm, int p, double spread, bool oversubscribed, double error, bool inside) {
    Measurement m;
    m.algorithm = algorithm;
    m.p = p;
    m.oversubscribed = oversubscribed;
    m.median_s = 1.0;
    m.round_spread = spread;
    Prediction prediction;
    prediction.seconds = 1.0 + error;
    prediction.relative_error = error;
    prediction.inside_band = inside;
    m.predictions["ccm"] = prediction;
    return m;
}

TEST(ValidateReport, NoiseFloorAndBandLeaveOversubscribedRunsOutAndJudgeOneAndSeveralApart) {
    Report report;
    report.models = {"ccm"};
    report.measurements = {point("a", 1, 0.10, false, 0.05, true),
                           point("a", 2, 0.30, false, -0.20, false),
                           point("a", 2, 0.20, false, 0.10, true),
                           point("a", 3, 0.90, true, 0.80, false),  // oversubscribed: shown, never judged
                           point("b", 1, std::nan(""), false, 0.0, true)};
    const auto one = llc::validate::noise_floor(report, "a", Processors::one);
    EXPECT_EQ(one.count, 1);
    EXPECT_NEAR(one.median, 0.10, 1e-12);
    const auto several = llc::validate::noise_floor(report, "a", Processors::several);
    EXPECT_EQ(several.count, 2);
    EXPECT_NEAR(several.median, 0.25, 1e-12);
    EXPECT_NEAR(several.p90, 0.29, 1e-12);  // 0.2 + 0.9 · (0.3 − 0.2), by linear interpolation
    EXPECT_EQ(llc::validate::noise_floor(report, "b", Processors::one).count, 0);  // a NaN spread is not counted
    const auto a = llc::validate::accuracy(report, "a", "ccm", Processors::several);
    EXPECT_EQ(a.count, 2);
    EXPECT_NEAR(a.inside_band, 0.5, 1e-12);
    EXPECT_NEAR(a.median_abs, 0.15, 1e-12);
    EXPECT_NEAR(llc::validate::accuracy(report, "b", "ccm", Processors::one).inside_band, 1.0, 1e-12);
    // Groups: a at p = 1 and at p > 1; b at p = 1 only (its p > 1 is not run and counts nowhere).
    const auto judged = llc::validate::verdicts(report);
    ASSERT_EQ(judged.size(), 3U);
    EXPECT_EQ(judged[0].algorithm, "a");
    EXPECT_EQ(judged[0].processors, Processors::one);
    EXPECT_EQ(judged[1].processors, Processors::several);
    EXPECT_EQ(judged[2].algorithm, "b");
}

using llc::validate::Accuracy;
using llc::validate::AccuracyGoal;
using llc::validate::NoiseFloor;
using llc::validate::Outcome;

Accuracy errors_of(double median, double p90) {
    return Accuracy{.count = 4, .median_abs = median, .p90_abs = p90, .max_abs = p90, .inside_band = 0.0};
}
Accuracy median_only(double median) {
    return errors_of(median, median);
}

Outcome judge(const AccuracyGoal& goal, const Accuracy& ccm, const NoiseFloor& floor) {
    return llc::validate::judge(goal, ccm, {}, floor).outcome;
}

// docs/validation.md, "The verdict rule", item by item.
TEST(ValidateReport, VerdictRuleMeetsOnlyWithinTheBoundAndTheP90Bound) {
    const AccuracyGoal goal{};  // 10 %
    const NoiseFloor quiet{.count = 4, .median = 0.04, .p90 = 0.08};
    EXPECT_EQ(judge(goal, errors_of(0.09, 0.24), quiet), Outcome::meets);
    EXPECT_EQ(judge(goal, errors_of(0.10, 0.25), quiet), Outcome::meets);  // the bounds are inclusive
    EXPECT_EQ(judge(goal, errors_of(0.11, 0.20), quiet), Outcome::misses);
    EXPECT_EQ(judge(goal, errors_of(0.05, 0.26), quiet), Outcome::misses);  // P90 above 25 %
    const auto why = llc::validate::judge(goal, errors_of(0.11, 0.20), {}, quiet).why;
    EXPECT_EQ(why, "misses: median 11.0 % > 10.0 %");
    EXPECT_EQ(llc::validate::judge(goal, errors_of(0.05, 0.30), {}, quiet).why, "misses: P90 30.0 % > 25.0 %");
    // The contour ranking's bound, 15 %.
    EXPECT_EQ(judge(AccuracyGoal{.median = 0.15}, errors_of(0.14, 0.2), quiet), Outcome::meets);
}

TEST(ValidateReport, VerdictRuleIsInconclusiveAboveHalfTheBoundWhateverTheErrors) {
    const AccuracyGoal goal{};
    const NoiseFloor at_half{.count = 4, .median = 0.05, .p90 = 0.1};
    const NoiseFloor above_half{.count = 4, .median = 0.051, .p90 = 0.1};
    EXPECT_EQ(judge(goal, median_only(0.02), at_half), Outcome::meets);
    EXPECT_EQ(judge(goal, median_only(0.02), above_half), Outcome::inconclusive);  // never "meets"
    EXPECT_EQ(judge(goal, median_only(0.60), above_half), Outcome::inconclusive);
    // No multiple of the floor lets a case meet: a 20 % floor and a 25 % error is inconclusive, not "meets".
    EXPECT_EQ(judge(goal, median_only(0.25), NoiseFloor{.count = 4, .median = 0.2, .p90 = 0.3}), Outcome::inconclusive);
    // No floor measured: inconclusive.
    EXPECT_EQ(judge(goal, median_only(0.02), NoiseFloor{}), Outcome::inconclusive);
    // Half of 15 % is 7.5 %.
    EXPECT_EQ(judge(AccuracyGoal{.median = 0.15}, median_only(0.1), NoiseFloor{.count = 4, .median = 0.07}),
              Outcome::meets);
    const auto why = llc::validate::judge(goal, errors_of(0.3, 0.5), {}, above_half).why;
    EXPECT_EQ(why, "inconclusive: floor 5.1 % > 5.0 % (CCM median 30.0 %, P90 50.0 %)");
}

TEST(ValidateReport, VerdictRuleWantsNoOtherModelCloser) {
    const AccuracyGoal goal{};
    const NoiseFloor quiet{.count = 4, .median = 0.04, .p90 = 0.08};
    const auto rival = [](const char* name, double ccm, double other) {
        return llc::validate::Rival{name, median_only(ccm), median_only(other)};
    };
    const auto bsp_closer = llc::validate::judge(goal, median_only(0.05), {rival("BSP", 0.05, 0.04)}, quiet);
    EXPECT_EQ(bsp_closer.outcome, Outcome::misses);
    EXPECT_EQ(bsp_closer.why, "misses: BSP closer (4.0 % < 5.0 %)");
    const auto hockney_closer =
        llc::validate::judge(goal, median_only(0.05), {rival("BSP", 0.05, 0.06), rival("Hockney", 0.05, 0.01)}, quiet);
    EXPECT_NE(hockney_closer.why.find("Hockney"), std::string::npos);
    // A tie is not closer, nor a difference the report's 0.1 % does not show; one it shows is.
    EXPECT_EQ(llc::validate::judge(goal, median_only(0.05), {rival("BSP", 0.05, 0.05)}, quiet).outcome, Outcome::meets);
    EXPECT_EQ(llc::validate::judge(goal, median_only(0.0981), {rival("BSP", 0.0981, 0.0978)}, quiet).outcome,
              Outcome::meets);
    EXPECT_EQ(llc::validate::judge(goal, median_only(0.0981), {rival("BSP", 0.0981, 0.0970)}, quiet).outcome,
              Outcome::misses);
    // A rival that told no point apart (count 0) is not closer.
    EXPECT_EQ(llc::validate::judge(goal, median_only(0.05), {llc::validate::Rival{"BSP", {}, {}}}, quiet).outcome,
              Outcome::meets);
}

/// A point of `algorithm` where the CCM's error is `ccm` and BSP's `bsp`, measured with round spread `spread`.
Measurement rivals(const std::string& algorithm, int p, double spread, double ccm, double bsp) {
    Measurement m = point(algorithm, p, spread, false, ccm, true);
    Prediction other;
    other.seconds = 1.0 + bsp;
    other.relative_error = bsp;
    m.predictions["bsp"] = other;
    return m;
}

TEST(ValidateReport, AnotherModelIsCloserOnlyWherePredictionsDifferByMoreThanTheNoise) {
    Report report;
    report.models = {"ccm", "bsp"};
    // "alike": the two differ by 0.1 point at one point, under its 3 % spread, and price the rest alike; BSP's median
    // over all points is lower, but no point tells the two apart. "apart": at p = 2 they differ by 3 points, above the
    // 1 % spread, and BSP is the closer there.
    report.measurements = {rivals("alike", 2, 0.03, 0.055, 0.055),
                           rivals("alike", 2, 0.03, 0.0232, 0.0222),
                           rivals("alike", 2, 0.03, 0.0204, 0.0204),
                           rivals("alike", 2, 0.03, 0.0020, 0.0020),
                           rivals("apart", 2, 0.01, 0.02, 0.02),
                           rivals("apart", 2, 0.01, 0.05, 0.02),
                           rivals("apart", 2, 0.01, 0.06, 0.03)};
    const auto alike = llc::validate::head_to_head(report, "alike", "bsp", Processors::several);
    EXPECT_EQ(alike.name, "BSP");
    EXPECT_EQ(alike.rival.count, 0);
    const auto apart = llc::validate::head_to_head(report, "apart", "bsp", Processors::several);
    EXPECT_EQ(apart.rival.count, 2);
    EXPECT_NEAR(apart.ccm.median_abs, 0.055, 1e-12);
    EXPECT_NEAR(apart.rival.median_abs, 0.025, 1e-12);
    const auto judged = llc::validate::verdicts(report);
    ASSERT_EQ(judged.size(), 2U);
    EXPECT_EQ(judged[0].verdict.outcome, Outcome::meets) << judged[0].verdict.why;
    EXPECT_EQ(judged[1].verdict.outcome, Outcome::misses);
    EXPECT_NE(judged[1].verdict.why.find("BSP closer (2.5 % < 5.5 % over the 2 of 3 points"), std::string::npos)
        << judged[1].verdict.why;
    const auto counts = llc::validate::count(judged);
    EXPECT_EQ(counts.meets, 1);
    EXPECT_EQ(counts.misses, 1);
    EXPECT_EQ(counts.inconclusive, 0);
    EXPECT_EQ(llc::validate::counts_line(judged),
              "1 meet, 1 miss, 0 inconclusive (p = 1: 0 meet, 0 miss, 0 inconclusive; p > 1: 1 meet, 1 miss, 0 "
              "inconclusive)");
}

TEST(ValidateReport, VerdictsFollowEachCaseGoalAndMarkWholeRunPrices) {
    Report report;
    report.models = {"ccm"};
    report.measurements = {point("loose", 1, 0.01, false, 0.12, true), point("tight", 1, 0.01, false, 0.12, true)};
    report.goals["loose"] = AccuracyGoal{.median = 0.15};
    report.p1_priced_by_whole_run["tight"] = true;
    const auto judged = llc::validate::verdicts(report);
    ASSERT_EQ(judged.size(), 2U);
    EXPECT_EQ(judged[0].verdict.outcome, Outcome::meets);   // 12 % ≤ 15 %
    EXPECT_EQ(judged[1].verdict.outcome, Outcome::misses);  // no goal given: the default 10 %
    EXPECT_FALSE(judged[0].whole_run_price);
    EXPECT_TRUE(judged[1].whole_run_price);
}

}  // namespace
