// llc-validate [--profile F] [--algorithms a,b,…] [--sizes small|medium|large] [--out DIR] [--quick] [--no-plots]
//
// Under `mpirun -np P`: for every validation case × size × group size p ≤ P (sub-groups of the world, so one run covers
// p = 1 … P), measures the median and 10th–90th percentile over repetitions, prices the same run under every model
// of the profile, and holds the largest case's trace against its Expr superstep by superstep. Writes DIR/results.csv,
// DIR/results.json, DIR/summary.md and plots (DIR/*.png, drawn with matplotlib). Exit status: 0 success, 2 bad
// arguments or profile, 1 any other failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <thread>
#include <unistd.h>

#include <boost/program_options.hpp>

#include <llc/cost.hpp>
#include <llc/llc.hpp>
#include <llc/tools/card.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "report.hpp"

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
};

const std::vector<std::string> model_names{"ccm", "bsp", "loggp", "hockney", "p3pc", "c3"};

int cores() {
    const long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online > 0 ? static_cast<int>(online) : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
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

/// Critical-path parts of a merged trace: along a division, the slowest task.
void measured_parts(const TraceNode& node, double& compute, double& comm, double& division) {
    switch (node.kind) {
        case StepKind::normal:
            compute += node.compute;
            comm += node.comm;
            return;
        case StepKind::compute:
            compute += node.compute;
            return;
        case StepKind::division: {
            compute += node.compute;
            division += node.split + node.exchange + node.rejoin;
            const TraceNode* slowest = nullptr;
            for (const auto& task : node.children) {
                if (slowest == nullptr || task.total() > slowest->total()) {
                    slowest = &task;
                }
            }
            if (slowest != nullptr) {
                measured_parts(*slowest, compute, comm, division);
            }
            return;
        }
        case StepKind::task:
        case StepKind::root:
            for (const auto& child : node.children) {
                measured_parts(child, compute, comm, division);
            }
            return;
    }
}

class ProgressBar {
  public:
    ProgressBar(int total, bool on) : total_(total), on_(on) {}
    void step(const std::string& what) {
        ++done_;
        if (!on_) {
            return;
        }
        constexpr int width = 30;
        const int filled = total_ > 0 ? done_ * width / total_ : width;
        std::fprintf(stderr,
                     "\r[%s%s] %d/%d %-48.48s",
                     std::string(static_cast<std::size_t>(filled), '#').c_str(),
                     std::string(static_cast<std::size_t>(width - filled), ' ').c_str(),
                     done_,
                     total_,
                     what.c_str());
        if (done_ == total_) {
            std::fprintf(stderr, "\n");
        }
        std::fflush(stderr);
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

/// The validator measures every point in this many rounds, each visiting the points in a new shuffled order, and
/// pools the rounds' samples: memory-bound code on this VM runs up to 1.5× slower for 0.3–1.5 s at a time, and a
/// point measured in one stretch of ~0.15 s took the speed of whichever phase it fell in (a serial FFT of 2^16 points
/// measured 0.60 to 0.92 ms from one case to the next of the same run). llc-probe's cells are visited the same way.
constexpr int measuring_rounds = 3;

/// Runs `instance` once traced and holds the trace against the case's Expr under the CCM; fills `steps` on the
/// group's rank 0 and returns whether it did. Collective over `g`.
bool trace_and_compare(Group& g,
                       Instance& instance,
                       const Case& c,
                       std::int64_t n,
                       const cost::Profile& profile,
                       const cost::Model& ccm,
                       SuperstepReport& steps) {
    Trace::enable(true);
    g.barrier();
    Trace::clear();
    g.restart_superstep_clock();
    instance.run();
    const Trace trace = Trace::gather(g);
    Trace::enable(false);
    if (g.rank() != 0) {
        return false;
    }
    // Rank 0 alone prices: nothing here may throw past this point, or the others would wait.
    try {
        const cost::Expr expr = c.expr(g.size(), n, profile);
        const cost::Comparison comparison = cost::compare(trace.merged(), expr, ccm);
        const cost::Breakdown predicted = cost::evaluate(expr, ccm);
        steps = SuperstepReport{c.algorithm,
                                n,
                                g.size(),
                                comparison.to_text(),
                                comparison.to_json(),
                                predicted.compute,
                                predicted.comm,
                                predicted.division,
                                0.0,
                                0.0,
                                0.0};
        measured_parts(trace.merged(), steps.measured_compute, steps.measured_comm, steps.measured_division);
        return true;
    } catch (const Error& e) {
        std::cerr << "\nllc-validate: no superstep comparison for " << c.algorithm << ": " << e.what() << '\n';
        return false;
    }
}

/// The median link canary of `samples` (those that carry one: two or more processors), 0 if none does.
double median_link_canary(const std::vector<tools::Sample>& samples) {
    std::vector<double> links;
    for (const tools::Sample& sample : samples) {
        if (sample.canary.link > 0.0) {
            links.push_back(sample.canary.link);
        }
    }
    return links.empty() ? 0.0 : tools::quantile(links, 0.5);
}

/// How far the rounds' medians lie apart, relative to the pooled `median` (Measurement::round_spread). Each round's
/// median by the pooled rule: its undisturbed samples, or all of them where the pooled median had to keep them all.
double round_spread_of(const std::vector<std::vector<tools::Sample>>& rounds,
                       const tools::SpeedReference& speed,
                       bool all_kept,
                       double median) {
    std::vector<double> round_medians;
    for (const auto& round : rounds) {
        const std::vector<double> kept =
            all_kept ? tools::all_seconds(round) : tools::undisturbed_seconds(round, speed, 1);
        if (!kept.empty()) {
            round_medians.push_back(tools::quantile(kept, 0.5));
        }
    }
    return pairwise_spread(round_medians, median);
}

/// The statistics of one point's samples, `rounds` of them (one vector per measuring round): median and 10th–90th
/// percentile of the undisturbed ones, pooled, and how far the rounds' medians lie apart (round_spread).
Measurement measurement_of(const Case& c,
                           std::int64_t n,
                           int p,
                           bool oversubscribed,
                           const std::vector<std::vector<tools::Sample>>& rounds,
                           const tools::SpeedReference& speed,
                           std::size_t at_least) {
    Measurement m;
    m.algorithm = c.algorithm;
    m.family = c.family;
    m.size_unit = c.size_unit;
    m.n = n;
    m.p = p;
    m.oversubscribed = oversubscribed;
    std::vector<tools::Sample> taken;
    for (const auto& round : rounds) {
        taken.insert(taken.end(), round.begin(), round.end());
    }
    bool all_kept = false;
    const std::vector<double> samples = tools::undisturbed_seconds(taken, speed, at_least, &all_kept);
    m.repetitions = static_cast<int>(taken.size());
    m.disturbed = static_cast<int>(taken.size() - samples.size());
    m.raw_median_s = tools::median(tools::all_seconds(taken));
    m.median_s = tools::quantile(samples, 0.5);
    m.p10_s = tools::quantile(samples, 0.1);
    m.p90_s = tools::quantile(samples, 0.9);
    m.round_spread = round_spread_of(rounds, speed, all_kept, m.median_s);
    m.link_canary_s = median_link_canary(taken);
    return m;
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

int run(Group& world, const Options& options) {
    const bool root = world.rank() == 0;
    const std::string profile_path = options.profile.empty() ? cost::default_profile_path() : options.profile;
    cost::Profile profile;
    try {
        profile = cost::Profile::load(profile_path);
    } catch (const Error& e) {
        if (root) {
            std::cerr << "llc-validate: " << e.what() << '\n';
        }
        return 2;
    }
    std::vector<Case> cases;
    try {
        cases = select(tools::all_cases(), options.algorithms);
    } catch (const Error& e) {
        if (root) {
            std::cerr << e.what() << '\n';
        }
        return 2;
    }
    std::vector<std::unique_ptr<cost::Model>> models;
    Report report;
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
    const cost::Model* ccm = nullptr;
    for (std::size_t i = 0; i < models.size(); ++i) {
        if (report.models[i] == "ccm") {
            ccm = models[i].get();
        }
    }
    const int P = world.size();
    report.profile_path = profile_path;
    report.profile_date = profile.meta().date;
    report.world_size = P;
    report.cores = cores();
    report.size_class = options.size_name;
    // How long to measure one point in one round: llc::tools' timing rule (the one llc-probe calibrates with), at
    // least min_samples, then until the budget is spent or the median is stable.
    const tools::SamplingRule rule =
        options.quick ? tools::SamplingRule{3, 14, 0.05, 0.02} : tools::SamplingRule{4, 34, 0.2, 0.01};
    const int trace_p = std::min(P, report.cores);

    // Every point (case, size, p) in report order.
    struct Point {
        std::size_t case_index;
        std::int64_t n;
        int p;
        bool largest;  // the case's largest size
    };
    std::vector<Point> points;
    for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        report.goals[cases[ci].algorithm] = cases[ci].goal;
        const auto sizes = cases[ci].sizes(options.size_class);
        for (const std::int64_t n : sizes) {
            for (int p = 1; p <= P; ++p) {
                if (!cases[ci].applies || cases[ci].applies(p, n)) {
                    points.push_back({ci, n, p, n == sizes.back()});
                }
            }
        }
    }
    ProgressBar progress(static_cast<int>(points.size()) * measuring_rounds, root);
    // The machine's full speed, by the canary of llc/tools/timing.hpp: samples taken while it ran slower are left out
    // of the measured median (and counted), as llc-probe leaves them out of the profile.
    tools::SpeedReference speed;
    speed.calibrate(world.native());
    std::vector<std::vector<std::vector<tools::Sample>>> taken(points.size());  // by point, then by round
    std::vector<SuperstepReport> steps(points.size());
    std::vector<bool> traced(points.size(), false);
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(20240601);  // the same order on every rank: the sub-groups are made collectively
    for (int round = 0; round < measuring_rounds; ++round) {
        std::shuffle(order.begin(), order.end(), rng);
        for (const std::size_t i : order) {
            const Point& point = points[i];
            const Case& c = cases[point.case_index];
            progress.step(c.algorithm + " n=" + std::to_string(point.n) + " p=" + std::to_string(point.p));
            Group& sub = point.p == P ? world : world.subgroup({point.p, P - point.p});
            if (world.rank() < point.p) {
                const auto instance = c.prepare(sub, point.n);
                const std::vector<tools::Sample> samples = tools::sample(
                    sub.native(), [&] { instance->run(); }, rule, speed);
                taken[i].push_back(samples);
                if (round + 1 == measuring_rounds && point.largest && point.p == trace_p && ccm != nullptr) {
                    traced[i] = trace_and_compare(sub, *instance, c, point.n, profile, *ccm, steps[i]);
                }
            }
            // The ranks outside the point's group sleep meanwhile, as the other processors of a p-processor run would
            // be idle; then every rank leaves with the same full-speed reference.
            tools::sleepy_barrier(world.native());
            speed.agree(world.native());
        }
    }
    if (root) {
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Point& point = points[i];
            const Case& c = cases[point.case_index];
            Measurement m = measurement_of(c,
                                           point.n,
                                           point.p,
                                           point.p > report.cores,
                                           taken[i],
                                           speed,
                                           static_cast<std::size_t>(rule.min_samples));
            for (std::size_t k = 0; k < models.size(); ++k) {
                m.predictions[report.models[k]] =
                    predict(c, point.p, point.n, profile, *models[k], m.median_s, {m.p10_s, m.p90_s});
            }
            report.measurements.push_back(std::move(m));
            if (traced[i]) {
                report.supersteps.push_back(std::move(steps[i]));
            }
        }
    }
    if (!root) {
        return 0;
    }
    report.canary_cpu_s = speed.fastest().cpu;
    report.canary_link_s = speed.fastest().link < 1e300 ? speed.fastest().link : 0.0;
    report.profile_canary_cpu_s = profile.meta().canary_cpu_s;
    report.profile_canary_link_s = profile.meta().canary_link_s;
    report.profile_canary_link_median_s = profile.meta().canary_link_median_s;
    std::vector<tools::Sample> on_two;  // as the profile's median: the samples of two-processor points
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (const auto& round : taken[i]) {
            if (points[i].p == 2) {
                on_two.insert(on_two.end(), round.begin(), round.end());
            }
        }
    }
    report.canary_link_median_s = median_link_canary(on_two);
    const std::string summary = write_report(report, options.out);
    std::cout << summary << '\n';
    std::cout << "report: " << options.out << "/summary.md, " << options.out << "/results.csv, " << options.out
              << "/results.json\n";
    if (options.plots) {
        const std::string script = plots_script();
        const char* python = std::getenv("LLC_PYTHON");
        const std::string command = std::string(python != nullptr && *python != '\0' ? python : "/usr/bin/python3") +
                                    " '" + script + "' '" + options.out + "'";
        if (script.empty() || std::system(command.c_str()) != 0) {
            std::cerr << "llc-validate: drawing the plots failed ("
                      << (script.empty() ? "validate_plots.py not found" : command) << ")\n";
            return 1;
        }
    }
    return 0;
}

}  // namespace
}  // namespace llc::validate

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    auto& world = env.world();
    const bool root = world.rank() == 0;
    llc::validate::Options options;
    std::string algorithms;
    bool no_plots = false;
    po::options_description visible("llc-validate [options]  (run under mpirun -np P)");
    visible.add_options()("help,h", "this text")(
        "profile", po::value(&options.profile), "machine profile (default: $LLC_PROFILE or the per-host cache file)")(
        "algorithms", po::value(&algorithms), "comma-separated names, families or prefixes (default: all)")(
        "sizes", po::value(&options.size_name)->default_value("small"), "small | medium | large")(
        "out", po::value(&options.out)->default_value("validate-report"), "report directory")(
        "quick", po::bool_switch(&options.quick), "fewer repetitions (the demo's setting)")(
        "no-plots", po::bool_switch(&no_plots), "skip the matplotlib plots");
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
        options.algorithms = llc::validate::split_list(algorithms);
        options.plots = !no_plots;
    } catch (const std::exception& e) {
        if (root) {
            std::cerr << "llc-validate: " << e.what() << '\n';
        }
        return 2;
    }
    try {
        return llc::validate::run(world, options);
    } catch (const std::exception& e) {
        // One rank failed mid-sweep; the others may be inside a collective: end the whole job, never hang.
        llc::abort_job("/", std::string("llc-validate: ") + e.what());
    }
}
