// llc-validate's report arithmetic: the noise floor of a point (pairwise_spread), per case (noise_floor), and the share
// of predictions inside the measured band (accuracy), on hand-made reports whose answers are worked out below.
#include "report.hpp"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

namespace {

using llc::validate::Measurement;
using llc::validate::Prediction;
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

TEST(ValidateReport, NoiseFloorAndBandLeaveOversubscribedRunsOut) {
    Report report;
    report.models = {"ccm"};
    report.measurements = {point("a", 1, 0.10, false, 0.05, true),
                           point("a", 2, 0.30, false, -0.20, false),
                           point("a", 2, 0.20, false, 0.10, true),
                           point("a", 3, 0.90, true, 0.80, false),  // oversubscribed: shown, not summarised
                           point("b", 1, std::nan(""), false, 0.0, true)};
    const auto floors = llc::validate::noise_floor(report);
    ASSERT_EQ(floors.size(), 2U);
    EXPECT_EQ(floors[0].first, "a");
    EXPECT_EQ(floors[0].second.count, 3);
    EXPECT_NEAR(floors[0].second.median, 0.20, 1e-12);
    EXPECT_NEAR(floors[0].second.p90, 0.28, 1e-12);  // 0.2 + 0.8 · (0.3 − 0.2), by linear interpolation
    EXPECT_EQ(floors[1].first, "b");
    EXPECT_EQ(floors[1].second.count, 0);  // a NaN spread (one round) is not counted
    const auto accuracy = llc::validate::accuracy(report);
    ASSERT_EQ(accuracy.size(), 2U);
    const auto& a = accuracy[0].second.at("ccm");
    EXPECT_EQ(a.count, 3);
    EXPECT_NEAR(a.inside_band, 2.0 / 3.0, 1e-12);
    EXPECT_NEAR(a.median_abs, 0.10, 1e-12);
    EXPECT_NEAR(accuracy[1].second.at("ccm").inside_band, 1.0, 1e-12);
}

}  // namespace
