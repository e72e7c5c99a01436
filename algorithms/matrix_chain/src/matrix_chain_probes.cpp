// The interval DP's kernel constants, measured on the engine's own code (detail::interval_dp::compute_middle and
// compute_edges with the matrix-chain policy in double, DoubleChainPolicy: the path of every chain whose candidates
// stay below 2^53, the probes' and the validation's among them; the rare wider chains run in int64 and are priced by
// the same constants) on a synthetic block laid out as the engine lays it out: rows from a received trapezoid, columns
// from an IntervalTable, so the operands have the engine's (unaligned) addresses.
//
// - "mc.update.2^e": seconds per update of the middle k range of an off-diagonal 64 × 64 block (r = 64, the engine's
//   r at P = 1, near the model's r at P = 2) whose middle range is 2^e long, cut into the engine's chunks of
//   chunk_length(64) = 1024. Short ranges pay the per-call overheads (the call, the lanes' merge, the scalar tail, the
//   (value, k) merge); long ones bring each chunk's rows and columns (2·64·1024 values) from beyond L2 into the cache.
// - "mc.edge.2^e": seconds per update of the two edge k ranges of an off-diagonal r × r block, r = 2^e, with all the
//   per-entry work of compute_edges (row copy, merges, the writes of c, k and the passed-on row).
// - "mc.diag.2^e": seconds per update of a diagonal r × r block, r = 2^e.
// - "mc.run.2^e": seconds per update ((n³ − n)/6 of them) of a whole one-processor matrix_chain of n = 2^e matrices
//   with its default r; the one-processor price (its solo value), because the per-block constants over-priced the
//   one-processor engine by 18-36 %: the engine runs block after block along a diagonal, the probes one block again
//   and again, and the whole run's cache behaviour is what a P = 1 run pays.
// - "mc.run_wide.2^e": the same with r = 128 (n = 2^8 … 2^11): the engine's level against the blocks' moves with r
//   (the trapezoids, n³/(6r) values copied and read over a run, and the edges' share), so P > 1's r ≈ 63 … 126 is
//   scaled between the two, not at r = 64's level (P = 1, n = 4000, r = 126 was priced 41 % high by it).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/group.hpp>

#include "chain_policy_double.hpp"
#include "interval_dp.hpp"

namespace llc::detail::matrix_chain {

namespace {

using interval_dp::Best;
using interval_dp::BlockSpan;
using interval_dp::DoubleChainPolicy;
using Buffer = std::unique_ptr<double[], FreeDeleter>;

/// One block (rows [a0, a1), columns [b0, b1)) with everything the engine reads filled: the table's columns of the
/// block (a processor of two owning [b0, 2·b0) only), the received trapezoid c(i, i..b0−1), dimensions 1 … 100.
struct SyntheticBlock {
    BlockSpan span;
    std::vector<double> dims;
    IntervalTable<double> table;
    Buffer in;  ///< the received trapezoid, on the pages the engine's trapezoid buffers use
    std::vector<double> out;
    std::vector<double> scratch;
    std::vector<Best<double>> middle;
    interval_dp::EdgeWork<double> work;

    explicit SyntheticBlock(const BlockSpan& s)
        : span(s),
          dims(static_cast<std::size_t>(s.b1) + 1),
          table(s.b1, std::max<std::int64_t>(s.b0, s.b1 - s.b0), 2, 1),
          in(interval_dp::fresh_array<double>(
              static_cast<std::size_t>(std::max<std::int64_t>(1, interval_dp::trapezoid_size(s.a0, s.a1, s.b0))))),
          out(static_cast<std::size_t>(interval_dp::trapezoid_size(s.a0, s.a1, s.b1))),
          scratch(static_cast<std::size_t>(s.b1) + 1) {
        cost::ProbeValues values(18);
        const auto next = [&](double scale) {
            return static_cast<double>(static_cast<std::int64_t>((values() + 1.0) * scale) + 1);
        };
        for (auto& d : dims) {
            d = next(50.0);
        }
        // Costs that grow with the interval's length, as an interval DP's do.
        for (std::int64_t j = s.b0; j < s.b1; ++j) {
            for (std::int64_t i = 0; i <= j; ++i) {
                detail::interval_table_storage(table).column(j)[i] = static_cast<double>(j - i) * 1e5 + next(5e4);
            }
        }
        std::size_t e = 0;
        for (std::int64_t i = s.a0; i < s.a1; ++i) {
            for (std::int64_t k = i; k < s.b0; ++k) {
                in[e++] = static_cast<double>(k - i) * 1e5 + next(5e4);
            }
        }
    }
    /// The policy a run of these dimensions gets (matrix_chain.cpp): the tagged middle (min_plus_tile.hpp) when every
    /// candidate stays below 2^42, as for every chain llc-validate prices.
    [[nodiscard]] DoubleChainPolicy policy() const {
        const std::vector<std::int64_t> whole(dims.begin(), dims.end());
        return DoubleChainPolicy{dims.data(), interval_dp::chain_fits_tagged(whole.data(), whole.size())};
    }
};

constexpr std::int64_t probe_r = 64;

double middle_probe(bool quick, int e) {
    const std::int64_t len = std::int64_t{1} << e;
    // The middle k range of rows [0, 64) and columns [b0, b0 + 64) is [63, b0): b0 = 63 + len.
    SyntheticBlock blk(BlockSpan{0, probe_r, probe_r - 1 + len, 2 * probe_r - 1 + len});
    const DoubleChainPolicy policy = blk.policy();
    const double t = cost::median_seconds_per_call(quick, [&] {
        interval_dp::compute_middle(
            blk.table, policy, blk.span, interval_dp::chunk_length(probe_r), blk.in.get(), blk.middle);
    });
    return t / static_cast<double>(probe_r * probe_r * len);
}

double edge_probe(bool quick, int e, bool diagonal) {
    const std::int64_t r = std::int64_t{1} << e;
    // An off-diagonal block of macro-step 2 (rows [0, r), columns [2r, 3r)) or the diagonal block [r, 2r).
    const BlockSpan s = diagonal ? BlockSpan{r, 2 * r, r, 2 * r} : BlockSpan{0, r, 2 * r, 3 * r};
    SyntheticBlock blk(s);
    const DoubleChainPolicy policy = blk.policy();
    if (!diagonal) {
        interval_dp::compute_middle(blk.table, policy, s, interval_dp::chunk_length(r), blk.in.get(), blk.middle);
    }
    const double t = cost::median_seconds_per_call(quick, [&] {
        interval_dp::compute_edges(
            blk.table, policy, s, blk.in.get(), blk.out.data(), blk.scratch, blk.middle, blk.work);
    });
    const auto rd = static_cast<double>(r);
    const double updates = diagonal ? rd * (rd - 1.0) * (rd + 1.0) / 6.0 : rd * rd * (rd - 1.0);
    return t / updates;
}

/// The seed of mc.run's dimensions: not the validation case's (docs/validation.md).
constexpr std::uint64_t run_probe_seed = 23;

double run_probe(bool quick, int e, std::optional<std::int64_t> r) {
    const std::int64_t n = std::int64_t{1} << e;
    cost::ProbeValues values(run_probe_seed);
    std::vector<std::int64_t> dims(static_cast<std::size_t>(n) + 1);
    for (auto& d : dims) {
        d = static_cast<std::int64_t>((values() + 1.0) * 50.0) + 1;
    }
    Group& alone = Group::world().self();
    std::int64_t sink = 0;
    IntervalDpOptions options;
    options.r = r;
    const double t =
        cost::median_seconds_per_call(quick, [&] { sink += llc::matrix_chain(alone, dims, options).cost; });
    volatile std::int64_t keep = sink;  // the result is used
    (void)keep;
    const auto nd = static_cast<double>(n);
    return t / ((nd * nd * nd - nd) / 6.0);
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    // Each also alone on the node (solo_name): the one-processor run's prices (cost::kernel_size_table(…, P = 1)).
    const auto solo = [](const char* name, int e) { return cost::kernel_size_key(cost::solo_kernel_name(name), e); };
    namespace names = llc::names::matrix_chain;
    std::vector<cost::KernelProbe> probes;
    for (int e = 0; e <= 12; ++e) {
        probes.push_back({cost::kernel_size_key(names::middle, e),
                          "update of the engine's middle k range (64 × 64 block) of length 2^" + std::to_string(e),
                          [e](bool quick) { return middle_probe(quick, e); },
                          solo(names::middle, e)});
    }
    // From r = 4: at P = 2 the demo's chains (llc-validate --quick, n = 100 and 400) end in a diagonal block 4 wide,
    // which 2^3 and above left to extrapolate below them.
    for (int e = 2; e <= 8; ++e) {
        probes.push_back({cost::kernel_size_key(names::edge, e),
                          "update of the engine's edge k ranges of an off-diagonal block, r = 2^" + std::to_string(e),
                          [e](bool quick) { return edge_probe(quick, e, false); },
                          solo(names::edge, e)});
        probes.push_back({cost::kernel_size_key(names::diag, e),
                          "update of the engine's diagonal block, r = 2^" + std::to_string(e),
                          [e](bool quick) { return edge_probe(quick, e, true); },
                          solo(names::diag, e)});
    }
    for (int e = 6; e <= 11; ++e) {
        probes.push_back({cost::kernel_size_key(names::run, e),
                          "update of a whole one-processor matrix_chain of 2^" + std::to_string(e) + " matrices",
                          [e](bool quick) { return run_probe(quick, e, std::nullopt); },
                          solo(names::run, e)});
        // A whole run: at 2^e matrices, sizes the validation case never runs (tests/tools/calibration_disjoint_test).
        probes.back().seed = run_probe_seed;
        probes.back().whole_run_of = "matrix-chain";
        probes.back().whole_run_size = std::int64_t{1} << e;
    }
    for (int e = 8; e <= 11; ++e) {  // from two blocks of 128 up
        probes.push_back({cost::kernel_size_key(names::run_wide, e),
                          "update of a whole one-processor matrix_chain of 2^" + std::to_string(e) +
                              " matrices, r = " + std::to_string(names::wide_run_r),
                          [e](bool quick) { return run_probe(quick, e, names::wide_run_r); },
                          solo(names::run_wide, e)});
        probes.back().seed = run_probe_seed;
        probes.back().whole_run_of = "matrix-chain";
        probes.back().whole_run_size = std::int64_t{1} << e;
    }
    return probes;
}

}  // namespace llc::detail::matrix_chain
