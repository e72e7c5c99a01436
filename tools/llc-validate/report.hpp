#pragma once
/// @file
/// What llc-validate measured and predicted, and how it is written: results.csv (one row per measurement and model),
/// results.json (everything, with the per-superstep comparisons), summary.md (accuracy per algorithm and model).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <llc/cost/profile.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>
#include <llc/tools/validation_case.hpp>
#include <llc/trace.hpp>

namespace llc::validate {

/// One model's prediction of one measurement.
struct Prediction {
    double seconds = 0.0;       ///< NaN when the model cannot price the case
    double relative_error = 0;  ///< (predicted − measured) / measured, NaN when not priced
    bool extrapolated = false;  ///< the price rests on measurements outside the profile's range
    std::string why_not;        ///< why the model could not price it
    bool inside_band = false;   ///< p10_s ≤ seconds ≤ p90_s of the measurement
};

/// One (algorithm, n, p) point.
struct Measurement {
    std::string algorithm;
    std::string family;
    std::string size_unit;
    std::int64_t n = 0;
    int p = 1;
    bool oversubscribed = false;  ///< p > cores: shown, kept out of the accuracy summary
    int repetitions = 0;
    double median_s = 0.0;  ///< median of the undisturbed samples (llc/tools/timing.hpp), as the profile is measured
    double p10_s = 0.0;     ///< of the undisturbed samples
    double p90_s = 0.0;     ///< of the undisturbed samples
    int disturbed = 0;      ///< samples left out: taken while the machine ran slow (their canary said so)
    double raw_median_s = 0.0;  ///< median of every sample, disturbed ones included
    /// The point's own repeatability: the median, over the pairs of measuring rounds (seconds apart in one run), of
    /// |one round's median − the other's| / median_s. No prediction can be judged closer than the measurement
    /// repeats itself: this is the noise floor of the point's |error|. NaN with fewer than two rounds.
    double round_spread = 0.0;
    /// The median link canary of the point's samples (the slowest rank's 8-byte ring exchange just before each; 0 on
    /// one processor): the state of the host's placement the point was measured in.
    double link_canary_s = 0.0;
    std::map<std::string, Prediction> predictions;  ///< by model name
};

/// The per-superstep comparison of one run (the largest case of an algorithm), under the CCM.
struct SuperstepReport {
    std::string algorithm;
    std::int64_t n = 0;
    int p = 1;
    std::string comparison_text;  ///< cost::Comparison::to_text()
    std::string comparison_json;  ///< cost::Comparison::to_json()
    // Stacked parts along the critical path (seconds).
    double predicted_compute = 0.0;
    double predicted_comm = 0.0;
    double predicted_division = 0.0;
    double measured_compute = 0.0;
    double measured_comm = 0.0;
    double measured_division = 0.0;
};

/// Accuracy of one model on one algorithm over the measurements that are not oversubscribed.
struct Accuracy {
    int count = 0;
    double median_abs = 0.0;
    double p90_abs = 0.0;
    double max_abs = 0.0;
    double inside_band = 0.0;  ///< fraction of the predictions inside the measured 10th–90th percentile band
};

/// The noise floor of one algorithm over the measurements that are not oversubscribed: median and 90th percentile of
/// the points' round_spread.
struct NoiseFloor {
    int count = 0;
    double median = 0.0;
    double p90 = 0.0;
};

/// The verdict rule's terms that are the same for every case (docs/validation.md, "The verdict rule"; a case's own
/// bound is its AccuracyGoal::median).
inline constexpr double p90_bound = 0.25;
/// A group is inconclusive when its floor median exceeds this share of its bound.
inline constexpr double floor_share_of_bound = 0.5;

/// Which points a verdict judges: those at p = 1, or those at 1 < p ≤ cores (oversubscribed points never).
enum class Processors { one, several };
[[nodiscard]] const char* to_string(Processors processors);  ///< "p = 1", "p > 1"
[[nodiscard]] bool in_group(const Measurement& m, Processors processors);

enum class Outcome { meets, misses, inconclusive };

/// "12.3 %" for 0.123, "n/a" for NaN: the report's one way of printing a share (a difference it does not show to this
/// precision does not decide a verdict).
[[nodiscard]] std::string format_percent(double value);
[[nodiscard]] const char* to_string(Outcome outcome);  ///< "meets", "misses", "inconclusive"

/// A case's verdict on one group of points, and why.
struct Verdict {
    Outcome outcome = Outcome::misses;
    std::string why;  ///< e.g. "meets", "misses: median 12.1 % > 10.0 %", "inconclusive: floor 7.2 % > 5.0 %"
};

/// Another model against the CCM on one case, over the points where the machine can tell their predictions apart
/// (head_to_head): the CCM's accuracy there and the other's.
struct Rival {
    std::string name;  ///< "BSP", "Hockney"
    Accuracy ccm;
    Accuracy rival;
};

/// The verdict rule: from the CCM's accuracy over a group of points, the other models head to head (count 0: a
/// model could not price the case, or no point told it from the CCM) and the group's noise floor (count 0: not
/// measured).
[[nodiscard]] Verdict judge(const AccuracyGoal& goal,
                            const Accuracy& ccm,
                            const std::vector<Rival>& rivals,
                            const NoiseFloor& floor);

/// One case judged on one group of points.
struct Judged {
    std::string algorithm;
    Processors processors = Processors::one;
    double bound = 0.0;  ///< the case's AccuracyGoal::median
    Accuracy ccm;
    Accuracy bsp;      ///< over every point of the group (the table's column); the verdict compares head to head
    Accuracy hockney;  ///< likewise
    NoiseFloor floor;
    Verdict verdict;
    bool whole_run_price = false;  ///< p = 1 priced from a probe that times a whole run (Case::p1_priced_by_whole_run)
};

/// How many groups met, missed, were inconclusive.
struct Counts {
    int meets = 0;
    int misses = 0;
    int inconclusive = 0;
};
[[nodiscard]] Counts count(const std::vector<Judged>& judged);
[[nodiscard]] Counts count(const std::vector<Judged>& judged, Processors processors);
/// "3 meet, 1 misses, 12 inconclusive (p = 1: …; p > 1: …)": the line llc-validate and the demo end with.
[[nodiscard]] std::string counts_line(const std::vector<Judged>& judged);

struct Report {
    std::string profile_path;
    std::string profile_date;
    int world_size = 0;
    int cores = 0;
    std::string size_class;
    std::vector<std::string> models;
    std::vector<Measurement> measurements;
    std::vector<SuperstepReport> supersteps;
    std::map<std::string, AccuracyGoal> goals;           ///< by algorithm (a case without an entry: AccuracyGoal{})
    std::map<std::string, bool> p1_priced_by_whole_run;  ///< by algorithm (Case::p1_priced_by_whole_run)
    /// The machine's speed (llc tools' canaries, fastest seen): during this run, and when the profile was calibrated
    /// (0: not recorded). The link canary is on the world's ring.
    double canary_cpu_s = 0.0;
    double canary_link_s = 0.0;
    double profile_canary_cpu_s = 0.0;
    double profile_canary_link_s = 0.0;
    /// The median link canary over the samples on two processors: this run's, and the calibration's (0: not recorded).
    double canary_link_median_s = 0.0;
    double profile_canary_link_median_s = 0.0;
    /// The fastest throughput canary (timing.hpp: what a busy sibling hyperthread slows): this run's and the
    /// calibration's (0: not recorded); and the share of this run's samples whose throughput canary was more than
    /// tools::throughput_canary_tolerance slower than this run's fastest (on any rank of the sample).
    double canary_throughput_s = 0.0;
    double profile_canary_throughput_s = 0.0;
    double throughput_slowed_share = 0.0;
    /// The profile's processors' evenness over its side-by-side kernel probes (cost::ProfileMeta::kernel_rank_ratio;
    /// 0: not recorded).
    double profile_kernel_rank_ratio = 0.0;
};

/// The cases in report order.
[[nodiscard]] std::vector<std::string> algorithms(const Report& report);
/// The accuracy of `model` on `algorithm` over the points of a group (oversubscribed points never count).
[[nodiscard]] Accuracy accuracy(const Report& report,
                                const std::string& algorithm,
                                const std::string& model,
                                Processors processors);
/// The noise floor of `algorithm` over the points of a group.
[[nodiscard]] NoiseFloor noise_floor(const Report& report, const std::string& algorithm, Processors processors);
/// The median over pairs of |a − b| / reference for the values `round_medians` (NaN with fewer than two).
[[nodiscard]] double pairwise_spread(const std::vector<double>& round_medians, double reference);

/// The statistics of one point of case `c`, from its samples, `rounds` of them (one vector per measuring round): median
/// and 10th–90th percentile of the undisturbed ones by `speed` (all of them if fewer than `at_least` are), pooled, and
/// how far the rounds' medians lie apart (round_spread).
[[nodiscard]] Measurement measurement_of(const Case& c,
                                         std::int64_t n,
                                         int p,
                                         bool oversubscribed,
                                         const std::vector<std::vector<tools::Sample>>& rounds,
                                         const tools::SpeedReference& speed,
                                         std::size_t at_least);
/// The median link canary of `samples` (those that carry one: two or more processors), 0 if none does.
[[nodiscard]] double median_link_canary(const std::vector<tools::Sample>& samples);

/// The CCM and `model` on `algorithm` over the points of a group (both priced) where their predictions differ by more
/// than the point's round spread, the measurement's own repeatability (any difference where the spread was not
/// measured). Elsewhere the machine cannot tell which of the two is closer: where the two price every point alike but
/// for a fourth digit of communication, one measurement a little low would make either look closer.
[[nodiscard]] Rival head_to_head(const Report& report,
                                 const std::string& algorithm,
                                 const std::string& model,
                                 Processors processors);
/// Every case judged on each group of points it has (p = 1, then p > 1), in report order.
[[nodiscard]] std::vector<Judged> verdicts(const Report& report);

/// Adds the critical-path parts of a merged trace node to compute, comm and division: along a division, its slowest
/// task (the SuperstepReport's measured side).
void measured_parts(const TraceNode& node, double& compute, double& comm, double& division);

/// Writes results.csv, results.json, verdicts.csv, summary.md (the verdicts first), supersteps.md and supersteps.json
/// (the per-superstep comparisons of the traced runs) into `dir`, each whole or not at all. Returns summary.md's text.
std::string write_report(const Report& report, const std::string& dir);

/// The measurements of a report directory's results.csv (as write_report wrote them; predictions left out), to be
/// priced again by today's cost functions (llc-validate --reprice). @throws llc::Error naming the file and line.
[[nodiscard]] std::vector<Measurement> read_measurements(const std::string& results_csv);
/// The verdicts a report directory's verdicts.csv recorded: (algorithm, group) → outcome.
[[nodiscard]] std::map<std::pair<std::string, std::string>, std::string> read_verdicts(const std::string& verdicts_csv);
/// The case named `algorithm` among `cases`. @throws llc::Error naming `where` when there is none.
[[nodiscard]] const Case& case_named(const std::vector<Case>& cases,
                                     const std::string& algorithm,
                                     const std::string& where);
/// --reprice-supplement: `from`'s kernel constants that `profile` lacks, and its meta.llc_bytes where `profile` has
/// none, copied into `profile` (reprice only: a measuring run prices with its profile alone).
void supplement_profile(cost::Profile& profile, const cost::Profile& from);

/// --gate: the groups that met in the recorded verdicts (`recorded_csv`) and do not meet `now`, one line each on
/// stderr; returns 3 when there is one, else 0.
[[nodiscard]] int gate(const std::vector<Judged>& now, const std::string& recorded_csv);

using tools::quantile;

}  // namespace llc::validate
