// The walk ladder (cr.walk.<side>, llc-probe) runs at sides no contour ranking case validates, in any size class
// (issue #31: calibration disjoint from validation), and it has the rungs the cost function reads: 2048 and 4096, the
// sides of the whole-run probes it places the step between, and some in between.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_ranking_names.hpp>
#include <llc/tools/card.hpp>

namespace {

using llc::validate::SizeClass;

TEST(WalkLadder, RunsAtSidesNoCaseValidatesAndSpans2To11To2To12) {
    const std::string prefix = std::string(llc::names::contour_ranking::walk) + ".";
    std::vector<std::int64_t> sides;
    const llc::tools::Card* card = nullptr;
    for (const llc::tools::Card& c : llc::tools::cards()) {
        if (c.name == "contour-ranking") {
            card = &c;
        }
    }
    ASSERT_NE(card, nullptr) << "no contour-ranking card registered";
    for (const auto& probe : card->probes) {
        if (probe.name.starts_with(prefix)) {
            const std::int64_t side = std::stoll(probe.name.substr(prefix.size()));
            EXPECT_EQ(probe.name, llc::names::contour_ranking::walk_key(side));
            EXPECT_EQ(probe.seed, 0U) << probe.name << ": a fixed pattern of lines, no random input";
            sides.push_back(side);
        }
    }
    ASSERT_FALSE(sides.empty()) << "no " << prefix << "<side> probe";
    EXPECT_EQ(std::count(sides.begin(), sides.end(), 2048), 1);
    EXPECT_EQ(std::count(sides.begin(), sides.end(), 4096), 1);
    EXPECT_GE(sides.size(), 4U) << "rungs between 2048 and 4096 place the step";
    for (const auto& c : card->cases) {
        for (const SizeClass size_class : {SizeClass::small, SizeClass::medium, SizeClass::large}) {
            for (const std::int64_t n : c.sizes(size_class)) {
                EXPECT_TRUE(std::find(sides.begin(), sides.end(), n) == sides.end())
                    << "the walk ladder runs side " << n << ", which case " << c.algorithm << " validates";
            }
        }
    }
}

}  // namespace
