#pragma once
// The measurement cells a calibration and a check build (measure.hpp's Cell), each timing one operation of
// operations.hpp at one group size and one size, and what they share: the groups of the first p ranks, the P-3PC
// paths and layouts, and the machine state their canaries tell.

#include <array>
#include <cstddef>
#include <functional>
#include <string>

#include <llc/cost/profile.hpp>
#include <llc/group.hpp>
#include <llc/tools/timing.hpp>

#include "measure.hpp"
#include "operations.hpp"

namespace llc::probe {

inline constexpr std::array<cost::Path, 3> paths{cost::Path::send, cost::Path::recv, cost::Path::full};
inline constexpr std::array<cost::Layout, 4> layouts{
    cost::Layout::cc, cost::Layout::cn, cost::Layout::nc, cost::Layout::nn};

/// The group of the first p ranks of the world (the world itself for p = P). Collective over the world the first
/// time (llc's subgroup cache).
[[nodiscard]] Group& group_of(Group& world, int p);

/// The profile's name of a P-3PC path with a layout: "p2p.<path>.<layout>".
[[nodiscard]] std::string p2p_name(cost::Path path, cost::Layout layout);

/// A collective `op` of h bytes on `g`, batched as llc::tools' timing rule chooses on its first visit.
[[nodiscard]] Cell collective_cell(CollectiveBench& bench, Group& g, const std::string& op, double h);
/// The split of a division on p processors.
[[nodiscard]] Cell division_split_cell(DivisionBench& bench, int p);
/// A whole division on p processors whose tasks return m bytes each.
[[nodiscard]] Cell division_par_cell(DivisionBench& bench, int p, std::size_t m);
/// A P-3PC path with a layout and a payload of n bytes, between the ranks of a group of p (1 or 2).
[[nodiscard]] Cell p2p_cell(PointToPointBench& bench, int p, cost::Path path, cost::Layout layout, double n);
/// A measurement for a model's fit (ping-pong, back-to-back sends): `body` takes one sample.
[[nodiscard]] Cell model_cell(std::string op, int p, double n, std::function<tools::Sample()> body);

/// Folds a group's fastest canaries into the machine's state: the fastest CPU and throughput canaries of any group
/// (0 = none yet), the link canary of the group of two processors (the pair the P-3PC paths and the validator's P = 2
/// runs use).
void note_machine_state(tools::Canary& state, const tools::Canary& fastest, int p);

}  // namespace llc::probe
