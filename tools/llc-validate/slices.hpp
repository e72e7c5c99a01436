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

/// A slice's visit warms up twice when its first warm-up took less than this (tools::SamplingRule::
/// second_warm_up_below). Why: in one interleaved run at p = 2 (2026-11-26 19:22, loaded machine) the first sample of
/// a visit took 1.0–1.3× the median of the later ones at 64 B–64 KiB and 1.5–2.5× at 2 MiB, the fourth and later
/// ones 1.00×; a slice of a 2 MiB collective takes 3–12 samples, so that one sample weighed up to a third of a visit,
/// three visits a round (one visit of 4–34 samples before slices). 2 ms covers the collectives up to a few MiB and the
/// short algorithm runs, at a cost of at most 2 ms a visit; a longer run is not moved by a transient of a few hundred
/// microseconds.
constexpr double second_warm_up_below_seconds = 2e-3;

/// The sampling rule of one slice, from the rule of a whole round (`round`) shared among `slices` visits: a slice
/// takes max(1, min_samples / slices) samples at least, ⌈max_samples / slices⌉ at most (as max_short_samples), a
/// `slices`-th of the budget and of the minimum of timed seconds, and stops by the median's relative standard error
/// at √slices times the round's target (the error of a median of a third of the samples); a slice's warm-up counts
/// towards its budget (SamplingRule::budget_counts_warm_up), so a round takes about the time one visit took; a visit
/// whose warm-up is shorter than second_warm_up_below_seconds warms up twice. One slice: the rule as it is (the
/// measurement before slices, for an A/B). @throws llc::Error when `slices` < 1.
[[nodiscard]] tools::SamplingRule slice_rule(const tools::SamplingRule& round, int slices);

/// The round a pass over the points belongs to: passes go round 0, 1, 2, 0, 1, 2, … (`rounds` of them), so that the
/// slices of every round are spread over the whole run and a drift of the host over minutes moves the rounds alike.
[[nodiscard]] constexpr int round_of_pass(int pass, int rounds) noexcept {
    return pass % rounds;
}

}  // namespace llc::validate
