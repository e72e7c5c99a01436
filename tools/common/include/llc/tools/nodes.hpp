#pragma once
/// @file
/// Which ranks share a node: the layout llc-probe records in a profile (meta.nodes) and llc-validate holds a run
/// against. On a cluster the profile's T_f(P) are measured in the placement of its calibrating run; a run placed
/// otherwise (other ranks per node) pays other intra- and inter-node messages than the profile measured.
#include <string>
#include <vector>

#include <mpi.h>

namespace llc::tools {

/// Ranks per node of `comm`, nodes in the order of their lowest rank (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)).
/// Collective over `comm`; the same vector on every rank.
[[nodiscard]] std::vector<int> ranks_per_node(MPI_Comm comm);

/// "" when the layout `run` agrees with the profile's `profile` up to the run's size (the first ranks of a run of
/// fewer ranks fill the same nodes) or when `profile` is empty (a profile older than the record), else one sentence
/// saying how they differ.
[[nodiscard]] std::string node_layout_note(const std::vector<int>& profile, const std::vector<int>& run);

/// "4 × 16" style text of a layout: "[4, 4, 4, 4]" → "4 nodes of 4 ranks", else the list.
[[nodiscard]] std::string describe_layout(const std::vector<int>& nodes);

}  // namespace llc::tools
