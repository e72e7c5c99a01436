#include "comparison.hpp"

namespace llc::compare {

std::vector<Comparison> legacy_comparisons() {
    return {
        par_comparison(),
    };
}

}  // namespace llc::compare
