// How llc-validate spreads a point's rounds over the run (see slices.hpp).
#include "slices.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <llc/error.hpp>

namespace llc::validate {

tools::SamplingRule slice_rule(const tools::SamplingRule& round, int slices) {
    if (slices < 1) {
        throw Error("llc::validate::slice_rule: slices = " + std::to_string(slices) + ": must be at least 1");
    }
    if (slices == 1) {
        return round;
    }
    const auto up = [slices](int count) { return count <= 0 ? count : (count + slices - 1) / slices; };
    tools::SamplingRule slice = round;
    slice.min_samples = std::max(1, round.min_samples / slices);
    slice.max_samples = std::max(slice.min_samples, up(round.max_samples));
    slice.max_short_samples = up(round.max_short_samples);
    slice.budget_seconds = round.budget_seconds / slices;
    slice.min_seconds = round.min_seconds / slices;
    slice.target_rse = round.target_rse * std::sqrt(static_cast<double>(slices));
    slice.budget_counts_warm_up = true;  // three warm-ups in a round's budget, not on top of it
    slice.second_warm_up_below = std::max(round.second_warm_up_below, second_warm_up_below_seconds);
    return slice;
}

}  // namespace llc::validate
