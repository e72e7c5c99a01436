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
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_cost.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run fft reads and writes little-endian files");

namespace llc::run {

namespace {

namespace po = boost::program_options;
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

int run_fft(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run fft options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("n", po::value<std::int64_t>(), "length of a generated input (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated input")
        ("input", po::value<std::string>(), "input file: raw little-endian complex128, natural order")
        ("inverse", po::bool_switch(), "inverse transform (e^{+2πi jk/n}, unnormalised)")
        ("layout", po::value<std::string>()->default_value("block"), "replicated | block")
        ("order", po::value<std::string>()->default_value("natural"), "block output order: natural | scrambled")
        ("planner", po::value<std::string>()->default_value("estimate"), "FFTW planner: estimate | measure | patient")
        ("output", po::value<std::string>(), "output file (natural order, complex128), written whole or not at all")
        ("repeat", po::value<int>()->default_value(5), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe) for the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, "fft");
    if (!parsed) {
        return 0;
    }
    const po::variables_map& vm = *parsed;

    // ---- Arguments (identical on every rank, so every rank reaches the same verdict) -----------------------------
    const bool has_n = vm.count("n") != 0U;
    const bool has_input = vm.count("input") != 0U;
    if (has_n == has_input) {
        throw UsageError("give exactly one of --n N (generated input) and --input FILE");
    }
    FftOptions options;
    options.direction = vm["inverse"].as<bool>() ? FftDirection::inverse : FftDirection::forward;
    const std::string layout = vm["layout"].as<std::string>();
    if (layout == "replicated") {
        options.layout = FftLayout::replicated;
    } else if (layout == "block") {
        options.layout = FftLayout::block;
    } else {
        throw UsageError("--layout: '" + layout + "' is not one of replicated, block");
    }
    const std::string order = vm["order"].as<std::string>();
    if (order == "natural") {
        options.order = FftOrder::natural;
    } else if (order == "scrambled") {
        options.order = FftOrder::scrambled;
    } else {
        throw UsageError("--order: '" + order + "' is not one of natural, scrambled");
    }
    const std::string planner = vm["planner"].as<std::string>();
    if (planner == "estimate") {
        options.planner = FftPlanner::estimate;
    } else if (planner == "measure") {
        options.planner = FftPlanner::measure;
    } else if (planner == "patient") {
        options.planner = FftPlanner::patient;
    } else {
        throw UsageError("--planner: '" + planner + "' is not one of estimate, measure, patient");
    }
    const int repeat = vm["repeat"].as<int>();
    if (repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(repeat) + " must be at least 1");
    }
    const std::optional<std::string> output =
        vm.count("output") != 0U ? std::optional<std::string>(vm["output"].as<std::string>()) : std::nullopt;
    if (output) {
        check_output_path("--output", *output);
    }
    std::optional<cost::Profile> profile;
    if (vm.count("profile") != 0U) {
        const std::string path = vm["profile"].as<std::string>();
        try {
            profile = cost::Profile::load(path);
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }

    // ---- Input --------------------------------------------------------------------------------------------------
    std::int64_t n = 0;
    std::string input_path;
    if (has_n) {
        n = vm["n"].as<std::int64_t>();
        if (n < 1) {
            throw UsageError("--n: " + std::to_string(n) + " must be at least 1");
        }
    } else {
        input_path = vm["input"].as<std::string>();
        std::uintmax_t bytes = 0;
        std::string error;
        try {
            bytes = file_size(input_path);
            if (bytes == 0 || bytes % sizeof(Complex) != 0) {
                error = "input file '" + input_path + "' has " + std::to_string(bytes) +
                        " bytes: expected a positive multiple of 16 (complex128 entries)";
            }
        } catch (const UsageError& e) {
            error = e.what();
        }
        agree(world, error.empty(), error);
        n = static_cast<std::int64_t>(bytes / sizeof(Complex));
        // Every rank saw the same file, but agree on n in case it changed between the ranks' looks.
        const auto low = world.allreduce(static_cast<long long>(n), Op::min);
        agree(world, low == n, "input file '" + input_path + "' changed size while being read");
    }
    FftPlan plan(world, n, options);
    const auto local = static_cast<std::size_t>(plan.input_size());
    const auto start = static_cast<std::uint64_t>(plan.input_start());
    std::vector<Complex> in(local);
    if (has_n) {
        const auto seed = vm["seed"].as<std::uint64_t>();
        for (std::size_t i = 0; i < local; ++i) {
            in[i] = generated(seed, start + i);
        }
    } else {
        std::string error;
        const bool ok = read_bytes(input_path,
                                   start * sizeof(Complex),
                                   std::span<char>(reinterpret_cast<char*>(in.data()), local * sizeof(Complex)),
                                   error);
        agree(world, ok, error);
    }

    // ---- Timed executions ---------------------------------------------------------------------------------------
    std::vector<Complex> out(local);
    std::vector<double> samples;
    const std::function<void()> execute = [&] { plan.execute(in, out); };
    (void)tools::time_sample(world.native(), 1, execute);  // warm-up, as llc-probe and llc-validate measure
    for (int k = 0; k < repeat; ++k) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    std::optional<double> predicted;
    if (profile) {
        try {
            predicted =
                cost::predict(cost::fft(world.size(), n, options.layout, options.order, *profile), cost::CCM(*profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }

    // ---- Output -------------------------------------------------------------------------------------------------
    if (output) {
        std::vector<Complex> whole;
        if (options.layout == FftLayout::replicated) {
            whole = std::move(out);
        } else {
            std::vector<std::int64_t> index(local);
            for (std::size_t i = 0; i < local; ++i) {
                index[i] = plan.output_index(static_cast<std::int64_t>(i));
            }
            const std::vector<Complex> values = world.gatherv(std::span<const Complex>(out), 0);
            const std::vector<std::int64_t> where = world.gatherv(std::span<const std::int64_t>(index), 0);
            if (world.rank() == 0) {
                whole.resize(static_cast<std::size_t>(n));
                for (std::size_t i = 0; i < values.size(); ++i) {
                    whole[static_cast<std::size_t>(where[i])] = values[i];
                }
            }
        }
        std::string error;
        if (world.rank() == 0) {
            try {
                write_whole(
                    *output,
                    std::span<const char>(reinterpret_cast<const char*>(whole.data()), whole.size() * sizeof(Complex)));
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        int failed = error.empty() ? 0 : 1;
        MPI_Bcast(&failed, 1, MPI_INT, 0, world.native());
        if (failed != 0) {
            if (world.rank() == 0) {
                std::fprintf(stderr, "llc-run fft: %s\n", error.c_str());
            }
            return 1;
        }
    }

    if (world.rank() == 0) {
        if (vm["json"].as<bool>()) {
            nlohmann::json j{{"algorithm", "fft"},
                             {"P", world.size()},
                             {"n", n},
                             {"layout", to_string(options.layout)},
                             {"order", to_string(options.order)},
                             {"direction", to_string(options.direction)},
                             {"method", to_string(plan.method())},
                             {"planner", planner},
                             {"repeat", repeat},
                             {"measured_s", measured},
                             {"samples_s", samples},
                             {"predicted_s", predicted ? nlohmann::json(*predicted) : nlohmann::json(nullptr)},
                             {"output", output ? nlohmann::json(*output) : nlohmann::json(nullptr)}};
            std::printf("%s\n", j.dump().c_str());
        } else {
            std::printf("fft: P = %d, n = %lld, layout %s, order %s, %s, method %s\n",
                        world.size(),
                        static_cast<long long>(n),
                        std::string(to_string(options.layout)).c_str(),
                        std::string(to_string(options.order)).c_str(),
                        std::string(to_string(options.direction)).c_str(),
                        std::string(to_string(plan.method())).c_str());
            std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), repeat);
            if (predicted) {
                std::printf("predicted: %s (CCM)\n", cost::format_seconds(*predicted).c_str());
            } else {
                std::printf("predicted: - (no --profile)\n");
            }
            if (output) {
                std::printf("output:    %s\n", output->c_str());
            }
        }
    }
    return 0;
}

}  // namespace

RunCommand fft_command() {
    return {"fft", "1-D complex FFT by division over processor groups (CCM paper §3)", run_fft};
}

}  // namespace llc::run
