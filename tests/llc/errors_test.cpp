// Bad input is an llc::Error on every rank, with a message naming the function, the argument and the value.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

llc::Group& world() {
    return llc::Group::world();
}

using llc::test::expect_error_everywhere;

auto trivial_task = [](llc::Group&, int t) { return t; };

TEST(ErrorsTest, WeightedParBadWeights) {
    auto& g = world();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    expect_error_everywhere(
        [&] {
            (void)llc::weighted_par(g, {1.0, -1.0}, trivial_task);
        },
        {"weighted_par", "weights[1]", "-1"});
    expect_error_everywhere([&] { (void)llc::weighted_par(g, {nan, 1.0}, trivial_task); }, {"weights[0]", "nan"});
    expect_error_everywhere(
        [&] {
            (void)llc::weighted_par(g, {0.0, 0.0, 0.0}, trivial_task);
        },
        {"weights", "all zero"});
}

TEST(ErrorsTest, WeightedParZeroTasks) {
    auto& g = world();
    const std::vector<double> none;
    expect_error_everywhere([&] { (void)llc::weighted_par(g, std::span<const double>(none), trivial_task); },
                            {"weights.size()", "0"});
}

TEST(ErrorsTest, WeightedParWeightsDifferAcrossRanks) {
    auto& g = world();
    if (g.size() == 1) {
        GTEST_SKIP() << "needs two ranks";
    }
    // Wrong count on rank 0.
    std::vector<double> weights(g.rank() == 0 ? 3 : 2, 1.0);
    expect_error_everywhere([&] { (void)llc::weighted_par(g, std::span<const double>(weights), trivial_task); },
                            {"weighted_par", "weights.size()", "differs across the ranks"});
    // Same count, different values.
    std::vector<double> values{1.0, g.rank() == 0 ? 2.0 : 3.0};
    expect_error_everywhere([&] { (void)llc::weighted_par(g, std::span<const double>(values), trivial_task); },
                            {"weighted_par", "weights", "differs across the ranks"});
}

TEST(ErrorsTest, CollectiveSizesDifferAcrossRanks) {
    auto& g = world();
    if (g.size() == 1) {
        GTEST_SKIP() << "needs two ranks";
    }
    std::vector<double> data(g.rank() == 0 ? 10 : 12);
    expect_error_everywhere([&] { g.bcast(std::span<double>(data), 0); },
                            {"llc::Group::bcast", "data.size()", "10", "12"});
    std::vector<double> out(data.size());
    expect_error_everywhere([&] { g.allreduce(std::span<const double>(data), std::span<double>(out), llc::Op::sum); },
                            {"llc::Group::allreduce", "in.size()"});
    expect_error_everywhere([&] { (void)g.allgather(std::span<const double>(data)); }, {"llc::Group::allgather"});
    // Roots that differ.
    std::vector<int> one(1);
    expect_error_everywhere([&] { g.bcast(std::span<int>(one), g.rank() == 0 ? 0 : 1); }, {"root", "differs"});
}

TEST(ErrorsTest, RootOutOfRange) {
    auto& g = world();
    std::vector<int> one(1);
    expect_error_everywhere([&] { g.bcast(std::span<int>(one), g.size()); },
                            {"llc::Group::bcast", "root", std::to_string(g.size())});
}

TEST(ErrorsTest, ArgumentErrorOnOneRankOnlyIsAnErrorEverywhere) {
    auto& g = world();
    if (g.size() == 1) {
        GTEST_SKIP() << "needs two ranks";
    }
    // Rank 0 alone passes a root out of range: it gets the detailed message, the others one pointing to it.
    std::vector<int> one(1);
    expect_error_everywhere([&] { g.bcast(std::span<int>(one), g.rank() == 0 ? g.size() : 0); }, {"llc::Group::bcast"});
    // The last rank alone passes an output of the wrong size.
    const std::vector<double> in(4, 1.0);
    std::vector<double> out(g.rank() == g.size() - 1 ? 3 : 4);
    expect_error_everywhere([&] { g.allreduce(std::span<const double>(in), std::span<double>(out), llc::Op::sum); },
                            {"llc::Group::allreduce"});
    // Only the root's counts are wrong.
    std::vector<double> all(g.rank() == 0 ? g.size() + 1 : 0);
    const std::vector<int> counts(static_cast<std::size_t>(g.size()), 1);
    expect_error_everywhere([&] { (void)g.scatterv(std::span<const double>(all), std::span<const int>(counts), 0); },
                            {"llc::Group::scatterv"});
    // One rank's alltoallv counts do not add up to what it sends.
    const std::vector<int> payload(static_cast<std::size_t>(g.size()), 7);
    std::vector<int> send_counts(static_cast<std::size_t>(g.size()), 1);
    if (g.rank() == 1) {
        send_counts[0] = 2;
    }
    expect_error_everywhere(
        [&] { (void)g.alltoallv(std::span<const int>(payload), std::span<const int>(send_counts)); },
        {"llc::Group::alltoallv"});
    // The group is still usable afterwards: nothing is left half-done.
    EXPECT_EQ(g.allreduce(1, llc::Op::sum), g.size());
}

TEST(ErrorsTest, SwapMismatchedBuffers) {
    auto& g = world();
    if (g.size() < 2) {
        GTEST_SKIP() << "needs two ranks";
    }
    // Every rank calls swap (its agreement is collective over the group); at odd P the last rank swaps with itself,
    // with sizes of its own that are fine (tests/llc/swap_pairing_test.cpp covers a self-swap of unequal sizes).
    const int partner = (g.rank() ^ 1) < g.size() ? g.rank() ^ 1 : g.rank();
    // Rank with partner above sends 5, the other expects 6: every rank must throw.
    const std::vector<int> send(g.rank() < partner ? 5 : 6);
    std::vector<int> recv(6);
    bool threw = false;
    try {
        g.swap(partner, std::span<const int>(send), std::span<int>(recv));
    } catch (const llc::Error& e) {
        threw = true;
        EXPECT_NE(std::string(e.what()).find("mismatched buffer sizes"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(threw);
    EXPECT_THROW(g.swap(g.size(), std::span<const int>(send), std::span<int>(recv)), llc::Error);
}

// Runs `body` and returns the llc::Error message it threw, or "" when it did not throw.
template <class F>
std::string error_of(F&& body) {
    try {
        body();
    } catch (const llc::Error& e) {
        return e.what();
    }
    return {};
}

TEST(ErrorsTest, ShiftRecvSizeDiffersFromSourceSendSize) {
    auto& g = world();
    if (g.size() < 2) {
        GTEST_SKIP() << "needs two ranks";
    }
    // Everyone sends 4; rank 1 alone expects 5 from rank 0. Only rank 1 can see it; every rank must throw.
    const std::vector<int> send(4, g.rank());
    std::vector<int> recv(g.rank() == 1 ? 5 : 4);
    const std::string message = error_of([&] { g.shift(std::span<const int>(send), std::span<int>(recv)); });
    EXPECT_NE(message.find("llc::Group::shift"), std::string::npos) << message;
    EXPECT_EQ(g.allreduce(message.empty() ? 0 : 1, llc::Op::min), 1) << "some rank did not throw";
    if (g.rank() == 1) {
        for (const std::string fragment : {"recv.size()", "5", "send.size() = 4", "rank 1", "rank 0"}) {
            EXPECT_NE(message.find(fragment), std::string::npos) << "message: " << message << "\nmissing: " << fragment;
        }
    }
    // Uneven sizes with one wrong receiver at offset -1: rank r sends r + 1, the last rank expects one too many.
    const int last = g.size() - 1;
    const std::vector<int> mine(static_cast<std::size_t>(g.rank() + 1), g.rank());
    const int source = (g.rank() + 1) % g.size();
    std::vector<int> theirs(static_cast<std::size_t>(source + 1 + (g.rank() == last ? 1 : 0)));
    expect_error_everywhere([&] { g.shift(std::span<const int>(mine), std::span<int>(theirs), -1); },
                            {"llc::Group::shift"});
    // Nothing is left half-done: the group and the ring still work.
    std::vector<int> good(4, -1);
    g.shift(std::span<const int>(send), std::span<int>(good));
    EXPECT_EQ(good, std::vector<int>(4, (g.rank() + g.size() - 1) % g.size()));
}

TEST(ErrorsTest, SplitPhaseShiftChecksAsShiftDoes) {
    auto& g = world();
    if (g.size() == 1) {
        GTEST_SKIP() << "a size mismatch needs a second rank";
    }
    // Rank 0 expects one element too many from its source, then the offsets differ: an error on every rank, naming the
    // split-phase call (the rank at fault names the argument, the others say another rank rejected its arguments),
    // and no message left in flight.
    const std::vector<int> send(3, g.rank());
    std::vector<int> recv(g.rank() == 0 ? 4 : 3);
    expect_error_everywhere(
        [&] {
            auto flight = g.shift_start(std::span<const int>(send), std::span<int>(recv));
            flight.wait();
        },
        {"llc::Group::shift_start"});
    expect_error_everywhere(
        [&] {
            auto flight = g.shift_start(std::span<const int>(send), std::span<int>(recv), g.rank() == 0 ? 2 : 1);
            flight.wait();
        },
        {"llc::Group::shift_start"});
    std::vector<int> good(3, -1);
    g.shift_start(std::span<const int>(send), std::span<int>(good)).wait();
    EXPECT_EQ(good, std::vector<int>(3, (g.rank() + g.size() - 1) % g.size()));
}

TEST(ErrorsTest, ShiftOffsetsDifferAcrossRanks) {
    auto& g = world();
    if (g.size() < 2) {
        GTEST_SKIP() << "needs two ranks";
    }
    // Rank 0 shifts by 2, the others by 1: at P = 3 a ring exchange would wait forever for rank 1's message, so the
    // offsets must be agreed on before anything is sent.
    const std::vector<double> send(3, 1.0);
    std::vector<double> recv(3);
    expect_error_everywhere(
        [&] { g.shift(std::span<const double>(send), std::span<double>(recv), g.rank() == 0 ? 2 : 1); },
        {"llc::Group::shift", "offset", "differs"});
    // Equivalent offsets written differently (1 and P + 1) are still different arguments.
    expect_error_everywhere(
        [&] {
            g.shift(
                std::span<const double>(send), std::span<double>(recv), g.rank() == g.size() - 1 ? g.size() + 1 : 1);
        },
        {"llc::Group::shift", "offset"});
    EXPECT_EQ(g.allreduce(1, llc::Op::sum), g.size());
}

TEST(ErrorsTest, ShiftByMultipleOfGroupSizeNeedsEqualSizes) {
    auto& g = world();
    const std::vector<int> send(3, 7);
    // Every rank copies locally and gets it wrong.
    std::vector<int> recv(4);
    for (const int offset : {0, g.size(), -2 * g.size()}) {
        expect_error_everywhere([&] { g.shift(std::span<const int>(send), std::span<int>(recv), offset); },
                                {"llc::Group::shift", "recv.size()", "4", "send.size() = 3"});
    }
    // Only the last rank gets it wrong: still an error on every rank.
    std::vector<int> some(g.rank() == g.size() - 1 ? 2 : 3);
    const std::string message = error_of([&] { g.shift(std::span<const int>(send), std::span<int>(some), 0); });
    EXPECT_NE(message.find("llc::Group::shift"), std::string::npos) << message;
    EXPECT_EQ(g.allreduce(message.empty() ? 0 : 1, llc::Op::min), 1) << "some rank did not throw";
    if (g.rank() == g.size() - 1) {
        EXPECT_NE(message.find("'recv.size()' = 2"), std::string::npos) << message;
    }
}

}  // namespace
