// Group's collectives against values every rank can compute by itself.
#include <algorithm>
#include <cmath>
#include <complex>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/serialization/map.hpp>
#include <boost/serialization/string.hpp>
#include <gtest/gtest.h>

#include <llc/llc.hpp>

namespace {

llc::Group& world() {
    return llc::Group::world();
}

TEST(CollectivesTest, BcastFromEveryRoot) {
    auto& g = world();
    for (int root = 0; root < g.size(); ++root) {
        for (std::size_t n : {0UL, 1UL, 1023UL}) {
            std::vector<double> data(n, g.rank() == root ? 0.0 : -1.0);
            if (g.rank() == root) {
                std::iota(data.begin(), data.end(), static_cast<double>(root));
            }
            g.bcast(std::span<double>(data), root);
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(data[i], static_cast<double>(root) + static_cast<double>(i));
            }
        }
    }
    std::vector<int> value{g.rank() == 0 ? 42 : 0};
    g.bcast(value, 0);  // serialised path (std::vector is not trivially copyable)
    EXPECT_EQ(value, std::vector<int>{42});
}

// A value that is not trivially copyable nor a container of such: serialised (a Boost.Serialization binary archive
// over MPI bytes), from every root; the expected map is built here, by each rank on its own.
TEST(CollectivesTest, BcastSerialisedMapFromEveryRoot) {
    auto& g = world();
    for (int root = 0; root < g.size(); ++root) {
        std::map<std::string, int> expected;
        for (int k = 0; k <= root % 5; ++k) {
            expected["key " + std::to_string(k) + std::string(static_cast<std::size_t>(k) * 40, 'x')] = root * 10 + k;
        }
        std::map<std::string, int> value;
        if (g.rank() == root) {
            value = expected;
        } else {
            value["stale"] = -1;
        }
        g.bcast(value, root);
        EXPECT_EQ(value, expected) << "root " << root;
    }
}

TEST(CollectivesTest, ReduceAndAllreduce) {
    auto& g = world();
    const int P = g.size();
    std::vector<long long> in{g.rank(), 1, -g.rank()};
    std::vector<long long> out(3, 0);
    g.allreduce(std::span<const long long>(in), std::span<long long>(out), llc::Op::sum);
    EXPECT_EQ(
        out,
        (std::vector<long long>{static_cast<long long>(P) * (P - 1) / 2, P, -static_cast<long long>(P) * (P - 1) / 2}));
    EXPECT_EQ(g.allreduce(g.rank(), llc::Op::max), P - 1);
    EXPECT_EQ(g.allreduce(g.rank() + 1.0, llc::Op::min), 1.0);
    const std::complex<double> z = g.allreduce(std::complex<double>(1.0, g.rank()), llc::Op::sum);
    EXPECT_EQ(z, std::complex<double>(P, static_cast<double>(P) * (P - 1) / 2));
    std::vector<double> reduced(g.rank() == P - 1 ? 1 : 0);
    const std::vector<double> mine{2.0};
    g.reduce(std::span<const double>(mine), std::span<double>(reduced), llc::Op::prod, P - 1);
    if (g.rank() == P - 1) {
        EXPECT_EQ(reduced[0], std::pow(2.0, P));
    }
}

TEST(CollectivesTest, GatherAllgatherScatterAlltoall) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    const std::vector<int> two{me, 10 * me};
    const auto all = g.allgather(std::span<const int>(two));
    ASSERT_EQ(all.size(), static_cast<std::size_t>(2 * P));
    for (int q = 0; q < P; ++q) {
        EXPECT_EQ(all[static_cast<std::size_t>(2 * q)], q);
        EXPECT_EQ(all[static_cast<std::size_t>(2 * q + 1)], 10 * q);
    }
    const auto gathered = g.gather(std::span<const int>(two), 0);
    EXPECT_EQ(gathered.size(), me == 0 ? all.size() : 0U);
    // Uneven: rank q contributes q + 1 copies of q.
    const std::vector<int> mine(static_cast<std::size_t>(me + 1), me);
    std::vector<int> counts;
    const auto v = g.allgatherv(std::span<const int>(mine), &counts);
    ASSERT_EQ(v.size(), static_cast<std::size_t>(P * (P + 1) / 2));
    std::size_t k = 0;
    for (int q = 0; q < P; ++q) {
        EXPECT_EQ(counts[static_cast<std::size_t>(q)], q + 1);
        for (int c = 0; c <= q; ++c) {
            EXPECT_EQ(v[k++], q);
        }
    }
    const auto gv = g.gatherv(std::span<const int>(mine), P - 1);
    EXPECT_EQ(gv.size(), me == P - 1 ? v.size() : 0U);
    // scatter: root holds 0 … 3P-1, everyone gets 3 consecutive.
    std::vector<int> source;
    if (me == 0) {
        source.resize(static_cast<std::size_t>(3 * P));
        std::iota(source.begin(), source.end(), 0);
    }
    std::vector<int> block(3);
    g.scatter(std::span<const int>(source), std::span<int>(block), 0);
    EXPECT_EQ(block, (std::vector<int>{3 * me, 3 * me + 1, 3 * me + 2}));
    // alltoall: element q of rank p is p * 100 + q; afterwards element p of rank q is p * 100 + q.
    std::vector<int> send(static_cast<std::size_t>(P));
    for (int q = 0; q < P; ++q) {
        send[static_cast<std::size_t>(q)] = me * 100 + q;
    }
    std::vector<int> recv(static_cast<std::size_t>(P));
    g.alltoall(std::span<const int>(send), std::span<int>(recv));
    for (int p = 0; p < P; ++p) {
        EXPECT_EQ(recv[static_cast<std::size_t>(p)], p * 100 + me);
    }
    // alltoallv: rank p sends q + 1 copies of p to rank q.
    std::vector<int> send_counts(static_cast<std::size_t>(P));
    std::vector<int> payload;
    for (int q = 0; q < P; ++q) {
        send_counts[static_cast<std::size_t>(q)] = q + 1;
        payload.insert(payload.end(), static_cast<std::size_t>(q + 1), me);
    }
    std::vector<int> recv_counts;
    const auto got = g.alltoallv(std::span<const int>(payload), std::span<const int>(send_counts), &recv_counts);
    ASSERT_EQ(got.size(), static_cast<std::size_t>(P * (me + 1)));
    for (int p = 0; p < P; ++p) {
        EXPECT_EQ(recv_counts[static_cast<std::size_t>(p)], me + 1);
        EXPECT_EQ(got[static_cast<std::size_t>(p * (me + 1))], p);
    }
}

TEST(CollectivesTest, SwapWithHypercubePartner) {
    auto& g = world();
    const int partner = g.rank() ^ 1;
    if (partner >= g.size()) {
        // Odd P: the last rank swaps with itself.
        std::vector<double> send{1.0, 2.0};
        std::vector<double> recv(2);
        g.swap(g.rank(), std::span<const double>(send), std::span<double>(recv));
        EXPECT_EQ(recv, send);
        return;
    }
    const std::vector<int> send(100, g.rank());
    std::vector<int> recv(100, -1);
    g.swap(partner, std::span<const int>(send), std::span<int>(recv));
    EXPECT_EQ(recv, std::vector<int>(100, partner));
}

// SHIFT oracles: rank q's element i is q * 1e6 + i, so a received value says which rank sent it and where it was.
double shift_value(int rank, std::size_t i) {
    return 1e6 * rank + static_cast<double>(i);
}

// The rank `offset` places behind r on the ring of P, computed from scratch (no use of the implementation).
int ring_source(int r, int offset, int P) {
    int source = r;
    const int steps = offset >= 0 ? offset : -offset;
    for (int k = 0; k < steps; ++k) {
        source = offset >= 0 ? (source == 0 ? P - 1 : source - 1) : (source == P - 1 ? 0 : source + 1);
    }
    return source;
}

TEST(CollectivesTest, ShiftEveryOffsetAndSize) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    for (const int offset : {1, -1, 2, P, P + 1, 0, -(P + 1)}) {
        const int source = ring_source(me, offset, P);
        for (const std::size_t n : {0UL, 1UL, 7UL, 100003UL}) {
            std::vector<double> send(n);
            for (std::size_t i = 0; i < n; ++i) {
                send[i] = shift_value(me, i);
            }
            std::vector<double> recv(n, -1.0);
            g.shift(std::span<const double>(send), std::span<double>(recv), offset);
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(recv[i], shift_value(source, i))
                    << "offset " << offset << ", size " << n << ", rank " << me << ", element " << i;
            }
        }
    }
}

TEST(CollectivesTest, ShiftDefaultOffsetAndStructs) {
    auto& g = world();
    struct Cell {
        int rank;
        short index;
        char tag;
    };
    std::vector<Cell> send(5);
    for (std::size_t i = 0; i < send.size(); ++i) {
        send[i] = Cell{g.rank(), static_cast<short>(i), 'x'};
    }
    std::vector<Cell> recv(5, Cell{-1, -1, '?'});
    g.shift(std::span<const Cell>(send), std::span<Cell>(recv));  // offset 1: from the previous rank
    const int source = ring_source(g.rank(), 1, g.size());
    for (std::size_t i = 0; i < recv.size(); ++i) {
        EXPECT_EQ(recv[i].rank, source);
        EXPECT_EQ(recv[i].index, static_cast<short>(i));
        EXPECT_EQ(recv[i].tag, 'x');
    }
}

TEST(CollectivesTest, ShiftUnevenSizes) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    // Rank r sends r + 1 elements; each rank receives what its source sends.
    for (const int offset : {1, -1, 2, P + 1}) {
        const int source = ring_source(me, offset, P);
        std::vector<double> send(static_cast<std::size_t>(me + 1));
        for (std::size_t i = 0; i < send.size(); ++i) {
            send[i] = shift_value(me, i);
        }
        std::vector<double> recv(static_cast<std::size_t>(source + 1), -1.0);
        g.shift(std::span<const double>(send), std::span<double>(recv), offset);
        for (std::size_t i = 0; i < recv.size(); ++i) {
            ASSERT_EQ(recv[i], shift_value(source, i)) << "offset " << offset << ", rank " << me;
        }
    }
}

TEST(CollectivesTest, ShiftPipelineVisitsEveryBlock) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    // Block q has q + 2 elements. After step s (s = 0 … P-1), rank r holds block (r - s) mod P.
    auto block = [](int q) {
        std::vector<long long> b(static_cast<std::size_t>(q + 2));
        for (std::size_t i = 0; i < b.size(); ++i) {
            b[i] = 1000LL * q + static_cast<long long>(i);
        }
        return b;
    };
    std::vector<long long> held = block(me);
    std::vector<int> seen{me};
    for (int s = 1; s < P; ++s) {
        const int arriving = ((me - s) % P + P) % P;
        std::vector<long long> next(static_cast<std::size_t>(arriving + 2), -1);
        g.shift(std::span<const long long>(held), std::span<long long>(next));
        ASSERT_EQ(next, block(arriving)) << "step " << s << ", rank " << me;
        held = std::move(next);
        seen.push_back(arriving);
    }
    std::sort(seen.begin(), seen.end());
    std::vector<int> all(static_cast<std::size_t>(P));
    std::iota(all.begin(), all.end(), 0);
    EXPECT_EQ(seen, all);
    EXPECT_EQ(held, block((me + 1) % P));
}

TEST(CollectivesTest, SplitPhaseShiftMovesWhatShiftMoves) {
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    for (const int offset : {1, -1, 2, P, 0}) {
        const int source = ring_source(me, offset, P);
        // Uneven sizes (rank r sends r + 1 + n), small and above the shared-memory eager limit.
        for (const std::size_t n : {0UL, 3UL, 100003UL}) {
            std::vector<double> send(n + static_cast<std::size_t>(me) + 1);
            for (std::size_t i = 0; i < send.size(); ++i) {
                send[i] = shift_value(me, i);
            }
            const std::size_t arriving = offset % P == 0 ? send.size() : n + static_cast<std::size_t>(source) + 1;
            std::vector<double> recv(arriving, -1.0);
            llc::ShiftInFlight flight = g.shift_start(std::span<const double>(send), std::span<double>(recv), offset);
            // Work that overlaps the transfer, touching neither buffer.
            double sum = 0.0;
            for (int k = 0; k < 1000; ++k) {
                sum += std::sqrt(static_cast<double>(k));
            }
            EXPECT_GT(sum, 0.0);
            EXPECT_FALSE(flight.done());
            flight.wait();
            EXPECT_TRUE(flight.done());
            flight.wait();  // a second wait does nothing
            for (std::size_t i = 0; i < recv.size(); ++i) {
                ASSERT_EQ(recv[i], shift_value(source, i))
                    << "offset " << offset << ", size " << n << ", rank " << me << ", element " << i;
            }
        }
    }
}

TEST(CollectivesTest, SplitPhaseShiftCompletesWhenUnwinding) {
    auto& g = world();
    const std::vector<int> send(50000, g.rank());
    std::vector<int> recv(50000, -1);
    try {
        const llc::ShiftInFlight flight = g.shift_start(std::span<const int>(send), std::span<int>(recv));
        throw std::runtime_error("work between the phases failed");
    } catch (const std::runtime_error&) {
    }
    // The destructor completed the messages: the data is there and the ring is free for the next exchange.
    EXPECT_EQ(recv, std::vector<int>(50000, ring_source(g.rank(), 1, g.size())));
    std::vector<int> again(50000, -1);
    g.shift(std::span<const int>(send), std::span<int>(again));
    EXPECT_EQ(again, recv);
}

TEST(CollectivesTest, ShiftWithChecksOff) {
    auto& g = world();
    llc::Group::set_checks(false);
    const std::vector<int> send{g.rank(), g.rank()};
    std::vector<int> recv(2, -1);
    g.shift(std::span<const int>(send), std::span<int>(recv), -1);
    llc::Group::set_checks(true);
    const int source = ring_source(g.rank(), -1, g.size());
    EXPECT_EQ(recv, (std::vector<int>{source, source}));
}

TEST(CollectivesTest, ScatterAndGatherOfOneElementEach) {
    auto& g = world();
    std::vector<double> all;
    if (g.rank() == 0) {
        all.assign(static_cast<std::size_t>(g.size()), 0.5);
    }
    const std::vector<int> counts(static_cast<std::size_t>(g.size()), 1);
    const auto mine = g.scatterv(std::span<const double>(all), std::span<const int>(counts), 0);
    EXPECT_EQ(mine, std::vector<double>{0.5});
}

TEST(CollectivesTest, ReorderedGroupNumbersTheSameProcessorsOtherwise) {
    auto& g = llc::Group::world();
    const int P = g.size();
    // Reversed order: rank k of the new group is rank P − 1 − k of the world.
    std::vector<int> order(static_cast<std::size_t>(P));
    for (int k = 0; k < P; ++k) {
        order[static_cast<std::size_t>(k)] = P - 1 - k;
    }
    auto& r = g.reordered(order);
    EXPECT_EQ(r.size(), P);
    EXPECT_EQ(r.rank(), P - 1 - g.rank());
    const int mine = g.rank();
    const auto seen = r.allgather(std::span<const int>(&mine, 1));
    EXPECT_EQ(seen, order);
    // Cached: the same order gives the same group without another split; the identity is the group itself.
    const int splits = g.splits();
    EXPECT_EQ(&g.reordered(order), &r);
    EXPECT_EQ(g.splits(), splits);
    std::vector<int> identity(static_cast<std::size_t>(P));
    std::iota(identity.begin(), identity.end(), 0);
    EXPECT_EQ(&g.reordered(identity), &g);
    EXPECT_EQ(r.depth(), g.depth());
    // Rank 0 twice (at P = 1, a rank out of range).
    const std::vector<int> twice = P > 1 ? std::vector<int>(static_cast<std::size_t>(P), 0) : std::vector<int>{1};
    EXPECT_THROW((void)g.reordered(twice), llc::Error) << "not a permutation";
    EXPECT_THROW((void)g.reordered({}), llc::Error) << "wrong size";
}

}  // namespace
