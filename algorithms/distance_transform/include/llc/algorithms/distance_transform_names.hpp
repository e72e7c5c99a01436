#pragma once
/// @file
/// The named joins of the distance transforms and path planning: the kernel keys their probes write (llc-probe) and
/// their cost functions read, and the superstep labels their implementations trace and their cost expressions price.
/// Declared once here; the probes, the cost functions and the implementations use these constants, never the strings.
///
/// A key marked "table" is stored per size as "<key>.2^j" (cost::kernel_size_key); a key marked "solo" also alone on
/// the node as "<key>_solo.2^j" at the sizes its probes say (cost::solo_kernel_name), read at P = 1.

#include <string>
#include <string_view>

namespace llc::names::distance_transform {

// ---- Kernel keys: written by the probes (llc-probe), read by the cost functions. -----------------------------------

// The exact Euclidean transform (euclidean_distance.hpp).
inline constexpr const char* edt_columns = "dt.edt_columns";  ///< table: pixel of phase 1 by block pixels
inline constexpr const char* edt_rows = "dt.edt_rows";        ///< table: pixel of phase 2 by row length
inline constexpr const char* edt_carry = "dt.edt_carry";      ///< column and block of the scans over the summaries

// The chamfer passes (chamfer.hpp), one table per standard mask: sweep_key(sweep, mask.name()).
inline constexpr const char* sweep = "dt.sweep";              ///< table, solo: pixel of a pass, 40 MB image
inline constexpr const char* sweep_cache = "dt.sweep_cache";  ///< table, solo: pixel of a pass, 5 MB image
inline constexpr const char* sweep_small = "dt.sweep_small";  ///< table (2^12 only), solo: pass pixel, 640 KiB image

/// The key of a chamfer table for one mask: "<table>.<mask>", e.g. "dt.sweep.d8".
[[nodiscard]] inline std::string sweep_key(std::string_view table, std::string_view mask) {
    return std::string(table) + "." + std::string(mask);
}

// Path planning (path_planning.hpp): the red sweeps' tables and the blue sweeps' own.
inline constexpr const char* path_setup = "dt.path_setup";              ///< pixel of a run's check, setup, copy-out
inline constexpr const char* path_sweep = "dt.path_sweep";              ///< table, solo: red sweep pixel, 8 MiB map
inline constexpr const char* path_memory = "dt.path_memory";            ///< table, solo: red sweep pixel, 64 MiB map
inline constexpr const char* path_sweep_blue = "dt.path_sweep_blue";    ///< table, solo: blue sweep, 8 MiB map
inline constexpr const char* path_memory_blue = "dt.path_memory_blue";  ///< table, solo: blue sweep, 64 MiB map

// ---- Superstep labels: recorded by the implementations' traces, priced by the cost expressions. --------------------

// The chamfer transform: the whole, and each pass's pipeline of shifts.
inline constexpr const char* chamfer = "dt";
inline constexpr const char* forward = "dt.forward";
inline constexpr const char* backward = "dt.backward";

// The exact Euclidean transform: the whole, the summaries' all-gatherv, the local scans and phase 2.
inline constexpr const char* edt = "edt";
inline constexpr const char* edt_summaries = "edt.summaries";
inline constexpr const char* edt_row_pass = "edt.rows";

// Path planning: the whole, each sweep's pipeline of shifts by colour, the allreduce that ends a sweep.
inline constexpr const char* path = "pp";
inline constexpr const char* red = "pp.red";
inline constexpr const char* blue = "pp.blue";
inline constexpr const char* changed = "pp.changed";

}  // namespace llc::names::distance_transform
