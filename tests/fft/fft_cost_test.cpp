// llc::cost::fft: the shape of the expression (labels, operations, P, bytes, work) for each layout and fallback, its
// value against the paper's closed form Φ for P = 2^s under a model whose prices are known, which kernel table (leaf
// kind, stride, size) prices each node, and that a table the probes write is required: a profile without it is an
// error naming its key, never priced with another table or a single constant.
#include <cmath>
#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/fft_cost.hpp>
#include <llc/algorithms/fft_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/model.hpp>
#include <llc/error.hpp>

namespace {

using llc::FftLayout;
using llc::FftOrder;
using llc::cost::Expr;
using llc::cost::ExprKind;
namespace names = llc::names::fft;

// The prices of the shape tests, one per kernel: D, F, C (every contiguous leaf), Cs (every strided leaf), R, Cd.
constexpr double D = 2e-9;
constexpr double F = 3e-9;
constexpr double C = 5e-10;
constexpr double Cs = 7e-10;
constexpr double R = 1e-9;
constexpr double Cd = 4e-9;

/// Complete constants with one size per table: a lookup clamps to it, so each kernel costs one price per unit.
llc::cost::FftConstants flat() {
    llc::cost::FftConstants c;
    c.leaf_by_size = {{10, C}};
    c.leaf_oop_by_size = {{10, C}};
    c.leaf_oop_solo_by_size = {{10, C}};
    c.leaf_strided_by_size = {{2, {{10, Cs}}}, {4, {{10, Cs}}}, {8, {{10, Cs}}}};
    c.divide_by_size = {{10, D}};
    c.combine_by_size = {{10, F}};
    c.reorder_by_size = {{10, R}};
    c.leaf_dif_by_size = {{16, Cd}};
    c.llc_bytes = 1.0;  // no exchange fits: every block swap cold (BlockExchangesArePricedInTheirCacheState)
    return c;
}

const llc::cost::FftConstants k = flat();

/// Runs `f` and expects an llc::Error whose message names `key`.
void expect_missing(const std::function<void()>& f, const std::string& key) {
    try {
        f();
        ADD_FAILURE() << "no error for a missing " << key;
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << key << ": " << e.what();
    }
}

TEST(FftCostTest, ReplicatedMatchesThePapersClosedForm) {
    const llc::cost::Hockney model(llc::cost::HockneyParams{.alpha = 2e-6, .beta = 1e-10});
    for (const int P : {2, 4, 8, 64}) {
        for (const std::int64_t n : {std::int64_t{1} << 12, std::int64_t{1} << 20}) {
            const Expr e = llc::cost::fft(P, n, FftLayout::replicated, FftOrder::natural, k);
            // Φ = Cs·(n/P)·log2(n/P) + Σ_{s=1..log P} (T_PAR(2^s, 16·n) + F·2^{s−1}·n/P)
            const double leaf = static_cast<double>(n / P);
            double expected = Cs * leaf * std::log2(leaf);
            for (int Ps = 2; Ps <= P; Ps *= 2) {
                const std::vector<int> sizes{Ps / 2, Ps / 2};
                expected += model.division(Ps, sizes, 16.0 * static_cast<double>(n * Ps / P)).total();
                expected += F * static_cast<double>(Ps / 2) * static_cast<double>(n / P);
            }
            EXPECT_NEAR(llc::cost::predict(e, model), expected, 1e-12 * expected) << "P " << P << " n " << n;
        }
    }
}

TEST(FftCostTest, ReplicatedStructure) {
    const Expr e = llc::cost::fft(4, 1024, FftLayout::replicated, FftOrder::natural, k);
    ASSERT_EQ(e.kind(), ExprKind::sequence);
    EXPECT_EQ(e.label(), "fft");
    ASSERT_EQ(e.children().size(), 1U);
    const Expr& level = e.children()[0];
    ASSERT_EQ(level.children().size(), 2U);
    const Expr& division = level.children()[0];
    EXPECT_EQ(division.kind(), ExprKind::division);
    EXPECT_EQ(division.label(), "fft.split");
    EXPECT_EQ(division.processors(), 4);
    EXPECT_EQ(division.sizes(), (std::vector<int>{2, 2}));
    EXPECT_DOUBLE_EQ(division.bytes(), 2.0 * 512 * 16);
    EXPECT_EQ(level.children()[1].label(), "fft.combine");
    EXPECT_DOUBLE_EQ(level.children()[1].work(), F * 512);
    // P = 3: halves of 2 and 1; the lone processor sends to two partners and receives once.
    const Expr odd = llc::cost::fft(3, 1024, FftLayout::replicated, FftOrder::natural, k);
    const Expr& d3 = odd.children()[0].children()[0];
    EXPECT_EQ(d3.sizes(), (std::vector<int>{2, 1}));
    EXPECT_DOUBLE_EQ(d3.bytes(), 3.0 * 512 * 16);
    EXPECT_EQ(d3.children()[1].kind(), ExprKind::compute);
    EXPECT_DOUBLE_EQ(d3.children()[1].work(), Cs * 512 * 9);
    // n odd: every processor runs the serial leaf.
    const Expr serial = llc::cost::fft(4, 999, FftLayout::replicated, FftOrder::natural, k);
    ASSERT_EQ(serial.children().size(), 1U);
    EXPECT_EQ(serial.children()[0].label(), "fft.leaf");
    EXPECT_NEAR(serial.children()[0].work(), C * 999 * std::log2(999.0), 1e-18);
}

TEST(FftCostTest, BlockStructure) {
    const std::int64_t n = 1 << 12;
    const double L = n / 4.0;
    const Expr scrambled = llc::cost::fft(4, n, FftLayout::block, FftOrder::scrambled, k);
    const auto& items = scrambled.children();
    ASSERT_EQ(items.size(), 3U);
    for (int t = 0; t < 2; ++t) {
        EXPECT_EQ(items[t].kind(), ExprKind::normal);
        EXPECT_EQ(items[t].label(), "fft.dif");
        EXPECT_EQ(items[t].op(), "swap.cold.heap");  // sends the caller's arrays
        EXPECT_EQ(items[t].processors(), 4);
        EXPECT_DOUBLE_EQ(items[t].bytes(), 2 * L * 16);
    }
    EXPECT_DOUBLE_EQ(items[0].work(), 0.0);
    EXPECT_DOUBLE_EQ(items[1].work(), D * L);
    EXPECT_DOUBLE_EQ(items[2].work(), D * L + C * L * std::log2(L));
    const Expr natural = llc::cost::fft(4, n, FftLayout::block, FftOrder::natural, k);
    ASSERT_EQ(natural.children().size(), 4U);
    const Expr& redistribute = natural.children()[2];
    EXPECT_EQ(redistribute.label(), "fft.redistribute");
    EXPECT_EQ(redistribute.op(), "alltoall");
    EXPECT_DOUBLE_EQ(redistribute.bytes(), L * 16);
    EXPECT_DOUBLE_EQ(redistribute.work(), D * L + C * L * std::log2(L));
    EXPECT_EQ(natural.children()[3].label(), "fft.reorder");
    // P = 2: the redistribution is a swap of half a block each way.
    const Expr two = llc::cost::fft(2, n, FftLayout::block, FftOrder::natural, k);
    EXPECT_EQ(two.children()[1].op(), "swap.cold");
    EXPECT_DOUBLE_EQ(two.children()[1].bytes(), n / 2.0 * 16);
    // Fallbacks: P = 3 and P ∤ n gather first; P = 1 is the serial leaf.
    for (const auto& [P, m] : {std::pair{3, std::int64_t{1024}}, std::pair{4, std::int64_t{1022}}}) {
        const Expr gathered = llc::cost::fft(P, m, FftLayout::block, FftOrder::scrambled, k);
        EXPECT_EQ(gathered.children()[0].label(), "fft.gather");
        EXPECT_EQ(gathered.children()[0].op(), "allgatherv");
    }
    const Expr one = llc::cost::fft(1, n, FftLayout::block, FftOrder::natural, k);
    ASSERT_EQ(one.children().size(), 1U);
    EXPECT_DOUBLE_EQ(one.children()[0].work(), C * n * 12);
}

/// n·log2 n, the leaf's unit, computed here rather than by the code under test.
double nlogn(double n) {
    return n * std::log2(n);
}

/// Constants whose every table holds one distinct value, so the value a node's work divides out to names the table.
llc::cost::FftConstants tagged() {
    llc::cost::FftConstants c = k;
    c.leaf_by_size = {{8, 11e-10}};
    c.leaf_oop_by_size = {{8, 13e-10}};
    c.leaf_oop_solo_by_size = {{8, 37e-10}};
    c.leaf_strided_by_size = {{2, {{8, 17e-10}}}, {4, {{8, 19e-10}}}, {8, {{8, 47e-10}}}};
    c.divide_by_size = {{8, 23e-10}};
    c.combine_by_size = {{8, 29e-10}};
    c.reorder_by_size = {{8, 31e-10}};
    c.leaf_dif_by_size = {{16, 53e-10}};
    return c;
}

TEST(FftCostTest, EachLeafIsPricedByTheTableOfItsKind) {
    const llc::cost::FftConstants c = tagged();
    const double n = 4096;
    // P = 1 (both layouts) and the replicated layout with n odd: FftPlan's serial leaf, contiguous out of place (at
    // P = 1 alone on the node: the solo table).
    for (const auto layout : {FftLayout::replicated, FftLayout::block}) {
        const Expr one = llc::cost::fft(1, 4096, layout, FftOrder::natural, c);
        EXPECT_NEAR(one.children()[0].work(), 37e-10 * nlogn(n), 1e-15);
    }
    const Expr odd = llc::cost::fft(2, 4095, FftLayout::replicated, FftOrder::natural, c);
    EXPECT_NEAR(odd.children()[0].work(), 13e-10 * nlogn(4095), 1e-15);
    // Block layout, L = n/P: natural order runs the leaf out of place into the redistribution buffer, scrambled
    // order in place; both after the last butterfly D·L.
    for (const int P : {2, 4}) {
        const double L = n / P;
        const Expr natural = llc::cost::fft(P, 4096, FftLayout::block, FftOrder::natural, c);
        const auto& items = natural.children();
        const Expr& redistribute = items[items.size() - 2];
        EXPECT_EQ(redistribute.label(), "fft.redistribute");
        EXPECT_NEAR(redistribute.work(), 23e-10 * L + 13e-10 * nlogn(L), 1e-15) << P;
        EXPECT_NEAR(items.back().work(), 31e-10 * L, 1e-15) << P;
        const Expr scrambled = llc::cost::fft(P, 4096, FftLayout::block, FftOrder::scrambled, c);
        EXPECT_EQ(scrambled.children().back().label(), "fft.leaf");
        EXPECT_NEAR(scrambled.children().back().work(), 23e-10 * L + 11e-10 * nlogn(L), 1e-15) << P;
        if (P == 4) {
            EXPECT_NEAR(scrambled.children()[1].work(), 23e-10 * L, 1e-15);  // stage 1's swap ends stage 0's D·L
        }
    }
    // Replicated: P = 2 → leaves of n/2 with stride 2; P = 4 → n/4, stride 4; P = 8 → stride 8; P = 16 → stride 16,
    // beyond the probes' strides: stride 8's, the largest (names::fft::strided_leaves).
    for (const auto& [P, table] :
         {std::pair{2, 17e-10}, std::pair{4, 19e-10}, std::pair{8, 47e-10}, std::pair{16, 47e-10}}) {
        const Expr e = llc::cost::fft(P, 4096, FftLayout::replicated, FftOrder::natural, c);
        const Expr* node = &e.children()[0];
        double combines = 0.0;
        for (double m = n; node->label() == "fft.level"; m /= 2) {
            EXPECT_NEAR(node->children()[1].work(), 29e-10 * m / 2, 1e-15) << P;
            combines += 1;
            node = &node->children()[0].children()[0];  // task 0 of the division
        }
        EXPECT_EQ(combines, std::log2(P));
        EXPECT_EQ(node->label(), "fft.leaf");
        EXPECT_NEAR(node->work(), table * nlogn(n / P), 1e-15) << P;
    }
    // P = 3: halves of 2 (their leaves read with stride 4) and 1 (stride 2).
    const Expr three = llc::cost::fft(3, 4096, FftLayout::replicated, FftOrder::natural, c);
    const Expr& split = three.children()[0].children()[0];
    EXPECT_NEAR(split.children()[0].children()[0].children()[0].work(), 19e-10 * nlogn(n / 4), 1e-15);
    EXPECT_NEAR(split.children()[1].work(), 17e-10 * nlogn(n / 2), 1e-15);
    // The gathered fallback (block, P = 3) runs the replicated algorithm: the same leaves.
    const Expr gathered = llc::cost::fft(3, 4096, FftLayout::block, FftOrder::natural, c);
    EXPECT_NEAR(gathered.children()[1].children()[0].children()[1].work(), 17e-10 * nlogn(n / 2), 1e-15);
}

TEST(FftCostTest, AFoldedLastStageIsPricedByItsOwnTable) {
    // With the "fft.leaf_dif" table, the last stage costs Cd·L·log2 L for the butterfly and the leaf together where
    // FftPlan folds the butterfly into the four-step leaf: natural order (an out-of-place leaf) from L = 2^15,
    // scrambled order (in place) from 2^15 too except 2^17 and 2^18, where FFTW's own in-place plan is faster
    // (in_place_fftw_min … in_place_fftw_max). Elsewhere D·L + C·L·log2 L.
    llc::cost::FftConstants c = tagged();
    c.leaf_dif_by_size = {{15, 41e-10}, {17, 43e-10}, {19, 45e-10}};
    const auto last_of = [](const Expr& e, FftOrder order) -> const Expr& {
        const auto& items = e.children();
        return order == FftOrder::scrambled ? items.back() : items[items.size() - 2];
    };
    const auto apart = [](double L, double leaf) { return 23e-10 * L + leaf * nlogn(L); };
    // Natural order: folded from 2^15 (L = 2^16 lies halfway to 2^17 in log2).
    for (const auto& [P, n, fold] :
         {std::tuple{2, std::int64_t{1} << 16, 41e-10}, std::tuple{4, std::int64_t{1} << 18, 42e-10}}) {
        const Expr e = llc::cost::fft(P, n, FftLayout::block, FftOrder::natural, c);
        const double L = static_cast<double>(n / P);
        EXPECT_NEAR(last_of(e, FftOrder::natural).work(), fold * nlogn(L), 1e-15) << P;
    }
    // Scrambled order: apart (in-place leaf, 11e-10) at L = 2^17 and 2^18, folded at 2^15 and from 2^19.
    for (const auto& [P, n] : {std::pair{2, std::int64_t{1} << 18}, std::pair{4, std::int64_t{1} << 20}}) {
        const Expr e = llc::cost::fft(P, n, FftLayout::block, FftOrder::scrambled, c);
        const double L = static_cast<double>(n / P);
        EXPECT_NEAR(last_of(e, FftOrder::scrambled).work(), apart(L, 11e-10), 1e-12) << P;
    }
    const Expr folded_small = llc::cost::fft(2, std::int64_t{1} << 16, FftLayout::block, FftOrder::scrambled, c);
    EXPECT_NEAR(last_of(folded_small, FftOrder::scrambled).work(), 41e-10 * nlogn(1 << 15), 1e-12);
    const Expr big = llc::cost::fft(2, std::int64_t{1} << 20, FftLayout::block, FftOrder::scrambled, c);
    EXPECT_NEAR(last_of(big, FftOrder::scrambled).work(), 45e-10 * nlogn(1 << 19), 1e-12);
    EXPECT_NEAR(c.last_stage_seconds(1 << 19, true), 45e-10 * nlogn(1 << 19), 1e-12);
    EXPECT_NEAR(c.last_stage_seconds(1 << 19, false), 45e-10 * nlogn(1 << 19), 1e-12);
    EXPECT_NEAR(c.last_stage_seconds(1 << 18, true), apart(1 << 18, 11e-10), 1e-12);
    // Below 2^15 nothing folds, in either order.
    for (const auto order : {FftOrder::scrambled, FftOrder::natural}) {
        const bool scrambled = order == FftOrder::scrambled;
        const Expr small = llc::cost::fft(2, 1 << 12, FftLayout::block, order, c);
        EXPECT_NEAR(last_of(small, order).work(), apart(2048, scrambled ? 11e-10 : 13e-10), 1e-15);
        EXPECT_NEAR(c.last_stage_seconds(2048, scrambled), last_of(small, order).work(), 1e-15);
    }
    // Without the table a stage that folds is an error naming it, not priced as the butterfly and the leaf apart; one
    // that does not fold does not read it.
    llc::cost::FftConstants without = tagged();
    without.leaf_dif_by_size.clear();
    expect_missing([&] { (void)without.last_stage_seconds(1 << 19, true); }, "fft.leaf_dif.2^e");
    expect_missing(
        [&] { (void)llc::cost::fft(2, std::int64_t{1} << 16, FftLayout::block, FftOrder::natural, without); },
        "fft.leaf_dif.2^e");
    EXPECT_NEAR(without.last_stage_seconds(1 << 18, true), apart(1 << 18, 11e-10), 1e-12);
}

TEST(FftCostTest, OneProcessorTakesTheSoloTable) {
    // P = 1 runs the serial leaf with the node's other processors idle: "fft.leaf_oop_solo"; P = 2 with n odd runs the
    // serial leaf on both processors at once: "fft.leaf_oop".
    llc::cost::FftConstants c = tagged();
    c.leaf_oop_solo_by_size = {{12, 7e-10}};
    EXPECT_NEAR(c.serial_seconds(4096), 7e-10 * nlogn(4096), 1e-15);
    for (const auto layout : {FftLayout::replicated, FftLayout::block}) {
        const Expr one = llc::cost::fft(1, 4096, layout, FftOrder::natural, c);
        EXPECT_NEAR(one.children()[0].work(), 7e-10 * nlogn(4096), 1e-15);
    }
    const Expr odd = llc::cost::fft(2, 4095, FftLayout::replicated, FftOrder::natural, c);
    EXPECT_NEAR(odd.children()[0].work(), 13e-10 * nlogn(4095), 1e-15);
    // Without the solo table P = 1 is an error naming it, not priced with the side-by-side table.
    c.leaf_oop_solo_by_size.clear();
    expect_missing([&] { (void)llc::cost::fft(1, 4096, FftLayout::block, FftOrder::natural, c); },
                   "fft.leaf_oop_solo.2^e");
    EXPECT_NEAR(llc::cost::fft(2, 4095, FftLayout::replicated, FftOrder::natural, c).children()[0].work(),
                13e-10 * nlogn(4095),
                1e-15);
}

TEST(FftCostTest, PerSizeConstantsInterpolateInLog2OfTheSize) {
    llc::cost::FftConstants c = k;
    c.leaf_by_size = {{14, 1e-9}, {16, 3e-9}};
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 15, 1, true), 2e-9 * nlogn(1 << 15));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 16, 1, true), 3e-9 * nlogn(1 << 16));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 20, 1, true), 3e-9 * nlogn(1 << 20));  // clamped above
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 10, 1, true), 1e-9 * nlogn(1 << 10));  // clamped below
    // Not a power of two: 3·2^13 lies (log2(3·2^13) − 14) / 2 of the way from 2^14 to 2^16 in log2.
    const double m = 3 << 13;
    const double t = (std::log2(3.0) + 13.0 - 14.0) / 2.0;
    const double expected = (1e-9 + t * 2e-9) * nlogn(m);
    EXPECT_NEAR(c.leaf_seconds(m, 1, true), expected, 1e-12 * expected);
    // The streaming kernels: per element, interpolated the same way.
    c.divide_by_size = {{10, 1e-9}, {12, 3e-9}};
    c.combine_by_size = {{10, 2e-9}, {14, 6e-9}};
    c.reorder_by_size = {{6, 5e-9}};
    EXPECT_DOUBLE_EQ(c.divide_seconds(1 << 11), 2e-9 * (1 << 11));
    EXPECT_DOUBLE_EQ(c.combine_seconds(1 << 11), 3e-9 * (1 << 11));
    EXPECT_DOUBLE_EQ(c.combine_seconds(1 << 4), 2e-9 * (1 << 4));
    EXPECT_DOUBLE_EQ(c.reorder_seconds(1 << 20), 5e-9 * (1 << 20));
    // In the expression: replicated P = 2, n = 2^12 combines 2^11 butterflies.
    const Expr e = llc::cost::fft(2, 1 << 12, FftLayout::replicated, FftOrder::natural, c);
    EXPECT_DOUBLE_EQ(e.children()[0].children()[1].work(), 3e-9 * (1 << 11));
}

TEST(FftCostTest, AnEmptyTableIsAnErrorNamingItsKey) {
    // Each price reads the table of its own kernel and no other: emptied, it is an error naming the key, never the
    // price of another leaf kind, another stride or a single constant.
    using Constants = llc::cost::FftConstants;
    struct Case {
        const char* key;
        std::function<void(Constants&)> clear;
        std::function<double(const Constants&)> price;
    };
    const std::vector<Case> cases{
        {"fft.leaf.2^e",
         [](Constants& c) { c.leaf_by_size.clear(); },
         [](const Constants& c) { return c.leaf_seconds(1024, 1, true); }},
        {"fft.leaf_oop.2^e",
         [](Constants& c) { c.leaf_oop_by_size.clear(); },
         [](const Constants& c) { return c.leaf_seconds(1024, 1, false); }},
        {"fft.leaf_oop_solo.2^e",
         [](Constants& c) { c.leaf_oop_solo_by_size.clear(); },
         [](const Constants& c) { return c.serial_seconds(1024); }},
        {"fft.leaf_strided.2^e",
         [](Constants& c) { c.leaf_strided_by_size.erase(2); },
         [](const Constants& c) { return c.leaf_seconds(1024, 2, false); }},
        {"fft.leaf_strided4.2^e",
         [](Constants& c) { c.leaf_strided_by_size.at(4).clear(); },
         [](const Constants& c) { return c.leaf_seconds(1024, 4, false); }},
        {"fft.leaf_strided8.2^e",
         [](Constants& c) { c.leaf_strided_by_size.erase(8); },
         [](const Constants& c) { return c.leaf_seconds(1024, 8, false); }},
        {"fft.leaf_strided8.2^e",
         [](Constants& c) { c.leaf_strided_by_size.erase(8); },
         [](const Constants& c) { return c.leaf_seconds(1024, 64, false); }},
        {"fft.divide.2^e",
         [](Constants& c) { c.divide_by_size.clear(); },
         [](const Constants& c) { return c.divide_seconds(1024); }},
        {"fft.combine.2^e",
         [](Constants& c) { c.combine_by_size.clear(); },
         [](const Constants& c) { return c.combine_seconds(1024); }},
        {"fft.reorder.2^e",
         [](Constants& c) { c.reorder_by_size.clear(); },
         [](const Constants& c) { return c.reorder_seconds(1024); }},
        {"fft.leaf_dif.2^e",
         [](Constants& c) { c.leaf_dif_by_size.clear(); },
         [](const Constants& c) { return c.last_stage_seconds(1 << 16, false); }},
    };
    for (const Case& t : cases) {
        Constants c = k;
        EXPECT_GT(t.price(c), 0.0) << t.key;
        t.clear(c);
        expect_missing([&] { (void)t.price(c); }, t.key);
    }
    // In the expression: the replicated layout at P = 4 reads stride 4's leaves, stride 2's only at P = 2 or 3.
    Constants c = k;
    c.leaf_strided_by_size.erase(4);
    expect_missing([&] { (void)llc::cost::fft(4, 4096, FftLayout::replicated, FftOrder::natural, c); },
                   "fft.leaf_strided4.2^e");
    EXPECT_NO_THROW((void)llc::cost::fft(2, 4096, FftLayout::replicated, FftOrder::natural, c));
}

/// The key families of the FFT's probes: every kernel key a probe writes, with its solo key.
std::set<std::string> probed_families() {
    std::set<std::string> families;
    for (const llc::cost::KernelProbe& probe : llc::detail::fft::kernel_probes()) {
        for (const std::string& name : {probe.name, probe.solo_name}) {
            if (!name.empty()) {
                families.insert(name.substr(0, name.rfind(".2^")));
            }
        }
    }
    return families;
}

/// A profile holding the keys the FFT's probes write (their solo keys too), each with a value of its own, except
/// those of the family `without`; `quick`: only the probes a quick calibration runs (not full_only), as
/// `llc-probe --quick` does.
llc::cost::Profile probed_profile(bool quick, const std::string& without = {}) {
    llc::cost::Profile profile;
    profile.meta().llc_bytes = 1.0;  // llc-probe records the node's last-level cache; here no exchange fits
    double value = 1e-10;
    for (const llc::cost::KernelProbe& probe : llc::detail::fft::kernel_probes()) {
        if (quick && probe.full_only) {
            continue;
        }
        for (const std::string& name : {probe.name, probe.solo_name}) {
            if (!name.empty() && name.substr(0, name.rfind(".2^")) != without) {
                profile.set_kernel(name, {value, probe.unit});
                value += 1e-12;
            }
        }
    }
    return profile;
}

TEST(FftCostTest, TheCostReadsTheTablesTheProbesWrite) {
    // The probes write one table per kernel key of names::fft, and the cost function reads those, each whole.
    EXPECT_EQ(probed_families(),
              (std::set<std::string>{names::leaf,
                                     names::leaf_oop,
                                     names::leaf_oop_solo,
                                     names::leaf_dif,
                                     names::leaf_strided,
                                     names::leaf_strided4,
                                     names::leaf_strided8,
                                     names::divide,
                                     names::combine,
                                     names::reorder}));
    const llc::cost::Profile full = probed_profile(false);
    const auto c = llc::cost::FftConstants::from(full);
    EXPECT_EQ(c.leaf_by_size, llc::cost::kernel_size_table(full, names::leaf));
    EXPECT_EQ(c.leaf_oop_by_size, llc::cost::kernel_size_table(full, names::leaf_oop));
    EXPECT_EQ(c.leaf_oop_solo_by_size, llc::cost::kernel_size_table(full, names::leaf_oop_solo));
    EXPECT_EQ(c.leaf_dif_by_size, llc::cost::kernel_size_table(full, names::leaf_dif));
    EXPECT_EQ(c.divide_by_size, llc::cost::kernel_size_table(full, names::divide));
    EXPECT_EQ(c.combine_by_size, llc::cost::kernel_size_table(full, names::combine));
    EXPECT_EQ(c.reorder_by_size, llc::cost::kernel_size_table(full, names::reorder));
    ASSERT_EQ(c.leaf_strided_by_size.size(), names::strided_leaves.size());
    for (const names::StridedLeaf& strided : names::strided_leaves) {
        EXPECT_EQ(c.leaf_strided_by_size.at(strided.stride), llc::cost::kernel_size_table(full, strided.key));
    }
    EXPECT_EQ(c.leaf_oop_by_size.begin()->first, 4);
    EXPECT_EQ(c.leaf_oop_by_size.rbegin()->first, 24);
    EXPECT_EQ(c.leaf_strided_by_size.at(8).rbegin()->first, 20);
    EXPECT_EQ(c.divide_by_size.rbegin()->first, 24);
}

TEST(FftCostTest, OneProcessorReadsRankZerosOwnValues) {
    // A profile made on P > 1 keeps rank 0's own value of each side-by-side probe ("<name>_rank0.2^e"): P = 1 reads
    // it (the processor a one-processor run runs on), P > 1 and the default keep the slowest rank's.
    llc::cost::Profile profile = probed_profile(true);
    const std::string key = llc::cost::kernel_size_key(names::divide, 20);
    const double slowest = profile.kernel(key).seconds_per_unit;
    profile.set_kernel(llc::cost::rank0_kernel_key(key), {slowest / 2.0, "element"});
    EXPECT_DOUBLE_EQ(llc::cost::FftConstants::from(profile, 1).divide_by_size.at(20), slowest / 2.0);
    EXPECT_DOUBLE_EQ(llc::cost::FftConstants::from(profile, 2).divide_by_size.at(20), slowest);
    EXPECT_DOUBLE_EQ(llc::cost::FftConstants::from(profile).divide_by_size.at(20), slowest);
    EXPECT_EQ(llc::cost::FftConstants::from(profile, 1).leaf_oop_solo_by_size,
              llc::cost::kernel_size_table(profile, names::leaf_oop_solo));
}

TEST(FftCostTest, AQuickProfilePricesEverySize) {
    // `llc-probe --quick` skips the sizes above 2^22 (full_only): its tables price them with their largest size
    // (clamped, as any size beyond the measured range), and every case of every layout is priced. The serial
    // transform alone is probed at odd powers only (a whole one-processor run: never at a validated size), so its
    // largest quick size is 2^21.
    const llc::cost::Profile quick = probed_profile(true);
    const auto c = llc::cost::FftConstants::from(quick);
    EXPECT_EQ(c.leaf_oop_solo_by_size.rbegin()->first, 21);
    for (const auto& [exponent, seconds] : c.leaf_oop_solo_by_size) {
        EXPECT_EQ(exponent % 2, 1) << "fft.leaf_oop_solo.2^" << exponent << " would time a validated run";
    }
    EXPECT_EQ(c.leaf_dif_by_size.rbegin()->first, 22);
    EXPECT_EQ(c.reorder_by_size.rbegin()->first, 22);
    EXPECT_DOUBLE_EQ(c.serial_seconds(1 << 24), c.leaf_oop_solo_by_size.at(21) * nlogn(1 << 24));
    EXPECT_DOUBLE_EQ(c.last_stage_seconds(1 << 23, true), c.leaf_dif_by_size.at(22) * nlogn(1 << 23));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 23, 2, false), c.leaf_strided_by_size.at(2).at(22) * nlogn(1 << 23));
    for (const int P : {1, 2, 3, 4, 8, 16}) {
        for (const std::int64_t n : {std::int64_t{999},
                                     std::int64_t{1} << 12,
                                     std::int64_t{3} << 20,
                                     std::int64_t{1} << 24,
                                     std::int64_t{1} << 26}) {
            for (const auto layout : {FftLayout::replicated, FftLayout::block}) {
                for (const auto order : {FftOrder::natural, FftOrder::scrambled}) {
                    EXPECT_NO_THROW((void)llc::cost::fft(P, n, layout, order, quick)) << P << " " << n;
                }
            }
        }
    }
}

TEST(FftCostTest, AProfileWithoutATableIsAnErrorNamingIt) {
    // Every table the probes write is required: a profile without one (an older llc-probe's, or one made by hand)
    // is an error naming its key, whatever else it holds.
    for (const std::string& family : probed_families()) {
        const llc::cost::Profile profile = probed_profile(true, family);
        expect_missing([&] { (void)llc::cost::FftConstants::from(profile); }, family + ".2^e");
        expect_missing([&] { (void)llc::cost::fft(2, 4096, FftLayout::block, FftOrder::natural, profile); },
                       family + ".2^e");
    }
    // An older profile: single constants and only the in-place and stride-2 leaf tables. Not priced.
    llc::cost::Profile old_profile;
    for (const char* name : {"fft.divide", "fft.combine", "fft.leaf", "fft.leaf_strided", "fft.reorder"}) {
        old_profile.set_kernel(name, {1e-9, "unit"});
    }
    old_profile.set_kernel("fft.leaf.2^12", {6e-9, "unit"});
    old_profile.set_kernel("fft.leaf_strided.2^20", {7e-9, "unit"});
    expect_missing([&] { (void)llc::cost::FftConstants::from(old_profile); }, "fft.divide.2^e");
    // Its tables and the others but the out-of-place leaves: those are not priced as in-place ones.
    llc::cost::Profile no_oop = probed_profile(true, names::leaf_oop);
    no_oop.set_kernel("fft.leaf", {1e-9, "unit"});
    expect_missing([&] { (void)llc::cost::FftConstants::from(no_oop); }, "fft.leaf_oop.2^e");
}

TEST(FftCostTest, BadArgumentsAndMissingKernels) {
    EXPECT_THROW((void)llc::cost::fft(0, 16, FftLayout::block, FftOrder::natural, k), llc::Error);
    EXPECT_THROW((void)llc::cost::fft(2, 0, FftLayout::block, FftOrder::natural, k), llc::Error);
    llc::cost::Profile profile;
    try {
        (void)llc::cost::FftConstants::from(profile);
        ADD_FAILURE() << "no error for a profile without the fft kernels";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("fft.divide.2^e"), std::string::npos) << e.what();
    }
}

}  // namespace

// The block layout's exchanges are priced in their cache state: where the node's working set of the exchange (P
// processors × 2 × 16 × L bytes) exceeds the profile's last-level cache, the blocks come from memory — "swap.cold.heap"
// for the DIF stages, which send the caller's arrays (ordinary pages), "swap.cold" for the redistribution, which sends
// the plan's huge-page buffer — and a profile without either is an error naming it, not priced with another swap;
// where it fits, the warm "swap". A profile without meta.llc_bytes (made before it was recorded) is an error naming it.
TEST(FftCostTest, BlockExchangesArePricedInTheirCacheState) {
    llc::cost::Profile profile = probed_profile(true);
    profile.set_collective("swap", 2, llc::cost::Piecewise::constant(1e-6));
    const Expr scrambled = llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::scrambled, profile);
    EXPECT_EQ(scrambled.children()[0].label(), "fft.dif");
    EXPECT_EQ(scrambled.children()[0].op(), "swap.cold.heap");
    const Expr natural = llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, profile);
    EXPECT_EQ(natural.children()[0].op(), "swap.cold.heap");
    EXPECT_EQ(natural.children()[1].label(), "fft.redistribute");
    EXPECT_EQ(natural.children()[1].op(), "swap.cold");
    expect_missing([&] { (void)llc::cost::evaluate(natural, *llc::cost::make_model("ccm", profile)); },
                   "swap.cold.heap");
    llc::cost::Profile heap_only = profile;
    heap_only.set_collective("swap.cold.heap", 2, llc::cost::Piecewise::constant(3e-6));
    expect_missing([&] { (void)llc::cost::evaluate(natural, *llc::cost::make_model("ccm", heap_only)); },
                   "'swap.cold'");
    // Each exchange is priced by its own table: the DIF stage at swap.cold.heap's 3 µs, the redistribution at
    // swap.cold's 5 µs.
    llc::cost::Profile both = heap_only;
    both.set_collective("swap.cold", 2, llc::cost::Piecewise::constant(5e-6));
    const llc::cost::Breakdown priced = llc::cost::evaluate(natural, *llc::cost::make_model("ccm", both));
    EXPECT_DOUBLE_EQ(priced.children[0].comm, 3e-6);
    EXPECT_DOUBLE_EQ(priced.children[1].comm, 5e-6);
    EXPECT_DOUBLE_EQ(priced.comm, 3e-6 + 5e-6);
    // n = 2^12 at P = 2: L = 2^11, a working set of 2 · 2 · 16 · 2^11 = 128 KiB: warm in a cache of that size, cold in
    // one a byte smaller.
    llc::cost::Profile warm = profile;
    warm.meta().llc_bytes = 128.0 * 1024;
    EXPECT_EQ(llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::scrambled, warm).children()[0].op(), "swap");
    EXPECT_EQ(llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, warm).children()[1].op(), "swap");
    warm.meta().llc_bytes = 128.0 * 1024 - 1.0;
    EXPECT_EQ(llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, warm).children()[1].op(), "swap.cold");
    // The effective cache (the measured step of the swap's per-byte price), where recorded, decides instead of the
    // reported one: a byte too small makes the exchange cold in a reported cache far larger, one that fits makes it
    // warm again.
    warm.meta().llc_bytes = 480.0 * 1024 * 1024;
    warm.meta().effective_llc_bytes = 128.0 * 1024 - 1.0;
    EXPECT_EQ(llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, warm).children()[1].op(), "swap.cold");
    warm.meta().effective_llc_bytes = 128.0 * 1024;
    EXPECT_EQ(llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, warm).children()[1].op(), "swap");
    llc::cost::Profile unknown = profile;
    unknown.meta().llc_bytes = 0.0;
    expect_missing([&] { (void)llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, unknown); },
                   "meta.llc_bytes");
}

namespace {

// The block stages' swaps by their partners' nodes (cost/partners.hpp): stage t pairs r with r xor P/2^(t+1). On two
// nodes of four ranks placed in turn, the first stage at P = 8 (partners 4 apart) leaves the node as swap.far's pairs
// do, the others stay as swap's: only it is priced far, at swap.cold.heap × swap.far / swap.
TEST(FftCostTest, BlockStagesArePricedByTheirPartnersNodes) {
    llc::cost::Profile profile = probed_profile(true);
    profile.meta().node_of_rank = {0, 0, 0, 0, 1, 1, 1, 1};
    profile.set_collective("swap", 8, llc::cost::Piecewise::constant(1e-6));
    profile.set_collective("swap.cold.heap", 8, llc::cost::Piecewise::constant(3e-6));
    const auto ops = [&](const llc::cost::Profile& p) {
        std::vector<std::string> out;
        const Expr whole = llc::cost::fft(8, 1 << 12, FftLayout::block, FftOrder::scrambled, p);
        for (const Expr& e : whole.children()) {
            if (e.kind() == ExprKind::normal) {
                out.push_back(e.op());
            }
        }
        return out;
    };
    // Without swap.far every stage is priced as before.
    EXPECT_EQ(ops(profile), (std::vector<std::string>{"swap.cold.heap", "swap.cold.heap", "swap.cold.heap"}));
    profile.set_collective("swap.far", 8, llc::cost::Piecewise::constant(4e-6));
    EXPECT_EQ(ops(profile), (std::vector<std::string>{"swap.cold.heap.far", "swap.cold.heap", "swap.cold.heap"}));
    const Expr e = llc::cost::fft(8, 1 << 12, FftLayout::block, FftOrder::scrambled, profile);
    const llc::cost::Breakdown priced = llc::cost::evaluate(e, *llc::cost::make_model("ccm", profile));
    EXPECT_DOUBLE_EQ(priced.children[0].comm, 12e-6);  // 3 µs × 4 µs / 1 µs
    EXPECT_DOUBLE_EQ(priced.children[1].comm, 3e-6);
    // Round-robin over the same two nodes: the stages at 4 and 2 stay on a node, as swap.far's pairs (r xor 4) do,
    // where swap's (r xor 1) leave it; the last stage is swap's own pairing.
    profile.meta().node_of_rank = {0, 1, 0, 1, 0, 1, 0, 1};
    EXPECT_EQ(ops(profile), (std::vector<std::string>{"swap.cold.heap.far", "swap.cold.heap.far", "swap.cold.heap"}));
    // One node: no stage is priced far.
    profile.meta().node_of_rank = std::vector<int>(8, 0);
    EXPECT_EQ(ops(profile), (std::vector<std::string>{"swap.cold.heap", "swap.cold.heap", "swap.cold.heap"}));
}

}  // namespace
