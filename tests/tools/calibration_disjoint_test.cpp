// The calibration never sees a validated input (docs/validation.md, "The verdict rule"): for every registered card,
// no probe's seed is a validation case's seed, and a probe that times a whole run of an algorithm runs it at a size
// none of that card's cases validates, in any size class. The cases whose one-processor price rests on such a probe
// say so (Case::p1_priced_by_whole_run), and only they.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/tools/card.hpp>

namespace {

using llc::tools::Card;
using llc::tools::cards;
using llc::validate::SizeClass;

constexpr SizeClass every_size_class[] = {SizeClass::small, SizeClass::medium, SizeClass::large};

TEST(CalibrationDisjoint, NoProbeUsesTheSeedOfAValidationCase) {
    std::map<std::uint64_t, std::string> case_seeds;  // seed → a case that uses it
    for (const Card& card : cards()) {
        for (const auto& c : card.cases) {
            if (c.seed != 0) {
                case_seeds.emplace(c.seed, c.algorithm);
            }
        }
    }
    ASSERT_FALSE(case_seeds.empty()) << "no case declares the seed of its input";
    int seeded_probes = 0;
    for (const Card& card : cards()) {
        for (const auto& probe : card.probes) {
            if (probe.seed == 0) {
                continue;
            }
            ++seeded_probes;
            const auto same = case_seeds.find(probe.seed);
            EXPECT_EQ(same, case_seeds.end())
                << "probe " << probe.name << " (card " << card.name << ") uses seed " << probe.seed
                << ", the input seed of validation case " << (same == case_seeds.end() ? "" : same->second);
        }
    }
    EXPECT_GT(seeded_probes, 0) << "no probe declares the seed of its input";
}

TEST(CalibrationDisjoint, WholeRunProbesRunSizesNoCaseOfTheirCardValidates) {
    std::set<std::string> card_names;
    for (const Card& card : cards()) {
        card_names.insert(card.name);
    }
    int whole_run_probes = 0;
    for (const Card& card : cards()) {
        for (const auto& probe : card.probes) {
            if (probe.whole_run_of.empty()) {
                continue;
            }
            ++whole_run_probes;
            EXPECT_TRUE(card_names.count(probe.whole_run_of) == 1)
                << "probe " << probe.name << " says it runs card '" << probe.whole_run_of
                << "', which is not registered";
            EXPECT_GT(probe.whole_run_size, 0) << probe.name;
            for (const Card& validated : cards()) {
                if (validated.name != probe.whole_run_of) {
                    continue;
                }
                for (const auto& c : validated.cases) {
                    for (const SizeClass size_class : every_size_class) {
                        const std::vector<std::int64_t> sizes = c.sizes(size_class);
                        EXPECT_TRUE(std::find(sizes.begin(), sizes.end(), probe.whole_run_size) == sizes.end())
                            << "probe " << probe.name << " times a whole run at size " << probe.whole_run_size
                            << ", which validation case " << c.algorithm << " validates";
                    }
                }
            }
        }
    }
    EXPECT_GT(whole_run_probes, 0) << "no probe declares that it times a whole run (fft.leaf_oop_solo, mc.run do)";
}

TEST(CalibrationDisjoint, CasesPricedFromWholeRunProbesSaySo) {
    std::set<std::string> cards_with_whole_run_probes;
    for (const Card& card : cards()) {
        for (const auto& probe : card.probes) {
            if (!probe.whole_run_of.empty()) {
                cards_with_whole_run_probes.insert(probe.whole_run_of);
            }
        }
    }
    for (const Card& card : cards()) {
        const bool probed_whole = cards_with_whole_run_probes.count(card.name) == 1;
        for (const auto& c : card.cases) {
            EXPECT_EQ(c.p1_priced_by_whole_run, probed_whole)
                << "case " << c.algorithm << " of card " << card.name
                << (probed_whole ? " is priced at p = 1 from a whole-run probe and does not say so"
                                 : " says its p = 1 price comes from a whole-run probe, and its card has none");
        }
    }
    // The three cards whose whole-run probes issue #31 names.
    for (const char* name : {"fft", "matrix-chain", "contour-ranking"}) {
        EXPECT_EQ(cards_with_whole_run_probes.count(name), 1U) << name;
    }
}

}  // namespace
