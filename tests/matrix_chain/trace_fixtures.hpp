#pragma once
// What the matrix chain's trace tests share (matrix_chain_test.cpp, walk_trace_test.cpp): random chains and a profile
// with every table cost::matrix_chain reads, so that each test file compares a trace with a cost expression alike.
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>

namespace llc::test::matrix_chain {

/// The dimensions of a chain of `matrices` matrices, each side uniform in [1, top].
inline std::vector<std::int64_t> random_dims(std::mt19937_64& rng, int matrices, int top) {
    std::uniform_int_distribution<std::int64_t> dist(1, top);
    std::vector<std::int64_t> d(static_cast<std::size_t>(matrices) + 1);
    for (auto& x : d) {
        x = dist(rng);
    }
    return d;
}

/// A profile with every table cost::matrix_chain reads (the values do not matter to the shape of the expression).
inline llc::cost::Profile shape_profile() {
    namespace names = llc::names::matrix_chain;
    llc::cost::Profile p;
    for (const char* key : {names::middle, names::edge, names::diag, names::run, names::run_wide}) {
        p.set_kernel(llc::cost::kernel_size_key(key, 6), {1e-9, "update"});
    }
    for (int P = 2; P <= 8; ++P) {  // the ring's lockstep steps read the excess at their P (np 2 … 8)
        p.set_kernel(llc::cost::kernel_size_key(llc::cost::lockstep_key(P), 16), {0.0, "excess"});
        // The rotations are priced as "shift.written" (required at P > 1, as llc-probe writes it).
        p.set_collective("shift.written", P, llc::cost::Piecewise::constant(0.0));
    }
    return p;
}

}  // namespace llc::test::matrix_chain
