// llc::Distribution and llc::redistribute at every P: each model's placement against this file's own placement rules
// (written from the documents, not from the library's layout code), redistribute between every pair of them against
// the placement, its round trip, its one superstep, its cost, and its argument errors on every rank.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_blocks.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/cost/redistribute.hpp>
#include <llc/distribution.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using Placement = std::vector<std::vector<std::int64_t>>;  // [q] = the global indices q holds, in local order

/// What the concept promises, checked against an expected placement.
template <llc::Distribution D>
void expect_placement(const D& d, const Placement& expected, const std::string& what) {
    SCOPED_TRACE(what);
    ASSERT_EQ(d.processors(), static_cast<int>(expected.size()));
    std::int64_t total = 0;
    for (int q = 0; q < d.processors(); ++q) {
        const auto& mine = expected[static_cast<std::size_t>(q)];
        ASSERT_EQ(d.local_size(q), static_cast<std::int64_t>(mine.size())) << "q " << q;
        for (std::size_t l = 0; l < mine.size(); ++l) {
            const std::int64_t i = mine[l];
            EXPECT_EQ(d.global_index(q, static_cast<std::int64_t>(l)), i) << "q " << q << " l " << l;
            EXPECT_EQ(d.owner(i), q) << "i " << i;
            EXPECT_EQ(d.local_index(i), static_cast<std::int64_t>(l)) << "i " << i;
        }
        total += d.local_size(q);
    }
    EXPECT_EQ(d.global_size(), total);
    EXPECT_EQ(llc::check_distribution(d), "");
}

// ---- This file's own placement rules --------------------------------------------------------------------------------

Placement blocks(std::int64_t n, int P) {  // ⌊n/P⌋, one more on the first n mod P
    Placement p(static_cast<std::size_t>(P));
    std::int64_t i = 0;
    for (int q = 0; q < P; ++q) {
        const std::int64_t size = n / P + (q < n % P ? 1 : 0);
        for (std::int64_t k = 0; k < size; ++k) {
            p[static_cast<std::size_t>(q)].push_back(i++);
        }
    }
    return p;
}

Placement block_cyclic(std::int64_t n, std::int64_t r, int P) {  // block b of r on b mod P
    Placement p(static_cast<std::size_t>(P));
    for (std::int64_t i = 0; i < n; ++i) {
        p[static_cast<std::size_t>((i / r) % P)].push_back(i);
    }
    return p;
}

Placement expanded(const Placement& base, std::int64_t k) {
    Placement p(base.size());
    for (std::size_t q = 0; q < base.size(); ++q) {
        for (const std::int64_t i : base[q]) {
            for (std::int64_t e = 0; e < k; ++e) {
                p[q].push_back(i * k + e);
            }
        }
    }
    return p;
}

/// symv's reflection mapping (its README): ⌊n/2⌋ pairs dealt in P runs, the first ⌊n/2⌋ mod P taking one more; q holds
/// its run's rows s…e−1 and their partners n−1−i; an odd n's middle row goes to P − 1.
Placement reflection(std::int64_t n, int P) {
    Placement p(static_cast<std::size_t>(P));
    const std::int64_t pairs = n / 2;
    std::int64_t s = 0;
    for (int q = 0; q < P; ++q) {
        const std::int64_t e = s + pairs / P + (q < pairs % P ? 1 : 0);
        auto& rows = p[static_cast<std::size_t>(q)];
        for (std::int64_t i = s; i < e; ++i) {
            rows.push_back(i);
            rows.push_back(n - 1 - i);
        }
        if (q == P - 1 && n % 2 == 1) {
            rows.push_back(n / 2);
        }
        std::sort(rows.begin(), rows.end());
        s = e;
    }
    return p;
}

/// Contour ranking's blocks (contour_blocks.hpp): a q × q grid when P = q², else P row strips; parts [i·n/k,
/// (i+1)·n/k).
Placement pixel_blocks(std::int64_t W, std::int64_t H, int P) {
    int q = 0;
    while ((q + 1) * (q + 1) <= P) {
        ++q;
    }
    const bool grid = q * q == P;
    const std::int64_t row_parts = grid ? q : P;
    const std::int64_t col_parts = grid ? q : 1;
    Placement p(static_cast<std::size_t>(P));
    for (std::int64_t row = 0; row < H; ++row) {
        for (std::int64_t col = 0; col < W; ++col) {
            std::int64_t a = 0;
            while ((a + 1) * H / row_parts <= row) {
                ++a;
            }
            std::int64_t b = 0;
            while ((b + 1) * W / col_parts <= col) {
                ++b;
            }
            p[static_cast<std::size_t>(a * col_parts + b)].push_back(row * W + col);
        }
    }
    return p;  // row-major within each block: the scan above visits a block's pixels in that order
}

// ---- The models -----------------------------------------------------------------------------------------------------

TEST(Distribution, EveryLayoutModelsTheConcept) {
    const int P = llc::Group::world().size();
    for (const std::int64_t n : {0, 1, 2, 5, 7, 16, 29}) {
        const llc::BlockDistribution d(n, P);
        expect_placement(d, blocks(n, P), "blocks n " + std::to_string(n));
        for (int q = 0; q < P; ++q) {  // the FFT's block layout is this distribution
            EXPECT_EQ(llc::fft_block_size(n, P, q), d.local_size(q));
            EXPECT_EQ(llc::fft_block_start(n, P, q), d.start(q));
        }
        for (const std::int64_t r : {1, 2, 3, 10}) {
            expect_placement(
                llc::BlockCyclicDistribution(n, r, P), block_cyclic(n, r, P), "block-cyclic r " + std::to_string(r));
        }
        expect_placement(llc::expand(d, 3), expanded(blocks(n, P), 3), "expanded blocks");
        if (n >= 1) {
            expect_placement(llc::SymvLayout(n, P, llc::SymvMapping::reflection), reflection(n, P), "reflection");
            expect_placement(llc::SymvLayout(n, P, llc::SymvMapping::standard), blocks(n, P), "standard");
            for (const std::int64_t r : {1, 2, 4}) {
                const auto rows = llc::RowBlocks::checked("test", 3, n, r, P);
                expect_placement(rows, block_cyclic(n, r, P), "RowBlocks rows");
                expect_placement(rows.pixels(), expanded(block_cyclic(n, r, P), 3), "RowBlocks pixels");
                const llc::IntervalTable<double> table(n, r, P, 0);
                expect_placement(table.columns(), block_cyclic(n, r, P), "IntervalTable columns");
                for (std::int64_t j = 0; j < n; ++j) {
                    EXPECT_EQ(table.columns().owner(j), table.owner(j));
                }
            }
        }
    }
    for (const auto& [W, H] :
         std::vector<std::pair<std::int64_t, std::int64_t>>{{1, 1}, {5, 3}, {7, 11}, {4, 2}, {16, 9}}) {
        const llc::PixelBlocks d(W, H, P);
        expect_placement(d, pixel_blocks(W, H, P), "PixelBlocks " + std::to_string(W) + "x" + std::to_string(H));
        for (int q = 0; q < P; ++q) {
            EXPECT_EQ(d.block(q).size(), d.local_size(q));
        }
    }
}

// ---- redistribute ---------------------------------------------------------------------------------------------------

/// Each index's value is 1000 + the index: after redistribute to `to`, rank q holds expected_to[q] + 1000.
template <llc::Distribution From, llc::Distribution To>
void expect_redistributes(const From& from, const Placement& at_from, const To& to, const Placement& at_to) {
    llc::Group& g = llc::Group::world();
    const auto me = static_cast<std::size_t>(g.rank());
    std::vector<std::int64_t> local;
    for (const std::int64_t i : at_from[me]) {
        local.push_back(1000 + i);
    }
    const std::vector<std::int64_t> moved = llc::redistribute(g, from, to, local);
    ASSERT_EQ(moved.size(), at_to[me].size());
    for (std::size_t l = 0; l < moved.size(); ++l) {
        EXPECT_EQ(moved[l], 1000 + at_to[me][l]) << "l " << l;
    }
    EXPECT_EQ(llc::redistribute(g, to, from, moved), local);  // and back
}

TEST(Redistribute, BetweenEveryPairOfLayouts) {
    const int P = llc::Group::world().size();
    for (const std::int64_t n : {1, 3, 8, 17, 40}) {
        SCOPED_TRACE("n " + std::to_string(n));
        const llc::BlockDistribution b(n, P);
        const llc::SymvLayout refl(n, P, llc::SymvMapping::reflection);
        const llc::BlockCyclicDistribution cyc(n, 2, P);
        expect_redistributes(b, blocks(n, P), refl, reflection(n, P));
        expect_redistributes(b, blocks(n, P), cyc, block_cyclic(n, 2, P));
        expect_redistributes(refl, reflection(n, P), cyc, block_cyclic(n, 2, P));
        expect_redistributes(b, blocks(n, P), b, blocks(n, P));
    }
    for (const auto& [W, H] : std::vector<std::pair<std::int64_t, std::int64_t>>{{5, 3}, {7, 11}, {16, 9}}) {
        const auto rows = llc::RowBlocks::checked("test", W, H, 2, P);
        expect_redistributes(llc::expand(llc::BlockDistribution(H, P), W),
                             expanded(blocks(H, P), W),
                             llc::PixelBlocks(W, H, P),
                             pixel_blocks(W, H, P));
        expect_redistributes(
            llc::BlockDistribution(W * H, P), blocks(W * H, P), rows.pixels(), expanded(block_cyclic(H, 2, P), W));
    }
}

TEST(Redistribute, IsOneAlltoallvAndItsCostIsStated) {
    llc::Group& g = llc::Group::world();
    const int P = g.size();
    const llc::BlockDistribution from(23, P);
    const llc::SymvLayout to(23, P, llc::SymvMapping::reflection);
    const std::vector<double> local(static_cast<std::size_t>(from.local_size(g.rank())), 1.0);
    llc::Trace::enable(true);
    (void)llc::redistribute(g, from, to, local);
    const llc::TraceNode record = llc::Trace::local();
    llc::Trace::enable(false);
    int supersteps = 0;
    for (const llc::TraceNode& node : record.children) {
        if (node.op == "alltoallv") {
            ++supersteps;
            EXPECT_EQ(node.label, llc::names::distribution::redistribute);
            EXPECT_EQ(node.bytes, local.size() * sizeof(double));
        }
    }
    EXPECT_EQ(supersteps, 1);
    const llc::cost::Expr expr = llc::cost::redistribute(from, to, sizeof(double));
    EXPECT_EQ(expr.op(), "alltoallv");
    EXPECT_EQ(expr.label(), llc::names::distribution::redistribute);
    EXPECT_EQ(expr.processors(), P);
    EXPECT_EQ(expr.bytes(), static_cast<double>((23 + P - 1) / P * 8));  // the largest block, ⌈23/P⌉ entries
    EXPECT_THROW((void)llc::cost::redistribute(from, llc::BlockDistribution(24, P), 8), llc::Error);
}

TEST(Redistribute, MismatchesAreErrorsOnEveryRank) {
    llc::Group& g = llc::Group::world();
    const int P = g.size();
    const int last = P - 1;
    using llc::test::expect_error_everywhere;
    const llc::BlockDistribution from(12, P);
    const std::vector<int> local(static_cast<std::size_t>(from.local_size(g.rank())), 7);
    // Different global sizes of from and to.
    expect_error_everywhere([&] { (void)llc::redistribute(g, from, llc::BlockDistribution(13, P), local); },
                            {"llc::redistribute", "global_size"});
    // A wrong local size on one rank.
    std::vector<int> wrong = local;
    if (g.rank() == last) {
        wrong.push_back(1);
    }
    expect_error_everywhere([&] { (void)llc::redistribute(g, from, from, wrong); }, {"llc::redistribute"});
    // A distribution on another number of processors.
    expect_error_everywhere([&] { (void)llc::redistribute(g, from, llc::BlockDistribution(12, P + 1), local); },
                            {"llc::redistribute", "processors"});
    if (P > 1) {
        // One rank's `to` differs from the others': its sizes and the fingerprint of its local sizes differ.
        const llc::BlockCyclicDistribution other(12, g.rank() == last ? 1 : 5, P);
        expect_error_everywhere([&] { (void)llc::redistribute(g, from, other, local); }, {"llc::redistribute"});
        const llc::BlockDistribution bigger(g.rank() == last ? 14 : 12, P);
        std::vector<int> sized(static_cast<std::size_t>(bigger.local_size(g.rank())), 1);
        expect_error_everywhere([&] { (void)llc::redistribute(g, bigger, bigger, sized); },
                                {"llc::redistribute", "global_size"});
    }
}

}  // namespace
