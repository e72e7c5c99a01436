// llc-run contour-ranking: contour ranking (algorithms/contour_ranking, C³ paper §5) on a given or generated
// successor map, or contour tracing + ranking of a binary image (run_contour_tracing.cpp).
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
#include <algorithm>
#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"

static_assert(std::endian::native == std::endian::little, "llc-run contour-ranking writes little-endian files");

namespace llc::cards {

namespace {

void add_options(po::options_description& desc) {
    // clang-format off
    desc.add_options()
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
         "merge pattern: 1-lev-dir, 2-lev-rc, logp-lev-quad, logp-lev-bal or auto (the cheapest under --profile)")
        ("output", po::value<std::string>(),
         "FILE.raw: int32 (head, rank) pairs (with --input, FILE.txt: the contours), written whole or not at all");
    // clang-format on
}

/// The options both modes share, checked: exactly one input, the connectivity, the pattern, the output's directory
/// and the profile (auto's choice and the tracing's own). @throws UsageError naming the option.
RunOptions common_options(const po::variables_map& vm) {
    const int inputs =
        (vm.count("n") != 0U ? 1 : 0) + (vm.count("input") != 0U ? 1 : 0) + (vm.count("succ") != 0U ? 1 : 0);
    if (inputs != 1) {
        throw UsageError(
            "give exactly one of --succ FILE (with --width, --height), --n N --density D and --input FILE.pgm|.png");
    }
    RunOptions o;
    const int connectivity = vm["connectivity"].as<int>();
    if (connectivity != 4 && connectivity != 8) {
        throw UsageError("--connectivity: " + std::to_string(connectivity) + " must be 4 or 8");
    }
    o.connectivity = connectivity == 4 ? Connectivity::four : Connectivity::eight;
    if (vm.count("input") != 0U) {
        o.input = vm["input"].as<std::string>();
    }
    o.pattern = run::enum_option("--pattern",
                                 vm["pattern"].as<std::string>(),
                                 {ContourPattern::one_level_direct,
                                  ContourPattern::two_level_row_column,
                                  ContourPattern::log_level_quad,
                                  ContourPattern::log_level_balanced,
                                  ContourPattern::automatic});
    if (vm.count("output") != 0U) {
        o.output = vm["output"].as<std::string>();
        // Ranking writes binary (head, rank) pairs, tracing the contours as text: each only under its extension.
        if (o.input) {
            (void)run::output_format("--output", *o.output, {".txt"});
        } else {
            (void)run::output_format("--output", *o.output, {".raw"});
        }
    }
    if (vm.count("profile") != 0U) {
        o.profile = run::load_profile_option(vm["profile"].as<std::string>());
    }
    return o;
}

/// The map's size and generator from --succ/--width/--height or --n/--density/--seed/--lines.
struct MapOptions {
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::optional<std::string> succ;
    double density = 0.0;
    std::int64_t seed = 0;
    ContourLines lines = ContourLines::diagonal;
};

MapOptions map_options(const po::variables_map& vm, bool output) {
    MapOptions o;
    if (vm.count("n") != 0U) {
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
        (void)run::checked_elements("--succ '" + *o.succ + "' (--width × --height)", o.width, o.height);
    }
    if (output && o.width * o.height > std::numeric_limits<std::int32_t>::max()) {
        throw UsageError("--output: a " + std::to_string(o.width) + " × " + std::to_string(o.height) +
                         " map has pixel indices beyond int32");
    }
    return o;
}

/// This processor's block of the map in FILE.raw, read row by row. Collective (the verdict on the file).
std::vector<std::int8_t> read_block(Group& world, const std::string& path, std::int64_t width, std::int64_t height) {
    std::string error;
    try {
        const std::uintmax_t bytes = run::file_size(path);
        const auto expected =
            static_cast<std::uintmax_t>(run::checked_elements("--succ '" + path + "'", width, height));
        if (bytes != expected) {
            error = "--succ: '" + path + "' has " + std::to_string(bytes) + " bytes: " + std::to_string(width) + " × " +
                    std::to_string(height) + " int8 codes are " + std::to_string(expected);
        }
    } catch (const UsageError& e) {
        error = e.what();
    }
    run::agree(world, error.empty(), error);
    const PixelBlock b = block_of(world.rank(), world.size(), width, height);
    std::vector<std::int8_t> codes(static_cast<std::size_t>(b.size()));
    for (std::int64_t r = 0; r < b.rows && error.empty(); ++r) {
        const auto row =
            std::span<char>(reinterpret_cast<char*>(codes.data() + r * b.cols), static_cast<std::size_t>(b.cols));
        (void)run::read_bytes(path, static_cast<std::uintmax_t>((b.row0 + r) * width + b.col0), row, error);
    }
    run::agree(world, error.empty(), error);
    return codes;
}

/// This processor's block of the map the options give: read from --succ, or cut from the generated whole.
SuccessorMap make_map(Group& world, const MapOptions& o) {
    if (o.succ) {
        return SuccessorMap(world, o.width, o.height, read_block(world, *o.succ, o.width, o.height));
    }
    const std::vector<std::int8_t> whole = synthetic_successor_map(o.width, o.height, o.density, o.lines, o.seed);
    const PixelBlock b = block_of(world.rank(), world.size(), o.width, o.height);
    std::vector<std::int8_t> local;
    for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
        const auto row = whole.begin() + r * o.width + b.col0;
        local.insert(local.end(), row, row + b.cols);
    }
    return SuccessorMap(world, o.width, o.height, std::move(local));
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

std::int64_t edge_pixels(Group& world, const SuccessorMap& map) {
    const auto local = std::count_if(map.codes().begin(), map.codes().end(), [](std::int8_t c) { return c != -1; });
    return world.allreduce(static_cast<std::int64_t>(local), Op::sum);
}

/// The ranking of a successor map; auto resolved before the timing, by the map's own density (and --profile).
class RankingRun final : public run::Run {
  public:
    RankingRun(Group& world, RunOptions common, const MapOptions& o)
        : world_(world),
          common_(std::move(common)),
          map_(make_map(world, o)),
          edges_(edge_pixels(world, map_)),
          density_(static_cast<double>(edges_) / static_cast<double>(map_.width() * map_.height())),
          pattern_(common_.pattern == ContourPattern::automatic
                       ? choose_contour_pattern(world.size(), map_.width(), map_.height(), density_, profile())
                       : common_.pattern) {}

    /// An invalid map throws llc::Error on every rank (validate_successor_map): a usage error, named by llc-run.
    void execute() override { ranks_ = contour_rank(world_, map_, pattern_, profile()); }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        return cost::contour_rank(world_.size(), map_.width(), map_.height(), density_, pattern_, profile);
    }

    void write_outputs() override {
        const auto heads =
            std::count_if(ranks_.begin(), ranks_.end(), [](const ContourRank& x) { return x.rank == 0; });
        contours_ = world_.allreduce(static_cast<std::int64_t>(heads), Op::sum);
        if (!common_.output) {
            return;
        }
        const std::vector<std::int32_t> pairs = gather_pairs(world_, ranks_, map_.width(), map_.height());
        run::write_on_root(world_, [&] {
            run::write_whole(*common_.output,
                             std::span<const char>(reinterpret_cast<const char*>(pairs.data()),
                                                   pairs.size() * sizeof(std::int32_t)));
        });
    }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "contour-ranking"},
                {"P", world_.size()},
                {"width", map_.width()},
                {"height", map_.height()},
                {"pattern", std::string(to_string(pattern_))},
                {"edge_pixels", edges_},
                {"contours", contours_},
                {"output", common_.output ? nlohmann::json(*common_.output) : nlohmann::json(nullptr)}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"contour-ranking: P = " + std::to_string(world_.size()) + ", " + std::to_string(map_.width()) + " × " +
                std::to_string(map_.height()) + ", pattern " + std::string(to_string(pattern_)) + ", " +
                std::to_string(edges_) + " edge pixels, " + std::to_string(contours_) + " contours"};
    }

  private:
    [[nodiscard]] const cost::Profile* profile() const { return common_.profile ? &*common_.profile : nullptr; }

    Group& world_;
    RunOptions common_;
    SuccessorMap map_;
    std::int64_t edges_;
    double density_;  ///< the map's own: auto's choice and the prediction
    ContourPattern pattern_;
    std::vector<ContourRank> ranks_;
    std::int64_t contours_ = 0;  ///< heads (rank 0) over the whole map, counted after the timing
};

}  // namespace

run::RunCommand contour_ranking_run_command() {
    return {.name = "contour-ranking",
            .description =
                "head and rank of every edge pixel of a successor map by the C³ merge patterns "
                "(Hambrusch–Khokhar §5), or of every border of a traced binary image (--input)",
            .options = add_options,
            .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
                RunOptions common = common_options(vm);
                if (common.input) {
                    return contour_tracing_run(world, std::move(common));
                }
                const MapOptions map = map_options(vm, common.output.has_value());
                return std::make_unique<RankingRun>(world, std::move(common), map);
            }};
}

}  // namespace llc::cards
