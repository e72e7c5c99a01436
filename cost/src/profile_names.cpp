// The names a profile speaks: collectives and their measured variants (canonical_collective, base_collective, the
// set F), and the enums of the point-to-point tables and the C³ topologies to and from their text.
#include <string>
#include <string_view>
#include <vector>

#include <llc/cost/operation_names.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>

namespace llc::cost {

std::string canonical_collective(std::string_view op) {
    for (const auto& [variant, regular] : {std::pair{names::op::gatherv, names::op::gather},
                                           std::pair{names::op::allgatherv, names::op::allgather},
                                           std::pair{names::op::scatterv, names::op::scatter},
                                           std::pair{names::op::alltoallv, names::op::alltoall}}) {
        if (op == variant) {
            return regular;
        }
    }
    return std::string(op);
}

namespace {
/// Whether `name` is `op` followed by `suffix`.
constexpr bool is_variant(std::string_view name, std::string_view op, std::string_view suffix) {
    return name.size() == op.size() + suffix.size() && name.starts_with(op) && name.ends_with(suffix);
}
}  // namespace

// The measured variants' names (llc/cost/operation_names.hpp) are their operation and its suffix, which
// base_collective takes off.
static_assert(is_variant(names::op::swap_cold, names::op::swap, cold_suffix));
static_assert(is_variant(names::op::swap_cold_heap, names::op::swap_cold, heap_suffix));
static_assert(is_variant(names::op::shift_overlap, names::op::shift, overlap_suffix));
static_assert(is_variant(names::op::shift_written, names::op::shift, written_suffix));
static_assert(is_variant(names::op::swap_far, names::op::swap, far_suffix));

std::string base_collective(std::string_view op) {
    for (const std::string_view suffix : {far_suffix, heap_suffix, cold_suffix, overlap_suffix, written_suffix}) {
        if (op.size() > suffix.size() && op.substr(op.size() - suffix.size()) == suffix) {
            op.remove_suffix(suffix.size());
        }
    }
    return canonical_collective(op);
}

const std::vector<std::string>& standard_collectives() {
    namespace op = names::op;
    static const std::vector<std::string> all{op::bcast,
                                              op::reduce,
                                              op::allreduce,
                                              op::gather,
                                              op::allgather,
                                              op::scatter,
                                              op::alltoall,
                                              op::barrier,
                                              op::swap,
                                              op::shift};
    return all;
}

std::string_view to_string(Path path) {
    switch (path) {
        case Path::send:
            return "send";
        case Path::recv:
            return "recv";
        case Path::full:
            return "full";
    }
    return "?";
}

std::string_view to_string(Layout layout) {
    switch (layout) {
        case Layout::cc:
            return "cc";
        case Layout::cn:
            return "cn";
        case Layout::nc:
            return "nc";
        case Layout::nn:
            return "nn";
    }
    return "?";
}

Path path_from_string(std::string_view name) {
    for (const Path p : {Path::send, Path::recv, Path::full}) {
        if (to_string(p) == name) {
            return p;
        }
    }
    throw_argument_error("llc::cost::path_from_string", "name", name, "expected send, recv or full");
}

Layout layout_from_string(std::string_view name) {
    for (const Layout l : {Layout::cc, Layout::cn, Layout::nc, Layout::nn}) {
        if (to_string(l) == name) {
            return l;
        }
    }
    throw_argument_error("llc::cost::layout_from_string", "name", name, "expected cc, cn, nc or nn");
}

std::string_view to_string(C3Topology topology) {
    switch (topology) {
        case C3Topology::complete:
            return "complete";
        case C3Topology::linear_array:
            return "linear_array";
        case C3Topology::ring:
            return "ring";
        case C3Topology::mesh:
            return "mesh";
        case C3Topology::hypercube:
            return "hypercube";
    }
    return "?";
}

C3Topology c3_topology_from_string(std::string_view name) {
    for (const C3Topology t :
         {C3Topology::complete, C3Topology::linear_array, C3Topology::ring, C3Topology::mesh, C3Topology::hypercube}) {
        if (to_string(t) == name) {
            return t;
        }
    }
    throw_argument_error(
        "llc::cost::c3_topology_from_string", "name", name, "expected complete, linear_array, ring, mesh or hypercube");
}

}  // namespace llc::cost
