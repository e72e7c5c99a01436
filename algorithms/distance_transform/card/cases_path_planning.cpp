// Validation case of path planning (algorithms/distance_transform/path_planning.hpp): the blob image read as a cost
// map (blobs are obstacles, the rest costs 1) from its middle free pixel, in llc::path_planning_layout's blocks and
// segments, priced by llc::cost::path_planning for the number of sweeps the map needs. That count is a property of
// the input, as n is: it is counted by the sequential sweeps (path_planning_sweeps, untimed, on rank 0), never taken
// from the run being priced (the same at every P: each pipelined sweep computes what the sequential sweep does).
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/path_planning.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"
#include "inputs.hpp"

namespace llc::cards {
namespace {

/// The sweeps the case's map of each size needs, counted once by the sequential sweeps.
using SweepCounts = std::map<std::int64_t, int>;

/// The n × n map of the case and where its paths start.
struct Map {
    std::vector<double> costs;
    Pixel source;
};

Map case_map(std::int64_t n) {
    const std::vector<std::uint8_t> blobs = random_blob_image(n, n, dt::blob_seed);
    return {dt::blob_cost_map(blobs, std::numeric_limits<double>::infinity()), dt::middle_free_pixel(blobs, n)};
}

class PathPlanningInstance final : public Instance {
  public:
    PathPlanningInstance(Group& g, std::int64_t n) : g_(g), n_(n), layout_(path_planning_layout(g.size(), n, n)) {
        const Map map = case_map(n);
        source_ = map.source;
        costs_ = distribute_rows(g, ImageView<const double>{n, n, map.costs}, layout_.r).rows;
        out_.resize(costs_.size());
    }
    void run() override {
        sweeps_ = path_planning(g_, n_, n_, layout_.r, costs_, {&source_, 1}, out_, layout_.k).sweeps;
    }

  private:
    Group& g_;
    std::int64_t n_;
    SweepLayout layout_;
    Pixel source_{};
    std::vector<double> costs_;
    std::vector<double> out_;
    int sweeps_ = 0;
};

}  // namespace

std::vector<Case> path_planning_cases() {
    const auto sweeps = std::make_shared<SweepCounts>();
    return {Case{
        .algorithm = "path-planning",
        .family = "distance-transform",
        .size_unit = "n (n × n pixels)",
        .sizes =
            [](SizeClass size_class) {
                // Several sweeps a run: the large class stops at 4096² to keep a run under a few seconds.
                std::vector<std::int64_t> n = dt::validation_sizes(size_class);
                std::erase_if(n, [](std::int64_t side) { return side > 4096; });
                return n;
            },
        .prepare = [](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<PathPlanningInstance>(g, n);
        },
        .expr =
            [sweeps](int p, std::int64_t n, const cost::Profile& profile) {
                auto known = sweeps->find(n);
                if (known == sweeps->end()) {
                    const Map map = case_map(n);
                    known = sweeps->emplace(n, path_planning_sweeps(n, n, map.costs, {&map.source, 1})).first;
                }
                const SweepLayout layout = path_planning_layout(p, n, n);
                return cost::path_planning(p, n, n, layout.r, layout.k, known->second, profile);
            },
        .applies = {},
        .goal = {.median = 0.10},  // issue #20 states its bound for the transforms; path planning is held to the same
        .seed = dt::blob_seed,
    }};
}

}  // namespace llc::cards
