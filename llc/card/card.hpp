#pragma once
/// @file
/// The parts of the llc layer's cards (collectives, broadcast, par), one file each.
#include <cstdint>
#include <vector>

#include <llc/tools/card.hpp>

namespace llc::cards {

[[nodiscard]] std::vector<validate::Case> collective_cases();  ///< cases_collectives.cpp
[[nodiscard]] std::vector<validate::Case> broadcast_cases();   ///< cases_broadcast.cpp
[[nodiscard]] compare::Comparison par_comparison();            ///< compare_par.cpp

/// The sizes of the collective and broadcast cases: bytes per processor, log-uniform from 64 B (cases_collectives.cpp).
[[nodiscard]] std::vector<std::int64_t> byte_sizes(validate::SizeClass size_class);

}  // namespace llc::cards
