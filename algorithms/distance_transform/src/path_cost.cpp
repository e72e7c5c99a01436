// The CCM cost of path planning's sweeps (article [2] §4): each sweep the pipeline's steps (sweep.hpp), then the
// allreduce that says whether it changed anything; and the sweep kernel's probe.
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/distance_transform_names.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/error.hpp>

#include "path_kernels.hpp"
#include "sweep.hpp"

namespace llc {

namespace detail::sweep {
/// The width of the sweep probes' maps: their largest segment, 2^11 columns, is a whole row.
constexpr std::int64_t path_probe_width = 2048;
}  // namespace detail::sweep

namespace cost {

namespace {

namespace dt_names = llc::names::distance_transform;

constexpr const char* path_cost_function = "llc::cost::path_planning";

/// The busiest processor's check, cell setup and copy-out of one run. @throws llc::Error (Profile::kernel) naming
/// dt_names::path_setup when the profile lacks it.
double setup_seconds(int P, std::int64_t width, std::int64_t height, std::int64_t r, const Profile& profile) {
    std::int64_t rows = 0;
    for (int q = 0; q < P; ++q) {
        rows = std::max(rows, llc::block_rows_held(P, q, height, P == 1 ? height : r));
    }
    return kernel_seconds(profile, dt_names::path_setup, P) * static_cast<double>(rows * width);  // P = 1: rank 0's
}

/// Seconds per pixel of a sweep in segments of k columns for a processor holding `pixels` cells: dt_names::path_sweep
/// (measured on an 8 MiB map, in the caches) and dt_names::path_memory (a 64 MiB map, streamed from memory: slower for
/// short segments, whose rows are far apart, faster for whole rows, which the prefetchers follow), by whether the
/// node's cells fit the effective last-level cache (kernel_per_unit_by_cache); a blue sweep at its own tables
/// (dt_names::path_sweep_blue, dt_names::path_memory_blue: it runs up the rows, and streamed from memory in segments it
/// took 1.25–1.7× a red one's time); the solo constants at P = 1, the side-by-side ones at P > 1 (the ranks share the
/// memory bus). Every table is required: kernel_size_table throws naming the key the profile lacks.
double sweep_seconds_per_pixel(const Profile& profile, int P, std::int64_t k, std::int64_t pixels, bool blue) {
    constexpr double cell = sizeof(detail::sweep::Cell);
    // One after the other, so that a profile without either names the in-cache table first.
    const KernelSizeTable in_cache =
        kernel_size_table(profile, blue ? dt_names::path_sweep_blue : dt_names::path_sweep, P);
    const KernelSizeTable in_memory =
        kernel_size_table(profile, blue ? dt_names::path_memory_blue : dt_names::path_memory, P);
    return kernel_per_unit_by_cache(in_cache,
                                    in_memory,
                                    static_cast<double>(k),
                                    static_cast<double>(pixels) * cell,
                                    static_cast<double>(detail::sweep::path_probe_width) * 256 * cell,
                                    static_cast<double>(detail::sweep::path_probe_width) * 2048 * cell,
                                    profile.meta().effective_llc_bytes,
                                    ranks_sharing_cache(profile.meta(), P));
}

/// One sweep; `before` seconds of local work join its first step (the run's setup, for the first sweep).
Expr sweep(int P,
           std::int64_t width,
           std::int64_t height,
           std::int64_t r,
           std::int64_t k,
           bool blue,
           const Profile& profile,
           double before) {
    if (P < 1) {
        throw_argument_error(path_cost_function, "P", std::to_string(P), "must be at least 1");
    }
    for (const auto& [argument, value] :
         {std::pair{"width", width}, std::pair{"height", height}, std::pair{"r", r}, std::pair{"k", k}}) {
        if (value < 1) {
            throw_argument_error(path_cost_function, argument, std::to_string(value), "must be at least 1");
        }
    }
    detail::sweep::Geometry g{
        .width = width, .height = height, .r = r, .k = k, .lead = 1, .reach = 1, .P = P, .backward = blue};
    if (P == 1) {
        g.r = height;
        g.k = width + height;
    }
    const std::int64_t busiest_rows = block_rows_held(P, 0, height, P == 1 ? height : r);
    // Segments of whole rows (P = 1 always) run without fetching the next row, as the probes' whole rows do: priced
    // at that constant whatever the width. (A 1024-wide map at P = 1 had been priced at the probes' half rows, which
    // fetch: 14–26 % high in six validations.)
    const std::int64_t segment = g.k >= width ? detail::sweep::path_probe_width : g.k;
    const double per_pixel = sweep_seconds_per_pixel(profile, P, segment, busiest_rows * width, blue);
    const char* label = blue ? dt_names::blue : dt_names::red;
    std::vector<Expr> items;
    if (P == 1) {
        items.push_back(Expr::compute(label, before + per_pixel * static_cast<double>(width * height)));
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
            // A lockstep step (each processor's segment, then the shift): the slowest processor's (cost/lockstep.hpp).
            const double W =
                lockstep_seconds(profile, P, per_pixel * static_cast<double>(work) + (items.empty() ? before : 0.0));
            Expr node = Expr::normal(label, W, "shift", P, static_cast<double>(bytes));
            items.push_back(!items.empty() && items.back().to_json() == node.to_json() ? items.back()
                                                                                       : std::move(node));
        }
    }
    items.push_back(Expr::normal(dt_names::changed, 0.0, "allreduce", P, sizeof(int)));
    return Expr::sequence(label, std::move(items));
}

}  // namespace

Expr path_planning_sweep(
    int P, std::int64_t width, std::int64_t height, std::int64_t r, std::int64_t k, bool blue, const Profile& profile) {
    return sweep(P, width, height, r, k, blue, profile, 0.0);
}

Expr path_planning(int P,
                   std::int64_t width,
                   std::int64_t height,
                   std::int64_t r,
                   std::int64_t k,
                   int sweeps,
                   const Profile& profile) {
    if (sweeps < 1) {
        throw_argument_error(path_cost_function, "sweeps", std::to_string(sweeps), "must be at least 1");
    }
    const Expr red = path_planning_sweep(P, width, height, r, k, false, profile);
    const Expr blue = path_planning_sweep(P, width, height, r, k, true, profile);
    // Each run also checks every cost, builds the cells (a fresh array: its pages are touched for the first time) and
    // copies the path costs out: dt_names::path_setup a pixel of the busiest processor, priced in the first sweep's
    // first step (the setup is what the processors do before their first shift; the copy-out, after the last allreduce,
    // joins it there so that the steps still match the trace's).
    const double setup = setup_seconds(P, width, height, r, profile);
    std::vector<Expr> items{sweep(P, width, height, r, k, false, profile, setup)};
    for (int s = 1; s < sweeps; ++s) {
        items.push_back(s % 2 == 0 ? red : blue);
    }
    return Expr::sequence(dt_names::path, std::move(items));
}

}  // namespace cost

namespace detail::sweep {

namespace {

/// Seconds per pixel of a red or blue sweep over a 2048 × `height` map of random costs in segments of 2^j columns,
/// everything reachable (the second sweep of a run: most pixels have finite costs to improve on), in the order
/// path_planning takes the rows and columns. 256 rows: 8 MiB of cells, in the caches; 2048 rows: 64 MiB, streamed from
/// memory (sweep_seconds_per_pixel).
double path_probe(bool quick, int j, bool blue, int height = 256) {
    constexpr auto width = static_cast<int>(path_probe_width);
    const std::vector<std::uint8_t>& blobs = kept_random_blob_image(width, height, 14);
    std::vector<Cell> cells(blobs.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        cells[i] = {1e9, blobs[i] == 0 ? 1.0 : 9.0};
    }
    const std::int64_t k = std::int64_t{1} << j;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t x0 = 0; x0 < width; x0 += k) {
            const std::int64_t x1 = std::min<std::int64_t>(width, x0 + k);
            // Pass row i is physical row y(i): top down (red) or bottom up (blue); pass columns [x0, x1) are physical
            // columns [a, b).
            const auto y = [&](int i) { return static_cast<std::size_t>(blue ? height - 1 - i : i); };
            const std::int64_t a = blue ? width - x1 : x0;
            const std::int64_t b = blue ? width - x0 : x1;
            for (int i = 0; i < height; ++i) {
                if (k < width && i + 1 < height) {  // as path_planning does
                    fetch_columns(cells.data() + y(i + 1) * width, a, b);
                }
                (void)path_segment(std::span(cells.data() + y(i) * width, width),
                                   i > 0 ? cells.data() + y(i - 1) * width : nullptr,
                                   x0,
                                   x1,
                                   blue);
            }
        }
    });
    return t / static_cast<double>(cells.size());
}

/// Seconds per pixel of what a run does besides its sweeps, as path_planning does it on a 2048 × 2048 map (beyond the
/// caches, as the maps worth distributing are): check every cost (NaN or negative), build the cells in a fresh array
/// (its pages touched for the first time), copy the path costs out.
double path_setup_probe(bool quick) {
    constexpr std::size_t pixels = std::size_t{2048} * 2048;
    std::vector<double> costs(pixels);
    const std::vector<std::uint8_t>& blobs = kept_random_blob_image(2048, 2048, 15);
    for (std::size_t i = 0; i < pixels; ++i) {
        costs[i] = blobs[i] == 0 ? 1.0 : std::numeric_limits<double>::infinity();
    }
    std::vector<double> out(pixels);
    std::size_t bad = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (const double c : costs) {
            bad += std::isnan(c) || c < 0.0 ? 1 : 0;
        }
        std::vector<Cell> cells(pixels);
        for (std::size_t i = 0; i < pixels; ++i) {
            cells[i] = {std::numeric_limits<double>::infinity(), costs[i]};
        }
        for (std::size_t i = 0; i < pixels; ++i) {
            out[i] = cells[i].f;
        }
    });
    volatile std::size_t keep = bad;  // the check's verdict is used
    (void)keep;
    return t / static_cast<double>(pixels);
}

}  // namespace

std::vector<cost::KernelProbe> path_kernel_probes() {
    namespace dt_names = llc::names::distance_transform;
    std::vector<cost::KernelProbe> probes{{dt_names::path_setup,
                                           "pixel of a path-planning run's cost check, cell setup and copy-out",
                                           [](bool quick) { return path_setup_probe(quick); }}};
    for (const bool blue : {false, true}) {
        const std::string colour = blue ? "blue" : "red";
        const std::string in_cache = blue ? dt_names::path_sweep_blue : dt_names::path_sweep;
        const std::string in_memory = blue ? dt_names::path_memory_blue : dt_names::path_memory;
        for (int j = 3; j <= 11; ++j) {
            // Alone on the node at whole rows only (2^11 = path_probe_width): a one-processor run, the only one that
            // reads the solo constants, is priced at whole rows whatever its width (sweep()), so the solo sizes below
            // were never read (64 calls of a quick calibration, ~8 % of its kernel CPU seconds, loaded --verbose).
            const auto solo = [&](const std::string& table) {
                return j == 11 ? cost::kernel_size_key(cost::solo_kernel_name(table), j) : std::string{};
            };
            probes.push_back(
                {cost::kernel_size_key(in_cache, j),
                 "pixel of a path-planning " + colour + " sweep in segments of 2^" + std::to_string(j) + " columns",
                 [j, blue](bool quick) { return path_probe(quick, j, blue); },
                 solo(in_cache)});
            probes.push_back({cost::kernel_size_key(in_memory, j),
                              "pixel of a path-planning " + colour + " sweep in segments of 2^" + std::to_string(j) +
                                  " columns on a 64 MiB map (beyond the caches)",
                              [j, blue](bool quick) { return path_probe(quick, j, blue, 2048); },
                              solo(in_memory)});
        }
    }
    return probes;
}

}  // namespace detail::sweep

}  // namespace llc
