#pragma once
/// @file
/// What every kernel probe needs to time its kernel the same way: the median seconds of one call, and cheap
/// reproducible input values. Header-only (templates); used by the algorithms' probes (algorithms/<name>/src/*_probes).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <llc/clock.hpp>

namespace llc::cost {

/// Median seconds of one call of `body`. One warm-up call (first touch of the output, cold caches), which also sizes
/// the batch: a sample times as many calls as last at least 200 µs (sub-µs kernels are timed accurately), and there
/// are as many samples as fit in the budget (0.15 s quick, 1.5 s full), between 2 and 5 (quick) or 9; a quick probe
/// whose one call takes more than a third of the budget takes one sample, llc-probe's rounds giving it more. A quick
/// probe whose first call takes more than quick_single_call_seconds has that call as its one sample, without a warm-up
/// before it: a call of seconds is not moved by cold caches, and llc-probe keeps freed memory (no first-touch page
/// faults once an earlier call or probe has grown the heap); the warm-up doubled the time of the contour line runs at
/// 2^12, the longest probes of a quick calibration. The median (of two: their mean), as llc-validate takes the median
/// of what it measures: taking the lower median made every probe the faster of its samples, and the constants ran low.
/// A quick probe whose first three samples are settled stops there (quick_settled_samples).
inline constexpr double quick_single_call_seconds = 1.0;

/// A quick probe stops after this many samples when they are settled (below). The median of the five it would take
/// lies between the first three's smallest and largest (two more values move the third smallest of five no further
/// than that), so stopping moves the probe's value by at most their spread. Most of a quick calibration's ~300 probes
/// take five samples of 1–30 ms after the warm-up, and its kernel rounds are most of its time.
inline constexpr std::size_t quick_settled_samples = 3;
/// Relative spread (max − min) / min of the first samples under which a quick probe stops (quick_settled_samples):
/// below the two rounds' usual difference (1–8 % side by side), so stopping moves no constant by more than the rounds
/// already do.
inline constexpr double quick_settled_spread = 0.02;

/// Whether `seconds` lie within quick_settled_spread of their smallest.
inline bool settled(const std::vector<double>& seconds) {
    const auto [lo, hi] = std::minmax_element(seconds.begin(), seconds.end());
    return *hi - *lo <= quick_settled_spread * *lo;
}

template <class Body>
double median_seconds_per_call(bool quick, Body&& body) {
    constexpr double min_sample = 200e-6;
    const double budget = quick ? 0.15 : 1.5;
    const int max_samples = quick ? 5 : 9;
    const double start = clock_seconds();  // llc's one clock (<llc/clock.hpp>): simulated time under SMPI
    body();
    const double once = std::max(clock_seconds() - start, 1e-9);
    if (quick && once > quick_single_call_seconds) {
        return once;
    }
    const auto calls = static_cast<long>(std::ceil(min_sample / once));
    const int samples = quick && 3.0 * once > budget
                            ? 1
                            : std::clamp(static_cast<int>(budget / std::max(once, min_sample)), 2, max_samples);
    std::vector<double> seconds;
    seconds.reserve(static_cast<std::size_t>(samples));
    for (int s = 0; s < samples; ++s) {
        const double t0 = clock_seconds();
        for (long c = 0; c < calls; ++c) {
            body();
        }
        seconds.push_back((clock_seconds() - t0) / static_cast<double>(calls));
        if (quick && seconds.size() == quick_settled_samples && settled(seconds)) {
            break;
        }
    }
    std::sort(seconds.begin(), seconds.end());
    const std::size_t m = seconds.size();
    return m % 2 == 1 ? seconds[m / 2] : 0.5 * (seconds[m / 2 - 1] + seconds[m / 2]);
}

/// Pseudo-random values in [−1, 1) from a seed (splitmix64): cheap enough to fill a probe's 2^24-entry inputs, and
/// the same on every run. Kernels' times do not depend on the values; their inputs should still not be constant.
class ProbeValues {
  public:
    explicit ProbeValues(std::uint64_t seed) : state_(seed) {}
    double operator()() {
        std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
    }

  private:
    std::uint64_t state_;
};

}  // namespace llc::cost
