#pragma once
// llc-probe's measurement loop: statistics, size grids, the shuffled adaptive repetition of measurement cells, raw
// samples, the progress bar, and the timing of one repetition (barrier, call, max over ranks).

#include <cstdint>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "operations.hpp"

namespace llc::probe {

using tools::median;
using tools::median_rse;
using tools::quantile;

/// How hard to measure (from the command line).
struct Settings {
    bool quick = false;
    double min_bytes = 8;
    double max_bytes = 64.0 * 1024 * 1024;        ///< largest h of the collectives (full mode: 64 MiB, quick: 4 MiB)
    double swap_max_bytes = 256.0 * 1024 * 1024;  ///< largest h of swap, if more than max_bytes (--max-bytes sets both)
    double ladder_max_bytes = 96.0 * 1024 * 1024;  ///< largest h of the other collectives (--max-bytes sets it too)
    int sizes = 32;                                ///< log-uniform sizes in [min_bytes, max_bytes] (quick: 24)
    int min_reps = 15;                             ///< repetitions before the stop rule is consulted
    int max_reps = 5000;        ///< repetition cap of one cell (small operations need many: sub-µs noise)
    double cell_budget = 1.0;   ///< seconds of timed calls one cell may take (then it stops at min_reps)
    double target_rse = 0.025;  ///< stop when the relative standard error of the median is at most this
    int block = 3;  ///< samples per visit of a cell, after an untimed warm-up call (llc::tools' timing rule)
    /// A collective's visit warms up twice when its warm-up call is shorter than this. llc-validate's slices use 2 ms
    /// (slices.hpp), but take 3–12 samples a visit at the sizes where one call lasts 1–10 ms, whose median lies past
    /// the visit's first two; a probe's visit takes 3. Past a single warm-up, the swaps whose calls took 0.8–6 ms
    /// (working sets about the last-level cache: h = 13–41 MB at p = 2, 41–98 MB at p = 1) took 1.2–1.8× the third
    /// sample in their first and 1.08–1.18× in their second (medians over the visits of the three quiet 23:15 demo
    /// calibrations' samples; their warm-up, cold, took more than 2 ms); from 73 MB at p = 2 none (0.99–1.06×).
    double second_warm_up_below = 10e-3;
    std::uint64_t seed = 20240601;  ///< same on every rank: the shuffled order is the same everywhere
    bool progress = true;
    /// --kernels: the kernel probes to run, by fnmatch(3) patterns on their keys ("symv.*"); empty: every probe. A
    /// profile probed under SMPI at the P it prices takes the kernels whose simulated time depends on P this way,
    /// beside the collectives (scripts/scale-validate.sh, LLC_SCALE_KERNELS_AT_P).
    std::vector<std::string> kernels;

    [[nodiscard]] SizeLimits limits() const noexcept { return {max_bytes, swap_max_bytes, ladder_max_bytes}; }
};

// ---- sizes --------------------------------------------------------------------------------------------------------

/// n sizes log-uniform in [lo, hi], rounded to whole bytes, distinct, ascending.
[[nodiscard]] std::vector<double> log_grid(double lo, double hi, int n);
/// `grid` continued past its end with its own ratio (the last two sizes') up to `hi`, which it ends at.
[[nodiscard]] std::vector<double> extended_grid(std::span<const double> grid, double hi);
/// The geometric midpoints of neighbouring sizes (the held-out sizes of --check), rounded, distinct, and not on the
/// grid.
[[nodiscard]] std::vector<double> geometric_midpoints(std::span<const double> grid);

// ---- where the time goes
// ---------------------------------------------------------------------------------------------

/// This thread's CPU seconds so far (CLOCK_THREAD_CPUTIME_ID): under a loaded machine the wall time of a phase says
/// more about the other processes than about the phase, its CPU time much less so (--verbose prints both).
[[nodiscard]] double thread_cpu_seconds();

/// Wall and CPU seconds this rank spent in one phase of a calibration, or in one kernel probe's call.
struct TimeSpent {
    std::string name;
    int round = 0;  ///< kernel probes: the round (phases: 0)
    double wall = 0.0;
    double cpu = 0.0;
};

// ---- progress -----------------------------------------------------------------------------------------------------

/// A progress bar on rank 0, stderr, one line redrawn (at most 10 times a second). When stderr is not a terminal it
/// prints a plain line at every phase and at every 25 %.
class Progress {
  public:
    Progress(bool enabled, double total_units);
    void phase(const std::string& name);
    void advance(double units = 1.0);
    /// The plan grew by `units` (work decided on the way, as the sizes inside the protocol steps a pass crossed).
    void add_work(double units);
    void finish();
    /// Wall and CPU seconds of each phase (from its phase() call to the next, or to finish()), on every rank.
    [[nodiscard]] const std::vector<TimeSpent>& phase_times() const { return phases_; }

  private:
    void draw(bool force);
    void close_phase();
    bool enabled_;
    bool tty_;
    double total_;
    double done_ = 0.0;
    int last_quarter_ = 0;
    double start_;
    double last_draw_ = -1.0;
    std::string phase_;
    std::vector<TimeSpent> phases_;
    double phase_wall_ = 0.0;
    double phase_cpu_ = 0.0;
};

// ---- raw samples --------------------------------------------------------------------------------------------------

/// One timed repetition: kind (collective, division, p2p, model, kernel), operation, group size, bytes, repetition
/// index, seconds.
struct RawSample {
    std::string kind;
    std::string op;
    int p = 0;
    double bytes = 0.0;
    int rep = 0;
    double seconds = 0.0;
    double canary = 0.0;             ///< llc::tools::Canary::cpu of the repetition (0: not recorded)
    double link_canary = 0.0;        ///< llc::tools::Canary::link of the repetition (0: one processor, or not recorded)
    double throughput_canary = 0.0;  ///< llc::tools::Canary::throughput of the repetition (0: not recorded)
};

/// Writes the samples as CSV whole or not at all (temporary file beside it, then rename).
/// @throws llc::Error naming the path if it cannot.
void write_samples_csv(const std::string& path, std::span<const RawSample> samples);
/// Reads a samples CSV (for --check's held-out sizes). Returns no rows if the file is missing.
[[nodiscard]] std::vector<RawSample> read_samples_csv(const std::string& path);
/// "dir/profile.json" → "dir/profile.samples.csv" (any other name: name + ".samples.csv").
[[nodiscard]] std::string samples_path(const std::string& profile_path);

// ---- cells --------------------------------------------------------------------------------------------------------

/// A measurement cell: one operation at one group size and one message size, with the function that takes one sample
/// by llc::tools' timing rule (llc/tools/timing.hpp) and returns its time — the same value on every rank of the group
/// (so every rank takes the same stop decisions without a word).
struct Cell {
    std::string kind;
    std::string op;
    int p = 1;
    double bytes = 0.0;
    std::function<tools::Sample()> time_once;
    std::vector<tools::Sample> samples;
    double spent = 0.0;
    bool done = false;
    double value = 0.0;  ///< the median of the undisturbed samples (llc/tools/timing.hpp), set by run_cells
    /// This rank's wall and CPU seconds in the cell's visits (warm-ups, canaries, barriers, samples), set by run_cells
    /// (--verbose: where a phase's time goes).
    double visit_wall = 0.0;
    double visit_cpu = 0.0;
    [[nodiscard]] double median() const { return value; }
};

/// The visits' time of each cell as a TimeSpent named "<op> p=<p> h=<bytes>" ("p2p.send.cc", "division.par",
/// "model.pingpong": the ops of every kind are distinct), appended to `out` (--verbose sums them by operation and p).
void note_visit_times(std::span<const Cell> cells, std::vector<TimeSpent>& out);

/// Measures the cells in rounds; each round visits every unfinished cell once, in an order shuffled by `rng` (same
/// seed on every rank). A visit is one untimed warm-up call and then settings.block samples back to back — the run of
/// samples llc::tools::sample takes in the other tools, so the profile is measured in the context they measure in;
/// shuffling the visits spreads each cell's samples over the whole calibration (slow drifts of the machine become
/// spread, not bias). Only undisturbed samples (canary within tools::canary_tolerance of the fastest seen on the group)
/// count towards a cell's stop rule and its median (Cell::value), unless a cell has too few of them after 4 × max_reps
/// visits' worth, when all count. Returns the fastest canaries seen (the group's full speed). Cells are measured until
/// each cell has min_reps repetitions and a relative standard error of the median ≤ target_rse, or max_reps, or has
/// spent cell_budget seconds. Collective over the group of the cells (every rank of it builds the same cells in the
/// same order). Appends every repetition to `samples`, advances `progress` per cell done.
tools::Canary run_cells(MPI_Comm comm,
                        std::vector<Cell>& cells,
                        const Settings& settings,
                        std::mt19937_64& rng,
                        Progress& progress,
                        std::vector<RawSample>& samples);

// ---- idle ranks ---------------------------------------------------------------------------------------------
using tools::sleepy_barrier;

}  // namespace llc::probe
