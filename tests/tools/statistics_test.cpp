// llc::tools statistics against values worked out by hand.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <llc/tools/statistics.hpp>

namespace {

using llc::tools::median;
using llc::tools::median_rse;
using llc::tools::quantile;
using llc::tools::rank_ratio;

TEST(ToolsStatistics, MedianOfOddAndEvenCounts) {
    EXPECT_DOUBLE_EQ(median({5.0, 1.0, 3.0}), 3.0);
    EXPECT_DOUBLE_EQ(median({4.0, 1.0, 3.0, 2.0}), 2.5);
    EXPECT_DOUBLE_EQ(median({7.0}), 7.0);
}

TEST(ToolsStatistics, QuantileInterpolatesLinearly) {
    const std::vector<double> v{10.0, 20.0, 30.0, 40.0, 50.0};
    EXPECT_DOUBLE_EQ(quantile(v, 0.0), 10.0);
    EXPECT_DOUBLE_EQ(quantile(v, 1.0), 50.0);
    EXPECT_DOUBLE_EQ(quantile(v, 0.1), 14.0);  // position 0.4 between 10 and 20
    EXPECT_DOUBLE_EQ(quantile(v, 0.9), 46.0);
    EXPECT_DOUBLE_EQ(quantile(v, 2.0), 50.0);  // q is clamped to [0, 1]
}

TEST(ToolsStatistics, NonFiniteValuesAreLeftOutAndNoneGivesNaN) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_DOUBLE_EQ(median({nan, 1.0, inf, 3.0}), 2.0);
    EXPECT_TRUE(std::isnan(median({})));
    EXPECT_TRUE(std::isnan(quantile({nan}, 0.5)));
}

TEST(ToolsStatistics, MedianRelativeStandardError) {
    // {1, 2, 3, 4, 5}: median 3, deviations {2, 1, 0, 1, 2}, MAD 1 → 1.2533 · 1.4826 / (√5 · 3).
    EXPECT_NEAR(median_rse({1.0, 2.0, 3.0, 4.0, 5.0}), 1.2533 * 1.4826 / (std::sqrt(5.0) * 3.0), 1e-12);
    EXPECT_DOUBLE_EQ(median_rse({2.0, 2.0, 2.0, 2.0}), 0.0);
    EXPECT_DOUBLE_EQ(median_rse({0.0, 0.0, 0.0}), 0.0);  // nothing to time is stable
    EXPECT_TRUE(std::isinf(median_rse({1.0, 2.0})));     // too few to judge
}

TEST(ToolsStatistics, RankRatioIsTheMedianRatioFarthestFromOne) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // Rank 1 against rank 0: ratios 1.2, 1.1, 1.3 (median 1.2); the probe rank 1 lacks is left out.
    EXPECT_DOUBLE_EQ(rank_ratio({{1.0, 1.2}, {2.0, 2.2}, {1.0, 1.3}, {5.0, nan}}), 1.2);
    // Rank 2 at 0.8 is farther from 1 than rank 1 at 1.2 (|log 0.8| > |log 1.2|).
    EXPECT_DOUBLE_EQ(rank_ratio({{1.0, 1.2, 0.8}, {2.0, 2.4, 1.6}}), 0.8);
    // Rank 0 alone, or no probe both ran: even by definition.
    EXPECT_DOUBLE_EQ(rank_ratio({{1.0}, {2.0}}), 1.0);
    EXPECT_DOUBLE_EQ(rank_ratio({{nan, 1.0}}), 1.0);
    EXPECT_DOUBLE_EQ(rank_ratio({}), 1.0);
}

}  // namespace
