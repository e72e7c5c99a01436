// llc-run matrix-chain / optimal-bst: the ring interval DP (algorithms/matrix_chain) on given or generated input.
//
//   mpirun -np P llc-run matrix-chain [--dims "30,35,15,5,10,20,25" | --n N --seed S] [--r R] [--repeat K]
//                                     [--profile F] [--json]
//   mpirun -np P llc-run optimal-bst  [--freq "34,8,50" | --n N --seed S] [--r R] [--repeat K] [--profile F] [--json]
//
// Generated input: n matrices with dimensions uniform in 1 … 100, or n frequencies uniform integers in 0 … 99, from
// the seed (the same on every rank). Prints the optimal cost and the parenthesisation / the root (and the parent of
// every key with --json), the block size r, the measured median time and the CCM prediction (with --profile). Without
// --r the block size is the one cost::matrix_chain prices lowest on --profile (chosen once, before the timing), else
// default_block_size.
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

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

/// The options of both commands: `list` is the given input (--dims or --freq).
void add_options(po::options_description& desc, const char* list, const char* list_help) {
    // clang-format off
    desc.add_options()
        (list, po::value<std::string>(), list_help)
        ("n", po::value<std::int64_t>(), "size of a generated input (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated input")
        ("r", po::value<std::int64_t>(), "columns per block (default: the cost model's choice on --profile)");
    // clang-format on
}

/// Checks the options both commands share. @throws UsageError naming the option.
void check_options(const po::variables_map& vm, const char* list) {
    if ((vm.count("n") != 0U) == (vm.count(list) != 0U)) {
        throw UsageError(std::string("give exactly one of --") + list + " and --n N (generated input)");
    }
    if (vm.count("n") != 0U && vm["n"].as<std::int64_t>() < 1) {
        throw UsageError("--n: " + std::to_string(vm["n"].as<std::int64_t>()) + " must be at least 1");
    }
    if (vm.count("r") != 0U && vm["r"].as<std::int64_t>() < 1) {
        throw UsageError("--r: " + std::to_string(vm["r"].as<std::int64_t>()) + " must be at least 1");
    }
}

/// --r, or with --profile the r that cost::matrix_chain prices lowest for `indices` table indices on P processors
/// (chosen here, outside the timing), or unset: the library's default_block_size. `indices` < 1 leaves r unset, so
/// that the library reports the bad input.
std::optional<std::int64_t> block_size(const po::variables_map& vm, int P, std::int64_t indices) {
    if (vm.count("r") != 0U) {
        return vm["r"].as<std::int64_t>();
    }
    if (vm.count("profile") == 0U || indices < 1) {
        return std::nullopt;
    }
    const cost::Profile profile = run::load_profile_option(vm["profile"].as<std::string>());
    try {
        return cost::matrix_chain_best_r(P, indices, profile);
    } catch (const llc::Error& e) {
        throw UsageError(std::string("--profile: ") + e.what());
    }
}

class MatrixChainRun final : public run::Run {
  public:
    MatrixChainRun(Group& world, const po::variables_map& vm) : world_(world) {
        check_options(vm, "dims");
        if (vm.count("dims") != 0U) {
            dims_ = parse_list<std::int64_t>("--dims", vm["dims"].as<std::string>());
        } else {
            std::mt19937_64 rng(vm["seed"].as<std::uint64_t>());
            std::uniform_int_distribution<std::int64_t> dist(1, 100);
            dims_.resize(static_cast<std::size_t>(vm["n"].as<std::int64_t>()) + 1);
            for (auto& d : dims_) {
                d = dist(rng);
            }
        }
        options_.r = block_size(vm, world.size(), n());
    }

    void execute() override {
        // The last run's table goes first: its arrays are then kept for this run (matrix_chain_cache_usage). Held
        // while the next run allocates, it made that run fault in a second table (measured runs after the second
        // alternate between the two, without faults: perf stat counted the same page faults for 1 and 5 repetitions
        // at n = 4000, P = 2), and the process kept two tables.
        result_ = {};
        result_ = matrix_chain(world_, dims_, options_);
    }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        // With the walk of the tree this run found (its levels: one allreduce each at P > 1; none before a run).
        return cost::matrix_chain(
            world_.size(), n(), result_.r, profile, cost::matrix_chain_walk_levels(result_.parenthesization));
    }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "matrix-chain"},
                {"P", world_.size()},
                {"n", n()},
                {"r", result_.r},
                {"cost", result_.cost},
                {"parenthesization", result_.parenthesization}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"matrix-chain: P = " + std::to_string(world_.size()) + ", n = " + std::to_string(n()) +
                    " matrices, r = " + std::to_string(result_.r),
                "cost:      " + std::to_string(result_.cost),
                "parenthesization: " + result_.parenthesization};
    }

  private:
    [[nodiscard]] std::int64_t n() const { return static_cast<std::int64_t>(dims_.size()) - 1; }

    Group& world_;
    std::vector<std::int64_t> dims_;
    IntervalDpOptions options_;
    MatrixChainResult result_;
};

class OptimalBstRun final : public run::Run {
  public:
    OptimalBstRun(Group& world, const po::variables_map& vm) : world_(world) {
        check_options(vm, "freq");
        if (vm.count("freq") != 0U) {
            freq_ = parse_list<double>("--freq", vm["freq"].as<std::string>());
        } else {
            std::mt19937_64 rng(vm["seed"].as<std::uint64_t>());
            std::uniform_int_distribution<int> dist(0, 99);
            freq_.resize(static_cast<std::size_t>(vm["n"].as<std::int64_t>()));
            for (auto& f : freq_) {
                f = dist(rng);
            }
        }
        // At P = 1 optimal_bst runs Knuth's O(n²) algorithm, which has no block size.
        if (world.size() > 1 || vm.count("r") != 0U) {
            options_.r = block_size(vm, world.size(), indices());
        }
    }

    void execute() override {
        result_ = {};  // as MatrixChainRun::execute: the last table's arrays kept for this run
        result_ = optimal_bst(world_, freq_, options_);
    }

    /// The ring DP on the thesis' n + 1 indices; none for Knuth's algorithm at P = 1.
    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        if (world_.size() == 1) {
            return std::nullopt;
        }
        return cost::matrix_chain(world_.size(), indices(), result_.r, profile);
    }

    [[nodiscard]] std::string no_prediction() const override { return "no cost function for Knuth's O(n²) at P = 1"; }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "optimal-bst"},
                {"P", world_.size()},
                {"n", freq_.size()},
                {"r", result_.r},
                {"cost", result_.cost},
                {"root", result_.root},
                {"parent", result_.parent}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"optimal-bst: P = " + std::to_string(world_.size()) + ", n = " + std::to_string(freq_.size()) +
                    " keys, " + (result_.r == 0 ? std::string("Knuth's O(n²)") : "r = " + std::to_string(result_.r)),
                "cost:      " + detail::format_value(result_.cost),
                "root:      " + std::to_string(result_.root)};
    }

  private:
    [[nodiscard]] std::int64_t indices() const { return static_cast<std::int64_t>(freq_.size()) + 1; }

    Group& world_;
    std::vector<double> freq_;
    IntervalDpOptions options_;
    OptimalBstResult result_;
};

}  // namespace

run::RunCommand matrix_chain_run_command() {
    return {.name = "matrix-chain",
            .description = "matrix-chain order by interval DP on a ring (Miguet & Robert, article [1])",
            .options =
                [](po::options_description& desc) {
                    add_options(desc, "dims", "dimensions d0,d1,…,dn of matrices Ai = d(i−1) × di");
                },
            .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
                return std::make_unique<MatrixChainRun>(world, vm);
            }};
}

run::RunCommand optimal_bst_run_command() {
    return {.name = "optimal-bst",
            .description = "optimal binary search tree by the same ring DP (Knuth's O(n²) at P = 1)",
            .options =
                [](po::options_description& desc) {
                    add_options(desc, "freq", "access frequencies f0,f1,… of the sorted keys");
                },
            .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
                return std::make_unique<OptimalBstRun>(world, vm);
            }};
}

}  // namespace llc::cards
