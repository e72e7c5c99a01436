// llc-bench-collective-modes: where a collective's slow samples in the llc tools come from (issue #32). The same
// collective of the same size, timed in visits as llc-validate times a point (a fresh instance's buffers, a warm-up
// call, samples back to back, then a sleepy world-wide step), by several harnesses interleaved visit by visit in one
// process, so that each differs from the next by one ingredient:
//   raw        MPI_Reduce / MPI_Allreduce / MPI_Bcast on a duplicate of MPI_COMM_WORLD: barrier, the timed call, an
//              allreduce of the slowest rank's time (no canary);
//   canary     the same call timed by tools::time_sample (the canaries before the barrier, as every tool samples);
//   group      llc::Group's collective (its agreement check, the trace hook), timed by tools::time_sample;
//   unchecked  the same with the agreement checks off (Group::set_checks(false)) during the visit;
//   kept       as group, on one pair of buffers made at the start and kept (as llc-probe's), not a fresh pair a visit;
//   huge       as group, on a fresh pair a visit on a mapping of its own (llc::HugePageMemory: huge pages where the
//              kernel grants them), the second buffer 2 KiB past a 4 KiB boundary as in tools::TwoBuffers.
// Per harness: the median, 10th and 90th percentiles of every sample, the spread of the visits' medians, the share of
// samples the CPU canary marks disturbed (> canary_tolerance × the fastest), and the visits whose median exceeds 1.3×
// the harness's fastest visit median. Process-wide ingredients are switched from outside, run against run:
// LLC_KEEP_FREED_MEMORY=0 (glibc's default allocator), OMPI_MCA_op=^avx (Open MPI's reductions without AVX).
//
// Ops: reduce, allreduce, bcast (root 0), swap (MPI_Sendrecv between the two ranks / Group::swap).
//
// What it showed on the 2-core VM (2026-11-27, 05:13-05:17 UTC, the machine loaded 19-22 by other sessions' builds:
// ratios between harnesses of one run only), medians (p10) in µs:
//   reduce 64 B, 30 visits of 60: raw 0.23 (0.09), canary 0.23 (0.17), group 0.74 (0.60), unchecked 0.44 (0.31);
//   allreduce 64 B: raw 0.32, canary 0.33, group 0.86, unchecked 0.51 — the agreement check's allreduce is ~0.4 µs
//   of the 0.7-0.9 µs, and Group's entry with the checks off still ~0.2 µs over the raw call; the canaries cost the
//   timed call nothing. Neither run showed two modes (at that load every harness had slow visits).
//   swap 1 MiB each way, 20 visits of 8, two runs: heap buffers (fresh or kept) 148-191 (90-119) and 117-136
//   (77-86), huge 60 (44) and 54 (40); bcast 1 MiB: heap 76-131 (51-71), huge 44 (33); swap 92680 B: heap 7.8-8.8,
//   huge 7.5 — a message's page kind moves a 1 MiB collective by 2-2.5x here, and a tool whose buffers' page kind
//   follows its heap's history (llc-probe's and llc-validate's tools::TwoBuffers are std::vectors on the heap) measures
//   that history.
//
// Run:   mpirun -np 2 build/bin/llc-bench-collective-modes [--op reduce] [--bytes 64] [--visits 40] [--samples 40]
// --help lists the options; exit status 2 on a bad argument (on every rank).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/bench/command_line.hpp>
#include <llc/huge_pages.hpp>
#include <llc/llc.hpp>
#include <llc/tools/buffers.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

namespace {

using llc::tools::Sample;

struct Options {
    std::string op = "reduce";
    std::int64_t bytes = 64;
    int visits = 40;
    int samples = 40;
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-collective-modes", 2);
    const std::int64_t most_bytes = std::int64_t{1} << 28;
    c.add()("op",
            po::value(&o.op)->default_value(o.op)->notifier(
                llc::bench::one_of("--op", {"reduce", "allreduce", "bcast", "swap"})),
            "the collective")("bytes",
                              po::value(&o.bytes)->default_value(o.bytes)->notifier(llc::bench::require<std::int64_t>(
                                  "--bytes",
                                  "a multiple of 8 in " + llc::bench::range_text(8, most_bytes),
                                  [most_bytes](std::int64_t v) { return v >= 8 && v <= most_bytes && v % 8 == 0; })),
                              "the message (bytes; doubles)")(
        "visits",
        po::value(&o.visits)->default_value(o.visits)->notifier(llc::bench::in_range("--visits", 1, 100000)),
        "visits per harness")(
        "samples",
        po::value(&o.samples)->default_value(o.samples)->notifier(llc::bench::in_range("--samples", 1, 100000)),
        "samples per visit");
    return c;
}

enum Harness { raw, canary, group, unchecked, kept, huge, harnesses };
const char* const harness_names[harnesses] = {"raw", "canary", "group", "unchecked", "kept", "huge"};

/// The slowest rank's seconds of one call after a barrier, without canaries.
Sample raw_sample(MPI_Comm comm, const std::function<void()>& body) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    body();
    double seconds = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    return {seconds, {}};
}

struct Tally {
    std::vector<double> all;
    std::vector<double> slow_canary;  // the samples whose CPU canary marks them disturbed
    std::vector<double> visit_medians;
    int disturbed = 0;
};

/// The measurement, on the options checked.
int measure(llc::Group& world, const Options& o) {
    MPI_Comm raw_comm = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &raw_comm);
    const auto count = static_cast<std::size_t>(o.bytes / 8);
    llc::tools::SpeedReference speed;
    speed.calibrate(world.native());
    std::vector<Tally> tally(harnesses);
    std::vector<int> order;
    for (int v = 0; v < o.visits; ++v) {
        for (int h = 0; h < harnesses; ++h) {
            order.push_back(h);
        }
    }
    std::mt19937_64 rng(20261127);  // the same order on every rank
    std::shuffle(order.begin(), order.end(), rng);
    llc::tools::TwoBuffers<double> kept_buffers(count, count, 1.0, 0.0, llc::tools::Contents::payload);
    const int partner = world.rank() ^ 1;
    for (const int h : order) {
        // A fresh instance's buffers, as llc-validate prepares one per visit (or the kept pair).
        llc::tools::TwoBuffers<double> fresh(
            h == kept || h == huge ? 1 : count, h == kept || h == huge ? 1 : count, 1.0, 0.0);
        llc::tools::TwoBuffers<double>& buffers = h == kept ? kept_buffers : fresh;
        std::span<double> a = buffers.a();
        std::span<double> b = buffers.b();
        llc::HugePageMemory mapping;
        if (h == huge) {
            const std::size_t b_at = (count * 8 + 4095) / 4096 * 4096 + 2048;
            mapping = llc::HugePageMemory(b_at + count * 8);
            auto* base = static_cast<unsigned char*>(mapping.data());
            std::memset(base, 1, mapping.size());  // the first touch, as TwoBuffers fills its vector
            a = {reinterpret_cast<double*>(base), count};
            b = {reinterpret_cast<double*>(base + b_at), count};
        }
        std::function<void()> body;
        if (h == raw || h == canary) {
            if (o.op == "reduce") {
                body = [&] {
                    MPI_Reduce(a.data(), b.data(), static_cast<int>(count), MPI_DOUBLE, MPI_SUM, 0, raw_comm);
                };
            } else if (o.op == "allreduce") {
                body = [&] {
                    MPI_Allreduce(a.data(), b.data(), static_cast<int>(count), MPI_DOUBLE, MPI_SUM, raw_comm);
                };
            } else if (o.op == "swap") {
                body = [&] {
                    MPI_Sendrecv(a.data(),
                                 static_cast<int>(count),
                                 MPI_DOUBLE,
                                 partner,
                                 7301,
                                 b.data(),
                                 static_cast<int>(count),
                                 MPI_DOUBLE,
                                 partner,
                                 7301,
                                 raw_comm,
                                 MPI_STATUS_IGNORE);
                };
            } else {
                body = [&] { MPI_Bcast(a.data(), static_cast<int>(count), MPI_DOUBLE, 0, raw_comm); };
            }
        } else if (o.op == "reduce") {
            body = [&] { world.reduce(std::span<const double>(a), b, llc::Op::sum, 0); };
        } else if (o.op == "allreduce") {
            body = [&] { world.allreduce(std::span<const double>(a), b, llc::Op::sum); };
        } else if (o.op == "swap") {
            body = [&] { world.swap(partner, std::span<const double>(a), b); };
        } else {
            body = [&] { world.bcast(a, 0); };
        }
        llc::Group::set_checks(h != unchecked);
        const MPI_Comm comm = h == raw || h == canary ? raw_comm : world.native();
        body();  // the warm-up
        std::vector<double> visit;
        for (int s = 0; s < o.samples; ++s) {
            const Sample sample = h == raw ? raw_sample(comm, body) : llc::tools::time_sample(comm, 1, body);
            if (h != raw) {
                speed.see(sample.canary);
                if (!speed.undisturbed(sample.canary)) {
                    ++tally[static_cast<std::size_t>(h)].disturbed;
                    tally[static_cast<std::size_t>(h)].slow_canary.push_back(sample.seconds);
                }
            }
            visit.push_back(sample.seconds);
        }
        llc::Group::set_checks(true);
        auto& t = tally[static_cast<std::size_t>(h)];
        t.all.insert(t.all.end(), visit.begin(), visit.end());
        t.visit_medians.push_back(llc::tools::median(visit));
        llc::tools::sleepy_barrier(world.native());  // the end of a visit, as llc-validate's
    }
    if (world.rank() == 0) {
        std::printf("%s of %lld B at P = %d: %d visits of %d samples per harness, interleaved (us)\n",
                    o.op.c_str(),
                    static_cast<long long>(o.bytes),
                    world.size(),
                    o.visits,
                    o.samples);
        std::printf("%-10s %9s %9s %9s  %9s %9s %9s  %10s %11s  %s\n",
                    "harness",
                    "median",
                    "p10",
                    "p90",
                    "visit min",
                    "visit med",
                    "visit max",
                    "disturbed",
                    "slow visits",
                    "disturbed median");
        for (int h = 0; h < harnesses; ++h) {
            const Tally& t = tally[static_cast<std::size_t>(h)];
            const double fastest = *std::min_element(t.visit_medians.begin(), t.visit_medians.end());
            const auto slow = std::count_if(
                t.visit_medians.begin(), t.visit_medians.end(), [&](double m) { return m > 1.3 * fastest; });
            std::printf("%-10s %9.3f %9.3f %9.3f  %9.3f %9.3f %9.3f  %9.1f%% %5ld of %3zu  %9.3f\n",
                        harness_names[h],
                        1e6 * llc::tools::median(t.all),
                        1e6 * llc::tools::quantile(t.all, 0.1),
                        1e6 * llc::tools::quantile(t.all, 0.9),
                        1e6 * fastest,
                        1e6 * llc::tools::median(t.visit_medians),
                        1e6 * *std::max_element(t.visit_medians.begin(), t.visit_medians.end()),
                        100.0 * t.disturbed / static_cast<double>(t.all.size()),
                        static_cast<long>(slow),
                        t.visit_medians.size(),
                        t.slow_canary.empty() ? 0.0 : 1e6 * llc::tools::median(t.slow_canary));
        }
    }
    MPI_Comm_free(&raw_comm);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
