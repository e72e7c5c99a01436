// cost/partners.hpp and the far swap's pricing: which pairs of a placement cross nodes, which swaps are priced by
// swap.far's pairs rather than swap's, and a far variant without a table of its own priced as its near one scaled by
// swap.far / swap (the placement's round trip through the profile's JSON is in profile_test.cpp).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/partners.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>

namespace {

using llc::cost::pairs_cross_nodes;
using llc::cost::priced_far;

const std::vector<int> block_4x2{0, 0, 0, 0, 1, 1, 1, 1};        // two nodes of four ranks, placed in turn
const std::vector<int> round_robin_2x4{0, 1, 0, 1, 0, 1, 0, 1};  // the same nodes, ranks dealt round-robin

TEST(Partners, FarDistanceIsTheLargestPowerOfTwoBelowP) {
    EXPECT_EQ(llc::cost::far_distance(1), 0);
    EXPECT_EQ(llc::cost::far_distance(2), 0);  // its pairs would be swap's own
    EXPECT_EQ(llc::cost::far_distance(3), 2);
    EXPECT_EQ(llc::cost::far_distance(4), 2);
    EXPECT_EQ(llc::cost::far_distance(5), 4);
    EXPECT_EQ(llc::cost::far_distance(8), 4);
    EXPECT_EQ(llc::cost::far_distance(64), 32);
    EXPECT_EQ(llc::cost::far_distance(65), 64);
}

TEST(Partners, PairsCrossNodesAsThePlacementPutsThem) {
    // In turn: r xor 1 and r xor 2 stay on a node, r xor 4 leaves it.
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 8, 1), false);
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 8, 2), false);
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 8, 4), true);
    // Round-robin: the other way round for r xor 1; r xor 2 and r xor 4 stay (even ranks on node 0).
    EXPECT_EQ(pairs_cross_nodes(round_robin_2x4, 8, 1), true);
    EXPECT_EQ(pairs_cross_nodes(round_robin_2x4, 8, 2), false);
    EXPECT_EQ(pairs_cross_nodes(round_robin_2x4, 8, 4), false);
    // The first P ranks only: 0 … 3 of the block placement share node 0; pairs leaving the group do not count.
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 4, 2), false);
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 5, 4), true);          // 0 <-> 4; 1 <-> 5 is outside
    EXPECT_EQ(pairs_cross_nodes(block_4x2, 9, 1), std::nullopt);  // a placement of 8 ranks does not hold 9
    EXPECT_EQ(pairs_cross_nodes({}, 2, 1), std::nullopt);
    for (const auto& [P, d] : {std::pair{0, 1}, std::pair{2, 0}}) {
        try {
            (void)pairs_cross_nodes(block_4x2, P, d);
            ADD_FAILURE() << "no error for P = " << P << ", distance = " << d;
        } catch (const llc::Error& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("llc::cost::pairs_cross_nodes"), std::string::npos) << what;
            EXPECT_NE(what.find(P < 1 ? "P" : "distance"), std::string::npos) << what;
        }
    }
}

TEST(Partners, ASwapIsPricedFarWhereItsPairsCrossAsSwapFarsDoAndSwapsDoNot) {
    // In turn at P = 8: swap (r xor 1) stays, swap.far (r xor 4) leaves: the stage at 4 is far, 2 and 1 are not.
    EXPECT_TRUE(priced_far(block_4x2, 8, 4));
    EXPECT_FALSE(priced_far(block_4x2, 8, 2));
    EXPECT_FALSE(priced_far(block_4x2, 8, 1));
    // Round-robin: swap leaves, swap.far stays: the stages at 4 and 2 stay, as swap.far's pairs; 1 is swap's own.
    EXPECT_TRUE(priced_far(round_robin_2x4, 8, 4));
    EXPECT_TRUE(priced_far(round_robin_2x4, 8, 2));
    EXPECT_FALSE(priced_far(round_robin_2x4, 8, 1));
    // One node: nothing crosses, every swap is swap's. Every rank on a node of its own: everything crosses.
    const std::vector<int> one_node(8, 0);
    const std::vector<int> alone{0, 1, 2, 3, 4, 5, 6, 7};
    for (const int d : {1, 2, 4}) {
        EXPECT_FALSE(priced_far(one_node, 8, d)) << d;
        EXPECT_FALSE(priced_far(alone, 8, d)) << d;
    }
    EXPECT_FALSE(priced_far(block_4x2, 2, 1));  // P = 2: no far pairing
    EXPECT_FALSE(priced_far({}, 8, 4));         // no record: as before
}

llc::cost::Profile two_nodes_profile() {
    llc::cost::Profile profile;
    profile.meta().node_of_rank = block_4x2;
    profile.set_collective(llc::names::op::swap, 8, llc::cost::Piecewise::constant(2e-6));
    profile.set_collective(llc::names::op::swap_cold, 8, llc::cost::Piecewise::constant(5e-6));
    return profile;
}

TEST(Partners, TheFarVariantNeedsTheFarTable) {
    llc::cost::Profile profile = two_nodes_profile();
    EXPECT_EQ(llc::cost::swap_by_partners(profile, "swap.cold", 8, 4), "swap.cold");  // no swap.far: as before
    profile.set_collective(llc::names::op::swap_far, 8, llc::cost::Piecewise::constant(6e-6));
    EXPECT_EQ(llc::cost::swap_by_partners(profile, "swap.cold", 8, 4), "swap.cold.far");
    EXPECT_EQ(llc::cost::swap_by_partners(profile, "swap.cold", 8, 2), "swap.cold");
    profile.meta().node_of_rank.clear();
    EXPECT_EQ(llc::cost::swap_by_partners(profile, "swap.cold", 8, 4), "swap.cold");  // no placement: as before
}

TEST(Partners, AFarVariantWithoutItsOwnTableScalesItsNearOne) {
    llc::cost::Profile profile = two_nodes_profile();
    profile.set_collective(llc::names::op::swap_far, 8, llc::cost::Piecewise::constant(6e-6));
    // swap.far is its own table; swap.cold.far is swap.cold × swap.far / swap = 5 µs × 3.
    EXPECT_DOUBLE_EQ(profile.collective("swap.far", 8, 1024.0).seconds, 6e-6);
    EXPECT_DOUBLE_EQ(profile.collective("swap.cold.far", 8, 1024.0).seconds, 15e-6);
    // Its own table, where it has one, wins.
    profile.set_collective("swap.cold.far", 8, llc::cost::Piecewise::constant(7e-6));
    EXPECT_DOUBLE_EQ(profile.collective("swap.cold.far", 8, 1024.0).seconds, 7e-6);
    // The trace records a swap: every far variant stands for it, and the models without a measurement price a swap.
    EXPECT_EQ(llc::cost::base_collective("swap.cold.heap.far"), "swap");
    EXPECT_EQ(llc::cost::base_collective("swap.far"), "swap");
    // Without swap.far the variant is an error naming it (a cost function asks for it only when the profile has it).
    llc::cost::Profile near_only = two_nodes_profile();
    try {
        (void)near_only.collective("swap.cold.far", 8, 1024.0);
        ADD_FAILURE() << "swap.cold.far priced without swap.far";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'swap.far'"), std::string::npos) << e.what();
    }
}

}  // namespace
