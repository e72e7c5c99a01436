#pragma once
/// @file
/// The CCM cost function of the parallel FFT (CCM paper §3, the recursion for Φ), as an llc::cost::Expr that mirrors
/// the supersteps llc::FftPlan::execute performs, node for node and label for label, so that a measured trace
/// (LLC_TRACE) can be held against it.
///
/// Kernel constants (seconds per unit, measured by llc-probe through llc::algorithm_kernel_probes()):
/// - D  "fft.divide"  — per element of a decimation-in-frequency butterfly (the block layout's division of a
///                      sub-problem into its even- and odd-frequency halves; the upper partner's, with the twiddle);
/// - F  "fft.combine" — per butterfly (two elements) of the replicated layout's decimation-in-time combine;
/// - C  "fft.leaf"    — per n·log2 n of a sequential FFTW leaf on contiguous data (block layout);
/// - Cs "fft.leaf_strided" — per n·log2 n of a leaf that reads its terms with a stride (replicated layout: the even /
///                      odd division is not copied, the leaf reads every 2^d-th term);
/// - R  "fft.reorder" — per element of the natural-order interleave after the all-to-all.
///
/// Replicated layout (paper's Figure 4), P processors, length n:
///   Φ(P, n) = Φ_leaf                                  if P = 1 or n odd:  Cs·n·log2 n
///           = T_PAR(P, sizes, h) + max_t Φ(P_t, n/2) + F·n/2   otherwise, sizes = ⌈P/2⌉, ⌊P/2⌋,
/// with h = (1 + ⌈P_0/P_1⌉)·(n/2)·16 bytes (the busiest processor sends its half to each of its partners and
/// receives the other half); for P = 2^s this unrolls to the paper's
///   Φ = Cs·(n/P)·log2(n/P) + Σ_{s=1..log P} (T_PAR(2^s, n·16) + F·2^{s−1}·n/P),
/// without the paper's division term Σ D·n/2^i because the split is read in place by the strided leaves.
/// Block layout, P = 2^s, P | n, L = n/P: s stages of T_swap(P, 2·16·L) with a butterfly D·L after each, the leaf
/// C·L·log2 L; natural order adds the redistribution (T_swap(2, 16·L) at P = 2, T_alltoall(P, 16·L) otherwise) and
/// R·L. Other block cases (the gathered fallback): T_allgather(P, 16·n) + Φ_replicated(P, n).

#include <cstdint>
#include <map>

#include <llc/algorithms/fft.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>

namespace llc::cost {

/// The FFT's kernel constants, seconds per unit (see the file comment).
struct FftConstants {
    double divide = 0.0;        ///< D, per element of a DIF butterfly
    double combine = 0.0;       ///< F, per butterfly of the DIT combine
    double leaf = 0.0;          ///< C, per n·log2 n of a contiguous leaf
    double leaf_strided = 0.0;  ///< Cs, per n·log2 n of a strided leaf
    double reorder = 0.0;       ///< R, per element of the natural-order interleave
    /// C and Cs measured per leaf size ("fft.leaf.2^k", "fft.leaf_strided.2^k"): log2 n → seconds per n·log2 n.
    /// When present they replace `leaf` / `leaf_strided`, interpolated linearly in log2 n (clamped at the ends).
    std::map<int, double> leaf_by_size{};
    std::map<int, double> leaf_strided_by_size{};

    /// Seconds of a contiguous (strided = false) or strided leaf of n entries.
    [[nodiscard]] double leaf_seconds(double n, bool strided) const;

    /// Reads "fft.divide", "fft.combine", "fft.leaf", "fft.leaf_strided", "fft.reorder" and every per-size leaf
    /// constant "fft.leaf.2^k" / "fft.leaf_strided.2^k" present in the profile.
    /// @throws llc::Error naming the missing kernel (and how to make a profile).
    [[nodiscard]] static FftConstants from(const Profile& profile);
};

/// The cost expression of llc::FftPlan(g, n, {.layout = layout, .order = order}).execute on P = g.size()
/// processors. Labels: "fft" (the whole), "fft.split" (division supersteps, op "par"), "fft.combine", "fft.leaf",
/// "fft.dif" (swap supersteps of the block stages), "fft.redistribute" (swap / alltoall), "fft.reorder",
/// "fft.gather" (allgather of the fallback), "fft.level" (a division and its combine).
/// @throws llc::Error for P < 1 or n < 1.
[[nodiscard]] Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const FftConstants& constants);
/// As above with the constants from `profile`.
[[nodiscard]] Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const Profile& profile);

}  // namespace llc::cost
