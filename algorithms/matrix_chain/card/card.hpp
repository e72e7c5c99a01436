#pragma once
/// @file
/// The parts of the ring interval DP's card (matrix-chain order and optimal BST), one file each.
#include <vector>

#include <llc/tools/card.hpp>

namespace llc::cards {

[[nodiscard]] run::RunCommand matrix_chain_run_command();        ///< run_matrix_chain.cpp
[[nodiscard]] run::RunCommand optimal_bst_run_command();         ///< run_matrix_chain.cpp
[[nodiscard]] std::vector<validate::Case> matrix_chain_cases();  ///< cases_matrix_chain.cpp
[[nodiscard]] compare::Comparison matrix_chain_comparison();     ///< compare_matrix_chain.cpp

}  // namespace llc::cards
