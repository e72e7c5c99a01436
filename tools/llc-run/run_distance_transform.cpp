// llc-run distance-transform: the distance transforms (algorithms/distance_transform) of a greyscale image or of a
// generated random blob image.
//
//   mpirun -np P llc-run distance-transform (--input FILE.pgm|.png | --n N [--seed S])
//        [--metric d4|d8|chamfer34|chamfer5711|euclidean] [--r R] [--k K] [--output FILE.pgm|FILE.raw]
//        [--repeat K] [--profile F] [--json]
//
// Input: 8- or 16-bit greyscale (binary PGM or PNG); 0 = feature (background), non-zero = figure. Rank 0 reads the file
// and broadcasts it; every processor keeps its rows (blocks of r rows, block b on processor b mod P). Output: the
// distances gathered to rank 0 and written whole or not at all, as a 16-bit PGM (values clamped to [0, 65535],
// unreachable pixels 0) or raw little-endian int32, row-major (unreachable = −1). `euclidean` gives squared distances.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/image_io.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run distance-transform writes little-endian files");

namespace llc::run {

namespace {

namespace po = boost::program_options;

std::optional<ChamferMask> mask_named(const std::string& metric) {
    if (metric == "d4") {
        return ChamferMask::d4();
    }
    if (metric == "d8") {
        return ChamferMask::d8();
    }
    if (metric == "chamfer34") {
        return ChamferMask::chamfer34();
    }
    if (metric == "chamfer5711") {
        return ChamferMask::chamfer5711();
    }
    if (metric == "euclidean") {
        return std::nullopt;
    }
    throw UsageError("--metric: '" + metric + "' is not one of d4, d8, chamfer34, chamfer5711, euclidean");
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// The whole binary image (0 = feature, 1 = figure) on every rank: read by rank 0, or generated.
std::vector<std::uint8_t> whole_image(Group& world,
                                      const po::variables_map& vm,
                                      std::int64_t& width,
                                      std::int64_t& height) {
    std::vector<std::uint8_t> image;
    if (vm.count("n") != 0U) {
        const auto n = vm["n"].as<std::int64_t>();
        if (n < 1) {
            throw UsageError("--n: " + std::to_string(n) + " must be at least 1");
        }
        width = height = n;
        return random_blob_image(n, n, vm["seed"].as<std::uint64_t>());
    }
    return read_binary_image(world, vm["input"].as<std::string>(), width, height);
}

int run_distance_transform(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run distance-transform options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("input", po::value<std::string>(), "greyscale image: binary PGM or PNG, 8 or 16 bits; 0 = feature")
        ("n", po::value<std::int64_t>(), "side of a generated random blob image (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated image")
        ("metric", po::value<std::string>()->default_value("chamfer34"), "d4 | d8 | chamfer34 | chamfer5711 | euclidean")
        ("r", po::value<std::int64_t>(), "rows per block (default: chamfer metrics the model's fastest with --profile, "
                                         "else llc::sweep_layout's; euclidean ⌈height/P⌉)")
        ("k", po::value<std::int64_t>(), "chamfer pipeline segment length (default: the model's fastest with --profile, "
                                         "else llc::sweep_layout's)")
        ("output", po::value<std::string>(), "FILE.pgm (16-bit) or FILE.raw (int32), written whole or not at all")
        ("repeat", po::value<int>()->default_value(5), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe) for the predicted time")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, "distance-transform");
    if (!parsed) {
        return 0;
    }
    const po::variables_map& vm = *parsed;
    if ((vm.count("n") != 0U) == (vm.count("input") != 0U)) {
        throw UsageError("give exactly one of --input FILE and --n N (a generated blob image)");
    }
    const std::string metric = vm["metric"].as<std::string>();
    const std::optional<ChamferMask> mask = mask_named(metric);
    const int repeat = vm["repeat"].as<int>();
    if (repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(repeat) + " must be at least 1");
    }
    const std::optional<std::string> output =
        vm.count("output") != 0U ? std::optional<std::string>(vm["output"].as<std::string>()) : std::nullopt;
    if (output) {
        if (!ends_with(*output, ".pgm") && !ends_with(*output, ".raw")) {
            throw UsageError("--output: '" + *output + "' must end in .pgm (16-bit PGM) or .raw (int32)");
        }
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

    std::int64_t width = 0;
    std::int64_t height = 0;
    const std::vector<std::uint8_t> whole = whole_image(world, vm, width, height);
    const int P = world.size();
    // The layout: what --r and --k say, else for a chamfer metric the model's fastest with --profile
    // (cost::best_sweep_layout) or llc::sweep_layout's rule without; the EDT wants one block a processor.
    const bool r_given = vm.count("r") != 0U;
    const bool k_given = vm.count("k") != 0U;
    SweepLayout layout{(height + P - 1) / P, 1};
    if (mask) {
        try {
            layout = profile ? cost::best_sweep_layout(P, width, height, *mask, *profile)
                             : sweep_layout(P, width, height, *mask);
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    const std::int64_t r = r_given ? vm["r"].as<std::int64_t>() : layout.r;
    if (r < 1) {
        throw UsageError("--r: " + std::to_string(r) + " must be at least 1");
    }
    std::int64_t k = k_given ? vm["k"].as<std::int64_t>() : layout.k;
    if (k < 1) {
        throw UsageError("--k: " + std::to_string(k) + " must be at least 1");
    }
    if (mask && r_given && !k_given && profile) {
        try {
            k = cost::best_segment(P, width, height, r, *mask, *profile);  // the best k for the r asked for
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    // This processor's rows of the image every rank read.
    const DistributedImage<std::uint8_t> image =
        distribute_rows(world, ImageView<const std::uint8_t>{width, height, whole}, r);
    DistributedImage<std::int32_t> out{image.layout, image.rank, std::vector<std::int32_t>(image.rows.size())};
    const std::function<void()> execute = [&] {
        if (mask) {
            chamfer_distance_transform(world, width, height, r, image.rows, *mask, out.rows, k);
        } else {
            euclidean_distance_transform(world, width, height, r, image.rows, out.rows);
        }
    };
    try {
        execute();  // also the warm-up; arguments the library refuses are a usage error
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
            const cost::Expr e = mask ? cost::chamfer_distance_transform(P, width, height, r, k, *mask, *profile)
                                      : cost::euclidean_distance_transform(P, width, height, r, *profile);
            predicted = cost::predict(e, cost::CCM(*profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }

    // The distances in image order on rank 0.
    const std::vector<std::int32_t> distances = gather_rows(world, out, 0).pixels;
    std::int64_t unreachable = 0;
    if (world.rank() == 0) {
        unreachable = std::count(distances.begin(), distances.end(), -1);
    }
    if (output) {
        std::string error;
        if (world.rank() == 0) {
            try {
                if (ends_with(*output, ".pgm")) {
                    write_whole(*output, tools::pgm16(width, height, distances));
                } else {
                    write_whole(*output,
                                std::span<const char>(reinterpret_cast<const char*>(distances.data()),
                                                      distances.size() * sizeof(std::int32_t)));
                }
            } catch (const std::exception& e) {
                error = e.what();
            }
        }
        int failed = error.empty() ? 0 : 1;
        MPI_Bcast(&failed, 1, MPI_INT, 0, world.native());
        if (failed != 0) {
            if (world.rank() == 0) {
                std::fprintf(stderr, "llc-run distance-transform: %s\n", error.c_str());
            }
            return 1;
        }
    }
    if (world.rank() == 0) {
        if (vm["json"].as<bool>()) {
            const nlohmann::json j{{"algorithm", "distance-transform"},
                                   {"P", P},
                                   {"width", width},
                                   {"height", height},
                                   {"metric", metric},
                                   {"r", r},
                                   {"k", mask ? nlohmann::json(k) : nlohmann::json(nullptr)},
                                   {"unreachable", unreachable},
                                   {"repeat", repeat},
                                   {"measured_s", measured},
                                   {"samples_s", samples},
                                   {"predicted_s", predicted ? nlohmann::json(*predicted) : nlohmann::json(nullptr)},
                                   {"output", output ? nlohmann::json(*output) : nlohmann::json(nullptr)}};
            std::printf("%s\n", j.dump().c_str());
        } else {
            std::printf("distance-transform: P = %d, %lld × %lld, metric %s, r = %lld%s\n",
                        P,
                        static_cast<long long>(width),
                        static_cast<long long>(height),
                        metric.c_str(),
                        static_cast<long long>(r),
                        mask ? (", k = " + std::to_string(k)).c_str() : "");
            std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), repeat);
            if (predicted) {
                std::printf("predicted: %s (CCM)\n", cost::format_seconds(*predicted).c_str());
            } else {
                std::printf("predicted: - (no --profile)\n");
            }
            std::printf("unreachable pixels: %lld\n", static_cast<long long>(unreachable));
            if (output) {
                std::printf("output:    %s\n", output->c_str());
            }
        }
    }
    return 0;
}

}  // namespace

RunCommand distance_transform_command() {
    return legacy_command(
        "distance-transform",
        "chamfer (d4, d8, 3-4, 5-7-11) and exact Euclidean distance transforms by rows on a ring (Miguet [2])",
        run_distance_transform);
}

}  // namespace llc::run
