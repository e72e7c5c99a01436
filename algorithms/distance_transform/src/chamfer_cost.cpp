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

namespace names = llc::names::distance_transform;

constexpr const char* name = "llc::cost::chamfer_distance_transform";

/// The per-pixel tables of one mask: measured on an image in the caches and on one streamed from memory.
struct SweepTables {
    KernelSizeTable in_cache;   ///< "dt.sweep_cache.<mask>.2^j": a 4096 × 256 image (5 MiB of image and distances)
    KernelSizeTable in_memory;  ///< "dt.sweep.<mask>.2^j": a 4096 × 2048 image (40 MiB)
};

/// Bytes a pixel of a pass holds: its image byte and its int32 distance.
constexpr double pixel_bytes = 5.0;

/// The profile's per-pixel tables of the standard mask nearest to `mask` in number of steps (the probes measure the
/// standard masks only). @throws llc::Error naming the key the profile lacks: both tables are required.
SweepTables sweep_tables(const ChamferMask& mask, const Profile& profile, int P) {
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
    KernelSizeTable in_cache = kernel_size_table(profile, names::sweep_key(names::sweep_cache, nearest->name()), P);
    KernelSizeTable in_memory = kernel_size_table(profile, names::sweep_key(names::sweep, nearest->name()), P);
    return {std::move(in_cache), std::move(in_memory)};
}

/// The pass of geometry g, its steps priced per pixel by the tables at the busiest processor's bytes. Every step is a
/// lockstep step (each processor's segment, then the shift): it lasts as long as the slowest processor, priced by the
/// profile's lockstep excess at P (cost/lockstep.hpp).
Expr pass(const detail::sweep::Geometry& g, const SweepTables& tables, const Profile& profile, const char* label) {
    const auto held = static_cast<double>(block_rows_held(g.P, 0, g.height, g.r) * g.width);
    // The in-cache table where the node's working set fits the effective cache, the streamed one where it does not
    // (kernel_per_unit_by_cache; the blend between the probes' sizes for profiles that record no effective cache).
    const double per_pixel = kernel_per_unit_by_cache(tables.in_cache,
                                                      tables.in_memory,
                                                      static_cast<double>(g.k),
                                                      held * pixel_bytes,
                                                      4096.0 * 256 * pixel_bytes,
                                                      4096.0 * 2048 * pixel_bytes,
                                                      profile.meta().effective_llc_bytes,
                                                      ranks_sharing_cache(profile.meta(), g.P));
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
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    for (const auto& [argument, value] :
         {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}, std::pair{"k", k}}) {
        if (value < 1) {
            throw_argument_error(name, argument, std::to_string(value), "must be at least 1");
        }
    }
    const SweepTables tables = sweep_tables(mask, profile, P);
    detail::sweep::Geometry g{
        .width = width, .height = height, .r = r, .k = k, .lead = mask.lead(), .reach = mask.reach(), .P = P};
    if (P == 1) {
        g.r = height;
        g.k = width + height * mask.lead();
    }
    Expr forward = pass(g, tables, profile, names::forward);
    g.backward = true;
    Expr backward = pass(g, tables, profile, names::backward);
    return Expr::sequence(names::chamfer, {std::move(forward), std::move(backward)});
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
