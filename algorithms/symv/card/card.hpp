#pragma once
/// @file
/// The parts of symv's card, one file each; its generated input is input.hpp.
#include <vector>

#include <llc/tools/card.hpp>

namespace llc::cards {

[[nodiscard]] run::RunCommand symv_run_command();        ///< run_symv.cpp
[[nodiscard]] std::vector<validate::Case> symv_cases();  ///< cases_symv.cpp
[[nodiscard]] compare::Comparison symv_comparison();     ///< compare_symv.cpp, only with OpenBLAS (LLC_HAVE_OPENBLAS)

}  // namespace llc::cards
