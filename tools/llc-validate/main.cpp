// llc-validate [--profile F] [--algorithms a,b,…] [--sizes small|medium|large] [--out DIR] [--quick] [--no-plots]
//
// Under `mpirun -np P`: for every validation case × size × group size p ≤ P (sub-groups of the world, so one run covers
// p = 1 … P), measures the median and 10th–90th percentile over repetitions, prices the same run under every model
// of the profile, and holds the largest case's trace against its Expr superstep by superstep. Writes DIR/results.csv,
// DIR/results.json, DIR/summary.md and plots (DIR/*.png, drawn with matplotlib). Exit status: 0 success, 2 bad
// arguments or profile, 3 a case misses under --strict (or, with --reprice DIR --gate, a case that met in DIR's
// recorded verdicts no longer meets), 1 any other failure.
//
// llc-validate --reprice DIR --profile F [--gate]: no measuring: DIR's results.csv priced again by today's cost
// functions (the accuracy gate of tests/validate runs it on recorded data).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <sstream>
#include <string_view>
#include <thread>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <llc/cores.hpp>
#include <llc/cost.hpp>
#include <llc/llc.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/nodes.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "report.hpp"
#include "rounds.hpp"

namespace po = boost::program_options;

namespace llc::validate {
namespace {

struct Options {
    std::string profile;
    std::vector<std::string> algorithms;
    SizeClass size_class = SizeClass::small;
    std::string size_name = "small";
    std::string out = "validate-report";
    bool quick = false;
    bool plots = true;
    bool strict = false;  ///< exit 3 when a case misses
    std::string reprice;  ///< a report directory to price again instead of measuring
    bool gate = false;    ///< with reprice: exit 3 when a case that met in the directory's verdicts no longer meets
    int cores = 0;        ///< --cores: 0 = llc::platform_cores()
    /// With reprice only: a profile whose kernel constants and meta.llc_bytes fill in what --profile lacks (to price
    /// recorded measurements with a model change whose keys their profile predates; never used when measuring).
    std::string supplement;
    std::vector<int> group_sizes;  ///< --p: measure only these p (empty: every p ≤ P); SMPI runs at P = 64 need it
    /// --largest: only the largest size of each case's class (one size a case: the SMPI scale runs, where every
    /// rank's compute runs on the host in turn and a size costs P times its share of wall time).
    bool largest = false;
    /// --slices: visits a round is made of (slices.hpp); 1 measures a round in one visit, as before 2026-11-26 16:00.
    int slices = default_slices_per_round;
};

const std::vector<std::string> model_names{"ccm", "bsp", "loggp", "hockney", "p3pc", "c3"};

/// The cores a run may use before it is oversubscribed: --cores, else llc::platform_cores() (this machine's online
/// cores; under SMPI the simulated platform's, not the host's that runs the simulation).
int cores(const Options& options) {
    return options.cores > 0 ? options.cores : platform_cores();
}

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        if (!item.empty()) {
            items.push_back(item);
        }
    }
    return items;
}

/// Which cases the --algorithms list selects: a case matches by its name, its family, or a name prefix
/// ("fft" selects fft-block and fft-replicated). @throws llc::Error naming an entry that selects nothing.
std::vector<Case> select(const std::vector<Case>& cases, const std::vector<std::string>& wanted) {
    if (wanted.empty()) {
        return cases;
    }
    std::vector<Case> chosen;
    for (const auto& name : wanted) {
        bool found = false;
        for (const auto& c : cases) {
            if (c.algorithm == name || c.family == name || c.algorithm.rfind(name, 0) == 0) {
                found = true;
                if (std::none_of(
                        chosen.begin(), chosen.end(), [&](const Case& x) { return x.algorithm == c.algorithm; })) {
                    chosen.push_back(c);
                }
            }
        }
        if (!found) {
            std::string known;
            for (const auto& c : cases) {
                known += (known.empty() ? "" : ", ") + c.algorithm;
            }
            throw Error(
                argument_message("llc-validate", "--algorithms", name, "no such algorithm (known: " + known + ")"));
        }
    }
    return chosen;
}

/// One line on stderr, redrawn per visit. A visit measured again (rounds.hpp: it fell in a slow phase) is one more
/// step than planned: the total grows with it, so the bar never runs past its end.
class ProgressBar {
  public:
    ProgressBar(int total, bool on) : total_(total), on_(on) {}
    void step(const std::string& what) {
        ++done_;
        total_ = std::max(total_, done_);
        if (!on_) {
            return;
        }
        constexpr int width = 30;
        const int filled = std::clamp(total_ > 0 ? done_ * width / total_ : width, 0, width);
        std::fprintf(stderr,
                     "\r[%s%s] %d/%d %-48.48s",
                     std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(),
                     done_,
                     total_,
                     what.c_str());
        std::fflush(stderr);
    }
    void finish() const {
        if (on_ && done_ > 0) {
            std::fprintf(stderr, "\n");
        }
    }

  private:
    int total_;
    int done_ = 0;
    bool on_;
};

std::string plots_script() {
    std::error_code error;
    const auto exe = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        const auto candidate = exe.parent_path().parent_path() / "share" / "llc" / "validate_plots.py";
        if (std::filesystem::exists(candidate)) {
            return candidate.string();
        }
    }
    return {};
}

/// One model's prediction of a point, its error against the measured median, and whether it lies in `band` (the
/// measured 10th–90th percentiles).
Prediction predict(const Case& c,
                   int p,
                   std::int64_t n,
                   const cost::Profile& profile,
                   const cost::Model& model,
                   double measured,
                   std::pair<double, double> band) {
    Prediction prediction;
    try {
        const cost::Breakdown b = cost::evaluate(c.expr(p, n, profile), model);
        prediction.seconds = b.total;
        prediction.extrapolated = b.extrapolated;
        prediction.relative_error = cost::relative_error(b.total, measured);
        prediction.inside_band = band.first <= b.total && b.total <= band.second;
    } catch (const Error& e) {
        prediction.seconds = std::numeric_limits<double>::quiet_NaN();
        prediction.relative_error = std::numeric_limits<double>::quiet_NaN();
        prediction.why_not = e.what();
    }
    return prediction;
}

/// `what` prefixed with the tool's name, unless it already names it (llc::argument_message does).
std::string tool_message(const std::string& what) {
    constexpr std::string_view tool = "llc-validate";
    return what.starts_with(tool) ? what : std::string(tool) + ": " + what;
}

/// The profile at `profile_path`; nothing, said on `root`, if it cannot be loaded.
std::optional<cost::Profile> load_profile(const std::string& profile_path, bool root) {
    try {
        return cost::Profile::load(profile_path);
    } catch (const Error& e) {
        if (root) {
            std::cerr << "llc-validate: " << e.what() << '\n';
        }
        return std::nullopt;
    }
}

/// The cards' cases --algorithms selects; nothing, said on `root`, if an entry selects none.
std::optional<std::vector<Case>> load_cases(const Options& options, bool root) {
    try {
        return select(tools::all_cases(), options.algorithms);
    } catch (const Error& e) {
        if (root) {
            std::cerr << e.what() << '\n';
        }
        return std::nullopt;
    }
}

/// The models of model_names that `profile` can make, in that order, their names in report.models; a model it cannot
/// make is left out (said on `root`).
std::vector<std::unique_ptr<cost::Model>> make_models(const cost::Profile& profile, Report& report, bool root) {
    std::vector<std::unique_ptr<cost::Model>> models;
    for (const auto& name : model_names) {
        try {
            models.push_back(cost::make_model(name, profile));
            report.models.push_back(name);
        } catch (const Error& e) {
            if (root) {
                std::cerr << "llc-validate: model " << name << " left out: " << e.what() << '\n';
            }
        }
    }
    return models;
}

/// The CCM among `models` (named by `names`), null if it was left out.
const cost::Model* find_ccm(const std::vector<std::unique_ptr<cost::Model>>& models,
                            const std::vector<std::string>& names) {
    const cost::Model* ccm = nullptr;
    for (std::size_t i = 0; i < models.size(); ++i) {
        if (names[i] == "ccm") {
            ccm = models[i].get();
        }
    }
    return ccm;
}

/// Every point (case, size, p ≤ P the case applies to) in report order; notes each case's goal in report.goals.
std::vector<Point> list_points(
    const std::vector<Case>& cases, SizeClass size_class, int P, const Options& options, Report& report) {
    const std::vector<int>& only = options.group_sizes;
    std::vector<Point> points;
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        report.goals[cases[ci].algorithm] = cases[ci].goal;
        report.p1_priced_by_whole_run[cases[ci].algorithm] = cases[ci].p1_priced_by_whole_run;
        const auto sizes = cases[ci].sizes(size_class);
        for (const std::int64_t n : sizes) {
            if (options.largest && n != sizes.back()) {
                continue;
            }
            for (int p = 1; p <= P; ++p) {
                const bool chosen = only.empty() || std::find(only.begin(), only.end(), p) != only.end();
                if (chosen && (!cases[ci].applies || cases[ci].applies(p, n))) {
                    points.push_back({ci, n, p, n == sizes.back()});
                }
            }
        }
    }
    return points;
}

/// Rank 0: every point's measurement, priced by every model, and the traced points' superstep comparisons, into
/// `report` in point order.
void summarise(Report& report,
               const std::vector<Point>& points,
               const std::vector<Case>& cases,
               Taken& taken,
               const tools::SpeedReference& speed,
               const tools::SamplingRule& rule,
               const cost::Profile& profile,
               const std::vector<std::unique_ptr<cost::Model>>& models) {
    for (std::size_t i = 0; i < points.size(); ++i) {
        const Point& point = points[i];
        const Case& c = cases[point.case_index];
        Measurement m = measurement_of(c,
                                       point.n,
                                       point.p,
                                       point.p > report.cores,
                                       taken.samples[i],
                                       speed,
                                       static_cast<std::size_t>(rule.min_samples));
        for (std::size_t k = 0; k < models.size(); ++k) {
            m.predictions[report.models[k]] =
                predict(c, point.p, point.n, profile, *models[k], m.median_s, {m.p10_s, m.p90_s});
        }
        report.measurements.push_back(std::move(m));
        if (taken.traced[i]) {
            report.supersteps.push_back(std::move(taken.steps[i]));
        }
    }
}

/// The machine's state during the run against the profile's: the fastest canaries, and the median link canary of the
/// two-processor points (as the profile's median).
void note_canaries(Report& report,
                   const tools::SpeedReference& speed,
                   const cost::Profile& profile,
                   const std::vector<Point>& points,
                   const Taken& taken) {
    report.canary_cpu_s = speed.fastest().cpu;
    report.canary_link_s = speed.fastest().link < 1e300 ? speed.fastest().link : 0.0;
    report.profile_canary_cpu_s = profile.meta().canary_cpu_s;
    report.profile_canary_link_s = profile.meta().canary_link_s;
    report.profile_canary_link_median_s = profile.meta().canary_link_median_s;
    const double fastest_throughput = speed.fastest().throughput;
    report.canary_throughput_s = fastest_throughput < 1e300 ? fastest_throughput : 0.0;
    report.profile_canary_throughput_s = profile.meta().canary_throughput_s;
    report.profile_kernel_rank_ratio = profile.meta().kernel_rank_ratio;
    std::vector<tools::Sample> on_two;  // as the profile's median: the samples of two-processor points
    std::size_t samples = 0;
    std::size_t slowed = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (const auto& round : taken.samples[i]) {
            if (points[i].p == 2) {
                on_two.insert(on_two.end(), round.begin(), round.end());
            }
            for (const tools::Sample& s : round) {
                ++samples;
                slowed += s.canary.throughput > tools::throughput_canary_tolerance * fastest_throughput ? 1 : 0;
            }
        }
    }
    report.throughput_slowed_share = samples > 0 ? static_cast<double>(slowed) / static_cast<double>(samples) : 0.0;
    report.canary_link_median_s = median_link_canary(on_two);
}

/// Writes the report into options.out, prints its summary, and draws the plots unless --no-plots. Returns the exit
/// status: 1 if the plots could not be drawn.
/// The exit status the verdicts give: 3 under --strict when a case misses, else 0.
int verdict_status(const Report& report, const Options& options) {
    const Counts counts = count(verdicts(report));
    return options.strict && counts.misses > 0 ? 3 : 0;
}

int write_outputs(const Report& report, const Options& options) {
    const std::string summary = write_report(report, options.out);
    std::cout << summary << '\n';
    std::cout << "report: " << options.out << "/summary.md (verdicts), results.csv, results.json, verdicts.csv, "
              << "supersteps.md, supersteps.json\n";
    int status = 0;
    if (options.plots) {
        const std::string script = plots_script();
        const char* python = std::getenv("LLC_PYTHON");
        const std::string command = std::string(python != nullptr && *python != '\0' ? python : "/usr/bin/python3") +
                                    " '" + script + "' '" + options.out + "'";
        if (script.empty() || std::system(command.c_str()) != 0) {
            std::cerr << "llc-validate: drawing the plots failed ("
                      << (script.empty() ? "validate_plots.py not found" : command) << ")\n";
            status = 1;
        }
    }
    // The last line: the counts (scripts/demo.sh repeats it).
    std::cout << "llc-validate: " << counts_line(verdicts(report)) << '\n';
    return status != 0 ? status : verdict_status(report, options);
}

/// Says on stderr, per case, how many points the CCM could not price and why (the first reason): a re-priced case is
/// judged on the points that remain, and a profile that lacks a key must not shrink a case unnoticed.
void say_unpriced_points(const Report& report) {
    std::map<std::string, std::pair<int, std::string>> unpriced;  // case → (points, first reason)
    for (const Measurement& m : report.measurements) {
        const auto ccm = m.predictions.find("ccm");
        if (ccm != m.predictions.end() && !ccm->second.why_not.empty()) {
            auto& [points, why] = unpriced[m.algorithm];
            if (points++ == 0) {
                why = ccm->second.why_not;
            }
        }
    }
    for (const auto& [name, what] : unpriced) {
        std::cerr << "llc-validate: note: " << name << ": " << what.first
                  << " point(s) not priced by the CCM, judged without them: " << what.second << '\n';
    }
}

/// --reprice DIR: DIR's measurements priced again under every model of the profile, judged, reported in --out.
int reprice(const Options& options) {
    const std::string profile_path = options.profile.empty() ? cost::default_profile_path() : options.profile;
    std::optional<cost::Profile> profile = load_profile(profile_path, true);
    if (!profile) {
        return 2;
    }
    if (!options.supplement.empty()) {
        const std::optional<cost::Profile> extra = load_profile(options.supplement, true);
        if (!extra) {
            return 2;
        }
        supplement_profile(*profile, *extra);
    }
    Report report;
    const std::vector<std::unique_ptr<cost::Model>> models = make_models(*profile, report, true);
    report.profile_path = profile_path;
    report.profile_date = profile->meta().date;
    report.cores = cores(options);
    report.size_class = "repriced from " + options.reprice;
    const std::vector<Case>& cases = tools::all_cases();
    for (Measurement m : read_measurements(options.reprice + "/results.csv")) {
        const Case& c = case_named(cases, m.algorithm, options.reprice + "/results.csv");
        report.goals[c.algorithm] = c.goal;
        report.p1_priced_by_whole_run[c.algorithm] = c.p1_priced_by_whole_run;
        for (std::size_t k = 0; k < models.size(); ++k) {
            m.predictions[report.models[k]] =
                predict(c, m.p, m.n, *profile, *models[k], m.median_s, {m.p10_s, m.p90_s});
        }
        report.world_size = std::max(report.world_size, m.p);
        report.measurements.push_back(std::move(m));
    }
    say_unpriced_points(report);
    const int status = write_outputs(report, options);
    if (status != 0 || !options.gate) {
        return status;
    }
    return gate(verdicts(report), options.reprice + "/verdicts.csv");
}

int run(Group& world, const Options& options) {
    const bool root = world.rank() == 0;
    const std::string profile_path = options.profile.empty() ? cost::default_profile_path() : options.profile;
    const std::optional<cost::Profile> profile = load_profile(profile_path, root);
    if (!profile) {
        return 2;
    }
    const std::optional<std::vector<Case>> cases = load_cases(options, root);
    if (!cases) {
        return 2;
    }
    Report report;
    const std::vector<std::unique_ptr<cost::Model>> models = make_models(*profile, report, root);
    const int P = world.size();
    report.profile_path = profile_path;
    report.profile_date = profile->meta().date;
    report.world_size = P;
    report.cores = cores(options);
    report.size_class = options.size_name;
    if (const auto note = tools::node_layout_note(profile->meta().nodes, tools::ranks_per_node(world.native()));
        root && !note.empty()) {
        std::cerr << "llc-validate: note: " << note << '\n';
    }
    // How long to measure one point in one round: llc::tools' timing rule (the one llc-probe calibrates with), at
    // least min_samples, then until the budget is spent or the median is stable.
    const tools::SamplingRule rule = options.quick ? tools::SamplingRule{3, 14, 0.05, 0.02, 0.004, 200}
                                                   : tools::SamplingRule{4, 34, 0.2, 0.01, 0.02, 400};

    const std::vector<Point> points = list_points(*cases, options.size_class, P, options, report);
    ProgressBar progress(static_cast<int>(points.size()) * measuring_rounds * options.slices, root);
    // The machine's full speed, by the canary of llc/tools/timing.hpp: samples taken while it ran slower are left out
    // of the measured median (and counted), as llc-probe leaves them out of the profile.
    tools::SpeedReference speed;
    speed.calibrate(world.native());
    const Rounds rounds{
        world, *cases, *profile, find_ccm(models, report.models), rule, std::min(P, report.cores), options.slices};
    Taken taken = measure_in_rounds(rounds, points, speed, [&](const std::string& what) { progress.step(what); });
    progress.finish();
    if (!root) {
        return 0;
    }
    summarise(report, points, *cases, taken, speed, rule, *profile, models);
    note_canaries(report, speed, *profile, points, taken);
    return write_outputs(report, options);
}

}  // namespace
}  // namespace llc::validate

int main(int argc, char** argv) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});  // times as llc-probe measures (docs/embedding.md)
    auto& world = env.world();
    const bool root = world.rank() == 0;
    llc::validate::Options options;
    std::string algorithms;
    std::string group_sizes;
    bool no_plots = false;
    po::options_description visible("llc-validate [options]  (run under mpirun -np P)");
    visible.add_options()("help,h", "this text")(
        "profile", po::value(&options.profile), "machine profile (default: $LLC_PROFILE or the per-host cache file)")(
        "algorithms", po::value(&algorithms), "comma-separated names, families or prefixes (default: all)")(
        "sizes", po::value(&options.size_name)->default_value("small"), "small | medium | large")(
        "p", po::value(&group_sizes), "comma-separated group sizes to measure (default: every p <= P)")(
        "largest", po::bool_switch(&options.largest), "only the largest size of each case's --sizes class")(
        "out", po::value(&options.out)->default_value("validate-report"), "report directory")(
        "quick", po::bool_switch(&options.quick), "fewer repetitions (the demo's setting)")(
        "slices",
        po::value(&options.slices)->default_value(llc::validate::default_slices_per_round),
        "visits each measuring round is made of, spread over the run (1: one visit a round)")(
        "no-plots", po::bool_switch(&no_plots), "skip the matplotlib plots")(
        "strict", po::bool_switch(&options.strict), "exit 3 when a case misses its bound (docs/validation.md)")(
        "cores",
        po::value(&options.cores),
        "cores before a run is oversubscribed (default: the machine's; SMPI: the platform's)")(
        "reprice", po::value(&options.reprice), "price DIR/results.csv again with --profile instead of measuring")(
        "gate",
        po::bool_switch(&options.gate),
        "with --reprice: exit 3 when a case that met in DIR/verdicts.csv "
        "no longer meets")(
        "reprice-supplement",
        po::value(&options.supplement),
        "with --reprice: FILE's kernel constants and meta.llc_bytes where --profile has none (a model change "
        "priced on recorded measurements before they are re-recorded)");
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, visible), vm);
        po::notify(vm);
        if (vm.count("help") != 0) {
            if (root) {
                std::cout << visible;
            }
            return 0;
        }
        if (options.size_name == "small") {
            options.size_class = llc::validate::SizeClass::small;
        } else if (options.size_name == "medium") {
            options.size_class = llc::validate::SizeClass::medium;
        } else if (options.size_name == "large") {
            options.size_class = llc::validate::SizeClass::large;
        } else {
            throw llc::Error(
                llc::argument_message("llc-validate", "--sizes", options.size_name, "must be small, medium or large"));
        }
        if (vm.count("cores") != 0 && options.cores < 1) {
            throw llc::Error(llc::argument_message(
                "llc-validate", "--cores", std::to_string(options.cores), "must be a positive number of cores"));
        }
        if (options.slices < 1 || options.slices > 10) {
            throw llc::Error(llc::argument_message(
                "llc-validate", "--slices", std::to_string(options.slices), "must be 1 … 10 visits a round"));
        }
        if (!options.supplement.empty() && options.reprice.empty()) {
            throw llc::Error(llc::argument_message(
                "llc-validate", "--reprice-supplement", options.supplement, "needs --reprice DIR"));
        }
        options.algorithms = llc::validate::split_list(algorithms);
        for (const auto& p : llc::validate::split_list(group_sizes)) {
            const int value = std::atoi(p.c_str());
            if (value < 1 || value > world.size()) {
                throw llc::Error(llc::argument_message("llc-validate", "--p", group_sizes, "entries must be 1 … P"));
            }
            options.group_sizes.push_back(value);
        }
        options.plots = !no_plots;
    } catch (const std::exception& e) {
        if (root) {
            std::cerr << llc::validate::tool_message(e.what()) << '\n';
        }
        return 2;
    }
    try {
        if (!options.reprice.empty()) {
            return root ? llc::validate::reprice(options) : 0;
        }
        return llc::validate::run(world, options);
    } catch (const std::exception& e) {
        // One rank failed mid-sweep; the others may be inside a collective: end the whole job, never hang.
        llc::abort_job("/", llc::validate::tool_message(e.what()));
    }
}
