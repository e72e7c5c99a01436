#pragma once
/// @file
/// The effective last-level cache: the working set at which data stops running at cache speed, read off measured
/// prices. The size the system reports (meta.llc_bytes, from sysconf) is not where a VM's exchanges slow down — on
/// the 2-core VM it says 480 MiB, while the swap's per-byte price steps up between ~20 and ~64 MiB (issue #32). A cost
/// function that compares a working set with the cache compares it with ProfileMeta::cache_bytes(): this size when
/// the profile records it, the reported one otherwise.

#include <span>

#include <llc/cost/piecewise.hpp>

namespace llc::cost {

/// Samples smaller than this working set are left out of the rule: below it a swap's price is set by its latency,
/// not by where its data lies.
inline constexpr double cache_step_min_bytes = 64.0 * 1024;

/// The effective last-level cache in bytes from an exchange's median times across working sets (`samples`: bytes =
/// the working set, send plus receive buffers; the swap at p = 1, which llc-probe measures up to a size beyond any
/// cache). The rule, deterministic in the samples (their order does not matter):
/// 1. the per-byte price c = seconds / bytes of every sample of at least cache_step_min_bytes, by size;
/// 2. memory speed `high`: the median c of the samples in the top two octaves (bytes ≥ largest / 4);
///    cache speed `low`: the smallest c;
/// 3. no step — fewer than 4 samples, or high < 1.5 · low — gives 0 (not found: the caller keeps the reported size);
/// 4. else the threshold t = (low + high) / 2, and scanning down from the largest size, the first two consecutive
///    samples with c ≤ t: the larger one's bytes (the largest working set still nearer cache than memory speed; two in
///    a row, so that one fast sample among the slow ones does not move the step). 0 when there is no such pair.
[[nodiscard]] double effective_cache_bytes(std::span<const Sample> samples);

}  // namespace llc::cost
