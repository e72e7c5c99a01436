#pragma once
// Internal: what the analytic models share — the collectives they know and argument checks.

#include <cmath>
#include <span>
#include <string>
#include <string_view>

namespace llc::cost::detail {

enum class Collective { bcast, reduce, allreduce, gather, allgather, scatter, alltoall, barrier, swap };

/// The collective named `f` (v-variants folded), else llc::Error "<function>: argument 'f' = …: unknown collective".
[[nodiscard]] Collective parse_collective(const std::string& function, std::string_view f);
/// llc::Error naming `function` for P < 1 or bytes negative / not finite.
void check_price_arguments(const std::string& function, int P, double bytes);
/// Checks a division's arguments: P ≥ 1, sizes non-empty with every size ≥ 1, bytes ≥ 0.
void check_division_arguments(const std::string& function, int P, std::span<const int> sizes, double bytes);
/// ⌈log2 P⌉ for P ≥ 1.
[[nodiscard]] int ceil_log2(int P) noexcept;

}  // namespace llc::cost::detail
