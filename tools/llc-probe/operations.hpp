#pragma once
// The operations llc-probe times, each through llc's own calls (what the algorithms pay): the collectives of the set
// F, swap and shift on a Group, the division (llc::par), and the point-to-point paths of P-3PC.
//
// h, the abscissa of every cost function, means what the llc layer records in its trace (see llc/cost/model.hpp):
// bcast the buffer; reduce, allreduce one processor's input; gather one contribution; scatter one block; allgather
// the whole result; alltoall one processor's whole send buffer; barrier 0; swap and shift bytes sent + received by
// one processor; division result bytes sent + received by the busiest processor.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/cost/profile.hpp>
#include <llc/group.hpp>
#include <llc/tools/buffers.hpp>
#include <llc/tools/timing.hpp>

namespace llc::probe {

/// The collectives measured, in the profile's names: standard_collectives() (the set F, swap and shift) and Seidel's
/// broadcasts bcast.st, bcast.bst, bcast.rh (h = the buffer, as bcast).
[[nodiscard]] const std::vector<std::string>& measured_collectives();

/// Whether `op` of measured_collectives() is measured on p processors: every one at every p, but the written shift
/// (shift.written) at p ≥ 2 only. Its one reader, matrix chain's rotations (matrix_chain_cost.cpp), prices it at P ≥ 2
/// only (the one-processor engine returns before any rotation), and no validation case is a written shift
/// (cases_collectives.cpp's validated_collectives): its p = 1 fit was read by no price at P ≤ 2. What changes: a P = 2
/// profile priced at P ≥ 3 (extrapolated and flagged, oversubscribed here) extends shift.written as T ∝ log P from
/// p = 2 alone instead of the line through p = 1 and 2 (interpolate_in_p).
[[nodiscard]] bool measured_at(std::string_view op, int p);

/// The h nearest to `bytes` that `op` can move on p processors (a multiple of 8 for the reductions, of p for
/// allgather and alltoall, of 2 for swap and shift; 0 for barrier).
[[nodiscard]] double feasible_bytes(std::string_view op, int p, double bytes);
/// The largest sizes h measured: of the collectives, and of swap. Swap goes further (256 MiB by default, also in quick
/// mode): the FFT's block stages at n = 2^24, P = 2 swap 256 MiB, eight times the last-level cache, and the bandwidth
/// keeps falling well past it (a swap of 64 MiB moved 8.5–9.7 GB/s here, the FFT's first stage 5.9 GB/s): a price
/// extrapolated from swaps of at most 4 MiB, then 64 MiB, under-priced that stage by 29–36 %.
///
/// Every other collective goes on past max_bytes to ladder_max_bytes (96 MiB by default; a quick calibration keeps its
/// 4 MiB unless --collective-max-bytes asks), on the grid continued in its own ratio: llc-validate's large sizes (11.3
/// and 64 MiB) then lie between measured sizes. Cut at 4 MiB they are priced by the one-processor swap's growth at the
/// same h (cost::Profile), whose last-level-cache step sits at a working set of h (h/2 sent, h/2 received), where a
/// reduce, scatter or all-to-all of h reads h and writes h: on the 20:23 quiet recording the 64 MiB points were priced
/// 23–48 % low at p = 1 and p = 2 (out of cache, the swap still in it) and the 11.3 MiB points 10–60 % high.
struct SizeLimits {
    double max_bytes = 64.0 * 1024 * 1024;
    double swap_max_bytes = 256.0 * 1024 * 1024;
    double ladder_max_bytes = 96.0 * 1024 * 1024;
};

/// The largest h measured for `op` on p processors: max(max_bytes, ladder_max_bytes), except gather and scatter, whose
/// root holds p·h, capped so that p·h ≤ max(that, 256 MiB), swap: max(max_bytes, swap_max_bytes), and shift (h counts
/// both directions) twice the ladder when the ladder goes past max_bytes (a quick calibration's plan is unchanged).
[[nodiscard]] double largest_bytes(std::string_view op, int p, const SizeLimits& limits);
/// The largest h of any collective on p processors.
[[nodiscard]] double largest_bytes_of_all(int p, const SizeLimits& limits);

/// The smallest h whose calls run on buffers of their own (CollectiveBench::own_buffers), not on the prefix of the
/// bench's shared ones. Why: a large transfer's speed depends on which memory its buffers sit in, and the prefix of one
/// long-lived allocation made at the start of a phase is not the memory a validation case (a std::vector made per
/// visit) or an algorithm's message gets. A p = 2 swap of h = 23.7 MB (MPI_Sendrecv, Open MPI's single copy by CMA)
/// took 1.42–1.70 ms steady on the prefix of a 300 MiB vector filled right after MPI_Init, against 0.97–1.18 ms on a
/// vector of the message's size made per visit, 1.00–1.15 ms on one made at its first visit and kept (six runs each,
/// /tmp/coll-large bench, 2026-11-27, the ranks at real-time priority); the slow prefix's pages were 17–50 %
/// physically consecutive, the fast ones 87–97 % (the guest's page walks through the hypervisor's tables cost more
/// when the pages are scattered). At h = 4 MiB the same: 0.180 against 0.171–0.187 ms, at 128 MiB 18.5 against 13.7 ms.
/// The recorded quiet large run showed it as the probe's price above the case's at every p = 2 point from 2 MiB: swap
/// +15 / +50 / +33 % at 2 / 11.3 / 64 MiB, shift +10 / +52 %, bcast +31 / +97 / +45 %. Below 1 MiB (256 pages, within
/// the TLB's reach) the shared prefix and a case's buffers agreed (the demos' 1 MiB points: within ±10 %).
inline constexpr double own_buffers_from = 1024.0 * 1024;
/// The most bytes the own buffers of a process hold at once: past it the least recently used sizes are dropped and
/// made again at their next call (a fresh vector, as a validation case's visit makes). 512 MiB holds every size of a
/// quick calibration's swap ladder but its largest, and any one size of a full one (scatter's root at 96 MiB: 288 MiB).
inline constexpr std::size_t own_buffers_budget = std::size_t{512} << 20;

/// Buffers for the collectives of one group: shared ones allocated and touched once (for h < own_buffers_from), and
/// buffers of their own for the larger sizes.
class CollectiveBench {
  public:
    /// Collective over nothing; allocates for h ≤ max_bytes on g.size() processors.
    CollectiveBench(Group& g, const SizeLimits& limits);
    /// The call of `op` with h bytes on the group (through llc::Group), its buffers and arguments resolved once, so
    /// that a timed call pays for the collective alone (a 20 ns collective on one processor would otherwise pay as
    /// much again for finding its name). Calling it is collective over the group.
    [[nodiscard]] std::function<void()> call(std::string_view op, double bytes);
    /// What must happen before each timed call of `op` with h bytes, untimed (after it, a canary and a barrier, then
    /// the call): for the written shift (cost::written_suffix) each processor writes its message, so that its lines
    /// are dirty in the sender's cache when the call sends them; empty for every other operation.
    [[nodiscard]] std::function<void()> prepare(std::string_view op, double bytes);
    /// call(op, bytes)(), once.
    void run(std::string_view op, double bytes);

  private:
    /// The send (a) and receive (b) buffers of a call with a bytes of input and b of output: made (and filled, as a
    /// validation case's instance) at the first call that needs them, kept while own_buffers_budget allows, the least
    /// recently used pair dropped first. Outside SMPI only (under SMPI the payloads are shared and the memory is
    /// simulated).
    tools::TwoBuffers<double>& own_buffers(std::size_t a_bytes, std::size_t b_bytes);
    /// Whether a call of h bytes runs on own buffers.
    [[nodiscard]] static bool uses_own_buffers(std::size_t h) noexcept;
    /// call() for h ≥ own_buffers_from: every call fetches its pair (a map lookup: nothing next to a ≥ 1 MiB transfer).
    [[nodiscard]] std::function<void()> call_on_own_buffers(std::string_view op, std::size_t h);

    struct Own {
        std::unique_ptr<tools::TwoBuffers<double>> buffers;
        std::size_t bytes = 0;
        std::uint64_t used = 0;  ///< the call count at its last use (least recently used: the smallest)
    };
    std::map<std::pair<std::size_t, std::size_t>, Own> own_;
    std::size_t own_bytes_ = 0;
    std::uint64_t calls_ = 0;
    Group& g_;
    tools::TwoBuffers<unsigned char> bytes_;  ///< send (a) and receive (b) of the byte collectives
    tools::TwoBuffers<double> doubles_;       ///< send (a) and receive (b) of the reductions
    /// The last gather's or allgather's result, kept until the next one as llc-validate's cases (and a caller) keep
    /// theirs: each call allocates its result while the previous one is alive, then frees that one — the allocator's
    /// state (heap reuse, trimming, and above glibc's 32 MiB mmap threshold fresh pages to fault in) that a result
    /// dropped at once would not see.
    std::vector<unsigned char> gathered_;
};

/// The division superstep llc::par(g, task0, task1) with two equal-weight tasks whose results are m bytes each.
class DivisionBench {
  public:
    DivisionBench(Group& g, double max_bytes);
    /// One repetition of the split as a steady-state division pays it (the sizes and the cached subgroup lookup);
    /// max over ranks.
    [[nodiscard]] tools::Sample time_split();
    /// One repetition of a whole llc::par whose tasks return m-byte vectors (moved, not copied); max over ranks.
    [[nodiscard]] tools::Sample time_par(std::size_t m);
    /// h of a division with m-byte results: the most result bytes one processor sends plus receives.
    [[nodiscard]] double exchange_bytes(std::size_t m) const;

  private:
    Group& g_;
    std::vector<std::vector<unsigned char>> results_;
};

/// P-3PC between ranks 0 and 1 of `pair` (a group of 2; a group of 1 measures messages to oneself).
class PointToPointBench {
  public:
    explicit PointToPointBench(Group& pair, double max_bytes);
    ~PointToPointBench();
    PointToPointBench(const PointToPointBench&) = delete;
    PointToPointBench& operator=(const PointToPointBench&) = delete;

    /// The payload of a message of about `bytes` that both layouts can carry (the non-contiguous layout is
    /// min(100, bytes/8) blocks of equal length with a gap of one block, as in the P-3PC paper's Fig. 8).
    [[nodiscard]] static double payload(double bytes);
    /// One sample of a path with a layout: send = time inside MPI_Send on rank 0, recv = time inside MPI_Recv on
    /// rank 0, full = round trip on rank 0 of `bytes` there and 0 back; per message of `batch` back-to-back ones, each
    /// matched before the next is sent or received by that rank. Same value on both ranks.
    [[nodiscard]] tools::Sample time_path(cost::Path path, cost::Layout layout, double bytes, int batch);
    /// Round trip of `bytes` both ways (for Hockney, LogGP, C³): one-way time = result / 2.
    [[nodiscard]] tools::Sample time_pingpong(double bytes);
    /// k back-to-back blocking sends of `bytes` from rank 0 then a 0-byte acknowledgement (LogGP's gap g).
    [[nodiscard]] tools::Sample time_back_to_back(int k, double bytes);

  private:
    MPI_Datatype type(bool contiguous, double bytes);
    Group& pair_;
    bool self_;
    std::vector<unsigned char> a_;
    std::vector<unsigned char> b_;
    std::map<std::pair<bool, long long>, MPI_Datatype> types_;
};

}  // namespace llc::probe
