#pragma once
// The matrix chain's policy in double for the interval-DP engine (interval_dp.hpp), private to llc_algorithms: the
// chains whose every candidate c(i,k) + c(k+1,j) + dims[i]·dims[k+1]·dims[j+1] is an integer below 2^53, which double
// holds exactly and on which every addition, product and fused multiply-add is exact. So the minima, the smallest k
// reaching them (every compare is exact) and the table are the int64 policy's (ChainPolicy), value for value.
//
// Why: the middle's min-plus in double with a fused multiply-add ran 0.068–0.072 ns an update against 0.086–0.096 for
// the int64 kernel with its narrow product (a micro-benchmark of min_plus_quad on this Zen 5 VM, operands in L1/L2,
// ranges of 608 k); the blocked one-core DP that llc-compare measures us against does the same.
#include <array>
#include <cstdint>
#include <limits>

#include "chain_edges_tagged.hpp"
#include "chain_policy.hpp"
#include "min_plus.hpp"
#include "min_plus_rows.hpp"
#include "min_plus_tile.hpp"

namespace llc::detail::interval_dp {

/// Whether a chain of these dimensions may run in double: every candidate below 2^53 (chain_candidate_bound).
[[nodiscard]] inline bool chain_fits_double(const std::int64_t* dims, std::size_t count) {
    return chain_candidate_bound(dims, count) < 0x1p53L;
}

/// Whether every candidate stays below 2^42, as the tagged middle and edges need (min_plus_tile.hpp).
[[nodiscard]] inline bool chain_fits_tagged(const std::int64_t* dims, std::size_t count) {
    return chain_candidate_bound(dims, count) < 0x1p42L;
}

/// Matrix chain in double: f(i, j, k) = dims[i]·dims[k+1]·dims[j+1], dims as doubles (chain_fits_double holds).
struct DoubleChainPolicy {
    const double* dims;
    /// Every candidate below 2^42 (chain_fits_tagged): compute_middle takes the tagged tile (min_plus_tile.hpp).
    bool k_in_fraction = false;
    /// The tagged minima of rows i … i + 3 (rows[t]: c(i + t, k0 + m) + m·2^−10) against columns j … j + W − 1
    /// (cols[c] = &c(k0 + 1, j + c)) over k in [k0, k0 + len).
    template <std::size_t W>
    [[nodiscard]] std::array<std::array<double, 4>, W> tile(std::int64_t i,
                                                            std::int64_t j,
                                                            std::int64_t k0,
                                                            std::int64_t len,
                                                            const std::array<const double*, 4>& rows,
                                                            const std::array<const double*, W>& cols) const {
        std::array<std::array<double, 4>, W> a;
        for (std::size_t c = 0; c < W; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                a[c][t] = dims[i + static_cast<std::int64_t>(t)] * dims[j + static_cast<std::int64_t>(c) + 1];
            }
        }
        return min_plus_tile<W>(rows, cols, dims + k0 + 1, a, len);
    }
    [[nodiscard]] Best<double> range(
        std::int64_t i, std::int64_t j, std::int64_t k0, std::int64_t k1, const double* row, const double* col) const {
        Best<double> best = min_plus<double, true, true>(row, col, dims + k0 + 1, dims[i] * dims[j + 1], k1 - k0);
        best.m += k0;
        return best;
    }
    /// range for rows i … i + 3 against column j at once (compute_middle). rows[t] = &c(i + t, k0).
    [[nodiscard]] std::array<Best<double>, 4> range4(std::int64_t i,
                                                     std::int64_t j,
                                                     std::int64_t k0,
                                                     std::int64_t k1,
                                                     const std::array<const double*, 4>& rows,
                                                     const double* col) const {
        return quad<true>(i, j, k0, k1, rows, col);
    }
#if defined(__AVX512F__)
    /// range4 whose k are group starts (ChainPolicy::range4_coarse): made exact by first_in_group.
    [[nodiscard]] std::array<Best<double>, 4> range4_coarse(std::int64_t i,
                                                            std::int64_t j,
                                                            std::int64_t k0,
                                                            std::int64_t k1,
                                                            const std::array<const double*, 4>& rows,
                                                            const double* col) const {
        return quad<false>(i, j, k0, k1, rows, col);
    }
    /// The exact k of range4_coarse's merged result over the k range [kb, ke): row = &c(i, kb), col = &c(kb + 1, j).
    [[nodiscard]] std::int64_t first_in_group(std::int64_t i,
                                              std::int64_t j,
                                              std::int64_t kb,
                                              std::int64_t ke,
                                              const double* row,
                                              const double* col,
                                              Best<double> best) const {
        return kb + min_plus_first_in_group<double>(
                        row, col, dims + kb + 1, dims[i] * dims[j + 1], ke - kb, best.m - kb, best.value);
    }
#endif
    template <bool Exact>
    [[nodiscard]] std::array<Best<double>, 4> quad(std::int64_t i,
                                                   std::int64_t j,
                                                   std::int64_t k0,
                                                   std::int64_t k1,
                                                   const std::array<const double*, 4>& rows,
                                                   const double* col) const {
        std::array<double, 4> a{};
        for (std::size_t t = 0; t < 4; ++t) {
            a[t] = dims[i + static_cast<std::int64_t>(t)] * dims[j + 1];
        }
        std::array<Best<double>, 4> best = min_plus_quad<double, Exact>(rows, col, dims + k0 + 1, a, k1 - k0);
        for (Best<double>& b : best) {
            b.m += k0;
        }
        return best;
    }
    [[nodiscard]] static double finish(std::int64_t, std::int64_t, double m) {
        return m;
    }
    [[nodiscard]] static bool pushes() {
        return true;
    }
    /// push for every k in [k0, k1) (chain_push_rows), where push_rows_grouped does not apply.
    void push_rows(std::int64_t i,
                   std::int64_t k0,
                   std::int64_t k1,
                   const double* cik,
                   const double* crows,
                   std::int64_t stride,
                   std::int64_t j0,
                   double* val,
                   std::int64_t* arg) const {
        chain_push_rows(dims, i, k0, k1, cik, crows, stride, j0, val, arg);
    }
    /// The lower edge of row i of an off-diagonal block (rows [a0, a1), columns [b0, b0 + width)) by groups of four
    /// rows (lower_edge_grouped: in_i = &c(i, i) in the received trapezoid, fresh the block's rows); false where the
    /// tagged form does not apply, and push_edges then calls push_rows.
    bool push_rows_grouped(std::int64_t i,
                           std::int64_t a0,
                           std::int64_t a1,
                           std::int64_t b0,
                           std::int64_t width,
                           const double* in_i,
                           const double* fresh,
                           double* val,
                           std::int64_t* arg,
                           LowerEdgeGroup& group) const {
#if defined(__AVX512F__)
        if (k_in_fraction && a1 - a0 <= k_fraction_span) {
            lower_edge_grouped(dims, i, a0, a1, b0, width, in_i, fresh, val, arg, group);
            return true;
        }
#endif
        (void)i, (void)a0, (void)a1, (void)b0, (void)width, (void)in_i, (void)fresh, (void)val, (void)arg, (void)group;
        return false;
    }
    /// For j in [j0, j0 + len): the candidate c(i,k) + c(k+1,j) + dims[i]·dims[k+1]·dims[j+1] (crow[j − j0] =
    /// c(k+1, j)) replaces (val, arg)[j − j0] when strictly smaller.
    void push(std::int64_t i,
              std::int64_t k,
              double cik,
              const double* crow,
              std::int64_t j0,
              std::int64_t len,
              double* val,
              std::int64_t* arg) const {
        push_scalar(k, cik, crow, dims + j0 + 1, dims[i] * dims[k + 1], 0, len, val, arg);
    }
    /// ChainPolicy::upper_edge in double (AVX-512 builds; false otherwise: push_edges then pushes k by k).
    template <class Finish>
    bool upper_edge(std::int64_t i,
                    std::int64_t b0,
                    std::int64_t b1,
                    const double* row,
                    const double* diag,
                    const double* val,
                    const std::int64_t* arg,
                    const Finish& finish) const {
#if defined(__AVX512F__)
        if (k_in_fraction && b1 - b0 <= k_fraction_span) {
            upper_edge_strips_tagged(dims, i, b0, b1, diag, val, arg, finish);
            return true;
        }
        upper_edge_strips(dims, i, b0, b1, row, diag, val, arg, finish);
        return true;
#else
        (void)i, (void)b0, (void)b1, (void)row, (void)diag, (void)val, (void)arg, (void)finish;
        return false;
#endif
    }
};

}  // namespace llc::detail::interval_dp
