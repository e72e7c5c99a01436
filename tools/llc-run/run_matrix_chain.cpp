// llc-run matrix-chain / optimal-bst: the ring interval DP (algorithms/matrix_chain) on given or generated input.
//
//   mpirun -np P llc-run matrix-chain [--dims "30,35,15,5,10,20,25" | --n N --seed S] [--r R] [--repeat K]
//                                     [--profile F] [--json]
//   mpirun -np P llc-run optimal-bst  [--freq "34,8,50" | --n N --seed S] [--r R] [--repeat K] [--profile F] [--json]
//
// Generated input: n matrices with dimensions uniform in 1 … 100, or n frequencies uniform integers in 0 … 99, from
// the seed (the same on every rank). Prints the optimal cost and the parenthesisation / the root (and the parent of
// every key with --json), the block size r, the measured median time and the CCM prediction (with --profile).
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/matrix_chain.hpp>
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

/// "30,35,15" → {30, 35, 15}. @throws UsageError naming the argument.
template <class T>
std::vector<T> parse_list(const std::string& argument, const std::string& text) {
    std::vector<T> values;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, comma - start);
        T value{};
        const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
        if (item.empty() || error != std::errc{} || end != item.data() + item.size()) {
            throw UsageError(argument + ": '" + item + "' is not a number (expected a comma-separated list)");
        }
        values.push_back(value);
        start = comma + 1;
    }
    return values;
}

struct Common {
    po::variables_map vm;
    std::optional<cost::Profile> profile;
    int repeat = 5;
    std::optional<std::int64_t> r;
};

/// Parses the options shared by both commands; returns nullopt after printing --help.
std::optional<Common> parse(
    Group& world, const std::vector<std::string>& args, const char* name, const char* list, const char* list_help) {
    po::options_description desc(std::string("llc-run ") + name + " options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        (list, po::value<std::string>(), list_help)
        ("n", po::value<std::int64_t>(), "size of a generated input (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated input")
        ("r", po::value<std::int64_t>(), "columns per block (default: the cost model's choice)")
        ("repeat", po::value<int>()->default_value(5), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe): predicted time and the model's r")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    std::optional<po::variables_map> parsed = parse_options(world, args, desc, name);
    if (!parsed) {
        return std::nullopt;
    }
    Common c;
    c.vm = std::move(*parsed);
    if ((c.vm.count("n") != 0U) == (c.vm.count(list) != 0U)) {
        throw UsageError(std::string("give exactly one of --") + list + " and --n N (generated input)");
    }
    if (c.vm.count("n") != 0U && c.vm["n"].as<std::int64_t>() < 1) {
        throw UsageError("--n: " + std::to_string(c.vm["n"].as<std::int64_t>()) + " must be at least 1");
    }
    c.repeat = c.vm["repeat"].as<int>();
    if (c.repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(c.repeat) + " must be at least 1");
    }
    if (c.vm.count("r") != 0U) {
        c.r = c.vm["r"].as<std::int64_t>();
        if (*c.r < 1) {
            throw UsageError("--r: " + std::to_string(*c.r) + " must be at least 1");
        }
    }
    if (c.vm.count("profile") != 0U) {
        const std::string path = c.vm["profile"].as<std::string>();
        try {
            c.profile = cost::Profile::load(path);
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    return c;
}

/// Times `execute` (a warm-up, then the median of `repeat`) and prices the run.
std::pair<double, std::vector<double>> time_it(Group& world, int repeat, const std::function<void()>& execute) {
    (void)tools::time_sample(world.native(), 1, execute);
    std::vector<double> samples;
    for (int k = 0; k < repeat; ++k) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    return {tools::median(samples), samples};
}

std::optional<double> predicted(const Common& c, int P, std::int64_t n, std::int64_t r) {
    if (!c.profile) {
        return std::nullopt;
    }
    try {
        return cost::predict(cost::matrix_chain(P, n, r, *c.profile), cost::CCM(*c.profile));
    } catch (const llc::Error& e) {
        throw UsageError(std::string("--profile: ") + e.what());
    }
}

void print_times(double measured, int repeat, const std::optional<double>& prediction) {
    std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), repeat);
    if (prediction) {
        std::printf("predicted: %s (CCM)\n", cost::format_seconds(*prediction).c_str());
    } else {
        std::printf("predicted: - (no --profile)\n");
    }
}

int run_matrix_chain(Group& world, const std::vector<std::string>& args) {
    const auto c = parse(world, args, "matrix-chain", "dims", "dimensions d0,d1,…,dn of matrices Ai = d(i−1) × di");
    if (!c) {
        return 0;
    }
    std::vector<std::int64_t> dims;
    if (c->vm.count("dims") != 0U) {
        dims = parse_list<std::int64_t>("--dims", c->vm["dims"].as<std::string>());
    } else {
        std::mt19937_64 rng(c->vm["seed"].as<std::uint64_t>());
        std::uniform_int_distribution<std::int64_t> dist(1, 100);
        dims.resize(static_cast<std::size_t>(c->vm["n"].as<std::int64_t>()) + 1);
        for (auto& d : dims) {
            d = dist(rng);
        }
    }
    IntervalDpOptions options{.r = c->r, .profile = c->profile ? &*c->profile : nullptr};
    MatrixChainResult result;
    const auto [measured, samples] = time_it(world, c->repeat, [&] { result = matrix_chain(world, dims, options); });
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    const std::optional<double> prediction = predicted(*c, world.size(), n, result.r);
    if (world.rank() == 0) {
        if (c->vm["json"].as<bool>()) {
            const nlohmann::json j{{"algorithm", "matrix-chain"},
                                   {"P", world.size()},
                                   {"n", n},
                                   {"r", result.r},
                                   {"cost", result.cost},
                                   {"parenthesization", result.parenthesization},
                                   {"repeat", c->repeat},
                                   {"measured_s", measured},
                                   {"samples_s", samples},
                                   {"predicted_s", prediction ? nlohmann::json(*prediction) : nlohmann::json(nullptr)}};
            std::printf("%s\n", j.dump().c_str());
        } else {
            std::printf("matrix-chain: P = %d, n = %lld matrices, r = %lld\n",
                        world.size(),
                        static_cast<long long>(n),
                        static_cast<long long>(result.r));
            std::printf("cost:      %lld\n", static_cast<long long>(result.cost));
            std::printf("parenthesization: %s\n", result.parenthesization.c_str());
            print_times(measured, c->repeat, prediction);
        }
    }
    return 0;
}

int run_optimal_bst(Group& world, const std::vector<std::string>& args) {
    const auto c = parse(world, args, "optimal-bst", "freq", "access frequencies f0,f1,… of the sorted keys");
    if (!c) {
        return 0;
    }
    std::vector<double> freq;
    if (c->vm.count("freq") != 0U) {
        freq = parse_list<double>("--freq", c->vm["freq"].as<std::string>());
    } else {
        std::mt19937_64 rng(c->vm["seed"].as<std::uint64_t>());
        std::uniform_int_distribution<int> dist(0, 99);
        freq.resize(static_cast<std::size_t>(c->vm["n"].as<std::int64_t>()));
        for (auto& f : freq) {
            f = dist(rng);
        }
    }
    IntervalDpOptions options{.r = c->r, .profile = c->profile ? &*c->profile : nullptr};
    OptimalBstResult result;
    const auto [measured, samples] = time_it(world, c->repeat, [&] { result = optimal_bst(world, freq, options); });
    const auto n = static_cast<std::int64_t>(freq.size()) + 1;
    const std::optional<double> prediction =
        world.size() == 1 ? std::nullopt : predicted(*c, world.size(), n, result.r);
    if (world.rank() == 0) {
        if (c->vm["json"].as<bool>()) {
            const nlohmann::json j{{"algorithm", "optimal-bst"},
                                   {"P", world.size()},
                                   {"n", freq.size()},
                                   {"r", result.r},
                                   {"cost", result.cost},
                                   {"root", result.root},
                                   {"parent", result.parent},
                                   {"repeat", c->repeat},
                                   {"measured_s", measured},
                                   {"samples_s", samples},
                                   {"predicted_s", prediction ? nlohmann::json(*prediction) : nlohmann::json(nullptr)}};
            std::printf("%s\n", j.dump().c_str());
        } else {
            std::printf("optimal-bst: P = %d, n = %zu keys, %s\n",
                        world.size(),
                        freq.size(),
                        result.r == 0 ? "Knuth's O(n²)" : ("r = " + std::to_string(result.r)).c_str());
            std::printf("cost:      %s\n", detail::format_value(result.cost).c_str());
            std::printf("root:      %d\n", result.root);
            print_times(measured, c->repeat, prediction);
        }
    }
    return 0;
}

}  // namespace

RunCommand matrix_chain_command() {
    return legacy_command(
        "matrix-chain", "matrix-chain order by interval DP on a ring (Miguet & Robert, article [1])", run_matrix_chain);
}

RunCommand optimal_bst_command() {
    return legacy_command(
        "optimal-bst", "optimal binary search tree by the same ring DP (Knuth's O(n²) at P = 1)", run_optimal_bst);
}

}  // namespace llc::run
