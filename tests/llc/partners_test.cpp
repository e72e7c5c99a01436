// The pure functions of a division: split_sizes, assign_tasks, partners, exchange_plan.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <llc/error.hpp>
#include <llc/partners.hpp>

namespace {

std::vector<int> random_sizes(std::mt19937& rng, int r) {
    std::uniform_int_distribution<int> size(1, 9);
    std::vector<int> sizes(static_cast<std::size_t>(r));
    for (auto& s : sizes) {
        s = size(rng);
    }
    return sizes;
}

}  // namespace

TEST(PartnersTest, EqualHalvesAreTheHypercube) {
    for (int half : {1, 2, 4, 8, 16}) {
        const std::vector<int> sizes{half, half};
        for (int a = 0; a < half; ++a) {
            EXPECT_EQ(llc::partners(sizes, 0, a, 1), std::vector<int>{a});
            EXPECT_EQ(llc::partners(sizes, 1, a, 0), std::vector<int>{a});
        }
    }
}

TEST(PartnersTest, PaperFigure3UnevenExample) {
    // Figure 3 of the CCM paper: a set of 6 divided 4 + 2: processor 4 (local 0 of Q_1) is partner of 0 and 1 …
    // with the block rule b mod s_i = a, local 0 of Q_1 sends to locals {0, 2} of Q_0 and local 1 to {1, 3}.
    const std::vector<int> sizes{4, 2};
    EXPECT_EQ(llc::partners(sizes, 1, 0, 0), (std::vector<int>{0, 2}));
    EXPECT_EQ(llc::partners(sizes, 1, 1, 0), (std::vector<int>{1, 3}));
    EXPECT_EQ(llc::partners(sizes, 0, 0, 1), (std::vector<int>{0}));
    EXPECT_EQ(llc::partners(sizes, 0, 3, 1), std::vector<int>{});
}

TEST(PartnersTest, ExhaustiveAndInjectiveOnRandomShapes) {
    std::mt19937 rng(12345);
    for (int trial = 0; trial < 500; ++trial) {
        const int r = 1 + static_cast<int>(rng() % 6);
        const std::vector<int> sizes = random_sizes(rng, r);
        for (int i = 0; i < r; ++i) {
            for (int j = 0; j < r; ++j) {
                if (i == j) {
                    EXPECT_TRUE(llc::partners(sizes, i, 0, j).empty());
                    continue;
                }
                // Every b of Q_j receives from exactly one a of Q_i.
                std::vector<int> senders(static_cast<std::size_t>(sizes[static_cast<std::size_t>(j)]), 0);
                for (int a = 0; a < sizes[static_cast<std::size_t>(i)]; ++a) {
                    for (const int b : llc::partners(sizes, i, a, j)) {
                        ASSERT_GE(b, 0);
                        ASSERT_LT(b, sizes[static_cast<std::size_t>(j)]);
                        ++senders[static_cast<std::size_t>(b)];
                        EXPECT_EQ(llc::partner_source(sizes, i, b, j), a);
                    }
                }
                for (const int count : senders) {
                    EXPECT_EQ(count, 1) << "trial " << trial << " i " << i << " j " << j;
                }
            }
        }
    }
}

TEST(PartnersTest, RejectsBadIndices) {
    const std::vector<int> sizes{2, 3};
    EXPECT_THROW((void)llc::partners(sizes, 2, 0, 1), llc::Error);
    EXPECT_THROW((void)llc::partners(sizes, 0, 2, 1), llc::Error);
    EXPECT_THROW((void)llc::partners(sizes, 0, 0, -1), llc::Error);
    const std::vector<int> empty_subgroup{2, 0};
    EXPECT_THROW((void)llc::partners(empty_subgroup, 0, 0, 1), llc::Error);
}

TEST(SplitSizesTest, SumsToPAtLeastOneAndMonotoneInWeight) {
    std::mt19937 rng(777);
    std::uniform_real_distribution<double> weight(0.0, 10.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const int r = 1 + static_cast<int>(rng() % 7);
        const int P = r + static_cast<int>(rng() % 40);
        std::vector<double> weights(static_cast<std::size_t>(r));
        for (auto& w : weights) {
            w = (rng() % 5 == 0) ? 0.0 : weight(rng);
        }
        if (std::accumulate(weights.begin(), weights.end(), 0.0) == 0.0) {
            weights[0] = 1.0;
        }
        const auto sizes = llc::split_sizes(P, weights);
        ASSERT_EQ(sizes.size(), weights.size());
        EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), 0), P);
        for (std::size_t a = 0; a < sizes.size(); ++a) {
            EXPECT_GE(sizes[a], 1);
            for (std::size_t b = 0; b < sizes.size(); ++b) {
                if (weights[a] > weights[b]) {
                    EXPECT_GE(sizes[a], sizes[b]) << "weights " << weights[a] << " > " << weights[b];
                }
            }
        }
    }
}

TEST(SplitSizesTest, ProportionalWhenExact) {
    EXPECT_EQ(llc::split_sizes(8, std::vector<double>{1, 1}), (std::vector<int>{4, 4}));
    EXPECT_EQ(llc::split_sizes(8, std::vector<double>{1, 3}), (std::vector<int>{2, 6}));
    EXPECT_EQ(llc::split_sizes(10, std::vector<double>{2, 3, 5}), (std::vector<int>{2, 3, 5}));
    EXPECT_EQ(llc::split_sizes(3, std::vector<double>{1, 1}), (std::vector<int>{2, 1}));
    EXPECT_EQ(llc::split_sizes(5, std::vector<double>{100, 0.001}), (std::vector<int>{4, 1}));
    EXPECT_EQ(llc::split_sizes(1, std::vector<double>{1}), (std::vector<int>{1}));
    EXPECT_EQ(llc::split_sizes(2, std::vector<double>{1, 1, 1}), (std::vector<int>{1, 1, 1}));
}

TEST(SplitSizesTest, RejectsBadWeights) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    EXPECT_THROW((void)llc::split_sizes(4, std::vector<double>{}), llc::Error);
    EXPECT_THROW((void)llc::split_sizes(4, std::vector<double>{1, -1}), llc::Error);
    EXPECT_THROW((void)llc::split_sizes(4, std::vector<double>{1, nan}), llc::Error);
    EXPECT_THROW((void)llc::split_sizes(4, std::vector<double>{inf, 1}), llc::Error);
    EXPECT_THROW((void)llc::split_sizes(4, std::vector<double>{0, 0}), llc::Error);
    EXPECT_THROW((void)llc::split_sizes(0, std::vector<double>{1}), llc::Error);
    try {
        (void)llc::split_sizes(4, std::vector<double>{1, -2.5});
        FAIL() << "no exception";
    } catch (const llc::Error& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("llc::split_sizes"), std::string::npos) << message;
        EXPECT_NE(message.find("weights[1]"), std::string::npos) << message;
        EXPECT_NE(message.find("-2.5"), std::string::npos) << message;
    }
}

TEST(AssignTasksTest, LongestFirstBalancesLoad) {
    // P < r: LPT. Weights 5,4,3,3 on 2 processors: 5→p0, 4→p1, 3→p1, 3→p0: loads 8 and 7.
    EXPECT_EQ(llc::assign_tasks(2, std::vector<double>{5, 4, 3, 3}), (std::vector<int>{0, 1, 1, 0}));
    // Equal weights go round-robin in task order.
    EXPECT_EQ(llc::assign_tasks(3, std::vector<double>{1, 1, 1, 1, 1}), (std::vector<int>{0, 1, 2, 0, 1}));
    // P >= r: the first processor of each subgroup.
    EXPECT_EQ(llc::assign_tasks(5, std::vector<double>{1, 1}), (std::vector<int>{0, 3}));
}

TEST(ExchangePlanTest, EveryProcessorGetsEveryOtherTaskOnce) {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 300; ++trial) {
        const int r = 1 + static_cast<int>(rng() % 6);
        const int P = 1 + static_cast<int>(rng() % 12);
        std::vector<double> weights(static_cast<std::size_t>(r));
        for (auto& w : weights) {
            w = 1.0 + static_cast<double>(rng() % 10);
        }
        const auto plan = llc::exchange_plan(P, weights);
        // Who runs what, from the same assignment rules, computed independently here.
        std::vector<std::set<int>> runs(static_cast<std::size_t>(P));
        if (P >= r) {
            const auto sizes = llc::split_sizes(P, weights);
            int start = 0;
            for (int t = 0; t < r; ++t) {
                for (int q = start; q < start + sizes[static_cast<std::size_t>(t)]; ++q) {
                    runs[static_cast<std::size_t>(q)].insert(t);
                }
                start += sizes[static_cast<std::size_t>(t)];
            }
        } else {
            const auto owner = llc::assign_tasks(P, weights);
            for (int t = 0; t < r; ++t) {
                runs[static_cast<std::size_t>(owner[static_cast<std::size_t>(t)])].insert(t);
            }
        }
        std::map<std::pair<int, int>, int> received;  // (to, task) -> count
        for (const auto& transfer : plan) {
            EXPECT_TRUE(runs[static_cast<std::size_t>(transfer.from)].count(transfer.task) == 1) << "sender ran it";
            EXPECT_TRUE(runs[static_cast<std::size_t>(transfer.to)].count(transfer.task) == 0) << "receiver lacks it";
            ++received[{transfer.to, transfer.task}];
        }
        for (int q = 0; q < P; ++q) {
            for (int t = 0; t < r; ++t) {
                const bool has = runs[static_cast<std::size_t>(q)].count(t) == 1;
                const auto it = received.find({q, t});
                EXPECT_EQ(has ? 0 : 1, it == received.end() ? 0 : it->second) << "P " << P << " q " << q << " t " << t;
            }
        }
    }
}

TEST(ExchangeRoleTest, EverySendIsSomeonesReceiveAndFollowsThePartnerRelation) {
    std::mt19937 rng(4242);
    const auto key = [](const llc::Transfer& t) { return std::tuple(t.task, t.from, t.to); };
    for (int trial = 0; trial < 300; ++trial) {
        const int r = 1 + static_cast<int>(rng() % 5);
        const int P = 1 + static_cast<int>(rng() % 12);
        std::vector<double> weights(static_cast<std::size_t>(r));
        for (auto& w : weights) {
            w = 1.0 + static_cast<double>(rng() % 4);
        }
        std::multiset<std::tuple<int, int, int>> sent;
        std::multiset<std::tuple<int, int, int>> received;
        const auto sizes = llc::split_sizes(P, weights);
        const auto owners = llc::assign_tasks(P, weights);
        for (int q = 0; q < P; ++q) {
            const auto role = P >= r ? llc::exchange_role(sizes, q) : llc::exchange_role_owned(P, owners, q);
            for (const auto& t : role.sends) {
                EXPECT_EQ(t.from, q);
                sent.insert(key(t));
            }
            for (const auto& t : role.receives) {
                EXPECT_EQ(t.to, q);
                received.insert(key(t));
            }
        }
        EXPECT_EQ(sent, received) << "P " << P << " r " << r;
        std::multiset<std::tuple<int, int, int>> planned;
        for (const auto& t : llc::exchange_plan(P, weights)) {
            planned.insert(key(t));
        }
        EXPECT_EQ(planned, received);
    }
}
