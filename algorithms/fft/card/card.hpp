#pragma once
/// @file
/// The parts of the FFT's card, one file each.
#include <vector>

#include <llc/tools/card.hpp>

namespace llc::cards {

[[nodiscard]] run::RunCommand fft_run_command();        ///< run_fft.cpp
[[nodiscard]] std::vector<validate::Case> fft_cases();  ///< cases_fft.cpp
[[nodiscard]] compare::Comparison fft_comparison();     ///< compare_fft.cpp

}  // namespace llc::cards
