#pragma once
/// @file
/// Which ranks share a node: the layout llc-probe records in a profile (meta.nodes) and llc-validate holds a run
/// against. On a cluster the profile's T_f(P) are measured in the placement of its calibrating run; a run placed
/// otherwise (other ranks per node) pays other intra- and inter-node messages than the profile measured.
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

namespace llc::tools {

/// The node of each rank of `comm` (MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)), nodes numbered 0, 1, … in the order
/// of their lowest rank: [0, 0, 1, 1] is two nodes of two ranks placed in turn, [0, 1, 0, 1] round-robin. Collective
/// over `comm`; the same vector on every rank.
[[nodiscard]] std::vector<int> node_of_rank(MPI_Comm comm);

/// Ranks per node of `comm`, nodes in the order of their lowest rank (node_of_rank counted). Collective over `comm`;
/// the same vector on every rank.
[[nodiscard]] std::vector<int> ranks_per_node(MPI_Comm comm);

/// Ranks per node of a placement as node_of_rank gives it (the count of each node number, in order). Local.
[[nodiscard]] std::vector<int> ranks_per_node_of(std::span<const int> placement);

/// "" when the layout `run` agrees with the profile's `profile` up to the run's size (the first ranks of a run of
/// fewer ranks fill the same nodes) or when `profile` is empty (a profile older than the record), else one sentence
/// saying how they differ.
[[nodiscard]] std::string node_layout_note(const std::vector<int>& profile, const std::vector<int>& run);

/// "4 × 16" style text of a layout: "[4, 4, 4, 4]" → "4 nodes of 4 ranks", else the list.
[[nodiscard]] std::string describe_layout(const std::vector<int>& nodes);

}  // namespace llc::tools
