#pragma once
// llc-validate's measuring rounds: every point visited in passes of a new shuffled order, each pass one slice of a
// round (slices.hpp), a visit the canaries mark slow measured again at the end of its pass, and the largest sizes
// traced in the last pass.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <llc/cost.hpp>
#include <llc/llc.hpp>
#include <llc/tools/timing.hpp>

#include "report.hpp"
#include "slices.hpp"

namespace llc::validate {

/// The validator measures every point in this many rounds, each visiting the points in a new shuffled order, and
/// pools the rounds' samples: memory-bound code on this VM runs up to 1.5× slower for 0.3–1.5 s at a time, and a
/// point measured in one stretch of ~0.15 s took the speed of whichever phase it fell in (a serial FFT of 2^16 points
/// measured 0.60 to 0.92 ms from one case to the next of the same run). llc-probe's cells are visited the same way.
constexpr int measuring_rounds = 3;

/// A visit the canaries mark slow — fewer than the slice rule's minimum of undisturbed samples, or more disturbed
/// samples than undisturbed ones — is not counted but measured again at the end of its pass, up to this many times
/// (then it counts as it is): a round taken in one of the host's slow phases moved the round spread of whole cases by
/// 10–30 %. Under SMPI (LLC_SMPI) no visit is measured again: simulated time has no OS noise (a compute burst is
/// charged its thread CPU time, preemption is not), so the canaries' "slow" is the simulation's own spread, and at
/// P = 64 their retries made most of the validation's wall time (docs/scaling/results.md, fifth run).
#if defined(LLC_SMPI)
constexpr int max_visit_retries = 0;
#else
constexpr int max_visit_retries = 2;
#endif

/// One point of a validation: a case, a size, a group size.
struct Point {
    std::size_t case_index;
    std::int64_t n;
    int p;
    bool largest;  // the case's largest size
};

/// What the measuring rounds took, by point: the samples of every round (on the ranks of the point's group), and the
/// superstep comparison of the traced points (on rank 0).
struct Taken {
    explicit Taken(std::size_t points)
        : samples(points, std::vector<std::vector<tools::Sample>>(measuring_rounds)),
          steps(points),
          traced(points, false) {}
    std::vector<std::vector<std::vector<tools::Sample>>> samples;  // by point, then by round (its slices pooled)
    std::vector<SuperstepReport> steps;
    std::vector<bool> traced;
};

/// What the measuring rounds need besides the points: the world, the cases, the profile and the CCM (for the traced
/// points), the timing rule of a whole round, the group size whose largest sizes are traced, the slices of a round.
struct Rounds {
    Group& world;
    const std::vector<Case>& cases;
    const cost::Profile& profile;
    const cost::Model* ccm;
    const tools::SamplingRule& rule;
    int trace_p;
    int slices = default_slices_per_round;
};

/// Measures every point in measuring_rounds rounds of r.slices slices: measuring_rounds × r.slices passes over the
/// points, each in a new shuffled order (the same on every rank: the sub-groups are made collectively), pass k a slice
/// of round round_of_pass(k) sampled by slice_rule(r.rule, r.slices); the last pass also traces the largest size of
/// each case at trace_p. `speed` leaves every point agreed on every rank. Collective over the world.
Taken measure_in_rounds(const Rounds& r,
                        const std::vector<Point>& points,
                        tools::SpeedReference& speed,
                        const std::function<void(const std::string&)>& step);

}  // namespace llc::validate
