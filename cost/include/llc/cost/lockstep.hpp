#pragma once
/// @file
/// A lockstep step: P processors each do work W and then synchronise (a pipelined sweep's step ended by a shift, a
/// local pass ended by a collective). The step lasts as long as the slowest processor, and on a machine whose
/// processors do not run at one steady speed (a VM's host takes cycles from one vCPU, then from the other) the slowest
/// of P is slower than the mean one: the step costs the expected maximum of the processors' work, not the mean.
/// llc-probe measures that excess per group size P and step length (names::op::lockstep_excess); the cost functions
/// of lockstep steps price W through lockstep_seconds.

#include <string>

#include <llc/cost/profile.hpp>

namespace llc::cost {

/// The profile's key family of the lockstep excess on P processors: "lockstep.excess.p<P>" (sizes ".2^e", e = log2
/// of the step's work in nanoseconds).
[[nodiscard]] std::string lockstep_key(int P);

/// The step's work exponent e of a step of `seconds` of work: log2 of its nanoseconds (0 below 1 ns).
[[nodiscard]] int lockstep_exponent(double seconds);

/// E[max of P independent standard normal variables] (0 for P ≤ 1; 0.5642 at P = 2, 1.0294 at 4, 2.3437 at 64; it
/// grows as sqrt(2 ln P) for large P): by numerical integration of x · P φ(x) Φ(x)^(P−1).
[[nodiscard]] double expected_max_of_normals(int P);

/// The measured excess E[max] / E[mean] − 1 of a lockstep step of `seconds` of work on P processors: 0 on one
/// processor; else read from the profile's table at P, linear in log2 of the work between the measured lengths, the
/// end value outside them.
///
/// Beyond the profile (P larger than every group size it measured: its lockstep tables and its division; a profile
/// probed at P = 4 pricing P = 64), the excess is extrapolated in P: each measured p's excess at this step length is
/// taken as (σ/μ) · expected_max_of_normals(p) — the slowest of p processors whose step times scatter independently
/// with relative spread σ/μ — σ/μ is fitted by least squares through the origin over the measured p ≥ 2, and the
/// excess at P is σ/μ · expected_max_of_normals(P). Why not log P: the expected maximum grows as log P only for
/// exponential tails (long stalls); for a finite-variance spread it grows as sqrt(2 ln P), and the asymptote itself
/// is 2× the exact value at p = 2 (1.18 vs 0.56), which is where a base profile's points are. Not flagged as
/// extrapolated (the price is a double); docs/scaling/results.md says where it was used.
/// @throws llc::Error (missing_kernel_message, naming "lockstep.excess.p<P>.2^e") when the profile has no table at a
/// P it measured (or no table at all): an older profile must be re-calibrated, no cost function prices a lockstep
/// step as the mean processor's.
[[nodiscard]] double lockstep_excess(const Profile& profile, int P, double seconds);

/// What a lockstep step of `seconds` of work (the busiest processor's, as measured by the kernel probes) costs on P
/// processors: seconds × (1 + lockstep_excess). @throws as lockstep_excess.
[[nodiscard]] double lockstep_seconds(const Profile& profile, int P, double seconds);

}  // namespace llc::cost
