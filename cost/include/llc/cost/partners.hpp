#pragma once
/// @file
/// Swaps priced by where their partners are. The CCM's T_f(swap, P, h) is one number per P and h, measured by
/// llc-probe with rank r's partner r xor 1; an algorithm whose partners are farther apart (the FFT's block stages,
/// r xor P/2, r xor P/4, …) may cross nodes where the probe's pairs did not, or stay on a node where they crossed.
/// llc-probe also measures "swap.far" (partners r xor far_distance(P)) and records the node of every rank of its run
/// (meta.node_of_rank); a swap whose pairs cross nodes as swap.far's do, and not as swap's, is priced by the far
/// variant (cost::far_suffix).

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <llc/cost/profile.hpp>

namespace llc::cost {

/// The distance of swap.far's partners on P processors: the largest power of two below P (r ↔ r xor D); 0 for
/// P < 3, where it would be swap's own pairing (or none).
[[nodiscard]] int far_distance(int P) noexcept;

/// Whether the pairs r ↔ r xor `distance` of the first P ranks (both ends below P) cross nodes in a placement
/// (`node_of_rank`: the node of each rank, as meta.node_of_rank records the calibrating run's): at least one pair
/// has its ends on two nodes (a lockstep exchange lasts as long as its slowest pair). nullopt when the placement does
/// not hold P ranks. @throws llc::Error for P < 1 or distance < 1, naming the argument.
[[nodiscard]] std::optional<bool> pairs_cross_nodes(std::span<const int> node_of_rank, int P, int distance);

/// Whether a swap of P processors whose partners are `distance` apart is priced by swap.far's pairs rather than
/// swap's in the placement `node_of_rank`: its pairs cross nodes as swap.far's (r xor far_distance(P)) do and not as
/// swap's (r xor 1). False on one node (every pair stays), where both pairings cross, for distance 1, for P < 3, and
/// for a placement that does not hold P ranks.
[[nodiscard]] bool priced_far(std::span<const int> node_of_rank, int P, int distance);

/// The name under which to price the swap `op` (swap, swap.cold, swap.cold.heap) of P processors whose partners are
/// `distance` apart: `op` + far_suffix when the profile has swap.far and priced_far holds in its recorded placement
/// (meta.node_of_rank), else `op` (a profile without either prices every swap as before).
[[nodiscard]] std::string swap_by_partners(const Profile& profile, std::string_view op, int P, int distance);

}  // namespace llc::cost
