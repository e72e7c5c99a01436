// llc-probe's measurement loop (see measure.hpp).
#include "measure.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <thread>
#include <time.h>
#include <unistd.h>

#include <llc/clock.hpp>
#include <llc/error.hpp>
#include <llc/file.hpp>

namespace llc::probe {

// ---- sizes --------------------------------------------------------------------------------------------------------

std::vector<double> log_grid(double lo, double hi, int n) {
    std::vector<double> grid;
    if (n <= 1 || hi <= lo) {
        grid.push_back(std::round(lo));
        return grid;
    }
    const double step = std::log(hi / lo) / (n - 1);
    for (int i = 0; i < n; ++i) {
        const double x = std::round(lo * std::exp(step * i));
        if (grid.empty() || x > grid.back()) {
            grid.push_back(x);
        }
    }
    return grid;
}

std::vector<double> extended_grid(std::span<const double> grid, double hi) {
    std::vector<double> out(grid.begin(), grid.end());
    if (out.size() < 2 || out.back() >= hi) {
        return out;
    }
    const double ratio = out[out.size() - 1] / out[out.size() - 2];
    while (out.back() * std::sqrt(ratio) < hi) {  // the next step, unless hi is nearer than half a step
        out.push_back(std::round(std::min(out.back() * ratio, hi)));
    }
    if (out.back() < hi) {
        out.back() = std::round(hi);
    }
    return out;
}

std::vector<double> geometric_midpoints(std::span<const double> grid) {
    std::vector<double> mids;
    const std::set<double> on_grid(grid.begin(), grid.end());
    for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
        const double x = std::round(std::sqrt(grid[i] * grid[i + 1]));
        if (on_grid.count(x) == 0 && (mids.empty() || x > mids.back())) {
            mids.push_back(x);
        }
    }
    return mids;
}

// ---- progress -----------------------------------------------------------------------------------------------------

namespace {
double now() {
    return llc::clock_seconds();
}
}  // namespace

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

void Progress::close_phase() {
    if (!phase_.empty()) {
        phases_.push_back({phase_, 0, now() - phase_wall_, thread_cpu_seconds() - phase_cpu_});
    }
    phase_wall_ = now();
    phase_cpu_ = thread_cpu_seconds();
}

Progress::Progress(bool enabled, double total_units)
    : enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0), total_(std::max(total_units, 1.0)), start_(now()) {}

void Progress::phase(const std::string& name) {
    close_phase();
    phase_ = name;
    if (enabled_ && !tty_) {
        std::fprintf(stderr, "llc-probe: %3.0f%% %6.1f s  %s\n", 100.0 * done_ / total_, now() - start_, name.c_str());
    }
    draw(true);
}

void Progress::advance(double units) {
    done_ = std::min(done_ + units, total_);
    draw(false);
}

void Progress::add_work(double units) {
    total_ += std::max(units, 0.0);
}

void Progress::draw(bool force) {
    if (!enabled_) {
        return;
    }
    const double t = now();
    const double fraction = done_ / total_;
    if (!tty_) {
        const int quarter = static_cast<int>(fraction * 4.0);
        if (quarter > last_quarter_ && quarter < 4) {
            last_quarter_ = quarter;
            std::fprintf(stderr, "llc-probe: %3d%% %6.1f s\n", quarter * 25, t - start_);
        }
        return;
    }
    if (!force && t - last_draw_ < 0.1) {
        return;
    }
    last_draw_ = t;
    constexpr int width = 30;
    const int filled = static_cast<int>(fraction * width);
    std::string bar(static_cast<std::size_t>(filled), '#');
    bar.append(static_cast<std::size_t>(width - filled), '.');
    std::fprintf(stderr, "\r[%s] %3.0f%% %6.1f s  %-40.40s", bar.c_str(), 100.0 * fraction, t - start_, phase_.c_str());
    std::fflush(stderr);
}

void Progress::finish() {
    close_phase();
    phase_.clear();
    if (!enabled_) {
        return;
    }
    done_ = total_;
    if (tty_) {
        draw(true);
        std::fprintf(stderr, "\n");
    } else {
        std::fprintf(stderr, "llc-probe: 100%% %6.1f s\n", now() - start_);
    }
}

// ---- raw samples --------------------------------------------------------------------------------------------------

void write_samples_csv(const std::string& path, std::span<const RawSample> samples) {
    std::ostringstream out;
    out.precision(9);
    out << "kind,op,p,bytes,rep,seconds,canary,link_canary,throughput_canary\n";
    for (const RawSample& s : samples) {
        out << s.kind << ',' << s.op << ',' << s.p << ',' << static_cast<long long>(s.bytes) << ',' << s.rep << ','
            << s.seconds << ',' << s.canary << ',' << s.link_canary << ',' << s.throughput_canary << '\n';
    }
    write_file_atomically(path, out.str(), "llc-probe (samples file)", /*create_directories=*/true);
}

std::vector<RawSample> read_samples_csv(const std::string& path) {
    std::vector<RawSample> rows;
    std::ifstream in(path);
    if (!in) {
        return rows;
    }
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        RawSample s;
        std::string p;
        std::string bytes;
        std::string rep;
        std::string seconds;
        if (std::getline(fields, s.kind, ',') && std::getline(fields, s.op, ',') && std::getline(fields, p, ',') &&
            std::getline(fields, bytes, ',') && std::getline(fields, rep, ',') && std::getline(fields, seconds, ',')) {
            try {
                s.p = std::stoi(p);
                s.bytes = std::stod(bytes);
                s.rep = std::stoi(rep);
                s.seconds = std::stod(seconds);
                std::string canary;
                std::string link;
                if (std::getline(fields, canary, ',') && !canary.empty()) {  // files older than the canaries lack them
                    s.canary = std::stod(canary);
                }
                if (std::getline(fields, link, ',') && !link.empty()) {
                    s.link_canary = std::stod(link);
                }
                std::string throughput;
                if (std::getline(fields, throughput) && !throughput.empty()) {  // files before it lack it
                    s.throughput_canary = std::stod(throughput);
                }
                rows.push_back(std::move(s));
            } catch (const std::exception&) {
                // a damaged line: skip it, the held-out sizes only need the sizes of the others
            }
        }
    }
    return rows;
}

std::string samples_path(const std::string& profile_path) {
    constexpr std::string_view ext = ".json";
    if (profile_path.size() > ext.size() && profile_path.ends_with(ext)) {
        return profile_path.substr(0, profile_path.size() - ext.size()) + ".samples.csv";
    }
    return profile_path + ".samples.csv";
}

// ---- cells --------------------------------------------------------------------------------------------------------

namespace {

/// One visit of a cell: an untimed warm-up call, then up to settings.block samples (fewer once the cell is done). A
/// collective's warm-up shorter than settings.second_warm_up_below (10 ms; llc-validate's visits 2 ms, measure.hpp says
/// why) is followed by a second one, as llc-validate warms up its visits: after one warm-up call the first sample of a
/// visit took 1.09–1.11× the third at 0.2–4 MiB and 1.03× at ≤ 200 KB at p = 2, the second 1.01–1.02× (medians over the
/// cells of the three quiet 20:15 demo calibrations), so a third of the samples of every cell were taken in another
/// warm state than llc-validate's, and the cell medians came out a few per cent high. Not yet measured with it: on the
/// demos' samples, dropping each visit's first sample moved the p = 2 collectives' CCM medians by −13…+5 points
/// (scatter 17.8 → 4.9 %, reduce 7.4 → 12.7 %, most within ±3), an estimate, not a calibration.
void visit(Cell& cell,
           const Settings& settings,
           tools::SpeedReference& reference,
           Progress& progress,
           std::vector<RawSample>& samples) {
    const tools::Sample warm_up = cell.time_once();  // agreed over the ranks: every rank takes the same branch
    if (cell.kind == "collective" && warm_up.seconds < settings.second_warm_up_below) {
        (void)cell.time_once();
    }
    for (int b = 0; b < std::max(settings.block, 1) && !cell.done; ++b) {
        const tools::Sample t = cell.time_once();
        reference.see(t.canary);
        samples.push_back({cell.kind,
                           cell.op,
                           cell.p,
                           cell.bytes,
                           static_cast<int>(cell.samples.size()),
                           t.seconds,
                           t.canary.cpu,
                           t.canary.link,
                           t.canary.throughput});
        cell.samples.push_back(t);
        cell.spent += t.seconds;
        const auto n = static_cast<int>(cell.samples.size());
        bool too_few = false;
        const std::vector<double> counted =
            tools::undisturbed_seconds(cell.samples, reference, static_cast<std::size_t>(settings.min_reps), &too_few);
        const int undisturbed = too_few ? 0 : static_cast<int>(counted.size());
        // Out of patience after 4 × the cap or the budget: a machine slow for this long is the machine.
        const bool impatient =
            n >= 4 * settings.max_reps || (n >= settings.min_reps && cell.spent >= 4.0 * settings.cell_budget);
        // A cell whose samples already spent the budget stops after two visits' worth when their median is twice as
        // tight as the target: the swaps of 10–256 MiB (10–40 ms a call) took 11 samples and 4 warm-ups each, a
        // tenth of a quick calibration, where 6 samples spread less than 2 % around their median.
        const bool tight_early = undisturbed >= 2 * std::max(settings.block, 1) && cell.spent >= settings.cell_budget &&
                                 tools::median_rse(counted) <= 0.5 * settings.target_rse;
        if (impatient || undisturbed >= settings.max_reps || tight_early ||
            (undisturbed >= settings.min_reps &&
             (cell.spent >= settings.cell_budget || tools::median_rse(counted) <= settings.target_rse))) {
            cell.done = true;
            progress.advance();
        }
    }
}

}  // namespace

tools::Canary run_cells(MPI_Comm comm,
                        std::vector<Cell>& cells,
                        const Settings& settings,
                        std::mt19937_64& rng,
                        Progress& progress,
                        std::vector<RawSample>& samples) {
    tools::SpeedReference reference;
    reference.calibrate(comm);
    std::vector<std::size_t> order(cells.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
        order[i] = i;
    }
    for (;;) {
        std::vector<std::size_t> active;
        for (const std::size_t i : order) {
            if (!cells[i].done) {
                active.push_back(i);
            }
        }
        if (active.empty()) {
            break;
        }
        // Fisher–Yates with the shared generator: the same permutation on every rank.
        for (std::size_t i = active.size(); i > 1; --i) {
            const auto j = static_cast<std::size_t>(rng() % i);
            std::swap(active[i - 1], active[j]);
        }
        for (const std::size_t i : active) {
            const double wall = now();
            const double cpu = thread_cpu_seconds();
            visit(cells[i], settings, reference, progress, samples);
            cells[i].visit_wall += now() - wall;
            cells[i].visit_cpu += thread_cpu_seconds() - cpu;
        }
    }
    for (Cell& cell : cells) {
        cell.value = tools::median(
            tools::undisturbed_seconds(cell.samples, reference, static_cast<std::size_t>(settings.min_reps)));
    }
    return reference.fastest();
}

void note_visit_times(std::span<const Cell> cells, std::vector<TimeSpent>& out) {
    for (const Cell& c : cells) {
        out.push_back({c.op + " p=" + std::to_string(c.p) + " h=" + std::to_string(std::llround(c.bytes)),
                       0,
                       c.visit_wall,
                       c.visit_cpu});
    }
}

}  // namespace llc::probe
