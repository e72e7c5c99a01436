// llc::cost::fft: the shape of the expression (labels, operations, P, bytes, work) for each layout and fallback, its
// value against the paper's closed form Φ for P = 2^s under a model whose prices are known, and which kernel table
// (leaf kind, stride, size) prices each node, with the fallbacks for older profiles.
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/fft_cost.hpp>
#include <llc/cost/model.hpp>
#include <llc/error.hpp>

namespace {

using llc::FftLayout;
using llc::FftOrder;
using llc::cost::Expr;
using llc::cost::ExprKind;

const llc::cost::FftConstants k{.divide = 2e-9, .combine = 3e-9, .leaf = 5e-10, .leaf_strided = 7e-10, .reorder = 1e-9};

TEST(FftCostTest, ReplicatedMatchesThePapersClosedForm) {
    const llc::cost::Hockney model(llc::cost::HockneyParams{.alpha = 2e-6, .beta = 1e-10});
    for (const int P : {2, 4, 8, 64}) {
        for (const std::int64_t n : {std::int64_t{1} << 12, std::int64_t{1} << 20}) {
            const Expr e = llc::cost::fft(P, n, FftLayout::replicated, FftOrder::natural, k);
            // Φ = Cs·(n/P)·log2(n/P) + Σ_{s=1..log P} (T_PAR(2^s, 16·n) + F·2^{s−1}·n/P)
            const double leaf = static_cast<double>(n / P);
            double expected = k.leaf_strided * leaf * std::log2(leaf);
            for (int Ps = 2; Ps <= P; Ps *= 2) {
                const std::vector<int> sizes{Ps / 2, Ps / 2};
                expected += model.division(Ps, sizes, 16.0 * static_cast<double>(n * Ps / P)).total();
                expected += k.combine * static_cast<double>(Ps / 2) * static_cast<double>(n / P);
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
    EXPECT_DOUBLE_EQ(level.children()[1].work(), k.combine * 512);
    // P = 3: halves of 2 and 1; the lone processor sends to two partners and receives once.
    const Expr odd = llc::cost::fft(3, 1024, FftLayout::replicated, FftOrder::natural, k);
    const Expr& d3 = odd.children()[0].children()[0];
    EXPECT_EQ(d3.sizes(), (std::vector<int>{2, 1}));
    EXPECT_DOUBLE_EQ(d3.bytes(), 3.0 * 512 * 16);
    EXPECT_EQ(d3.children()[1].kind(), ExprKind::compute);
    EXPECT_DOUBLE_EQ(d3.children()[1].work(), k.leaf_strided * 512 * 9);
    // n odd: every processor runs the serial leaf.
    const Expr serial = llc::cost::fft(4, 999, FftLayout::replicated, FftOrder::natural, k);
    ASSERT_EQ(serial.children().size(), 1U);
    EXPECT_EQ(serial.children()[0].label(), "fft.leaf");
    EXPECT_NEAR(serial.children()[0].work(), k.leaf * 999 * std::log2(999.0), 1e-18);
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
        EXPECT_EQ(items[t].op(), "swap");
        EXPECT_EQ(items[t].processors(), 4);
        EXPECT_DOUBLE_EQ(items[t].bytes(), 2 * L * 16);
    }
    EXPECT_DOUBLE_EQ(items[0].work(), 0.0);
    EXPECT_DOUBLE_EQ(items[1].work(), k.divide * L);
    EXPECT_DOUBLE_EQ(items[2].work(), k.divide * L + k.leaf * L * std::log2(L));
    const Expr natural = llc::cost::fft(4, n, FftLayout::block, FftOrder::natural, k);
    ASSERT_EQ(natural.children().size(), 4U);
    const Expr& redistribute = natural.children()[2];
    EXPECT_EQ(redistribute.label(), "fft.redistribute");
    EXPECT_EQ(redistribute.op(), "alltoall");
    EXPECT_DOUBLE_EQ(redistribute.bytes(), L * 16);
    EXPECT_DOUBLE_EQ(redistribute.work(), k.divide * L + k.leaf * L * std::log2(L));
    EXPECT_EQ(natural.children()[3].label(), "fft.reorder");
    // P = 2: the redistribution is a swap of half a block each way.
    const Expr two = llc::cost::fft(2, n, FftLayout::block, FftOrder::natural, k);
    EXPECT_EQ(two.children()[1].op(), "swap");
    EXPECT_DOUBLE_EQ(two.children()[1].bytes(), n / 2.0 * 16);
    // Fallbacks: P = 3 and P ∤ n gather first; P = 1 is the serial leaf.
    for (const auto& [P, m] : {std::pair{3, std::int64_t{1024}}, std::pair{4, std::int64_t{1022}}}) {
        const Expr gathered = llc::cost::fft(P, m, FftLayout::block, FftOrder::scrambled, k);
        EXPECT_EQ(gathered.children()[0].label(), "fft.gather");
        EXPECT_EQ(gathered.children()[0].op(), "allgatherv");
    }
    const Expr one = llc::cost::fft(1, n, FftLayout::block, FftOrder::natural, k);
    ASSERT_EQ(one.children().size(), 1U);
    EXPECT_DOUBLE_EQ(one.children()[0].work(), k.leaf * n * 12);
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
    c.leaf_strided_by_size = {{2, {{8, 17e-10}}}, {4, {{8, 19e-10}}}};
    c.divide_by_size = {{8, 23e-10}};
    c.combine_by_size = {{8, 29e-10}};
    c.reorder_by_size = {{8, 31e-10}};
    return c;
}

TEST(FftCostTest, EachLeafIsPricedByTheTableOfItsKind) {
    const llc::cost::FftConstants c = tagged();
    const double n = 4096;
    // P = 1 (both layouts) and the replicated layout with n odd: FftPlan's serial leaf, contiguous out of place.
    for (const auto layout : {FftLayout::replicated, FftLayout::block}) {
        const Expr one = llc::cost::fft(1, 4096, layout, FftOrder::natural, c);
        EXPECT_NEAR(one.children()[0].work(), 13e-10 * nlogn(n), 1e-15);
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
    // Replicated: P = 2 → leaves of n/2 with stride 2; P = 4 → n/4, stride 4; P = 8 → stride 8, which has no table
    // and takes stride 4's.
    for (const auto& [P, table] : {std::pair{2, 17e-10}, std::pair{4, 19e-10}, std::pair{8, 19e-10}}) {
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
    // (in_place_fftw_min … in_place_fftw_max). Elsewhere, and in profiles without the table, D·L + C·L·log2 L.
    llc::cost::FftConstants c = tagged();
    c.leaf_dif_by_size = {{15, 41e-10}, {17, 43e-10}, {19, 45e-10}};
    const auto last_of = [](const Expr& e, FftOrder order) -> const Expr& {
        const auto& items = e.children();
        return order == FftOrder::scrambled ? items.back() : items[items.size() - 2];
    };
    const auto apart = [](double L, double leaf) { return 23e-10 * L + leaf * nlogn(L); };
    // Natural order: folded from 2^15 (L = 2^16 lies halfway to 2^17 in log2).
    for (const auto& [P, n, Cd] :
         {std::tuple{2, std::int64_t{1} << 16, 41e-10}, std::tuple{4, std::int64_t{1} << 18, 42e-10}}) {
        const Expr e = llc::cost::fft(P, n, FftLayout::block, FftOrder::natural, c);
        const double L = static_cast<double>(n / P);
        EXPECT_NEAR(last_of(e, FftOrder::natural).work(), Cd * nlogn(L), 1e-15) << P;
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
    const llc::cost::FftConstants without = tagged();
    EXPECT_NEAR(without.last_stage_seconds(1 << 19, true), apart(1 << 19, 11e-10), 1e-10);
}

TEST(FftCostTest, OneProcessorTakesTheSoloTableWhereThereIsOne) {
    // P = 1 runs the serial leaf with the node's other processors idle: "fft.leaf_oop_solo" when the profile has it;
    // P = 2 with n odd runs the serial leaf on both processors at once: "fft.leaf_oop".
    llc::cost::FftConstants c = tagged();
    EXPECT_NEAR(llc::cost::fft(1, 4096, FftLayout::block, FftOrder::natural, c).children()[0].work(),
                13e-10 * nlogn(4096),
                1e-15);
    c.leaf_oop_solo_by_size = {{12, 7e-10}};
    EXPECT_NEAR(c.serial_seconds(4096), 7e-10 * nlogn(4096), 1e-15);
    for (const auto layout : {FftLayout::replicated, FftLayout::block}) {
        const Expr one = llc::cost::fft(1, 4096, layout, FftOrder::natural, c);
        EXPECT_NEAR(one.children()[0].work(), 7e-10 * nlogn(4096), 1e-15);
    }
    const Expr odd = llc::cost::fft(2, 4095, FftLayout::replicated, FftOrder::natural, c);
    EXPECT_NEAR(odd.children()[0].work(), 13e-10 * nlogn(4095), 1e-15);
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

TEST(FftCostTest, MissingTablesFallBack) {
    llc::cost::FftConstants c = k;  // no table at all: the single constants
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 1, false), k.leaf * nlogn(1024));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 1, true), k.leaf * nlogn(1024));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 4, false), k.leaf_strided * nlogn(1024));
    EXPECT_DOUBLE_EQ(c.divide_seconds(1024), k.divide * 1024);
    EXPECT_DOUBLE_EQ(c.combine_seconds(1024), k.combine * 1024);
    EXPECT_DOUBLE_EQ(c.reorder_seconds(1024), k.reorder * 1024);
    // An older profile's tables: in place and stride 2. Out of place takes the in-place table, stride 8 stride 2's.
    c.leaf_by_size = {{10, 4e-9}};
    c.leaf_strided_by_size = {{2, {{10, 6e-9}}}};
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 1, false), 4e-9 * nlogn(1024));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 8, false), 6e-9 * nlogn(1024));
    // A stride below every table's (here only stride 4 is measured) has no table: the single constant.
    c.leaf_strided_by_size = {{4, {{10, 8e-9}}}};
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 2, false), k.leaf_strided * nlogn(1024));
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1024, 16, false), 8e-9 * nlogn(1024));
}

TEST(FftCostTest, ReadsOldAndNewProfiles) {
    // An older profile: five single constants and the in-place / stride-2 leaf tables.
    llc::cost::Profile old_profile;
    const std::map<std::string, double> singles{{"fft.divide", 1e-9},
                                                {"fft.combine", 2e-9},
                                                {"fft.leaf", 3e-9},
                                                {"fft.leaf_strided", 4e-9},
                                                {"fft.reorder", 5e-9}};
    for (const auto& [name, value] : singles) {
        old_profile.set_kernel(name, {value, "unit"});
    }
    old_profile.set_kernel("fft.leaf.2^12", {6e-9, "unit"});
    old_profile.set_kernel("fft.leaf_strided.2^20", {7e-9, "unit"});
    const auto old_k = llc::cost::FftConstants::from(old_profile);
    EXPECT_EQ(old_k.divide, 1e-9);
    EXPECT_EQ(old_k.combine, 2e-9);
    EXPECT_EQ(old_k.leaf, 3e-9);
    EXPECT_EQ(old_k.leaf_strided, 4e-9);
    EXPECT_EQ(old_k.reorder, 5e-9);
    EXPECT_EQ(old_k.leaf_by_size, (std::map<int, double>{{12, 6e-9}}));
    EXPECT_TRUE(old_k.leaf_oop_by_size.empty());
    EXPECT_EQ(old_k.leaf_strided_by_size,
              (std::map<std::size_t, std::map<int, double>>{{2, std::map<int, double>{{20, 7e-9}}}}));
    EXPECT_DOUBLE_EQ(old_k.divide_seconds(100), 1e-7);
    // A new profile: tables only.
    llc::cost::Profile profile;
    profile.set_kernel("fft.divide.2^6", {1e-9, "unit"});
    profile.set_kernel("fft.divide.2^8", {2e-9, "unit"});
    profile.set_kernel("fft.combine.2^6", {3e-9, "unit"});
    profile.set_kernel("fft.reorder.2^6", {4e-9, "unit"});
    profile.set_kernel("fft.leaf.2^4", {5e-9, "unit"});
    profile.set_kernel("fft.leaf_oop.2^4", {6e-9, "unit"});
    profile.set_kernel("fft.leaf_oop.2^24", {7e-9, "unit"});
    profile.set_kernel("fft.leaf_strided.2^5", {8e-9, "unit"});
    profile.set_kernel("fft.leaf_strided4.2^5", {9e-9, "unit"});
    profile.set_kernel("fft.leaf_strided8.2^6", {10e-9, "unit"});
    profile.set_kernel("fft.leaf_oop_solo.2^4", {11e-9, "unit"});
    profile.set_kernel("fft.leaf_dif.2^16", {12e-9, "unit"});
    const auto new_k = llc::cost::FftConstants::from(profile);
    EXPECT_EQ(new_k.swap, "swap");  // no cold swap in the profile: the plain one prices the exchanges
    EXPECT_EQ(new_k.leaf_oop_solo_by_size, (std::map<int, double>{{4, 11e-9}}));
    EXPECT_EQ(new_k.leaf_dif_by_size, (std::map<int, double>{{16, 12e-9}}));
    EXPECT_EQ(new_k.divide_by_size, (std::map<int, double>{{6, 1e-9}, {8, 2e-9}}));
    EXPECT_EQ(new_k.combine_by_size, (std::map<int, double>{{6, 3e-9}}));
    EXPECT_EQ(new_k.reorder_by_size, (std::map<int, double>{{6, 4e-9}}));
    EXPECT_EQ(new_k.leaf_by_size, (std::map<int, double>{{4, 5e-9}}));
    EXPECT_EQ(new_k.leaf_oop_by_size, (std::map<int, double>{{4, 6e-9}, {24, 7e-9}}));
    EXPECT_EQ(new_k.leaf_strided_by_size,
              (std::map<std::size_t, std::map<int, double>>{{2, std::map<int, double>{{5, 8e-9}}},
                                                            {4, std::map<int, double>{{5, 9e-9}}},
                                                            {8, std::map<int, double>{{6, 10e-9}}}}));
    EXPECT_DOUBLE_EQ(new_k.leaf_seconds(1 << 14, 1, false), 6.5e-9 * nlogn(1 << 14));
    // A table of one kernel missing entirely, without its single constant: an error naming it.
    llc::cost::Profile no_reorder;
    for (const char* name : {"fft.divide.2^6", "fft.combine.2^6", "fft.leaf.2^4", "fft.leaf_strided.2^5"}) {
        no_reorder.set_kernel(name, profile.kernel(name));
    }
    try {
        (void)llc::cost::FftConstants::from(no_reorder);
        ADD_FAILURE() << "no error for a profile without fft.reorder";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("fft.reorder"), std::string::npos) << e.what();
    }
    // Only in-place leaves: they serve the out-of-place kind too; no strided table and no single constant: error.
    llc::cost::Profile no_strided = no_reorder;
    no_strided.set_kernel("fft.reorder.2^6", {4e-9, "unit"});
    EXPECT_NO_THROW((void)llc::cost::FftConstants::from(no_strided));  // it has fft.leaf_strided.2^5
    llc::cost::Profile contiguous_only;
    for (const char* name : {"fft.divide.2^6", "fft.combine.2^6", "fft.leaf.2^4", "fft.reorder.2^6"}) {
        contiguous_only.set_kernel(name, no_strided.kernel(name));
    }
    try {
        (void)llc::cost::FftConstants::from(contiguous_only);
        ADD_FAILURE() << "no error for a profile without strided leaves";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("fft.leaf_strided"), std::string::npos) << e.what();
    }
    const auto only_in_place = llc::cost::FftConstants::from([&] {
        llc::cost::Profile p = contiguous_only;
        p.set_kernel("fft.leaf_strided", {1e-9, "unit"});
        return p;
    }());
    EXPECT_DOUBLE_EQ(only_in_place.leaf_seconds(1 << 10, 1, false), 5e-9 * nlogn(1 << 10));
}

TEST(FftCostTest, BadArgumentsAndMissingKernels) {
    EXPECT_THROW((void)llc::cost::fft(0, 16, FftLayout::block, FftOrder::natural, k), llc::Error);
    EXPECT_THROW((void)llc::cost::fft(2, 0, FftLayout::block, FftOrder::natural, k), llc::Error);
    llc::cost::Profile profile;
    try {
        (void)llc::cost::FftConstants::from(profile);
        ADD_FAILURE() << "no error for a profile without the fft kernels";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("fft.divide"), std::string::npos) << e.what();
    }
}

}  // namespace

// A profile with the cold swap prices the block layout's exchanges with it: the blocks come from memory, not cache.
TEST(FftCostTest, BlockExchangesUseTheColdSwapWhereTheProfileHasIt) {
    llc::cost::Profile profile;
    profile.set_kernel("fft.divide", {1e-9, "unit"});
    profile.set_kernel("fft.combine", {1e-9, "unit"});
    profile.set_kernel("fft.leaf", {1e-9, "unit"});
    profile.set_kernel("fft.leaf_strided", {1e-9, "unit"});
    profile.set_kernel("fft.reorder", {1e-9, "unit"});
    profile.set_collective("swap", 2, llc::cost::Piecewise::constant(1e-6));
    profile.set_collective("swap.cold", 2, llc::cost::Piecewise::constant(5e-6));
    const auto cold = llc::cost::FftConstants::from(profile);
    EXPECT_EQ(cold.swap, "swap.cold");
    const Expr scrambled = llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::scrambled, profile);
    EXPECT_EQ(scrambled.children()[0].label(), "fft.dif");
    EXPECT_EQ(scrambled.children()[0].op(), "swap.cold");
    const Expr natural = llc::cost::fft(2, 1 << 12, FftLayout::block, FftOrder::natural, profile);
    EXPECT_EQ(natural.children()[1].label(), "fft.redistribute");
    EXPECT_EQ(natural.children()[1].op(), "swap.cold");
    const auto ccm = llc::cost::make_model("ccm", profile);
    const double exchanges = llc::cost::evaluate(natural, *ccm).comm;
    EXPECT_DOUBLE_EQ(exchanges, 2 * 5e-6);
}
