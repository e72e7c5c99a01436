// llc::cost::fft: the shape of the expression (labels, operations, P, bytes, work) for each layout and fallback, and
// its value against the paper's closed form Φ for P = 2^s under a model whose prices are known.
#include <cmath>
#include <map>
#include <string>
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

TEST(FftCostTest, PerSizeLeafConstantsInterpolateInLog2N) {
    llc::cost::FftConstants c = k;
    c.leaf_by_size = {{14, 1e-9}, {16, 3e-9}};
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 15, false), 2e-9 * (1 << 15) * 15);
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 16, false), 3e-9 * (1 << 16) * 16);
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 20, false), 3e-9 * (1 << 20) * 20);           // clamped above
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 10, false), 1e-9 * (1 << 10) * 10);           // clamped below
    EXPECT_DOUBLE_EQ(c.leaf_seconds(1 << 10, true), k.leaf_strided * (1 << 10) * 10);  // no table: the constant
    llc::cost::Profile profile;
    for (const char* name : {"fft.divide", "fft.combine", "fft.leaf", "fft.leaf_strided", "fft.reorder"}) {
        profile.set_kernel(name, {1e-9, "unit"});
    }
    profile.set_kernel("fft.leaf.2^12", {4e-9, "unit"});
    profile.set_kernel("fft.leaf_strided.2^20", {5e-9, "unit"});
    const auto read = llc::cost::FftConstants::from(profile);
    EXPECT_EQ(read.leaf_by_size, (std::map<int, double>{{12, 4e-9}}));
    EXPECT_EQ(read.leaf_strided_by_size, (std::map<int, double>{{20, 5e-9}}));
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
