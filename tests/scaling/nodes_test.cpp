// Which ranks shared a node: the profile's meta.nodes in JSON (written, read back, absent in older profiles, refused
// when malformed) and llc-validate's comparison of a run's layout with the profile's (llc/tools/nodes.hpp).

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/nodes.hpp>

namespace {

using llc::cost::Piecewise;
using llc::cost::Profile;

/// The smallest profile from_json accepts: one collective and one division.
Profile minimal_profile() {
    Profile p;
    p.meta().host = "testhost";
    p.meta().world_size = 4;
    p.set_collective("bcast", 2, Piecewise::linear(1e-6, 1e-9));
    p.set_division(2, llc::cost::DivisionCost{1e-6, Piecewise::linear(1e-6, 1e-9), 0.0});
    return p;
}

TEST(NodesTest, profile_records_ranks_per_node_and_reads_profiles_without_them) {
    Profile p = minimal_profile();
    const std::string without = p.to_json();
    EXPECT_EQ(without.find("\"nodes\""), std::string::npos);  // not recorded: not written
    EXPECT_TRUE(Profile::from_json(without, "old.json").meta().nodes.empty());

    p.meta().nodes = {4, 4, 2};
    const Profile q = Profile::from_json(p.to_json(), "new.json");
    EXPECT_EQ(q.meta().nodes, (std::vector<int>{4, 4, 2}));
    EXPECT_EQ(q, p);
}

TEST(NodesTest, malformed_nodes_are_refused_naming_the_field) {
    Profile p = minimal_profile();
    p.meta().nodes = {2, 2};
    const std::string text = p.to_json();
    for (const auto& bad :
         {std::string("\"nodes\": 3"), std::string("\"nodes\": [0]"), std::string("\"nodes\": [1.5]")}) {
        // nlohmann writes the array over several lines: swap the whole key and value for the bad one.
        const auto at = text.find("\"nodes\"");
        ASSERT_NE(at, std::string::npos);
        const auto end = text.find(']', at);
        std::string broken = text;
        broken.replace(at, end + 1 - at, bad);
        try {
            (void)Profile::from_json(broken, "x.json");
            ADD_FAILURE() << "accepted " << bad;
        } catch (const llc::Error& e) {
            EXPECT_NE(std::string(e.what()).find("meta.nodes"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("x.json"), std::string::npos) << e.what();
        }
    }
}

TEST(NodesTest, a_run_is_compared_with_the_profile_up_to_its_size) {
    using llc::tools::node_layout_note;
    EXPECT_EQ(node_layout_note({4, 4, 4, 4}, {4, 4, 4, 4}), "");
    EXPECT_EQ(node_layout_note({4, 4, 4, 4}, {4, 2}), "");  // the first 6 ranks of the profile's placement
    EXPECT_EQ(node_layout_note({}, {2}), "");               // an older profile: nothing to compare
    const std::string spread = node_layout_note({4, 4}, {2, 2, 2, 2});
    EXPECT_NE(spread.find("2 nodes of 4 ranks"), std::string::npos) << spread;
    EXPECT_NE(spread.find("4 nodes of 2 ranks"), std::string::npos) << spread;
    const std::string beyond = node_layout_note({4}, {4, 4});  // a run larger than the calibration (case b)
    EXPECT_NE(beyond.find("1 node of 4 ranks"), std::string::npos) << beyond;
    EXPECT_EQ(llc::tools::describe_layout({3, 1}), "ranks per node 3, 1");
}

}  // namespace
