#pragma once
/// @file
/// The compute constants of the algorithms' kernels (CCM's D, F, C of the FFT, the DP inner step, …) are measured by
/// llc-probe through probes that each algorithm registers: the cost layer knows no algorithm, it only stores
/// "seconds per unit of work" under the probe's name in the Profile.

#include <cstdint>
#include <functional>
#include <string>

namespace llc::cost {

/// One kernel constant: seconds per unit of work, measured on one processor.
///
/// llc-probe runs `measure` on every processor of a node at once, as an algorithm's processors run their kernels side
/// by side, and stores the slowest processor's time under `name`. A kernel that also runs while the other processors
/// of the node are idle — the serial path of a one-processor run — names a second key, `solo_name`, under which
/// llc-probe stores its time on one processor while the others sleep: the processors share the last-level cache and
/// the memory, and with only the side-by-side constants one validation run here priced its one-processor FFTs up to
/// 83 % high.
struct KernelProbe {
    std::string name;  ///< key in the profile, "<algorithm>.<kernel>", e.g. "fft.leaf"
    std::string unit;  ///< what one unit of work is, e.g. "n*log2(n) of a leaf FFT"
    /// Runs the kernel on this processor, at the sizes the algorithm uses, and returns the median seconds per unit.
    /// `quick` asks for a measurement of a few seconds at most.
    std::function<double(bool quick)> measure;
    std::string solo_name{};  ///< key of the time alone on the node; empty: not measured alone
    /// Measured only by a full calibration (not `llc-probe --quick`): the largest sizes, whose probes take about a
    /// second each (a quick profile prices them with the constant of the largest size it has).
    bool full_only = false;
    /// A quick calibration measures it in its last round only, side by side and (with a solo_name) alone: a probe
    /// whose one call lasts seconds, whose rounds differed by a few percent side by side and by 2–17 % alone (the
    /// contour line runs at 2^12, a quarter of a quick calibration's time before).
    bool quick_one_round = false;
    /// The seed of the random input the probe measures on (0: none: a fixed pattern, or contents that do not change
    /// the time). Never a validation case's seed: the calibration must not see a validated input.
    std::uint64_t seed = 0;
    /// Set when the probe times a whole run of an algorithm rather than a kernel of it: the name of the card whose
    /// validation cases that run is ("fft", "matrix-chain"), and the problem size it runs, in those cases' unit.
    /// None of that card's cases validates that size (tests/tools/calibration_disjoint_test.cpp).
    std::string whole_run_of{};
    std::int64_t whole_run_size = 0;
    /// What runs alone, when it is not one processor's share of a P-processor run (empty: `measure`): symv's product
    /// at P = 1 reads other rows, in other segments, than one rank's share at P = 2 does. Last, as the probes list
    /// the fields above in order.
    std::function<double(bool quick)> measure_alone{};
};

}  // namespace llc::cost
