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
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/error.hpp>
#include <llc/tools/image_io.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"
#include "run_rows.hpp"

namespace llc::cards {

namespace {

void add_options(po::options_description& desc) {
    // clang-format off
    desc.add_options()
        ("input", po::value<std::string>(), "greyscale image: binary PGM or PNG, 8 or 16 bits; 0 = feature")
        ("n", po::value<std::int64_t>(), "side of a generated random blob image (with --seed)")
        ("seed", po::value<std::uint64_t>()->default_value(1), "seed of the generated image")
        ("metric", po::value<std::string>()->default_value("chamfer34"), "d4 | d8 | chamfer34 | chamfer5711 | euclidean")
        ("r", po::value<std::int64_t>(), "rows per block (default: chamfer metrics the model's fastest with --profile, "
                                         "else llc::sweep_layout's; euclidean ⌈height/P⌉)")
        ("k", po::value<std::int64_t>(), "chamfer pipeline segment length (default: the model's fastest with --profile, "
                                         "else llc::sweep_layout's)")
        ("output", po::value<std::string>(), "FILE.pgm (16-bit) or FILE.raw (int32), written whole or not at all");
    // clang-format on
}

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// What the options ask for, checked, and the whole image (0 = feature, 1 = figure) on every rank.
struct Request {
    Metric metric = Metric::chamfer34;
    std::optional<ChamferMask> mask;  ///< none: the exact Euclidean transform
    std::optional<std::string> output;
    std::optional<cost::Profile> profile;
    std::int64_t width = 0;
    std::int64_t height = 0;
    std::vector<std::uint8_t> whole;
};

Request request(Group& world, const po::variables_map& vm) {
    rows::require_one_input(vm, "give exactly one of --input FILE and --n N (a generated blob image)");
    Request q;
    q.metric = run::enum_option("--metric",
                                vm["metric"].as<std::string>(),
                                {Metric::d4, Metric::d8, Metric::chamfer34, Metric::chamfer5711, Metric::euclidean});
    if (q.metric != Metric::euclidean) {
        q.mask = chamfer_mask(q.metric);
    }
    q.output = rows::output_option(vm, {".pgm", ".raw"});
    if (vm.count("profile") != 0U) {  // the layout the model prices fastest (the driver loaded it to predict)
        q.profile = run::load_profile_option(vm["profile"].as<std::string>());
    }
    if (vm.count("n") != 0U) {
        q.width = q.height = rows::generated_side(vm);
        q.whole = random_blob_image(q.width, q.height, vm["seed"].as<std::uint64_t>());
    } else {
        q.whole = run::read_binary_image(world, vm["input"].as<std::string>(), q.width, q.height);
    }
    return q;
}

/// The layout: what --r and --k say, else for a chamfer metric the model's fastest with --profile
/// (cost::best_sweep_layout, and cost::best_segment for an --r without --k) or llc::sweep_layout's rule without; the
/// EDT wants one block a processor.
SweepLayout choose_layout(const Request& q, int P, const po::variables_map& vm) {
    if (!q.mask) {
        return rows::layout_option(vm, {(q.height + P - 1) / P, 1});
    }
    try {
        SweepLayout layout =
            rows::layout_option(vm,
                                q.profile ? cost::best_sweep_layout(P, q.width, q.height, *q.mask, *q.profile)
                                          : sweep_layout(P, q.width, q.height, *q.mask));
        if (vm.count("r") != 0U && vm.count("k") == 0U && q.profile) {
            layout.k = cost::best_segment(P, q.width, q.height, layout.r, *q.mask, *q.profile);
        }
        return layout;
    } catch (const llc::Error& e) {
        throw UsageError(std::string("--profile: ") + e.what());
    }
}

class DistanceTransformRun final : public rows::RowsRun {
  public:
    DistanceTransformRun(Group& world, Request q, SweepLayout layout)
        : RowsRun(world, q.width, q.height, layout, std::move(q.output), true),
          metric_(q.metric),
          mask_(std::move(q.mask)),
          image_(distribute_rows(world, ImageView<const std::uint8_t>{width_, height_, q.whole}, layout_.r)),
          out_{image_.layout, image_.rank, std::vector<std::int32_t>(image_.rows.size())} {}

    void execute() override {
        if (mask_) {
            chamfer_distance_transform(world_, width_, height_, layout_.r, image_.rows, *mask_, out_.rows, layout_.k);
        } else {
            euclidean_distance_transform(world_, width_, height_, layout_.r, image_.rows, out_.rows);
        }
    }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& profile) const override {
        const int P = world_.size();
        return mask_ ? cost::chamfer_distance_transform(P, width_, height_, layout_.r, layout_.k, *mask_, profile)
                     : cost::euclidean_distance_transform(P, width_, height_, layout_.r, profile);
    }

    void write_outputs() override {
        write_result(
            out_,
            [](std::int32_t d) { return d == -1; },
            [this](const std::string& path, const std::vector<std::int32_t>& whole) {
                if (ends_with(path, ".pgm")) {
                    run::write_whole(path, tools::pgm16(width_, height_, whole));
                } else {
                    run::write_whole(path, rows::bytes_of(whole));
                }
            });
    }

    [[nodiscard]] nlohmann::json json() const override {
        nlohmann::json j = json_fields("distance-transform");
        j["metric"] = to_string(metric_);
        j["k"] = mask_ ? nlohmann::json(layout_.k) : nlohmann::json(nullptr);
        return j;
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"distance-transform: P = " + std::to_string(world_.size()) + ", " + std::to_string(width_) + " × " +
                std::to_string(height_) + ", metric " + std::string(to_string(metric_)) +
                ", r = " + std::to_string(layout_.r) + (mask_ ? ", k = " + std::to_string(layout_.k) : "")};
    }

  private:
    Metric metric_;
    std::optional<ChamferMask> mask_;
    DistributedImage<std::uint8_t> image_;  // this processor's rows of the image every rank read
    DistributedImage<std::int32_t> out_;
};

}  // namespace

run::RunCommand distance_transform_run_command() {
    return {.name = "distance-transform",
            .description =
                "chamfer (d4, d8, 3-4, 5-7-11) and exact Euclidean distance transforms by rows on a ring (Miguet [2])",
            .options = add_options,
            .prepare = [](Group& world, const po::variables_map& vm) -> std::unique_ptr<run::Run> {
                Request q = request(world, vm);
                const SweepLayout layout = choose_layout(q, world.size(), vm);
                return std::make_unique<DistanceTransformRun>(world, std::move(q), layout);
            }};
}

}  // namespace llc::cards
