// llc-run fft: the parallel FFT (algorithms/fft) on generated or given input.
//
//   mpirun -np P llc-run fft [--n N --seed S | --input FILE] [--inverse] [--layout replicated|block]
//                            [--order natural|scrambled] [--planner estimate|measure|patient] [--output FILE]
//                            [--repeat K] [--profile F] [--json]
//
// Files are raw little-endian complex128 (re, im interleaved) in natural order; n is the file size / 16. With
// --input, each processor reads only the entries its layout gives it. The output file is gathered to rank 0 and
// written in natural order (scrambled outputs are put back in place with FftPlan::output_index), whole or not at all.
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run fft reads and writes little-endian files");

namespace llc::cards {

namespace {

using Complex = std::complex<double>;

/// Entry j of the generated signal: two uniform values in [−1, 1) from a counter-based hash of (seed, j), so every
/// processor makes its own entries without making the others'.
Complex generated(std::uint64_t seed, std::uint64_t j) {
    auto mix = [](std::uint64_t z) {
        z += 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    };
    const std::uint64_t a = mix(seed * 0x632be59bd9b4e019ULL + 2 * j);
    const std::uint64_t b = mix(seed * 0x632be59bd9b4e019ULL + 2 * j + 1);
    const double scale = 0x1.0p-52;
    return {static_cast<double>(a >> 12) * scale * 2.0 - 1.0, static_cast<double>(b >> 12) * scale * 2.0 - 1.0};
}

void add_options(po::options_description& desc) {
    // clang-format off
    desc.add_options()
        ("n", po::value<std::int64_t>(), "length of a generated input (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated input")
        ("input", po::value<std::string>(), "input file: raw little-endian complex128, natural order")
        ("inverse", po::bool_switch(), "inverse transform (e^{+2πi jk/n}, unnormalised)")
        ("layout", po::value<std::string>()->default_value("block"), "replicated | block")
        ("order", po::value<std::string>()->default_value("natural"), "block output order: natural | scrambled")
        ("planner", po::value<std::string>()->default_value("estimate"), "FFTW planner: estimate | measure | patient")
        ("output", po::value<std::string>(), "FILE.raw|.bin: the output (natural order, complex128), written whole or not at all");
    // clang-format on
}

FftOptions fft_options(const po::variables_map& vm) {
    FftOptions options;
    options.direction = vm["inverse"].as<bool>() ? FftDirection::inverse : FftDirection::forward;
    options.layout =
        run::enum_option("--layout", vm["layout"].as<std::string>(), {FftLayout::replicated, FftLayout::block});
    options.order =
        run::enum_option("--order", vm["order"].as<std::string>(), {FftOrder::natural, FftOrder::scrambled});
    options.planner = run::enum_option(
        "--planner", vm["planner"].as<std::string>(), {FftPlanner::estimate, FftPlanner::measure, FftPlanner::patient});
    return options;
}

/// n of the input file at `path` (its size / 16), agreed on by every rank. @throws UsageError on every rank.
std::int64_t input_length(Group& world, const std::string& path) {
    std::uintmax_t bytes = 0;
    std::string error;
    try {
        bytes = run::file_size(path);
        if (bytes == 0 || bytes % sizeof(Complex) != 0) {
            error = "--input: file '" + path + "' has " + std::to_string(bytes) +
                    " bytes: expected a positive multiple of 16 (complex128 entries)";
        } else {
            (void)run::checked_elements("file '" + path + "'", static_cast<std::int64_t>(bytes / 16), 1);
        }
    } catch (const UsageError& e) {
        error = std::string("--input: ") + e.what();
    }
    run::agree(world, error.empty(), error);
    const auto n = static_cast<std::int64_t>(bytes / sizeof(Complex));
    // Every rank saw the same file, but agree on n in case it changed between the ranks' looks.
    const auto low = world.allreduce(static_cast<long long>(n), Op::min);
    run::agree(world, low == n, "input file '" + path + "' changed size while being read");
    return n;
}

class FftRun final : public run::Run {
  public:
    FftRun(Group& world, const po::variables_map& vm)
        : world_(world),
          options_(fft_options(vm)),
          planner_(vm["planner"].as<std::string>()),
          output_(vm.count("output") != 0U ? std::optional<std::string>(vm["output"].as<std::string>()) : std::nullopt),
          n_(length(world, vm)),
          plan_(world, n_, options_),
          in_(static_cast<std::size_t>(plan_.input_size())),
          out_(in_.size()) {
        const auto start = static_cast<std::uint64_t>(plan_.input_start());
        if (vm.count("n") != 0U) {
            const auto seed = vm["seed"].as<std::uint64_t>();
            for (std::size_t i = 0; i < in_.size(); ++i) {
                in_[i] = generated(seed, start + i);
            }
        } else {
            std::string error;
            const bool ok =
                run::read_bytes(vm["input"].as<std::string>(),
                                start * sizeof(Complex),
                                std::span<char>(reinterpret_cast<char*>(in_.data()), in_.size() * sizeof(Complex)),
                                error);
            run::agree(world, ok, error);
        }
    }

    void execute() override { plan_.execute(in_, out_); }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        return cost::fft(world_.size(), n_, options_.layout, options_.order, profile);
    }

    void write_outputs() override {
        if (!output_) {
            return;
        }
        const std::vector<Complex> whole = gathered_output();
        run::write_on_root(world_, [&] {
            run::write_whole(
                *output_,
                std::span<const char>(reinterpret_cast<const char*>(whole.data()), whole.size() * sizeof(Complex)));
        });
    }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "fft"},
                {"P", world_.size()},
                {"n", n_},
                {"layout", to_string(options_.layout)},
                {"order", to_string(options_.order)},
                {"direction", to_string(options_.direction)},
                {"method", to_string(plan_.method())},
                {"planner", planner_},
                {"output", output_ ? nlohmann::json(*output_) : nlohmann::json(nullptr)}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"fft: P = " + std::to_string(world_.size()) + ", n = " + std::to_string(n_) + ", layout " +
                std::string(to_string(options_.layout)) + ", order " + std::string(to_string(options_.order)) + ", " +
                std::string(to_string(options_.direction)) + ", method " + std::string(to_string(plan_.method()))};
    }

    [[nodiscard]] std::vector<std::string> text_after() const override {
        return output_ ? std::vector<std::string>{"output:    " + *output_} : std::vector<std::string>{};
    }

  private:
    static std::int64_t length(Group& world, const po::variables_map& vm) {
        const bool has_n = vm.count("n") != 0U;
        if (has_n == (vm.count("input") != 0U)) {
            throw UsageError("give exactly one of --n N (generated input) and --input FILE");
        }
        if (vm.count("output") != 0U) {
            (void)run::output_format("--output", vm["output"].as<std::string>(), {".raw", ".bin"});
        }
        if (!has_n) {
            return input_length(world, vm["input"].as<std::string>());
        }
        const auto n = vm["n"].as<std::int64_t>();
        if (n < 1) {
            throw UsageError("--n: " + std::to_string(n) + " must be at least 1");
        }
        return n;
    }

    /// The whole output in natural order on rank 0 (scrambled outputs put back in place with FftPlan::output_index).
    [[nodiscard]] std::vector<Complex> gathered_output() {
        if (options_.layout == FftLayout::replicated) {
            return out_;
        }
        std::vector<std::int64_t> index(out_.size());
        for (std::size_t i = 0; i < out_.size(); ++i) {
            index[i] = plan_.output_index(static_cast<std::int64_t>(i));
        }
        const std::vector<Complex> values = world_.gatherv(std::span<const Complex>(out_), 0);
        const std::vector<std::int64_t> where = world_.gatherv(std::span<const std::int64_t>(index), 0);
        std::vector<Complex> whole;
        if (world_.rank() == 0) {
            whole.resize(static_cast<std::size_t>(n_));
            for (std::size_t i = 0; i < values.size(); ++i) {
                whole[static_cast<std::size_t>(where[i])] = values[i];
            }
        }
        return whole;
    }

    Group& world_;
    FftOptions options_;
    std::string planner_;
    std::optional<std::string> output_;
    std::int64_t n_;
    FftPlan plan_;
    std::vector<Complex> in_;
    std::vector<Complex> out_;
};

}  // namespace

run::RunCommand fft_run_command() {
    return {.name = "fft",
            .description = "1-D complex FFT by division over processor groups (CCM paper §3)",
            .options = add_options,
            .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
                return std::make_unique<FftRun>(world, vm);
            }};
}

}  // namespace llc::cards
