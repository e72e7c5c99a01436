// llc-run path-planning: least path costs over a cost map (algorithms/distance_transform/path_planning.hpp).
//
//   mpirun -np P llc-run path-planning (--input COSTS.raw --width W --height H | --n N [--seed S])
//        --source R,C [--source R,C …] [--r R] [--k K] [--output FILE.raw] [--repeat K] [--profile F] [--json]
//
// COSTS.raw: width × height little-endian float64 traversal costs, row-major, each ≥ 0 or +inf (an obstacle). Each
// processor reads only its rows (blocks of r rows, block b on processor b mod P). --n makes an N × N map of cost 1
// with obstacles on a random blob image's discs (seeded). Output: the path costs gathered to rank 0, float64
// row-major, +inf where no path reaches, written whole or not at all.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run path-planning reads and writes little-endian files");

namespace llc::run {

namespace {

namespace po = boost::program_options;

Pixel parse_source(const std::string& text) {
    const auto comma = text.find(',');
    try {
        if (comma != std::string::npos) {
            std::size_t used_row = 0;
            std::size_t used_column = 0;
            const std::int64_t row = std::stoll(text.substr(0, comma), &used_row);
            const std::int64_t column = std::stoll(text.substr(comma + 1), &used_column);
            if (used_row == comma && used_column == text.size() - comma - 1) {
                return {row, column};
            }
        }
    } catch (const std::exception&) {
    }
    throw UsageError("--source: '" + text + "' is not ROW,COLUMN (two integers)");
}

int run_path_planning(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run path-planning options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("input", po::value<std::string>(), "cost map: width × height little-endian float64, row-major")
        ("width", po::value<std::int64_t>(), "columns of the --input map")
        ("height", po::value<std::int64_t>(), "rows of the --input map")
        ("n", po::value<std::int64_t>(), "side of a generated map (cost 1, obstacles on random discs)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated map")
        ("source", po::value<std::vector<std::string>>(), "ROW,COLUMN where paths start (repeat for several)")
        ("r", po::value<std::int64_t>(), "rows per block (default: llc::path_planning_layout's)")
        ("k", po::value<std::int64_t>(), "pipeline segment length (default: llc::path_planning_layout's)")
        ("output", po::value<std::string>(), "FILE.raw: the path costs, float64, written whole or not at all")
        ("repeat", po::value<int>()->default_value(3), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe) for the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, "path-planning");
    if (!parsed) {
        return 0;
    }
    const po::variables_map& vm = *parsed;
    const bool generated = vm.count("n") != 0U;
    if (generated == (vm.count("input") != 0U)) {
        throw UsageError("give exactly one of --input FILE (with --width, --height) and --n N (a generated map)");
    }
    std::int64_t width = 0;
    std::int64_t height = 0;
    if (generated) {
        width = height = vm["n"].as<std::int64_t>();
        if (width < 1) {
            throw UsageError("--n: " + std::to_string(width) + " must be at least 1");
        }
    } else {
        if (vm.count("width") == 0U || vm.count("height") == 0U) {
            throw UsageError("--input needs --width and --height");
        }
        width = vm["width"].as<std::int64_t>();
        height = vm["height"].as<std::int64_t>();
        if (width < 1 || height < 1) {
            throw UsageError("--width, --height: " + std::to_string(width) + ", " + std::to_string(height) +
                             " must be at least 1");
        }
    }
    if (vm.count("source") == 0U) {
        throw UsageError("--source: give at least one ROW,COLUMN");
    }
    std::vector<Pixel> sources;
    for (const std::string& s : vm["source"].as<std::vector<std::string>>()) {
        sources.push_back(parse_source(s));
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
        try {
            profile = cost::Profile::load(vm["profile"].as<std::string>());
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    const int P = world.size();
    const SweepLayout layout = path_planning_layout(P, width, height);
    const std::int64_t r = vm.count("r") != 0U ? vm["r"].as<std::int64_t>() : layout.r;
    const std::int64_t k = vm.count("k") != 0U ? vm["k"].as<std::int64_t>() : layout.k;
    if (r < 1 || k < 1) {
        throw UsageError("--r, --k: " + std::to_string(r) + ", " + std::to_string(k) + " must be at least 1");
    }

    // This processor's rows of the map.
    std::vector<double> costs;
    if (generated) {
        const std::vector<std::uint8_t> blobs = random_blob_image(width, height, vm["seed"].as<std::uint64_t>(), 0.3);
        std::vector<double> map(blobs.size());
        std::transform(blobs.begin(), blobs.end(), map.begin(), [](std::uint8_t pixel) {
            return pixel == 0 ? 1.0 : std::numeric_limits<double>::infinity();
        });
        costs = distribute_rows(world, ImageView<const double>{width, height, map}, r).rows;
    } else {
        const std::string path = vm["input"].as<std::string>();
        std::string error;
        try {
            const std::uintmax_t bytes = file_size(path);
            const auto expected = static_cast<std::uintmax_t>(width * height) * sizeof(double);
            if (bytes != expected) {
                error = "input file '" + path + "' has " + std::to_string(bytes) + " bytes: " + std::to_string(width) +
                        " × " + std::to_string(height) + " float64 values are " + std::to_string(expected);
            }
        } catch (const UsageError& e) {
            error = e.what();
        }
        agree(world, error.empty(), error);
        for (std::int64_t b = world.rank(); b * r < height && error.empty(); b += P) {
            const std::int64_t rows = std::min(height, (b + 1) * r) - b * r;
            std::vector<double> block(static_cast<std::size_t>(rows * width));
            if (!read_bytes(path,
                            static_cast<std::uintmax_t>(b * r * width) * sizeof(double),
                            std::span<char>(reinterpret_cast<char*>(block.data()), block.size() * sizeof(double)),
                            error)) {
                break;
            }
            costs.insert(costs.end(), block.begin(), block.end());
        }
        agree(world, error.empty(), error);
    }
    std::vector<double> out(costs.size());
    PathPlanningReport report;
    const std::function<void()> execute = [&] {
        report = path_planning(world, width, height, r, costs, sources, out, k);
    };
    try {
        execute();  // also the warm-up; arguments the library refuses (a bad cost, a source outside) are usage errors
    } catch (const llc::Error& e) {
        throw UsageError(e.what());
    }
    std::vector<double> samples;
    for (int i = 0; i < repeat; ++i) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    std::optional<double> predicted;
    if (profile) {
        try {
            predicted = cost::predict(cost::path_planning(P, width, height, r, k, report.sweeps, *profile),
                                      cost::CCM(*profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }

    // The path costs in map order on rank 0.
    const std::vector<double> whole =
        gather_rows(world, DistributedImage<double>{RowBlocks{width, height, r, P}, world.rank(), std::move(out)}, 0)
            .pixels;
    std::int64_t unreachable = 0;
    if (world.rank() == 0) {
        unreachable = std::count_if(whole.begin(), whole.end(), [](double v) { return std::isinf(v); });
    }
    if (output) {
        std::string error;
        if (world.rank() == 0) {
            try {
                write_whole(
                    *output,
                    std::span<const char>(reinterpret_cast<const char*>(whole.data()), whole.size() * sizeof(double)));
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        int failed = error.empty() ? 0 : 1;
        MPI_Bcast(&failed, 1, MPI_INT, 0, world.native());
        if (failed != 0) {
            if (world.rank() == 0) {
                std::fprintf(stderr, "llc-run path-planning: %s\n", error.c_str());
            }
            return 1;
        }
    }
    if (world.rank() == 0) {
        if (vm["json"].as<bool>()) {
            const nlohmann::json j{{"algorithm", "path-planning"},
                                   {"P", P},
                                   {"width", width},
                                   {"height", height},
                                   {"r", r},
                                   {"k", k},
                                   {"sweeps", report.sweeps},
                                   {"unreachable", unreachable},
                                   {"repeat", repeat},
                                   {"measured_s", measured},
                                   {"samples_s", samples},
                                   {"predicted_s", predicted ? nlohmann::json(*predicted) : nlohmann::json(nullptr)},
                                   {"output", output ? nlohmann::json(*output) : nlohmann::json(nullptr)}};
            std::printf("%s\n", j.dump().c_str());
        } else {
            std::printf("path-planning: P = %d, %lld × %lld, r = %lld, k = %lld, %d sweeps\n",
                        P,
                        static_cast<long long>(width),
                        static_cast<long long>(height),
                        static_cast<long long>(r),
                        static_cast<long long>(k),
                        report.sweeps);
            std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), repeat);
            if (predicted) {
                std::printf("predicted: %s (CCM)\n", cost::format_seconds(*predicted).c_str());
            } else {
                std::printf("predicted: - (no --profile)\n");
            }
            std::printf("unreachable pixels: %lld\n", static_cast<long long>(unreachable));
        }
    }
    return 0;
}

}  // namespace

RunCommand path_planning_command() {
    return legacy_command("path-planning",
                          "least path costs over a cost map by red/blue sweeps on a ring (Miguet [2])",
                          run_path_planning);
}

}  // namespace llc::run
