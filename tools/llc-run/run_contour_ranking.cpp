// llc-run contour-ranking: contour ranking (algorithms/contour_ranking, C³ paper §5) on a given or generated
// successor map, or contour tracing + ranking of a binary image.
//
//   mpirun -np P llc-run contour-ranking (--succ FILE.raw --width W --height H | --n N --density D [--seed S]
//        [--lines diagonal|vertical] | --input FILE.pgm|.png [--connectivity 8|4])
//        [--pattern 1-lev-dir|2-lev-rc|logp-lev-quad|logp-lev-bal|auto] [--output FILE] [--repeat K] [--profile F]
//        [--json]
//
// FILE.raw: width × height int8 codes, row-major: −1 non-edge, 8 head, 0–7 the Freeman direction of the successor
// (0 = E, 1 = NE, 2 = N, … 7 = SE; row 0 on top). Each processor reads only its block (block_of). --n makes the paper's
// synthetic N × N image (§5.3): lines spaced for the edge density D, diagonal by default, shifted by S mod the spacing.
// --output: width × height (head, rank) pairs of little-endian int32, row-major, (−1, −1) for a non-edge pixel;
// gathered on rank 0 and written whole or not at all. Prints the pattern (auto: the one chosen), the number of edge
// pixels and contours, the measured median time and the CCM prediction (with --profile; auto then chooses by it).
// --input: a greyscale image (nonzero = foreground) read by rank 0, traced (trace_contours) and ranked; the timed run
// is trace + rank. --output FILE.txt then holds one contour a line, as contours() gives them: "id outer|hole count
// row,col row,col …", written whole or not at all by rank 0. No CCM prediction (tracing has no cost function yet).
#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "run.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run contour-ranking writes little-endian files");

namespace llc::run {

namespace {

namespace po = boost::program_options;

/// This processor's block of the map in FILE.raw, read row by row. Collective (the verdict on the file).
std::vector<std::int8_t> read_block(Group& world, const std::string& path, std::int64_t width, std::int64_t height) {
    std::string error;
    try {
        const std::uintmax_t bytes = file_size(path);
        const auto expected = static_cast<std::uintmax_t>(width * height);
        if (bytes != expected) {
            error = "--succ: '" + path + "' has " + std::to_string(bytes) + " bytes: " + std::to_string(width) + " × " +
                    std::to_string(height) + " int8 codes are " + std::to_string(expected);
        }
    } catch (const UsageError& e) {
        error = e.what();
    }
    agree(world, error.empty(), error);
    const PixelBlock b = block_of(world.rank(), world.size(), width, height);
    std::vector<std::int8_t> codes(static_cast<std::size_t>(b.size()));
    for (std::int64_t r = 0; r < b.rows && error.empty(); ++r) {
        const auto row =
            std::span<char>(reinterpret_cast<char*>(codes.data() + r * b.cols), static_cast<std::size_t>(b.cols));
        (void)read_bytes(path, static_cast<std::uintmax_t>((b.row0 + r) * width + b.col0), row, error);
    }
    agree(world, error.empty(), error);
    return codes;
}

/// The ranks of every block in map order on rank 0, as int32 (head, rank) pairs; empty elsewhere.
std::vector<std::int32_t> gather_pairs(Group& world,
                                       std::span<const ContourRank> local,
                                       std::int64_t width,
                                       std::int64_t height) {
    const std::vector<ContourRank> all = world.gatherv(local, 0);
    std::vector<std::int32_t> pairs;
    if (world.rank() != 0) {
        return pairs;
    }
    pairs.resize(static_cast<std::size_t>(2 * width * height));
    std::size_t next = 0;
    for (int q = 0; q < world.size(); ++q) {
        const PixelBlock b = block_of(q, world.size(), width, height);
        for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
            for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
                const ContourRank& x = all[next++];
                const auto at = static_cast<std::size_t>(2 * (r * width + c));
                pairs[at] = static_cast<std::int32_t>(x.head);
                pairs[at + 1] = static_cast<std::int32_t>(x.rank);
            }
        }
    }
    return pairs;
}

struct Options {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::optional<std::string> succ;
    std::optional<std::string> input;  ///< a binary image to trace
    Connectivity connectivity = Connectivity::eight;
    double density = 0.0;
    std::int64_t seed = 0;
    ContourLines lines = ContourLines::diagonal;
    ContourPattern pattern = ContourPattern::automatic;
    std::optional<std::string> output;
    int repeat = 5;
    std::optional<cost::Profile> profile;
    bool json = false;
};

std::optional<Options> parse(Group& world, const std::vector<std::string>& args) {
    po::options_description desc("llc-run contour-ranking options");
    // clang-format off
    desc.add_options()
        ("help,h", "this help")
        ("succ", po::value<std::string>(), "FILE.raw: width × height int8 successor codes (with --width, --height)")
        ("width", po::value<std::int64_t>(), "width of --succ")
        ("height", po::value<std::int64_t>(), "height of --succ")
        ("n", po::value<std::int64_t>(), "side of a generated synthetic image (with --density)")
        ("density", po::value<double>(), "edge-pixel density of the generated image, in (0, 1]")
        ("seed", po::value<std::int64_t>()->default_value(0), "shift of the generated lines")
        ("lines", po::value<std::string>()->default_value("diagonal"), "generated lines: diagonal or vertical")
        ("input", po::value<std::string>(), "FILE.pgm|.png: a greyscale image (nonzero = foreground) to trace and rank")
        ("connectivity", po::value<int>()->default_value(8), "with --input: 8 (as OpenCV findContours) or 4")
        ("pattern", po::value<std::string>()->default_value("auto"),
         "merge pattern: 1-lev-dir, 2-lev-rc, logp-lev-quad, logp-lev-bal or auto")
        ("output", po::value<std::string>(),
         "FILE.raw: int32 (head, rank) pairs (with --input, FILE.txt: the contours), written whole or not at all")
        ("repeat", po::value<int>()->default_value(5), "timed executions; the median is reported")
        ("profile", po::value<std::string>(), "machine profile (llc-probe): predicted time, and auto's choice")
        ("json", po::bool_switch(), "rank 0 prints one JSON object");
    // clang-format on
    const std::optional<po::variables_map> parsed = parse_options(world, args, desc, "contour-ranking");
    if (!parsed) {
        return std::nullopt;
    }
    const po::variables_map& vm = *parsed;
    Options o;
    const bool generated = vm.count("n") != 0U;
    const bool traced = vm.count("input") != 0U;
    if ((generated ? 1 : 0) + (traced ? 1 : 0) + (vm.count("succ") != 0U ? 1 : 0) != 1) {
        throw UsageError(
            "give exactly one of --succ FILE (with --width, --height), --n N --density D and --input FILE.pgm|.png");
    }
    const int connectivity = vm["connectivity"].as<int>();
    if (connectivity != 4 && connectivity != 8) {
        throw UsageError("--connectivity: " + std::to_string(connectivity) + " must be 4 or 8");
    }
    o.connectivity = connectivity == 4 ? Connectivity::four : Connectivity::eight;
    if (traced) {
        o.input = vm["input"].as<std::string>();
    } else if (generated) {
        o.width = o.height = vm["n"].as<std::int64_t>();
        if (o.width < 1) {
            throw UsageError("--n: " + std::to_string(o.width) + " must be at least 1");
        }
        if (vm.count("density") == 0U) {
            throw UsageError("--n needs --density D (the fraction of edge pixels, in (0, 1])");
        }
        o.density = vm["density"].as<double>();
        if (!(o.density > 0.0 && o.density <= 1.0)) {
            throw UsageError("--density: " + std::to_string(o.density) + " must be in (0, 1]");
        }
        o.seed = vm["seed"].as<std::int64_t>();
        const std::string lines = vm["lines"].as<std::string>();
        if (lines != "diagonal" && lines != "vertical") {
            throw UsageError("--lines: '" + lines + "' must be diagonal or vertical");
        }
        o.lines = lines == "diagonal" ? ContourLines::diagonal : ContourLines::vertical;
    } else {
        if (vm.count("width") == 0U || vm.count("height") == 0U) {
            throw UsageError("--succ needs --width and --height");
        }
        o.width = vm["width"].as<std::int64_t>();
        o.height = vm["height"].as<std::int64_t>();
        if (o.width < 1 || o.height < 1) {
            throw UsageError("--width, --height: " + std::to_string(o.width) + ", " + std::to_string(o.height) +
                             " must be at least 1");
        }
        o.succ = vm["succ"].as<std::string>();
    }
    try {
        o.pattern = contour_pattern_from_string(vm["pattern"].as<std::string>());
    } catch (const llc::Error& e) {
        throw UsageError(std::string("--pattern: ") + e.what());
    }
    o.repeat = vm["repeat"].as<int>();
    if (o.repeat < 1) {
        throw UsageError("--repeat: " + std::to_string(o.repeat) + " must be at least 1");
    }
    if (vm.count("output") != 0U) {
        o.output = vm["output"].as<std::string>();
        check_output_path("--output", *o.output);
        if (!o.input && o.width * o.height > std::numeric_limits<std::int32_t>::max()) {
            throw UsageError("--output: a " + std::to_string(o.width) + " × " + std::to_string(o.height) +
                             " map has pixel indices beyond int32");
        }
    }
    if (vm.count("profile") != 0U) {
        try {
            o.profile = cost::Profile::load(vm["profile"].as<std::string>());
        } catch (const std::exception& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    o.json = vm["json"].as<bool>();
    return o;
}

/// Writes `bytes` on rank 0; every rank learns whether it worked. Returns false after printing the error.
bool write_output(Group& world, const std::string& path, std::span<const char> bytes) {
    std::string error;
    if (world.rank() == 0) {
        try {
            write_whole(path, bytes);
        } catch (const std::exception& e) {
            error = e.what();
        }
    }
    int failed = error.empty() ? 0 : 1;
    MPI_Bcast(&failed, 1, MPI_INT, 0, world.native());
    if (failed != 0 && world.rank() == 0) {
        std::fprintf(stderr, "llc-run contour-ranking: %s\n", error.c_str());
    }
    return failed == 0;
}

/// One contour a line: "id outer|hole count row,col row,col …".
std::string contour_lines(const std::vector<Contour>& found) {
    std::string text;
    for (const Contour& c : found) {
        text += std::to_string(c.id) + (c.hole ? " hole " : " outer ") + std::to_string(c.points.size());
        for (const ContourPoint& p : c.points) {
            text += ' ' + std::to_string(p.row) + ',' + std::to_string(p.col);
        }
        text += '\n';
    }
    return text;
}

/// --input: trace + rank timed, then the contours assembled on rank 0 for the counts and the output.
int run_traced(Group& world, Options o) {
    const int P = world.size();
    const std::vector<std::uint8_t> whole = read_binary_image(world, *o.input, o.width, o.height);
    const BinaryImage image = BinaryImage::from_whole(world, o.width, o.height, whole);
    const cost::Profile* profile = o.profile ? &*o.profile : nullptr;
    ContourPattern pattern = o.pattern;
    std::optional<BorderMap> borders;
    std::vector<ContourRank> ranks;
    const std::function<void()> execute = [&] {
        borders.emplace(trace_contours(world, image, o.connectivity));
        ranks = contour_rank(world, *borders, pattern, profile);
    };
    execute();  // the warm-up
    if (pattern == ContourPattern::automatic) {
        const auto states = world.allreduce(static_cast<std::int64_t>(borders->states().size()), Op::sum);
        const double density = std::min(1.0, static_cast<double>(states) / static_cast<double>(o.width * o.height));
        pattern = choose_contour_pattern(P, o.width, o.height, density, profile);
    }
    std::vector<double> samples;
    for (int i = 0; i < o.repeat; ++i) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    const std::int64_t states = world.allreduce(static_cast<std::int64_t>(borders->states().size()), Op::sum);
    const std::vector<Contour> found = contours(world, *borders, ranks);
    if (o.output) {
        const std::string text = world.rank() == 0 ? contour_lines(found) : std::string();
        if (!write_output(world, *o.output, std::span<const char>(text.data(), text.size()))) {
            return 1;
        }
    }
    if (world.rank() != 0) {
        return 0;
    }
    const auto holes = std::count_if(found.begin(), found.end(), [](const Contour& c) { return c.hole; });
    const auto outer = static_cast<std::int64_t>(found.size()) - holes;
    const int connectivity = o.connectivity == Connectivity::four ? 4 : 8;
    if (o.json) {
        const nlohmann::json j{{"algorithm", "contour-ranking"},
                               {"input", *o.input},
                               {"connectivity", connectivity},
                               {"P", P},
                               {"width", o.width},
                               {"height", o.height},
                               {"pattern", std::string(to_string(pattern))},
                               {"border_states", states},
                               {"contours", found.size()},
                               {"outer", outer},
                               {"holes", holes},
                               {"repeat", o.repeat},
                               {"measured_s", measured},
                               {"samples_s", samples},
                               {"predicted_s", nullptr},
                               {"output", o.output ? nlohmann::json(*o.output) : nlohmann::json(nullptr)}};
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf(
        "contour-ranking: P = %d, %s traced (%d-connectivity), %lld × %lld, pattern %s, %lld border states, "
        "%zu contours (%lld outer, %lld holes)\n",
        P,
        o.input->c_str(),
        connectivity,
        static_cast<long long>(o.width),
        static_cast<long long>(o.height),
        std::string(to_string(pattern)).c_str(),
        static_cast<long long>(states),
        found.size(),
        static_cast<long long>(outer),
        static_cast<long long>(holes));
    std::printf("measured:  %s (trace + rank, median of %d)\n", cost::format_seconds(measured).c_str(), o.repeat);
    std::printf("predicted: - (no cost function for tracing yet)\n");
    return 0;
}

int run_contour_ranking(Group& world, const std::vector<std::string>& args) {
    const std::optional<Options> parsed = parse(world, args);
    if (!parsed) {
        return 0;
    }
    if (parsed->input) {
        return run_traced(world, *parsed);
    }
    const Options& o = *parsed;
    const int P = world.size();
    std::vector<std::int8_t> local;
    if (o.succ) {
        local = read_block(world, *o.succ, o.width, o.height);
    } else {
        const std::vector<std::int8_t> whole = synthetic_successor_map(o.width, o.height, o.density, o.lines, o.seed);
        const PixelBlock b = block_of(world.rank(), P, o.width, o.height);
        for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
            const auto row = whole.begin() + r * o.width + b.col0;
            local.insert(local.end(), row, row + b.cols);
        }
    }
    const SuccessorMap map(world, o.width, o.height, std::move(local));
    const cost::Profile* profile = o.profile ? &*o.profile : nullptr;
    // The map's own density: auto's choice and the prediction.
    const auto edges =
        world.allreduce(static_cast<std::int64_t>(std::count_if(
                            map.codes().begin(), map.codes().end(), [](std::int8_t c) { return c != -1; })),
                        Op::sum);
    const double density = static_cast<double>(edges) / static_cast<double>(o.width * o.height);
    const ContourPattern pattern = o.pattern == ContourPattern::automatic
                                       ? choose_contour_pattern(P, o.width, o.height, density, profile)
                                       : o.pattern;
    std::vector<ContourRank> ranks;
    const std::function<void()> execute = [&] { ranks = contour_rank(world, map, pattern, profile); };
    try {
        execute();  // also the warm-up; an invalid map is a usage error, named on every rank
    } catch (const llc::Error& e) {
        throw UsageError(e.what());
    }
    std::vector<double> samples;
    for (int i = 0; i < o.repeat; ++i) {
        samples.push_back(tools::time_sample(world.native(), 1, execute).seconds);
    }
    const double measured = tools::median(samples);
    std::optional<double> predicted;
    if (profile != nullptr) {
        try {
            predicted = cost::predict(cost::contour_rank(P, o.width, o.height, density, pattern, *profile),
                                      cost::CCM(*profile));
        } catch (const llc::Error& e) {
            throw UsageError(std::string("--profile: ") + e.what());
        }
    }
    const auto heads =
        world.allreduce(static_cast<std::int64_t>(std::count_if(
                            ranks.begin(), ranks.end(), [](const ContourRank& x) { return x.rank == 0; })),
                        Op::sum);
    const std::vector<std::int32_t> pairs =
        o.output ? gather_pairs(world, ranks, o.width, o.height) : std::vector<std::int32_t>();
    if (o.output && !write_output(world,
                                  *o.output,
                                  std::span<const char>(reinterpret_cast<const char*>(pairs.data()),
                                                        pairs.size() * sizeof(std::int32_t)))) {
        return 1;
    }
    if (world.rank() != 0) {
        return 0;
    }
    if (o.json) {
        const nlohmann::json j{{"algorithm", "contour-ranking"},
                               {"P", P},
                               {"width", o.width},
                               {"height", o.height},
                               {"pattern", std::string(to_string(pattern))},
                               {"edge_pixels", edges},
                               {"contours", heads},
                               {"repeat", o.repeat},
                               {"measured_s", measured},
                               {"samples_s", samples},
                               {"predicted_s", predicted ? nlohmann::json(*predicted) : nlohmann::json(nullptr)},
                               {"output", o.output ? nlohmann::json(*o.output) : nlohmann::json(nullptr)}};
        std::printf("%s\n", j.dump().c_str());
        return 0;
    }
    std::printf("contour-ranking: P = %d, %lld × %lld, pattern %s, %lld edge pixels, %lld contours\n",
                P,
                static_cast<long long>(o.width),
                static_cast<long long>(o.height),
                std::string(to_string(pattern)).c_str(),
                static_cast<long long>(edges),
                static_cast<long long>(heads));
    std::printf("measured:  %s (median of %d)\n", cost::format_seconds(measured).c_str(), o.repeat);
    if (predicted) {
        std::printf("predicted: %s (CCM)\n", cost::format_seconds(*predicted).c_str());
    } else {
        std::printf("predicted: - (no --profile)\n");
    }
    return 0;
}

}  // namespace

RunCommand contour_ranking_command() {
    return legacy_command(
        "contour-ranking",
        "head and rank of every edge pixel of a successor map by the C³ merge patterns (Hambrusch–Khokhar §5), or of "
        "every border of a traced binary image (--input)",
        run_contour_ranking);
}

}  // namespace llc::run
