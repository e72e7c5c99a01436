// The CCM cost of path planning's sweeps (article [2] §4): each sweep the pipeline's steps (sweep.hpp), then the
// allreduce that says whether it changed anything; and the sweep kernel's probe.
#include <algorithm>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/error.hpp>

#include "path_kernels.hpp"
#include "sweep.hpp"

namespace llc {

namespace cost {

namespace {

constexpr const char* name = "llc::cost::path_planning";

}  // namespace

Expr path_planning_sweep(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, std::int64_t k, bool blue, const Profile& profile) {
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    for (const auto& [argument, value] :
         {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}, std::pair{"k", k}}) {
        if (value < 1) {
            throw_argument_error(name, argument, std::to_string(value), "must be at least 1");
        }
    }
    const KernelSizeTable table = kernel_size_table(profile, "dt.path_sweep");
    if (table.empty()) {
        throw Error(std::string(name) +
                    ": the profile has no kernel constants dt.path_sweep.2^j; calibrate with llc-probe (this build "
                    "measures them)");
    }
    detail::sweep::Geometry g{
        .width = width, .height = height, .r = r, .k = k, .lead = 1, .reach = 1, .P = P, .backward = blue};
    if (P == 1) {
        g.r = height;
        g.k = width + height;
    }
    const double per_pixel = kernel_per_unit(table, static_cast<double>(std::min(g.k, width)), 0.0);
    const char* label = blue ? "pp.blue" : "pp.red";
    std::vector<Expr> items;
    if (P == 1) {
        items.push_back(Expr::compute(label, per_pixel * static_cast<double>(width * height)));
    } else {
        const detail::sweep::Schedule schedule = detail::sweep::make_schedule(g);
        for (const auto& step : schedule.steps) {
            std::int64_t work = 0;
            std::int64_t bytes = 0;
            for (int q = 0; q < P; ++q) {
                const auto& mine = step[static_cast<std::size_t>(q)];
                const auto& theirs = step[static_cast<std::size_t>((q - (blue ? -1 : 1) + P) % P)];
                work = std::max(work, detail::sweep::unit_pixels(g, mine));
                bytes = std::max(bytes,
                                 static_cast<std::int64_t>(sizeof(detail::sweep::Cell)) *
                                     (detail::sweep::halo_pixels(g, mine) + detail::sweep::halo_pixels(g, theirs)));
            }
            Expr node =
                Expr::normal(label, per_pixel * static_cast<double>(work), "shift", P, static_cast<double>(bytes));
            items.push_back(!items.empty() && items.back().to_json() == node.to_json() ? items.back()
                                                                                       : std::move(node));
        }
    }
    items.push_back(Expr::normal("pp.changed", 0.0, "allreduce", P, sizeof(int)));
    return Expr::sequence(label, std::move(items));
}

Expr path_planning(int P,
                   std::int64_t width,
                   std::int64_t height,
                   std::int64_t r,
                   std::int64_t k,
                   int sweeps,
                   const Profile& profile) {
    if (sweeps < 1) {
        throw_argument_error(name, "sweeps", std::to_string(sweeps), "must be at least 1");
    }
    const Expr red = path_planning_sweep(P, width, height, r, k, false, profile);
    const Expr blue = path_planning_sweep(P, width, height, r, k, true, profile);
    std::vector<Expr> items;
    for (int s = 0; s < sweeps; ++s) {
        items.push_back(s % 2 == 0 ? red : blue);
    }
    return Expr::sequence("pp", std::move(items));
}

}  // namespace cost

namespace detail::sweep {

namespace {

/// Seconds per pixel of a red sweep over a map of random costs in segments of 2^j columns, everything reachable (the
/// second sweep of a run: most pixels have finite costs to improve on).
double path_probe(bool quick, int j) {
    constexpr int width = 2048;
    constexpr int height = 256;
    const std::vector<std::uint8_t> blobs = random_blob_image(width, height, 14);
    std::vector<Cell> cells(blobs.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        cells[i] = {1e9, blobs[i] == 0 ? 1.0 : 9.0};
    }
    const std::int64_t k = std::int64_t{1} << j;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            for (int y = 0; y < height; ++y) {
                (void)path_segment(std::span(cells.data() + static_cast<std::size_t>(y) * width, width),
                                   y > 0 ? cells.data() + static_cast<std::size_t>(y - 1) * width : nullptr,
                                   x0,
                                   std::min<std::int64_t>(width, x0 + k),
                                   false);
            }
        }
    });
    return t / static_cast<double>(cells.size());
}

}  // namespace

std::vector<cost::KernelProbe> path_kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    for (int j = 3; j <= 11; ++j) {
        probes.push_back({cost::kernel_size_key("dt.path_sweep", j),
                          "pixel of a path-planning sweep in segments of 2^" + std::to_string(j) + " columns",
                          [j](bool quick) { return path_probe(quick, j); }});
    }
    return probes;
}

}  // namespace detail::sweep

}  // namespace llc
