#pragma once
// llc-probe's two jobs: calibrate (measure everything, fit, build the Profile) and check (re-measure held-out sizes and
// compare with a profile's prediction).

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
};

/// Measures and fits everything. Collective over `world`.
/// @throws AgreedError on every rank if a kernel probe failed on any rank.
[[nodiscard]] Calibration calibrate(Group& world, const Settings& settings, bool run_kernels);

/// What a calibration by this build with `settings` would store that `profile` lacks: collectives (at any p) and
/// kernel constants (and their one-processor-alone values), by name. Empty when the profile has everything this build
/// prices — a profile calibrated by an older build may lack a collective added since (shift) or a kernel probe.
[[nodiscard]] std::vector<std::string> missing_measurements(const cost::Profile& profile, const Settings& settings);

/// One line of --check: held-out relative errors of one function at one p (p = 0: over every p ≤ 2).
struct CheckRow {
    std::string function;
    int p = 0;
    std::vector<double> errors;  ///< signed (predicted − measured) / measured, per held-out size
    std::vector<double> bytes;
    /// Signed (re-measured − calibrated) / calibrated medians at every second calibrated size: how much the machine
    /// itself moved between the calibration and the check (the noise floor the errors must be judged against).
    std::vector<double> drift;
    double drift_median_abs = 0.0;
    double median_abs = 0.0;
    double p90_abs = 0.0;
    double max_abs = 0.0;
    double target_median = 0.10;
    double target_p90 = 0.25;
    [[nodiscard]] bool met() const { return median_abs <= target_median && p90_abs <= target_p90; }
};

/// Re-measures held-out sizes (geometric midpoints of the sizes in the profile's samples file, else of a log grid
/// over each fit's range), and every second calibrated size for the drift (when the samples file is there), for every
/// collective, swap and division at every p of the profile that the run has, and the P-3PC paths (P ≥ 2, or P = 1 for a
/// profile made at P = 1), and compares with the profile. `machine_state` (rank 0) gets the fastest canaries the check
/// saw (CPU: any group; link: two processors), to hold against the profile's meta.canary_*. Collective over `world`.
/// Rows complete on rank 0.
[[nodiscard]] std::vector<CheckRow> check(Group& world,
                                          const cost::Profile& profile,
                                          const std::vector<RawSample>& fit_samples,
                                          const Settings& settings,
                                          std::vector<RawSample>* measured = nullptr,
                                          tools::Canary* machine_state = nullptr);

}  // namespace llc::probe
