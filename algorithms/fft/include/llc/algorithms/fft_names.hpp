#pragma once
/// @file
/// The FFT's named joins, declared once: the kernel keys its probes write into a profile and its cost function reads
/// back (each as a per-size table "<key>.2^k", cost::kernel_size_key), and the superstep labels its implementation
/// records in a trace (llc::Label) and its cost expression prices (cost::Expr), which llc-validate matches node for
/// node. Three strings are both a kernel key and a label ("fft.leaf", "fft.combine", "fft.reorder"): two joins that
/// happen to share a spelling, so each has its own constant (the labels end in _step).

#include <array>
#include <cstddef>

namespace llc::names::fft {

// Kernel keys: written by the probes (llc-probe, fft_probes.cpp), read by the cost function (fft_cost.cpp).
inline constexpr const char* leaf = "fft.leaf";          ///< per n·log2 n of a contiguous in-place leaf
inline constexpr const char* leaf_oop = "fft.leaf_oop";  ///< per n·log2 n of a contiguous out-of-place leaf
/// The same alone on the node (KernelProbe::solo_name of leaf_oop's probes): the serial path at P = 1.
inline constexpr const char* leaf_oop_solo = "fft.leaf_oop_solo";
/// Per L·log2 L of the block layout's last butterfly folded into a four-step leaf.
inline constexpr const char* leaf_dif = "fft.leaf_dif";
inline constexpr const char* leaf_strided = "fft.leaf_strided";    ///< per n·log2 n, reading every 2nd term
inline constexpr const char* leaf_strided4 = "fft.leaf_strided4";  ///< per n·log2 n, reading every 4th term
inline constexpr const char* leaf_strided8 = "fft.leaf_strided8";  ///< per n·log2 n, reading every 8th term
inline constexpr const char* divide = "fft.divide";                ///< per element of a DIF butterfly (upper partner)
inline constexpr const char* combine = "fft.combine";              ///< per butterfly of the DIT combine
inline constexpr const char* reorder = "fft.reorder";              ///< per element of the natural-order interleave

/// A stride the probes measure a strided leaf at, and the key of its table.
struct StridedLeaf {
    std::size_t stride;
    const char* key;
};
/// The strided leaves the probes measure, by increasing stride: a leaf reading every s-th term is priced by the
/// table of the largest stride ≤ s here (the replicated layout's strides beyond 8 take stride 8's).
inline constexpr std::array<StridedLeaf, 3> strided_leaves{{{2, leaf_strided}, {4, leaf_strided4}, {8, leaf_strided8}}};

// Superstep labels: recorded by the implementation's trace (fft.cpp), priced by the cost Expr (fft_cost.cpp).
inline constexpr const char* whole = "fft";                      ///< the whole transform (the Expr's root)
inline constexpr const char* split = "fft.split";                ///< a division of the replicated layout
inline constexpr const char* level = "fft.level";                ///< a division and its combine
inline constexpr const char* combine_step = "fft.combine";       ///< the DIT combine after a division
inline constexpr const char* leaf_step = "fft.leaf";             ///< a leaf (with the block layout's last butterfly)
inline constexpr const char* dif = "fft.dif";                    ///< a swap stage of the block layout
inline constexpr const char* redistribute = "fft.redistribute";  ///< the block layout's return to natural order
inline constexpr const char* reorder_step = "fft.reorder";       ///< the natural-order interleave after it
inline constexpr const char* gather = "fft.gather";              ///< the all-gather of the gathered fallback

}  // namespace llc::names::fft
