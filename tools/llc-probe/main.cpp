// llc-probe — calibrates the machine profile of the CCM cost layer (DESIGN §3), or checks one.
//
//   mpirun -np P build/bin/llc-probe [--out profile.json] [--quick]
//   mpirun -np P build/bin/llc-probe --check profile.json [--json] [--quick]
//   build/bin/llc-probe --inspect profile.json
//
// Exit status: 0 success, 2 bad arguments or input (the message names the argument or the file), 1 other failure;
// --inspect: 3 when the profile lacks a measurement this build makes (calibrate again); 4 when its processors ran the
// kernel probes unevenly (llc::tools::processors_even_tolerance: calibrate again).
// Every rank parses the same command line and reaches the same verdict, so an error ends every rank, never a hang.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/cost/profile.hpp>
#include <llc/llc.hpp>
#include <llc/tools/timing.hpp>

#include "calibrate.hpp"
#include "check.hpp"
#include "kernel_rounds.hpp"
#include "machine.hpp"

namespace po = boost::program_options;

namespace {

constexpr const char* usage = R"(llc-probe — measure this machine's cost profile for the CCM cost layer

usage:  mpirun -np P llc-probe [--out FILE] [--quick]
        mpirun -np P llc-probe --check FILE [--json] [--quick]
        llc-probe --inspect FILE

Measures, for every group size p <= P (p = 1 … min(P, 8), then powers of two and P), every collective of the llc
layer, swap and shift over log-uniform message sizes in shuffled order (each repeated until the median is stable), the
division (llc::par), the P-3PC point-to-point paths, LogGP / BSP / Hockney / C3 parameters and the algorithms' kernel
constants, fits them and writes the profile (raw samples beside it, FILE with .samples.csv).
Default FILE: $LLC_PROFILE, else $XDG_CACHE_HOME/llc/profile-<host>.json, else ~/.cache/llc/profile-<host>.json.
)";

struct Arguments {
    std::string out;
    std::string check;
    std::string inspect;
    std::string check_samples;
    bool quick = false;
    bool json = false;
    bool help = false;
    bool no_kernels = false;
    bool quiet = false;
    bool verbose = false;
    double max_bytes = 0.0;
    double collective_max_bytes = 0.0;
    int sizes = 0;
    int max_reps = 0;
    int cores = 0;                     ///< --cores: a node's cores (0: llc::node_cores())
    std::vector<std::string> kernels;  ///< --kernels: fnmatch patterns of the kernel probes to run (empty: all)
};

/// A bad command line: the message names the argument.
struct BadArgument : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// --kernels' patterns, each of which must match a kernel probe this build runs with these arguments (--quick leaves
/// out the full_only ones); not with --no-kernels, --check or --inspect.
std::vector<std::string> kernel_patterns(const std::string& list, const Arguments& a) {
    const std::string arg = "argument '--kernels' = '" + list + "': ";
    if (a.no_kernels || !a.check.empty() || !a.inspect.empty()) {
        throw BadArgument(arg +
                          "only when calibrating with kernel probes (not with --no-kernels, --check or --inspect)");
    }
    std::vector<std::string> patterns;
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        patterns.push_back(list.substr(from, comma - from));
        from = comma + 1;
    }
    llc::probe::Settings s;
    s.quick = a.quick;
    for (const std::string& pattern : patterns) {
        if (pattern.empty()) {
            throw BadArgument(arg + "an empty pattern (a comma-separated list of patterns such as 'symv.*')");
        }
        s.kernels = {pattern};
        if (llc::probe::kernel_probes_for(s).empty()) {
            throw BadArgument(arg + "'" + pattern + "' matches no kernel probe of this build" +
                              (a.quick ? " that --quick runs" : ""));
        }
    }
    return patterns;
}

Arguments parse(int argc, char** argv, po::options_description& visible) {
    Arguments a;
    visible.add_options()("help,h", po::bool_switch(&a.help), "this text")(
        "out", po::value(&a.out), "where to write the profile (default: the default profile location)")(
        "quick",
        po::bool_switch(&a.quick),
        "a profile in under a minute at P = 2 (fewer sizes up to 4 MiB, fewer repetitions)")(
        "verbose",
        po::bool_switch(&a.verbose),
        "after calibrating, print where the time went: wall and CPU seconds by phase and by kernel probe (rank 0)")(
        "check", po::value(&a.check), "re-measure held-out sizes and print the profile's relative errors")(
        "json", po::bool_switch(&a.json), "with --check: the table as JSON")(
        "inspect",
        po::value(&a.inspect),
        "print what the profile holds and what this build would measure that it lacks (exit 3 then)")(
        "collective-max-bytes",
        po::value(&a.collective_max_bytes),
        "largest h of the collectives but swap (default 96 MiB, with --quick 4 MiB: give 100663296 before "
        "llc-validate --sizes large, whose 11 and 64 MiB are otherwise priced beyond the data)")(
        "cores",
        po::value(&a.cores),
        "cores of a node, for telling a crowded node (default: this machine's; SMPI: the platform's host's)")(
        "kernels",
        po::value<std::string>(),
        "only the kernel probes whose key matches one of these comma-separated shell patterns (e.g. 'symv.*'; "
        "default: all); the profile then lacks the others");
    po::options_description hidden;
    hidden.add_options()("max-bytes", po::value(&a.max_bytes), "testing: largest message size")(
        "sizes", po::value(&a.sizes), "testing: number of message sizes")(
        "max-reps", po::value(&a.max_reps), "testing: repetition cap per cell")(
        "no-kernels", po::bool_switch(&a.no_kernels), "testing: skip the kernel probes")(
        "quiet", po::bool_switch(&a.quiet), "no progress bar")(
        "check-samples", po::value(&a.check_samples), "with --check: write the re-measured samples (CSV) here");
    po::options_description all;
    all.add(visible).add(hidden);
    try {
        po::variables_map vm;
        po::store(po::command_line_parser(argc, argv).options(all).run(), vm);
        po::notify(vm);
        if (vm.count("out") != 0 && a.out.empty()) {
            throw BadArgument("argument '--out' = '': must name a file");
        }
        if (vm.count("check") != 0 && a.check.empty()) {
            throw BadArgument("argument '--check' = '': must name a profile file");
        }
        if (vm.count("inspect") != 0 && a.inspect.empty()) {
            throw BadArgument("argument '--inspect' = '': must name a profile file");
        }
        if (!a.inspect.empty() && (!a.check.empty() || vm.count("out") != 0 || a.quick)) {
            throw BadArgument("argument '--inspect' = '" + a.inspect + "': alone (not with --check, --out or --quick)");
        }
        if (!a.check.empty() && vm.count("out") != 0) {
            throw BadArgument("argument '--out' = '" + a.out + "': not with --check (a check writes no profile)");
        }
        if (a.verbose && (!a.check.empty() || !a.inspect.empty())) {
            throw BadArgument("argument '--verbose': only when calibrating (not with --check or --inspect)");
        }
        if (a.json && a.check.empty()) {
            throw BadArgument("argument '--json': only with --check");
        }
        if (vm.count("max-bytes") != 0 && !(a.max_bytes >= 64.0 && a.max_bytes <= 1024.0 * 1024 * 1024)) {
            throw BadArgument("argument '--max-bytes' = " + std::to_string(a.max_bytes) + ": must be in [64, 2^30]");
        }
        if (vm.count("collective-max-bytes") != 0 &&
            !(a.collective_max_bytes >= 64.0 && a.collective_max_bytes <= 1024.0 * 1024 * 1024)) {
            throw BadArgument("argument '--collective-max-bytes' = " + std::to_string(a.collective_max_bytes) +
                              ": must be in [64, 2^30]");
        }
        if (vm.count("sizes") != 0 && (a.sizes < 4 || a.sizes > 200)) {
            throw BadArgument("argument '--sizes' = " + std::to_string(a.sizes) + ": must be in [4, 200]");
        }
        if (vm.count("cores") != 0 && a.cores < 1) {
            throw BadArgument("argument '--cores' = " + std::to_string(a.cores) +
                              ": must be a positive number of cores");
        }
        if (vm.count("max-reps") != 0 && (a.max_reps < 3 || a.max_reps > 100000)) {
            throw BadArgument("argument '--max-reps' = " + std::to_string(a.max_reps) + ": must be in [3, 100000]");
        }
        if (vm.count("kernels") != 0) {
            a.kernels = kernel_patterns(vm["kernels"].as<std::string>(), a);
        }
    } catch (const po::error& e) {
        throw BadArgument(e.what());
    }
    return a;
}

llc::probe::Settings settings_from(const Arguments& a) {
    llc::probe::Settings s;
    s.quick = a.quick;
    if (a.quick) {
        s.max_bytes = 4.0 * 1024 * 1024;
        s.ladder_max_bytes = s.max_bytes;  // within the minute: the collectives' ladder past 4 MiB costs ~5-10 s
        s.sizes = 24;
        s.min_reps = 11;
        s.max_reps = 1000;
        s.cell_budget = 0.1;
        s.target_rse = 0.04;
    }
    if (a.max_bytes > 0.0) {
        s.max_bytes = a.max_bytes;
        s.swap_max_bytes = a.max_bytes;
        s.ladder_max_bytes = a.max_bytes;
    }
    if (a.collective_max_bytes > 0.0) {
        s.ladder_max_bytes = a.collective_max_bytes;
    }
    if (a.sizes > 0) {
        s.sizes = a.sizes;
    }
    if (a.max_reps > 0) {
        s.max_reps = a.max_reps;
        s.min_reps = std::min(s.min_reps, a.max_reps);
    }
    s.progress = !a.quiet;
    s.kernels = a.kernels;
    return s;
}

void print_report(const std::vector<llc::probe::FitReport>& report) {
    std::printf("%-22s %4s %8s %8s %12s %12s\n", "function", "p", "pieces", "samples", "median rel", "max rel");
    for (const auto& r : report) {
        std::printf("%-22s %4d %8zu %8zu %11.2f%% %11.2f%%\n",
                    r.function.c_str(),
                    r.p,
                    r.segments,
                    r.quality.samples,
                    100.0 * r.quality.median_relative,
                    100.0 * r.quality.max_relative);
    }
}

/// Wall and CPU seconds of `times` summed by `key(name)`, largest wall first: (key, calls, wall, CPU).
template <class Key>
std::vector<std::tuple<std::string, int, double, double>> summed(const std::vector<llc::probe::TimeSpent>& times,
                                                                 Key key) {
    std::map<std::string, std::tuple<int, double, double>> by;
    for (const auto& t : times) {
        auto& [calls, wall, cpu] = by[key(t.name)];
        ++calls;
        wall += t.wall;
        cpu += t.cpu;
    }
    std::vector<std::tuple<std::string, int, double, double>> out;
    for (const auto& [name, v] : by) {
        out.emplace_back(name, std::get<0>(v), std::get<1>(v), std::get<2>(v));
    }
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return std::get<2>(a) > std::get<2>(b); });
    return out;
}

/// --verbose: where rank 0's time went, by phase, by measured operation and group size (the visits of its cells,
/// warm-ups and canaries included; the 15 longest cells apart), by kernel family (the key without its size and "_solo")
/// and by kernel probe key (side by side and alone apart), each with its wall and CPU seconds summed over the rounds.
/// On a loaded machine the CPU column is the one to compare between builds.
void print_timings(const llc::probe::Calibration& c) {
    const auto table = [](const char* title, const auto& rows) {
        double wall = 0.0;
        double cpu = 0.0;
        std::printf("%s\n%-44s %6s %10s %10s\n", title, "name", "calls", "wall s", "CPU s");
        for (const auto& [name, calls, w, u] : rows) {
            std::printf("%-44s %6d %10.3f %10.3f\n", name.c_str(), calls, w, u);
            wall += w;
            cpu += u;
        }
        std::printf("%-44s %6s %10.3f %10.3f\n", "total", "", wall, cpu);
    };
    table("time by phase (rank 0):", summed(c.phase_times, [](const std::string& n) { return n; }));
    // "<op> p=<p> h=<bytes>" → "<op> p=<p>".
    table("time by operation (rank 0, its cells' visits at every size):",
          summed(c.cell_times, [](const std::string& n) { return n.substr(0, n.rfind(" h=")); }));
    auto cells = summed(c.cell_times, [](const std::string& n) { return n; });
    cells.resize(std::min<std::size_t>(cells.size(), 15));
    table("the 15 longest cells (rank 0):", cells);
    if (c.probe_times.empty()) {
        return;  // --no-kernels
    }
    const auto family = [](std::string n) {
        const auto size = n.rfind(".2^");
        n = size == std::string::npos ? n : n.substr(0, size);
        const auto solo = n.find("_solo");
        return solo == std::string::npos ? n : n.erase(solo, 5);
    };
    table("time by kernel family (rank 0, side by side and alone, every round):", summed(c.probe_times, family));
    table("time by kernel probe (rank 0, every round):", summed(c.probe_times, [](const std::string& n) { return n; }));
}

/// The machine's state at calibration and now, by the canaries (llc/tools/timing.hpp): a check run while the host ran
/// this VM's processors slower, or placed them farther apart, measures that, not the profile's error.
void print_machine_state(const llc::cost::ProfileMeta& meta, const llc::tools::Canary& now) {
    const auto line = [](const char* what, double then, double current) {
        if (then > 0.0 && current > 0.0) {
            std::printf("machine state: %s canary %.2f us now, %.2f us at calibration (x%.2f)\n",
                        what,
                        1e6 * current,
                        1e6 * then,
                        current / then);
        }
    };
    line("CPU", meta.canary_cpu_s, now.cpu);
    line("link", meta.canary_link_s, now.link);
    line("throughput", meta.canary_throughput_s, now.throughput);
}

/// Whether the processors ran the kernel probes side by side at one speed (llc::tools::processors_even_tolerance);
/// true when the profile does not record it (one processor, no kernel probes, SMPI, older profiles).
bool processors_even(const llc::cost::ProfileMeta& meta) {
    const double ratio = meta.kernel_rank_ratio;
    return !(ratio > 0.0) || std::max(ratio, 1.0 / ratio) <= llc::tools::processors_even_tolerance;
}

/// The processors' evenness in one line (nothing when the profile does not record it), with what to do when uneven.
void print_processors(const llc::cost::ProfileMeta& meta, const std::string& path) {
    const double ratio = meta.kernel_rank_ratio;
    if (!(ratio > 0.0)) {
        return;
    }
    if (processors_even(meta)) {
        std::printf("processors: even (side-by-side kernels of the farthest rank at x%.3f rank 0's)\n", ratio);
        return;
    }
    std::printf(
        "processors: UNEVEN: side-by-side kernels of the farthest rank at x%.3f rank 0's (beyond x%.2f): one "
        "processor ran slowed through much of the calibration (another guest on its core), and the profile "
        "prices p > 1 at its speed; calibrate again: mpirun -np %d llc-probe --out %s%s\n",
        ratio,
        llc::tools::processors_even_tolerance,
        meta.world_size,
        path.c_str(),
        meta.quick ? " --quick" : "");
}

void print_check(const std::vector<llc::probe::CheckRow>& rows, bool json) {
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& r : rows) {
            out.push_back({{"function", r.function},
                           {"p", r.p == 0 ? nlohmann::json("<=2") : nlohmann::json(r.p)},
                           {"sizes", r.errors.size()},
                           {"median_abs_rel_error", r.median_abs},
                           {"p90_abs_rel_error", r.p90_abs},
                           {"max_abs_rel_error", r.max_abs},
                           {"drift_median_abs",
                            std::isnan(r.drift_median_abs) ? nlohmann::json() : nlohmann::json(r.drift_median_abs)},
                           {"target_median", r.target_median},
                           {"target_p90", r.target_p90},
                           {"met", r.met()},
                           {"bytes", r.bytes},
                           {"signed_rel_errors", r.errors}});
        }
        std::cout << out.dump(1) << '\n';
        return;
    }
    std::printf("%-18s %5s %6s %10s %10s %10s %10s %16s  %s\n",
                "function",
                "p",
                "sizes",
                "median",
                "P90",
                "max",
                "drift",
                "target",
                "");
    bool all_met = true;
    for (const auto& r : rows) {
        const std::string p = r.p == 0 ? "<=2" : std::to_string(r.p);
        if (r.p == 0) {
            all_met = all_met && r.met();
        }
        std::printf("%-18s %5s %6zu %9.1f%% %9.1f%% %9.1f%% %9.1f%%   %4.0f%% / %3.0f%%  %s\n",
                    r.function.c_str(),
                    p.c_str(),
                    r.errors.size(),
                    100.0 * r.median_abs,
                    100.0 * r.p90_abs,
                    100.0 * r.max_abs,
                    100.0 * r.drift_median_abs,
                    100.0 * r.target_median,
                    100.0 * r.target_p90,
                    r.p == 0 ? (r.met() ? "met" : "MISSED") : "");
    }
    std::printf(
        "targets at p <= 2 (median / P90 of |predicted - measured| / measured): %s\n"
        "drift: median |re-measured - calibrated| / calibrated at calibrated sizes (the machine's own change)\n",
        all_met ? "all met" : "some missed");
}

/// --inspect: what the profile at `path` holds, and what this build measures that it lacks. Every rank reads the file
/// and reaches the same verdict; rank 0 prints. 0: complete; 3: something missing; 2: unreadable.
int inspect(const std::string& path, bool root) {
    llc::cost::Profile profile;
    try {
        profile = llc::cost::Profile::load(path);
    } catch (const std::exception& e) {
        if (root) {
            std::cerr << "llc-probe: bad argument '--inspect' = '" << path << "': " << e.what() << '\n';
        }
        return 2;
    }
    const llc::cost::ProfileMeta& meta = profile.meta();
    llc::probe::Settings settings;
    settings.quick = meta.quick;
    const std::vector<std::string> missing = llc::probe::missing_measurements(profile, settings);
    if (root) {
        std::printf("%s: %s profile of %s, P = %d, calibrated %s\n",
                    path.c_str(),
                    meta.quick ? "quick" : "full",
                    meta.host.c_str(),
                    meta.world_size,
                    meta.date.c_str());
        std::printf("canaries at calibration: CPU %.2f us, link %.2f us, throughput %.2f us\n",
                    1e6 * meta.canary_cpu_s,
                    1e6 * meta.canary_link_s,
                    1e6 * meta.canary_throughput_s);
        std::printf(
            "collectives: %zu, kernel constants: %zu\n", profile.collectives().size(), profile.kernels().size());
        if (missing.empty()) {
            std::printf("complete for this build\n");
        } else {
            std::string list;
            for (const std::string& name : missing) {
                list += (list.empty() ? "" : ", ") + name;
            }
            std::printf("lacks what this build measures: %s (calibrate again: mpirun -np P llc-probe --out %s%s)\n",
                        list.c_str(),
                        path.c_str(),
                        meta.quick ? " --quick" : "");
        }
    }
    if (root) {
        print_processors(meta, path);
    }
    return !missing.empty() ? 3 : processors_even(meta) ? 0 : 4;
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});  // the cost model assumes freed memory is reused
    llc::Group& world = env.world();
    const bool root = world.rank() == 0;

    po::options_description visible("options");
    Arguments args;
    try {
        args = parse(argc, argv, visible);
    } catch (const BadArgument& e) {
        if (root) {
            std::cerr << "llc-probe: bad argument: " << e.what() << "\n(see llc-probe --help)\n";
        }
        return 2;
    }
    if (args.help) {
        if (root) {
            std::cout << usage << '\n' << visible << '\n';
        }
        return 0;
    }
    if (!args.inspect.empty()) {
        return inspect(args.inspect, root);
    }
    const llc::probe::Settings settings = settings_from(args);
    llc::probe::set_node_cores(args.cores);

    if (!args.check.empty()) {
        llc::cost::Profile profile;
        try {
            profile = llc::cost::Profile::load(args.check);
        } catch (const std::exception& e) {
            if (root) {
                std::cerr << "llc-probe: bad argument '--check' = '" << args.check << "': " << e.what() << '\n';
            }
            return 2;
        }
        try {
            const auto fit_samples = llc::probe::read_samples_csv(llc::probe::samples_path(args.check));
            std::vector<llc::probe::RawSample> measured;
            llc::tools::Canary state;
            const auto rows = llc::probe::check(world, profile, fit_samples, settings, &measured, &state);
            if (root) {
                print_check(rows, args.json);
                if (!args.json) {
                    print_machine_state(profile.meta(), state);
                }
                if (!args.check_samples.empty()) {
                    llc::probe::write_samples_csv(args.check_samples, measured);
                }
            }
        } catch (const std::exception& e) {
            // Possibly this rank's alone (the others may be inside a collective): end the job, never hang.
            llc::abort_job(world.path(), std::string("llc-probe --check: ") + e.what());
        }
        return 0;
    }

    const std::string out = args.out.empty() ? llc::cost::default_profile_path() : args.out;
    int status = 0;
    try {
        llc::probe::Calibration calibration = llc::probe::calibrate(world, settings, !args.no_kernels);
        if (root) {
            try {
                calibration.profile.save(out);
                llc::probe::write_samples_csv(llc::probe::samples_path(out), calibration.samples);
                print_report(calibration.report);
                if (args.verbose) {
                    print_timings(calibration);
                }
                std::printf("llc-probe: wrote %s (%s, P = %d) and %s\n",
                            out.c_str(),
                            settings.quick ? "quick" : "full",
                            world.size(),
                            llc::probe::samples_path(out).c_str());
                print_processors(calibration.profile.meta(), out);
            } catch (const std::exception& e) {
                std::cerr << "llc-probe: " << e.what() << '\n';
                status = 1;
            }
        }
    } catch (const llc::probe::AgreedError& e) {
        if (root) {
            std::cerr << "llc-probe: " << e.what() << '\n';
        }
        status = 1;
    } catch (const std::exception& e) {
        // Possibly this rank's alone (the others may be inside a collective): end the job, never hang.
        llc::abort_job(world.path(), std::string("llc-probe: ") + e.what());
    }
    // Every rank ends with rank 0's verdict on the write.
    MPI_Bcast(&status, 1, MPI_INT, 0, world.native());
    return status;
}
