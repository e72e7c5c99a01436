#pragma once
// Internal: what the analytic models share — the collectives they know and argument checks.

#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <llc/bcast_schedule.hpp>
#include <llc/log2.hpp>

namespace llc::cost::detail {

enum class Collective { bcast, reduce, allreduce, gather, allgather, scatter, alltoall, barrier, swap, shift };

/// The collective named `f` (v-variants folded), else llc::Error "<function>: argument 'f' = …: unknown collective".
[[nodiscard]] Collective parse_collective(const std::string& function, std::string_view f);
/// llc::Error naming `function` for P < 1 or bytes negative / not finite.
void check_price_arguments(const std::string& function, int P, double bytes);
/// Checks a division's arguments: P ≥ 1, sizes non-empty with every size ≥ 1, bytes ≥ 0.
void check_division_arguments(const std::string& function, int P, std::span<const int> sizes, double bytes);
/// Seidel's broadcast whose superstep `f` names (llc::bcast_superstep_name: "bcast.st", "bcast.bst", "bcast.rh"), if
/// it names one.
[[nodiscard]] std::optional<Bcast> seidel_broadcast(std::string_view f) noexcept;
/// A model's price of Seidel's broadcast: the report's Table I (ν = 0) with the model's per-hop start-up and per-byte
/// time; 0 on one processor.
[[nodiscard]] double seidel_seconds(Bcast algorithm, int P, double bytes, double startup, double per_byte);
/// ⌈log2 P⌉ for P ≥ 1 (<llc/log2.hpp>).
using llc::ceil_log2;

}  // namespace llc::cost::detail
