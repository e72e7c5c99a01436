#include "run.hpp"

namespace llc::run {

std::vector<RunCommand> legacy_commands() {
    return {contour_ranking_command()};
}

}  // namespace llc::run
