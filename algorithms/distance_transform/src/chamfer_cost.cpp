// The CCM cost of the pipelined chamfer passes (article [2] §4): the steps of the actual schedule (sweep.hpp), each
// a normal superstep "shift" whose W is the busiest processor's segment.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/model.hpp>
#include <llc/error.hpp>

#include "sweep.hpp"

namespace llc::cost {

namespace {

namespace dt_names = llc::names::distance_transform;

constexpr const char* chamfer_cost_function = "llc::cost::chamfer_distance_transform";

/// The per-pixel tables of one mask: measured on an image in the last-level cache and on one streamed from memory;
/// `in_small` on an image in a core's own caches, read only by one-processor runs of less than the in-cache probe's
/// bytes (empty otherwise: a profile without it prices every other run).
struct SweepTables {
    KernelSizeTable in_cache;   ///< "dt.sweep_cache.<mask>.2^j": a 4096 × 256 image (5 MiB of image and distances)
    KernelSizeTable in_memory;  ///< "dt.sweep.<mask>.2^j": a 4096 × 2048 image (40 MiB)
    KernelSizeTable in_small;   ///< "dt.sweep_small.<mask>.2^j": a 4096 × 32 image (640 KiB)
};

/// Bytes a pixel of a pass holds: its image byte and its int32 distance.
constexpr double pixel_bytes = 5.0;

/// One processor's bytes in each probe's image (chamfer_probes.cpp): 4096 columns of 32, 256 and 2048 rows.
constexpr double small_probe_bytes = 4096.0 * 32 * pixel_bytes;
constexpr double cache_probe_bytes = 4096.0 * 256 * pixel_bytes;
constexpr double memory_probe_bytes = 4096.0 * 2048 * pixel_bytes;

/// The probes' segment of whole rows: 2^12 columns, the width of their images (measured alone too).
constexpr double whole_rows = 4096.0;

/// Whether a pass on P processors of `bytes` a processor reads the small table: one processor below the in-cache
/// probe's bytes. (At P > 1 the pipelined steps of such images cost more than their segments at these constants and
/// their shifts: re-pricing the 17:14 quiet demo with the small table at p = 2 too put the 256² and 512² transforms
/// 34–51 % low, the p > 1 medians from 5–13 % to 24–40 %. The in-cache constants price them from 31 % low to 42 %
/// high, by a compensation this change leaves as it is: the steps' own cost is not priced.)
bool reads_small_table(int P, double bytes) {
    return P == 1 && bytes < cache_probe_bytes;
}

/// Seconds per pixel in segments of x columns for a processor holding `bytes` of image and distances on P processors.
/// From the in-cache probe's bytes up, the in-cache or the streamed table by the side of the effective last-level
/// cache the node's data lie on (kernel_per_unit_by_cache). Below them at P = 1 (reads_small_table), from the in-cache
/// table to the small one by log2 of the bytes (kernel_per_unit_by_footprint), the small one alone below its own
/// probe's bytes: a working set that shrinks from 5 MiB into a core's own caches runs faster the more of it stays
/// there (the 17:14 quiet demo: a 256² or 512² pass, 0.3 and 1.3 MiB, ran a d8 pixel in 0.71–0.72 ns, where the 5 MiB
/// probe took 0.90 ns alone; 1024², 5 MiB, 0.81 ns). The bytes are one processor's against a probe's, and a one-
/// processor run reads the probes' constants measured alone.
double per_pixel_seconds(const SweepTables& tables, const Profile& profile, int P, double x, double bytes) {
    if (reads_small_table(P, bytes)) {
        return kernel_per_unit_by_footprint(
            tables.in_small, tables.in_cache, x, bytes, small_probe_bytes, cache_probe_bytes);
    }
    return kernel_per_unit_by_cache(tables.in_cache,
                                    tables.in_memory,
                                    x,
                                    bytes,
                                    cache_probe_bytes,
                                    memory_probe_bytes,
                                    profile.meta().effective_llc_bytes,
                                    ranks_sharing_cache(profile.meta(), P));
}

/// The profile's per-pixel tables of the standard mask nearest to `mask` in number of steps (the probes measure the
/// standard masks only); the small one only when `small` (reads_small_table). @throws llc::Error naming the key the
/// profile lacks: every table read is required.
SweepTables sweep_tables(const ChamferMask& mask, const Profile& profile, int P, bool small) {
    const ChamferMask standard[] = {
        ChamferMask::d4(), ChamferMask::d8(), ChamferMask::chamfer34(), ChamferMask::chamfer5711()};
    const ChamferMask* nearest = &standard[0];
    for (const ChamferMask& m : standard) {
        if (m.name() == mask.name()) {
            nearest = &m;
            break;
        }
        const auto distance = [&](const ChamferMask& c) {
            return std::abs(static_cast<long>(c.forward().size()) - static_cast<long>(mask.forward().size()));
        };
        if (distance(m) < distance(*nearest)) {
            nearest = &m;
        }
    }
    // One after the other, so that a profile without either names the in-cache table first.
    KernelSizeTable in_cache =
        kernel_size_table(profile, dt_names::sweep_key(dt_names::sweep_cache, nearest->name()), P);
    KernelSizeTable in_memory = kernel_size_table(profile, dt_names::sweep_key(dt_names::sweep, nearest->name()), P);
    KernelSizeTable in_small =
        small ? kernel_size_table(profile, dt_names::sweep_key(dt_names::sweep_small, nearest->name()), P)
              : KernelSizeTable{};
    return {std::move(in_cache), std::move(in_memory), std::move(in_small)};
}

/// The pass of geometry g, its steps priced per pixel by the tables at the busiest processor's bytes. Every step is a
/// lockstep step (each processor's segment, then the shift): it lasts as long as the slowest processor, priced by the
/// profile's lockstep excess at P (cost/lockstep.hpp).
Expr pass(const detail::sweep::Geometry& g, const SweepTables& tables, const Profile& profile, const char* label) {
    const auto held = static_cast<double>(block_rows_held(g.P, 0, g.height, g.r) * g.width);
    // By the processor's bytes: the small, the in-cache or the streamed table (per_pixel_seconds). One processor runs
    // every row in one segment (g.k ≥ width): priced at the probes' whole rows, the constants they also measured
    // alone, as a one-processor run is. (At x = g.k, strips of k columns of a 4096-wide probe image measured side by
    // side, the 1024² d8 transform, k = 2048, was priced 16–22 % high in the quiet runs; 9–12 % at whole rows.)
    const double x = g.P == 1 ? whole_rows : static_cast<double>(g.k);
    const double per_pixel = per_pixel_seconds(tables, profile, g.P, x, held * pixel_bytes);
    if (g.P == 1) {
        const double pixels = static_cast<double>(g.width * g.height);
        return Expr::compute(label, per_pixel * pixels);
    }
    const detail::sweep::Schedule schedule = detail::sweep::make_schedule(g);
    std::vector<Expr> steps;
    steps.reserve(schedule.steps.size());
    double last_work = -1.0;
    double last_bytes = -1.0;
    for (const auto& step : schedule.steps) {
        std::int64_t work = 0;
        std::int64_t bytes = 0;
        for (int q = 0; q < g.P; ++q) {
            const auto& mine = step[static_cast<std::size_t>(q)];
            const auto& theirs = step[static_cast<std::size_t>((q - (g.backward ? -1 : 1) + g.P) % g.P)];
            work = std::max(work, detail::sweep::unit_pixels(g, mine));
            bytes = std::max(bytes, 4 * (detail::sweep::halo_pixels(g, mine) + detail::sweep::halo_pixels(g, theirs)));
        }
        const double W = lockstep_seconds(profile, g.P, per_pixel * static_cast<double>(work));
        const auto h = static_cast<double>(bytes);
        if (W == last_work && h == last_bytes) {
            steps.push_back(steps.back());  // a shared node: long pipelines stay small in memory
        } else {
            steps.push_back(Expr::normal(label, W, "shift", g.P, h));
        }
        last_work = W;
        last_bytes = h;
    }
    return Expr::sequence(label, std::move(steps));
}

}  // namespace

Expr chamfer_distance_transform(int P,
                                std::int64_t width,
                                std::int64_t height,
                                std::int64_t r,
                                std::int64_t k,
                                const ChamferMask& mask,
                                const Profile& profile) {
    if (P < 1) {
        throw_argument_error(chamfer_cost_function, "P", std::to_string(P), "must be at least 1");
    }
    for (const auto& [argument, value] :
         {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}, std::pair{"k", k}}) {
        if (value < 1) {
            throw_argument_error(chamfer_cost_function, argument, std::to_string(value), "must be at least 1");
        }
    }
    const SweepTables tables =
        sweep_tables(mask, profile, P, reads_small_table(P, static_cast<double>(width * height) * pixel_bytes));
    detail::sweep::Geometry g{
        .width = width, .height = height, .r = r, .k = k, .lead = mask.lead(), .reach = mask.reach(), .P = P};
    if (P == 1) {
        g.r = height;
        g.k = width + height * mask.lead();
    }
    Expr forward = pass(g, tables, profile, dt_names::forward);
    g.backward = true;
    Expr backward = pass(g, tables, profile, dt_names::backward);
    return Expr::sequence(dt_names::chamfer, {std::move(forward), std::move(backward)});
}

std::int64_t best_segment(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, const ChamferMask& mask, const Profile& profile) {
    const auto model = make_model("ccm", profile);
    const std::int64_t widest = width + height * mask.lead();
    std::int64_t best = widest;
    double best_time = std::numeric_limits<double>::infinity();
    for (std::int64_t k = 8; k <= 2 * widest; k *= 2) {
        for (const std::int64_t candidate : {std::min(k, widest), std::min(k + k / 2, widest)}) {
            const double t = predict(chamfer_distance_transform(P, width, height, r, candidate, mask, profile), *model);
            if (t < best_time) {
                best_time = t;
                best = candidate;
            }
        }
    }
    return best;
}

SweepLayout best_sweep_layout(
    int P, std::int64_t width, std::int64_t height, const ChamferMask& mask, const Profile& profile) {
    const SweepLayout rule = sweep_layout(P, width, height, mask);  // checks P, width, height
    if (P == 1) {
        return {height, width + height * mask.lead()};
    }
    const auto model = make_model("ccm", profile);
    const auto time = [&](const SweepLayout& l) {
        return predict(chamfer_distance_transform(P, width, height, l.r, l.k, mask, profile), *model);
    };
    SweepLayout best = rule;
    double best_time = time(rule);
    const std::int64_t top = (height + P - 1) / P;
    for (std::int64_t r = std::min<std::int64_t>(16, top);; r = std::min(2 * r, top)) {
        const SweepLayout candidate{r, best_segment(P, width, height, r, mask, profile)};
        if (const double t = time(candidate); t < best_time) {
            best = candidate;
            best_time = t;
        }
        if (r == top) {
            break;
        }
    }
    return best;
}

double miguet_sweep_time(double n, double p, double r, double k, double beta, double tau_c, double tau_a) {
    return (beta + k * tau_c + r * k * tau_a) * ((p - 1.0) * (1.0 + r / k) + n * n / (p * r * k));
}

double miguet_k_par(double n, double p, double r, double beta, double tau_c, double tau_a) {
    return std::sqrt(beta / (tau_c + r * tau_a) * (n * n / (p * (p - 1.0) * r) + r));
}

double miguet_k_max(double n, double p, double r) {
    return (n - p * r) / (p + 1.0);
}

}  // namespace llc::cost
