// llc-run symv: y = αAx + βy for a generated symmetric matrix on the ring (algorithms/symv).
//
//   mpirun -np P llc-run symv --n N [--seed S] [--mapping reflection|standard] [--no-overlap] [--alpha A] [--beta B]
//                             [--repeat K] [--check] [--out FILE] [--profile F] [--json]
//
// The matrix and the vectors are generated from the seed, entry by entry (a_ij, x_i, y_i uniform in [−1, 1) from a
// hash of (seed, i, j)), so every rank builds only its own rows and the same input comes out at every P. Prints ‖y‖₂,
// the largest error against a plain loop over the full matrix on rank 0 (--check, O(n²) there), the measured median
// time of one product (the matrix built once, outside the timing, as a reused operator) and the CCM prediction.
// --out writes y, one value a line, on rank 0, whole or not at all.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/symv.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

namespace llc::run {

namespace {

namespace po = boost::program_options;

/// A value in [−1, 1) from (seed, i, j): splitmix64 of their mix.
double generated(std::uint64_t seed, std::int64_t i, std::int64_t j) {
    std::uint64_t z = seed * 0x9e3779b97f4a7c15ULL + static_cast<std::uint64_t>(i) * 0xbf58476d1ce4e5b9ULL +
                      static_cast<std::uint64_t>(j) * 0x94d049bb133111ebULL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<double>((z ^ (z >> 31)) >> 11) * 0x1.0p-52 - 1.0;
}

struct Options {
    std::int64_t n = 0;
    std::uint64_t seed = 1;
    SymvMapping mapping = SymvMapping::reflection;
    bool overlap = true;
    double alpha = 1.0;
    double beta = 0.0;
    int repeat = 5;
    bool check = false;
    bool json = false;
    std::string out;
    std::optional<cost::Profile> profile;
};

std::optional<Options> parse(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run symv options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("n", po::value<std::int64_t>(), "matrix order (required)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated matrix and vectors")
        ("mapping", po::value<std::string>()->default_value("reflection"), "reflection (packed, article [3] §3) or standard (full rows, §2)")
        ("no-overlap", po::bool_switch(), "blocking shifts instead of split-phase ones")
        ("alpha", po::value<double>()->default_value(1.0), "α of y = αAx + βy")
        ("beta", po::value<double>()->default_value(0.0), "β of y = αAx + βy")
        ("repeat", po::value<int>()->default_value(5), "timed products; the median is reported")
        ("check", po::bool_switch(), "compare with a plain loop over the full matrix on rank 0 (O(n²) there)")
        ("out", po::value<std::string>(), "write y to this file (text, one value a line) on rank 0")
        ("profile", po::value<std::string>(), "machine profile (llc-probe): the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(args).options(desc).run(), vm);
        po::notify(vm);
    } catch (const po::error& e) {
        throw UsageError(e.what());
    }
    if (vm.count("help") != 0U) {
        if (world.rank() == 0) {
            std::printf("usage: mpirun -np P llc-run symv --n N [options]\n");
            desc.print(std::cout);
        }
        return std::nullopt;
    }
    Options o;
    if (vm.count("n") == 0U || vm["n"].as<std::int64_t>() < 1) {
        throw UsageError("--n: give the matrix order, at least 1");
    }
    o.n = vm["n"].as<std::int64_t>();
    o.seed = vm["seed"].as<std::uint64_t>();
    const std::string mapping = vm["mapping"].as<std::string>();
    if (mapping != "reflection" && mapping != "standard") {
        throw UsageError("--mapping: '" + mapping + "' is neither reflection nor standard");
    }
    o.mapping = mapping == "reflection" ? SymvMapping::reflection : SymvMapping::standard;
    o.overlap = !vm["no-overlap"].as<bool>();
    o.alpha = vm["alpha"].as<double>();
    o.beta = vm["beta"].as<double>();
    o.repeat = vm["repeat"].as<int>();
    if (o.repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(o.repeat) + " must be at least 1");
    }
    o.check = vm["check"].as<bool>();
    o.json = vm["json"].as<bool>();
    if (vm.count("out") != 0U) {
        o.out = vm["out"].as<std::string>();
        check_output_path("--out", o.out);
    }
    if (vm.count("profile") != 0U) {
        try {
            o.profile = cost::Profile::load(vm["profile"].as<std::string>());
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    return o;
}

/// The largest |y − ŷ|_i / (4nε(|α||A||x| + |β||y|)_i) against the plain loop: ≤ 1 is within the bound.
double error_ratio(const Options& o, const std::vector<double>& y) {
    const auto n = static_cast<std::size_t>(o.n);
    double worst = 0.0;
    for (std::size_t i = 0; i < n; ++i) {
        double sum = 0.0;
        double abs = 0.0;
        for (std::size_t j = 0; j < n; ++j) {
            const auto [r, c] = i >= j ? std::pair{i, j} : std::pair{j, i};
            const double t = generated(o.seed, static_cast<std::int64_t>(r), static_cast<std::int64_t>(c)) *
                             generated(o.seed + 1, static_cast<std::int64_t>(j), -1);
            sum += t;
            abs += std::abs(t);
        }
        const double y0 = generated(o.seed + 2, static_cast<std::int64_t>(i), -1);
        const double expected = o.alpha * sum + (o.beta == 0.0 ? 0.0 : o.beta * y0);
        const double bound = 4.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() *
                                 (std::abs(o.alpha) * abs + std::abs(o.beta * y0)) +
                             std::numeric_limits<double>::min();
        worst = std::max(worst, std::abs(y[i] - expected) / bound);
    }
    return worst;
}

void write_vector(const std::string& path, const std::vector<double>& y) {
    std::string text;
    char buffer[32];
    for (const double v : y) {
        const int length = std::snprintf(buffer, sizeof buffer, "%.17g\n", v);
        text.append(buffer, static_cast<std::size_t>(length));
    }
    write_whole(path, text);
}

int run_symv(Group& world, const std::vector<std::string>& args) {
    const std::optional<Options> o = parse(world, args);
    if (!o) {
        return 0;
    }
    const std::uint64_t seed = o->seed;
    const SymmetricMatrix<double> A(
        world, o->n, [seed](std::int64_t i, std::int64_t j) { return generated(seed, i, j); }, o->mapping);
    std::vector<double> x;
    std::vector<double> y0;
    for (const std::int64_t i : A.local_row_indices()) {
        x.push_back(generated(seed + 1, i, -1));
        y0.push_back(generated(seed + 2, i, -1));
    }
    std::vector<double> y = y0;
    const SymvOptions options{o->overlap};
    const auto execute = [&] {
        y = y0;
        symv<double>(world, o->alpha, A, x, o->beta, y, options);
    };
    (void)tools::time_sample(world.native(), 1, execute);
    std::vector<double> samples;
    for (int k = 0; k < o->repeat; ++k) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    std::optional<double> prediction;
    if (o->profile) {
        try {
            prediction = cost::predict(cost::symv(world.size(), o->n, o->mapping, *o->profile, o->overlap),
                                       cost::CCM(*o->profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    const std::vector<double> full = gather_vector<double>(world, A.layout(), y, 0);
    if (world.rank() != 0) {
        return 0;
    }
    double norm = 0.0;
    for (const double v : full) {
        norm += v * v;
    }
    norm = std::sqrt(norm);
    // Negative when not checked (a std::optional here trips GCC 12's -Wmaybe-uninitialized).
    const double ratio = o->check ? error_ratio(*o, full) : -1.0;
    if (!o->out.empty()) {
        write_vector(o->out, full);
    }
    const char* mapping = o->mapping == SymvMapping::reflection ? "reflection" : "standard";
    if (o->json) {
        const nlohmann::json j{{"algorithm", "symv"},
                               {"P", world.size()},
                               {"n", o->n},
                               {"mapping", mapping},
                               {"overlap", o->overlap},
                               {"local_entries", A.local_entries()},
                               {"norm", norm},
                               {"error_ratio", o->check ? nlohmann::json(ratio) : nlohmann::json(nullptr)},
                               {"repeat", o->repeat},
                               {"measured_s", measured},
                               {"samples_s", samples},
                               {"predicted_s", prediction ? nlohmann::json(*prediction) : nlohmann::json(nullptr)}};
        std::printf("%s\n", j.dump().c_str());
    } else {
        std::printf("symv: P = %d, n = %lld, %s mapping, %s, %lld entries on rank 0\n",
                    world.size(),
                    static_cast<long long>(o->n),
                    mapping,
                    o->overlap ? "overlapped shifts" : "blocking shifts",
                    static_cast<long long>(A.local_entries()));
        std::printf("|y|_2:     %.17g\n", norm);
        if (o->check) {
            std::printf("check:     max error / bound 4n*eps*(|alpha||A||x| + |beta||y|) = %.3g (%s)\n",
                        ratio,
                        ratio <= 1.0 ? "ok" : "FAILED");
        }
        std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), o->repeat);
        if (prediction) {
            std::printf("predicted: %s (CCM)\n", cost::format_seconds(*prediction).c_str());
        } else {
            std::printf("predicted: - (no --profile)\n");
        }
    }
    return ratio > 1.0 ? 1 : 0;
}

}  // namespace

RunCommand symv_command() {
    return {"symv",
            "symmetric matrix-vector product on a ring, reflection mapping (Grigg, Miguet & Robert, [3])",
            run_symv};
}

}  // namespace llc::run
