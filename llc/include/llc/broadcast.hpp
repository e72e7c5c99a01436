#pragma once
/// @file
/// llc::bcast: Seidel's broadcasts (<llc/bcast_schedule.hpp>) run over point-to-point MPI.
///
/// llc::bcast executes the schedule of its algorithm, one round after another, with non-blocking sends and receives
/// on the group's communicator. Packets always land at their final place in the buffer; a message made of several
/// non-adjacent packets (RH's exchanges) is packed and unpacked through a staging buffer, which is the paper's
/// permutation cost mρ. The schedules, the algorithm names and the chooser of Bcast::automatic live in
/// <llc/bcast_schedule.hpp>, which this header includes, so that code which only plans or prices a broadcast (the
/// cost layer) needs no MPI.

#include <span>

#include <llc/bcast_schedule.hpp>
#include <llc/detail/mpi_type.hpp>
#include <llc/group.hpp>

namespace llc {

namespace detail {
/// Runs `algorithm` (already resolved, not automatic) on raw elements: n elements of elem_size bytes at data;
/// `type` is the element's MPI type (used by Bcast::mpi). Arguments are checked and the superstep recorded.
void bcast_elements(
    Group& g, void* data, std::size_t n, std::size_t elem_size, MPI_Datatype type, int root, Bcast algorithm);
}  // namespace detail

/// The root's `data` to every processor of `g` by `algorithm`. Collective over `g`: every processor passes the same
/// data.size(), root and algorithm (checked with one small allreduce; llc::Error on every processor otherwise, and on
/// a root outside [0, g.size()) or an unknown algorithm). Bcast::automatic asks choose_bcast(g.size(),
/// data.size_bytes()). Recorded in the trace as a normal superstep named "bcast" (Bcast::mpi), "bcast.st",
/// "bcast.bst" or "bcast.rh" whose h is data.size_bytes(). Messages are sent as bytes, at most 2^31 − 1 of them per
/// message (llc::Error beyond).
///
/// Cost (m = data.size_bytes(), ν = 0, paper §3.7 Table I and §5.3): ST ⌈lg P⌉(ma + b); BST (⌈lg P⌉+1)(ma/2 + b);
/// RH (2 + (d−2)/2 − 1/2^d)ma + 2db + mρ with d = ⌊lg P⌋, plus ma + b when P is not a power of two.
template <Trivial T>
void bcast(Group& g, std::span<T> data, int root, Bcast algorithm) {
    detail::bcast_elements(
        g, static_cast<void*>(data.data()), data.size(), sizeof(T), detail::mpi_type<T>(), root, algorithm);
}

/// The same on a contiguous range (a std::vector, a std::array): its entries, in place.
template <WritableRange R>
requires(Trivial<std::ranges::range_value_t<R>> &&
         !detail::OutputSpan<R>) void bcast(Group& g, R&& data, int root, Bcast algorithm) {
    bcast(g, detail::output_span(data), root, algorithm);
}

}  // namespace llc
