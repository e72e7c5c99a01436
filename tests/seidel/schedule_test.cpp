// Seidel's broadcast schedules: the paper's and the digest's worked examples, exact; and, for every P = 1 … 17 and
// every root, the properties of a broadcast checked by an independent replay (every processor gets every packet
// exactly once, from a processor that had it before the round); and the schedules' cost on a linear array, replayed
// with the paper's contention model (§2), against Table I.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/broadcast.hpp>
#include <llc/cost/seidel.hpp>
#include <llc/error.hpp>

namespace {

using Pairs = std::vector<std::pair<int, int>>;

/// The (from, to) pairs of one round, sorted (a round is a set: its order carries no meaning).
Pairs pairs(const std::vector<llc::BcastSend>& round) {
    Pairs result;
    for (const auto& send : round) {
        result.emplace_back(send.from, send.to);
    }
    std::sort(result.begin(), result.end());
    result.erase(std::unique(result.begin(), result.end()), result.end());
    return result;
}

Pairs sorted(Pairs p) {
    std::sort(p.begin(), p.end());
    return p;
}

/// Every pair j ↔ j ⊕ bit of P processors, both directions, minus the listed directed sends.
Pairs exchange(int P, int bit, const Pairs& minus = {}) {
    Pairs result;
    for (int j = 0; j < P; ++j) {
        if (std::find(minus.begin(), minus.end(), std::make_pair(j, j ^ bit)) == minus.end()) {
            result.emplace_back(j, j ^ bit);
        }
    }
    return sorted(result);
}

/// The packets a send carries, expanded.
std::vector<int> packets_of(const llc::BcastSend& send) {
    std::vector<int> result;
    for (int i = 0; i < send.count; ++i) {
        result.push_back(send.first + i * send.stride);
    }
    return result;
}

/// All packets moving from `from` to `to` in a round.
std::vector<int> carried(const std::vector<llc::BcastSend>& round, int from, int to) {
    std::vector<int> result;
    for (const auto& send : round) {
        if (send.from == from && send.to == to) {
            const auto p = packets_of(send);
            result.insert(result.end(), p.begin(), p.end());
        }
    }
    std::sort(result.begin(), result.end());
    return result;
}

void expect_rounds(const llc::BcastSchedule& s, const std::vector<Pairs>& expected) {
    ASSERT_EQ(s.rounds.size(), expected.size());
    for (std::size_t r = 0; r < expected.size(); ++r) {
        EXPECT_EQ(pairs(s.rounds[r]), sorted(expected[r])) << "round " << r + 1;
    }
}

// ---- The worked examples (digest §11 test cases; each checked against the paper's description) --------------------

TEST(SeidelScheduleTest, Tc1BinomialEightFromZero) {
    const auto s = llc::binomial_schedule(8, 0);
    EXPECT_EQ(s.packets, 1);
    expect_rounds(s, {{{0, 4}}, {{0, 2}, {4, 6}}, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}});
}

TEST(SeidelScheduleTest, Tc2DistributeEight) {
    const auto s = llc::distribute_schedule(8, 0);
    EXPECT_EQ(s.packets, 8);
    expect_rounds(s, {{{0, 4}}, {{0, 2}, {4, 6}}, {{0, 1}, {2, 3}, {4, 5}, {6, 7}}});
    EXPECT_EQ(carried(s.rounds[0], 0, 4), (std::vector<int>{4, 5, 6, 7}));  // 1/2
    EXPECT_EQ(carried(s.rounds[1], 4, 6), (std::vector<int>{6, 7}));        // 1/4
    EXPECT_EQ(carried(s.rounds[2], 6, 7), (std::vector<int>{7}));           // 1/8
}

TEST(SeidelScheduleTest, Tc3BinomialNuOneEight) {
    // Fig. 3: distribute to the first metanode, two interleaved trees, exchange in pairs. The root already holds all
    // packets, so its partner's half is not sent back to it (1 → 0 is redundant and left out).
    const auto s = llc::binomial_schedule(8, 0, 1, llc::Padding::companions);
    EXPECT_EQ(s.packets, 2);
    expect_rounds(s, {{{0, 1}}, {{0, 4}, {1, 5}}, {{0, 2}, {4, 6}, {1, 3}, {5, 7}}, exchange(8, 1, {{1, 0}})});
    EXPECT_EQ(carried(s.rounds[0], 0, 1), std::vector<int>{1});
    EXPECT_EQ(carried(s.rounds[1], 1, 5), std::vector<int>{1});
    EXPECT_EQ(carried(s.rounds[3], 4, 5), std::vector<int>{0});
}

TEST(SeidelScheduleTest, Tc4BidirectionalEight) {
    const auto s = llc::bidirectional_schedule(8, 0);
    EXPECT_EQ(s.packets, 2);
    expect_rounds(s, {{{0, 7}}, {{0, 4}, {7, 3}}, {{0, 2}, {4, 6}, {7, 5}, {3, 1}}, exchange(8, 1, {{1, 0}})});
    EXPECT_EQ(carried(s.rounds[0], 0, 7), std::vector<int>{1});
    EXPECT_EQ(carried(s.rounds[2], 3, 1), std::vector<int>{1});
    EXPECT_EQ(carried(s.rounds[2], 4, 6), std::vector<int>{0});
    EXPECT_EQ(carried(s.rounds[3], 6, 7), std::vector<int>{0});
    EXPECT_EQ(carried(s.rounds[3], 7, 6), std::vector<int>{1});
}

TEST(SeidelScheduleTest, Tc5BidirectionalNuOneEight) {
    const auto s = llc::bidirectional_schedule(8, 0, 1, llc::Padding::companions);
    EXPECT_EQ(s.packets, 4);
    // Redundant sends back into processors that hold the packet already (into 0, and 3 → 1) are left out.
    expect_rounds(s,
                  {{{0, 1}},
                   {{0, 6}, {1, 7}},
                   {{0, 4}, {6, 2}, {1, 5}, {7, 3}},
                   sorted({{0, 2}, {4, 6}, {6, 4}, {1, 3}, {5, 7}, {7, 5}}),
                   exchange(8, 1, {{1, 0}})});
    EXPECT_EQ(carried(s.rounds[0], 0, 1), (std::vector<int>{2, 3}));  // 1/2
    EXPECT_EQ(carried(s.rounds[1], 1, 7), std::vector<int>{3});       // 1/4
    EXPECT_EQ(carried(s.rounds[4], 2, 3), (std::vector<int>{0, 1}));  // 1/2
}

TEST(SeidelScheduleTest, Tc6RecursiveHalvingEight) {
    const auto s = llc::recursive_halving_schedule(8, 0);
    EXPECT_EQ(s.packets, 8);
    ASSERT_EQ(s.rounds.size(), 6U);
    const auto d = llc::distribute_schedule(8, 0);
    for (std::size_t r = 0; r < 3; ++r) {
        EXPECT_EQ(s.rounds[r], d.rounds[r]) << "round " << r + 1;
    }
    EXPECT_EQ(pairs(s.rounds[3]), exchange(8, 4, {{4, 0}}));
    EXPECT_EQ(carried(s.rounds[3], 1, 5), std::vector<int>{1});             // 1/8
    EXPECT_EQ(carried(s.rounds[4], 1, 3), (std::vector<int>{1, 5}));        // 1/4, not adjacent: packed
    EXPECT_EQ(carried(s.rounds[5], 1, 0).size(), 0U);                       // the root needs nothing
    EXPECT_EQ(carried(s.rounds[5], 0, 1), (std::vector<int>{0, 2, 4, 6}));  // 1/2
    EXPECT_EQ(carried(s.rounds[5], 3, 2), (std::vector<int>{1, 5, 7}));     // 2 kept packet 3 from the distribute
}

TEST(SeidelScheduleTest, Tc7ArbitraryRootFive) {
    expect_rounds(llc::binomial_schedule(8, 5), {{{5, 1}}, {{1, 3}, {5, 7}}, {{1, 0}, {3, 2}, {5, 4}, {7, 6}}});
    expect_rounds(llc::bidirectional_schedule(8, 5),
                  {{{5, 2}}, {{5, 1}, {2, 6}}, {{5, 7}, {1, 3}, {2, 0}, {6, 4}}, exchange(8, 1, {{4, 5}})});
    expect_rounds(llc::binomial_schedule(8, 5, 1, llc::Padding::companions),
                  {{{5, 4}}, {{4, 0}, {5, 1}}, {{0, 2}, {4, 6}, {1, 3}, {5, 7}}, exchange(8, 1, {{4, 5}})});
}

TEST(SeidelScheduleTest, Tc11VirtualNodesEleven) {
    expect_rounds(llc::binomial_schedule(11, 0),
                  {{{0, 8}}, {{0, 4}}, {{0, 2}, {4, 6}, {8, 10}}, {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}}});
    const auto s = llc::bidirectional_schedule(11, 0);
    expect_rounds(s,
                  {{{0, 10}},
                   {{0, 8}, {10, 7}},
                   {{0, 4}, {7, 3}},
                   {{0, 2}, {4, 6}, {8, 10}, {10, 9}, {7, 5}, {3, 1}},
                   {{0, 1}, {2, 3}, {3, 2}, {4, 5}, {5, 4}, {6, 7}, {7, 6}, {8, 9}, {9, 8}}});
    EXPECT_EQ(carried(s.rounds[0], 0, 10), std::vector<int>{1});  // 10 stands in for 15, the second tree's root
    EXPECT_EQ(carried(s.rounds[3], 8, 10), std::vector<int>{0});
}

TEST(SeidelScheduleTest, Tc12CompanionsEleven) {
    expect_rounds(llc::binomial_schedule(11, 0, 0, llc::Padding::companions),
                  {{{0, 7}}, {{0, 4}, {7, 9}}, {{0, 2}, {4, 6}, {7, 8}, {9, 10}}, {{0, 1}, {2, 3}, {4, 5}}});
    // A companion as root swaps roles with its full node: 3 is full, 2 its companion.
    const auto s = llc::binomial_schedule(11, 3, 0, llc::Padding::companions);
    ASSERT_EQ(s.rounds.size(), 4U);
    EXPECT_EQ(pairs(s.rounds[3]), (Pairs{{0, 1}, {3, 2}, {4, 5}}));
}

TEST(SeidelScheduleTest, PacketBounds) {
    EXPECT_EQ(llc::packet_bounds(10, 4, 0), std::make_pair(std::size_t{0}, std::size_t{2}));
    EXPECT_EQ(llc::packet_bounds(10, 4, 1), std::make_pair(std::size_t{2}, std::size_t{5}));
    EXPECT_EQ(llc::packet_bounds(10, 4, 3), std::make_pair(std::size_t{7}, std::size_t{10}));
    EXPECT_EQ(llc::packet_bounds(1, 8, 7), std::make_pair(std::size_t{0}, std::size_t{1}));
    EXPECT_EQ(llc::packet_bounds(0, 8, 3), std::make_pair(std::size_t{0}, std::size_t{0}));
    const std::size_t big = std::size_t{1} << 62;
    EXPECT_EQ(llc::packet_bounds(big, 1024, 1024).first, big);  // no overflow in q·n
}

TEST(SeidelScheduleTest, BadArguments) {
    EXPECT_THROW((void)llc::binomial_schedule(0, 0), llc::Error);
    EXPECT_THROW((void)llc::binomial_schedule(5, 5), llc::Error);
    EXPECT_THROW((void)llc::binomial_schedule(5, -1), llc::Error);
    EXPECT_THROW((void)llc::binomial_schedule(8, 0, -1), llc::Error);
    EXPECT_THROW((void)llc::binomial_schedule(8, 0, 1), llc::Error);  // ν > 0 with virtual nodes
    EXPECT_THROW((void)llc::binomial_schedule(8, 0, 4, llc::Padding::companions), llc::Error);
    EXPECT_THROW((void)llc::bidirectional_schedule(8, 0, 3, llc::Padding::companions), llc::Error);
    EXPECT_THROW((void)llc::recursive_halving_schedule(3, 3), llc::Error);
    EXPECT_THROW((void)llc::distribute_schedule(6, 0), llc::Error);
    EXPECT_THROW((void)llc::bcast_schedule(llc::Bcast::mpi, 4, 0), llc::Error);
    EXPECT_THROW((void)llc::bcast_schedule(llc::Bcast::automatic, 4, 0), llc::Error);
    try {
        (void)llc::binomial_schedule(4, 7);
        FAIL() << "no exception";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("root"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("7"), std::string::npos);
    }
}

// ---- Properties, by an independent replay -------------------------------------------------------------------------

struct Replay {
    int rounds = 0;
    int max_sends_per_round = 0;  // by one processor
    int max_recvs_per_round = 0;  // by one processor
};

/// Replays the schedule packet by packet and fails the test on any violation of a broadcast's rules.
Replay replay(const llc::BcastSchedule& s) {
    Replay result;
    std::vector<std::set<int>> held(static_cast<std::size_t>(s.P));
    for (int p = 0; p < s.packets; ++p) {
        held[static_cast<std::size_t>(s.root)].insert(p);
    }
    std::vector<std::map<int, int>> received(static_cast<std::size_t>(s.P));  // packet → times received
    for (const auto& round : s.rounds) {
        ++result.rounds;
        EXPECT_FALSE(round.empty());
        std::vector<std::set<int>> after = held;
        std::map<int, std::set<int>> sends_by;
        std::map<int, std::set<int>> recvs_by;
        for (const auto& send : round) {
            EXPECT_GE(send.from, 0);
            EXPECT_LT(send.from, s.P);
            EXPECT_GE(send.to, 0);
            EXPECT_LT(send.to, s.P);
            EXPECT_NE(send.from, send.to);
            EXPECT_GE(send.count, 1);
            sends_by[send.from].insert(send.to);
            recvs_by[send.to].insert(send.from);
            for (const int p : packets_of(send)) {
                EXPECT_GE(p, 0);
                EXPECT_LT(p, s.packets);
                EXPECT_TRUE(held[static_cast<std::size_t>(send.from)].count(p))
                    << "packet " << p << " sent by " << send.from << " before it had it";
                after[static_cast<std::size_t>(send.to)].insert(p);
                ++received[static_cast<std::size_t>(send.to)][p];
            }
        }
        for (const auto& [who, peers] : sends_by) {
            result.max_sends_per_round = std::max(result.max_sends_per_round, static_cast<int>(peers.size()));
        }
        for (const auto& [who, peers] : recvs_by) {
            result.max_recvs_per_round = std::max(result.max_recvs_per_round, static_cast<int>(peers.size()));
        }
        held = std::move(after);
    }
    for (int x = 0; x < s.P; ++x) {
        EXPECT_EQ(static_cast<int>(held[static_cast<std::size_t>(x)].size()), s.packets) << "processor " << x;
        for (const auto& [p, times] : received[static_cast<std::size_t>(x)]) {
            EXPECT_EQ(times, 1) << "processor " << x << " received packet " << p << " " << times << " times";
        }
        if (x == s.root) {
            EXPECT_TRUE(received[static_cast<std::size_t>(x)].empty());
        }
    }
    return result;
}

int ceil_lg(int P) {
    int d = 0;
    while ((1 << d) < P) {
        ++d;
    }
    return d;
}
int floor_lg(int P) {
    return ceil_lg(P + 1) - 1;
}

TEST(SeidelScheduleTest, EveryPEveryRootIsABroadcast) {
    for (int P = 1; P <= 17; ++P) {
        const bool power = (P & (P - 1)) == 0;
        for (int root = 0; root < P; ++root) {
            SCOPED_TRACE("P = " + std::to_string(P) + ", root = " + std::to_string(root));
            const auto st = replay(llc::binomial_schedule(P, root));
            EXPECT_EQ(st.rounds, ceil_lg(P));
            EXPECT_LE(st.max_sends_per_round, 1);  // one transmit and one receive per node and step (paper §2)
            EXPECT_LE(st.max_recvs_per_round, 1);
            const auto bst = replay(llc::bidirectional_schedule(P, root));
            EXPECT_LE(bst.rounds, P == 1 ? 0 : ceil_lg(P) + 1);
            EXPECT_LE(bst.max_recvs_per_round, 1);
            EXPECT_LE(bst.max_sends_per_round, 1);
            const auto rh = replay(llc::recursive_halving_schedule(P, root));
            EXPECT_EQ(rh.rounds, 2 * floor_lg(P) + (power ? 0 : 1));
            EXPECT_LE(rh.max_recvs_per_round, 1);
            EXPECT_LE(rh.max_sends_per_round, 1);
            const auto stc = replay(llc::binomial_schedule(P, root, 0, llc::Padding::companions));
            EXPECT_EQ(stc.rounds, floor_lg(P) + (power ? 0 : 1));
            replay(llc::bidirectional_schedule(P, root, 0, llc::Padding::companions));
            for (int nu = 1; nu <= floor_lg(P); ++nu) {
                SCOPED_TRACE("nu = " + std::to_string(nu));
                replay(llc::binomial_schedule(P, root, nu, llc::Padding::companions));
                if (nu < floor_lg(P)) {
                    replay(llc::bidirectional_schedule(P, root, nu, llc::Padding::companions));
                }
            }
            for (const auto algorithm :
                 {llc::Bcast::binomial, llc::Bcast::bidirectional, llc::Bcast::recursive_halving}) {
                const auto s = llc::bcast_schedule(algorithm, P, root);
                EXPECT_EQ(s.P, P);
                EXPECT_EQ(s.root, root);
            }
        }
    }
}

// ---- Cost of the schedules on a linear array under the paper's model (§2) ----------------------------------------

/// Replays the schedule on a linear array (processor x at position x) and prices each round as the paper does: a
/// message of f·m bytes whose busiest link carries k circuits (same direction) costs ⌈k/2^ν⌉·f·ma + b; a round costs
/// its dearest message. Packets are taken as equal (m divisible by the packet count).
llc::cost::seidel::Coefficients simulated(const llc::BcastSchedule& s, int nu) {
    llc::cost::seidel::Coefficients c;
    for (const auto& round : s.rounds) {
        std::map<std::pair<int, int>, std::vector<int>> messages;  // (from, to) → packets
        for (const auto& send : round) {
            auto& p = messages[{send.from, send.to}];
            const auto q = packets_of(send);
            p.insert(p.end(), q.begin(), q.end());
        }
        std::map<std::pair<int, int>, int> load;  // directed link (x, x ± 1) → circuits
        for (const auto& [ends, p] : messages) {
            const int step = ends.second > ends.first ? 1 : -1;
            for (int x = ends.first; x != ends.second; x += step) {
                ++load[{x, x + step}];
            }
        }
        double worst = 0.0;
        for (const auto& [ends, p] : messages) {
            const int step = ends.second > ends.first ? 1 : -1;
            int k = 0;
            for (int x = ends.first; x != ends.second; x += step) {
                k = std::max(k, load[{x, x + step}]);
            }
            const double factor = std::ceil(static_cast<double>(k) / static_cast<double>(1 << nu));
            worst = std::max(worst, factor * static_cast<double>(p.size()) / static_cast<double>(s.packets));
        }
        c.ma += worst;
        c.b += 1.0;
    }
    return c;
}

TEST(SeidelScheduleTest, SimulatedCostEqualsTableOnPowersOfTwo) {
    namespace sd = llc::cost::seidel;
    for (int d = 1; d <= 6; ++d) {
        const int P = 1 << d;
        for (int nu = 0; nu < d; ++nu) {
            for (int root = 0; root < P; ++root) {
                SCOPED_TRACE("d = " + std::to_string(d) + ", nu = " + std::to_string(nu) +
                             ", root = " + std::to_string(root));
                EXPECT_EQ(simulated(llc::binomial_schedule(P, root, nu, llc::Padding::companions), nu),
                          sd::linear_st(d, nu));
                EXPECT_EQ(simulated(llc::bidirectional_schedule(P, root, nu, llc::Padding::companions), nu),
                          sd::linear_bst(d, nu));
                auto rh = simulated(llc::recursive_halving_schedule(P, root), nu);
                rh.rho = 1.0;  // the permutation (packing) the replay does not see
                EXPECT_EQ(rh, sd::linear_rh(d, nu));
            }
        }
    }
}

TEST(SeidelScheduleTest, SimulatedCostMatchesSection5OnOtherP) {
    namespace sd = llc::cost::seidel;
    for (int P = 3; P <= 17; ++P) {
        if ((P & (P - 1)) == 0) {
            continue;
        }
        for (int root = 0; root < P; ++root) {
            SCOPED_TRACE("P = " + std::to_string(P) + ", root = " + std::to_string(root));
            // Virtual nodes: the cost on 2^⌈lg P⌉ nodes (§5.1) bounds the schedule and is met from root 0.
            const auto st = simulated(llc::binomial_schedule(P, root), 0);
            const auto bst = simulated(llc::bidirectional_schedule(P, root), 0);
            EXPECT_LE(st.ma, sd::binomial(P).ma);
            EXPECT_LE(st.b, sd::binomial(P).b);
            EXPECT_LE(bst.ma, sd::bidirectional(P).ma);
            EXPECT_LE(bst.b, sd::bidirectional(P).b);
            if (root == 0) {
                EXPECT_EQ(st, sd::binomial(P));
                EXPECT_EQ(bst, sd::bidirectional(P));
            }
            // Companions: rounds are those of 2^⌊lg P⌋ nodes plus one whole-message round (§5.2).
            const auto rh = llc::recursive_halving_schedule(P, root);
            EXPECT_EQ(static_cast<double>(rh.rounds.size()), sd::recursive_halving(P).b);
        }
    }
}

}  // namespace
