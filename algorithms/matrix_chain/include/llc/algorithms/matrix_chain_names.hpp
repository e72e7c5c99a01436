#pragma once
/// @file
/// The named joins of the ring interval DP (matrix_chain, optimal_bst): the kernel keys its probes write and
/// cost::matrix_chain reads, and the superstep labels its implementation records in the trace and its cost expression
/// prices. Declared once here, so that a probe, the cost function and the engine cannot drift apart.

namespace llc::names::matrix_chain {

// Kernel keys: written by the probes (llc-probe, as "<key>.2^e" and "<key>_solo.2^e"), read by the cost function.
/// Seconds per update of the middle k range of a 64 × 64 off-diagonal block, the range 2^e long.
inline constexpr const char* middle = "mc.update";
/// Seconds per update of the two edge k ranges of an off-diagonal r × r block, r = 2^e.
inline constexpr const char* edge = "mc.edge";
/// Seconds per update of a diagonal r × r block, r = 2^e.
inline constexpr const char* diag = "mc.diag";
/// Seconds per update ((n³ − n)/6 of them) of a whole one-processor matrix_chain of n = 2^e matrices, default r.
inline constexpr const char* run = "mc.run";
/// The same with r = wide_run_r (n = 2^e ≥ 256): with mc.run, the whole engine's level at two block sizes, so that a
/// run at another r is scaled at its own (cost::matrix_chain).
inline constexpr const char* run_wide = "mc.run_wide";
/// The block size of mc.run_wide.
inline constexpr long long wide_run_r = 128;

// Superstep labels: recorded by the implementation's trace, priced by the cost Expr.
/// The whole run (the cost expression's sequence).
inline constexpr const char* sequence = "mc";
/// A one-processor run: one compute node, no collective.
inline constexpr const char* compute = "mc.compute";
/// Macro-step d ≥ 1: the trapezoids rotated one place along the ring (Group::shift) after the blocks of step d − 1.
inline constexpr const char* rotate = "mc.rotate";
/// The last macro-step's blocks and the optimal cost broadcast from the owner of column n − 1.
inline constexpr const char* result = "mc.result";
/// One level of the optimal tree's walk after the table (walk_tree): an allreduce of that level's splits, 8 bytes a
/// node, so that every rank learns them; as many as the tree has levels (the input's, not n's: 56 to 428 levels at
/// n = 100 to 1000 for the validation case's chains).
inline constexpr const char* walk = "mc.walk";

}  // namespace llc::names::matrix_chain
