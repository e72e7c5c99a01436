#pragma once
// llc-probe's second job, --check: re-measure held-out sizes and compare with a profile's prediction (and with the
// calibration's own medians, for the machine's drift).

#include <string>
#include <vector>

#include <llc/cost/profile.hpp>
#include <llc/group.hpp>
#include <llc/tools/timing.hpp>

#include "measure.hpp"

namespace llc::probe {

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
