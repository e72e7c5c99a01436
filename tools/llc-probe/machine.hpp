#pragma once
// What llc-probe records about the machine it measures: the profile's description of it (host, CPU, MPI library,
// date) and whether its nodes are crowded.

#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

namespace llc::probe {

/// Whether more ranks share this node than it has cores (then only rank 0 runs the kernel probes). Collective over
/// `world`. The node's cores: set_node_cores's, else llc::node_cores() (under SMPI the simulated host's).
[[nodiscard]] bool crowded(Group& world);

/// The cores of a node, from llc-probe --cores (0: llc::node_cores()).
void set_node_cores(int cores) noexcept;

/// Fills the machine's description in `meta`: host, machine (CPU model, hardware threads, whether llc's agreement
/// checks are on, and with `pair_size` 1 that the point-to-point paths are messages to oneself), MPI library, date.
void describe_machine(cost::ProfileMeta& meta, int pair_size);

}  // namespace llc::probe
