#pragma once
/// @file
/// The CCM cost function of the parallel FFT (CCM paper §3, the recursion for Φ), as an llc::cost::Expr that mirrors
/// the supersteps llc::FftPlan::execute performs, node for node and label for label, so that a measured trace
/// (LLC_TRACE) can be held against it.
///
/// Kernel constants (seconds per unit, measured by llc-probe through the FFT's card's probes, kernel_probes() below,
/// one per size 2^k of the kernel's input and interpolated linearly in log2 of the size, clamped to the measured
/// range; the keys are llc::names::fft's):
/// - D  "fft.divide.2^k"  — per element of a decimation-in-frequency butterfly on a block of 2^k (the block layout's
///                      division of a sub-problem into its even- and odd-frequency halves; the upper partner's, with
///                      the twiddle);
/// - F  "fft.combine.2^k" — per butterfly (two elements) of the replicated layout's decimation-in-time combine of
///                      2^k butterflies, as it runs right after its division's exchange (the partner has just read the
///                      half it writes: probed so from 2^9 to 2^18 butterflies, README);
/// - C  per n·log2 n of a sequential FFTW leaf of 2^k, one table per kind of leaf FftPlan builds:
///      "fft.leaf_oop.2^k"  contiguous, out of place (block natural order, replicated with n odd),
///      "fft.leaf_oop_solo.2^k"  the same on one processor while the node's others are idle (P = 1: the serial
///                          path),
///      "fft.leaf.2^k"      contiguous, in place (block scrambled order),
///      "fft.leaf_strided.2^k", "fft.leaf_strided4.2^k", "fft.leaf_strided8.2^k"  out of place, reading every
///                          2nd / 4th / 8th term (replicated layout after d divisions: stride 2^d; a stride beyond 8
///                          takes stride 8's table, names::fft::strided_leaves);
/// - R  "fft.reorder.2^k" — per element of the natural-order interleave of a block of 2^k;
/// - Cd "fft.leaf_dif.2^k" — per L·log2 L of the block layout's last stage when its butterfly is folded into a
///                      four-step leaf (L a power of two ≥ 2^15, FftPlan's default planner): the butterfly costs no
///                      pass over memory of its own there, so D·L + C·L·log2 L would over-price it (by 21 % at
///                      n = 2^24, P = 2, in one run here).
/// Every table is required: a profile without one (made by an older llc-probe, or by hand) is an llc::Error naming the
/// key (cost::missing_kernel_message), never priced by another table or by a single constant.
///
/// Replicated layout (paper's Figure 4), P processors, length n:
///   Φ(P, n) = Φ_leaf                                  if P = 1 or n odd:  C_stride·n·log2 n
///           = T_PAR(P, sizes, h) + max_t Φ(P_t, n/2) + F·n/2   otherwise, sizes = ⌈P/2⌉, ⌊P/2⌋,
/// with h = (1 + ⌈P_0/P_1⌉)·(n/2)·16 bytes (the busiest processor sends its half to each of its partners and
/// receives the other half); for P = 2^s this unrolls to the paper's
///   Φ = C_P·(n/P)·log2(n/P) + Σ_{s=1..log P} (T_PAR(2^s, n·16) + F·2^{s−1}·n/P),
/// without the paper's division term Σ D·n/2^i because the split is read in place by the strided leaves.
/// Block layout, P = 2^s, P | n, L = n/P: s stages of T_swap(P, 2·16·L) with a butterfly D·L after each, the leaf
/// C·L·log2 L (in place in scrambled order, out of place in natural order) — the last butterfly and the leaf
/// together Cd·L·log2 L where the plan folds them; natural order adds the redistribution
/// (T_swap(2, 16·L) at P = 2, T_alltoall(P, 16·L) otherwise) and R·L. T_swap is priced in the cache state the swap
/// runs in: the blocks a processor swaps were last touched a whole leaf or a whole transform before, so where the
/// node's working set of the exchange (P processors × their block and the block they receive, 2·16·L bytes each)
/// exceeds the last-level cache the profile records (meta.effective_llc_bytes, the measured step of the swap's
/// per-byte price, where recorded; else meta.llc_bytes) they come from memory — the cold swap,
/// "swap.cold" — and where it fits they are still in the cache — the warm swap, "swap" (a 2^16–2^18 transform at P = 2
/// was priced 35–42 % high as cold). A profile without meta.llc_bytes is an error when the expression is priced.
/// Other block cases (the gathered fallback): T_allgather(P, 16·n) + Φ_replicated(P, n).

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <llc/algorithms/fft.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>

namespace llc::cost {

/// The FFT's kernel constants, seconds per unit (see the file comment). A table maps log2 of the kernel's size to
/// seconds per unit; a lookup interpolates linearly in log2 of the size and clamps outside the measured range. A
/// lookup in an empty table throws llc::Error naming its key: no kernel is priced with another's constant.
struct FftConstants {
    std::map<int, double> leaf_by_size{};           ///< "fft.leaf.2^k": contiguous in-place leaves
    std::map<int, double> leaf_oop_by_size{};       ///< "fft.leaf_oop.2^k": contiguous out-of-place leaves
    std::map<int, double> leaf_oop_solo_by_size{};  ///< "fft.leaf_oop_solo.2^k": the same alone on the node (P = 1)
    /// Strided out-of-place leaves by stride, one table per names::fft::strided_leaves (2 → "fft.leaf_strided.2^k",
    /// 4 → "fft.leaf_strided4.2^k", 8 → "fft.leaf_strided8.2^k"). A leaf with stride s takes the table of the largest
    /// of those strides ≤ s.
    std::map<std::size_t, std::map<int, double>> leaf_strided_by_size{};
    std::map<int, double> divide_by_size{};   ///< "fft.divide.2^k", by block length
    std::map<int, double> combine_by_size{};  ///< "fft.combine.2^k", by butterflies
    std::map<int, double> reorder_by_size{};  ///< "fft.reorder.2^k", by block length
    /// "fft.leaf_dif.2^k": the last butterfly folded into a four-step leaf, by block length.
    std::map<int, double> leaf_dif_by_size{};
    /// The node's last-level cache in bytes (the profile's ProfileMeta::cache_bytes(): meta.effective_llc_bytes where
    /// recorded, else meta.llc_bytes; 0: neither recorded).
    double llc_bytes = 0.0;
    /// The calibrating run's placement (meta.node_of_rank) when the profile also has "swap.far", else empty: which
    /// block stages' swaps are priced by partners far apart (cost/partners.hpp).
    std::vector<int> far_placement{};

    /// Seconds of the leaf llc::FftPlan builds as Leaf(n, stride, in_place): contiguous (stride 1) in place or out of
    /// place, or out of place reading every stride-th term.
    [[nodiscard]] double leaf_seconds(double n, std::size_t stride, bool in_place) const;
    /// Seconds of the serial path of a one-processor plan (a contiguous out-of-place leaf of n, the node's other
    /// processors idle).
    [[nodiscard]] double serial_seconds(double n) const;
    /// Seconds of the DIF butterfly of an upper partner on a block of L entries.
    [[nodiscard]] double divide_seconds(double L) const;
    /// Seconds of a DIT combine of `butterflies` butterflies.
    [[nodiscard]] double combine_seconds(double butterflies) const;
    /// Seconds of the natural-order interleave of a block of L entries.
    [[nodiscard]] double reorder_seconds(double L) const;
    /// Seconds of the block layout's last stage after its swap: the upper partner's butterfly and the leaf on a
    /// block of L entries (the leaf in place for the scrambled order), folded into one four-step pass (the
    /// "fft.leaf_dif" table) where FftPlan folds them.
    [[nodiscard]] double last_stage_seconds(std::int64_t L, bool in_place) const;
    /// Whose memory a block exchange sends: the caller's arrays (the DIF stages send the input, then the output:
    /// the allocator's pages, as a std::vector gets them) or the plan's own buffers (the redistribution sends the
    /// leaf's result: huge pages, fft_kernels.hpp's Buffer).
    enum class Sender { caller, plan };
    /// The swap of a block stage on P processors holding L entries each: "swap" where the node's working set of the
    /// exchange (P · 2 · 16 · L bytes) fits in llc_bytes, else "swap.cold.heap" for a caller's sender and "swap.cold"
    /// for the plan's (cost::heap_suffix: Open MPI's single-copy receive reads the sender's pages, and on ordinary
    /// ones the exchange took 2.5–3.3 times as long).
    /// The stage's partners are `distance` apart (r ↔ r xor distance: P/2 at the first DIF stage, then P/4, …): where
    /// cost::priced_far holds in far_placement, the name carries cost::far_suffix (the intra- and inter-node swaps of
    /// a cluster priced apart).
    /// @throws llc::Error (cost::missing_kernel_message naming meta.llc_bytes) when llc_bytes is not recorded.
    [[nodiscard]] std::string block_swap(int P, std::int64_t L, Sender sender, int distance = 1) const;

    /// Reads every FFT kernel table from the profile for a run on P processors (P = 0: the side-by-side tables, as
    /// for any P > 1): at P = 1 each table with rank 0's own values where the profile has them
    /// (cost::kernel_size_table(profile, name, P): a one-processor run runs on rank 0's processor).
    /// @throws llc::Error (cost::missing_kernel_message: the key and the llc-probe that writes it) for the first table
    /// the profile lacks.
    [[nodiscard]] static FftConstants from(const Profile& profile, int P = 0);
};

/// The cost expression of llc::FftPlan(g, n, {.layout = layout, .order = order}).execute on P = g.size()
/// processors. Labels (llc::names::fft): "fft" (the whole), "fft.split" (division supersteps, op "par"),
/// "fft.combine", "fft.leaf", "fft.dif" (swap.cold supersteps of the block stages), "fft.redistribute" (swap.cold /
/// alltoall), "fft.reorder", "fft.gather" (allgather of the fallback), "fft.level" (a division and its combine).
/// @throws llc::Error for P < 1 or n < 1, or (FftConstants's) for a table the expression needs that is empty.
[[nodiscard]] Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const FftConstants& constants);
/// As above with the constants from `profile`. @throws llc::Error (FftConstants::from's) naming a missing table.
[[nodiscard]] Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const Profile& profile);

}  // namespace llc::cost

namespace llc::detail::fft {
/// The kernel probes whose constants cost::fft reads (llc-probe runs them through the FFT's card).
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
}  // namespace llc::detail::fft
