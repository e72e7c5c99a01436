#include "run.hpp"

namespace llc::run {

const std::vector<RunCommand>& commands() {
    static const std::vector<RunCommand> all{fft_command(),
                                             distance_transform_command(),
                                             path_planning_command(),
                                             matrix_chain_command(),
                                             optimal_bst_command(),
                                             contour_ranking_command(),
                                             symv_command()};
    return all;
}

}  // namespace llc::run
