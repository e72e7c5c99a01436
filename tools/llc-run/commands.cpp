#include "run.hpp"

namespace llc::run {

std::vector<RunCommand> legacy_commands() {
    return {distance_transform_command(),
            path_planning_command(),
            matrix_chain_command(),
            optimal_bst_command(),
            symv_command()};
}

}  // namespace llc::run
