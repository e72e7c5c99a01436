// The registered cards (llc/tools/card.hpp) and the named joins between the layers: every validation case of every
// card is priced from a profile that holds exactly the keys the registered probes write (so a cost function that reads
// a key no probe writes fails here), and every probe's keys are read by some case (so a probe whose constant no cost
// function uses, or a cost function that quietly prices without it, fails here too).
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/card.hpp>

namespace {

using llc::cost::Profile;
using llc::tools::Card;
using llc::tools::cards;
using llc::validate::SizeClass;

constexpr int max_P = 8;

/// The collectives llc-probe measures (the set F and names::op::measured_beyond_f: Seidel's broadcasts, the cold
/// swaps, the overlapped and the written shift, the far swap) and the division, at every P up to max_P, with
/// placeholder times: only which keys exist matters here.
Profile communication_profile(const std::string& left_out = {}) {
    Profile profile;
    std::vector<std::string> collectives = llc::cost::standard_collectives();
    collectives.insert(
        collectives.end(), llc::names::op::measured_beyond_f.begin(), llc::names::op::measured_beyond_f.end());
    for (int P = 1; P <= max_P; ++P) {
        for (const std::string& f : collectives) {
            profile.set_collective(f, P, llc::cost::Piecewise::constant(1e-6));
        }
        profile.set_division(P, {1e-6, llc::cost::Piecewise::constant(1e-6), 1e-6});
        if (P > 1 && llc::cost::lockstep_key(P) != left_out) {  // llc-probe's lockstep probe, at every P
            for (int e = 13; e <= 21; e += 2) {
                profile.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(P), e), {0.05, "excess"});
            }
        }
    }
    profile.meta().llc_bytes = 32.0 * 1024 * 1024;  // llc-probe records the node's last-level cache
    return profile;
}

/// Every key the registered probes write (a quick calibration: those not full_only), except those in `left_out`.
Profile probed_profile(bool quick, const std::string& left_out = {}) {
    Profile profile = communication_profile(left_out);
    for (const auto& probe : llc::tools::all_probes()) {
        if (quick && probe.full_only) {
            continue;
        }
        for (const std::string& key : {probe.name, probe.solo_name}) {
            if (!key.empty() && (left_out.empty() || key.rfind(left_out + ".2^", 0) != 0) && key != left_out) {
                profile.set_kernel(key, {1e-9, probe.unit});
            }
        }
    }
    return profile;
}

/// Prices every case of every card at every size class, size and P ≤ max_P under the CCM; returns the first error
/// (case, p, n and message), empty if every point was priced.
std::string price_every_case(const Profile& profile) {
    const llc::cost::CCM ccm(profile);
    for (const Card& card : cards()) {
        for (const auto& c : card.cases) {
            for (const SizeClass size_class : {SizeClass::small, SizeClass::medium, SizeClass::large}) {
                for (const std::int64_t n : c.sizes(size_class)) {
                    for (int p = 1; p <= max_P; ++p) {
                        if (c.applies && !c.applies(p, n)) {
                            continue;
                        }
                        try {
                            (void)llc::cost::evaluate(c.expr(p, n, profile), ccm);
                        } catch (const std::exception& e) {
                            return c.algorithm + " p=" + std::to_string(p) + " n=" + std::to_string(n) + ": " +
                                   e.what();
                        }
                    }
                }
            }
        }
    }
    return {};
}

/// The key families the probes write: "fft.leaf_oop" for "fft.leaf_oop.2^12", a single key as it is. Solo keys are
/// refinements a cost function reads where present (cost::kernel_size_table with P = 1), not required ones.
std::set<std::string> probed_families() {
    std::set<std::string> families;
    for (const auto& probe : llc::tools::all_probes()) {
        const auto at = probe.name.rfind(".2^");
        families.insert(at == std::string::npos ? probe.name : probe.name.substr(0, at));
    }
    return families;
}

TEST(Cards, AreRegisteredWithUniqueNamesAndSayWhyTheyHaveNoPeer) {
    ASSERT_NO_THROW((void)cards());
    ASSERT_FALSE(cards().empty());
    for (const Card& card : cards()) {
        EXPECT_FALSE(card.name.empty());
        EXPECT_FALSE(card.summary.empty()) << card.name;
        EXPECT_TRUE(!card.comparisons.empty() || !card.no_peer.empty()) << card.name;
        for (const auto& command : card.commands) {
            EXPECT_TRUE(command.prepare) << card.name << ": llc-run " << command.name;
        }
        for (const auto& c : card.cases) {
            EXPECT_TRUE(c.sizes && c.prepare && c.expr) << card.name << ": case " << c.algorithm;
        }
    }
}

TEST(Cards, TheLlcLayerComesFirst) {
    bool algorithms = false;
    for (const Card& card : cards()) {
        algorithms = algorithms || card.layer == llc::tools::CardLayer::algorithm;
        EXPECT_FALSE(algorithms && card.layer == llc::tools::CardLayer::llc) << card.name;
    }
}

TEST(Cards, EveryCaseIsPricedFromTheKeysTheProbesWrite) {
    EXPECT_EQ(price_every_case(probed_profile(false)), "");
}

TEST(Cards, EveryCaseIsPricedFromAQuickCalibration) {
    EXPECT_EQ(price_every_case(probed_profile(true)), "");
}

TEST(Cards, EveryProbedKeyIsReadAndItsAbsenceIsAnErrorNamingIt) {
    for (const std::string& family : probed_families()) {
        const std::string error = price_every_case(probed_profile(false, family));
        const bool named = error.find("'" + family + "'") != std::string::npos ||
                           error.find("'" + family + ".2^e'") != std::string::npos;
        EXPECT_TRUE(named) << "without '" << family << "' every case was priced (or failed otherwise): " << error;
    }
}

TEST(Cards, TheLockstepTablesAndTheCacheSizeAreReadAndTheirAbsenceIsAnErrorNamingThem) {
    // What llc-probe writes besides the kernel probes: the lockstep excess per P and the last-level cache. Without
    // either, some case is not priced, and the error names the key (re-calibrate), never a silent fallback.
    for (int P = 2; P <= max_P; ++P) {
        const Profile without = probed_profile(false, llc::cost::lockstep_key(P));
        const std::string error = price_every_case(without);
        const std::string named = std::string("'").append(llc::cost::lockstep_key(P)).append(".2^e'");
        EXPECT_NE(error.find(named), std::string::npos) << "without the lockstep table at P = " << P << ": " << error;
    }
    Profile no_cache = probed_profile(false);
    no_cache.meta().llc_bytes = 0.0;
    const std::string error = price_every_case(no_cache);
    EXPECT_NE(error.find("'meta.llc_bytes'"), std::string::npos) << "without meta.llc_bytes: " << error;
}

}  // namespace
