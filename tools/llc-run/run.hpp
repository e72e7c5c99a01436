#pragma once
/// @file
/// Transitional: the llc-run commands not yet on their algorithm's card (llc/tools/card.hpp), each running itself.
#include <string>
#include <utility>
#include <vector>

#include <llc/tools/run_command.hpp>

namespace llc::run {

/// A command that parses, times and reports by itself (RunCommand::run).
inline RunCommand legacy_command(std::string name,
                                 std::string description,
                                 int (*run)(Group&, const std::vector<std::string>&)) {
    RunCommand command;
    command.name = std::move(name);
    command.description = std::move(description);
    command.run = run;
    return command;
}

/// The commands not yet on a card (commands.cpp).
[[nodiscard]] std::vector<RunCommand> legacy_commands();

[[nodiscard]] RunCommand distance_transform_command();
[[nodiscard]] RunCommand path_planning_command();
[[nodiscard]] RunCommand matrix_chain_command();
[[nodiscard]] RunCommand optimal_bst_command();
[[nodiscard]] RunCommand symv_command();

}  // namespace llc::run
