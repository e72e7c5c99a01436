// llc-probe's calibration (see calibrate.hpp): the plan, the measuring phases (collectives, swap and the division per
// group size; the point-to-point paths; the kernel rounds spread between them, kernel_rounds.hpp), then the fits.
#include "calibrate.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <utility>

#include <llc/clock.hpp>
#include <llc/cost/cache_step.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/tools/nodes.hpp>
#include <llc/tools/statistics.hpp>

#include "cells.hpp"
#include "kernel_rounds.hpp"
#include "lockstep.hpp"
#include "machine.hpp"
#include "operations.hpp"

namespace llc::probe {

namespace {

using cost::Layout;
using cost::Path;
using cost::Sample;

constexpr int back_to_back = 16;

/// The sizes h at which `op` is measured on p processors: the grid cut at largest_bytes, made feasible, distinct.
std::vector<double> collective_sizes(const std::string& op,
                                     int p,
                                     std::span<const double> grid,
                                     const SizeLimits& limits) {
    if (!measured_at(op, p)) {
        return {};
    }
    if (op == names::op::barrier) {
        return {0.0};
    }
    std::vector<double> out;
    const double top = largest_bytes(op, p, limits);
    // The grid continued to the op's own top where it ends before it (shift's ladder, twice the others'); the others'
    // sizes stay on the shared grid.
    for (const double x : extended_grid(grid, top)) {
        if (x <= top * 1.0001) {
            const double h = feasible_bytes(op, p, x);
            if (out.empty() || h > out.back()) {
                out.push_back(h);
            }
        }
    }
    return out;
}

/// p2p sizes: 0 (the paths' constants) and the payloads of the grid.
std::vector<double> p2p_sizes(std::span<const double> grid) {
    std::vector<double> out{0.0};
    for (const double x : grid) {
        const double n = PointToPointBench::payload(x);
        if (n > out.back()) {
            out.push_back(n);
        }
    }
    return out;
}

/// Result sizes m of the division cells for the h sizes of a grid (h = factor · m). The calibration passes the
/// collectives' grid (Plan::division_grid; not under SMPI), which goes on to swap's top (256 MiB): a division's result
/// exchange is as large as the results its tasks return — the replicated FFT's at n = 2^24, P = 2 has h = 256 MiB — and
/// a fit cut at max_bytes (4 MiB in a quick calibration) extrapolated it along its in-cache line: the traced replicated
/// FFT at n = 2^24, P = 2, paid 20.4 ms for its division beyond its tasks, priced 12.1 ms from a fit cut at 4 MiB, 18.4
/// ms (19.6 measured) from one to 256 MiB (2026-11-28; 0.8 s more of a quick calibration).
std::vector<std::size_t> division_results(int p, std::span<const double> grid) {
    if (p < 2) {
        return {8};
    }
    std::vector<std::size_t> out;
    for (const double x : grid) {
        const auto m = static_cast<std::size_t>(std::max(1.0, std::round(x / 2.0)));
        if (out.empty() || m > out.back()) {
            out.push_back(m);
        }
    }
    return out;
}

/// Sizes inside the protocol steps of `op`'s measured cells: where the median more than 1.6-folds and grows by more
/// than 1.5 µs from one grid size to the next, three sizes at a quarter, a half and three quarters of the way in log
/// scale (made feasible, not on the grid). Open MPI's shared-memory transport sends a message of more than ~4040
/// bytes by rendezvous (+3 µs here, measured by ping-pong: 4040 B 1.19 µs, 4048 B 4.13 µs), and the quick grid's
/// neighbours 7.7 KB and 13.7 KB (messages of 3.9 and 6.8 KB at p = 2) left the step anywhere between: an all-to-all
/// of 8 KiB was priced 73 % low, Seidel's broadcasts 73–78 %. With the sizes inside, the fit's data-chosen
/// breakpoints find the step to within a fraction of the interval.
constexpr int step_passes = 2;

/// Whether the growth from (a, ta) to (b, tb) is more than the line through the previous point (pa, tpa) and (a, ta)
/// predicts at b, by more than a quarter: above its max_bytes (4 MiB), where swap and swap.cold go on to 256 MiB and
/// the other collectives to --collective-max-bytes (SizeLimits), a quick calibration refines only such steps. There a
/// time grows as the bytes do, more than 1.6-fold at every interval of the grid's ratio (1.77), and the two passes put
/// 6 sizes inside each: 8.7 of the 15.8 timed seconds of the collectives of a quiet quick calibration (17:14 demo
/// profile's samples), where a line through the grid sizes already holds. The line keeps swap's last-level cache step
/// (23–41 MiB), from which meta.effective_llc_bytes is read (53.2 MB from the samples with or without those sizes).
/// Below 4 MiB the refinement stays: the same rule there (the L2's gradual step at 0.4–1.3 MB) moved reduce at p = 2, 1
/// MiB, from +7 % to +17 % on the demo's data.
bool grows_past_line(const std::vector<std::pair<double, double>>& points, std::size_t i) {
    if (i == 0) {
        return true;  // no line yet: the 1.6-fold rule alone
    }
    const auto [pa, tpa] = points[i - 1];
    const auto [a, ta] = points[i];
    const auto [b, tb] = points[i + 1];
    const double slope = std::max((ta - tpa) / (a - pa), 0.0);
    return tb > 1.25 * (ta + slope * (b - a));
}

/// `line_from`: the smallest size whose interval must also grow past the line (grows_past_line).
std::vector<double> step_sizes(const std::vector<Cell>& cells, const std::string& op, int p, double line_from) {
    std::vector<std::pair<double, double>> points;  // (bytes, median)
    for (const Cell& c : cells) {
        if (c.op == op && c.kind == "collective" && c.bytes > 0.0) {
            points.emplace_back(c.bytes, c.median());
        }
    }
    std::sort(points.begin(), points.end());
    std::vector<double> out;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        const auto [a, ta] = points[i];
        const auto [b, tb] = points[i + 1];
        if (tb > 1.6 * ta && tb - ta > 1.5e-6 && (a < line_from || grows_past_line(points, i))) {
            for (const double f : {0.25, 0.5, 0.75}) {
                const double h = feasible_bytes(op, p, std::round(a * std::pow(b / a, f)));
                if (h > a && h < b && (out.empty() || h > out.back())) {
                    out.push_back(h);
                }
            }
        }
    }
    return out;
}

using Medians = std::map<std::pair<std::string, int>, std::vector<Sample>>;

void collect(const std::vector<Cell>& cells, Medians& medians) {
    for (const Cell& c : cells) {
        medians[{c.op, c.p}].push_back({c.bytes, c.median()});
    }
}

double median_at(const Medians& medians, const std::string& op, int p, double bytes) {
    const auto it = medians.find({op, p});
    if (it == medians.end()) {
        return 0.0;
    }
    for (const Sample& s : it->second) {
        if (s.bytes == bytes) {
            return s.seconds;
        }
    }
    return 0.0;
}

/// The smallest nonzero size's median of op.
double smallest_median(const Medians& medians, const std::string& op, int p) {
    const auto it = medians.find({op, p});
    if (it == medians.end()) {
        return 0.0;
    }
    double best_bytes = std::numeric_limits<double>::infinity();
    double value = 0.0;
    for (const Sample& s : it->second) {
        if (s.bytes > 0.0 && s.bytes < best_bytes) {
            best_bytes = s.bytes;
            value = s.seconds;
        }
    }
    return value;
}

void report(std::vector<FitReport>& out, const std::string& name, int p, const cost::Piecewise& f) {
    out.push_back({name, p, f.segments().size(), f.quality()});
}

/// What a calibration measures on P processors: the group sizes, the size grids, the pair of the point-to-point
/// paths, and the slots of the kernel rounds between the phases.
struct Plan {
    Plan(int world_size, const Settings& s)
        : P(world_size),
          ps(group_sizes(P)),
          grid(log_grid(s.min_bytes, s.max_bytes, s.sizes)),
          collective_grid(extended_grid(grid, largest_bytes_of_all(P, s.limits()))),
#if defined(LLC_SMPI)
          // Every simulated rank runs in this one process, and a division's results are real vectors on every rank
          // (llc::par receives into its own): at P = 64, 2 × 128 MiB results a rank would be 16 GiB. Under SMPI the
          // division stays on the grid, to max_bytes.
          division_grid(grid),
#else
          division_grid(collective_grid),
#endif
          pair_size(std::min(P, 2)) {
    }

    /// The plan's size in progress units, but for the kernel rounds (KernelRounds::work).
    [[nodiscard]] double work(const Settings& s) const {
        double total = 0.0;
        for (const int p : ps) {
            for (const auto& op : measured_collectives()) {
                total += static_cast<double>(collective_sizes(op, p, collective_grid, s.limits()).size());
            }
            total += 1.0 + static_cast<double>(division_results(p, division_grid).size());
        }
        total += 12.0 * static_cast<double>(p2p_sizes(grid).size()) + static_cast<double>(grid.size()) + 2.0;
        return total;
    }

    /// Slot k < ps.size() is before the collectives at ps[k], the last two before the point-to-point and at the end.
    [[nodiscard]] int slots() const {
        return static_cast<int>(ps.size()) + 2;
    }

    int P;
    std::vector<int> ps;
    std::vector<double> grid;
    /// The collectives' sizes: the grid, continued past max_bytes (swap to 256 MiB, the others to SizeLimits'
    /// ladder_max_bytes).
    std::vector<double> collective_grid;
    /// The division's sizes (division_results): the collectives' (natively), the grid (under SMPI).
    std::vector<double> division_grid;
    int pair_size;
};

/// What the measuring phases of a calibration share: the world, the settings, the plan and the progress bar, and what
/// they measured: every repetition (samples), the medians by (op, p), the calibration's fastest canaries (for the
/// profile's meta).
struct Measuring {
    Group& world;
    const Settings& s;
    const Plan& plan;
    Progress& progress;
    std::vector<RawSample>& samples;
    Medians medians{};
    tools::Canary machine_state{};
    /// The lockstep excess by group size p ≥ 2, then step exponent (lockstep.hpp).
    std::map<int, std::map<int, double>> lockstep{};
    /// This rank's time in each cell's visits (--verbose).
    std::vector<TimeSpent> cell_times{};
};

/// The cells of the collectives, swap and the division on `g` (p processors) at the plan's sizes.
std::vector<Cell> group_cells(const Measuring& m, CollectiveBench& bench, DivisionBench& division, Group& g, int p) {
    std::vector<Cell> cells;
    for (const auto& op : measured_collectives()) {
        for (const double h : collective_sizes(op, p, m.plan.collective_grid, m.s.limits())) {
            cells.push_back(collective_cell(bench, g, op, h));
        }
    }
    cells.push_back(division_split_cell(division, p));
    for (const std::size_t result : division_results(p, m.plan.division_grid)) {
        cells.push_back(division_par_cell(division, p, result));
    }
    return cells;
}

/// Two more passes after the cells `measured`: sizes inside the protocol steps the last pass crossed, each narrowing a
/// step to a quarter of its interval in log scale (the same decisions on every rank: the medians are the same
/// everywhere).
void measure_steps(
    Measuring& m, CollectiveBench& bench, Group& g, int p, std::vector<Cell> measured, std::mt19937_64& rng) {
    // A quick calibration refines past its max_bytes (swap's ladder) only the steps a line misses (grows_past_line).
    const double line_from = m.s.quick ? m.s.max_bytes : std::numeric_limits<double>::infinity();
    for (int pass = 0; pass < step_passes; ++pass) {
        std::vector<Cell> steps;
        for (const auto& op : measured_collectives()) {
            for (const double h : step_sizes(measured, op, p, line_from)) {
                steps.push_back(collective_cell(bench, g, op, h));
            }
        }
        if (steps.empty()) {
            break;
        }
        m.progress.add_work(static_cast<double>(steps.size()));
        (void)run_cells(g.native(), steps, m.s, rng, m.progress, m.samples);
        note_visit_times(steps, m.cell_times);
        collect(steps, m.medians);
        measured.insert(measured.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
    }
}

/// The collectives, swap and the division at group size p (the first p ranks; the others sleep). Collective over the
/// world.
void measure_group(Measuring& m, int p) {
    Group& g = group_of(m.world, p);
    if (m.world.rank() < p) {
        m.progress.phase("collectives and division at p = " + std::to_string(p));
        auto bench = std::make_unique<CollectiveBench>(g, m.s.limits());
        auto division = std::make_unique<DivisionBench>(g, m.s.max_bytes);
        std::vector<Cell> cells = group_cells(m, *bench, *division, g, p);
        std::mt19937_64 rng(m.s.seed + static_cast<std::uint64_t>(p));
        const tools::Canary fastest = run_cells(g.native(), cells, m.s, rng, m.progress, m.samples);
        note_machine_state(m.machine_state, fastest, p);
        note_visit_times(cells, m.cell_times);
        collect(cells, m.medians);
        measure_steps(m, *bench, g, p, std::move(cells), rng);
        if (p > 1) {
            m.progress.phase("lockstep spread at p = " + std::to_string(p));
            m.lockstep[p] = measure_lockstep(g.native(), m.s.quick);
        }
    }
    sleepy_barrier(m.world.native());
}

/// Point-to-point: the P-3PC paths and layouts, ping-pong, back-to-back sends, between ranks 0 and 1 (the others
/// sleep). Collective over the world.
void measure_point_to_point(Measuring& m) {
    const int pair_size = m.plan.pair_size;
    Group& pair = group_of(m.world, pair_size);
    if (m.world.rank() < pair_size) {
        m.progress.phase(pair_size == 2 ? "point-to-point (ranks 0 and 1)" : "point-to-point (to oneself, P = 1)");
        auto bench = std::make_unique<PointToPointBench>(pair, m.s.max_bytes);
        std::vector<Cell> cells;
        for (const Path path : paths) {
            for (const Layout layout : layouts) {
                for (const double n : p2p_sizes(m.plan.grid)) {
                    cells.push_back(p2p_cell(*bench, pair_size, path, layout, n));
                }
            }
        }
        PointToPointBench* b = bench.get();
        for (const double n : m.plan.grid) {
            cells.push_back(model_cell("model.pingpong", pair_size, n, [b, n] { return b->time_pingpong(n); }));
        }
        cells.push_back(model_cell("model.back_to_back.1", pair_size, 8, [b] { return b->time_back_to_back(1, 8); }));
        cells.push_back(model_cell("model.back_to_back." + std::to_string(back_to_back), pair_size, 8, [b] {
            return b->time_back_to_back(back_to_back, 8);
        }));
        std::mt19937_64 rng(m.s.seed + 1000);
        run_cells(pair.native(), cells, m.s, rng, m.progress, m.samples);
        note_visit_times(cells, m.cell_times);
        collect(cells, m.medians);
    }
    sleepy_barrier(m.world.native());
}

/// The fits at group size p: every collective, the division, BSP.
void fit_group(Calibration& out, Medians& medians, int p) {
    cost::Profile& profile = out.profile;
    for (const auto& op : measured_collectives()) {
        const auto it = medians.find({op, p});
        if (it != medians.end()) {
            cost::Piecewise f = fit_piecewise(it->second);
            report(out.report, op, p, f);
            profile.set_collective(op, p, std::move(f));
        }
    }
    cost::DivisionCost division;
    division.split = std::max(median_at(medians, "division.split", p, 0.0), 0.0);
    std::vector<Sample> exchange;
    for (const Sample& sample : medians[{"division.par", p}]) {
        exchange.push_back({sample.bytes, sample.seconds - division.split});
    }
    division.exchange = fit_piecewise(exchange);
    division.rejoin = 0.0;
    report(out.report, "division.exchange", p, division.exchange);
    profile.set_division(p, std::move(division));

    std::vector<Sample> alltoall = medians[{names::op::alltoall, p}];
    profile.set_bsp(p, fit_bsp(p, alltoall, median_at(medians, names::op::barrier, p, 0.0)));
}

/// The fits of the P-3PC paths with every layout.
void fit_point_to_point(Calibration& out, Medians& medians, int pair_size) {
    const double t_cf = median_at(medians, p2p_name(Path::full, Layout::cc), pair_size, 0.0) / 2.0;
    for (const Path path : paths) {
        for (const Layout layout : layouts) {
            std::vector<Sample> points = medians[{p2p_name(path, layout), pair_size}];
            if (path == Path::full) {
                for (Sample& sample : points) {  // T_full = round trip − t_cf (P-3PC digest §5)
                    sample.seconds -= t_cf;
                }
            }
            cost::Piecewise f = fit_piecewise(points);
            report(out.report, p2p_name(path, layout), pair_size, f);
            out.profile.set_point_to_point(path, layout, std::move(f));
        }
    }
}

/// The fits of the point-to-point models: Hockney, LogGP, C³.
void fit_models(cost::Profile& profile, Medians& medians, int pair_size) {
    std::vector<Sample> one_way = medians[{"model.pingpong", pair_size}];
    for (Sample& sample : one_way) {
        sample.seconds /= 2.0;
    }
    profile.set_hockney(fit_hockney(one_way));
    profile.set_loggp(fit_loggp(one_way,
                                smallest_median(medians, p2p_name(Path::send, Layout::cc), pair_size),
                                median_at(medians, "model.back_to_back.1", pair_size, 8),
                                median_at(medians, "model.back_to_back." + std::to_string(back_to_back), pair_size, 8),
                                back_to_back));
    profile.set_c3(fit_c3(pair_size, one_way));
}

/// The kernel constants by probe (side by side, and alone where the probe has a solo_name).
void store_kernels(cost::Profile& profile,
                   const std::vector<cost::KernelProbe>& probes,
                   const std::vector<double>& together,
                   const std::vector<double>& alone,
                   const std::vector<double>& rank0,
                   int P) {
    for (std::size_t i = 0; i < probes.size(); ++i) {
        profile.set_kernel(probes[i].name, {together[i], probes[i].unit});
        if (P > 1 && std::isfinite(rank0[i])) {
            profile.set_kernel(cost::rank0_kernel_key(probes[i].name),
                               {rank0[i], probes[i].unit + ", rank 0's processor, side by side"});
        }
        if (!probes[i].solo_name.empty()) {
            profile.set_kernel(probes[i].solo_name, {alone[i], probes[i].unit + ", one processor alone"});
        }
    }
}

/// The lockstep excess by group size and step exponent, as "lockstep.excess.p<p>.2^e" (cost/lockstep.hpp).
void store_lockstep(cost::Profile& profile, const std::map<int, std::map<int, double>>& lockstep) {
    for (const auto& [p, by_exponent] : lockstep) {
        for (const auto& [e, excess] : by_exponent) {
            profile.set_kernel(cost::kernel_size_key(cost::lockstep_key(p), e),
                               {excess,
                                "excess of the slowest of " + std::to_string(p) +
                                    " processors' lockstep step over the mean one (dimensionless), steps of 2^" +
                                    std::to_string(e) + " ns of work"});
        }
    }
}

#if !defined(LLC_SMPI)  // simulated ranks have no processors of their own to be slowed (describe_run)
/// How evenly the ranks ran the kernel probes side by side (tools::rank_ratio of each probe's per-rank medians, the
/// samples of kind "kernel" with p = the rank; alone values are rank 0's only and drop out); 0 when fewer than two
/// ranks ran them.
double kernel_rank_ratio(const std::vector<RawSample>& samples, int P) {
    std::map<std::string, std::vector<std::vector<double>>> by_probe;  // op → rank → values
    for (const RawSample& s : samples) {
        if (s.kind == "kernel" && s.p >= 0 && s.p < P) {
            auto& ranks = by_probe[s.op];
            ranks.resize(static_cast<std::size_t>(P));
            ranks[static_cast<std::size_t>(s.p)].push_back(s.seconds);
        }
    }
    std::vector<std::vector<double>> medians;
    bool several = false;
    for (const auto& [op, ranks] : by_probe) {
        std::vector<double>& row = medians.emplace_back();
        for (const std::vector<double>& values : ranks) {
            row.push_back(values.empty() ? std::numeric_limits<double>::quiet_NaN() : quantile(values, 0.5));
        }
        several = several || (ranks.size() > 1 && !ranks[1].empty());
    }
    return several ? tools::rank_ratio(medians) : 0.0;
}
#endif

/// The profile's meta: the machine, the run (quick, P) and its canaries (the fastest, and the median link canary of
/// the two-processor collectives' samples).
void describe_run(Calibration& out, const Measuring& m) {
    cost::ProfileMeta& meta = out.profile.meta();
    describe_machine(meta, m.plan.pair_size);
    meta.quick = m.s.quick;
    meta.world_size = m.plan.P;
    meta.canary_cpu_s = m.machine_state.cpu;
    meta.canary_link_s = m.machine_state.link;
    meta.canary_throughput_s = m.machine_state.throughput;
    std::vector<double> links;
    for (const RawSample& sample : out.samples) {
        if (sample.kind == "collective" && sample.p == 2 && sample.link_canary > 0.0) {
            links.push_back(sample.link_canary);
        }
    }
    meta.canary_link_median_s = links.empty() ? 0.0 : quantile(links, 0.5);
#if defined(LLC_SMPI)
    meta.kernel_rank_ratio = 0.0;  // simulated ranks: no processors of their own to be slowed (as the canaries)
#else
    meta.kernel_rank_ratio = kernel_rank_ratio(out.samples, m.plan.P);
#endif
    // Where the swap's per-byte price at p = 1 steps from cache to memory speed (cost::effective_cache_bytes), never
    // above the size the system reports; 0 (cost functions then use llc_bytes) when no step was seen.
    if (const auto swap = m.medians.find({std::string(names::op::swap), 1}); swap != m.medians.end()) {
        const double effective = cost::effective_cache_bytes(swap->second);
        meta.effective_llc_bytes = meta.llc_bytes > 0.0 ? std::min(effective, meta.llc_bytes) : effective;
    }
}

}  // namespace

std::vector<int> group_sizes(int P) {
    std::set<int> ps;
    for (int p = 1; p <= std::min(P, 8); ++p) {
        ps.insert(p);
    }
    for (int p = 16; p <= P; p *= 2) {
        ps.insert(p);
    }
    ps.insert(P);
    return {ps.begin(), ps.end()};
}

std::vector<std::string> missing_measurements(const cost::Profile& profile, const Settings& settings) {
    std::vector<std::string> missing;
    const std::vector<int> ps = group_sizes(std::max(profile.meta().world_size, 1));
    for (const std::string& f : measured_collectives()) {
        // A collective the calibrating run measured at some p (the written shift at p ≥ 2 only: not at P = 1).
        const bool measured = std::any_of(ps.begin(), ps.end(), [&f](int p) { return measured_at(f, p); });
        if (measured && !profile.has_collective(f)) {
            missing.push_back(f);
        }
    }
    const bool several = profile.meta().world_size > 1;  // rank 0's own values: from a calibration on P > 1 only
    for (const cost::KernelProbe& k : kernel_probes_for(settings)) {
        for (const std::string& name :
             {k.name, k.solo_name, several ? cost::rank0_kernel_key(k.name) : std::string{}}) {
            if (!name.empty() && !profile.has_kernel(name)) {
                missing.push_back(name);
            }
        }
    }
    // The lockstep tables at every group size p ≥ 2 of the calibrating run, and the last-level cache.
    for (const int p : ps) {
        const std::string family = cost::lockstep_key(p);
        if (p > 1 && !profile.has_kernel(cost::kernel_size_key(family, lockstep_min_exponent))) {
            missing.push_back(family + ".2^e");
        }
    }
    if (!(profile.meta().llc_bytes > 0.0)) {
        missing.emplace_back("meta.llc_bytes");
    }
    return missing;
}

Calibration calibrate(Group& world, const Settings& s, bool run_kernels) {
    Calibration out;
    const Plan plan(world.size(), s);
    // The kernel constants of the algorithms: rounds at slots spread over the calibration.
    KernelRounds kernels(run_kernels ? kernel_probes_for(s) : std::vector<cost::KernelProbe>{}, s, plan.slots());
    Progress progress(world.rank() == 0 && s.progress, plan.work(s) + kernels.work());
    Measuring m{world, s, plan, progress, out.samples};

    for (std::size_t k = 0; k < plan.ps.size(); ++k) {
        kernels.run_rounds_at(world, static_cast<int>(k), progress, out.samples);
        measure_group(m, plan.ps[k]);
    }
    kernels.run_rounds_at(world, plan.slots() - 2, progress, out.samples);
    measure_point_to_point(m);
    kernels.run_rounds_at(world, plan.slots() - 1, progress, out.samples);
    const std::vector<double> kernel_values = kernels.together();
    const std::vector<double> kernel_alone = kernels.alone();
    const std::vector<double> kernel_rank0 = kernels.rank0();
    progress.finish();
    out.phase_times = progress.phase_times();
    out.probe_times = kernels.times();
    out.cell_times = std::move(m.cell_times);
    const std::vector<int> placement = tools::node_of_rank(world.native());  // collective: before rank 0 goes on alone
    if (world.rank() != 0) {
        return out;
    }

    // The fits (rank 0, which took part in every measurement).
    const double fits_wall = llc::clock_seconds();
    const double fits_cpu = thread_cpu_seconds();
    for (const int p : plan.ps) {
        fit_group(out, m.medians, p);
    }
    fit_point_to_point(out, m.medians, plan.pair_size);
    fit_models(out.profile, m.medians, plan.pair_size);
    store_kernels(out.profile, kernels.probes(), kernel_values, kernel_alone, kernel_rank0, world.size());
    store_lockstep(out.profile, m.lockstep);
    describe_run(out, m);
    out.profile.meta().node_of_rank = placement;
    out.profile.meta().nodes = tools::ranks_per_node_of(placement);
    out.phase_times.push_back({"fits", 0, llc::clock_seconds() - fits_wall, thread_cpu_seconds() - fits_cpu});
    return out;
}

}  // namespace llc::probe
