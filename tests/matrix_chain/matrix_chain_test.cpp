// llc::matrix_chain and llc::optimal_bst against oracles written here, sharing no code with the library: brute force
// over every parenthesisation / every tree (n ≤ 10), the textbook O(n³) chain DP and the textbook O(n³) optimal-BST
// DP (no Knuth window), each checked first on cases worked out by hand; the article's message tables. The library's
// own sequential peers (llc::sequential) are held to the same DPs.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/group.hpp>
#include <llc/trace.hpp>

#include "../support/expect_error.hpp"
#include "smpi_sizes.hpp"
#include "textbook_dp.hpp"
#include "trace_fixtures.hpp"

namespace {

using llc::Group;
using namespace llc::test::interval_dp;  // the oracles
using llc::test::matrix_chain::random_dims;
using llc::test::matrix_chain::shape_profile;

/// Cost of a parenthesisation string "((A1A2)A3)", evaluated from the string alone.
std::int64_t cost_of(const std::string& s, const std::vector<std::int64_t>& d) {
    struct Shape {
        std::int64_t rows, cols, cost;
    };
    std::vector<Shape> stack;
    for (std::size_t p = 0; p < s.size();) {
        if (s[p] == 'A') {
            std::size_t q = p + 1;
            while (q < s.size() && std::isdigit(static_cast<unsigned char>(s[q]))) {
                ++q;
            }
            const int m = std::stoi(s.substr(p + 1, q - p - 1)) - 1;
            stack.push_back({d[m], d[m + 1], 0});
            p = q;
        } else {
            if (s[p] == ')') {
                const Shape b = stack.back();
                stack.pop_back();
                const Shape a = stack.back();
                stack.pop_back();
                EXPECT_EQ(a.cols, b.rows);
                stack.push_back({a.rows, b.cols, a.cost + b.cost + a.rows * a.cols * b.cols});
            }
            ++p;
        }
    }
    EXPECT_EQ(stack.size(), 1U);
    return stack.back().cost;
}

/// The chain DP restricted as Knuth's BST algorithm restricts it (k(i,j−1) ≤ k ≤ k(i+1,j)): wrong for chains.
std::int64_t knuth_restricted_chain(const std::vector<std::int64_t>& d) {
    const int n = static_cast<int>(d.size()) - 1;
    std::vector<std::vector<std::int64_t>> c(n, std::vector<std::int64_t>(n, 0));
    std::vector<std::vector<int>> s(n, std::vector<int>(n, 0));
    for (int i = 0; i < n; ++i) {
        s[i][i] = i;
    }
    for (int len = 1; len < n; ++len) {
        for (int i = 0; i + len < n; ++i) {
            const int j = i + len;
            const int lo = len == 1 ? i : s[i][j - 1];
            const int hi = len == 1 ? i : std::min(s[i + 1][j], j - 1);
            c[i][j] = std::numeric_limits<std::int64_t>::max();
            for (int k = lo; k <= hi; ++k) {
                const std::int64_t q = c[i][k] + c[k + 1][j] + d[i] * d[k + 1] * d[j + 1];
                if (q < c[i][j]) {
                    c[i][j] = q;
                    s[i][j] = k;
                }
            }
        }
    }
    return c[0][n - 1];
}

/// A test's r: 0 stands for "unset" (the library's choice).
std::optional<std::int64_t> block(std::int64_t r) {
    return r > 0 ? std::optional<std::int64_t>(r) : std::nullopt;
}

TEST(Oracles, TextbookDpsOnCasesWorkedByHand) {
    // CLRS §15.2's chain: 15125 multiplications, ((A1(A2A3))((A4A5)A6)).
    std::vector<std::int32_t> split;
    EXPECT_EQ(textbook_chain({30, 35, 15, 5, 10, 20, 25}, split), 15125);
    EXPECT_EQ(parens(split, 6, 0, 5), "((A1(A2A3))((A4A5)A6))");
    // 10×20·20×30 first (6000), then ·30×40 (12000), then ·40×30 (12000).
    EXPECT_EQ(textbook_chain({10, 20, 30, 40, 30}, split), 30000);
    EXPECT_EQ(parens(split, 4, 0, 3), "(((A1A2)A3)A4)");
    // 20×30·30×10 (6000), 40×20·20×10 (8000), ·10×30 (12000).
    EXPECT_EQ(textbook_chain({40, 20, 30, 10, 30}, split), 26000);
    EXPECT_EQ(parens(split, 4, 0, 3), "((A1(A2A3))A4)");
    EXPECT_EQ(textbook_chain({7, 9}, split), 0);
    EXPECT_EQ(parens(split, 1, 0, 0), "A1");
    // CLRS §15.5's frequencies without the dummy keys, 15 10 5 10 20: root k2, k1 on its left, k5 on its right, k4
    // under k5, k3 under k4: 10·1 + 15·2 + 20·2 + 10·3 + 5·4 = 130.
    const BstTables clrs = textbook_bst({15, 10, 5, 10, 20});
    EXPECT_EQ(clrs.cost(), 130.0);
    EXPECT_EQ(bst_parents(clrs), (std::vector<int>{1, -1, 3, 4, 1}));
    // 34 8 50: 50 at the root, 34 under it, 8 under 34: 50 + 68 + 24 = 142.
    EXPECT_EQ(textbook_bst({34, 8, 50}).cost(), 142.0);
    EXPECT_EQ(bst_parents(textbook_bst({34, 8, 50})), (std::vector<int>{2, 0, -1}));
    // 1 2 3: root 2 (1 + 3 below it: 2 + 2·4 = 10) ties with root 3 (3 + 2·2 + 1·3 = 10): the smallest root, key 1.
    EXPECT_EQ(textbook_bst({1, 2, 3}).cost(), 10.0);
    EXPECT_EQ(textbook_bst({1, 2, 3}).root[1][3], 2);
    // 4 2 6 3: 6 at the root, 4 and 3 under it, 2 under 4: 6 + 8 + 6 + 6 = 26.
    EXPECT_EQ(textbook_bst({4, 2, 6, 3}).cost(), 26.0);
    EXPECT_EQ(bst_parents(textbook_bst({4, 2, 6, 3})), (std::vector<int>{2, 0, -1, 2}));
    EXPECT_EQ(textbook_bst({5}).cost(), 5.0);
}

TEST(Oracles, TextbookDpsAgreeWithBruteForce) {
    std::mt19937_64 rng(17);
    for (int n = 1; n <= 9; ++n) {
        const auto dims = random_dims(rng, n, 40);
        std::vector<std::int32_t> split;
        EXPECT_EQ(textbook_chain(dims, split), brute_chain(dims, 0, n - 1)) << "n=" << n;
        std::uniform_int_distribution<int> dist(0, 20);
        std::vector<double> f(static_cast<std::size_t>(n));
        for (auto& x : f) {
            x = dist(rng);
        }
        EXPECT_EQ(textbook_bst(f).cost(), brute_bst(f, 0, n)) << "n=" << n;
    }
}

TEST(Oracles, LibrarySequentialPeersMatchTheTextbookDps) {
    // llc::sequential's loops are the peers llc-compare times: they are held to the DPs written here too.
    std::mt19937_64 rng(19);
    for (const int n : {1, 2, 7, 40, 101}) {
        const auto dims = random_dims(rng, n, 500);
        std::vector<std::int32_t> want;
        std::vector<std::int32_t> got;
        EXPECT_EQ(llc::sequential::matrix_chain_textbook(dims, &got), textbook_chain(dims, want)) << "n=" << n;
        EXPECT_EQ(got, want) << "n=" << n;
        EXPECT_EQ(llc::sequential::parenthesization(n, got), parens(want, n, 0, n - 1));
        std::uniform_int_distribution<int> dist(0, 20);
        std::vector<double> f(static_cast<std::size_t>(n));
        for (auto& x : f) {
            x = dist(rng);
        }
        const BstTables t = textbook_bst(f);
        std::vector<std::int32_t> cubic_root;
        std::vector<std::int32_t> knuth_root;
        EXPECT_EQ(llc::sequential::optimal_bst_cubic(f, &cubic_root), t.cost()) << "n=" << n;
        EXPECT_EQ(llc::sequential::optimal_bst_knuth(f, &knuth_root), t.cost()) << "n=" << n;
        // Every root of the (n+1) × (n+1) tables: k(i, j) over keys i … j−1 is the textbook root[i+1][j] − 1.
        for (int i = 0; i < n; ++i) {
            for (int j = i + 1; j <= n; ++j) {
                const auto at = static_cast<std::size_t>(i * (n + 1) + j);
                ASSERT_EQ(cubic_root[at], t.root[i + 1][j] - 1) << "cubic n=" << n << " k(" << i << "," << j << ")";
                ASSERT_EQ(knuth_root[at], t.root[i + 1][j] - 1) << "Knuth n=" << n << " k(" << i << "," << j << ")";
            }
        }
    }
}

/// Checks every owned column of a ring result against the textbook table, entry by entry (cost and split).
void expect_same_table(const llc::MatrixChainResult& got, const std::vector<std::int64_t>& dims) {
    const TextbookTable& oracle = textbook_table(dims);
    const std::int64_t want = oracle.cost;
    const std::vector<std::int32_t>& split = oracle.split;
    const std::int64_t n = got.table.n();
    EXPECT_EQ(got.cost, want);
    EXPECT_EQ(got.parenthesization, parens(split, static_cast<int>(n), 0, static_cast<int>(n) - 1));
    for (std::int64_t j = 0; j < n; ++j) {
        if (!got.table.owns(j)) {
            continue;
        }
        for (std::int64_t i = 0; i < j; ++i) {
            ASSERT_EQ(got.table.split(i, j), split[static_cast<std::size_t>(i * n + j)])
                << "n=" << n << " r=" << got.r << " (" << i << "," << j << ")";
        }
    }
}

TEST(MatrixChain, DigestCases) {
    Group& g = Group::world();
    const auto run = [&](std::vector<std::int64_t> dims) { return llc::matrix_chain(g, dims); };
    const auto clrs = run({30, 35, 15, 5, 10, 20, 25});
    EXPECT_EQ(clrs.cost, 15125);
    EXPECT_EQ(clrs.parenthesization, "((A1(A2A3))((A4A5)A6))");
    EXPECT_EQ(run({10, 20, 30, 40, 30}).cost, 30000);
    EXPECT_EQ(run({10, 20, 30, 40, 30}).parenthesization, "(((A1A2)A3)A4)");
    EXPECT_EQ(run({40, 20, 30, 10, 30}).cost, 26000);
    EXPECT_EQ(run({40, 20, 30, 10, 30}).parenthesization, "((A1(A2A3))A4)");
    EXPECT_EQ(run({1, 2, 3, 4, 5}).cost, 38);
    EXPECT_EQ(run({10, 20, 30}).cost, 6000);
    const auto one = run({7, 9});
    EXPECT_EQ(one.cost, 0);
    EXPECT_EQ(one.parenthesization, "A1");
}

TEST(MatrixChain, BruteForceEveryParenthesisation) {
    Group& g = Group::world();
    std::mt19937_64 rng(5);
    for (int matrices = 1; matrices <= 10; ++matrices) {
        const auto dims = random_dims(rng, matrices, 30);
        const std::int64_t want = brute_chain(dims, 0, matrices - 1);
        for (const std::int64_t r : {1, 2, 3}) {
            const auto got = llc::matrix_chain(g, dims, {.r = block(r)});
            EXPECT_EQ(got.cost, want) << "matrices=" << matrices << " r=" << r;
            EXPECT_EQ(cost_of(got.parenthesization, dims), want) << got.parenthesization;
        }
    }
}

TEST(MatrixChain, RandomAgainstTextbookEveryR) {
    Group& g = Group::world();
    std::mt19937_64 rng(11);
    const std::int64_t P = g.size();
    // Under SMPI fewer lengths, still below P = 16 … 64, above it (101) and prime.
    for (const int n : llc::test::sizes_for({1, 2, 3, 5, 7, 13, 37, 64, 101}, {1, 3, 7, 37, 101})) {
        // Many ties (dims 1 … 4) test the smallest-k rule; wide dims test the values.
        for (const int top : {4, 1000}) {
            const auto dims = random_dims(rng, n, top);
            for (const std::int64_t r : {std::int64_t{1},
                                         std::int64_t{2},
                                         std::int64_t{3},
                                         std::max<std::int64_t>(1, n / P),
                                         std::int64_t{0}}) {
                expect_same_table(llc::matrix_chain(g, dims, {.r = block(r)}), dims);
            }
        }
    }
}

TEST(MatrixChain, LongRangesInChunks) {
    // Blocks whose middle k range is longer than one cache chunk (≥ 256 entries): the chunks' merge keeps the
    // smallest k.
    Group& g = Group::world();
    std::mt19937_64 rng(12);
    // r = 256, 280: middle ranges of 257 and 281 k against chunks of 256 at n = 600 (EveryCandidateTiedAcrossChunks).
    const int n = 600;
    for (const int top : {3, 1000}) {
        const auto dims = random_dims(rng, n, top);
        for (const std::int64_t r : {64, 150, 256, 280}) {
            expect_same_table(llc::matrix_chain(g, dims, {.r = block(r)}), dims);
        }
    }
}

TEST(MatrixChain, BothArithmeticsInChunksAndTies) {
    // The engine runs in double when n·max(d)³ < 2^53 and in int64 otherwise. Dims 1 … 3 with one of 2^17 put the
    // same tie-heavy chain on the int64 path (long middle ranges, narrow products); dims to 44 000 at n = 100 put
    // candidates near 2^53 on the double path, which must still be exact.
    Group& g = Group::world();
    std::mt19937_64 rng(14);
    const int n = llc::test::under_smpi ? 320 : 600;
    auto ties = random_dims(rng, n, 3);
    ties[static_cast<std::size_t>(n / 2)] = std::int64_t{1} << 17;
    auto near = random_dims(rng, 100, 44000);
    near[7] = near[50] = 44000;
    for (const std::int64_t r : {64, 150, 256}) {  // 256: two chunks at n = 600 (EveryCandidateTiedAcrossChunks)
        expect_same_table(llc::matrix_chain(g, ties, {.r = block(r)}), ties);
        expect_same_table(llc::matrix_chain(g, near, {.r = block(r)}), near);
    }
}

TEST(MatrixChain, EveryCandidateTiedAcrossChunks) {
    // Equal dimensions tie every split (with all d = d0, c(i, j) = (j − i)·d0³ whatever k), so the table must hold
    // the smallest k everywhere, within a chunk (the tagged tile's fraction, the four-row kernel's group starts) and
    // across chunks. A block (a, b) has a middle range of (b − a − 1)·r + 1 k and the engine's chunks are
    // max(256, ⌊2^16/r⌋ rounded down to 32) k long: at n = 600, r = 256 and 280 give ranges of 257 and 281 k against
    // chunks of 256 (two chunks); r = 64 one chunk of up to 513 k.
    Group& g = Group::world();
    const int n = 600;
    for (const std::int64_t d0 : {1, 7}) {
        const std::vector<std::int64_t> dims(static_cast<std::size_t>(n + 1), d0);
        for (const std::int64_t r : {64, 256, 280}) {
            expect_same_table(llc::matrix_chain(g, dims, {.r = block(r)}), dims);
        }
    }
}

TEST(MatrixChain, WideProductsTakeTheExactPath) {
    // Dimensions up to 10^5: some d_i·d_j reach 2^32, so the four-row middle, the upper edge in registers and the
    // lower edge's strips fall back to their wide forms for those rows; the table must not change.
    Group& g = Group::world();
    std::mt19937_64 rng(13);
    const int n = llc::test::under_smpi ? 120 : 200;
    const auto dims = random_dims(rng, n, 100000);
    for (const std::int64_t r : {64, 150}) {
        expect_same_table(llc::matrix_chain(g, dims, {.r = block(r)}), dims);
    }
}

TEST(MatrixChain, DoesNotUseKnuthsRestriction) {
    Group& g = Group::world();
    std::mt19937_64 rng(3);
    int found = 0;
    for (int trial = 0; trial < 200 && found < 3; ++trial) {
        const auto dims = random_dims(rng, 8, 50);
        const std::int64_t right = brute_chain(dims, 0, 7);
        if (knuth_restricted_chain(dims) == right) {
            continue;
        }
        ++found;
        for (const std::int64_t r : {0, 1, 3}) {
            EXPECT_EQ(llc::matrix_chain(g, dims, {.r = block(r)}).cost, right);
        }
    }
    EXPECT_EQ(found, 3) << "no instance where Knuth's restriction fails";
}

TEST(MatrixChain, OverflowDetectedNeverWrapped) {
    Group& g = Group::world();
    const std::int64_t big = std::int64_t{1} << 40;
    // A candidate overflows (A1(A2A3) costs 2^80), the optimum (A1A2)A3 = 2^41 fits: exact.
    const auto got = llc::matrix_chain(g, std::vector<std::int64_t>{1, big, 1, big});
    EXPECT_EQ(got.cost, 2 * big);
    EXPECT_EQ(got.parenthesization, "((A1A2)A3)");
    const std::int64_t huge = std::int64_t{1} << 21;
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::matrix_chain(g, std::vector<std::int64_t>{huge, huge, huge, huge});
        },
        {"llc::matrix_chain", "does not fit"});
    EXPECT_THROW((void)llc::sequential::matrix_chain_textbook(std::vector<std::int64_t>{huge, huge, huge, huge}),
                 llc::Error);
}

TEST(MatrixChain, TableIsDistributed) {
    Group& g = Group::world();
    std::mt19937_64 rng(8);
    const int n = 60;
    const auto dims = random_dims(rng, n, 100);
    for (const std::int64_t r : {1, 4, 7}) {
        const auto got = llc::matrix_chain(g, dims, {.r = block(r)});
        std::size_t mine = 0;
        for (int j = 0; j < n; ++j) {
            if ((j / r) % g.size() == g.rank()) {
                mine += static_cast<std::size_t>(j) + 1;
            }
        }
        EXPECT_EQ(got.table.entries(), mine);
        // About n²/(2P): at most one block of r columns of n entries more than an even share.
        EXPECT_LE(static_cast<double>(got.table.entries()), n * (n + 1) / 2.0 / g.size() + static_cast<double>(r) * n);
        const auto total = g.allreduce(static_cast<long long>(got.table.entries()), llc::Op::sum);
        EXPECT_EQ(total, n * (n + 1) / 2);
    }
}

/// The entries "ij" a processor receives, per macro-step, as the article prints them.
std::vector<std::string> received_text(const std::vector<llc::ReceivedEntries>& steps) {
    std::vector<std::string> out;
    for (const auto& step : steps) {
        std::string s;
        for (const auto& [i, k] : step) {
            if (!s.empty()) {
                s += ' ';
            }
            s += std::to_string(i);
            s += std::to_string(k);
        }
        out.push_back(s);
    }
    return out;
}

TEST(MatrixChain, MessagesOfArticleTables) {
    Group& g = Group::world();
    if (g.size() != 4) {
        GTEST_SKIP() << "the article's tables are for p = 4";
    }
    const std::vector<std::int64_t> dims{3, 1, 4, 1, 5, 9, 2, 6, 5};  // n = 8 matrices
    // Table 1 (wrap, r = 1): per processor, what arrives at macro-steps 1 … 7 (columns j, j + 4 in order).
    const std::vector<std::vector<std::string>> table1{
        {"33", "22 23", "11 12 13", "00 01 02 03", "", "", ""},
        {"00 44", "33 34", "22 23 24", "11 12 13 14", "00 01 02 03 04", "", ""},
        {"11 55", "00 01 44 45", "33 34 35", "22 23 24 25", "11 12 13 14 15", "00 01 02 03 04 05", ""},
        {"22 66",
         "11 12 55 56",
         "00 01 02 44 45 46",
         "33 34 35 36",
         "22 23 24 25 26",
         "11 12 13 14 15 16",
         "00 01 02 03 04 05 06"}};
    std::vector<llc::ReceivedEntries> got1;
    (void)llc::matrix_chain(g, dims, {.r = 1, .received = &got1});
    EXPECT_EQ(received_text(got1), table1[static_cast<std::size_t>(g.rank())]);
    // Table 2 (full block, r = 2): macro-steps 1 … 3.
    const std::vector<std::vector<std::string>> table2{
        {"", "", ""},
        {"00 01 11", "", ""},
        {"22 23 33", "00 01 02 03 11 12 13", ""},
        {"44 45 55", "22 23 24 25 33 34 35", "00 01 02 03 04 05 11 12 13 14 15"}};
    std::vector<llc::ReceivedEntries> got2;
    (void)llc::matrix_chain(g, dims, {.r = 2, .received = &got2});
    EXPECT_EQ(received_text(got2), table2[static_cast<std::size_t>(g.rank())]);
}

TEST(MatrixChain, BadInputEveryRank) {
    Group& g = Group::world();
    llc::test::expect_error_everywhere([&] { (void)llc::matrix_chain(g, std::vector<std::int64_t>{5}); },
                                       {"llc::matrix_chain", "dims.size()", "1"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::matrix_chain(g, std::vector<std::int64_t>{5, 0, 3});
        },
        {"llc::matrix_chain", "dims[1]", "0"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::matrix_chain(g, std::vector<std::int64_t>{5, 4, -3});
        },
        {"llc::matrix_chain", "dims[2]", "-3"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::matrix_chain(g, std::vector<std::int64_t>{5, 4, 3}, {.r = -1});
        },
        {"llc::matrix_chain", "options.r", "-1"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::matrix_chain(g, std::vector<std::int64_t>{5, 4, 3}, {.r = 0});
        },
        {"llc::matrix_chain", "options.r", "= 0"});
    if (g.size() > 1) {
        // Sizes that differ across ranks.
        std::vector<std::int64_t> dims{5, 4, 3};
        if (g.rank() == 0) {
            dims.push_back(7);
        }
        llc::test::expect_error_everywhere([&] { (void)llc::matrix_chain(g, dims); }, {"llc::matrix_chain"});
    }
}

TEST(OptimalBst, DigestCases) {
    Group& g = Group::world();
    const auto run = [&](std::vector<double> f, std::int64_t r = 0) { return llc::optimal_bst(g, f, {.r = block(r)}); };
    for (const std::int64_t r : {0, 1, 2}) {
        const auto a = run({34, 8, 50}, r);
        EXPECT_EQ(a.cost, 142.0);
        EXPECT_EQ(a.root, 2);
        EXPECT_EQ(a.parent, (std::vector<int>{2, 0, -1}));
        EXPECT_EQ(run({1, 2, 3}, r).cost, 10.0);
        EXPECT_EQ(run({1, 2, 3}, r).root, 1);
        EXPECT_EQ(run({4, 2, 6, 3}, r).cost, 26.0);
        EXPECT_EQ(run({4, 2, 6, 3}, r).root, 2);
        EXPECT_EQ(run(std::vector<double>(7, 10.0), r).cost, 170.0);
        EXPECT_EQ(run(std::vector<double>(7, 10.0), r).root, 3);
        EXPECT_EQ(run({5}, r).cost, 5.0);
    }
}

/// Σ f_k (depth_k + 1) from the parent array alone.
double tree_cost(const std::vector<double>& f, const std::vector<int>& parent) {
    double s = 0.0;
    for (std::size_t k = 0; k < f.size(); ++k) {
        int depth = 1;
        for (int p = parent[k]; p >= 0; p = parent[static_cast<std::size_t>(p)]) {
            ++depth;
        }
        s += f[k] * depth;
    }
    return s;
}

TEST(OptimalBst, RandomAgainstOracles) {
    Group& g = Group::world();
    std::mt19937_64 rng(21);
    // 300: middle ranges of several groups of 32 k, where the ring runs its four-row kernel.
    for (const int keys : {1, 2, 3, 6, 9, 17, 40, 90, 300}) {
        std::uniform_int_distribution<int> dist(0, 20);
        std::vector<double> f(static_cast<std::size_t>(keys));
        for (auto& x : f) {
            x = dist(rng);  // integers: every order of summation is exact, so results are compared bit for bit
        }
        // The oracle: the textbook cubic DP written here (no Knuth window), and brute force where it is cheap.
        const BstTables want = textbook_bst(f);
        const double cubic = want.cost();
        if (keys <= 10) {
            EXPECT_EQ(brute_bst(f, 0, keys), cubic);
        }
        for (const std::int64_t r : {std::int64_t{0},
                                     std::int64_t{1},
                                     std::int64_t{2},
                                     std::int64_t{3},
                                     std::max<std::int64_t>(1, (keys + 1) / g.size())}) {
            const auto got = llc::optimal_bst(g, f, {.r = block(r)});
            EXPECT_EQ(got.cost, cubic) << "keys=" << keys << " r=" << r;
            EXPECT_EQ(got.root, want.root[1][keys] - 1) << "keys=" << keys << " r=" << r;
            EXPECT_EQ(got.parent, bst_parents(want)) << "keys=" << keys << " r=" << r;
            EXPECT_EQ(tree_cost(f, got.parent), cubic);
            // This rank's columns of the table: c(i, j) over keys i … j−1 is the textbook e[i+1][j], its root k(i, j)
            // the textbook root − 1.
            for (std::int64_t j = 0; j <= keys; ++j) {
                if (!got.table.owns(j)) {
                    continue;
                }
                for (std::int64_t i = 0; i <= j; ++i) {
                    const auto ui = static_cast<std::size_t>(i);
                    const auto uj = static_cast<std::size_t>(j);
                    ASSERT_EQ(got.table.value(i, j), want.e[ui + 1][uj])
                        << "keys=" << keys << " r=" << r << " c(" << i << "," << j << ")";
                    if (i < j) {
                        ASSERT_EQ(got.table.split(i, j), want.root[ui + 1][uj] - 1)
                            << "keys=" << keys << " r=" << r << " k(" << i << "," << j << ")";
                    }
                }
            }
        }
    }
}

TEST(OptimalBst, BadInputEveryRank) {
    Group& g = Group::world();
    llc::test::expect_error_everywhere([&] { (void)llc::optimal_bst(g, std::vector<double>{}); },
                                       {"llc::optimal_bst", "freq.size()"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::optimal_bst(g, std::vector<double>{1.0, -2.0});
        },
        {"llc::optimal_bst", "freq[1]", "-2"});
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::optimal_bst(g, std::vector<double>{1.0, std::numeric_limits<double>::quiet_NaN()});
        },
        {"llc::optimal_bst", "freq[1]", "nan"});
    llc::test::expect_error_everywhere(
        [&] { (void)llc::optimal_bst(g, std::vector<double>{std::numeric_limits<double>::infinity()}); },
        {"llc::optimal_bst", "freq[0]", "inf"});
    if (g.size() > 1) {
        std::vector<double> f{1.0, 2.0};
        if (g.rank() == 1) {
            f.push_back(3.0);
        }
        llc::test::expect_error_everywhere([&] { (void)llc::optimal_bst(g, f); }, {"llc::optimal_bst"});
    }
}

}  // namespace

namespace {

TEST(MatrixChain, TraceMirrorsTheCostExpression) {
    // The engine's supersteps carry the labels the cost expression prices (matrix_chain_names.hpp): one "mc.rotate"
    // shift per macro-step d ≥ 1 with the bytes the model counts, then "mc.result" (the bcast of the cost). The
    // allreduces of the tree walk that follow are priced when the expression is given the tree's levels
    // (walk_trace_test.cpp); here it is not.
    Group& g = Group::world();
    if (g.size() == 1) {
        GTEST_SKIP() << "one processor: no superstep";
    }
    std::mt19937_64 rng(3);
    for (const std::int64_t r : {1, 4, 7}) {
        const auto dims = random_dims(rng, 40, 30);
        llc::Trace::enable(true);
        g.restart_superstep_clock();
        (void)llc::matrix_chain(g, dims, {.r = r});
        const llc::Trace trace = llc::Trace::gather(g);
        llc::Trace::enable(false);
        if (g.rank() != 0) {
            continue;
        }
        const llc::cost::Expr expr = llc::cost::matrix_chain(g.size(), 40, r, shape_profile());
        EXPECT_EQ(expr.label(), llc::names::matrix_chain::sequence);
        const std::vector<llc::cost::Expr>& steps = expr.children();
        const std::vector<llc::TraceNode>& nodes = trace.merged().children;
        ASSERT_GE(nodes.size(), steps.size()) << "r=" << r;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const std::string at = "r=" + std::to_string(r) + " step " + std::to_string(i);
            EXPECT_EQ(nodes[i].kind, llc::StepKind::normal) << at;
            EXPECT_EQ(nodes[i].label, steps[i].label()) << at;
            // The trace records the operation ("shift"); the expression names the variant that prices it
            // ("shift.written"): the same step, as llc::cost::compare matches them.
            EXPECT_EQ(nodes[i].op, llc::cost::base_collective(steps[i].op())) << at;
            EXPECT_EQ(nodes[i].P, steps[i].processors()) << at;
            EXPECT_DOUBLE_EQ(static_cast<double>(nodes[i].bytes), steps[i].bytes()) << at;
        }
        EXPECT_EQ(steps.back().label(), llc::names::matrix_chain::result);
    }
}

}  // namespace
