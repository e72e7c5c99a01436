#include "comparison.hpp"

namespace llc::compare {

std::vector<Comparison> legacy_comparisons() {
    return {
        matrix_chain_comparison(),
        path_planning_comparison(),
#ifdef LLC_HAVE_OPENCV
        distance_transform_comparison(),
        contour_ranking_comparison(),
#endif
#ifdef LLC_HAVE_OPENBLAS
        symv_comparison(),
#endif
    };
}

}  // namespace llc::compare
