// llc-bench-mc-ring: the matrix chain's ring at P = 2, its rotations timed inside the engine (the trace) beside the
// same rotations replayed alone in the same repetitions — what cost::matrix_chain prices each rotation at against
// what a rotation of those sizes costs in the cache state it runs in.
//
// Run:   mpirun -np 2 build/bin/llc-bench-mc-ring [--n 4000] [--r R] [--repeat 7] [--profile F] [--steps]
//
// Every repetition, as the slowest rank's time:
//   engine    llc::matrix_chain on the world (r: --r, else default_block_size(2, n), as the validation case), traced:
//             per macro-step d ≥ 1 the busiest processor's W before the rotation and the rotation's time (the merged
//             trace: the slowest processor's step less the merged W, so an imbalance is not counted as communication);
//   replays   each rotation again with its own per-rank send and receive counts (the engine's trapezoid sizes), on
//             buffers on huge pages of their own, as Group::shift: "hot" (the same buffers shifted just before: the
//             profile's "shift"), "written" (the send buffer stored to right before: the profile's "shift.written"),
//             "evicted" (stored to, then 64 MiB of other memory stored to, so the message has left the core's caches
//             as an engine step's later blocks push it out); and "written" once more on buffers as llc-probe's
//             "shift.written" takes them past 1 MiB (tools::TwoBuffers, a vector from the heap: "probe's buffers").
// It prints how many of each buffer's kB are on transparent huge pages (/proc/self/smaps, the whole mapping holding
// it: for the heap, the whole heap).
// With --profile, the CCM's price of each rotation and W (cost::matrix_chain, the validation case's Expr without the
// tree's walk) and the BSP's price of the rotations. The table shows sums over the rotations, medians over the
// repetitions; --steps adds the rotations one by one (the medians per step). Agreement checks are off while timing.
// --help lists the options; exit status 2 on a bad argument (on every rank).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/bench/command_line.hpp>
#include <llc/cost/compare.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/profile.hpp>
#include <llc/huge_pages.hpp>
#include <llc/llc.hpp>
#include <llc/tools/buffers.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/trace.hpp>
#include <llc/version.hpp>

#include "memory_maps.hpp"

namespace {

using llc::bench::slowest;
using llc::tools::median;

struct Options {
    std::int64_t n = 4000;
    std::int64_t r = 0;  ///< 0: default_block_size(2, n)
    int repeat = 7;
    std::string profile;
    bool steps = false;
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-mc-ring", 2);
    c.add()("n",
            po::value(&o.n)->default_value(o.n)->notifier(llc::bench::in_range<std::int64_t>("--n", 4, 20000)),
            "the chain's matrices")("r",
                                    po::value(&o.r)->notifier(llc::bench::in_range<std::int64_t>("--r", 1, 20000)),
                                    "block size (default: llc::default_block_size(2, n), as the validation case)");
    c.add_repeat(o.repeat, 1000);
    c.add()("profile", po::value(&o.profile), "machine profile (llc-probe): the CCM's and the BSP's prices")(
        "steps", po::bool_switch(&o.steps), "the rotations one by one as well");
    return c;
}

/// Σ_{i in [a0, a1)} (last − i): the engine's trapezoid of rows a0 … a1 − 1 to column `last` (interval_dp.hpp).
std::int64_t trapezoid(std::int64_t a0, std::int64_t a1, std::int64_t last) {
    std::int64_t s = 0;
    for (std::int64_t i = a0; i < a1; ++i) {
        s += last - i;
    }
    return s;
}

/// The entries `rank` sends and receives at each macro-step d = 1 … B − 1 of the ring (index d − 1), as
/// detail::interval_dp::run sizes its send and receive buffers.
struct Rotations {
    std::vector<std::int64_t> send;
    std::vector<std::int64_t> recv;
};

Rotations rotations(std::int64_t n, std::int64_t r, int P, int rank) {
    const std::int64_t B = (n + r - 1) / r;
    const auto begin = [r](std::int64_t b) { return b * r; };
    const auto end = [n, r](std::int64_t b) { return std::min(n, (b + 1) * r); };
    const auto mine = [P, rank](std::int64_t b) { return b % P == rank; };
    Rotations out;
    for (std::int64_t d = 1; d < B; ++d) {
        std::int64_t sent = 0;  // computed at macro-step d − 1 for the blocks b ≤ B − 2
        for (std::int64_t b = d - 1; b <= B - 2; ++b) {
            if (mine(b)) {
                sent += trapezoid(begin(b - d + 1), end(b - d + 1), end(b));
            }
        }
        std::int64_t received = 0;
        for (std::int64_t b = d; b < B; ++b) {
            if (mine(b)) {
                received += trapezoid(begin(b - d), end(b - d), begin(b));
            }
        }
        out.send.push_back(sent);
        out.recv.push_back(received);
    }
    return out;
}

/// Per-step series of one quantity over the repetitions: values[step][repetition].
using Series = std::vector<std::vector<double>>;

double sum_of_medians(const Series& s) {
    double t = 0.0;
    for (const auto& v : s) {
        t += median(v);
    }
    return t;
}

std::vector<double> sums(const Series& s, int repeat) {
    std::vector<double> out(static_cast<std::size_t>(repeat), 0.0);
    for (const auto& v : s) {
        for (std::size_t k = 0; k < v.size(); ++k) {
            out[k] += v[k];
        }
    }
    return out;
}

/// The measurement, on the options checked.
int measure(llc::Group& g, const Options& o) {
    std::optional<llc::cost::Profile> profile;
    if (!o.profile.empty()) {
        try {
            profile = llc::cost::Profile::load(o.profile);
        } catch (const std::exception& e) {
            throw llc::bench::BadArgument("--profile '" + o.profile + "': " + e.what());
        }
    }
    llc::Group::set_checks(false);
    const MPI_Comm comm = g.native();
    const std::int64_t n = o.n;
    const std::int64_t r = o.r > 0 ? o.r : llc::default_block_size(2, n);

    // The validation case's kind of chain (dimensions uniform in 1 … 100), another seed.
    std::vector<std::int64_t> dims(static_cast<std::size_t>(n) + 1);
    std::mt19937_64 rng(777);
    std::uniform_int_distribution<std::int64_t> dist(1, 100);
    for (auto& d : dims) {
        d = dist(rng);
    }
    const llc::IntervalDpOptions options{.r = r};

    const Rotations rot = rotations(n, r, 2, g.rank());
    const std::size_t steps = rot.send.size();
    const std::int64_t most_sent = steps > 0 ? *std::max_element(rot.send.begin(), rot.send.end()) : 0;
    const std::int64_t most_received = steps > 0 ? *std::max_element(rot.recv.begin(), rot.recv.end()) : 0;
    llc::HugePageMemory send_memory(static_cast<std::size_t>(std::max<std::int64_t>(most_sent, 1)) * 8);
    llc::HugePageMemory recv_memory(static_cast<std::size_t>(std::max<std::int64_t>(most_received, 1)) * 8);
    constexpr std::size_t evict_bytes = std::size_t{64} << 20;
    llc::HugePageMemory evict_memory(evict_bytes);
    auto* send = static_cast<std::int64_t*>(send_memory.data());
    auto* recv = static_cast<std::int64_t*>(recv_memory.data());
    std::memset(send_memory.data(), 1, send_memory.size());
    std::memset(recv_memory.data(), 1, recv_memory.size());
    std::memset(evict_memory.data(), 1, evict_memory.size());
    // As llc-probe's own buffers for a shift of h = 2·half (CollectiveBench::own_buffers(half, half)).
    const auto doubles = [](std::int64_t entries) {
        return static_cast<std::size_t>(std::max<std::int64_t>(entries, 1));
    };
    llc::tools::TwoBuffers<double> probe_buffers(
        doubles(most_sent), doubles(most_received), 1.0, 0.0, llc::tools::Contents::payload);
    auto* probe_send = reinterpret_cast<std::int64_t*>(probe_buffers.a().data());
    auto* probe_recv = reinterpret_cast<std::int64_t*>(probe_buffers.b().data());

    Series engine_w(steps);
    Series engine_comm(steps);
    Series hot(steps);
    Series written(steps);
    Series evicted(steps);
    Series probe_written(steps);
    std::vector<double> engine_total;
    std::vector<double> predicted_w(steps, 0.0);
    std::vector<double> predicted_comm(steps, 0.0);
    std::vector<double> bytes(steps, 0.0);
    for (int rep = 0; rep < o.repeat; ++rep) {
        // The engine, traced.
        llc::Trace::enable(true);
        MPI_Barrier(comm);
        const double t0 = MPI_Wtime();
        const llc::MatrixChainResult result = llc::matrix_chain(g, dims, options);
        engine_total.push_back(slowest(comm, MPI_Wtime() - t0));
        const llc::Trace trace = llc::Trace::gather(g);
        llc::Trace::enable(false);
        if (g.rank() == 0) {
            std::size_t d = 0;
            for (const llc::TraceNode& node : trace.merged().children) {
                if (node.label == llc::names::matrix_chain::rotate && d < steps) {
                    engine_w[d].push_back(node.compute);
                    engine_comm[d].push_back(node.comm);
                    bytes[d] = static_cast<double>(node.bytes);
                    ++d;
                }
            }
            if (rep == 0 && profile) {
                const llc::cost::Expr expr = llc::cost::matrix_chain(2, n, result.r, *profile);
                const auto model = llc::cost::make_model("ccm", *profile);
                const llc::cost::Comparison c = llc::cost::compare(trace.merged(), expr, *model);
                std::size_t k = 0;
                const auto visit = [&](const auto& self, const llc::cost::ComparisonNode& node) -> void {
                    if (node.label == llc::names::matrix_chain::rotate && node.kind == "normal" && k < steps) {
                        predicted_w[k] = node.predicted_compute;
                        predicted_comm[k] = node.predicted_comm;
                        ++k;
                    }
                    for (const llc::cost::ComparisonNode& child : node.children) {
                        self(self, child);
                    }
                };
                visit(visit, c.root);
            }
        }
        // The same rotations alone, each in three cache states.
        for (std::size_t d = 0; d < steps; ++d) {
            const std::span<const std::int64_t> out(send, static_cast<std::size_t>(rot.send[d]));
            const std::span<std::int64_t> in(recv, static_cast<std::size_t>(rot.recv[d]));
            g.shift(out, in);  // untimed: the buffers as the last shift left them
            MPI_Barrier(comm);
            double t = MPI_Wtime();
            g.shift(out, in);
            hot[d].push_back(slowest(comm, MPI_Wtime() - t));

            std::memset(send, rep + static_cast<int>(d), out.size_bytes());
            MPI_Barrier(comm);
            t = MPI_Wtime();
            g.shift(out, in);
            written[d].push_back(slowest(comm, MPI_Wtime() - t));

            std::memset(send, rep + static_cast<int>(d) + 1, out.size_bytes());
            std::memset(evict_memory.data(), rep + static_cast<int>(d), evict_bytes);
            MPI_Barrier(comm);
            t = MPI_Wtime();
            g.shift(out, in);
            evicted[d].push_back(slowest(comm, MPI_Wtime() - t));

            const std::span<const std::int64_t> probe_out(probe_send, out.size());
            const std::span<std::int64_t> probe_in(probe_recv, in.size());
            std::memset(probe_send, rep + static_cast<int>(d) + 2, out.size_bytes());
            MPI_Barrier(comm);
            t = MPI_Wtime();
            g.shift(probe_out, probe_in);
            probe_written[d].push_back(slowest(comm, MPI_Wtime() - t));
        }
    }
    const auto huge_kb = [](const void* p) {
        const auto [size, huge] = llc::test::mapping_kb(p);
        return std::to_string(huge) + " of " + std::to_string(size) + " kB";
    };
    const std::string pages = "engine-kind send " + huge_kb(send) + ", receive " + huge_kb(recv) +
                              "; probe's buffers (their mapping) " + huge_kb(probe_send);
    if (g.rank() != 0) {
        return 0;
    }
    const double ms = 1e3;
    std::printf("llc-bench-mc-ring: n = %lld, r = %lld, P = 2, %zu rotations, medians of %d repetitions (ms)\n",
                static_cast<long long>(n),
                static_cast<long long>(r),
                steps,
                o.repeat);
    std::printf("compiled with: %s\n", llc::build_flags);
    std::printf("  engine run (slowest rank)             %10.3f\n", median(engine_total) * ms);
    std::printf("  engine W before the rotations         %10.3f\n", median(sums(engine_w, o.repeat)) * ms);
    std::printf("  engine rotations (merged trace)       %10.3f\n", median(sums(engine_comm, o.repeat)) * ms);
    std::printf("  replayed: hot / written / evicted     %10.3f / %.3f / %.3f\n",
                median(sums(hot, o.repeat)) * ms,
                median(sums(written, o.repeat)) * ms,
                median(sums(evicted, o.repeat)) * ms);
    std::printf("  replayed: written, probe's buffers    %10.3f\n", median(sums(probe_written, o.repeat)) * ms);
    std::printf("  huge pages (rank 0): %s\n", pages.c_str());
    if (profile) {
        const auto bsp = llc::cost::make_model("bsp", *profile);
        const auto ccm = llc::cost::make_model("ccm", *profile);
        double bsp_comm = 0.0;
        double shift_comm = 0.0;
        for (std::size_t d = 0; d < steps; ++d) {
            bsp_comm += bsp->collective("shift", 2, bytes[d]).seconds;
            shift_comm += ccm->collective("shift", 2, bytes[d]).seconds;
        }
        double w = 0.0;
        double c = 0.0;
        for (std::size_t d = 0; d < steps; ++d) {
            w += predicted_w[d];
            c += predicted_comm[d];
        }
        std::printf("  CCM: W %.3f, rotations %.3f (as the profile's shift: %.3f); BSP rotations %.3f\n",
                    w * ms,
                    c * ms,
                    shift_comm * ms,
                    bsp_comm * ms);
    }
    if (o.steps) {
        std::printf("\n   d        h (B)   W meas   W pred   engine      hot  written  evicted    probe     pred\n");
        for (std::size_t d = 0; d < steps; ++d) {
            std::printf("%4zu %12.0f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f\n",
                        d + 1,
                        bytes[d],
                        median(engine_w[d]) * ms,
                        predicted_w[d] * ms,
                        median(engine_comm[d]) * ms,
                        median(hot[d]) * ms,
                        median(written[d]) * ms,
                        median(evicted[d]) * ms,
                        median(probe_written[d]) * ms,
                        predicted_comm[d] * ms);
        }
        std::printf("sums of the per-step medians: engine %.3f, hot %.3f, written %.3f, evicted %.3f, probe %.3f\n",
                    sum_of_medians(engine_comm) * ms,
                    sum_of_medians(hot) * ms,
                    sum_of_medians(written) * ms,
                    sum_of_medians(evicted) * ms,
                    sum_of_medians(probe_written) * ms);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
