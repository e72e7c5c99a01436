// Validation cases of contour ranking (algorithms/contour_ranking): the C³ paper's synthetic images (diagonal lines,
// §5.3) of n × n pixels at 5 % and 100 % edge pixels, ranked by each of the four merge patterns, priced by
// llc::cost::contour_rank for the same (P, n, density, pattern).
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>

#include "case.hpp"

namespace llc::validate {
namespace {

class ContourRankInstance final : public Instance {
  public:
    ContourRankInstance(Group& g, std::int64_t n, double density, ContourPattern pattern)
        : g_(g),
          pattern_(pattern),
          succ_(SuccessorMap::from_whole(g, n, n, synthetic_successor_map(n, n, density, ContourLines::diagonal))) {}
    void run() override { ranks_ = contour_rank(g_, succ_, pattern_); }

  private:
    Group& g_;
    ContourPattern pattern_;
    SuccessorMap succ_;
    std::vector<ContourRank> ranks_;
};

std::vector<std::int64_t> sizes(SizeClass size_class) {
    switch (size_class) {
        case SizeClass::small:
            return {256, 512, 1024};
        case SizeClass::medium:
            return {512, 1024, 2048};
        case SizeClass::large:
            return {1024, 2048, 4096};
    }
    return {};
}

Case contour_case(ContourPattern pattern, double density) {
    return Case{
        .algorithm = "cr-" + std::string(to_string(pattern)) + "-d" + std::to_string(static_cast<int>(density * 100)),
        .family = "contour-ranking",
        .size_unit = "n (n × n pixels)",
        .sizes = sizes,
        .prepare = [pattern, density](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
            return std::make_unique<ContourRankInstance>(g, n, density, pattern);
        },
        .expr =
            [pattern, density](int p, std::int64_t n, const cost::Profile& profile) {
                return cost::contour_rank(p, n, n, density, pattern, profile);
            },
        .applies = {},
        .goal = {.median = 0.15},  // issue #21: within 15 % median, 1024² … 4096², densities 5 % … 100 %, P = 1, 2
    };
}

}  // namespace

std::vector<Case> contour_ranking_cases() {
    std::vector<Case> cases;
    for (const ContourPattern pattern : {ContourPattern::one_level_direct,
                                         ContourPattern::two_level_row_column,
                                         ContourPattern::log_level_quad,
                                         ContourPattern::log_level_balanced}) {
        for (const double density : {0.05, 1.0}) {
            cases.push_back(contour_case(pattern, density));
        }
    }
    return cases;
}

}  // namespace llc::validate
