#pragma once
/// @file
/// The CCM cost of llc::redistribute (<llc/distribution.hpp>): one normal superstep whose collective is the
/// all-to-all.
///
///   Φ = T_alltoall(P, h),  h = max_q from.local_size(q) · element_bytes
///
/// h is what the llc layer records for the superstep (Group::alltoallv records this processor's whole send buffer,
/// every entry it holds under `from`, those it keeps included) and what llc-probe varies when it measures "alltoall"
/// (one processor's whole send buffer, equal pieces to every processor); "alltoallv" is priced as "alltoall"
/// (cost::canonical_collective). So the price is that of an even all-to-all of the busiest sender's buffer: exact for
/// a redistribution that sends about h/P bytes to every processor (blocks to a reflection or a block-cyclic layout),
/// an upper estimate for one that keeps most entries where they are. The packing and unpacking around it (one pass over
/// the local entries each) are not priced: no kernel constant measures them, and they are O(h) memory traffic against
/// the all-to-all's O(h) network traffic. The superstep is labelled names::distribution::redistribute.

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <llc/cost/expr.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/distribution.hpp>
#include <llc/error.hpp>

namespace llc::cost {

/// The cost expression of llc::redistribute(g, from, to, local) for entries of `element_bytes` bytes on
/// from.processors() processors (see the file comment).
/// @throws llc::Error naming llc::cost::redistribute when the global sizes or the processor counts of from and to
///         differ.
template <Distribution From, Distribution To>
[[nodiscard]] Expr redistribute(const From& from, const To& to, std::size_t element_bytes) {
    if (from.global_size() != to.global_size() || from.processors() != to.processors()) {
        throw_argument_error("llc::cost::redistribute",
                             "from, to",
                             "global sizes " + std::to_string(from.global_size()) + ", " +
                                 std::to_string(to.global_size()) + ", processors " +
                                 std::to_string(from.processors()) + ", " + std::to_string(to.processors()),
                             "must be equal");
    }
    std::int64_t largest = 0;
    for (int q = 0; q < from.processors(); ++q) {
        largest = std::max(largest, static_cast<std::int64_t>(from.local_size(q)));
    }
    return Expr::normal(names::distribution::redistribute,
                        0.0,
                        names::op::alltoallv,
                        from.processors(),
                        static_cast<double>(largest) * static_cast<double>(element_bytes));
}

}  // namespace llc::cost
