// The kernel probes' rounds of a calibration (see kernel_rounds.hpp).
#include "kernel_rounds.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <fnmatch.h>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/tools/card.hpp>
#include <llc/tools/timing.hpp>

#include "calibrate.hpp"
#include "machine.hpp"

namespace llc::probe {

namespace {

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

/// How many probes have a solo_name.
std::size_t solo_count(const std::vector<cost::KernelProbe>& probes) {
    return static_cast<std::size_t>(
        std::count_if(probes.begin(), probes.end(), [](const cost::KernelProbe& k) { return !k.solo_name.empty(); }));
}

/// A kernel probe that ran while a processor of its group was slowed — a busy sibling hyperthread, seen by the
/// throughput canary (llc/tools/timing.hpp) before or after it more than tools::throughput_canary_tolerance above the
/// fastest that rank has seen — is run again, up to this many times (then it counts as it is). A side-by-side round's
/// value is its slowest rank's, and one vCPU of this VM kind runs kernels 1.2–1.5× slower for 5 ms to 2 s at a time: a
/// quick profile whose rank 1 kernel values were 1.14× rank 0's (median over 359 probes; p90 1.28×) priced the
/// compute-bound cases of the validation that followed 15–24 % high at p = 2 (2026-11-27 09:11 UTC); with the probes
/// run again, the next quick profile's ratio was 1.009. The canaries do not see a phase that begins and ends inside a
/// probe, nor one that lasts the whole calibration (a profile whose rank 0 ran slowed throughout still came out 0.855),
/// and where the slow phases are long most probes are run three times: a quick calibration took 137 s against 54–61 s.
/// So the runs again share a budget per calibration (kernel_retry_budget_seconds), after which a probe counts as it is.
constexpr int max_kernel_retries = 2;

/// The seconds a calibration's kernel probes may spend being run again (see max_kernel_retries): a quick calibration
/// is to stay within 60 s, and took 54–61 s here without runs again (2026-11-27, 09:10–09:27 UTC).
double kernel_retry_budget_seconds(const Settings& s) {
    return s.quick ? 4.0 : 30.0;
}

/// A quick calibration's two rounds of a probe that lie more than this factor apart caught the host in two states (one
/// processor slowed for part of the calibration: the throughput canary's tolerance, tools::throughput_canary_
/// tolerance, is the same factor), and their mean is neither: of 468 probes with two rounds, 44–57 lay more than 1.15×
/// apart in each of four quick calibrations (2026-11-28), 16–23 more than 1.3× (symv.entry_share_solo.2^9 1.85 and
/// 3.24e-10 s, so a constant of 2.54e-10 and symv's one-processor prices 10–19 % off in either direction from run to
/// run). Such probes run a third time after the last round (the deciding round), and their constant is the median of
/// the three: the state two rounds of three agree on.
constexpr double deciding_factor = 1.15;

/// The seconds of probe calls a deciding round may take (by the probes' calls in the rounds before): the quick
/// calibration is to stay within 60 s.
constexpr double deciding_budget_seconds = 5.0;

/// The throughput canary around one kernel probe, on this rank, against the fastest this rank has seen.
class ThroughputWatch {
  public:
    ThroughputWatch() {
        for (int i = 0; i < 8; ++i) {
            fastest_ = std::min(fastest_, tools::throughput_canary_seconds());
        }
    }
    /// Takes the canary before the probe.
    void start() { before_ = see(); }
    /// Takes the canary after the probe; whether to run it again: this rank or (with `group`, collective over it) any
    /// rank of the group ran slowed before or after it, and no rank's probe failed (its failure is the answer) nor
    /// has spent its `budget_left` (seconds) of runs again.
    [[nodiscard]] bool run_again(MPI_Comm group, bool failed, double budget_left) {
        const double after = see();
        std::array<int, 3> flags{std::max(before_, after) > tools::throughput_canary_tolerance * fastest_ ? 1 : 0,
                                 failed ? 1 : 0,
                                 budget_left <= 0.0 ? 1 : 0};
#if defined(LLC_SMPI)
        flags[0] = 0;  // no throughput canary under SMPI (timing.cpp), and no phases of the host to wait out
#endif
        if (group != MPI_COMM_NULL) {
            MPI_Allreduce(MPI_IN_PLACE, flags.data(), static_cast<int>(flags.size()), MPI_INT, MPI_MAX, group);
        }
        return flags[0] != 0 && flags[1] == 0 && flags[2] == 0;
    }

  private:
    double see() {
        const double v = tools::throughput_canary_seconds();
        fastest_ = std::min(fastest_, v);
        return v;
    }
    double fastest_ = 1e300;
    double before_ = 0.0;
};

/// Runs the probes of `order` (indices into `probes`) once each, in an order shuffled by `seed`, and hands every value
/// to `record(index, value)`, and each call's wall and CPU seconds to `times` (under the key it is stored under, with
/// the round `round`). A probe that ran while a processor was slowed is run again (ThroughputWatch), the runs again
/// taking their wall seconds from `retry_budget`. Returns what failed first (a probe that threw or returned a negative
/// or non-finite value, by the key it is stored under: its solo_name when `solo`), empty if nothing did; no probe runs
/// after a failure. With `side_by_side` (not MPI_COMM_NULL; collective over it), every probe starts on all its ranks at
/// once, as a superstep's processors run its kernel, and a failure on any rank stops all of them before the next probe.
/// Started apart, the ranks drift (each sizes its own samples), and a probe ran beside another one part of the time. No
/// effect on the constants could be told from the host's noise: the reorder's constant at 2^24 came out 1.76 ns an
/// element in one full calibration with the ranks started together, 1.68–2.30 ns in four before.
std::string run_kernel_round(const std::vector<cost::KernelProbe>& probes,
                             std::vector<std::size_t> order,
                             const Settings& s,
                             std::uint64_t seed,
                             bool solo,
                             MPI_Comm side_by_side,
                             Progress& progress,
                             int round,
                             std::vector<TimeSpent>& times,
                             double& retry_budget,
                             const std::function<void(std::size_t i, double value)>& record) {
    std::mt19937_64 rng(seed);
    std::shuffle(order.begin(), order.end(), rng);
    std::string failure;
    ThroughputWatch watch;
    for (const std::size_t i : order) {
        int failed = failure.empty() ? 0 : 1;
        if (side_by_side != MPI_COMM_NULL) {
            MPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_INT, MPI_MAX, side_by_side);
        }
        if (failed != 0) {
            break;
        }
        const std::string& key = solo ? probes[i].solo_name : probes[i].name;
        for (int attempt = 0;; ++attempt) {
            double v = std::numeric_limits<double>::quiet_NaN();
            try {
                const double wall = MPI_Wtime();
                const double cpu = thread_cpu_seconds();
                watch.start();
                v = solo && probes[i].measure_alone ? probes[i].measure_alone(s.quick) : probes[i].measure(s.quick);
                times.push_back({key, round, MPI_Wtime() - wall, thread_cpu_seconds() - cpu});
                if (attempt > 0) {
                    retry_budget -= times.back().wall;
                }
                if (!std::isfinite(v) || v < 0.0) {
                    failure = key + " returned " + std::to_string(v);
                }
            } catch (const std::exception& e) {
                failure = key + ": " + e.what();
            }
            // Every rank of the side-by-side group takes the same branch: the decision is agreed.
            if (attempt < max_kernel_retries && watch.run_again(side_by_side, !failure.empty(), retry_budget)) {
                continue;
            }
            if (failure.empty()) {
                record(i, v);
                progress.advance();
            }
            break;
        }
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

}  // namespace

/// The algorithms' kernel probes a calibration with settings `s` runs: all of them, or in quick mode those not
/// full_only; with s.kernels, only those whose key one of its patterns matches.
std::vector<cost::KernelProbe> kernel_probes_for(const Settings& s) {
    std::vector<cost::KernelProbe> probes = tools::all_probes();
    if (s.quick) {
        std::erase_if(probes, [](const cost::KernelProbe& k) { return k.full_only; });
    }
    if (!s.kernels.empty()) {
        std::erase_if(probes, [&](const cost::KernelProbe& k) {
            return std::none_of(s.kernels.begin(), s.kernels.end(), [&](const std::string& pattern) {
                return fnmatch(pattern.c_str(), k.name.c_str(), 0) == 0;
            });
        });
    }
    return probes;
}

KernelRounds::KernelRounds(std::vector<cost::KernelProbe> probes, const Settings& s, int slots)
    : probes_(std::move(probes)),
      settings_(s),
      together_(probes_.size()),
      alone_(probes_.size()),
      rank0_(probes_.size()),
      round_slots_(probes_.empty() ? std::vector<int>{} : kernel_round_slots(kernel_rounds(s), slots)),
      retry_budget_(kernel_retry_budget_seconds(s)) {}

double KernelRounds::work() const {
    const auto rounds = static_cast<double>(kernel_rounds(settings_));
    double units = static_cast<double>(probes_.size() + solo_count(probes_)) * rounds;
    for (std::size_t i = 0; i < probes_.size(); ++i) {
        if (!together_in_round(i, 0)) {
            units -= (rounds - 1.0) * (probes_[i].solo_name.empty() ? 1.0 : 2.0);  // side by side and alone: one round
        }
    }
    return units;
}

/// Whether probe i runs side by side in round `round`, and alone when it has a solo_name: every probe in every round,
/// but in a quick calibration a quick_one_round probe in the last round only (after the collectives: the heap has
/// grown, so its one call, which has no warm-up, pays no first-touch page faults). Alone, the contour line runs at
/// 2^12 took 2 × (2.2 + 1.3 + 0.7) s of a quiet quick calibration (17:14 demo profile) while the other ranks slept;
/// their two rounds there: cr.edge_run_solo 2.43 / 2.06 s a call (17 % apart), quarter 1.31 / 1.28, sparse
/// 0.70 / 0.74 (2–7 %), so one round moves the edge constant by up to ±8 % from the two rounds' mean.
bool KernelRounds::together_in_round(std::size_t i, int round) const {
    return !(settings_.quick && probes_[i].quick_one_round) || round == kernel_rounds(settings_) - 1;
}

void KernelRounds::run_rounds_at(Group& world, int slot, Progress& progress, std::vector<RawSample>& samples) {
    while (next_round_ < static_cast<int>(round_slots_.size()) && round_slots_[next_round_] == slot) {
        progress.phase("kernel probes, round " + std::to_string(next_round_ + 1) + " of " +
                       std::to_string(round_slots_.size()));
        run_round(world, next_round_, progress, samples);
        ++next_round_;
        if (settings_.quick && next_round_ == static_cast<int>(round_slots_.size()) && round_slots_.size() == 2) {
            run_deciding_round(world, progress, samples);
        }
    }
}

/// On rank 0: the probes (by index) whose two rounds in `values` lie more than deciding_factor apart, the widest apart
/// first, as many as deciding_budget_seconds of their calls (`seconds`, by index) allow.
std::vector<std::size_t> KernelRounds::undecided(const std::vector<std::vector<double>>& values,
                                                 const std::vector<double>& seconds,
                                                 double& budget) {
    std::vector<std::pair<double, std::size_t>> apart;
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (values[i].size() == 2) {
            const double low = std::min(values[i][0], values[i][1]);
            const double high = std::max(values[i][0], values[i][1]);
            if (low > 0.0 && high > deciding_factor * low) {
                apart.emplace_back(high / low, i);
            }
        }
    }
    std::sort(apart.begin(), apart.end(), std::greater<>());
    std::vector<std::size_t> out;
    for (const auto& [ratio, i] : apart) {
        if (seconds[i] <= budget) {
            budget -= seconds[i];
            out.push_back(i);
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// The deciding round of a quick calibration (deciding_factor): the probes whose two rounds disagree, side by side and
/// alone as they disagreed, once more; the lists are rank 0's, broadcast. Collective over `world`.
void KernelRounds::run_deciding_round(Group& world, Progress& progress, std::vector<RawSample>& samples) {
    std::vector<std::size_t> together;
    std::vector<std::size_t> alone;
    if (world.rank() == 0) {
        // Each probe's seconds a call, side by side and alone, from rank 0's calls of the two rounds.
        std::vector<double> together_seconds(probes_.size(), 0.0);
        std::vector<double> alone_seconds(probes_.size(), 0.0);
        for (const TimeSpent& t : times_) {
            for (std::size_t i = 0; i < probes_.size(); ++i) {
                if (t.name == probes_[i].name) {
                    together_seconds[i] = std::max(together_seconds[i], t.wall);
                } else if (!probes_[i].solo_name.empty() && t.name == probes_[i].solo_name) {
                    alone_seconds[i] = std::max(alone_seconds[i], t.wall);
                }
            }
        }
        double budget = deciding_budget_seconds;
        together = undecided(together_, together_seconds, budget);
        alone = undecided(alone_, alone_seconds, budget);
    }
    const auto share = [&](std::vector<std::size_t>& list) {
        auto size = static_cast<unsigned long long>(list.size());
        MPI_Bcast(&size, 1, MPI_UNSIGNED_LONG_LONG, 0, world.native());
        list.resize(static_cast<std::size_t>(size));
        MPI_Bcast(list.data(), static_cast<int>(list.size()), MPI_UNSIGNED_LONG_LONG, 0, world.native());
    };
    static_assert(sizeof(std::size_t) == sizeof(unsigned long long));
    share(together);
    share(alone);
    if (together.empty() && alone.empty()) {
        return;
    }
    progress.phase("kernel probes, deciding round (" + std::to_string(together.size() + alone.size()) + " probes)");
    progress.add_work(static_cast<double>(together.size() + alone.size()));
    const int round = static_cast<int>(round_slots_.size());
    run_together(world, round, together, progress, samples);
    run_alone(world, round, alone, progress, samples);
}

/// Round `round` of every probe side by side (together), then of the probes with a solo_name on rank 0 alone.
void KernelRounds::run_round(Group& world, int round, Progress& progress, std::vector<RawSample>& samples) {
    std::vector<std::size_t> together;
    std::vector<std::size_t> alone;
    for (std::size_t i = 0; i < probes_.size(); ++i) {
        if (together_in_round(i, round)) {
            together.push_back(i);
            if (!probes_[i].solo_name.empty()) {
                alone.push_back(i);
            }
        }
    }
    run_together(world, round, together, progress, samples);
    run_alone(world, round, alone, progress, samples);
}

/// Every probe on every rank at once unless the node is crowded (then rank 0 alone). The round's value is the
/// slowest rank's: the ranks run the kernel side by side as an algorithm's processors do, and a superstep lasts as
/// long as its slowest processor (two ranks measured the same stride-2 leaf of 2^17 at 2.57 and 2.12 ms in one
/// round, 2.20 and 1.96 in another).
void KernelRounds::run_together(Group& world,
                                int round,
                                const std::vector<std::size_t>& order,
                                Progress& progress,
                                std::vector<RawSample>& samples) {
    const int P = world.size();
    const bool root = world.rank() == 0;
    const std::size_t count = probes_.size();
    std::vector<double> mine(count, std::numeric_limits<double>::quiet_NaN());  // NaN: not run here
    std::string failure;
    const bool all_run = !crowded(world);
    if (all_run || root) {
        failure = run_kernel_round(probes_,
                                   order,
                                   settings_,
                                   settings_.seed + 2000 + static_cast<std::uint64_t>(round),
                                   false,
                                   all_run ? world.native() : MPI_COMM_NULL,
                                   progress,
                                   round,
                                   times_,
                                   retry_budget_,
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
        if (std::isfinite(all[i])) {
            rank0_[i].push_back(all[i]);  // rank 0's row of the gather
        }
    }
}

/// The probes of `order` (each with a solo_name) on rank 0 while the other ranks sleep (sleepy_barrier).
void KernelRounds::run_alone(Group& world,
                             int round,
                             const std::vector<std::size_t>& order,
                             Progress& progress,
                             std::vector<RawSample>& samples) {
    std::string failure;
    if (world.rank() == 0) {
        failure = run_kernel_round(probes_,
                                   order,
                                   settings_,
                                   settings_.seed + 3000 + static_cast<std::uint64_t>(round),
                                   true,
                                   MPI_COMM_NULL,
                                   progress,
                                   round,
                                   times_,
                                   retry_budget_,
                                   [&](std::size_t i, double v) {
                                       alone_[i].push_back(v);
                                       samples.push_back({"kernel", probes_[i].solo_name, 0, 0.0, round, v});
                                   });
    }
    agree_on_kernel_failure(world, failure, "on rank 0");
}

std::vector<double> KernelRounds::medians_of(const std::vector<std::vector<double>>& values) {
    std::vector<double> out(values.size(), std::numeric_limits<double>::quiet_NaN());
    for (std::size_t i = 0; i < values.size(); ++i) {
        if (!values[i].empty()) {
            out[i] = median(values[i]);
        }
    }
    return out;
}

}  // namespace llc::probe
