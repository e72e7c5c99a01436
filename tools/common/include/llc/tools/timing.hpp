#pragma once
/// @file
/// The one timing rule of the llc tools. llc-probe calibrates the profile with it (and re-measures with it in
/// --check); llc-validate, llc-run and llc-compare measure with it — so what the profile predicts is what the other
/// tools measure, taken the same way.
///
/// A *sample* of an operation that runs on every rank of a communicator: barrier, then `batch` back-to-back calls
/// timed on every rank; the sample is the largest time over the ranks divided by `batch` — the same value on every
/// rank, so every rank takes the same decisions from it without a word. A *run* of samples of one operation starts
/// with an untimed warm-up call (first touch of the buffers, lazy connections, a cache that holds the previous
/// operation's data) and takes its samples back to back: what a superstep pays when it repeats.
///
/// Every sample also carries the *canaries* of the moment, taken on every rank just before the barrier: the time of
/// a fixed CPU-bound loop, and on two or more processors the time of an 8-byte exchange around a ring (the slowest
/// rank's of each). This virtual machine alternates, for a fraction of a second to seconds at a time, between full
/// speed and phases where CPU-bound code runs ~1.85× slower (a 20 ns call measures 21 ns, then 38 ns, then 21 ns
/// again, with nothing else running in the VM): the host's other load. No model of an algorithm can predict those
/// phases, and a median over samples that mix them flips between the two speeds from one run to the next. So the tools
/// keep the samples whose CPU canary is within canary_tolerance of the fastest seen (SpeedReference) and report the
/// undisturbed median beside the raw one.
///
/// The CPU canary is a dependent chain: it sees the host taking the processor away, and a slower clock, but not the
/// other thing this VM kind does to a processor. A vCPU whose physical core's other hyperthread is busy with another
/// guest keeps its latency and loses issue slots: in thread CPU time, pinned with taskset, one vCPU at a time ran a
/// multiply-accumulate pass over 16 KiB 1.3–1.5× slower (min of three passes), a 16 KiB multiply loop 1.4–1.5×, the
/// EDT's row pass 1.45×, while the dependent chain moved 1.02–1.10×; the slow phases came and went within 5 ms to
/// 2 s, on either vCPU, and the fast state's passes lay within ±3 % (2026-11-27, a Zen 5 Firecracker VM). So every
/// sample also carries a *throughput* canary — independent chains of multiply-adds and xorshifts, the slowest
/// rank's (the same loop moved 1.27–1.37× there) — and is disturbed
/// when it runs more than throughput_canary_tolerance slower than the fastest seen: on two processors, a step that
/// waits for the slowed one.
///
/// The link canary is recorded, not used to filter. The host also moves the two processors nearer or farther apart:
/// an 8-byte exchange takes 0.2–0.3 µs in one state and 0.4–0.6 µs in the other, switching within a run and from one
/// run to the next, and its effect on an operation is no fixed factor (a non-contiguous 400 KB send took 31 µs in one
/// run and 79 µs in the next, link canaries 0.29 and 0.63 µs, while a contiguous 400 KB swap took 27 and 23 µs).
/// Filtering on it (tried, at 1.5× the fastest) stretched a quick calibration from 5 s to 53 s and did not bring
/// calibration and check closer. The profile keeps the canaries of its calibration, and llc-probe --check and
/// llc-validate print theirs beside them, so a reader sees when a comparison crossed states.

#include <functional>
#include <limits>
#include <vector>

#include <mpi.h>

namespace llc::tools {

/// One processor batches calls until a sample lasts at least this long.
inline constexpr double min_sample_seconds = 10e-6;
/// The most calls one sample batches.
inline constexpr int max_batch = 4096;

/// A sample is disturbed when its CPU canary is slower than the fastest seen by more than this factor…
inline constexpr double canary_tolerance = 1.3;
/// … or its link canary by more than this one: by default none (the link canary is a record; see above) …
inline constexpr double link_tolerance = std::numeric_limits<double>::infinity();
/// … or its throughput canary by more than this one: the fast state lies within ±3 %, a busy sibling hyperthread
/// costs 1.3–1.5× (see above).
inline constexpr double throughput_canary_tolerance = 1.15;
/// A side-by-side calibration whose ranks' kernel medians differ by more than this factor (rank_ratio over its kernel
/// probes, statistics.hpp) ran one processor slowed through much of it, and its side-by-side constants (the slowest
/// rank's) price p > 1 at that processor's speed. The canaries compare a rank with the fastest it has seen, so they
/// miss a slow phase that lasts the whole calibration. Of 16 quick calibrations on two identical vCPUs (2026-11-27),
/// 8 came out within 5 % (5 within 1 %) and 8 at 0.80–0.89 or 1.14–1.20; the fast state's passes lie within ±3 %.
/// llc-probe records the ratio in the profile and --inspect exits 4 beyond this factor; scripts/demo.sh then
/// calibrates once more.
inline constexpr double processors_even_tolerance = 1.10;

/// How fast the machine runs at a moment: seconds of a fixed CPU-bound loop, of an 8-byte exchange with the
/// neighbours on a ring (0 on one processor), and of a pass of independent multiply-adds (0 when not taken).
struct Canary {
    double cpu = 0.0;
    double link = 0.0;
    double throughput = 0.0;
};

/// Seconds of a fixed CPU-bound loop (a dependent chain of integer operations, about 4 µs at full speed) on this
/// processor: how fast it runs right now.
[[nodiscard]] double canary_seconds();

/// Seconds of the fastest of two passes of eight independent chains of multiply-adds and xorshifts (about 2 µs a pass
/// at full speed): how many instructions a cycle this processor issues right now, which a busy sibling hyperthread
/// lowers while canary_seconds() hardly moves.
[[nodiscard]] double throughput_canary_seconds();

/// This rank's canaries on `comm` (the link part: the second of two ring exchanges, so that the first absorbs the
/// ranks' skew). Collective over `comm`.
[[nodiscard]] Canary measure_canary(MPI_Comm comm);

/// One timed sample: seconds per call (the slowest rank's) and the canaries just before it (the slowest rank's).
struct Sample {
    double seconds = 0.0;
    Canary canary;
};

/// The fastest canaries seen on a communicator: the full-speed reference. Fed only with agreed values
/// (Sample::canary), so every rank of the communicator holds the same reference and takes the same decisions.
class SpeedReference {
  public:
    /// How much slower than the fastest canaries a sample may be and still count as undisturbed.
    explicit SpeedReference(double cpu_tolerance = canary_tolerance,
                            double link_tolerance_factor = link_tolerance,
                            double throughput_tolerance = throughput_canary_tolerance) noexcept
        : cpu_tolerance_(cpu_tolerance),
          link_tolerance_(link_tolerance_factor),
          throughput_tolerance_(throughput_tolerance) {}
    /// Takes `count` canary samples on every rank of `comm` (max over ranks each) and keeps the fastest. Collective
    /// over `comm`.
    void calibrate(MPI_Comm comm, int count = 32);
    void see(const Canary& canary) noexcept;
    /// Lowers the reference to the fastest over the ranks of `comm` (after ranks have seen different samples).
    /// Collective over `comm`.
    void agree(MPI_Comm comm);
    [[nodiscard]] bool undisturbed(const Canary& canary) const noexcept;
    [[nodiscard]] const Canary& fastest() const noexcept { return fastest_; }

  private:
    double cpu_tolerance_;
    double link_tolerance_;
    double throughput_tolerance_;
    Canary fastest_{1e300, 1e300, 1e300};
};

/// The seconds of the undisturbed samples under `reference` (all of them if fewer than `at_least` are undisturbed,
/// with *all_kept = true then).
[[nodiscard]] std::vector<double> undisturbed_seconds(const std::vector<Sample>& samples,
                                                      const SpeedReference& reference,
                                                      std::size_t at_least,
                                                      bool* all_kept = nullptr);
/// The seconds of every sample.
[[nodiscard]] std::vector<double> all_seconds(const std::vector<Sample>& samples);

/// One sample: canaries, barrier, `batch` calls of `body`; the largest time over the ranks / batch and the largest
/// canaries. Collective over `comm`.
[[nodiscard]] Sample time_sample(MPI_Comm comm, int batch, const std::function<void()>& body);

/// As time_sample, but only rank `who`'s clock counts (a point-to-point path timed at one end); the same value on
/// every rank. Collective over `comm`.
[[nodiscard]] Sample time_sample_on_rank(MPI_Comm comm, int who, int batch, const std::function<void()>& body);

/// The warm-up of a run of samples, which also picks its batch. On two or more processors: one untimed call, and a
/// batch of 1 — one call after a barrier, the latency a superstep pays (back-to-back calls of a collective overlap,
/// and their mean would be its throughput instead). On one processor a collective is a local copy that can take less
/// than 100 ns — a few reads of the clock — so there the batch doubles from 1 until a sample of it lasts at least
/// min_sample_seconds (at most max_batch calls): the clock's own cost then weighs less than 1 % per call. (Sizing the
/// batch from one call would not do: a cold first call gives a small batch, and the clock's cost then doubles a
/// 20 ns operation.) Same value on every rank of `comm`. Collective over `comm`.
/// `seconds`, when given, receives the time the warm-up took (agreed: the same on every rank).
[[nodiscard]] int warm_up_and_choose_batch(MPI_Comm comm, const std::function<void()>& body, double* seconds = nullptr);

/// The batch by doubling, on any group: `take(batch)` takes one sample of `batch` calls (agreed over the ranks), and
/// the batch doubles from 1 until a sample lasts at least min_sample_seconds (at most max_batch); the first sample is
/// the warm-up. For operations whose back-to-back calls do not overlap into a throughput — a point-to-point message
/// matched one by one, timed at one end (llc-probe's P-3PC paths, whose sends and receives take 0.1–0.5 µs).
[[nodiscard]] int choose_batch_by_doubling(const std::function<Sample(int batch)>& take);

/// Ranks that take no part in a measurement wait here without spinning (MPI_Ibarrier polled with 0.5 ms sleeps)
/// while the others measure; the measuring ranks call it when done. An MPI barrier or reduction would spin, and a
/// spinning rank takes from the measuring ones what an idle processor of the same run would not (a shared core's
/// issue slots, on this VM possibly). Collective over `comm`. Under SimGrid SMPI (LLC_SMPI) the 0.5 ms sleeps are
/// simulated, not slept on the host: SMPI interposes the nanosleep that std::this_thread::sleep_for calls (SimGrid
/// 3.32 here: a 300 ms sleep_for took 0.3000 s simulated and 0.0002 s of host time), so the waiting ranks do not stall
/// the simulator; tests/smpi/sleepy_barrier_test.cpp holds it.
void sleepy_barrier(MPI_Comm comm);

/// When a run of samples stops: after at least `min_samples`, once `budget_seconds` of samples are spent or the
/// relative standard error of the median is at most `target_rse` (0: no such stop), and at `max_samples` in any case.
/// A short operation also runs until `min_seconds` of timed calls are spent, up to `max_short_samples` samples: three
/// samples of a 20 µs collective are 60 µs of the machine, and a median of so short a stretch follows whichever
/// hiccup of the host fell into it (the rounds of such points lay 7–12 % apart on a quiet VM).
struct SamplingRule {
    int min_samples = 5;
    int max_samples = 25;
    double budget_seconds = 0.15;
    double target_rse = 0.0;
    double min_seconds = 0.0;   ///< timed seconds a run takes at least (0: no minimum)
    int max_short_samples = 0;  ///< the cap while min_seconds is not reached (below max_samples: max_samples)
    /// The warm-up's time counts towards budget_seconds: llc-validate's slices (one round's budget shared among three
    /// visits, each with its own warm-up) then take about the time one visit took, not three warm-ups more.
    bool budget_counts_warm_up = false;
    /// A warm-up shorter than this (seconds, agreed over the ranks) is followed by a second one — one more sample's
    /// worth of calls, untimed — before the first sample (0: never). Why: the first sample after a one-call warm-up
    /// still pays for the switch from the previous measurement. For llc-validate's collectives at p = 2 it took
    /// 1.0–1.3× the later samples' median at 64 B–64 KiB and 1.5–2.5× at 2 MiB (one interleaved run, loaded machine);
    /// in a quiet calibration (llc-probe's visits of three samples) the first took 1.06× and 1.14× the other two. A
    /// visit of 3–12 samples (llc-validate's slices, sizes of 1 MiB and more) counts that one sample a third to a
    /// twelfth; a run of milliseconds no longer shows it.
    double second_warm_up_below = 0.0;
};

/// A run of samples of `body` on `comm`: the warm-up that picks the batch (warm_up_and_choose_batch), then samples
/// until `rule` stops, counting only undisturbed samples under `reference` towards min_samples and the relative
/// standard error — until 4 × max_samples samples or 4 × the budget, after which the disturbed ones count too. Every
/// sample's canary feeds `reference`. Same values on every rank. Collective over `comm`.
[[nodiscard]] std::vector<Sample> sample(MPI_Comm comm,
                                         const std::function<void()>& body,
                                         const SamplingRule& rule,
                                         SpeedReference& reference);

}  // namespace llc::tools
