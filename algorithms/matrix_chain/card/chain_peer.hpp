#pragma once
/// @file
/// llc-compare matrix-chain's headline peer: the fastest one-processor matrix-chain DP we could write, independent of
/// the library's engine (no code shared with algorithms/matrix_chain/src). See chain_peer.cpp for how it works.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace llc::cards {

/// A blocked, vectorised O(n³) matrix-chain DP whose tables are allocated (and their pages touched) once, in the
/// constructor, so that a timed solve() pays for the arithmetic and the cache traffic only.
class BlockedChainDp {
  public:
    /// Tables for chains of up to n matrices: two n × n arrays of 8-byte values (c(i, k) row-major and its transpose).
    explicit BlockedChainDp(std::int64_t n);

    /// The optimal cost of multiplying A1 … An (Ai is dims[i−1] × dims[i], dims.size() − 1 ≤ the constructor's n).
    /// Exact: in double when every candidate is below 2^53 (n·max(d)³ < 2^53), else in int64 (n·max(d)³ < 2^62).
    /// @throws llc::Error for a chain that does not fit the tables, a dimension ≤ 0, or n·max(d)³ ≥ 2^62.
    [[nodiscard]] std::int64_t solve(std::span<const std::int64_t> dims);

    /// The parenthesisation of the last solve(), "((A1A2)A3)", taking at every node of the tree the smallest optimal
    /// split k — the rule llc::matrix_chain uses, so the strings are equal when both computed the same table.
    [[nodiscard]] std::string parenthesization() const;

    /// Whether the last solve() ran in double (exact) rather than int64.
    [[nodiscard]] bool used_double() const noexcept { return use_double_; }

  private:
    std::int64_t capacity_ = 0;
    std::int64_t n_ = 0;
    bool use_double_ = false;
    std::vector<std::int64_t> dims_;
    struct Free {
        void operator()(void* p) const noexcept { std::free(p); }
    };
    // One allocation each serves both value types (8 bytes an entry either way; std::aligned_alloc's storage holds
    // whichever the solve writes), 64-byte aligned, its pages touched in the constructor.
    std::unique_ptr<void, Free> rows_;  ///< c(i, k) at [i·capacity + k]
    std::unique_ptr<void, Free> cols_;  ///< c(k, j) at [j·capacity + k] (the transpose: a column is contiguous in k)
};

}  // namespace llc::cards
