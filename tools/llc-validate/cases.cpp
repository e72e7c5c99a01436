#include "case.hpp"

namespace llc::validate {

std::vector<Case> legacy_cases() {
    std::vector<Case> cases;
    for (auto&& family : {collective_cases(), broadcast_cases()}) {
        cases.insert(cases.end(), family.begin(), family.end());
    }
    return cases;
}

}  // namespace llc::validate
