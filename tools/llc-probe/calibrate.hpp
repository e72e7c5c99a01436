#pragma once
// llc-probe's first job: calibrate (measure everything, fit, build the Profile). The second, --check, is in check.hpp.

#include <string>
#include <vector>

#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>

#include "fits.hpp"
#include "measure.hpp"

namespace llc::probe {

/// An error every rank throws at the same point (so every rank can end normally with status 1). Any other exception
/// during a measurement may be one rank's alone and ends the job through llc::abort_job.
struct AgreedError : Error {
    using Error::Error;
};

/// The group sizes p measured on P processors: every p ≤ min(P, 8), then the powers of two up to P, and P.
[[nodiscard]] std::vector<int> group_sizes(int P);

/// The result of a calibration: the profile, its raw samples and the fit report (complete on rank 0 of the world;
/// other ranks hold what they measured).
struct Calibration {
    cost::Profile profile;
    std::vector<RawSample> samples;
    std::vector<FitReport> report;
    /// Where rank 0's time went (llc-probe --verbose): the phases, and every kernel probe call.
    std::vector<TimeSpent> phase_times;
    std::vector<TimeSpent> probe_times;
    /// Every measurement cell's visits ("<op> p=<p> h=<bytes>"): the collectives, the division, the point-to-point.
    std::vector<TimeSpent> cell_times;
};

/// Measures and fits everything. Collective over `world`.
/// @throws AgreedError on every rank if a kernel probe failed on any rank.
[[nodiscard]] Calibration calibrate(Group& world, const Settings& settings, bool run_kernels);

/// What a calibration by this build with `settings` would store that `profile` lacks: collectives (at any p) and
/// kernel constants (and their one-processor-alone values), by name. Empty when the profile has everything this build
/// prices — a profile calibrated by an older build may lack a collective added since (shift) or a kernel probe.
[[nodiscard]] std::vector<std::string> missing_measurements(const cost::Profile& profile, const Settings& settings);

}  // namespace llc::probe
