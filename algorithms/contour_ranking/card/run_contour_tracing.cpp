// llc-run contour-ranking --input FILE.pgm|.png [--connectivity 8|4]: a greyscale image (nonzero = foreground) read by
// rank 0, traced (trace_contours) and its borders ranked (contour_rank); the timed run is trace + rank. --output
// FILE.txt then holds one contour a line, as contours() gives them: "id outer|hole count row,col row,col …", written
// whole or not at all by rank 0. No CCM prediction: the command prices no tracing yet (no_prediction says so).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/tools/run_command.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

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

/// The image, read whole by rank 0 and broadcast, as this rank's block.
BinaryImage read_image(Group& world, const std::string& path) {
    std::int64_t width = 0;
    std::int64_t height = 0;
    const std::vector<std::uint8_t> whole = run::read_binary_image(world, path, width, height);
    return BinaryImage::from_whole(world, width, height, whole);
}

/// Trace + rank of a binary image. auto is resolved by the first execution (the warm-up) and the timed ones run the
/// pattern it chose: the successor maps' choice at the image's states per pixel (at most 1).
class TracingRun final : public run::Run {
  public:
    TracingRun(Group& world, RunOptions options)
        : world_(world),
          options_(std::move(options)),
          image_(read_image(world, *options_.input)),
          pattern_(options_.pattern) {}

    void execute() override {
        const cost::Profile* profile = options_.profile ? &*options_.profile : nullptr;
        borders_.emplace(trace_contours(world_, image_, options_.connectivity));
        ranks_ = contour_rank(world_, *borders_, pattern_, profile);
        if (pattern_ == ContourPattern::automatic) {
            const double pixels = static_cast<double>(image_.width() * image_.height());
            const double density = std::min(1.0, static_cast<double>(states()) / pixels);
            pattern_ = choose_contour_pattern(world_.size(), image_.width(), image_.height(), density, profile);
        }
    }

    [[nodiscard]] std::optional<cost::Expr> expr(const cost::Profile& /*profile*/) const override {
        return std::nullopt;
    }
    [[nodiscard]] std::string no_prediction() const override { return "no cost function for tracing yet"; }
    [[nodiscard]] std::string measured_what() const override { return "trace + rank"; }

    /// Counts the border states and assembles the contours on rank 0 (collective), then writes them.
    void write_outputs() override {
        states_ = states();
        found_ = contours(world_, *borders_, ranks_);
        if (!options_.output) {
            return;
        }
        const std::string text = world_.rank() == 0 ? contour_lines(found_) : std::string();
        run::write_on_root(
            world_, [&] { run::write_whole(*options_.output, std::span<const char>(text.data(), text.size())); });
    }

    [[nodiscard]] nlohmann::json json() const override {
        return {{"algorithm", "contour-ranking"},
                {"input", *options_.input},
                {"connectivity", connectivity()},
                {"P", world_.size()},
                {"width", image_.width()},
                {"height", image_.height()},
                {"pattern", std::string(to_string(pattern_))},
                {"border_states", states_},
                {"contours", found_.size()},
                {"outer", outer()},
                {"holes", holes()},
                {"output", options_.output ? nlohmann::json(*options_.output) : nlohmann::json(nullptr)}};
    }

    [[nodiscard]] std::vector<std::string> text_before() const override {
        return {"contour-ranking: P = " + std::to_string(world_.size()) + ", " + *options_.input + " traced (" +
                std::to_string(connectivity()) + "-connectivity), " + std::to_string(image_.width()) + " × " +
                std::to_string(image_.height()) + ", pattern " + std::string(to_string(pattern_)) + ", " +
                std::to_string(states_) + " border states, " + std::to_string(found_.size()) + " contours (" +
                std::to_string(outer()) + " outer, " + std::to_string(holes()) + " holes)"};
    }

  private:
    /// The border states of the whole image. Collective.
    [[nodiscard]] std::int64_t states() const {
        return world_.allreduce(static_cast<std::int64_t>(borders_->states().size()), Op::sum);
    }
    [[nodiscard]] int connectivity() const { return options_.connectivity == Connectivity::four ? 4 : 8; }
    [[nodiscard]] std::int64_t holes() const {
        return std::count_if(found_.begin(), found_.end(), [](const Contour& c) { return c.hole; });
    }
    [[nodiscard]] std::int64_t outer() const { return static_cast<std::int64_t>(found_.size()) - holes(); }

    Group& world_;
    RunOptions options_;
    BinaryImage image_;
    ContourPattern pattern_;  ///< auto until the first execution resolves it
    std::optional<BorderMap> borders_;
    std::vector<ContourRank> ranks_;
    std::int64_t states_ = 0;     ///< the whole image's border states, counted after the timing
    std::vector<Contour> found_;  ///< the contours, on rank 0, assembled after the timing
};

}  // namespace

std::unique_ptr<run::Run> contour_tracing_run(Group& world, RunOptions options) {
    return std::make_unique<TracingRun>(world, std::move(options));
}

}  // namespace llc::cards
