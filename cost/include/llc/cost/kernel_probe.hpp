#pragma once
/// @file
/// The compute constants of the algorithms' kernels (CCM's D, F, C of the FFT, the DP inner step, …) are measured by
/// llc-probe through probes that each algorithm registers: the cost layer knows no algorithm, it only stores
/// "seconds per unit of work" under the probe's name in the Profile.

#include <functional>
#include <string>

namespace llc::cost {

/// One kernel constant: seconds per unit of work, measured on one processor.
struct KernelProbe {
    std::string name;  ///< key in the profile, "<algorithm>.<kernel>", e.g. "fft.leaf"
    std::string unit;  ///< what one unit of work is, e.g. "n*log2(n) of a leaf FFT"
    /// Runs the kernel on this processor alone, at the sizes the algorithm uses, and returns the median seconds per
    /// unit. `quick` asks for a measurement of a few seconds at most.
    std::function<double(bool quick)> measure;
};

}  // namespace llc::cost
