#include "comparison.hpp"

namespace llc::compare {

std::vector<Comparison> legacy_comparisons() {
    return {
        par_comparison(),
        matrix_chain_comparison(),
        path_planning_comparison(),
#ifdef LLC_HAVE_OPENCV
        distance_transform_comparison(),
#endif
#ifdef LLC_HAVE_OPENBLAS
        symv_comparison(),
#endif
    };
}

}  // namespace llc::compare
