// llc-bench-fft-block: the block FFT at P = 2 (one decimation-in-frequency stage, the leaf with the last butterfly
// folded in, and in natural order the redistribution and the interleave), timed phase by phase, with the caller's
// input and output arrays of two kinds, alternated repetition by repetition in the same process:
//   heap  one std::vector for both (tools::TwoBuffers, as llc-validate's FFT cases and a caller's vectors): the
//         allocator's pages, 4 KiB ones unless advised;
//   huge  a mapping of its own on transparent huge pages (llc::HugePageMemory), as llc-probe's cold swap rotates.
// The plan's own buffers (the received block, the redistribution's) are the FftPlan's in both (huge from 2 MiB).
// Each repetition runs the transform twice and records the second (its buffers in the state a previous transform left
// them), then the dif swap once more at once ("again": its buffers as a swap timed call after call has them).
//
// Run:   mpirun -np 2 build/bin/llc-bench-fft-block [--n 262144] [--order scrambled|natural] [--repeat 21]
//
// Why: llc-validate's superstep tables (the quiet runs of 2026-11-27 on the 2-core AMD VM) show the `fft.dif` swap
// measured at twice its price — 262 µs (scrambled) and 743 µs (natural) against 115 µs (plain swap) at n = 2^18, and
// 22.2 / 24.7 ms against 12.2 ms (`swap.cold`) at 2^24 — while the other supersteps came within 6 % or were priced
// high. The swap sends the caller's input; Open MPI's single-copy receive pins the sender's pages one by one, and
// `swap.cold` is probed on huge pages. Medians over the repetitions, slowest rank. Agreement checks off while timing.
// --help lists the options; exit status 2 on a bad argument (on every rank).

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/fft.hpp>
#include <llc/bench/command_line.hpp>
#include <llc/huge_pages.hpp>
#include <llc/llc.hpp>
#include <llc/tools/buffers.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/version.hpp>

#include "fft_kernels.hpp"

namespace {

using llc::bench::slowest;
using llc::detail::fft::Complex;
using llc::tools::median;

/// The command line's values.
struct Options {
    std::int64_t n = std::int64_t{1} << 18;  ///< the transform's points, n / 2 on each rank
    int repeat = 21;
    std::string order = "scrambled";  ///< natural: the redistribution and the interleave as well
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-fft-block", 2);
    c.add()("n", po::value(&o.n)->default_value(o.n)->notifier(llc::bench::power_of_two("--n", 8, 1 << 26)), "points")(
        "order",
        po::value(&o.order)->default_value(o.order)->notifier(llc::bench::one_of("--order", {"natural", "scrambled"})),
        "the output's order");
    c.add_repeat(o.repeat, 100000);
    return c;
}

/// The caller's arrays of one kind and the medians measured on them (seconds, by phase).
struct Kind {
    const char* name;
    Complex* in;
    Complex* out;
    std::vector<double> total, dif, leaf, redistribute, interleave, again;
};

/// The measurement, on the options checked.
int measure(llc::Group& g, const Options& o) {
    const bool natural = o.order == "natural";
    llc::Group::set_checks(false);
    const MPI_Comm comm = g.native();
    const int rank = g.rank();
    const int partner = 1 - rank;
    const bool upper = rank == 1;
    const auto n = static_cast<std::size_t>(o.n);
    const std::size_t L = n / 2;
    const std::size_t m = L / 2;

    // As Block builds it at P = 2: one stage, partner r xor 1, the upper partner's twiddles ω_n^i.
    const llc::detail::fft::Twiddles twiddles(n, -1, 0, upper ? L : 0);
    llc::detail::fft::Leaf leaf(L, 1, !natural, llc::FftDirection::forward, llc::FftOptions{}.planner, upper);
    const llc::detail::fft::Buffer received(L);
    const llc::detail::fft::Buffer redistributed(m);

    llc::tools::TwoBuffers<Complex> heap(L, L, {}, {});
    const llc::HugePageMemory huge(2 * L * sizeof(Complex) + 8192);
    auto* huge_in = static_cast<Complex*>(huge.data());
    // The output 2 KiB past a 4 KiB boundary of the input's end, as TwoBuffers places it.
    auto* huge_out =
        reinterpret_cast<Complex*>(static_cast<char*>(huge.data()) + (L * sizeof(Complex) + 4095) / 4096 * 4096 + 2048);
    for (std::size_t i = 0; i < L; ++i) {
        heap.a()[i] = {std::sin(0.1 * static_cast<double>(i)), std::cos(0.3 * static_cast<double>(i))};
        huge_in[i] = heap.a()[i];
    }
    std::memset(static_cast<void*>(huge_out), 0, L * sizeof(Complex));
    std::vector<Kind> kinds{{"heap", heap.a().data(), heap.b().data(), {}, {}, {}, {}, {}, {}},
                            {"huge", huge_in, huge_out, {}, {}, {}, {}, {}, {}}};

    for (int rep = 0; rep < o.repeat; ++rep) {
        for (std::size_t v = 0; v < kinds.size(); ++v) {
            Kind& k = kinds[(v + static_cast<std::size_t>(rep)) % kinds.size()];  // alternate which goes first
            for (int run = 0; run < 2; ++run) {
                MPI_Barrier(comm);
                const double t0 = MPI_Wtime();
                g.swap(partner, std::span<const Complex>(k.in, L), received.span());
                const double t1 = MPI_Wtime();
                Complex* const target = natural ? received.data() : k.out;
                if (leaf.fuses_dif()) {
                    const Complex* a = upper ? received.data() : k.in;
                    const Complex* b = upper ? k.in : received.data();
                    leaf.execute_dif(a, b, upper, target);
                } else {
                    if (upper) {
                        llc::detail::fft::dif_upper(received.data(), k.in, k.out, twiddles);
                    } else {
                        llc::detail::fft::dif_lower(k.in, received.data(), k.out, L);
                    }
                    leaf.execute(k.out, target);
                }
                const double t2 = MPI_Wtime();
                double t3 = t2;
                double t4 = t2;
                if (natural) {
                    const auto r = static_cast<std::size_t>(rank);
                    g.swap(partner, std::span<const Complex>(received.data() + (1 - r) * m, m), redistributed.span());
                    t3 = MPI_Wtime();
                    llc::detail::fft::interleave2(received.data() + r * m, redistributed.data(), k.out, m, r);
                    t4 = MPI_Wtime();
                }
                MPI_Barrier(comm);
                const double a0 = MPI_Wtime();
                g.swap(partner, std::span<const Complex>(k.in, L), received.span());
                const double a1 = MPI_Wtime();
                if (run == 1) {
                    k.total.push_back(slowest(comm, t4 - t0));
                    k.dif.push_back(slowest(comm, t1 - t0));
                    k.leaf.push_back(slowest(comm, t2 - t1));
                    k.redistribute.push_back(slowest(comm, t3 - t2));
                    k.interleave.push_back(slowest(comm, t4 - t3));
                    k.again.push_back(slowest(comm, a1 - a0));
                }
            }
        }
    }
    if (rank == 0) {
        constexpr double us = 1e6;
        std::printf("llc-bench-fft-block: n = %zu, P = 2, %s order, medians of %d repetitions (us, slowest rank)\n",
                    n,
                    natural ? "natural" : "scrambled",
                    o.repeat);
        std::printf("compiled with: %s\n", llc::build_flags);
        for (const Kind& k : kinds) {
            std::printf(
                "  %s: transform %.1f = dif swap %.1f + leaf %.1f + redistribute %.1f + interleave %.1f; "
                "dif swap again at once %.1f\n",
                k.name,
                median(k.total) * us,
                median(k.dif) * us,
                median(k.leaf) * us,
                median(k.redistribute) * us,
                median(k.interleave) * us,
                median(k.again) * us);
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
