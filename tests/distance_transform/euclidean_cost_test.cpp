// The exact EDT's cost function: its supersteps and their prices from a hand-made profile.
#include <gtest/gtest.h>

#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

namespace {

using llc::cost::Expr;
using llc::cost::Profile;

Profile profile() {
    Profile p;
    // Phase 1: 1 ns a pixel at every block size; phase 2: 4 ns at rows of 2^4, 8 ns at 2^12 (linear in log2 between).
    p.set_kernel(llc::cost::kernel_size_key("dt.edt_columns", 10), {1e-9, "pixel"});
    p.set_kernel(llc::cost::kernel_size_key("dt.edt_columns", 20), {1e-9, "pixel"});
    p.set_kernel(llc::cost::kernel_size_key("dt.edt_rows", 4), {4e-9, "pixel"});
    p.set_kernel(llc::cost::kernel_size_key("dt.edt_rows", 12), {8e-9, "pixel"});
    p.set_kernel("dt.edt_carry", {0.5e-9, "column and block"});
    for (const int P : {2, 3}) {
        p.set_collective("allgather", P, llc::cost::Piecewise::constant(1e-5));
    }
    return p;
}

TEST(EuclideanCostTest, OneProcessorIsLocalWorkAlone) {
    // 256 × 100 pixels, one block of 100 rows: phase 1 25.6 µs, scans 1 block × 256 columns × 0.5 ns, phase 2 at rows
    // of 2^8 (6 ns a pixel) 153.6 µs.
    const Expr e = llc::cost::euclidean_distance_transform(1, 256, 100, 100, profile());
    const auto model = llc::cost::make_model("ccm", profile());
    EXPECT_NEAR(llc::cost::predict(e, *model), 25.6e-6 + 128e-9 + 153.6e-6, 1e-12);
    ASSERT_EQ(e.children().size(), 1U);
    EXPECT_EQ(e.children()[0].kind(), llc::cost::ExprKind::compute);
}

TEST(EuclideanCostTest, ProcessorsShareTheRowsAndAllGatherTheSummaries) {
    // 256 × 100 on P = 3 in blocks of 10: 10 blocks, processor 0 holds blocks 0, 3, 6, 9 = 40 rows (the most).
    const Expr e = llc::cost::euclidean_distance_transform(3, 256, 100, 10, profile());
    ASSERT_EQ(e.children().size(), 2U);
    const Expr& gather = e.children()[0];
    EXPECT_EQ(gather.kind(), llc::cost::ExprKind::normal);
    EXPECT_EQ(gather.label(), "edt.summaries");
    EXPECT_EQ(gather.processors(), 3);
    EXPECT_DOUBLE_EQ(gather.bytes(), 2.0 * 4.0 * 10 * 256);  // two int32 rows per block, all blocks
    EXPECT_NEAR(gather.work(), 1e-9 * 40 * 256, 1e-15);
    EXPECT_NEAR(e.children()[1].work(), 0.5e-9 * 10 * 256 + 6e-9 * 40 * 256, 1e-15);
    const auto model = llc::cost::make_model("ccm", profile());
    EXPECT_NEAR(llc::cost::predict(e, *model), 1e-9 * 40 * 256 + 1e-5 + 0.5e-9 * 2560 + 6e-9 * 40 * 256, 1e-12);
}

TEST(EuclideanCostTest, BadArgumentsAndMissingConstants) {
    EXPECT_THROW((void)llc::cost::euclidean_distance_transform(0, 4, 4, 1, profile()), llc::Error);
    EXPECT_THROW((void)llc::cost::euclidean_distance_transform(1, 0, 4, 1, profile()), llc::Error);
    EXPECT_THROW((void)llc::cost::euclidean_distance_transform(1, 4, 4, 0, profile()), llc::Error);
    try {
        (void)llc::cost::euclidean_distance_transform(1, 4, 4, 1, Profile{});
        FAIL() << "an empty profile priced the EDT";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("dt.edt_columns"), std::string::npos) << e.what();
    }
}

}  // namespace
