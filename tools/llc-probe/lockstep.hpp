#pragma once
// llc-probe's lockstep probe: how much longer than the mean processor's the slowest processor's step is when p
// processors each do the same work and synchronise at every step (cost/lockstep.hpp prices lockstep steps with it).

#include <map>

#include <mpi.h>

namespace llc::probe {

/// The step lengths measured, as exponents e of 2^e nanoseconds of work: from a short pipeline step (2 µs: a segment of
/// the demo's 256² chamfer and path planning maps at P = 2 can take less than the 8 µs the table began at, and was
/// priced at that end's excess) to a long local pass (2 ms).
inline constexpr int lockstep_min_exponent = 11;
inline constexpr int lockstep_max_exponent = 21;

/// The lockstep excess E[max] / E[mean] − 1 on the processors of `comm` (two or more), by step exponent e: every
/// processor does the same ~2^e ns of cache-resident work per step, after a barrier, in three rounds over the step
/// lengths; steps where the mean processor ran slower than 1.3 × the median step (the whole machine in a slow phase,
/// which the tools' canaries leave out of every measurement) are not counted. The same result on every rank.
/// Collective over `comm`.
[[nodiscard]] std::map<int, double> measure_lockstep(MPI_Comm comm, bool quick);

}  // namespace llc::probe
