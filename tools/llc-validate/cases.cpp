#include "case.hpp"

namespace llc::validate {

std::vector<Case> legacy_cases() {
    std::vector<Case> cases;
    for (auto&& family : {distance_transform_cases(), matrix_chain_cases(), contour_ranking_cases(), symv_cases()}) {
        cases.insert(cases.end(), family.begin(), family.end());
    }
    return cases;
}

}  // namespace llc::validate
