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
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"
#include "inputs.hpp"
#include "run_rows.hpp"

namespace llc::cards {

namespace {

void add_options(po::options_description& desc) {
    // clang-format off
    desc.add_options()
        ("input", po::value<std::string>(), "cost map: width × height little-endian float64, row-major")
        ("width", po::value<std::int64_t>(), "columns of the --input map")
        ("height", po::value<std::int64_t>(), "rows of the --input map")
        ("n", po::value<std::int64_t>(), "side of a generated map (cost 1, obstacles on random discs)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated map")
        ("source", po::value<std::vector<std::string>>(), "ROW,COLUMN where paths start (repeat for several)")
        ("r", po::value<std::int64_t>(), "rows per block (default: llc::path_planning_layout's)")
        ("k", po::value<std::int64_t>(), "pipeline segment length (default: llc::path_planning_layout's)")
        ("output", po::value<std::string>(), "FILE.raw: the path costs, float64, written whole or not at all");
    // clang-format on
}

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

/// The map's width and height: --n's, or --width and --height with --input.
std::pair<std::int64_t, std::int64_t> map_size(const po::variables_map& vm) {
    if (vm.count("n") != 0U) {
        const std::int64_t n = rows::generated_side(vm);
        return {n, n};
    }
    if (vm.count("width") == 0U || vm.count("height") == 0U) {
        throw UsageError("--input needs --width and --height");
    }
    const auto width = vm["width"].as<std::int64_t>();
    const auto height = vm["height"].as<std::int64_t>();
    if (width < 1 || height < 1) {
        throw UsageError("--width, --height: " + std::to_string(width) + ", " + std::to_string(height) +
                         " must be at least 1");
    }
    (void)run::checked_elements("--input (--width × --height)", width, height);
    return {width, height};
}

std::vector<Pixel> sources(const po::variables_map& vm) {
    if (vm.count("source") == 0U) {
        throw UsageError("--source: give at least one ROW,COLUMN");
    }
    std::vector<Pixel> pixels;
    for (const std::string& s : vm["source"].as<std::vector<std::string>>()) {
        pixels.push_back(parse_source(s));
    }
    return pixels;
}

/// This processor's rows of the width × height float64 map in `path` (blocks of r rows, block b on processor
/// b mod P), each read by the processor that holds it. A file of the wrong size or a failed read is agreed on.
std::vector<double> read_map_rows(
    Group& world, const std::string& path, std::int64_t width, std::int64_t height, std::int64_t r) {
    std::string error;
    try {
        const std::uintmax_t bytes = run::file_size(path);
        const auto expected =
            static_cast<std::uintmax_t>(run::checked_elements("--input '" + path + "'", width, height)) *
            sizeof(double);
        if (bytes != expected) {
            error = "input file '" + path + "' has " + std::to_string(bytes) + " bytes: " + std::to_string(width) +
                    " × " + std::to_string(height) + " float64 values are " + std::to_string(expected);
        }
    } catch (const UsageError& e) {
        error = e.what();
    }
    run::agree(world, error.empty(), error);
    std::vector<double> costs;
    for (std::int64_t b = world.rank(); b * r < height && error.empty(); b += world.size()) {
        const std::int64_t rows = std::min(height, (b + 1) * r) - b * r;
        std::vector<double> block(static_cast<std::size_t>(rows * width));
        if (!run::read_bytes(path,
                             static_cast<std::uintmax_t>(b * r * width) * sizeof(double),
                             std::span<char>(reinterpret_cast<char*>(block.data()), block.size() * sizeof(double)),
                             error)) {
            break;
        }
        costs.insert(costs.end(), block.begin(), block.end());
    }
    run::agree(world, error.empty(), error);
    return costs;
}

/// The sources that lie on an obstacle (cost +∞ or NaN): no path can start there, and every pixel stays unreachable
/// from them. Each is looked up by the processor holding its row (blocks of r rows, block b on processor b mod P);
/// rank 0 warns about each on stderr, naming --source and the pixel. Collective; returns how many on every rank.
std::int64_t warn_sources_on_obstacles(Group& world,
                                       std::span<const Pixel> sources,
                                       std::span<const double> costs,
                                       std::int64_t width,
                                       std::int64_t height,
                                       std::int64_t r) {
    std::vector<std::int64_t> blocked(sources.size(), 0);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const Pixel s = sources[i];
        const std::int64_t block = s.row / r;
        if (s.row < 0 || s.row >= height || s.column < 0 || s.column >= width || block % world.size() != world.rank()) {
            continue;  // off the map (the algorithm's own check names it) or another processor's row
        }
        const std::int64_t local_row = (block / world.size()) * r + s.row % r;
        const double cost = costs[static_cast<std::size_t>(local_row * width + s.column)];
        blocked[i] = std::isinf(cost) || std::isnan(cost) ? 1 : 0;
    }
    MPI_Allreduce(MPI_IN_PLACE, blocked.data(), static_cast<int>(blocked.size()), MPI_INT64_T, MPI_MAX, world.native());
    std::int64_t count = 0;
    for (std::size_t i = 0; i < sources.size(); ++i) {
        if (blocked[i] != 0) {
            ++count;
            if (world.rank() == 0) {
                std::fprintf(stderr,
                             "llc-run path-planning: warning: --source %lld,%lld lies on an obstacle (cost +inf): no "
                             "path starts there\n",
                             static_cast<long long>(sources[i].row),
                             static_cast<long long>(sources[i].column));
            }
        }
    }
    return count;
}

class PathPlanningRun final : public rows::RowsRun {
  public:
    PathPlanningRun(Group& world,
                    std::int64_t width,
                    std::int64_t height,
                    SweepLayout layout,
                    std::vector<Pixel> sources,
                    std::optional<std::string> output,
                    std::vector<double> costs,
                    std::int64_t sources_on_obstacles)
        : RowsRun(world, width, height, layout, std::move(output), false),
          sources_(std::move(sources)),
          sources_on_obstacles_(sources_on_obstacles),
          costs_(std::move(costs)),
          out_{RowBlocks{width, height, layout.r, world.size()}, world.rank(), std::vector<double>(costs_.size())} {}

    void execute() override {
        report_ = path_planning(world_, width_, height_, layout_.r, costs_, sources_, out_.rows, layout_.k);
    }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        return cost::path_planning(world_.size(), width_, height_, layout_.r, layout_.k, report_.sweeps, profile);
    }

    void write_outputs() override {
        write_result(
            out_,
            [](double f) { return std::isinf(f); },
            [](const std::string& path, const std::vector<double>& whole) {
                run::write_whole(path, rows::bytes_of(whole));
            });
    }

    [[nodiscard]] nlohmann::json json() const override {
        nlohmann::json j = json_fields("path-planning");
        j["k"] = layout_.k;
        j["sweeps"] = report_.sweeps;
        j["sources_on_obstacles"] = sources_on_obstacles_;
        return j;
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"path-planning: P = " + std::to_string(world_.size()) + ", " + std::to_string(width_) + " × " +
                std::to_string(height_) + ", r = " + std::to_string(layout_.r) + ", k = " + std::to_string(layout_.k) +
                ", " + std::to_string(report_.sweeps) + " sweeps"};
    }

  private:
    std::vector<Pixel> sources_;
    std::int64_t sources_on_obstacles_;
    std::vector<double> costs_;  // this processor's rows of the map
    DistributedImage<double> out_;
    PathPlanningReport report_;
};

std::unique_ptr<run::Run> prepare(Group& world, const po::variables_map& vm) {
    rows::require_one_input(vm,
                            "give exactly one of --input FILE (with --width, --height) and --n N (a generated map)");
    const auto [width, height] = map_size(vm);
    std::vector<Pixel> from = sources(vm);
    std::optional<std::string> output = rows::output_option(vm, {".raw"});
    const SweepLayout layout = rows::layout_option(vm, path_planning_layout(world.size(), width, height));
    std::vector<double> costs;
    if (vm.count("n") != 0U) {
        const std::vector<std::uint8_t> blobs = random_blob_image(width, height, vm["seed"].as<std::uint64_t>(), 0.3);
        const std::vector<double> map = dt::blob_cost_map(blobs, std::numeric_limits<double>::infinity());
        costs = distribute_rows(world, ImageView<const double>{width, height, map}, layout.r).rows;
    } else {
        costs = read_map_rows(world, vm["input"].as<std::string>(), width, height, layout.r);
    }
    const std::int64_t blocked = warn_sources_on_obstacles(world, from, costs, width, height, layout.r);
    return std::make_unique<PathPlanningRun>(
        world, width, height, layout, std::move(from), std::move(output), std::move(costs), blocked);
}

}  // namespace

run::RunCommand path_planning_run_command() {
    return {.name = "path-planning",
            .description = "least path costs over a cost map by red/blue sweeps on a ring (Miguet [2])",
            .options = add_options,
            .prepare = prepare,
            .default_repeat = 3};
}

}  // namespace llc::cards
