// par / weighted_par against a sequential computation of the same recursion.
#include <numeric>
#include <string>
#include <vector>

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <gtest/gtest.h>

#include <llc/llc.hpp>

namespace {

// Sequential oracle: sum of squares over [lo, hi) by recursive halving, as a vector {sum, count}.
std::vector<long long> sequential_sum(long long lo, long long hi) {
    long long sum = 0;
    for (long long i = lo; i < hi; ++i) {
        sum += i * i;
    }
    return {sum, hi - lo};
}

std::vector<long long> parallel_sum(llc::Group& g, long long lo, long long hi, int depth) {
    if (depth == 0 || hi - lo < 2) {
        return sequential_sum(lo, hi);
    }
    const long long mid = lo + (hi - lo) / 3;  // uneven on purpose
    const double weights[2] = {static_cast<double>(mid - lo), static_cast<double>(hi - mid)};
    auto parts = llc::weighted_par(g, weights, [&](llc::Group& sub, int t) {
        return t == 0 ? parallel_sum(sub, lo, mid, depth - 1) : parallel_sum(sub, mid, hi, depth - 1);
    });
    return {parts[0][0] + parts[1][0], parts[0][1] + parts[1][1]};
}

TEST(ParTest, TwoTasksEveryProcessorHoldsBoth) {
    auto& world = llc::Group::world();
    auto [a, b] = llc::par(
        world,
        [](llc::Group& g) {
            return std::vector<int>{1, 2, 3, g.size() > 0 ? 4 : 0};
        },
        [](llc::Group&) { return std::string("odd"); });
    EXPECT_EQ(a, (std::vector<int>{1, 2, 3, 4}));
    EXPECT_EQ(b, "odd");
}

TEST(ParTest, NestedThreeLevelsUnevenWeightsMatchSequential) {
    auto& world = llc::Group::world();
    for (long long n : {1LL, 2LL, 7LL, 100LL, 1001LL}) {
        const auto result = parallel_sum(world, 0, n, 3);
        EXPECT_EQ(result, sequential_sum(0, n)) << "n = " << n;
    }
}

TEST(ParTest, ManyTasksOnFewProcessors) {
    auto& world = llc::Group::world();
    std::vector<double> weights(11);
    std::iota(weights.begin(), weights.end(), 1.0);
    const auto results = llc::weighted_par(world, weights, [](llc::Group&, int t) { return t * t; });
    ASSERT_EQ(results.size(), 11U);
    for (int t = 0; t < 11; ++t) {
        EXPECT_EQ(results[static_cast<std::size_t>(t)], t * t);
    }
}

// Results that are neither trivially copyable nor contiguous containers of such go serialised, one message of bytes
// per partner: every processor must hold every task's strings, whatever the split.
TEST(ParTest, SerialisedResultsReachEveryProcessor) {
    auto& world = llc::Group::world();
    std::vector<double> weights{1.0, 3.0, 2.0};
    const auto results = llc::weighted_par(world, weights, [](llc::Group& sub, int t) {
        std::vector<std::string> words;
        for (int k = 0; k <= t; ++k) {
            words.push_back("task " + std::to_string(t) + " word " + std::to_string(k));
        }
        // A collective inside the task, so that the subgroup is used before the exchange.
        words.push_back(std::to_string(sub.allreduce(1, llc::Op::sum) > 0 ? t : -1));
        return words;
    });
    ASSERT_EQ(results.size(), 3U);
    for (int t = 0; t < 3; ++t) {
        const auto& words = results[static_cast<std::size_t>(t)];
        ASSERT_EQ(words.size(), static_cast<std::size_t>(t) + 2U) << "task " << t;
        EXPECT_EQ(words.front(), "task " + std::to_string(t) + " word 0");
        EXPECT_EQ(words.back(), std::to_string(t));
    }
}

}  // namespace
