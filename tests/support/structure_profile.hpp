#pragma once
/// @file
/// A profile for comparing a cost expression's structure with a run's trace (cost::compare's structure_matches): every
/// kernel named and the collectives and divisions of P = 1 … max_P priced with placeholder constants, since only the
/// supersteps' shape is compared, not their times.

#include <initializer_list>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/cost/profile.hpp>

namespace llc::test {

inline cost::Profile structure_profile(int max_P,
                                       std::initializer_list<const char*> kernels,
                                       std::initializer_list<const char*> collectives) {
    cost::Profile profile;
    for (const char* kernel : kernels) {
        profile.set_kernel(kernel, {1e-8, "unit"});
    }
    for (int P = 1; P <= max_P; ++P) {
        for (const char* f : collectives) {
            profile.set_collective(f, P, cost::Piecewise::constant(1e-6));
        }
        profile.set_division(P, {1e-6, cost::Piecewise::constant(1e-6), 1e-6});
        if (P > 1) {  // lockstep steps priced as the mean processor's (no excess): the shape is what is compared
            profile.set_kernel(cost::kernel_size_key(cost::lockstep_key(P), 16), {0.0, "excess"});
        }
    }
    profile.meta().llc_bytes = 64.0 * 1024 * 1024;
    return profile;
}

}  // namespace llc::test
