#pragma once
// The algorithms' kernel probes in a calibration: which ones run, and their rounds, spread over the calibration, whose
// medians are the profile's kernel constants.

#include <cstddef>
#include <vector>

#include <llc/cost/kernel_probe.hpp>
#include <llc/group.hpp>

#include "measure.hpp"

namespace llc::probe {

/// The algorithms' kernel probes a calibration with settings `s` runs: all of them, or in quick mode those not
/// full_only; with s.kernels, only those whose key one of its patterns matches.
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes_for(const Settings& s);

/// The kernel probes' values, gathered one round at a time at slots spread over the calibration, and their constants:
/// the median of a probe's rounds (of two: their mean; a quick calibration's probe whose two rounds disagree has a
/// third, the deciding round's). How many rounds, and why spread: kernel_rounds() in
/// kernel_rounds.cpp.
class KernelRounds {
  public:
    /// The rounds of `probes` with settings `s`, spread evenly over `slots` slots (0: before the calibration's first
    /// phase, slots − 1: after its last); no rounds without probes.
    KernelRounds(std::vector<cost::KernelProbe> probes, const Settings& s, int slots);

    [[nodiscard]] const std::vector<cost::KernelProbe>& probes() const { return probes_; }

    /// The progress units of every round: one per probe and one per probe measured alone, each round.
    [[nodiscard]] double work() const;

    /// Runs the rounds due at `slot`, each a phase of `progress`: every probe side by side (together), then the
    /// probes with a solo_name on rank 0 alone; after a quick calibration's last round, its deciding round (the
    /// probes whose two rounds lie more than 1.15× apart, once more: kernel_rounds.cpp). Every rank's values go into
    /// `samples` (kind "kernel", p = the rank, rep = the round; the solo values under the solo names). Collective over
    /// `world`.
    /// @throws AgreedError on every rank if a probe failed or returned a negative or non-finite value on any rank.
    void run_rounds_at(Group& world, int slot, Progress& progress, std::vector<RawSample>& samples);

    /// The constants by probe index, on rank 0 (NaN elsewhere, and for probes never measured).
    [[nodiscard]] std::vector<double> together() const { return medians_of(together_); }
    /// The one-processor-alone constants by probe index (NaN for probes without a solo_name, and off rank 0).
    [[nodiscard]] std::vector<double> alone() const { return medians_of(alone_); }
    /// Rank 0's own side-by-side constants by probe index (NaN off rank 0): what rank 0's processor measured while
    /// every rank ran the probe (or alone, on a crowded node), where together() is the slowest rank's.
    [[nodiscard]] std::vector<double> rank0() const { return medians_of(rank0_); }
    /// Wall and CPU seconds of each probe call this rank made (side by side under the probe's name, alone under its
    /// solo_name), by round.
    [[nodiscard]] const std::vector<TimeSpent>& times() const { return times_; }

  private:
    void run_round(Group& world, int round, Progress& progress, std::vector<RawSample>& samples);
    void run_deciding_round(Group& world, Progress& progress, std::vector<RawSample>& samples);
    void run_together(Group& world,
                      int round,
                      const std::vector<std::size_t>& order,
                      Progress& progress,
                      std::vector<RawSample>& samples);
    void run_alone(Group& world,
                   int round,
                   const std::vector<std::size_t>& order,
                   Progress& progress,
                   std::vector<RawSample>& samples);
    static std::vector<std::size_t> undecided(const std::vector<std::vector<double>>& values,
                                              const std::vector<double>& seconds,
                                              double& budget);
    [[nodiscard]] bool together_in_round(std::size_t i, int round) const;
    static std::vector<double> medians_of(const std::vector<std::vector<double>>& values);

    std::vector<cost::KernelProbe> probes_;
    Settings settings_;
    std::vector<std::vector<double>> together_;  // by probe, the rounds' slowest values (rank 0)
    std::vector<std::vector<double>> alone_;     // by probe, rank 0's solo values
    std::vector<std::vector<double>> rank0_;     // by probe, rank 0's own side-by-side values
    std::vector<int> round_slots_;               // by round, its slot
    double retry_budget_;                        // seconds left for probes run again (kernel_rounds.cpp)
    std::vector<TimeSpent> times_;               // every probe call's time on this rank
    int next_round_ = 0;                         // the first round not run yet
};

}  // namespace llc::probe
