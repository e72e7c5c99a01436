#include "comparison.hpp"

namespace llc::compare {

std::vector<Comparison> legacy_comparisons() {
    return {
        par_comparison(),
#ifdef LLC_HAVE_OPENCV
        contour_ranking_comparison(),
#endif
    };
}

}  // namespace llc::compare
