#pragma once
/// @file
/// The llc layer's operation names, declared once: the names under which llc-probe measures the collectives (the keys
/// of a profile's "collectives"), the cost layer prices them (Expr::normal's f, Model::collective), and the llc
/// layer's cards validate them (the collectives' and broadcasts' case names, llc/card).
///
/// The llc layer's trace records the same names (llc/group.hpp, llc/src/broadcast.cpp, llc/par.hpp) but does not
/// include this header: the llc library does not depend on the cost layer. The join is checked where the two meet:
/// llc-validate holds each case's trace against its Expr superstep by superstep (cost::compare notes a superstep whose
/// operation differs).
///
/// Dependency-free, so that every layer above llc can include it.

#include <array>

namespace llc::names::op {

// The set F (cost::standard_collectives): llc::Group's collectives.
inline constexpr const char* bcast = "bcast";
inline constexpr const char* reduce = "reduce";
inline constexpr const char* allreduce = "allreduce";
inline constexpr const char* gather = "gather";
inline constexpr const char* allgather = "allgather";
inline constexpr const char* scatter = "scatter";
inline constexpr const char* alltoall = "alltoall";
inline constexpr const char* barrier = "barrier";
inline constexpr const char* swap = "swap";    ///< the exchange between partners (Group::swap)
inline constexpr const char* shift = "shift";  ///< one step of a ring (Group::shift)

// The v-variants: recorded under their own names, priced as their regular form (cost::canonical_collective).
inline constexpr const char* gatherv = "gatherv";
inline constexpr const char* allgatherv = "allgatherv";
inline constexpr const char* scatterv = "scatterv";
inline constexpr const char* alltoallv = "alltoallv";

// Seidel's broadcasts (llc::bcast with Bcast::binomial, bidirectional, recursive_halving): measured and priced under
// their own names.
inline constexpr const char* bcast_st = "bcast.st";
inline constexpr const char* bcast_bst = "bcast.bst";
inline constexpr const char* bcast_rh = "bcast.rh";

// Measured variants: the swap of data out of the caches (cost::cold_suffix), the same with the sender's data on the
// allocator's ordinary pages (cost::heap_suffix: a caller's std::vector, where swap.cold sends from huge pages), the
// split-phase shift
// (cost::overlap_suffix, Group::shift_start … wait) and the shift of a message its sender has just written
// (cost::written_suffix: its lines dirty in the sender's cache, as a ring pipeline's computed trapezoids are).
inline constexpr const char* swap_cold = "swap.cold";
inline constexpr const char* swap_cold_heap = "swap.cold.heap";
inline constexpr const char* shift_overlap = "shift.overlap";
inline constexpr const char* shift_written = "shift.written";
// The swap between partners far apart (cost::far_suffix): r with r xor the largest power of two below P, where swap
// pairs r with r xor 1; on a cluster the one pairing crosses nodes where the other does not (cost/partners.hpp).
inline constexpr const char* swap_far = "swap.far";

/// What llc-probe measures beyond the set F (cost::standard_collectives), each under its own name in the profile:
/// Seidel's broadcasts and the measured variants.
inline constexpr std::array<const char*, 8> measured_beyond_f{
    bcast_st, bcast_bst, bcast_rh, swap_cold, swap_cold_heap, shift_overlap, shift_written, swap_far};

// The lockstep spread (llc-probe, cost::lockstep_seconds): on P processors that each do the same work W and then
// synchronise, every step lasts as long as the slowest of them. "lockstep.excess.p<P>.2^e" holds, per group size P,
// the measured excess of the slowest processor's step over the mean processor's, E[max] / E[mean] − 1, for steps of
// about 2^e nanoseconds of work (a dimensionless constant, stored as a kernel constant per unit).
inline constexpr const char* lockstep_excess = "lockstep.excess";

// Divisions: the operation of a division superstep, in the trace and in Expr::division / Expr::weighted_division.
inline constexpr const char* par = "par";
inline constexpr const char* weighted_par = "weighted_par";

}  // namespace llc::names::op
