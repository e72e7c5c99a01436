// The chamfer passes' cost: article [2]'s closed form against the thesis' numbers (miguet-thesis.md §3.5 and §10 G),
// and the schedule-based Expr on a hand-made profile.
#include <gtest/gtest.h>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/error.hpp>

namespace {

using llc::ChamferMask;
using llc::cost::Expr;

// FPS T40 (article [2] §5): τ_a = 75 µs, β = 2 ms, τ_c = 12.5 µs; n = 1920, p = 32.
constexpr double tau_a = 75e-6;
constexpr double beta = 2e-3;
constexpr double tau_c = 12.5e-6;
constexpr double n = 1920;
constexpr double p = 32;

TEST(ChamferCostTest, ArticleTwoReferenceValues) {
    EXPECT_NEAR(llc::cost::miguet_sweep_time(n, p, 6, 52, beta, tau_c, tau_a), 10.519, 0.001);
    EXPECT_NEAR(llc::cost::miguet_sweep_time(n, p, 1, 1, beta, tau_c, tau_a), 240.61, 0.01);
    EXPECT_NEAR(llc::cost::miguet_k_par(n, p, 6, beta, tau_c, tau_a), 52.0, 0.05);
    EXPECT_NEAR(llc::cost::miguet_k_max(n, p, 6), 52.36, 0.01);
    // k_opt = k_max for r ≤ 5 and k_par for r ≥ 6; with it, r = 1 … 4 give 14.33, 11.77, 11.00, 10.69 s.
    const double expected[] = {14.33, 11.77, 11.00, 10.69, 10.56};
    for (int r = 1; r <= 5; ++r) {
        const double k_max = llc::cost::miguet_k_max(n, p, r);
        EXPECT_LT(k_max, llc::cost::miguet_k_par(n, p, r, beta, tau_c, tau_a)) << "r = " << r;
        EXPECT_NEAR(llc::cost::miguet_sweep_time(n, p, r, k_max, beta, tau_c, tau_a), expected[r - 1], 0.01)
            << "r = " << r;
    }
    // Efficiency at (6, 52): T_seq / (p T_par) = 276.48 / (32 · 10.519) = 0.821.
    EXPECT_NEAR(n * n * tau_a / (p * llc::cost::miguet_sweep_time(n, p, 6, 52, beta, tau_c, tau_a)), 0.821, 0.001);
}

/// The three tables of every standard mask, all equal (so a pixel costs the same at every footprint); `in_cache`
/// false: a profile made before the in-cache tables were measured.
llc::cost::Profile profile(bool in_cache = true) {
    llc::cost::Profile profile;
    for (const char* mask : {"d4", "d8", "chamfer34", "chamfer5711"}) {
        for (const std::string table : {"dt.sweep.", "dt.sweep_cache.", "dt.sweep_small."}) {
            if (table == "dt.sweep_cache." && !in_cache) {
                continue;
            }
            profile.set_kernel(llc::cost::kernel_size_key(table + mask, 3), {2e-9, "pixel"});
            profile.set_kernel(llc::cost::kernel_size_key(table + mask, 12), {1e-9, "pixel"});
        }
    }
    profile.set_collective("shift", 2, llc::cost::Piecewise::constant(5e-6));
    profile.set_collective("shift", 3, llc::cost::Piecewise::constant(6e-6));
    // No lockstep excess: the steps cost the busiest processor's segment (LockstepExcessRaisesEveryStep adds one).
    for (const int P : {2, 3}) {
        profile.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(P), 16), {0.0, "excess"});
    }
    return profile;
}

TEST(ChamferCostTest, OneProcessorIsTwoWholePasses) {
    // 4096 × 100 at P = 1: rows in one segment of 4096 + 100 columns (past 2^12: 1 ns a pixel), two passes.
    const Expr e = llc::cost::chamfer_distance_transform(1, 4096, 100, 7, 1, ChamferMask::d8(), profile());
    const auto model = llc::cost::make_model("ccm", profile());
    EXPECT_NEAR(llc::cost::predict(e, *model), 2 * 1e-9 * 4096 * 100, 1e-12);
}

TEST(ChamferCostTest, OneProcessorReadsTheTableOnItsSideOfTheEffectiveCache) {
    // In-cache 1 ns a pixel, streamed 4 ns, at the one-processor segment (whole rows of 4096 columns: 2^12). 4096 ×
    // 1024 holds 20 MiB of image and distances (5 bytes a pixel), 4096 × 4096 80 MiB; the probes 5 and 40 MiB.
    llc::cost::Profile two = profile();
    two.set_kernel(llc::cost::kernel_size_key("dt.sweep.d4", 12), {4e-9, "pixel"});
    const auto price = [](const llc::cost::Profile& profile, std::int64_t rows) {
        const Expr e = llc::cost::chamfer_distance_transform(1, 4096, rows, 7, 1, ChamferMask::d4(), profile);
        return llc::cost::predict(e, *llc::cost::make_model("ccm", profile)) / (2.0 * 4096.0 * double(rows));
    };
    // No effective cache recorded: between the tables by log2 of the bytes (20 MiB: two thirds of the way from 5 to
    // 40 MiB), the streamed one from 40 MiB on.
    EXPECT_NEAR(price(two, 1024), 3e-9, 1e-18);
    EXPECT_NEAR(price(two, 4096), 4e-9, 1e-18);
    // A 45.6 MiB effective cache (this VM's): 20 MiB fits and runs at the in-cache price, 80 MiB does not.
    two.meta().effective_llc_bytes = 47811988.0;
    EXPECT_NEAR(price(two, 1024), 1e-9, 1e-18);
    EXPECT_NEAR(price(two, 4096), 4e-9, 1e-18);
    // A 16 MiB one: 20 MiB is past the step, and priced streamed, not blended.
    two.meta().effective_llc_bytes = 16.0 * 1024 * 1024;
    EXPECT_NEAR(price(two, 1024), 4e-9, 1e-18);
}

TEST(ChamferCostTest, OneProcessorBelowTheInCacheProbeGoesToTheSmallTable) {
    // Small table 0.5 ns a pixel (its probe: 4096 × 32, 640 KiB), in-cache 1 ns (4096 × 256, 5 MiB), streamed 4 ns;
    // whole rows of 4096 at P = 1 (2^12). By log2 of the bytes between the two probes: 4096 × 64 (1.25 MiB) is a third
    // of the way from 640 KiB to 5 MiB; 4096 × 16 (320 KiB) is below the small probe and 4096 × 512 above the in-cache
    // one, each at its table alone. The effective cache does not move the prices below the in-cache probe's bytes. A
    // profile without the small table prices what does not read it and names it for what does.
    llc::cost::Profile three = profile();
    three.set_kernel(llc::cost::kernel_size_key("dt.sweep_small.d4", 12), {0.5e-9, "pixel"});
    three.set_kernel(llc::cost::kernel_size_key("dt.sweep.d4", 12), {4e-9, "pixel"});
    const auto price = [](const llc::cost::Profile& profile, std::int64_t rows) {
        const Expr e = llc::cost::chamfer_distance_transform(1, 4096, rows, 7, 1, ChamferMask::d4(), profile);
        return llc::cost::predict(e, *llc::cost::make_model("ccm", profile)) / (2.0 * 4096.0 * double(rows));
    };
    for (const double effective : {0.0, 47811988.0}) {
        three.meta().effective_llc_bytes = effective;
        EXPECT_NEAR(price(three, 16), 0.5e-9, 1e-18) << effective;
        EXPECT_NEAR(price(three, 32), 0.5e-9, 1e-18) << effective;
        EXPECT_NEAR(price(three, 64), 0.5e-9 + 0.5e-9 / 3.0, 1e-18) << effective;
        EXPECT_NEAR(price(three, 256), 1e-9, 1e-18) << effective;
    }
    EXPECT_NEAR(price(three, 512), 1e-9, 1e-18);  // 10 MiB in the 45.6 MiB effective cache
    // At P > 1 the small table is not read (reads_small_table): 4096 × 128 on two processors, 64 rows of 4096 each, is
    // priced at the in-cache table.
    const Expr e = llc::cost::chamfer_distance_transform(2, 4096, 128, 64, 4096, ChamferMask::d4(), three);
    EXPECT_NEAR(e.children()[0].children()[0].work(), 1e-9 * 64 * 4096, 1e-15);
    // A profile without the small table: an error naming it.
    llc::cost::Profile old;
    for (const auto& [key, constant] : three.kernels()) {
        if (key.rfind("dt.sweep_small.", 0) != 0) {
            old.set_kernel(key, constant);
        }
    }
    EXPECT_NO_THROW((void)llc::cost::chamfer_distance_transform(1, 4096, 256, 7, 1, ChamferMask::d4(), old));
    try {
        (void)llc::cost::chamfer_distance_transform(1, 64, 64, 64, 64, ChamferMask::d4(), old);
        FAIL() << "a profile without dt.sweep_small.d4 priced the d4 transform";
    } catch (const llc::Error& error) {
        EXPECT_NE(std::string(error.what()).find("'dt.sweep_small.d4.2^e'"), std::string::npos) << error.what();
    }
}

TEST(ChamferCostTest, PipelineStepsFollowTheSchedule) {
    // d4 (lead 0) on 2 processors, 8 × 4 in blocks of 2 rows, segments of 4: blocks 0, 1 (rows 0–1, 2–3) on
    // processors 0, 1, two segments each. Forward: step 0 P0 (0,0); step 1 P0 (0,1), P1 (1,0); step 2 P1 (1,1).
    const Expr e = llc::cost::chamfer_distance_transform(2, 8, 4, 2, 4, ChamferMask::d4(), profile());
    ASSERT_EQ(e.children().size(), 2U);
    const Expr& forward = e.children()[0];
    ASSERT_EQ(forward.children().size(), 3U);
    for (const Expr& step : forward.children()) {
        EXPECT_EQ(step.kind(), llc::cost::ExprKind::normal);
        EXPECT_EQ(step.op(), "shift");
        EXPECT_EQ(step.label(), "dt.forward");
    }
    // Each unit: 2 rows × 4 columns = 8 pixels at 2^2 → below the table: 2 ns a pixel.
    EXPECT_NEAR(forward.children()[0].work(), 16e-9, 1e-18);
    // Step 0: P0 sends its last row's segment (4 pixels, 16 bytes), P1 receives it; step 1: the same for segment 1
    // (block 1, the last of the pass, sends nothing); step 2: P1 alone, nothing to pass on.
    EXPECT_DOUBLE_EQ(forward.children()[0].bytes(), 16.0);
    EXPECT_DOUBLE_EQ(forward.children()[1].bytes(), 16.0);
    EXPECT_DOUBLE_EQ(forward.children()[2].bytes(), 0.0);
    const auto model = llc::cost::make_model("ccm", profile());
    EXPECT_NEAR(llc::cost::predict(e, *model), 2 * 3 * (16e-9 + 5e-6), 1e-12);
}

TEST(ChamferCostTest, LockstepExcessRaisesEveryStep) {
    // Each step lasts as long as the slower processor: its segment's work times 1 + the profile's excess at P = 2,
    // interpolated in log2 of the work between the measured step lengths (16 ns at 2^4: 10 %, 64 ns at 2^6: 30 %).
    llc::cost::Profile excess = profile();
    excess.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(2), 4), {0.1, "excess"});
    excess.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(2), 6), {0.3, "excess"});
    excess.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(2), 16), {0.3, "excess"});
    const Expr e = llc::cost::chamfer_distance_transform(2, 8, 4, 2, 4, ChamferMask::d4(), excess);
    EXPECT_NEAR(e.children()[0].children()[0].work(), 16e-9 * 1.1, 1e-18);
    EXPECT_NEAR(llc::cost::lockstep_seconds(excess, 2, 32e-9), 32e-9 * 1.2, 1e-18);
    EXPECT_NEAR(llc::cost::lockstep_seconds(excess, 2, 1.0), 1.3, 1e-12);  // past the longest: its excess
    EXPECT_NEAR(llc::cost::lockstep_seconds(excess, 1, 1.0), 1.0, 1e-12);  // one processor: no one to wait for
    // A profile without the lockstep table at P (made before it was measured): an error naming it.
    const llc::cost::Profile base = profile();
    llc::cost::Profile old;
    for (const auto& [key, constant] : base.kernels()) {
        if (key.rfind("lockstep.", 0) != 0) {
            old.set_kernel(key, constant);
        }
    }
    try {
        (void)llc::cost::chamfer_distance_transform(2, 8, 4, 2, 4, ChamferMask::d4(), old);
        FAIL() << "a profile without lockstep.excess.p2 priced a pipelined pass";
    } catch (const llc::Error& error) {
        EXPECT_NE(std::string(error.what()).find("'lockstep.excess.p2.2^e'"), std::string::npos) << error.what();
    }
}

TEST(ChamferCostTest, BadArgumentsAndMissingConstants) {
    EXPECT_THROW((void)llc::cost::chamfer_distance_transform(0, 8, 8, 1, 1, ChamferMask::d4(), profile()), llc::Error);
    EXPECT_THROW((void)llc::cost::chamfer_distance_transform(2, 8, 8, 0, 1, ChamferMask::d4(), profile()), llc::Error);
    EXPECT_THROW((void)llc::cost::chamfer_distance_transform(2, 8, 8, 1, 0, ChamferMask::d4(), profile()), llc::Error);
    EXPECT_THROW((void)llc::cost::chamfer_distance_transform(2, 8, 8, 1, 1, ChamferMask::d4(), llc::cost::Profile{}),
                 llc::Error);
    // A profile made before the in-cache tables: an error naming the missing table (no pricing at the streamed one).
    try {
        (void)llc::cost::chamfer_distance_transform(2, 8, 8, 1, 1, ChamferMask::d8(), profile(false));
        FAIL() << "a profile without dt.sweep_cache.d8 priced the d8 transform";
    } catch (const llc::Error& e) {
        EXPECT_NE(std::string(e.what()).find("'dt.sweep_cache.d8.2^e'"), std::string::npos) << e.what();
    }
    // The model's segment length is one the model prices lowest: no other candidate is cheaper.
    const auto model = llc::cost::make_model("ccm", profile());
    const std::int64_t k = llc::cost::best_segment(2, 64, 64, 32, ChamferMask::d8(), profile());
    const double best = llc::cost::predict(
        llc::cost::chamfer_distance_transform(2, 64, 64, 32, k, ChamferMask::d8(), profile()), *model);
    for (const std::int64_t other : {8, 16, 32, 64, 128}) {
        EXPECT_LE(
            best,
            llc::cost::predict(
                llc::cost::chamfer_distance_transform(2, 64, 64, 32, other, ChamferMask::d8(), profile()), *model) +
                1e-15);
    }
}

}  // namespace

TEST(ChamferCostTest, BestSweepLayoutPricesNoHigherThanOtherLayouts) {
    const auto model = llc::cost::make_model("ccm", profile());
    const auto time = [&](int P, std::int64_t r, std::int64_t k) {
        return llc::cost::predict(
            llc::cost::chamfer_distance_transform(P, 512, 384, r, k, ChamferMask::d8(), profile()), *model);
    };
    for (const int P : {2, 3}) {
        const llc::SweepLayout best = llc::cost::best_sweep_layout(P, 512, 384, ChamferMask::d8(), profile());
        EXPECT_GE(best.r, 1);
        EXPECT_LE(best.r, (384 + P - 1) / P);
        const double t = time(P, best.r, best.k);
        const llc::SweepLayout rule = llc::sweep_layout(P, 512, 384, ChamferMask::d8());
        EXPECT_LE(t, time(P, rule.r, rule.k) + 1e-15) << "P = " << P;
        // Blocks the search tries (16, 32, 64, ⌈384/P⌉) with segment lengths it may or may not pick.
        for (const std::int64_t r :
             {std::int64_t{16}, std::int64_t{32}, std::int64_t{64}, std::int64_t{(384 + P - 1) / P}}) {
            for (const std::int64_t k : {64, 128, 256, 512}) {
                EXPECT_LE(t, time(P, r, k) + 1e-15) << "P = " << P << ", r = " << r << ", k = " << k;
            }
        }
    }
    // One processor: one block, whole rows (what the transform runs there).
    const llc::SweepLayout one = llc::cost::best_sweep_layout(1, 512, 384, ChamferMask::d8(), profile());
    EXPECT_EQ(one.r, 384);
    EXPECT_EQ(one.k, 512 + 384 * ChamferMask::d8().lead());
    EXPECT_THROW((void)llc::cost::best_sweep_layout(0, 512, 384, ChamferMask::d8(), profile()), llc::Error);
}

TEST(ChamferCostTest, DistanceTransformCostByMetricIsTheMasksCost) {
    const auto model = llc::cost::make_model("ccm", profile());
    for (const llc::Metric metric : {llc::Metric::d4, llc::Metric::d8, llc::Metric::chamfer34}) {
        EXPECT_DOUBLE_EQ(
            llc::cost::predict(llc::cost::distance_transform(2, 64, 48, 8, 16, metric, profile()), *model),
            llc::cost::predict(
                llc::cost::chamfer_distance_transform(2, 64, 48, 8, 16, llc::chamfer_mask(metric), profile()), *model))
            << llc::metric_name(metric);
    }
    // The Euclidean transform's constants are not in this profile: its cost says so.
    EXPECT_THROW((void)llc::cost::distance_transform(2, 64, 48, 8, 16, llc::Metric::euclidean, profile()), llc::Error);
}
