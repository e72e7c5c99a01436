// llc-bench-fft-level: the replicated FFT's one division level at P = 2 (the CCM paper's Figure 4), timed whole and
// phase by phase, beside its parts timed alone in the same repetitions — what the cost model adds up against what
// the level costs when its phases follow one another.
//
// Run:   mpirun -np 2 build/bin/llc-bench-fft-level [--n 262144] [--repeat 61]
//
// Every repetition times, each after a barrier and as the slowest rank's time:
//   plan      FftPlan::execute (replicated layout, the default planner);
//   level     a copy of the level FftPlan runs: the stride-2 leaf on this rank's half, the exchange of the halves
//             (MPI_Isend + MPI_Recv + MPI_Wait, as llc's division) and the DIT combine, each phase timed; the
//             exchange after the slower leaf (what the CCM prices as the division's exchange) is the level's time
//             less the slowest leaf and the slowest combine of the same repetition;
//   alone     the combine again at once (its data hot), and the exchange on buffers untouched since the last call
//             ("hot") and on send buffers written just before it ("written").
// The table shows medians over the repetitions. Agreement checks are off while timing. --help lists the options;
// exit status 2 on a bad argument (on every rank).

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/fft.hpp>
#include <llc/bench/command_line.hpp>
#include <llc/llc.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/version.hpp>

#include "fft_kernels.hpp"

namespace {

using llc::bench::slowest;
using llc::detail::fft::Complex;
using llc::tools::median;

/// The command line's values.
struct Options {
    std::int64_t n = std::int64_t{1} << 18;  ///< the transform's points; each rank's leaf takes n / 2 of them
    int repeat = 61;
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-fft-level", 2);
    c.add()("n", po::value(&o.n)->default_value(o.n)->notifier(llc::bench::power_of_two("--n", 4, 1 << 26)), "points");
    c.add_repeat(o.repeat, 100000);
    return c;
}

/// Sends `half` entries from `send` to the partner and receives as many into `receive`, as llc's division exchanges
/// results: the send posted first, then the receive, then the wait.
void exchange(MPI_Comm comm, int partner, const Complex* send, Complex* receive, std::size_t half) {
    const int count = static_cast<int>(half);
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Isend(send, count, MPI_CXX_DOUBLE_COMPLEX, partner, 0, comm, &request);
    MPI_Recv(receive, count, MPI_CXX_DOUBLE_COMPLEX, partner, 0, comm, MPI_STATUS_IGNORE);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
}

/// Medians (seconds) by column.
struct Columns {
    std::vector<double> plan, leaf, exchange_after, combine, level, combine_hot, exchange_hot, exchange_written;
};

/// The measurement, on the options checked.
int measure(llc::Group& g, const Options& o) {
    llc::Group::set_checks(false);
    const MPI_Comm comm = g.native();
    const int rank = g.rank();
    const int partner = 1 - rank;
    const auto n = static_cast<std::size_t>(o.n);
    const std::size_t half = n / 2;

    std::vector<std::complex<double>> in(n);
    for (std::size_t i = 0; i < n; ++i) {
        in[i] = {static_cast<double>(i % 7), static_cast<double>(i % 3)};
    }
    std::vector<std::complex<double>> plan_out(n);
    llc::FftPlan plan(g, static_cast<std::int64_t>(n), {.layout = llc::FftLayout::replicated});

    // The level as FftPlan builds it at P = 2: task t = rank takes the terms t, t + 2, …; combine twiddles ω_n^k.
    llc::detail::fft::Leaf leaf(half, 2, false, llc::FftDirection::forward, llc::FftOptions{}.planner);
    const llc::detail::fft::Twiddles twiddles(n, -1, 0, half);
    std::vector<Complex> out(n);
    std::vector<Complex> send(half, Complex{1.0, 0.5});
    std::vector<Complex> receive(half);

    Columns c;
    for (int rep = 0; rep < o.repeat; ++rep) {
        MPI_Barrier(comm);
        double t0 = MPI_Wtime();
        plan.execute(in, plan_out);
        c.plan.push_back(slowest(comm, MPI_Wtime() - t0));

        MPI_Barrier(comm);
        t0 = MPI_Wtime();
        leaf.execute(in.data() + rank, out.data() + static_cast<std::size_t>(rank) * half);
        const double t1 = MPI_Wtime();
        exchange(comm,
                 partner,
                 out.data() + static_cast<std::size_t>(rank) * half,
                 out.data() + static_cast<std::size_t>(partner) * half,
                 half);
        const double t2 = MPI_Wtime();
        llc::detail::fft::dit_combine(out.data(), twiddles);
        const double t3 = MPI_Wtime();
        llc::detail::fft::dit_combine(out.data(), twiddles);
        const double t4 = MPI_Wtime();
        c.leaf.push_back(slowest(comm, t1 - t0));
        c.combine.push_back(slowest(comm, t3 - t2));
        c.level.push_back(slowest(comm, t3 - t0));
        c.exchange_after.push_back(c.level.back() - c.leaf.back() - c.combine.back());
        c.combine_hot.push_back(slowest(comm, t4 - t3));

        MPI_Barrier(comm);
        t0 = MPI_Wtime();
        exchange(comm, partner, send.data(), receive.data(), half);
        c.exchange_hot.push_back(slowest(comm, MPI_Wtime() - t0));

        std::memset(static_cast<void*>(send.data()), rep & 0xff, half * sizeof(Complex));
        MPI_Barrier(comm);
        t0 = MPI_Wtime();
        exchange(comm, partner, send.data(), receive.data(), half);
        c.exchange_written.push_back(slowest(comm, MPI_Wtime() - t0));
    }
    if (rank == 0) {
        const double ms = 1e3;
        std::printf("llc-bench-fft-level: n = %zu, P = 2, medians of %d repetitions (ms, slowest rank)\n", n, o.repeat);
        std::printf("compiled with: %s\n", llc::build_flags);  // the timings depend on it (-march=native or not)
        std::printf("  FftPlan::execute                    %9.3f\n", median(c.plan) * ms);
        std::printf("  the level, phase by phase           %9.3f: leaf %.3f, exchange after it %.3f, combine %.3f\n",
                    median(c.level) * ms,
                    median(c.leaf) * ms,
                    median(c.exchange_after) * ms,
                    median(c.combine) * ms);
        std::printf("  alone: combine again at once        %9.3f\n", median(c.combine_hot) * ms);
        std::printf("  alone: exchange, hot / written      %9.3f / %.3f\n",
                    median(c.exchange_hot) * ms,
                    median(c.exchange_written) * ms);
        std::printf("  leaf + combine alone + exchange hot %9.3f\n",
                    (median(c.leaf) + median(c.combine_hot) + median(c.exchange_hot)) * ms);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
