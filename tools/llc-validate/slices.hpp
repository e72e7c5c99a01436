#pragma once
// How llc-validate spreads a point's rounds over the run: every round is made of a few slices, short visits at
// different moments, so that a round's median no longer takes the speed of the one moment it was measured in.

#include <llc/tools/timing.hpp>

namespace llc::validate {

/// The slices of a round when none are asked for (--slices): each round of a point is made of this many visits,
/// each with a third of the round's samples. Why: in the recorded large run (tests/data/accuracy, 2026-11-26
/// 14:22 UTC) a round was one visit of 0.005–3 s, and its median followed the host's state in that moment: a p = 2
/// shift of 2 KiB took 430 samples a round and still had a round spread of 41 %, a p = 2 contour ranking at 2560²
/// (4 samples a round) 29 %. More samples in the same moment do not help; samples at more moments do. Three slices
/// (not two): the median of three moments ignores one that fell in a slow phase, the median of two lies between them.
constexpr int default_slices_per_round = 3;

/// The sampling rule of one slice, from the rule of a whole round (`round`) shared among `slices` visits: a slice
/// takes max(1, min_samples / slices) samples at least, ⌈max_samples / slices⌉ at most (as max_short_samples), a
/// `slices`-th of the budget and of the minimum of timed seconds, and stops by the median's relative standard error
/// at √slices times the round's target (the error of a median of a third of the samples); a slice's warm-up counts
/// towards its budget (SamplingRule::budget_counts_warm_up), so a round takes about the time one visit took. One
/// slice: the rule as it is. @throws llc::Error when `slices` < 1.
[[nodiscard]] tools::SamplingRule slice_rule(const tools::SamplingRule& round, int slices);

/// The round a pass over the points belongs to: passes go round 0, 1, 2, 0, 1, 2, … (`rounds` of them), so that the
/// slices of every round are spread over the whole run and a drift of the host over minutes moves the rounds alike.
[[nodiscard]] constexpr int round_of_pass(int pass, int rounds) noexcept {
    return pass % rounds;
}

}  // namespace llc::validate
