// SWAP's partner relation and sizes are agreed on before any data moves: a relation that does not pair the ranks up
// (a names b, b names c), a partner outside the group, or a receive size that is not the partner's send size is an
// llc::Error on every rank, naming the function, the argument and the values — before the check, a hang (the timeout
// fails the test) or a throw on one rank alone. Also the scalar allreduce's agreement on its operation. Registered at
// P = 2, 3, 4, 5, 8 with a short timeout.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using llc::test::expect_error_everywhere;

llc::Group& world() {
    return llc::Group::world();
}

/// What rank q sends: its entries say who sent them and where they were.
std::vector<int> payload(int q, std::size_t n) {
    std::vector<int> v(n);
    for (std::size_t i = 0; i < n; ++i) {
        v[i] = 1000 * q + static_cast<int>(i);
    }
    return v;
}

/// Swaps along `partner_of` (a matching, written out by each test) and checks what arrived against payload().
void expect_swap_delivers(const std::vector<int>& partner_of) {
    auto& g = world();
    const int me = g.rank();
    const int partner = partner_of[static_cast<std::size_t>(me)];
    const std::vector<int> send = payload(me, 5);
    std::vector<int> recv(5, -1);
    g.swap(partner, std::span<const int>(send), std::span<int>(recv));
    EXPECT_EQ(recv, payload(partner, 5)) << "rank " << me << " with partner " << partner;
}

/// Swaps `send_count` doubles for `recv_count` with `partner` on this rank and expects an llc::Error on every rank
/// whose message contains every fragment (the relation or the sizes that the cases below get wrong on purpose).
void expect_swap_error(int partner,
                       std::size_t send_count,
                       std::size_t recv_count,
                       std::initializer_list<std::string> fragments) {
    const std::vector<double> send(send_count, 1.0);
    std::vector<double> recv(recv_count);
    expect_error_everywhere([&] { world().swap(partner, std::span<const double>(send), std::span<double>(recv)); },
                            fragments);
}

// ---- Relations that pair the ranks up still exchange the right data
// --------------------------------------------------

TEST(SwapPairing, MatchingsDeliver) {
    const int P = world().size();
    // Neighbours 0-1, 2-3, …, the last alone at odd P; then the mirror r ↔ P-1-r (the middle alone at odd P).
    std::vector<int> neighbours(static_cast<std::size_t>(P));
    std::vector<int> mirror(static_cast<std::size_t>(P));
    for (int r = 0; r < P; ++r) {
        const int n = r % 2 == 0 ? r + 1 : r - 1;
        neighbours[static_cast<std::size_t>(r)] = n < P ? n : r;
        mirror[static_cast<std::size_t>(r)] = P - 1 - r;
    }
    expect_swap_delivers(neighbours);
    expect_swap_delivers(mirror);
    // Everyone alone: a local copy on every rank.
    std::vector<int> self(static_cast<std::size_t>(P));
    for (int r = 0; r < P; ++r) {
        self[static_cast<std::size_t>(r)] = r;
    }
    expect_swap_delivers(self);
}

// ---- Relations that do not pair up ---------------------------------------------------------------------------------

TEST(SwapPairing, PartnerThatNamesItselfIsAnErrorEverywhere) {
    // Rank 0 names 1, every other rank (1 too) names itself: rank 0 waited for rank 1 forever.
    auto& g = world();
    const int partner = g.rank() == 0 ? 1 : g.rank();
    expect_swap_error(partner, 3, 3, {"llc::Group::swap", "argument 'partner'", "rank 0 names 1, but rank 1 names 1"});
}

TEST(SwapPairing, ChainIntoAPairIsAnErrorEverywhere) {
    // 0 → 1, 1 ↔ 2, the rest alone: ranks 1 and 2 would swap and go on, rank 0 would wait forever.
    auto& g = world();
    if (g.size() < 3) {
        GTEST_SKIP() << "needs three ranks";
    }
    const int me = g.rank();
    const int partner = me == 0 ? 1 : me == 1 ? 2 : me == 2 ? 1 : me;
    expect_swap_error(partner, 3, 3, {"llc::Group::swap", "argument 'partner'", "rank 0 names 1, but rank 1 names 2"});
}

TEST(SwapPairing, RingIsAnErrorEverywhere) {
    // r → r + 1 mod P: every rank waits for its successor, which sends to the next one.
    auto& g = world();
    if (g.size() < 3) {
        GTEST_SKIP() << "a ring of two is a pair";
    }
    const int P = g.size();
    const int partner = (g.rank() + 1) % P;
    expect_swap_error(partner, 3, 3, {"llc::Group::swap", "argument 'partner'", "rank 0 names 1, but rank 1 names 2"});
    // Every rank's message is the same and lists the ranks (up to eight).
    if (P <= 8) {
        expect_swap_error(partner, 3, 3, {"rank " + std::to_string(P - 1) + " names 0, but rank 0 names 1"});
    }
}

TEST(SwapPairing, PartnerOutsideTheGroupIsAnErrorEverywhere) {
    // Before: thrown on the last rank alone, while its partner waited for it.
    auto& g = world();
    const int P = g.size();
    const int me = g.rank();
    const int n = me % 2 == 0 ? me + 1 : me - 1;
    const int partner = me == P - 1 ? P : (n < P ? n : me);
    expect_swap_error(partner, 2, 2, {"llc::Group::swap", "partner"});
    if (me == P - 1) {
        expect_swap_error(
            partner, 2, 2, {"argument 'partner' = " + std::to_string(P), "[0, " + std::to_string(P) + ")"});
    } else {
        expect_swap_error(
            partner, 2, 2, {"rank " + std::to_string(P - 1) + ": llc::Group::swap: argument 'partner' = "});
    }
}

TEST(SwapPairing, SizeMismatchIsAnErrorEverywhere) {
    // Ranks 0 and 1 pair up, rank 1 expects one element more than rank 0 sends; the other ranks alone. Before: an
    // error on ranks 0 and 1 only.
    auto& g = world();
    const int me = g.rank();
    const int partner = me <= 1 ? 1 - me : me;
    expect_swap_error(partner,
                      4,
                      me == 1 ? 5 : 4,
                      {"llc::Group::swap",
                       "mismatched buffer sizes",
                       "'recv.size()'",
                       "rank 1 receives 5 elements from rank 0, which sends 4"});
}

TEST(SwapPairing, SelfSwapOfUnequalSizesIsAnErrorEverywhere) {
    auto& g = world();
    const int me = g.rank();
    const int last = g.size() - 1;
    expect_swap_error(me, 3, me == last ? 2 : 3, {"llc::Group::swap", "recv.size()"});
}

// ---- The trace: still one superstep "swap", the check inside it ----------------------------------------------------

TEST(SwapPairing, OneSuperstepSwap) {
    auto& g = world();
    const int me = g.rank();
    const int n = me % 2 == 0 ? me + 1 : me - 1;
    const int partner = n < g.size() ? n : me;
    const std::vector<double> send(6, 1.0);
    std::vector<double> recv(6);
    g.barrier();
    llc::Trace::enable(true);
    g.swap(partner, std::span<const double>(send), std::span<double>(recv));
    g.barrier();
    const llc::Trace trace = llc::Trace::gather(g);
    llc::Trace::enable(false);
    if (me != 0) {
        return;
    }
    for (const llc::TraceNode& root : trace.per_rank()) {
        ASSERT_GE(root.children.size(), 2U);
        EXPECT_EQ(root.children[0].op, "swap");
        EXPECT_EQ(root.children[0].bytes, 12 * sizeof(double));
        EXPECT_EQ(root.children[1].op, "barrier");
    }
}

// ---- The scalar allreduce agrees on its operation
// --------------------------------------------------------------------

TEST(ScalarAllreduce, OperationMismatchIsAnErrorEverywhere) {
    // Before: no check; ranks reducing with different operations each got a different, wrong result.
    auto& g = world();
    const llc::Op op = g.rank() == g.size() - 1 ? llc::Op::max : llc::Op::sum;
    expect_error_everywhere([&] { (void)g.allreduce(g.rank() + 1, op); },
                            {"llc::Group::allreduce", "argument 'op'", "differs across the ranks"});
    // The same operation everywhere still reduces: 1 + 2 + … + P.
    const int P = g.size();
    EXPECT_EQ(g.allreduce(g.rank() + 1, llc::Op::sum), P * (P + 1) / 2);
    EXPECT_EQ(g.allreduce(static_cast<double>(g.rank()), llc::Op::max), static_cast<double>(P - 1));
}

}  // namespace
