// llc-probe's calibration and check (see calibrate.hpp).
#include "calibrate.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <thread>
#include <tuple>
#include <unistd.h>

#include <llc/cost/operation_names.hpp>
#include <llc/error.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/timing.hpp>

#include "operations.hpp"

namespace llc::probe {

namespace {

using cost::Layout;
using cost::Path;
using cost::Sample;

constexpr int back_to_back = 16;
/// The kernel probes run in rounds, each in a new shuffled order, at slots spread from the calibration's start to its
/// end, and a kernel's constant is the median of its rounds (of two: their mean). Memory-bound code here runs ~1.5×
/// slower for 0.3–1.5 s at a time, and in some hours most of the time (a serial FFT of 2^16 points, medians of 15 calls
/// half a second apart: 0.49–0.55 ms in a quarter of them, 0.72–0.85 ms in the rest), so one probe caught one phase or
/// the other. Three rounds one after the other still saw one stretch of ~30 s: three full calibrations of one hour
/// put that FFT at 0.505, 0.553 and 0.803 ms, and validations then measured 0.48–0.83 ms. Five spread rounds cost
/// ~1 min more than three; quick mode takes two (the first and the last slot), for time.
int kernel_rounds(const Settings& s) {
    return s.quick ? 2 : 5;
}
constexpr std::array<Path, 3> paths{Path::send, Path::recv, Path::full};
constexpr std::array<Layout, 4> layouts{Layout::cc, Layout::cn, Layout::nc, Layout::nn};

/// The group of the first p ranks of the world (the world itself for p = P). Collective over the world the first
/// time (llc's subgroup cache).
Group& group_of(Group& world, int p) {
    const int P = world.size();
    return p == P ? world : world.subgroup({p, P - p});
}

std::string p2p_name(Path path, Layout layout) {
    return "p2p." + std::string(cost::to_string(path)) + "." + std::string(cost::to_string(layout));
}

/// The sizes h at which `op` is measured on p processors: the grid cut at largest_bytes, made feasible, distinct.
std::vector<double> collective_sizes(const std::string& op,
                                     int p,
                                     std::span<const double> grid,
                                     const SizeLimits& limits) {
    if (op == names::op::barrier) {
        return {0.0};
    }
    std::vector<double> out;
    const double top = largest_bytes(op, p, limits);
    for (const double x : grid) {
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

Cell collective_cell(CollectiveBench& bench, Group& g, const std::string& op, double h) {
    Cell cell;
    cell.kind = "collective";
    cell.op = op;
    cell.p = g.size();
    cell.bytes = h;
    // The first call is the first visit's warm-up, which picks the batch (llc::tools::warm_up_and_choose_batch).
    cell.time_once = [&g, body = bench.call(op, h), batch = 0]() mutable {
        if (batch == 0) {
            batch = tools::warm_up_and_choose_batch(g.native(), body);
            return tools::Sample{};  // a visit's warm-up: not recorded
        }
        return tools::time_sample(g.native(), batch, body);
    };
    return cell;
}

Cell division_split_cell(DivisionBench& bench, int p) {
    Cell cell;
    cell.kind = "division";
    cell.op = "division.split";
    cell.p = p;
    cell.time_once = [&bench] { return bench.time_split(); };
    return cell;
}

Cell division_par_cell(DivisionBench& bench, int p, std::size_t m) {
    Cell cell;
    cell.kind = "division";
    cell.op = "division.par";
    cell.p = p;
    cell.bytes = bench.exchange_bytes(m);
    cell.time_once = [&bench, m] { return bench.time_par(m); };
    return cell;
}

/// Result sizes m of the division cells for the h sizes of a grid (h = factor · m).
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

Cell p2p_cell(PointToPointBench& bench, int p, Path path, Layout layout, double n) {
    Cell cell;
    cell.kind = "p2p";
    cell.op = p2p_name(path, layout);
    cell.p = p;
    cell.bytes = n;
    // Sends and receives of small messages take 0.1–0.5 µs, too short to time one by one: they are batched like the
    // collectives on one processor (time at one end per message, as the P-3PC paper averages repetitions). The first
    // call picks the batch.
    cell.time_once = [&bench, path, layout, n, batch = 0]() mutable {
        if (batch == 0) {
            batch = tools::choose_batch_by_doubling([&](int b) { return bench.time_path(path, layout, n, b); });
            return tools::Sample{};  // a visit's warm-up: not recorded
        }
        return bench.time_path(path, layout, n, batch);
    };
    return cell;
}

Cell model_cell(std::string op, int p, double n, std::function<tools::Sample()> body) {
    Cell cell;
    cell.kind = "model";
    cell.op = std::move(op);
    cell.p = p;
    cell.bytes = n;
    cell.time_once = std::move(body);
    return cell;
}

std::string first_line(const std::string& text) {
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
}

std::string hostname() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') {
        return "unknown-host";
    }
    return host;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                return line.substr(colon + 2);
            }
        }
    }
    return "unknown CPU";
}

std::string iso_date() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string mpi_library() {
    char text[MPI_MAX_LIBRARY_VERSION_STRING] = {};
    int length = 0;
    MPI_Get_library_version(text, &length);
    (void)length;
    return first_line(std::string(text));  // the length MPI reports may count the terminating NUL
}

/// Whether more ranks share this node than it has cores (then only rank 0 runs the kernel probes).
bool crowded(Group& world) {
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(world.native(), MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int on_node = 1;
    MPI_Comm_size(node, &on_node);
    MPI_Comm_free(&node);
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    int over = on_node > static_cast<int>(cores) ? 1 : 0;
    MPI_Allreduce(MPI_IN_PLACE, &over, 1, MPI_INT, MPI_MAX, world.native());
    return over != 0;
}

/// Folds a group's fastest canaries into the machine's state: the fastest CPU canary of any group (0 = none yet), the
/// link canary of the group of two processors (the pair the P-3PC paths and the validator's P = 2 runs use).
void note_machine_state(tools::Canary& state, const tools::Canary& fastest, int p) {
    state.cpu = state.cpu > 0.0 ? std::min(state.cpu, fastest.cpu) : fastest.cpu;
    if (p == 2) {
        state.link = fastest.link;
    }
}

/// Sizes inside the protocol steps of `op`'s measured cells: where the median more than 1.6-folds and grows by more
/// than 1.5 µs from one grid size to the next, three sizes at a quarter, a half and three quarters of the way in log
/// scale (made feasible, not on the grid). Open MPI's shared-memory transport sends a message of more than ~4040
/// bytes by rendezvous (+3 µs here, measured by ping-pong: 4040 B 1.19 µs, 4048 B 4.13 µs), and the quick grid's
/// neighbours 7.7 KB and 13.7 KB (messages of 3.9 and 6.8 KB at p = 2) left the step anywhere between: an all-to-all
/// of 8 KiB was priced 73 % low, Seidel's broadcasts 73–78 %. With the sizes inside, the fit's data-chosen
/// breakpoints find the step to within a fraction of the interval.
constexpr int step_passes = 2;

std::vector<double> step_sizes(const std::vector<Cell>& cells, const std::string& op, int p) {
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
        if (tb > 1.6 * ta && tb - ta > 1.5e-6) {
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

namespace {

/// Runs the probes of `order` (indices into `probes`) once each, in an order shuffled by `seed`, and hands every value
/// to `record(index, value)`. Returns what failed first (a probe that threw or returned a negative or non-finite value,
/// by the key it is stored under: its solo_name when `solo`), empty if nothing did; no probe runs after a failure.
/// With `side_by_side` (not MPI_COMM_NULL; collective over it), every probe starts on all its ranks at once, as a
/// superstep's processors run its kernel, and a failure on any rank stops all of them before the next probe. Started
/// apart, the ranks drift (each sizes its own samples), and a probe ran beside another one part of the time. No
/// effect on the constants could be told from the host's noise: the reorder's constant at 2^24 came out 1.76 ns an
/// element in one full calibration with the ranks started together, 1.68–2.30 ns in four before.
std::string run_kernel_round(const std::vector<cost::KernelProbe>& probes,
                             std::vector<std::size_t> order,
                             const Settings& s,
                             std::uint64_t seed,
                             bool solo,
                             MPI_Comm side_by_side,
                             Progress& progress,
                             const std::function<void(std::size_t i, double value)>& record) {
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::string failure;
    for (const std::size_t i : order) {
        int failed = failure.empty() ? 0 : 1;
        if (side_by_side != MPI_COMM_NULL) {
            MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, side_by_side);
        }
        if (failed != 0) {
            break;
        }
        const std::string& key = solo ? probes[i].solo_name : probes[i].name;
        try {
            const double v = probes[i].measure(s.quick);
            if (!std::isfinite(v) || v < 0.0) {
                failure = key + " returned " + std::to_string(v);
                continue;
            }
            record(i, v);
        } catch (const std::exception& e) {
            failure = key + ": " + e.what();
            continue;
        }
        progress.advance();
    }
    return failure;
}

/// Throws the same AgreedError on every rank of `world` if `failure` is not empty on some rank. Collective.
void agree_on_kernel_failure(Group& world, const std::string& failure, const char* where) {
    int failed = failure.empty() ? 0 : 1;
    sleepy_barrier(world.native());
    MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, world.native());
    if (failed != 0) {
        throw AgreedError("llc-probe: a kernel probe failed" +
                          (failure.empty() ? std::string(" ") + where : ": " + failure));
    }
}

/// The kernel probes' values, gathered one round at a time (run_round) at slots spread over the calibration, and
/// their constants: the median of a probe's rounds (of two: their mean).
class KernelRounds {
  public:
    KernelRounds(std::vector<cost::KernelProbe> probes, const Settings& s)
        : probes_(std::move(probes)), settings_(s), together_(probes_.size()), alone_(probes_.size()) {}

    [[nodiscard]] const std::vector<cost::KernelProbe>& probes() const { return probes_; }

    /// Round `round` of every probe side by side (together), then of the probes with a solo_name on rank 0 alone.
    /// Every rank's values go into `samples` (kind "kernel", p = the rank, rep = the round; the solo values under the
    /// solo names). Collective over `world`.
    /// @throws AgreedError on every rank if a probe failed or returned a negative or non-finite value on any rank.
    void run_round(Group& world, int round, Progress& progress, std::vector<RawSample>& samples) {
        run_together(world, round, progress, samples);
        run_alone(world, round, progress, samples);
    }

    /// The constants by probe index, on rank 0 (NaN elsewhere, and for probes never measured).
    [[nodiscard]] std::vector<double> together() const { return medians_of(together_); }
    /// The one-processor-alone constants by probe index (NaN for probes without a solo_name, and off rank 0).
    [[nodiscard]] std::vector<double> alone() const { return medians_of(alone_); }

  private:
    /// Every probe on every rank at once unless the node is crowded (then rank 0 alone). The round's value is the
    /// slowest rank's: the ranks run the kernel side by side as an algorithm's processors do, and a superstep lasts as
    /// long as its slowest processor (two ranks measured the same stride-2 leaf of 2^17 at 2.57 and 2.12 ms in one
    /// round, 2.20 and 1.96 in another).
    void run_together(Group& world, int round, Progress& progress, std::vector<RawSample>& samples) {
        const int P = world.size();
        const bool root = world.rank() == 0;
        const std::size_t count = probes_.size();
        std::vector<double> mine(count, std::numeric_limits<double>::quiet_NaN());  // NaN: not run here
        std::string failure;
        const bool all_run = !crowded(world);
        if (all_run || root) {
            failure = run_kernel_round(probes_,
                                       all_indices(),
                                       settings_,
                                       settings_.seed + 2000 + static_cast<std::uint64_t>(round),
                                       false,
                                       all_run ? world.native() : MPI_COMM_NULL,
                                       progress,
                                       [&](std::size_t i, double v) { mine[i] = v; });
        }
        agree_on_kernel_failure(world, failure, "on another rank");
        std::vector<double> all(root ? count * static_cast<std::size_t>(P) : 0);
        MPI_Gather(mine.data(),
                   static_cast<int>(count),
                   MPI_DOUBLE,
                   all.data(),
                   static_cast<int>(count),
                   MPI_DOUBLE,
                   0,
                   world.native());
        if (!root) {
            return;
        }
        for (std::size_t i = 0; i < count; ++i) {
            double slowest = -1.0;
            for (int r = 0; r < P; ++r) {
                const double v = all[static_cast<std::size_t>(r) * count + i];
                if (std::isfinite(v)) {
                    slowest = std::max(slowest, v);
                    samples.push_back({"kernel", probes_[i].name, r, 0.0, round, v});
                }
            }
            if (slowest >= 0.0) {
                together_[i].push_back(slowest);
            }
        }
    }

    /// The probes with a solo_name on rank 0 while the other ranks sleep (sleepy_barrier).
    void run_alone(Group& world, int round, Progress& progress, std::vector<RawSample>& samples) {
        std::vector<std::size_t> order;
        for (std::size_t i = 0; i < probes_.size(); ++i) {
            if (!probes_[i].solo_name.empty()) {
                order.push_back(i);
            }
        }
        std::string failure;
        if (world.rank() == 0) {
            failure = run_kernel_round(probes_,
                                       order,
                                       settings_,
                                       settings_.seed + 3000 + static_cast<std::uint64_t>(round),
                                       true,
                                       MPI_COMM_NULL,
                                       progress,
                                       [&](std::size_t i, double v) {
                                           alone_[i].push_back(v);
                                           samples.push_back({"kernel", probes_[i].solo_name, 0, 0.0, round, v});
                                       });
        }
        agree_on_kernel_failure(world, failure, "on rank 0");
    }

    [[nodiscard]] std::vector<std::size_t> all_indices() const {
        std::vector<std::size_t> order(probes_.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        return order;
    }

    static std::vector<double> medians_of(const std::vector<std::vector<double>>& values) {
        std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (!values[i].empty()) {
                out[i] = median(values[i]);
            }
        }
        return out;
    }

    std::vector<cost::KernelProbe> probes_;
    Settings settings_;
    std::vector<std::vector<double>> together_;  // by probe, the rounds' slowest values (rank 0)
    std::vector<std::vector<double>> alone_;     // by probe, rank 0's solo values
};

/// The slot of each of `rounds` kernel rounds among `slots` (0: before the calibration's first phase, slots − 1: after
/// its last), spread evenly from the first slot to the last.
std::vector<int> kernel_round_slots(int rounds, int slots) {
    std::vector<int> out;
    for (int r = 0; r < rounds; ++r) {
        out.push_back(rounds == 1 ? slots - 1
                                  : static_cast<int>(std::lround(static_cast<double>(r) * (slots - 1) / (rounds - 1))));
    }
    return out;
}

/// The algorithms' kernel probes a calibration with settings `s` runs: all of them, or in quick mode those not
/// full_only.
std::vector<cost::KernelProbe> kernel_probes_for(const Settings& s) {
    std::vector<cost::KernelProbe> probes = tools::all_probes();
    if (s.quick) {
        std::erase_if(probes, [](const cost::KernelProbe& k) { return k.full_only; });
    }
    return probes;
}

/// How many probes have a solo_name.
std::size_t solo_count(const std::vector<cost::KernelProbe>& probes) {
    return static_cast<std::size_t>(
        std::count_if(probes.begin(), probes.end(), [](const cost::KernelProbe& k) { return !k.solo_name.empty(); }));
}

}  // namespace

std::vector<std::string> missing_measurements(const cost::Profile& profile, const Settings& settings) {
    std::vector<std::string> missing;
    for (const std::string& f : measured_collectives()) {
        if (!profile.has_collective(f)) {
            missing.push_back(f);
        }
    }
    for (const cost::KernelProbe& k : kernel_probes_for(settings)) {
        for (const std::string& name : {k.name, k.solo_name}) {
            if (!name.empty() && !profile.has_kernel(name)) {
                missing.push_back(name);
            }
        }
    }
    return missing;
}

Calibration calibrate(Group& world, const Settings& s, bool run_kernels) {
    Calibration out;
    const int P = world.size();
    const bool root = world.rank() == 0;
    const std::vector<int> ps = group_sizes(P);
    const std::vector<double> grid = log_grid(s.min_bytes, s.max_bytes, s.sizes);
    // The collectives' sizes: the grid, continued for those measured past max_bytes (swap).
    const std::vector<double> collective_grid = extended_grid(grid, largest_bytes_of_all(P, s.limits()));
    const int pair_size = std::min(P, 2);
    const auto& names = measured_collectives();
    KernelRounds kernels(run_kernels ? kernel_probes_for(s) : std::vector<cost::KernelProbe>{}, s);
    const std::vector<cost::KernelProbe>& probes = kernels.probes();

    // The plan's size, for the progress bar.
    double total = 0.0;
    for (const int p : ps) {
        for (const auto& op : names) {
            total += static_cast<double>(collective_sizes(op, p, collective_grid, s.limits()).size());
        }
        total += 1.0 + static_cast<double>(division_results(p, grid).size());
    }
    total += 12.0 * static_cast<double>(p2p_sizes(grid).size()) + static_cast<double>(grid.size()) + 2.0;
    total += static_cast<double>(probes.size() + solo_count(probes)) * kernel_rounds(s);
    Progress progress(root && s.progress, total);
    Medians medians;
    tools::Canary machine_state;  // the calibration's fastest canaries, for the profile's meta

    // ---- kernel constants of the algorithms: rounds at slots spread over the calibration ----
    // Slot k < ps.size() is before the collectives at ps[k], the last two before the point-to-point and at the end.
    const int slots = static_cast<int>(ps.size()) + 2;
    const std::vector<int> round_slots =
        probes.empty() ? std::vector<int>{} : kernel_round_slots(kernel_rounds(s), slots);
    int next_round = 0;
    const auto kernel_rounds_at = [&](int slot) {
        while (next_round < static_cast<int>(round_slots.size()) && round_slots[next_round] == slot) {
            progress.phase("kernel probes, round " + std::to_string(next_round + 1) + " of " +
                           std::to_string(round_slots.size()));
            kernels.run_round(world, next_round, progress, out.samples);
            ++next_round;
        }
    };

    // ---- collectives, swap and the division, per group size p ----
    for (std::size_t k = 0; k < ps.size(); ++k) {
        kernel_rounds_at(static_cast<int>(k));
        const int p = ps[k];
        Group& g = group_of(world, p);
        if (world.rank() < p) {
            progress.phase("collectives and division at p = " + std::to_string(p));
            auto bench = std::make_unique<CollectiveBench>(g, s.limits());
            auto division = std::make_unique<DivisionBench>(g, s.max_bytes);
            std::vector<Cell> cells;
            for (const auto& op : names) {
                for (const double h : collective_sizes(op, p, collective_grid, s.limits())) {
                    cells.push_back(collective_cell(*bench, g, op, h));
                }
            }
            cells.push_back(division_split_cell(*division, p));
            for (const std::size_t m : division_results(p, grid)) {
                cells.push_back(division_par_cell(*division, p, m));
            }
            std::mt19937_64 rng(s.seed + static_cast<std::uint64_t>(p));
            const tools::Canary fastest = run_cells(g.native(), cells, s, rng, progress, out.samples);
            note_machine_state(machine_state, fastest, p);
            collect(cells, medians);
            // Two more passes: sizes inside the protocol steps the last pass crossed, each narrowing a step to a
            // quarter of its interval in log scale (the same decisions on every rank: the medians are the same
            // everywhere).
            std::vector<Cell> measured = std::move(cells);
            for (int pass = 0; pass < step_passes; ++pass) {
                std::vector<Cell> steps;
                for (const auto& op : names) {
                    for (const double h : step_sizes(measured, op, p)) {
                        steps.push_back(collective_cell(*bench, g, op, h));
                    }
                }
                if (steps.empty()) {
                    break;
                }
                progress.add_work(static_cast<double>(steps.size()));
                (void)run_cells(g.native(), steps, s, rng, progress, out.samples);
                collect(steps, medians);
                measured.insert(
                    measured.end(), std::make_move_iterator(steps.begin()), std::make_move_iterator(steps.end()));
            }
        }
        sleepy_barrier(world.native());
    }

    // ---- point-to-point: P-3PC paths and layouts, ping-pong, back-to-back sends ----
    kernel_rounds_at(slots - 2);
    {
        Group& pair = group_of(world, pair_size);
        if (world.rank() < pair_size) {
            progress.phase(pair_size == 2 ? "point-to-point (ranks 0 and 1)" : "point-to-point (to oneself, P = 1)");
            auto bench = std::make_unique<PointToPointBench>(pair, s.max_bytes);
            std::vector<Cell> cells;
            for (const Path path : paths) {
                for (const Layout layout : layouts) {
                    for (const double n : p2p_sizes(grid)) {
                        cells.push_back(p2p_cell(*bench, pair_size, path, layout, n));
                    }
                }
            }
            PointToPointBench* b = bench.get();
            for (const double n : grid) {
                cells.push_back(model_cell("model.pingpong", pair_size, n, [b, n] { return b->time_pingpong(n); }));
            }
            cells.push_back(
                model_cell("model.back_to_back.1", pair_size, 8, [b] { return b->time_back_to_back(1, 8); }));
            cells.push_back(model_cell("model.back_to_back." + std::to_string(back_to_back), pair_size, 8, [b] {
                return b->time_back_to_back(back_to_back, 8);
            }));
            std::mt19937_64 rng(s.seed + 1000);
            run_cells(pair.native(), cells, s, rng, progress, out.samples);
            collect(cells, medians);
        }
        sleepy_barrier(world.native());
    }

    kernel_rounds_at(slots - 1);
    const std::vector<double> kernel_values = kernels.together();
    const std::vector<double> kernel_alone = kernels.alone();
    progress.finish();
    if (!root) {
        return out;
    }

    // ---- fits (rank 0, which took part in every measurement) ----
    cost::Profile& profile = out.profile;
    for (const int p : ps) {
        for (const auto& op : names) {
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
            profile.set_point_to_point(path, layout, std::move(f));
        }
    }
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
    for (std::size_t i = 0; i < probes.size(); ++i) {
        profile.set_kernel(probes[i].name, {kernel_values[i], probes[i].unit});
        if (!probes[i].solo_name.empty()) {
            profile.set_kernel(probes[i].solo_name, {kernel_alone[i], probes[i].unit + ", one processor alone"});
        }
    }

    cost::ProfileMeta& meta = profile.meta();
    meta.host = hostname();
    meta.machine = cpu_model() + ", " + std::to_string(std::thread::hardware_concurrency()) +
                   " hardware threads; llc agreement checks " + (Group::checks_enabled() ? "on" : "off") +
                   (pair_size == 1 ? "; point-to-point measured as messages to oneself (P = 1)" : "");
    meta.mpi_library = mpi_library();
    meta.date = iso_date();
    meta.quick = s.quick;
    meta.world_size = P;
    meta.canary_cpu_s = machine_state.cpu;
    meta.canary_link_s = machine_state.link;
    std::vector<double> links;
    for (const RawSample& sample : out.samples) {
        if (sample.kind == "collective" && sample.p == 2 && sample.link_canary > 0.0) {
            links.push_back(sample.link_canary);
        }
    }
    meta.canary_link_median_s = links.empty() ? 0.0 : quantile(links, 0.5);
    return out;
}

// ---- check ----------------------------------------------------------------------------------------------------------

namespace {

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

}  // namespace

std::vector<CheckRow> check(Group& world,
                            const cost::Profile& profile,
                            const std::vector<RawSample>& fit_samples,
                            const Settings& s,
                            std::vector<RawSample>* remeasured,
                            tools::Canary* machine_state) {
    const int P = world.size();
    const bool root = world.rank() == 0;
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
    const bool p2p = profile.has_point_to_point() && (P >= 2 || profile.meta().world_size == 1);
    const int pair_size = std::min(P, 2);
    Progress progress(root && s.progress, static_cast<double>(ps.size() + (p2p ? 1 : 0)));
    std::vector<CheckRow> rows;
    std::map<std::pair<std::string, int>, CheckRow> by_function;

    const auto reference = reference_medians(fit_samples);
    auto add = [&](const std::string& function, int p, double bytes, double predicted, double measured) {
        CheckRow& row = by_function[{function, p}];
        row.function = function;
        row.p = p;
        row.bytes.push_back(bytes);
        row.errors.push_back(measured > 0.0 ? (predicted - measured) / measured : 0.0);
    };
    auto add_drift = [&](const std::string& function, const Cell& c) {
        const auto it = reference.find({c.op, c.p, c.bytes});
        if (it != reference.end() && it->second > 0.0) {
            CheckRow& row = by_function[{function, c.p}];
            row.function = function;
            row.p = c.p;
            row.drift.push_back((c.median() - it->second) / it->second);
        }
    };

    for (const int p : ps) {
        Group& g = group_of(world, p);
        if (world.rank() < p) {
            progress.phase("check at p = " + std::to_string(p));
            auto bench = std::make_unique<CollectiveBench>(g, s.limits());
            auto division = std::make_unique<DivisionBench>(g, s.max_bytes);
            std::vector<Cell> cells;
            for (const auto& op : measured_collectives()) {
                const auto measured = profile.measured_sizes(op);
                if (std::find(measured.begin(), measured.end(), p) == measured.end()) {
                    continue;
                }
                if (op == names::op::barrier) {
                    cells.push_back(collective_cell(*bench, g, op, 0.0));
                    continue;
                }
                const cost::Piecewise& fit = profile.collective_fit(op, p);
                const double top = std::min(fit.max_bytes(), largest_bytes(op, p, s.limits()));
                double last = -1.0;
                for (const double x : held_out(fit_samples, op, p, fit.min_bytes(), fit.max_bytes(), s.sizes)) {
                    const double h = feasible_bytes(op, p, x);
                    if (h <= top && h > last) {
                        cells.push_back(collective_cell(*bench, g, op, h));
                        last = h;
                    }
                }
                for (const double h : drift_sizes(reference, op, p)) {
                    if (h <= largest_bytes(op, p, s.limits())) {
                        cells.push_back(as_drift(collective_cell(*bench, g, op, h)));
                    }
                }
            }
            const auto dsizes = profile.division_sizes();
            if (std::find(dsizes.begin(), dsizes.end(), p) != dsizes.end()) {
                if (p < 2) {
                    cells.push_back(division_par_cell(*division, p, 8));
                } else {
                    const double factor = division->exchange_bytes(1);
                    const cost::Piecewise& fit = profile.division_fit(p).exchange;
                    std::size_t last = 0;
                    for (const double h :
                         held_out(fit_samples, "division.par", p, fit.min_bytes(), fit.max_bytes(), s.sizes)) {
                        const auto m = static_cast<std::size_t>(std::max(1.0, std::round(h / factor)));
                        if (m > last && static_cast<double>(m) * 2.0 <= s.max_bytes * 1.0001) {
                            cells.push_back(division_par_cell(*division, p, m));
                            last = m;
                        }
                    }
                    for (const double h : drift_sizes(reference, "division.par", p)) {
                        const auto m = static_cast<std::size_t>(std::max(1.0, std::round(h / factor)));
                        if (static_cast<double>(m) * 2.0 <= s.max_bytes * 1.0001) {
                            cells.push_back(as_drift(division_par_cell(*division, p, m)));
                        }
                    }
                }
            }
            std::vector<RawSample> samples;
            std::mt19937_64 rng(s.seed + 7 + static_cast<std::uint64_t>(p));
            Progress quiet(false, 1.0);
            const tools::Canary fastest = run_cells(g.native(), cells, s, rng, quiet, samples);
            if (machine_state != nullptr) {
                note_machine_state(*machine_state, fastest, p);
            }
            if (remeasured != nullptr) {
                remeasured->insert(remeasured->end(), samples.begin(), samples.end());
            }
            for (const Cell& c : cells) {
                if (c.kind == "drift") {
                    add_drift(c.op == "division.par" ? "division" : c.op, c);
                } else if (c.op == "division.par") {
                    add("division", p, c.bytes, profile.division(p, c.bytes).total(), c.median());
                } else {
                    add(c.op, p, c.bytes, profile.collective(c.op, p, c.bytes).seconds, c.median());
                }
            }
            progress.advance();
        }
        sleepy_barrier(world.native());
    }

    if (p2p) {
        Group& pair = group_of(world, pair_size);
        if (world.rank() < pair_size) {
            progress.phase("check of point-to-point");
            auto bench = std::make_unique<PointToPointBench>(pair, s.max_bytes);
            std::vector<Cell> cells;
            for (const Path path : paths) {
                for (const Layout layout : layouts) {
                    const cost::Piecewise& fit = profile.point_to_point(path, layout);
                    double last = 0.0;
                    for (const double x : held_out(fit_samples,
                                                   p2p_name(path, layout),
                                                   pair_size,
                                                   fit.min_bytes(),
                                                   fit.max_bytes(),
                                                   s.sizes)) {
                        const double n = PointToPointBench::payload(x);
                        if (n > last && n <= fit.max_bytes()) {
                            cells.push_back(p2p_cell(*bench, pair_size, path, layout, n));
                            last = n;
                        }
                    }
                    for (const double n : drift_sizes(reference, p2p_name(path, layout), pair_size)) {
                        if (n <= s.max_bytes) {
                            cells.push_back(as_drift(p2p_cell(*bench, pair_size, path, layout, n)));
                        }
                    }
                }
            }
            std::vector<RawSample> samples;
            std::mt19937_64 rng(s.seed + 2000);
            Progress quiet(false, 1.0);
            run_cells(pair.native(), cells, s, rng, quiet, samples);
            if (remeasured != nullptr) {
                remeasured->insert(remeasured->end(), samples.begin(), samples.end());
            }
            const double t_cf = profile.point_to_point(Path::full, Layout::cc)(0.0);
            for (const Cell& c : cells) {
                if (c.kind == "drift") {
                    add_drift(c.op, c);
                    continue;
                }
                for (const Path path : paths) {
                    for (const Layout layout : layouts) {
                        if (c.op == p2p_name(path, layout)) {
                            double predicted = profile.point_to_point(path, layout)(c.bytes);
                            if (path == Path::full) {
                                predicted += t_cf;  // the measured round trip = T_full(n) + t_cf
                            }
                            add(c.op, pair_size, c.bytes, predicted, c.median());
                        }
                    }
                }
            }
            progress.advance();
        }
        sleepy_barrier(world.native());
    }
    progress.finish();
    if (!root) {
        return rows;
    }
    std::map<std::string, CheckRow> summary;
    for (auto& [key, row] : by_function) {
        const bool tight = cost::base_collective(row.function) == names::op::swap || row.function.rfind("p2p.", 0) == 0;
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

}  // namespace llc::probe
