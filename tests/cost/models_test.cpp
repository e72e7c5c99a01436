// The analytic models against their formulas worked by hand, and the CCM model against the profile.

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <llc/cost/model.hpp>
#include <llc/error.hpp>

namespace {

using namespace llc::cost;

TEST(ModelsTest, hockney_standard_algorithms) {
    const Hockney m({1e-6, 1e-9});
    // bcast on 8: 3 rounds of α + β·m.
    EXPECT_NEAR(m.collective("bcast", 8, 1000).seconds, 3 * (1e-6 + 1e-6), 1e-18);
    // bcast on 5: ⌈log2 5⌉ = 3 rounds.
    EXPECT_NEAR(m.collective("bcast", 5, 1000).seconds, 3 * 2e-6, 1e-18);
    // gather of 1000-byte blocks on 5: 3 α + 4 β m.
    EXPECT_NEAR(m.collective("gatherv", 5, 1000).seconds, 3e-6 + 4e-6, 1e-18);
    // allgather: h is the whole result (4000 on 4): 2 α + 3 β h/4.
    EXPECT_NEAR(m.collective("allgather", 4, 4000).seconds, 2e-6 + 3e-6, 1e-18);
    // alltoall of a 4000-byte send buffer on 4: 3 (α + β 1000).
    EXPECT_NEAR(m.collective("alltoall", 4, 4000).seconds, 3 * 2e-6, 1e-18);
    EXPECT_NEAR(m.collective("barrier", 16, 0).seconds, 4e-6, 1e-18);
    // swap: h counts both directions.
    EXPECT_NEAR(m.collective("swap", 2, 2000).seconds, 2e-6, 1e-18);
    // The cold swap is a swap to a model without a cache state.
    EXPECT_DOUBLE_EQ(m.collective("swap.cold", 2, 2000).seconds, m.collective("swap", 2, 2000).seconds);
    EXPECT_DOUBLE_EQ(m.collective("shift.overlap", 3, 2000).seconds, m.collective("shift", 3, 2000).seconds);
    // shift: one message of h/2 to the next processor, whatever P (every processor sends at once).
    EXPECT_NEAR(m.collective("shift", 2, 2000).seconds, 2e-6, 1e-18);
    EXPECT_NEAR(m.collective("shift", 7, 2000).seconds, 2e-6, 1e-18);
    EXPECT_EQ(m.collective("bcast", 1, 1e6).seconds, 0.0);
    EXPECT_EQ(m.collective("shift", 1, 1e6).seconds, 0.0);
    const std::vector<int> halves{2, 2};
    EXPECT_NEAR(m.division(4, halves, 2000).total(), 2e-6, 1e-18);
    const std::vector<int> three{1, 1, 2};
    EXPECT_NEAR(m.division(4, three, 2000).exchange, 2 * 1e-6 + 1e-6, 1e-18);
}

TEST(ModelsTest, bsp_h_relations) {
    const BSP m(std::map<int, BSPParams>{{4, {1e-9, 1e-5}}});
    EXPECT_NEAR(m.collective("bcast", 4, 1000).seconds, 3000e-9 + 1e-5, 1e-18);
    EXPECT_NEAR(m.collective("alltoall", 4, 4000).seconds, 3000e-9 + 1e-5, 1e-18);
    EXPECT_NEAR(m.collective("allreduce", 4, 4000).seconds, 2 * (3000e-9 + 1e-5), 1e-18);
    EXPECT_NEAR(m.collective("barrier", 4, 0).seconds, 1e-5, 1e-18);
    EXPECT_NEAR(m.collective("swap", 4, 2000).seconds, 1000e-9 + 1e-5, 1e-18);
    EXPECT_NEAR(m.collective("shift", 4, 2000).seconds, 1000e-9 + 1e-5, 1e-18);  // a 1000-byte relation
    const std::vector<int> halves{2, 2};
    EXPECT_NEAR(m.division(4, halves, 2000).total(), 1000e-9 + 1e-5, 1e-18);
    EXPECT_TRUE(m.collective("bcast", 16, 10).extrapolated);
    EXPECT_THROW(BSP(std::map<int, BSPParams>{}), llc::Error);
}

TEST(ModelsTest, loggp_messages) {
    const LogGP m({5e-6, 1e-6, 2e-6, 1e-9});
    EXPECT_NEAR(m.message(1001), 5e-6 + 2e-6 + 1000e-9, 1e-18);
    EXPECT_NEAR(m.message(0), 7e-6, 1e-18);
    // Two messages of 1001 bytes: T + max(g, o + 1000 G) = 8 + 2 µs.
    EXPECT_NEAR(m.messages(2, 1001), 10e-6, 1e-18);
    EXPECT_NEAR(m.collective("alltoall", 3, 3003).seconds, 10e-6, 1e-18);
    EXPECT_NEAR(m.collective("bcast", 4, 1001).seconds, 2 * 8e-6, 1e-18);
    EXPECT_NEAR(m.collective("scatter", 4, 1000).seconds, 2 * 7e-6 + 3 * 1000e-9, 1e-18);
    EXPECT_NEAR(m.collective("swap", 2, 2002).seconds, 8e-6, 1e-18);
    EXPECT_NEAR(m.collective("shift", 5, 2002).seconds, 8e-6, 1e-18);
}

TEST(ModelsTest, ccm_uses_the_profile) {
    Profile p;
    p.set_collective("allreduce", 2, Piecewise::linear(1e-6, 2e-9));
    p.set_collective("allreduce", 4, Piecewise::linear(2e-6, 4e-9));
    p.set_division(2, DivisionCost{1e-5, Piecewise::linear(1e-6, 1e-9), 2e-6});
    const CCM m(p);
    EXPECT_DOUBLE_EQ(m.collective("allreduce", 4, 1000).seconds, 6e-6);
    EXPECT_FALSE(m.collective("allreduce", 4, 1000).extrapolated);
    EXPECT_TRUE(m.collective("allreduce", 16, 1000).extrapolated);
    const std::vector<int> halves{1, 1};
    const DivisionLookup d = m.division(2, halves, 1000);
    EXPECT_DOUBLE_EQ(d.total(), 1e-5 + 2e-6 + 2e-6);
    EXPECT_THROW((void)m.collective("bcast", 2, 10), llc::Error);
    EXPECT_THROW((void)m.collective("allreduce", 0, 10), llc::Error);
    EXPECT_THROW((void)m.collective("allreduce", 2, -1), llc::Error);
}

TEST(ModelsTest, unknown_collective_and_zoo) {
    const Hockney m({1e-6, 1e-9});
    try {
        (void)m.collective("scan", 4, 10);
        FAIL();
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("scan"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("Hockney"), std::string::npos) << e.what();
    }
    Profile p;
    p.set_hockney({1e-6, 1e-9});
    EXPECT_EQ(make_model("hockney", p)->name(), "hockney");
    EXPECT_THROW((void)make_model("loggp", p), llc::Error);  // not in the profile
    EXPECT_THROW((void)make_model("postal", p), llc::Error);
    for (const std::string& f : standard_collectives()) {
        EXPECT_GE(m.collective(f, 4, 64).seconds, 0.0) << f;
    }
}

}  // namespace

namespace {

// Seidel's broadcasts priced by the analytic models: Table I with ν = 0 (d = ⌈lg P⌉ for ST and BST, virtual nodes;
// d = ⌊lg P⌋ plus one hop for RH off powers of two) and the model's per-hop start-up and per-byte time.
//   P = 8 (d = 3): ST 3·m·a + 3·b; BST 2·m·a + 4·b; RH (2 + 1/2 − 1/8)·m·a + 6·b = 2.375·m·a + 6·b.
TEST(ModelsTest, seidel_broadcasts_under_hockney) {
    const Hockney m({1e-6, 1e-9});
    EXPECT_NEAR(m.collective("bcast.st", 8, 1000).seconds, 3e-6 + 3e-6, 1e-18);
    EXPECT_NEAR(m.collective("bcast.bst", 8, 1000).seconds, 2e-6 + 4e-6, 1e-18);
    EXPECT_NEAR(m.collective("bcast.rh", 8, 1000).seconds, 2.375e-6 + 6e-6, 1e-18);
    // P = 5: ST and BST as on 8 (virtual nodes); RH on 4 (d = 2: 2·m·a + 4·b) plus one hop (m·a + b).
    EXPECT_NEAR(m.collective("bcast.st", 5, 1000).seconds, 6e-6, 1e-18);
    EXPECT_NEAR(m.collective("bcast.rh", 5, 1000).seconds, (2.0 - 0.25 + 1.0) * 1e-6 + 5e-6, 1e-18);
    EXPECT_EQ(m.collective("bcast.bst", 1, 1e6).seconds, 0.0);
}

TEST(ModelsTest, seidel_broadcasts_under_loggp_bsp_and_c3) {
    const LogGP loggp({5e-6, 1e-6, 2e-6, 1e-9});  // a hop: L + 2o = 7 µs start-up, G per byte
    EXPECT_NEAR(loggp.collective("bcast.st", 8, 1000).seconds, 3 * 7e-6 + 3 * 1000e-9, 1e-18);
    const BSP bsp(std::map<int, BSPParams>{{4, {1e-9, 1e-5}}});  // a hop: a superstep, l + g·m
    // P = 4 (d = 2): BST (2 + (2 − 3)/2)·m·a + 3·b = 1.5·m·a + 3·b.
    EXPECT_NEAR(bsp.collective("bcast.bst", 4, 1000).seconds, 1.5 * 1000e-9 + 3e-5, 1e-18);
    // C3: a hop is a one-to-one pattern of m bytes, which is what swap prices for 2m (h counts both directions).
    const C3 c3(C3Params{8e-6, 1e-6, 512, C3Topology::complete});
    EXPECT_NEAR(c3.collective("bcast.st", 8, 5000).seconds, 3 * c3.collective("swap", 8, 10000).seconds, 1e-15);
    // shift is the one-to-one pattern of the C3 model itself (processor i sends to i + 1): priced as swap.
    EXPECT_DOUBLE_EQ(c3.collective("shift", 8, 10000).seconds, c3.collective("swap", 8, 10000).seconds);
    EXPECT_GT(c3.collective("shift", 8, 10000).seconds, c3.collective("shift", 8, 100).seconds);
    EXPECT_EQ(c3.collective("bcast.rh", 1, 5000).seconds, 0.0);
}

}  // namespace
