// symv's kernel constants, by size 2^e: seconds per off-diagonal packed entry of the reflection product's fused
// row-and-column passes ("symv.entry", two multiply-adds) and per entry of the standard product's row products
// ("symv.row", one). Each probe runs what a rank runs: the product's own passes (symv_kernels.hpp) over a rank's rows
// of a symv layout, stored as the matrix stores them, without the communication, with the product's O(n) work around
// them (x's assembly, the received partial sums, y). Side by side, at P = the ranks of the calibration, each rank runs
// its own share (rank q of P), so every rank streams its rows at once; alone (`measure_alone`, the "_solo" keys),
// rank 0 calls llc::symv on a one-processor matrix, which is what a one-processor run times.
//
// Why not a contiguous r × r block, as these probes timed before: a product reads each block A_{b,c} as segments of
// r = n/(2P) entries, one per stored row, with the rest of the row between them (a packed row i holds i + 1 entries),
// so the hardware prefetch restarts at every segment. Alone, on the loaded machine (thread CPU time), 2^24 entries
// read as 2^12 segments of 2^12 took 0.95 ns an entry when the rows were 2^12 long, 1.09 when 2^13 and 1.14 when 2^14;
// as 2^13 segments of 2^11: 0.89, 1.16, 1.28. Rank 1's share of the P = 2 product at n = 8192 (the same 128 MiB as the
// old 2^12 block, 0.99 ns alone) took 1.28 ns, rank 0's 1.18; the quiet large run measured 1.24 ns an entry there,
// which the old 2^12 constant (0.93) priced 25 % low.
//
// Under SimGrid SMPI (LLC_SMPI) the side-by-side probe also runs its steps as separate compute bursts, as the product
// does (end_burst below): the simulated ranks take turns on one host core, so each of the product's bursts runs after
// the other ranks' bursts over their own rows, with the caches they left, and SMPI charges it what it lasted so.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/group.hpp>

#include "symv_kernels.hpp"

namespace llc::detail::symv {

namespace {

/// The seed of the probes' matrices: not the validation cases' (docs/validation.md).
constexpr std::uint64_t block_probe_seed = 19;

/// Rank q's rows of a layout, stored as SymmetricMatrix stores them (one vector, rows in local order).
struct Share {
    SymvLayout layout;
    int q;
    std::vector<double> data;
    std::vector<std::int64_t> offsets;
    std::vector<double> x;
    double units = 0.0;  ///< the rank's work in the cost function's units (symv_cost.cpp)
    [[nodiscard]] const double* row(std::int64_t k) const { return data.data() + offsets[static_cast<std::size_t>(k)]; }
};

Share make_share(int e, int P, int q, SymvMapping mapping) {
    const std::int64_t n = probe_rows(e, P, mapping);
    Share s{SymvLayout(n, P, mapping), q, {}, {0}, std::vector<double>(static_cast<std::size_t>(n))};
    const bool reflection = mapping == SymvMapping::reflection;
    for (const int b : s.layout.blocks_of(q)) {
        const std::int64_t begin = s.layout.block_begin(b);
        const auto rows = static_cast<double>(s.layout.block_size(b));
        s.units += reflection ? rows * (static_cast<double>(begin) + rows / 2.0) : rows * static_cast<double>(n);
        for (std::int64_t i = begin; i < s.layout.block_begin(b + 1); ++i) {
            s.offsets.push_back(s.offsets.back() + (reflection ? i + 1 : n));
        }
    }
    s.data.resize(static_cast<std::size_t>(s.offsets.back()));
    cost::ProbeValues values(block_probe_seed);
    for (auto* v : {&s.data, &s.x}) {
        for (double& value : *v) {
            value = values();
        }
    }
    return s;
}

/// What the product does on rank q besides its passes, per call, with vectors of these sizes: x arrives in a new
/// vector (the allgatherv's result) and is assembled into another; each shift's partial sums arrive in a new vector
/// and are added; y is written from the result. O(n) beside the passes' O(n²), but at the smallest probed sizes a
/// tenth of the call (symv.cpp's reflection_product and symv_in_layout).
std::vector<double> replicated_x(const Share& s) {
    std::vector<double> got(s.x.size());
    std::copy(s.x.begin(), s.x.end(), got.begin());
    return {got.begin(), got.end()};
}

void add_received(std::span<double> to, std::size_t rows) {
    const std::vector<double> received(rows, 0.0);
    for (std::size_t k = 0; k < to.size() && k < rows; ++k) {
        to[k] += received[k];
    }
}

double written_y(const std::vector<double>& mine) {
    std::vector<double> y(mine.size());
    std::transform(mine.begin(), mine.end(), y.begin(), [](double v) { return 1.0 * v; });
    return y.empty() ? 0.0 : y[0];
}

/// Under SMPI, ends this rank's compute burst where the product calls MPI (its shift's start and its wait, around each
/// step's passes): MPI_Wtime, like every MPI call, hands SMPI the burst, which charges it to the simulated host and
/// meanwhile runs the other simulated ranks' bursts on the host core (SimGrid 3.32 also sleeps smpi/wtime, 10 ns
/// simulated, at every MPI_Wtime, so even a burst below smpi/cpu-threshold lets them run). Without this a probe call
/// was one burst over all of the rank's steps, with its own rows still in the caches from its previous call; the
/// product's step, at P ranks, finds them after P − 1 other ranks' steps. At P = 1, and in the default build, nothing.
void end_burst() {
#if defined(LLC_SMPI)
    (void)MPI_Wtime();
#endif
}

/// The reflection product's local work on rank q: every step's passes and the diagonal blocks, each step's partial
/// sums in a new vector as the product has them, and the product's O(n) work around them (above); under SMPI each
/// step's passes one compute burst (end_burst).
double reflection_work(const Share& s) {
    const int P = s.layout.P();
    const std::vector<double> x = replicated_x(s);
    const auto row = [&](std::int64_t k) { return s.row(k); };
    std::vector<double> mine(static_cast<std::size_t>(s.layout.local_rows(s.q)), 0.0);
    for (int step = 1; step <= P; ++step) {
        const int d = (s.q + step) % P;
        end_burst();
        if (step == P) {
            reflection_step<double>(s.layout, s.q, row, x, d, mine, mine);
            reflection_diagonal<double>(s.layout, s.q, row, x, mine);
            if (P > 1) {
                add_received(mine, mine.size());
            }
        } else {
            std::vector<double> gamma(static_cast<std::size_t>(s.layout.local_rows(d)), 0.0);
            reflection_step<double>(s.layout, s.q, row, x, d, gamma, mine);
            end_burst();
            if (step > 1) {
                add_received(gamma, gamma.size());
            }
            mine[0] += gamma[0];
        }
    }
    return written_y(mine);
}

/// The standard product's local work on rank q: its rows times each block of x in turn, each block after the first
/// arriving in a new vector, and y written from the result; under SMPI each step's products one compute burst.
double standard_work(const Share& s) {
    const int P = s.layout.P();
    const std::int64_t rows = s.layout.local_rows(s.q);
    std::vector<double> mine(static_cast<std::size_t>(rows), 0.0);
    for (int step = 0; step < P; ++step) {
        const int c = (s.q + step) % P;
        const auto begin = s.x.begin() + s.layout.block_begin(c);
        const std::vector<double> held(begin, begin + s.layout.block_size(c));
        end_burst();
        standard_step<double>(
            s.layout, rows, [&](std::int64_t k) { return s.row(k); }, c, held, mine);
        end_burst();
    }
    return written_y(mine);
}

/// Seconds per unit of rank q's share of a P-processor product at size 2^e.
double share_probe(bool quick, int e, int P, int q, SymvMapping mapping) {
    const Share s = make_share(e, P, q, mapping);
    double sink = 0.0;
    const double t = cost::median_seconds_per_call(
        quick, [&] { sink += mapping == SymvMapping::reflection ? reflection_work(s) : standard_work(s); });
    volatile double keep = sink;  // the kernel's results are used
    (void)keep;
    return t / s.units;
}

/// Alone: a one-processor product as it is called — llc::symv on this processor's own group over the whole matrix of
/// the probe's size — so that the constant holds what a call does besides its passes (its argument checks, the
/// vectors it allocates, x's assembly, y's update). Timed on the passes alone (the share above), one-processor calls
/// at n = 68 / 136 / 272 took 40 / 25 / 10 % longer per entry than the passes (0.35–0.8 µs a call; loaded machine,
/// the quiet demos measured n = 256 14 % above its price); at n = 543 and 1086 no difference could be told.
double whole_call_alone(bool quick, int e, SymvMapping mapping) {
    Share s = make_share(e, 1, 0, mapping);
    Group& alone = Group::world().self();
    const SymmetricMatrix<double> A =
        SymmetricMatrix<double>::from_local(alone, s.layout.n(), std::move(s.data), mapping);
    std::vector<double> y(s.x.size(), 0.0);
    const double t =
        cost::median_seconds_per_call(quick, [&] { llc::symv<double>(alone, 1.0, A, A.layout(), s.x, 0.0, y); });
    volatile double keep = y[0];  // the product's result is used
    (void)keep;
    return t / s.units;
}

/// Side by side: this rank's share at P = the calibration's ranks (its MPI world, as llc-probe runs every rank); a
/// one-rank calibration times the one-processor call (above).
double side_by_side_probe(bool quick, int e, SymvMapping mapping) {
    int P = 1;
    int q = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &q);
    return P == 1 ? whole_call_alone(quick, e, mapping) : share_probe(quick, e, P, q, mapping);
}

}  // namespace

/// The size of the probe at 2^e for P processors: the n whose busiest rank holds about (probe_side_scale · 2^e)²
/// entries, n²/(2P) (reflection) or n²/P. Not rounded to a multiple of the blocks (the layouts take any n): rounded
/// so, at P = 16 … 64 it landed on validated powers of two (256, 512, 1024).
std::int64_t probe_rows(int e, int P, SymvMapping mapping) {
    const int blocks = mapping == SymvMapping::reflection ? 2 * P : P;
    const double side = probe_side_scale * std::ldexp(1.0, e) * std::sqrt(static_cast<double>(blocks));
    const std::int64_t n = std::max<std::int64_t>(std::lround(side), blocks);
    // The validated sizes are powers of two. 1.5 · √(2P) · 2^e is none for P = 1, 2, 4, 8, …, but may round to one at
    // other P (P = 57: 1.5 · √114 = 16.02, so n = 256 at 2^4): one row more, a share 0.8 % larger, not that product.
    return (n & (n - 1)) == 0 ? n + 1 : n;
}

std::vector<cost::KernelProbe> kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    // e = 3 … 12: the largest share holds (1.5 · 2^12)² entries, 288 MiB. 2^11's 72 MiB (twice this VM's 32 MiB
    // last-level cache) did not yet price the products that stream from memory: side by side, the standard product's
    // shares at P = 2 took 6.0–6.7e-10 s an entry at n = 4096 … 16384 (64 MiB … 1 GiB a rank; the large runs of
    // 2026-11-28) where the 2^11 constant was 5.0–5.7e-10 and the cost function held it beyond the table: priced
    // 16–24 % low at n = 8192 and 16384. Under SMPI the 2^12 share of every simulated rank would live in one process
    // (18 GiB at P = 64): up to 2^11 there.
#if defined(LLC_SMPI)
    constexpr int largest_e = probe_max_e_smpi;
#else
    constexpr int largest_e = probe_max_e;
#endif
    for (int e = probe_min_e; e <= largest_e; ++e) {
        for (const SymvMapping mapping : {SymvMapping::reflection, SymvMapping::standard}) {
            const bool reflection = mapping == SymvMapping::reflection;
            const char* name = reflection ? names::symv::entry : names::symv::row;
            cost::KernelProbe probe{cost::kernel_size_key(name, e),
                                    std::string(reflection ? "off-diagonal packed entry of the fused symv passes"
                                                           : "entry of the standard symv row products") +
                                        ", a rank's share at size 1.5·2^" + std::to_string(e),
                                    [e, mapping](bool quick) { return side_by_side_probe(quick, e, mapping); },
                                    cost::kernel_size_key(cost::solo_kernel_name(name), e)};
            probe.measure_alone = [e, mapping](bool quick) { return whole_call_alone(quick, e, mapping); };
            probe.seed = block_probe_seed;
            probes.push_back(std::move(probe));
        }
    }
    return probes;
}

}  // namespace llc::detail::symv
