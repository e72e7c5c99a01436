#pragma once
/// @file
/// The kernel probes of every algorithm, for llc-probe: each measures one compute constant ("seconds per unit of
/// work", e.g. "fft.leaf" per n·log2 n) on this processor alone, stored in the Profile under its name and read by the
/// algorithm's cost function.

#include <vector>

#include <llc/cost/kernel_probe.hpp>

namespace llc {

/// Every algorithm's kernel probes (names "<algorithm>.<kernel>", unique).
[[nodiscard]] std::vector<cost::KernelProbe> algorithm_kernel_probes();

}  // namespace llc
