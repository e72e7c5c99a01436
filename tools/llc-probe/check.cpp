// llc-probe's check (see check.hpp): the held-out and drift sizes, the cells at every group size of the profile and
// of the point-to-point paths, and the rows of relative errors they make.
#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <tuple>
#include <utility>

#include <llc/cost/operation_names.hpp>

#include "cells.hpp"
#include "operations.hpp"

namespace llc::probe {

namespace {

using cost::Layout;
using cost::Path;

std::vector<double> held_out(
    const std::vector<RawSample>& fit_samples, const std::string& op, int p, double lo, double hi, int fallback_sizes) {
    std::set<double> sizes;
    for (const RawSample& r : fit_samples) {
        if (r.op == op && r.p == p && r.bytes > 0.0) {
            sizes.insert(r.bytes);
        }
    }
    std::vector<double> grid(sizes.begin(), sizes.end());
    if (grid.size() < 2) {
        grid = log_grid(std::max(lo, 1.0), std::max(hi, 2.0), fallback_sizes);
    }
    return geometric_midpoints(grid);
}

/// Medians of the profile's own samples per (op, p, bytes): the reference for the drift of the machine.
std::map<std::tuple<std::string, int, double>, double> reference_medians(const std::vector<RawSample>& fit_samples) {
    std::map<std::tuple<std::string, int, double>, std::vector<double>> all;
    for (const RawSample& r : fit_samples) {
        all[{r.op, r.p, r.bytes}].push_back(r.seconds);
    }
    std::map<std::tuple<std::string, int, double>, double> out;
    for (auto& [key, values] : all) {
        out[key] = median(std::move(values));
    }
    return out;
}

/// Every second calibrated size of (op, p) (positive sizes), re-measured to tell the machine's drift from the fit's
/// error.
std::vector<double> drift_sizes(const std::map<std::tuple<std::string, int, double>, double>& reference,
                                const std::string& op,
                                int p) {
    std::vector<double> out;
    int i = 0;
    for (const auto& [key, value] : reference) {
        if (std::get<0>(key) == op && std::get<1>(key) == p && std::get<2>(key) > 0.0 && (i++ % 2) == 1) {
            out.push_back(std::get<2>(key));
        }
    }
    return out;
}

Cell as_drift(Cell cell) {
    cell.kind = "drift";
    return cell;
}

void summarise(CheckRow& row) {
    std::vector<double> abs;
    for (const double e : row.errors) {
        abs.push_back(std::abs(e));
    }
    row.median_abs = abs.empty() ? 0.0 : median(abs);
    row.p90_abs = abs.empty() ? 0.0 : quantile(abs, 0.9);
    row.max_abs = abs.empty() ? 0.0 : *std::max_element(abs.begin(), abs.end());
    std::vector<double> drift;
    for (const double e : row.drift) {
        drift.push_back(std::abs(e));
    }
    row.drift_median_abs = drift.empty() ? std::numeric_limits<double>::quiet_NaN() : median(drift);
}

using References = std::map<std::tuple<std::string, int, double>, double>;

/// The rows of a check as the measurements fill them: by (function, p), the held-out errors and the drifts against
/// the profile's own medians.
class Rows {
  public:
    explicit Rows(const std::vector<RawSample>& fit_samples) : reference_(reference_medians(fit_samples)) {}

    /// The profile's own medians per (op, p, bytes).
    [[nodiscard]] const References& reference() const { return reference_; }

    /// A held-out size of `function` at p: the profile's prediction against the measured median.
    void add(const std::string& function, int p, double bytes, double predicted, double measured) {
        CheckRow& row = by_function_[{function, p}];
        row.function = function;
        row.p = p;
        row.bytes.push_back(bytes);
        row.errors.push_back(measured > 0.0 ? (predicted - measured) / measured : 0.0);
    }

    /// A drift cell of `function`: its re-measured median against the profile's own at the same size.
    void add_drift(const std::string& function, const Cell& c) {
        const auto it = reference_.find({c.op, c.p, c.bytes});
        if (it != reference_.end() && it->second > 0.0) {
            CheckRow& row = by_function_[{function, c.p}];
            row.function = function;
            row.p = c.p;
            row.drift.push_back((c.median() - it->second) / it->second);
        }
    }

    /// The rows summarised, with their targets (tighter for swap and the point-to-point paths), then a row over every
    /// p ≤ 2 (p = 0) per function.
    [[nodiscard]] std::vector<CheckRow> summary() {
        std::vector<CheckRow> rows;
        std::map<std::string, CheckRow> summary;
        for (auto& [key, row] : by_function_) {
            const bool tight =
                cost::base_collective(row.function) == names::op::swap || row.function.rfind("p2p.", 0) == 0;
            row.target_median = tight ? 0.05 : 0.10;
            row.target_p90 = tight ? 0.15 : 0.25;
            summarise(row);
            if (row.p <= 2) {
                CheckRow& all = summary[row.function];
                all.function = row.function;
                all.p = 0;
                all.target_median = row.target_median;
                all.target_p90 = row.target_p90;
                all.errors.insert(all.errors.end(), row.errors.begin(), row.errors.end());
                all.drift.insert(all.drift.end(), row.drift.begin(), row.drift.end());
                all.bytes.insert(all.bytes.end(), row.bytes.begin(), row.bytes.end());
            }
            rows.push_back(row);
        }
        for (auto& [name, row] : summary) {
            summarise(row);
            rows.push_back(row);
        }
        return rows;
    }

  private:
    References reference_;
    std::map<std::pair<std::string, int>, CheckRow> by_function_;
};

/// What the phases of a check share: the world, the profile and its samples, the settings, the progress bar, the rows
/// and where the caller wants the re-measured samples and the machine's state (either may be null).
struct Checking {
    Group& world;
    const cost::Profile& profile;
    const std::vector<RawSample>& fit_samples;
    const Settings& s;
    Progress& progress;
    Rows& rows;
    std::vector<RawSample>* remeasured;
    tools::Canary* machine_state;
};

/// The group sizes of the profile's collectives and divisions that a run on P processors has.
std::vector<int> check_sizes(const cost::Profile& profile, int P) {
    std::set<int> pset;
    for (const auto& op : measured_collectives()) {
        for (const int p : profile.measured_sizes(op)) {
            pset.insert(p);
        }
    }
    for (const int p : profile.division_sizes()) {
        pset.insert(p);
    }
    std::vector<int> ps;
    for (const int p : pset) {
        if (p <= P) {
            ps.push_back(p);
        }
    }
    return ps;
}

/// The cells of every collective the profile has at p: its held-out sizes, then its drift sizes.
std::vector<Cell> collective_check_cells(const Checking& c, CollectiveBench& bench, Group& g, int p) {
    const Settings& s = c.s;
    std::vector<Cell> cells;
    for (const auto& op : measured_collectives()) {
        const auto measured = c.profile.measured_sizes(op);
        if (std::find(measured.begin(), measured.end(), p) == measured.end()) {
            continue;
        }
        if (op == names::op::barrier) {
            cells.push_back(collective_cell(bench, g, op, 0.0));
            continue;
        }
        const cost::Piecewise& fit = c.profile.collective_fit(op, p);
        const double top = std::min(fit.max_bytes(), largest_bytes(op, p, s.limits()));
        double last = -1.0;
        for (const double x : held_out(c.fit_samples, op, p, fit.min_bytes(), fit.max_bytes(), s.sizes)) {
            const double h = feasible_bytes(op, p, x);
            if (h <= top && h > last) {
                cells.push_back(collective_cell(bench, g, op, h));
                last = h;
            }
        }
        for (const double h : drift_sizes(c.rows.reference(), op, p)) {
            if (h <= largest_bytes(op, p, s.limits())) {
                cells.push_back(as_drift(collective_cell(bench, g, op, h)));
            }
        }
    }
    return cells;
}

/// Appends to `cells` those of the division at p, if the profile has it: its held-out sizes, then its drift sizes.
void add_division_check_cells(const Checking& c, DivisionBench& division, int p, std::vector<Cell>& cells) {
    const Settings& s = c.s;
    const auto dsizes = c.profile.division_sizes();
    if (std::find(dsizes.begin(), dsizes.end(), p) == dsizes.end()) {
        return;
    }
    if (p < 2) {
        cells.push_back(division_par_cell(division, p, 8));
        return;
    }
    const double factor = division.exchange_bytes(1);
    const cost::Piecewise& fit = c.profile.division_fit(p).exchange;
    std::size_t last = 0;
    for (const double h : held_out(c.fit_samples, "division.par", p, fit.min_bytes(), fit.max_bytes(), s.sizes)) {
        const auto m = static_cast<std::size_t>(std::max(1.0, std::round(h / factor)));
        if (m > last && static_cast<double>(m) * 2.0 <= s.max_bytes * 1.0001) {
            cells.push_back(division_par_cell(division, p, m));
            last = m;
        }
    }
    for (const double h : drift_sizes(c.rows.reference(), "division.par", p)) {
        const auto m = static_cast<std::size_t>(std::max(1.0, std::round(h / factor)));
        if (static_cast<double>(m) * 2.0 <= s.max_bytes * 1.0001) {
            cells.push_back(as_drift(division_par_cell(division, p, m)));
        }
    }
}

/// Measures `cells` on `g` (quietly: the check's bar counts groups, not cells) and hands the samples to the caller.
/// Returns the fastest canaries seen.
tools::Canary run_check_cells(Checking& c, Group& g, std::vector<Cell>& cells, std::uint64_t seed) {
    std::vector<RawSample> samples;
    std::mt19937_64 rng(seed);
    Progress quiet(false, 1.0);
    const tools::Canary fastest = run_cells(g.native(), cells, c.s, rng, quiet, samples);
    if (c.remeasured != nullptr) {
        c.remeasured->insert(c.remeasured->end(), samples.begin(), samples.end());
    }
    return fastest;
}

/// The collectives and the division at group size p (the first p ranks; the others sleep). Collective over the world.
void check_group(Checking& c, int p) {
    Group& g = group_of(c.world, p);
    if (c.world.rank() < p) {
        c.progress.phase("check at p = " + std::to_string(p));
        auto bench = std::make_unique<CollectiveBench>(g, c.s.limits());
        auto division = std::make_unique<DivisionBench>(g, c.s.max_bytes);
        std::vector<Cell> cells = collective_check_cells(c, *bench, g, p);
        add_division_check_cells(c, *division, p, cells);
        const tools::Canary fastest = run_check_cells(c, g, cells, c.s.seed + 7 + static_cast<std::uint64_t>(p));
        if (c.machine_state != nullptr) {
            note_machine_state(*c.machine_state, fastest, p);
        }
        for (const Cell& cell : cells) {
            if (cell.kind == "drift") {
                c.rows.add_drift(cell.op == "division.par" ? "division" : cell.op, cell);
            } else if (cell.op == "division.par") {
                c.rows.add("division", p, cell.bytes, c.profile.division(p, cell.bytes).total(), cell.median());
            } else {
                c.rows.add(cell.op, p, cell.bytes, c.profile.collective(cell.op, p, cell.bytes).seconds, cell.median());
            }
        }
        c.progress.advance();
    }
    sleepy_barrier(c.world.native());
}

/// The cells of every P-3PC path with every layout: its held-out sizes, then its drift sizes.
std::vector<Cell> p2p_check_cells(const Checking& c, PointToPointBench& bench, int pair_size) {
    std::vector<Cell> cells;
    for (const Path path : paths) {
        for (const Layout layout : layouts) {
            const cost::Piecewise& fit = c.profile.point_to_point(path, layout);
            double last = 0.0;
            for (const double x : held_out(
                     c.fit_samples, p2p_name(path, layout), pair_size, fit.min_bytes(), fit.max_bytes(), c.s.sizes)) {
                const double n = PointToPointBench::payload(x);
                if (n > last && n <= fit.max_bytes()) {
                    cells.push_back(p2p_cell(bench, pair_size, path, layout, n));
                    last = n;
                }
            }
            for (const double n : drift_sizes(c.rows.reference(), p2p_name(path, layout), pair_size)) {
                if (n <= c.s.max_bytes) {
                    cells.push_back(as_drift(p2p_cell(bench, pair_size, path, layout, n)));
                }
            }
        }
    }
    return cells;
}

/// The point-to-point paths between ranks 0 and 1 (the others sleep). Collective over the world.
void check_point_to_point(Checking& c, int pair_size) {
    Group& pair = group_of(c.world, pair_size);
    if (c.world.rank() < pair_size) {
        c.progress.phase("check of point-to-point");
        auto bench = std::make_unique<PointToPointBench>(pair, c.s.max_bytes);
        std::vector<Cell> cells = p2p_check_cells(c, *bench, pair_size);
        (void)run_check_cells(c, pair, cells, c.s.seed + 2000);
        const double t_cf = c.profile.point_to_point(Path::full, Layout::cc)(0.0);
        for (const Cell& cell : cells) {
            if (cell.kind == "drift") {
                c.rows.add_drift(cell.op, cell);
                continue;
            }
            for (const Path path : paths) {
                for (const Layout layout : layouts) {
                    if (cell.op == p2p_name(path, layout)) {
                        double predicted = c.profile.point_to_point(path, layout)(cell.bytes);
                        if (path == Path::full) {
                            predicted += t_cf;  // the measured round trip = T_full(n) + t_cf
                        }
                        c.rows.add(cell.op, pair_size, cell.bytes, predicted, cell.median());
                    }
                }
            }
        }
        c.progress.advance();
    }
    sleepy_barrier(c.world.native());
}

}  // namespace

std::vector<CheckRow> check(Group& world,
                            const cost::Profile& profile,
                            const std::vector<RawSample>& fit_samples,
                            const Settings& s,
                            std::vector<RawSample>* remeasured,
                            tools::Canary* machine_state) {
    const int P = world.size();
    const std::vector<int> ps = check_sizes(profile, P);
    const bool p2p = profile.has_point_to_point() && (P >= 2 || profile.meta().world_size == 1);
    Progress progress(world.rank() == 0 && s.progress, static_cast<double>(ps.size() + (p2p ? 1 : 0)));
    Rows rows(fit_samples);
    Checking c{world, profile, fit_samples, s, progress, rows, remeasured, machine_state};
    for (const int p : ps) {
        check_group(c, p);
    }
    if (p2p) {
        check_point_to_point(c, std::min(P, 2));
    }
    progress.finish();
    if (world.rank() != 0) {
        return {};
    }
    return rows.summary();
}

}  // namespace llc::probe
