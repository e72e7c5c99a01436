#pragma once
/// @file
/// Per-size kernel constants. A kernel's cost per unit of work depends on its size (whether the data fits in cache,
/// which plan a library picks), so a kernel probe measures it at powers of two and stores one constant per size in the
/// Profile under "<name>.2^e"; a cost function reads the whole table back and interpolates between the sizes. Every
/// algorithm's probes and cost functions share these helpers.

#include <map>
#include <string>
#include <string_view>

#include <llc/cost/profile.hpp>

namespace llc::cost {

/// log2(size) → seconds per unit of work, as measured at that size.
using KernelSizeTable = std::map<int, double>;

/// The profile key of `name` measured at size 2^exponent: "<name>.2^<exponent>".
[[nodiscard]] std::string kernel_size_key(std::string_view name, int exponent);

/// The per-size table "<name>.2^e" (e = 0 … 40) of `profile`. @throws llc::Error (missing_kernel_message) if the
/// profile has none of those keys: no cost function prices a kernel it has no constant for.
[[nodiscard]] KernelSizeTable kernel_size_table(const Profile& profile, std::string_view name);

/// The name under which a kernel measured alone on the node is stored (KernelProbe::solo_name): "<name>_solo".
[[nodiscard]] std::string solo_kernel_name(std::string_view name);

/// The name under which rank 0's own value of a side-by-side kernel probe is stored: "<name>_rank0". The side-by-side
/// constant "<name>" is the slowest rank's (a lockstep superstep lasts as long as its slowest processor); a
/// one-processor run runs on rank 0's processor alone, and the processors of a VM need not be equally fast: on a
/// 2-core EPYC VM one vCPU ran an independent-multiply loop 1.6–1.9× slower than the other (CPU time, pinned, minutes
/// on end; a dependent chain only 1.04×: a busy hyperthread of another guest on the same core), and which one was slow
/// changed between calibrations (docs/validation.md, "Processors that are not equally fast").
[[nodiscard]] std::string rank0_kernel_name(std::string_view name);

/// The profile key of rank 0's value of the kernel stored under `key`: "<name>_rank0.2^e" for a per-size key
/// "<name>.2^e", "<key>_rank0" for a single constant.
[[nodiscard]] std::string rank0_kernel_key(std::string_view key);

/// The table a run on P processors reads: for P = 1 the side-by-side table "<name>.2^e" with each size the profile
/// also has on rank 0 ("<name>_rank0.2^e") replaced by that value, and each size it has alone ("<name>_solo.2^e")
/// by that one — a one-processor run runs on rank 0's processor and has the node's last-level cache and memory to
/// itself, while the side-by-side constants are the slowest rank's, measured sharing them; for P > 1 the side-by-side
/// table. @throws llc::Error as the table above when "<name>.2^e" is missing (the rank-0 and solo sizes are
/// refinements: where the profile has none of them, the side-by-side ones stand).
[[nodiscard]] KernelSizeTable kernel_size_table(const Profile& profile, std::string_view name, int P);

/// Seconds per unit of the single kernel constant `key` for a run on P processors: rank 0's value
/// (rank0_kernel_key) at P = 1 where the profile has it, else the side-by-side one. @throws llc::Error
/// (Profile::kernel) when `key` is missing.
[[nodiscard]] double kernel_seconds(const Profile& profile, std::string_view key, int P);

/// Seconds per unit at size x: linear in log2 x between the measured sizes, the end value outside them (a kernel
/// larger than any probed costs per unit what the largest probed one does); `fallback` when the table is empty.
[[nodiscard]] double kernel_per_unit(const KernelSizeTable& table, double x, double fallback);

/// Seconds per unit at size x of a kernel whose working set is `bytes`, from two tables: `in_cache` measured on
/// `cache_bytes` of data (in the caches) and `in_memory` measured on `memory_bytes` (streamed from memory). The first
/// up to cache_bytes, the second from memory_bytes, linear in log2 of the bytes between; `in_cache` alone when
/// `in_memory` is empty (profiles made before it was measured). The cache-resident and the streaming regimes of a
/// sweep differ by up to 2× on this kind of machine, in either direction (short segments of far-apart rows stream
/// slower, whole rows faster).
[[nodiscard]] double kernel_per_unit_by_footprint(const KernelSizeTable& in_cache,
                                                  const KernelSizeTable& in_memory,
                                                  double x,
                                                  double bytes,
                                                  double cache_bytes,
                                                  double memory_bytes);

/// Seconds per unit at size x of a kernel whose working set is `bytes`, from the same two tables read on the side of
/// the effective last-level cache where the working set lies (issue #32; ProfileMeta::effective_llc_bytes, the step of
/// the swap's per-byte price, cache_step.hpp): `in_cache` when bytes ≤ effective_cache_bytes, `in_memory` when it
/// exceeds it, never a blend of the two across that step. (The blend priced 2048² chamfer transforms, 20 MiB that run
/// at cache speed, two thirds of the way toward the streamed constant: 27–37 % high at p = 1.) The tables keep their
/// roles whatever their probes' sizes: the streamed table is the slowest measured, so a working set beyond the cache
/// reads it even when its probe's data (`memory_bytes`) happen to fit the effective cache, as a working set beyond
/// memory_bytes always did. `bytes`, `cache_bytes` and `memory_bytes` are one rank's; `sharing` ranks hold as much
/// each in the same cache (ranks_sharing_cache: the side-by-side probes ran so too), so the node's working set,
/// sharing · bytes, is what is compared. kernel_per_unit_by_footprint's blend (today's price) where there is no step
/// to read: effective_cache_bytes 0 (not recorded: profiles before it), `in_memory` empty, or an in-cache table whose
/// own data (sharing · cache_bytes) do not fit the effective cache (no probe on the cache side of the step).
[[nodiscard]] double kernel_per_unit_by_cache(const KernelSizeTable& in_cache,
                                              const KernelSizeTable& in_memory,
                                              double x,
                                              double bytes,
                                              double cache_bytes,
                                              double memory_bytes,
                                              double effective_cache_bytes,
                                              int sharing);

/// The ranks of a P-processor run that share one node's last-level cache: 1 at P = 1 (the solo constants were measured
/// alone); at P > 1, P up to the most ranks a node held when the profile was measured (meta.nodes; meta.world_size when
/// that is not recorded; P when neither is).
[[nodiscard]] int ranks_sharing_cache(const ProfileMeta& meta, int P);

}  // namespace llc::cost
