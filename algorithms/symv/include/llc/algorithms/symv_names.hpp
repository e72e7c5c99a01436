#pragma once
/// @file
/// The names that join symv's layers: the kernel keys its probes write and its cost function reads, and the superstep
/// labels its implementation's trace records and its cost Expr prices. Declared once, here, so that a renamed key or
/// label cannot silently part the two sides.
namespace llc::names::symv {

// Kernel keys: written by the probes (llc-probe, as "<key>.2^e" and "<key>_solo.2^e"), read by cost::symv.
// Measured on a rank's share of a product (symv_probes.cpp); until 2026-11-26 "symv.entry" / "symv.row" were timed on a
// contiguous block and read at another size: a profile with only those cannot price symv (re-calibrate).
inline constexpr const char* entry = "symv.entry_share";  ///< seconds per off-diagonal packed entry of the fused passes
inline constexpr const char* row = "symv.row_share";      ///< seconds per entry of the standard mapping's row products

// Superstep labels: recorded by the implementation's trace (llc::Label), priced by the cost Expr.
inline constexpr const char* whole = "symv";             ///< the whole product (the cost Expr's sequence)
inline constexpr const char* x = "symv.x";               ///< the allgatherv replicating x (reflection, P > 1)
inline constexpr const char* ring = "symv.ring";         ///< a shift of partial sums (reflection) or of x (standard)
inline constexpr const char* final_step = "symv.final";  ///< the last step's block products, after the last shift
inline constexpr const char* compute = "symv.compute";   ///< the whole product at P = 1 (reflection)
/// A product with x and y in another distribution than A's layout: the redistributions around the product.
inline constexpr const char* redistributed = "symv.redistributed";

}  // namespace llc::names::symv
