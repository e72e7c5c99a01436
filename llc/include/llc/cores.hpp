#pragma once
/// @file
/// How many cores the processors of a run have, for the tools that tell an oversubscribed run from one that is not
/// (llc-probe, llc-validate).
///
/// Why here: in the default build it is this machine's (sysconf, std::thread::hardware_concurrency). Under SimGrid SMPI
/// (-DLLC_MPI=smpi) every simulated rank runs in one process on the host that runs the simulator, whose cores say
/// nothing of the simulated cluster: the count comes from the platform (SimGrid's API) instead.

namespace llc {

/// Cores of the node this processor runs on: this machine's online cores; under SMPI, the cores of the simulated host
/// the rank runs on.
[[nodiscard]] int node_cores();

/// Cores of the whole machine the job may use: this machine's online cores; under SMPI, the sum of the cores of every
/// host of the simulated platform.
[[nodiscard]] int platform_cores();

}  // namespace llc
