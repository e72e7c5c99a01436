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

/// The table a run on P processors reads: for P = 1 the side-by-side table "<name>.2^e" with each size the profile
/// also has alone ("<name>_solo.2^e") replaced by that value — a one-processor run has the node's last-level cache and
/// memory to itself, while the side-by-side constants were measured sharing them; for P > 1 the side-by-side table.
/// @throws llc::Error as the table above when "<name>.2^e" is missing (the solo sizes are a refinement: where the
/// profile has none of them, the side-by-side ones stand).
[[nodiscard]] KernelSizeTable kernel_size_table(const Profile& profile, std::string_view name, int P);

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

}  // namespace llc::cost
