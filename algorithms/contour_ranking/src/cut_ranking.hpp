#pragma once
// The local ranking of a block with cut borders, for the tr.rank_cut probe (contour_ranking_probes.cpp): at P > 1
// every block has borders that leave it, and ranking them takes work a one-processor run (every border a cycle) skips.
#include <cstdint>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>

namespace llc::detail::contour_ranking {

/// A one-processor BorderMap's in-block successors with every link that crosses the vertical line left of `column`
/// cut (−1), as the line between two processors' blocks cuts them.
[[nodiscard]] std::vector<std::int32_t> cut_at_column(const BorderMap& borders, std::int64_t column);

/// What contour_rank does on a block whose in-block successors are `local_next` (cut_at_column), outside the merge of
/// the boundary lists (priced by cr.merge): step 1 (rank_locally, finding the segments), the boundary list, and step 3
/// from the segments' own lasts (as if the merge resolved none of them). Returns the ranks (one entry per state, made
/// fresh as contour_rank makes them); the boundary list's length in `boundary_segments`.
[[nodiscard]] std::vector<ContourRank> rank_cut_block(const BorderMap& borders,
                                                      const std::vector<std::int32_t>& local_next,
                                                      std::size_t& boundary_segments);

}  // namespace llc::detail::contour_ranking
