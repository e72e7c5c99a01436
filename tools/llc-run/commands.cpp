#include "run.hpp"

namespace llc::run {

std::vector<RunCommand> legacy_commands() {
    return {matrix_chain_command(), optimal_bst_command(), contour_ranking_command(), symv_command()};
}

}  // namespace llc::run
