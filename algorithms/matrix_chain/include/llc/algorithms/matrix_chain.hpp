#pragma once
/// @file
/// Interval dynamic programming on a ring of processors (Miguet & Robert, "Dynamic programming on a ring of
/// processors", article [1] of Miguet's thesis): the matrix-chain order and the optimal binary search tree.
///
/// Both solve c(i,i) = 0, c(i,j) = min_{i≤k<j} {c(i,k) + c(k+1,j) + f(i,j,k)}. Column j of the table lives on
/// processor Alloc(j) = ⌊j/r⌋ mod P; the table is computed block diagonal by block diagonal (macro-steps), and at
/// macro-step d every processor passes to its right neighbour the trapezoids of r partial rows c(i, i..b·r−1) its
/// next neighbour needs — exactly the messages of the article's Tables 1 and 2 — with one Group::shift a macro-step.
/// Each processor stores only its own columns (about n²/(2P) costs and as many split indices).

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <llc/algorithms/detail/interval_table.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>
#include <llc/distribution.hpp>
#include <llc/group.hpp>

namespace llc {

/// One processor's share of an interval-DP table of n indices: the columns j with ⌊j/r⌋ mod P = rank, each holding
/// c(i, j) and the smallest optimal split k(i, j) for i = 0 … j.
template <class T>
class IntervalTable {
  public:
    IntervalTable() = default;
    IntervalTable(std::int64_t n, std::int64_t r, int P, int rank);

    [[nodiscard]] std::int64_t n() const noexcept { return n_; }
    [[nodiscard]] std::int64_t r() const noexcept { return r_; }
    /// Alloc(j) = ⌊j/r⌋ mod P.
    [[nodiscard]] int owner(std::int64_t j) const noexcept { return static_cast<int>((j / r_) % P_); }
    [[nodiscard]] bool owns(std::int64_t j) const noexcept { return owner(j) == rank_; }
    /// The placement of the columns 0 … n−1 as an llc::Distribution (<llc/distribution.hpp>):
    /// BlockCyclicDistribution(n, r, P), whose owner(j) is owner(j) above. It describes columns, not a vector: column j
    /// holds j + 1 costs (and as many splits), so the table's entries are not redistributed as one array.
    [[nodiscard]] BlockCyclicDistribution columns() const { return BlockCyclicDistribution(n_, r_, P_); }
    /// c(i, j) for a column this processor owns, 0 ≤ i ≤ j.
    [[nodiscard]] T value(std::int64_t i, std::int64_t j) const { return storage_.values_[storage_.at(i, j)]; }
    /// The smallest optimal k of c(i, j), i < j, for a column this processor owns.
    [[nodiscard]] std::int32_t split(std::int64_t i, std::int64_t j) const {
        return storage_.splits_[storage_.at(i, j)];
    }
    /// How many table entries this processor allocated (costs; as many split indices again).
    [[nodiscard]] std::size_t entries() const noexcept { return storage_.entries_; }

  private:
    friend struct detail::IntervalTableAccess;  // the engine writes the columns (detail/interval_table.hpp)

    std::int64_t n_ = 0;
    std::int64_t r_ = 1;
    int P_ = 1;
    int rank_ = 0;
    detail::IntervalTableStorage<T> storage_;
};

/// The entries c(i, k) a processor received at one macro-step, in the order they arrived ({i, k} pairs).
using ReceivedEntries = std::vector<std::array<std::int64_t, 2>>;

/// Options of matrix_chain and optimal_bst; the same on every rank.
struct IntervalDpOptions {
    /// Columns per block (≥ 1; r < 1 is an llc::Error). Unset: the r that cost::matrix_chain prices lowest on
    /// `profile`, or without a profile default_block_size(P, n).
    std::optional<std::int64_t> r{};
    const cost::Profile* profile = nullptr;
    /// When set, receives what this processor received at each macro-step (index d − 1 for macro-step d).
    std::vector<ReceivedEntries>* received = nullptr;
};

/// The block size matrix_chain and optimal_bst use for n indices on P processors when options.r is unset and there is
/// no profile: 64 (or n) at P = 1, else the article's r_opt ≈ √(2ρn/(3P)) with ρ = 12 (8 until 2026-11-28, when the
/// engine updated six times slower), within 1 … ⌈n/P⌉.
[[nodiscard]] std::int64_t default_block_size(int P, std::int64_t n);

/// The engine's kept arrays (matrix_chain and optimal_bst). A table's large arrays (256 KiB and more: its costs and
/// splits, the ring's message buffers), given back when their result is dropped, are kept per process for the next run
/// that asks for the same size, so that a loop of runs does not fault its tables in again (a fresh page cost ≈ 16 µs
/// per 4 KiB on a para-virtualised VM). At most 16 arrays and set_matrix_chain_cache_limit's bytes are kept, the oldest
/// freed first; all are freed when an allocation fails. A program that needs the memory for something else releases
/// them; none of these calls is collective, all are thread safe.
struct MatrixChainCacheUsage {
    std::size_t bytes = 0;        ///< bytes kept now (not counting arrays that live results still hold)
    std::size_t arrays = 0;       ///< arrays kept now
    std::size_t limit_bytes = 0;  ///< the most bytes kept (set_matrix_chain_cache_limit)
};
/// The default of set_matrix_chain_cache_limit: 256 MiB, the arrays of a one-processor table at n = 4000 (96 MiB) with
/// room for a few message buffers.
inline constexpr std::size_t matrix_chain_cache_default_limit = std::size_t{256} << 20;
/// What the engine keeps now.
[[nodiscard]] MatrixChainCacheUsage matrix_chain_cache_usage() noexcept;
/// Frees every kept array now. Tables still held by results are untouched (they are kept, within the limit, when
/// their results go); the next run allocates afresh and is as correct, only its first touch of the pages is slower.
void release_matrix_chain_cache() noexcept;
/// Keeps at most `bytes` from now on (0: keep nothing, every array freed when given back), freeing the oldest kept
/// arrays above it; returns the previous limit.
std::size_t set_matrix_chain_cache_limit(std::size_t bytes) noexcept;

/// The result of matrix_chain.
struct MatrixChainResult {
    std::int64_t cost = 0;              ///< scalar multiplications of the optimal order, on every rank
    std::string parenthesization;       ///< e.g. "((A1(A2A3))((A4A5)A6))", on every rank
    std::int64_t r = 1;                 ///< the block size used
    IntervalTable<std::int64_t> table;  ///< this rank's columns: c(i, j) and the splits (matrices i … j, 0-based)
};

/// The result of optimal_bst.
struct OptimalBstResult {
    double cost = 0.0;        ///< Σ f_k·(depth_k + 1), the root at depth 0; on every rank
    int root = -1;            ///< the root key (0-based); −1 for no keys
    std::vector<int> parent;  ///< parent[k] of key k in the optimal tree, −1 for the root; on every rank
    std::int64_t r = 1;       ///< the block size used (0 at P = 1: Knuth's algorithm, no table distribution)
    /// This rank's columns of the thesis' table on n + 1 indices: c(i, j) for keys i … j−1 and its root k(i, j). At
    /// P = 1 (Knuth), every column.
    IntervalTable<double> table;
};

/// The optimal matrix-chain order of A1 … An, Ai being dims[i−1] × dims[i].
///
/// @param dims n + 1 ≥ 2 positive dimensions, the same on every rank.
/// @return the exact cost (int64; an order whose cost does not fit is never wrapped: llc::Error), the split table and
///         the parenthesisation, ties broken by the smallest k — identical at every P and r.
/// @throws llc::Error on every rank for fewer than 2 dims, a dimension ≤ 0, dims or options that differ across ranks,
///         r < 1, or an optimal cost above 2^63 − 1.
///
/// Collective over g: one Group::shift per macro-step ("mc.rotate"), the columns ⌊j/r⌋ mod P on each rank, then one
/// allreduce per level of the optimal tree to rebuild the parenthesisation. Cost: cost::matrix_chain (article [1] §3).
[[nodiscard]] MatrixChainResult matrix_chain(Group& g,
                                             std::span<const std::int64_t> dims,
                                             const IntervalDpOptions& options = {});

/// The optimal binary search tree of keys with access frequencies freq (thesis §2.1: c(i,j) = min_k {c(i,k) +
/// c(k+1,j)} + Σ_{m=i}^{j−1} f_m on n + 1 indices), ties broken by the smallest root.
///
/// @param freq n ≥ 1 finite non-negative frequencies, the same on every rank.
/// @throws llc::Error on every rank for an empty, negative or non-finite freq, freq or options that differ across
///         ranks, or r < 1.
///
/// Collective over g. At P = 1 Knuth's O(n²) algorithm (monotone roots, valid for this cost); otherwise the ring
/// engine as matrix_chain, with one allreduce per tree level for the parent array. Cost: cost::matrix_chain(P, n+1, r).
[[nodiscard]] OptimalBstResult optimal_bst(Group& g,
                                           std::span<const double> freq,
                                           const IntervalDpOptions& options = {});

/// Sequential oracles and peers (one processor, whole n × n tables).
namespace sequential {

/// The textbook O(n³) loop (CLRS §15.2: m[i][j] over chain lengths, strided column access), ties to the smallest k.
/// `split`, when given, receives the n × n row-major split table. @throws llc::Error as matrix_chain.
[[nodiscard]] std::int64_t matrix_chain_textbook(std::span<const std::int64_t> dims,
                                                 std::vector<std::int32_t>* split = nullptr);

/// Knuth's O(n²) optimal BST (roots monotone: k(i,j−1) ≤ k(i,j) ≤ k(i+1,j)), the same recurrence and tie rule as
/// optimal_bst. `root`, when given, receives the (n+1) × (n+1) row-major root table. Not valid for the matrix chain.
[[nodiscard]] double optimal_bst_knuth(std::span<const double> freq, std::vector<std::int32_t>* root = nullptr);

/// The O(n³) optimal BST, the same recurrence without Knuth's restriction.
[[nodiscard]] double optimal_bst_cubic(std::span<const double> freq, std::vector<std::int32_t>* root = nullptr);

/// "((A1(A2A3))A4)" from an n × n row-major split table of a chain of n matrices.
[[nodiscard]] std::string parenthesization(std::int64_t n, std::span<const std::int32_t> split);

}  // namespace sequential

namespace cost {

/// The CCM cost of matrix_chain / optimal_bst on P processors, n indices (matrices; keys + 1), block size r (article
/// [1] §3): macro-step 0 computes the diagonal blocks, each macro-step d = 1 … ⌈n/r⌉−1 is a normal superstep
/// "shift.written" (the shift of a message its sender has just written; names::matrix_chain::rotate,
/// <llc/algorithms/matrix_chain_names.hpp>, as the engine labels its Group::shift)
/// whose h is the largest trapezoid message of that step (sent + received bytes) and whose W is the busiest
/// processor's work of that step: per block, its diagonal updates × τ_diag(width), its edge updates × τ_edge(r) and
/// its middle updates × τ_mid(middle length) — the profile's "mc.diag.2^e", "mc.edge.2^e" and "mc.update.2^e", which
/// llc-probe measures by running the engine's compute_edges / compute_middle on a synthetic block. Summed, the W are
/// the article's T_A and the messages its T_C = Σ Rotat(d)·τ_c. P = 1: one compute node, (n³ − n)/6 updates at the
/// whole one-processor engine's "mc.run.2^e" (e = log2 n; its solo sizes "mc.run_solo.2^e" where measured) when r is
/// default_block_size(1, n), else the blocks' sum. Otherwise every W is scaled by the whole engine's measured level:
/// "mc.run.2^e" over the blocks' price of the same one-processor run (the engine ran at 0.7–0.8 of the block probes'
/// price here). The four tables and, at P > 1, "shift.written" are required, never replaced by a fallback.
/// @throws llc::Error for P < 1, n < 1, r < 1, or a profile without one of "mc.update.2^e", "mc.edge.2^e",
/// "mc.diag.2^e", "mc.run.2^e", or at P > 1 without "shift.written" (the message names the key and the llc-probe that
/// writes it).
[[nodiscard]] Expr matrix_chain(int P, std::int64_t n, std::int64_t r, const Profile& profile);
/// The same, with the walk of the optimal tree that follows the table at P > 1 (matrix_chain's parenthesisation,
/// optimal_bst's parent array): one normal superstep names::matrix_chain::walk per level of the tree, an allreduce of
/// 8 bytes per node of that level, walk_levels[l] nodes at level l (matrix_chain_walk_levels). The tree is the
/// input's: its height ranged over 38–99 levels for chains of 100 matrices with dimensions uniform in 1 … 100 (eight
/// seeds), so only a caller who knows the chain can price it; without it (the overload above, and P = 1, whose walk
/// has no collective) the walk is not priced. @throws llc::Error as above, or for a level of fewer than 1 or more
/// than n − 1 nodes.
[[nodiscard]] Expr matrix_chain(
    int P, std::int64_t n, std::int64_t r, const Profile& profile, std::span<const std::int64_t> walk_levels);

/// The nodes per level, root first, of the optimal tree that a parenthesisation such as matrix_chain's
/// "((A1(A2A3))A4)" writes ({1, 1} there): what matrix_chain's walk allreduces at each level. @throws llc::Error for
/// unbalanced parentheses.
[[nodiscard]] std::vector<std::int64_t> matrix_chain_walk_levels(std::string_view parenthesization);

/// The r in 1 … ⌈n/P⌉ that matrix_chain(P, n, r, profile) prices lowest (the smallest such r on a tie).
[[nodiscard]] std::int64_t matrix_chain_best_r(int P, std::int64_t n, const Profile& profile);

/// Exact counts of the schedule (no machine constants): the updates of processor q, and the words rotated summed over
/// macro-steps of the per-step maximum (article [1]'s T_A / τ_a of the last processor and T_C / τ_c).
[[nodiscard]] double matrix_chain_updates(int P, std::int64_t n, std::int64_t r, int q);
[[nodiscard]] double matrix_chain_rotated_words(int P, std::int64_t n, std::int64_t r);

/// Article [1]'s closed form (Proposition, §3.4): T = [2/α + 3r + αr²]·(τ_a + τ_c/r)·n²/12 with α = P/n; and its
/// parts T_A (the τ_a term) and T_C (the τ_c term).
[[nodiscard]] double miguet_dp_time(double n, double p, double r, double tau_a, double tau_c);
[[nodiscard]] double miguet_dp_arith(double n, double p, double r, double tau_a);
/// r_opt ≈ √(2ρ/(3α)) (the article's corollary) and the root of α²r³ + (α/2)(3 + αρ)r² − ρ = 0 (the exact optimum of
/// the efficiency e_{α,r}).
[[nodiscard]] double miguet_r_opt_approx(double n, double p, double rho);
[[nodiscard]] double miguet_r_opt_exact(double n, double p, double rho);

}  // namespace cost

namespace detail::matrix_chain {
/// The kernel probes whose constants cost::matrix_chain reads (llc-probe runs them through the matrix-chain card):
/// "mc.update", "mc.edge", "mc.diag" and "mc.run" at their sizes 2^e, each also alone on the node.
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
}  // namespace detail::matrix_chain

}  // namespace llc
