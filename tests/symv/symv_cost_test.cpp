// llc::cost::symv and article [3]'s closed forms against the thesis' reference values (digest §4, §10 H).
#include <cmath>
#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_table.hpp>
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
/// beforehand.
cost::Profile article_profile(int P) {
    cost::Profile p;
    for (const int e : {0, 20}) {
        p.set_kernel(cost::kernel_size_key(llc::names::symv::entry, e), {2.0 * tau_a, "packed entry"});
        p.set_kernel(cost::kernel_size_key(llc::names::symv::row, e), {tau_a, "entry"});
    }
    p.set_collective("shift", P, cost::Piecewise::linear(beta, tau_c / 16.0));
    p.set_collective("shift.overlap", P, cost::Piecewise::linear(beta, tau_c / 16.0));
    p.set_collective("allgather", P, cost::Piecewise::constant(0.0));
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

TEST(SymvCost, AMissingKernelTableIsAnErrorNamingTheKey) {
    // No silent fallback: each mapping needs its own table, and the error names the key llc-probe writes.
    const std::string entry_key = std::string(llc::names::symv::entry) + ".2^e";
    const std::string row_key = std::string(llc::names::symv::row) + ".2^e";
    EXPECT_NE(error_of(SymvMapping::reflection, cost::Profile{}).find(entry_key), std::string::npos);
    EXPECT_NE(error_of(SymvMapping::standard, cost::Profile{}).find(row_key), std::string::npos);
    cost::Profile only_row;
    only_row.set_kernel(cost::kernel_size_key(llc::names::symv::row, 4), {1e-9, "entry"});
    EXPECT_NE(error_of(SymvMapping::reflection, only_row).find(entry_key), std::string::npos);
    EXPECT_EQ(error_of(SymvMapping::standard, only_row), "");
    cost::Profile only_entry;
    only_entry.set_kernel(cost::kernel_size_key(llc::names::symv::entry, 4), {1e-9, "packed entry"});
    EXPECT_NE(error_of(SymvMapping::standard, only_entry).find(row_key), std::string::npos);
    EXPECT_EQ(error_of(SymvMapping::reflection, only_entry), "");
}

}  // namespace
