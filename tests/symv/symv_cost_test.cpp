// llc::cost::symv and article [3]'s closed forms against the thesis' reference values (digest §4, §10 H).
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>

namespace {

namespace cost = llc::cost;
using llc::SymvMapping;

// FPS T40 (article [3] §5): β = 1.9 ms, τ_c = 0.025 ms per word, τ_a = 0.27 ms per multiply-add.
constexpr double beta = 1.9e-3;
constexpr double tau_c = 0.025e-3;
constexpr double tau_a = 0.27e-3;

TEST(SymvCost, ArticleClosedForms) {
    EXPECT_NEAR(cost::grigg_symv_time(512, 32, beta, tau_c, tau_a), 2.28314, 1e-5);
    EXPECT_NEAR(cost::grigg_symv_time(1024, 32, beta, tau_c, tau_a), 8.93106, 1e-5);
    EXPECT_NEAR(cost::grigg_symv_time(256, 16, beta, tau_c, tau_a), 1.14042, 1e-5);
    EXPECT_NEAR(cost::grigg_symv_time(128, 32, beta, tau_c, tau_a), 0.20024, 1e-5);
    EXPECT_NEAR(cost::grigg_symv_time(128, 8, beta, tau_c, tau_a), 0.56906, 1e-5);
    // Distributed x: twice the words per message.
    EXPECT_NEAR(
        cost::grigg_symv_time(512, 32, beta, tau_c, tau_a, true) - cost::grigg_symv_time(512, 32, beta, tau_c, tau_a),
        31 * 16 * tau_c,
        1e-12);
    EXPECT_NEAR(cost::grigg_symv_overlap_threshold(1, beta, tau_c, tau_a), 3.845, 5e-4);
    EXPECT_NEAR(cost::grigg_symv_overlap_threshold(32, beta, tau_c, tau_a), 123.05, 0.01);
}

/// The article's machine as a profile: a packed off-diagonal entry is two multiply-adds; a shift of h bytes (sent +
/// received, 8-byte words) costs β + (h/16)τ_c, split-phase or not; x's allgather is free, as the article duplicates x
/// beforehand; every processor runs at one speed (a lockstep excess of 0 at P > 1: the article prices the mean one);
/// the product's own agreement (one small exchange, priced as a barrier) is free, as the article has none.
cost::Profile article_profile(int P, double excess = 0.0, double barrier = 0.0) {
    cost::Profile p;
    if (P > 1) {
        p.set_kernel(cost::kernel_size_key(cost::lockstep_key(P), 16), {excess, "excess"});
    }
    for (const int e : {0, 20}) {
        p.set_kernel(cost::kernel_size_key(llc::names::symv::entry, e), {2.0 * tau_a, "packed entry"});
        p.set_kernel(cost::kernel_size_key(llc::names::symv::row, e), {tau_a, "entry"});
    }
    p.set_collective("shift", P, cost::Piecewise::linear(beta, tau_c / 16.0));
    p.set_collective("shift.overlap", P, cost::Piecewise::linear(beta, tau_c / 16.0));
    p.set_collective("allgather", P, cost::Piecewise::constant(0.0));
    p.set_collective("barrier", P, cost::Piecewise::constant(barrier));
    return p;
}

double predict(int P, std::int64_t n, SymvMapping mapping, bool overlap) {
    const cost::Profile p = article_profile(P);
    return cost::predict(cost::symv(P, n, mapping, p, overlap), *cost::make_model("ccm", p));
}

TEST(SymvCost, ExprReproducesTheArticleWithoutOverlap) {
    EXPECT_NEAR(predict(32, 512, SymvMapping::reflection, false), 2.28314, 1e-5);
    EXPECT_NEAR(predict(32, 1024, SymvMapping::reflection, false), 8.93106, 1e-5);
    EXPECT_NEAR(predict(16, 256, SymvMapping::reflection, false), 1.14042, 1e-5);
    EXPECT_NEAR(predict(8, 128, SymvMapping::reflection, false), 0.56906, 1e-5);
    // The standard algorithm with distributed x moves n/P words per step: the same T (article §4.3).
    EXPECT_NEAR(predict(32, 512, SymvMapping::standard, false), 2.28314, 1e-5);
}

TEST(SymvCost, OverlapHidesTheRingAboveTheThreshold) {
    // n = 512, p = 32 is above n ≥ 3.845p: T = T_seq / p.
    EXPECT_NEAR(predict(32, 512, SymvMapping::reflection, true), 512.0 * 512 * tau_a / 32, 1e-9);
    // n = 64 (r = 1) is below: a step of 2r² packed entries (1.08 ms) hides less than a shift of 1.95 ms.
    const double t = predict(32, 64, SymvMapping::reflection, true);
    EXPECT_GT(t, 64.0 * 64 * tau_a / 32 + 1e-3);
    EXPECT_LT(t, cost::grigg_symv_time(64, 32, beta, tau_c, tau_a) + 1e-12);
}

// ShiftProgress::in_calls: llc's split-phase shift moves its data only inside MPI calls, so each overlapped step costs
// its work and then the whole shift. With the article's prices (shift.overlap = shift), that is the article's T without
// overlap; background is the five-argument function; the supersteps are those of the overlapped run (same labels and
// operations), only their prices differ.
TEST(SymvCost, ShiftsThatProgressOnlyInCallsHideNothing) {
    const cost::Profile p = article_profile(32);
    const auto ccm = cost::make_model("ccm", p);
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        const cost::Expr in_calls = cost::symv(32, 512, mapping, p, true, cost::ShiftProgress::in_calls);
        const cost::Expr background = cost::symv(32, 512, mapping, p, true, cost::ShiftProgress::background);
        EXPECT_NEAR(cost::predict(in_calls, *ccm), 2.28314, 1e-5);
        EXPECT_EQ(background.to_json(), cost::symv(32, 512, mapping, p, true).to_json());
        // Above the overlap threshold the article hides every shift but the work's: 2.212 s against 2.283 s.
        EXPECT_LT(cost::predict(background, *ccm), cost::predict(in_calls, *ccm) - 0.05);
        ASSERT_EQ(in_calls.children().size(), background.children().size());
        for (std::size_t k = 0; k < in_calls.children().size(); ++k) {
            EXPECT_EQ(in_calls.children()[k].label(), background.children()[k].label()) << k;
            EXPECT_EQ(in_calls.children()[k].op(), background.children()[k].op()) << k;
        }
    }
    // Without overlap the progress changes nothing: the blocking ring is priced as it runs.
    const cost::Profile p8 = article_profile(8);
    EXPECT_EQ(cost::symv(8, 128, SymvMapping::reflection, p8, false, cost::ShiftProgress::in_calls).to_json(),
              cost::symv(8, 128, SymvMapping::reflection, p8, false).to_json());
}

TEST(SymvCost, UnevenSizesAndErrors) {
    // n not a multiple of 2P: the busiest processor sets each step; never below the balanced share.
    const double t = predict(5, 101, SymvMapping::reflection, false);
    EXPECT_GE(t, 101.0 * 101 * tau_a / 5);
    EXPECT_LT(t, cost::grigg_symv_time(101, 5, beta, tau_c, tau_a) + 4 * (2 * 101 + 2) * tau_a);
    // P = 1: the whole product, no communication.
    EXPECT_NEAR(predict(1, 100, SymvMapping::reflection, true), 100.0 * 100 * tau_a, 1e-9);
    const cost::Profile p = article_profile(2);
    EXPECT_THROW((void)cost::symv(0, 10, SymvMapping::reflection, p), llc::Error);
    EXPECT_THROW((void)cost::symv(2, 0, SymvMapping::reflection, p), llc::Error);
}

/// The message of the llc::Error that pricing `mapping` on `profile` throws ("" if it throws none).
std::string error_of(SymvMapping mapping, const cost::Profile& profile) {
    try {
        (void)cost::symv(2, 10, mapping, profile);
    } catch (const llc::Error& e) {
        return e.what();
    }
    return "";
}

/// Each step ends in a shift that every processor waits for: at P > 1 it lasts as long as the slowest processor, the
/// busiest one's work times 1 + the profile's lockstep excess at P; P = 1 has no excess to read.
TEST(SymvCost, EachStepIsPricedAtTheSlowestProcessor) {
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        // n = 4096, P = 4 without overlap: the work dominates and sums over the steps, the shifts do not move.
        const auto at = [&](double excess) {
            const cost::Profile p = article_profile(4, excess);
            return cost::predict(cost::symv(4, 4096, mapping, p, false), *cost::make_model("ccm", p));
        };
        const double work = 4096.0 * 4096 * tau_a / 4;  // the balanced share: every step's busiest work summed
        EXPECT_NEAR(at(0.25) - at(0.0), 0.25 * work, 1e-6 * work) << llc::to_string(mapping);
    }
    cost::Profile no_lockstep = article_profile(1);
    no_lockstep.set_collective("shift", 2, cost::Piecewise::linear(beta, tau_c / 16.0));
    no_lockstep.set_collective("shift.overlap", 2, cost::Piecewise::linear(beta, tau_c / 16.0));
    EXPECT_NO_THROW((void)cost::symv(1, 100, SymvMapping::reflection, no_lockstep));
    try {
        (void)cost::symv(2, 100, SymvMapping::reflection, no_lockstep);
        ADD_FAILURE() << "priced P = 2 without a lockstep table";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find(cost::lockstep_key(2)), std::string::npos) << e.what();
    }
}

/// Every product at P > 1 runs one small exchange that no priced collective holds (its agreement; with the reflection
/// mapping, the counts of x's allgatherv instead): priced once a product at the profile's barrier, in the first
/// superstep (where the trace records it), with or without overlap; nothing at P = 1.
TEST(SymvCost, OneSmallExchangeAProductAtTheBarriersPrice) {
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        for (const bool overlap : {false, true}) {
            const auto at = [&](double barrier) {
                const cost::Profile p = article_profile(4, 0.0, barrier);
                return cost::symv(4, 512, mapping, p, overlap, cost::ShiftProgress::in_calls);
            };
            const auto ccm = cost::make_model("ccm", article_profile(4));
            EXPECT_NEAR(cost::predict(at(2e-3), *ccm) - cost::predict(at(0.0), *ccm), 2e-3, 1e-12)
                << llc::to_string(mapping) << ' ' << overlap;
            const cost::Expr first = at(2e-3).children().front();
            EXPECT_NEAR(first.work() - at(0.0).children().front().work(), 2e-3, 1e-12) << llc::to_string(mapping);
        }
    }
    cost::Profile alone = article_profile(1);
    EXPECT_NO_THROW((void)cost::symv(1, 100, SymvMapping::standard, alone));
    EXPECT_NEAR(predict(1, 100, SymvMapping::standard, true), 100.0 * 100 * tau_a, 1e-9);
}

TEST(SymvCost, AMissingKernelTableIsAnErrorNamingTheKey) {
    // No silent fallback: each mapping needs its own table, and the error names the key llc-probe writes.
    const std::string entry_key = std::string(llc::names::symv::entry) + ".2^e";
    const std::string row_key = std::string(llc::names::symv::row) + ".2^e";
    EXPECT_NE(error_of(SymvMapping::reflection, cost::Profile{}).find(entry_key), std::string::npos);
    EXPECT_NE(error_of(SymvMapping::standard, cost::Profile{}).find(row_key), std::string::npos);
    cost::Profile only_row;  // and the lockstep excess that every step at P = 2 reads, and the small exchange's barrier
    only_row.set_kernel(cost::kernel_size_key(cost::lockstep_key(2), 16), {0.0, "excess"});
    only_row.set_collective("barrier", 2, cost::Piecewise::constant(1e-6));
    only_row.set_kernel(cost::kernel_size_key(llc::names::symv::row, 4), {1e-9, "entry"});
    EXPECT_NE(error_of(SymvMapping::reflection, only_row).find(entry_key), std::string::npos);
    EXPECT_EQ(error_of(SymvMapping::standard, only_row), "");
    cost::Profile only_entry;
    only_entry.set_kernel(cost::kernel_size_key(cost::lockstep_key(2), 16), {0.0, "excess"});
    only_entry.set_collective("barrier", 2, cost::Piecewise::constant(1e-6));
    only_entry.set_kernel(cost::kernel_size_key(llc::names::symv::entry, 4), {1e-9, "packed entry"});
    EXPECT_NE(error_of(SymvMapping::standard, only_entry).find(row_key), std::string::npos);
    EXPECT_EQ(error_of(SymvMapping::reflection, only_entry), "");
    // The small exchange of a product at P > 1 is priced from the profile's barrier: without one, an error naming it.
    cost::Profile none;
    none.set_kernel(cost::kernel_size_key(cost::lockstep_key(2), 16), {0.0, "excess"});
    none.set_kernel(cost::kernel_size_key(llc::names::symv::entry, 4), {1e-9, "packed entry"});
    EXPECT_NE(error_of(SymvMapping::reflection, none).find("'barrier'"), std::string::npos);
}

/// symv recognises vectors placed as A's layout without walking the indices (detail::places_as): an equal layout
/// does; the other mapping's layout of the same n and P does not at P ≥ 2 (the reflection mapping deals its rows in
/// two blocks a processor), as the index-by-index walk says; a BlockDistribution places as the standard mapping.
TEST(SymvLayout, PlacesAsAgreesWithTheIndexWalk) {
    for (const std::int64_t n : {1, 2, 7, 64, 1001}) {
        for (const int P : {1, 2, 3, 5}) {
            const llc::SymvLayout reflection(n, P, SymvMapping::reflection);
            const llc::SymvLayout standard(n, P, SymvMapping::standard);
            EXPECT_TRUE(llc::detail::places_as(reflection, reflection)) << n << ' ' << P;
            EXPECT_TRUE(llc::detail::places_as(standard, standard)) << n << ' ' << P;
            EXPECT_EQ(llc::detail::places_as(standard, reflection), llc::same_placement(standard, reflection))
                << n << ' ' << P;
            EXPECT_TRUE(llc::detail::places_as(llc::BlockDistribution(n, P), standard)) << n << ' ' << P;
            if (P >= 2 && n >= 4 * P) {
                EXPECT_FALSE(llc::detail::places_as(standard, reflection)) << n << ' ' << P;
                EXPECT_FALSE(llc::detail::places_as(llc::BlockDistribution(n, P), reflection)) << n << ' ' << P;
            }
        }
    }
}

/// local_rows counts processor q's rows without blocks_of's vector: the sizes of the blocks blocks_of(q) lists, n in
/// all.
TEST(SymvLayout, LocalRowsAreTheSizesOfTheProcessorsBlocks) {
    for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
        for (const std::int64_t n : {1, 2, 3, 7, 64, 1001}) {
            for (const int P : {1, 2, 3, 5, 8}) {
                const llc::SymvLayout layout(n, P, mapping);
                std::int64_t all = 0;
                for (int q = 0; q < P; ++q) {
                    std::int64_t rows = 0;
                    for (const int b : layout.blocks_of(q)) {
                        rows += layout.block_begin(b + 1) - layout.block_begin(b);
                    }
                    EXPECT_EQ(layout.local_rows(q), rows) << n << ' ' << P << ' ' << q;
                    all += layout.local_rows(q);
                }
                EXPECT_EQ(all, n) << n << ' ' << P;
            }
        }
    }
}

}  // namespace
