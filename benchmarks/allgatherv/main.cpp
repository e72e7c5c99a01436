// llc-bench-allgatherv: where llc::Group::allgatherv's time goes, against Group::allgather of the same total bytes.
// Every variant is timed at every size in one process, interleaved sample by sample in a shuffled order (the same on
// every rank), each sample a barrier, one call (or --batch calls back to back, their mean), and the slowest rank's
// seconds (MPI_MAX):
//   ag        Group::allgather of total/P bytes a rank (its agreement check included: llc::Agreement, one
//             MPI_Allreduce of a small record with a user-defined operation);
//   agv       Group::allgatherv of the same blocks (the counts exchange, an MPI_Allgather of one int, then
//             MPI_Allgatherv);
//   agv-skew  Group::allgatherv of the same total split unevenly (rank r sends a share ∝ r + 1);
//   ag-double, agv-double  ag and agv on doubles (MPI_DOUBLE, as symv's x), the total rounded down to 8 B a rank;
//   ag-written, agv-written  ag and agv of a block each rank stores to right before the sample (untimed, before the
//             barrier): its lines dirty in the sender's cache, as a caller's freshly computed vector;
//   mpi-ag    MPI_Allgather on a duplicate of the world communicator, into a kept buffer;
//   mpi-agv   MPI_Allgatherv with the counts known, into a kept buffer;
//   counts    MPI_Allgather of one int (the counts exchange alone);
//   check     an MPI_Allreduce of two long longs with MPI_MAX (about the size of allgather's agreement check).
// Open MPI's choice of algorithm is switched from outside, run against run (OMPI_MCA_coll_tuned_use_dynamic_rules=1
// OMPI_MCA_coll_tuned_allgatherv_algorithm=N).
//
// Run:   mpirun -np 2 build/bin/llc-bench-allgatherv [--samples 101] [--batch 1] [--min-bytes 16] [--max-bytes 4194304]
// (total sizes from --min-bytes, doubling up to --max-bytes)
// Prints one line per total size: the median µs of every variant and agv / ag. --help lists the options; exit status 2
// on a bad argument (on every rank).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/bench/command_line.hpp>
#include <llc/llc.hpp>

namespace {

enum Variant {
    ag,
    agv,
    agv_skew,
    ag_double,
    agv_double,
    ag_written,
    agv_written,
    mpi_ag,
    mpi_agv,
    counts,
    check,
    variants
};
const char* const variant_names[variants] = {"ag",
                                             "agv",
                                             "agv-skew",
                                             "ag-double",
                                             "agv-double",
                                             "ag-written",
                                             "agv-written",
                                             "mpi-ag",
                                             "mpi-agv",
                                             "counts",
                                             "check"};

double slowest_seconds(MPI_Comm comm,
                       int batch,
                       const std::function<void()>& prepare,
                       const std::function<void()>& body) {
    if (prepare) {
        prepare();
    }
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int c = 0; c < batch; ++c) {
        body();
    }
    double seconds = (MPI_Wtime() - start) / batch;
    MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, comm);
    return seconds;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct Options {
    int samples = 101;
    int batch = 1;
    std::int64_t min_bytes = 16;
    std::int64_t max_bytes = std::int64_t{4} << 20;
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-allgatherv");
    const std::int64_t most_bytes = std::int64_t{1} << 28;
    c.add()("samples",
            po::value(&o.samples)->default_value(o.samples)->notifier(llc::bench::in_range("--samples", 1, 100000)),
            "samples of every variant at every size")(
        "batch",
        po::value(&o.batch)->default_value(o.batch)->notifier(llc::bench::in_range("--batch", 1, 1000)),
        "calls a sample, back to back (their mean)")(
        "min-bytes",
        po::value(&o.min_bytes)
            ->default_value(o.min_bytes)
            ->notifier(llc::bench::in_range<std::int64_t>("--min-bytes", 1, most_bytes, "a byte count")),
        "the smallest total size (rounded to whole doubles on every rank)")(
        "max-bytes",
        po::value(&o.max_bytes)
            ->default_value(o.max_bytes)
            ->notifier(llc::bench::in_range<std::int64_t>("--max-bytes", 1, most_bytes, "a byte count")),
        "the largest total size (sizes double from --min-bytes)");
    return c;
}

int measure(llc::Group& world, const Options& o) {
    const int samples = o.samples;
    const int batch = o.batch;
    const long long max_bytes = o.max_bytes;
    long long min_bytes = o.min_bytes;
    const int p = world.size();
    const int r = world.rank();
    min_bytes = std::max<long long>(min_bytes / (8 * p) * 8 * p, 8 * p);  // whole doubles on every rank
    MPI_Comm raw = MPI_COMM_NULL;
    MPI_Comm_dup(MPI_COMM_WORLD, &raw);
    std::mt19937_64 rng(20261127);  // the same order on every rank
    if (r == 0) {
        std::printf("%10s", "total B");
        for (const char* name : variant_names) {
            std::printf(" %10s", name);
        }
        std::printf(" %8s\n", "agv/ag");
    }
    for (long long total = min_bytes; total <= max_bytes; total *= 2) {
        const auto part = static_cast<std::size_t>(total / p);
        // Rank q's share of the uneven split: (q + 1) / (p (p + 1) / 2) of the total, the rest on the last rank.
        std::vector<int> skew_counts(static_cast<std::size_t>(p));
        long long given = 0;
        for (int q = 0; q < p; ++q) {
            skew_counts[static_cast<std::size_t>(q)] =
                q + 1 == p ? static_cast<int>(total - given) : static_cast<int>(total * (q + 1) / (p * (p + 1) / 2));
            given += skew_counts[static_cast<std::size_t>(q)];
        }
        std::vector<int> even_counts(static_cast<std::size_t>(p), static_cast<int>(part));
        std::vector<int> displs(static_cast<std::size_t>(p), 0);
        for (int q = 1; q < p; ++q) {
            displs[static_cast<std::size_t>(q)] = displs[static_cast<std::size_t>(q - 1)] + static_cast<int>(part);
        }
        const std::vector<unsigned char> send(static_cast<std::size_t>(skew_counts[static_cast<std::size_t>(r)]) + part,
                                              static_cast<unsigned char>(r + 1));
        std::vector<unsigned char> recv(static_cast<std::size_t>(total), 0);
        std::vector<unsigned char> result;
        std::vector<double> result_double;
        const std::vector<double> send_double(part / 8, 1.0 + r);
        std::vector<unsigned char> written(part, 0);
        const std::span<const unsigned char> fresh(written.data(), part);
        unsigned char stamp = 0;
        const std::function<void()> write = [&] {
            stamp = static_cast<unsigned char>(stamp + 1);
            std::memset(written.data(), stamp, written.size());
        };
        const std::span<const unsigned char> mine(send.data(), part);
        const std::span<const unsigned char> skewed(send.data(), static_cast<std::size_t>(skew_counts[r]));
        int one = 1;
        std::vector<int> got(static_cast<std::size_t>(p));
        long long pair[2] = {total, r};
        const std::function<void()> bodies[variants] = {
            [&] { result = world.allgather(mine); },
            [&] { result = world.allgatherv(mine); },
            [&] { result = world.allgatherv(skewed); },
            [&] { result_double = world.allgather(std::span<const double>(send_double)); },
            [&] { result_double = world.allgatherv(std::span<const double>(send_double)); },
            [&] { result = world.allgather(fresh); },
            [&] { result = world.allgatherv(fresh); },
            [&] {
                MPI_Allgather(
                    mine.data(), static_cast<int>(part), MPI_BYTE, recv.data(), static_cast<int>(part), MPI_BYTE, raw);
            },
            [&] {
                MPI_Allgatherv(mine.data(),
                               static_cast<int>(part),
                               MPI_BYTE,
                               recv.data(),
                               even_counts.data(),
                               displs.data(),
                               MPI_BYTE,
                               raw);
            },
            [&] { MPI_Allgather(&one, 1, MPI_INT, got.data(), 1, MPI_INT, raw); },
            [&] {
                long long out[2];
                MPI_Allreduce(pair, out, 2, MPI_LONG_LONG, MPI_MAX, raw);
            },
        };
        std::vector<int> order;
        for (int s = 0; s < samples; ++s) {
            for (int v = 0; v < variants; ++v) {
                order.push_back(v);
            }
        }
        std::shuffle(order.begin(), order.end(), rng);
        for (int v = 0; v < variants; ++v) {
            bodies[v]();  // warm-up
        }
        std::vector<std::vector<double>> seconds(variants);
        for (const int v : order) {
            seconds[static_cast<std::size_t>(v)].push_back(
                slowest_seconds(v < mpi_ag ? world.native() : raw,
                                batch,
                                v == ag_written || v == agv_written ? write : std::function<void()>{},
                                bodies[v]));
        }
        if (r == 0) {
            std::printf("%10lld", total);
            double m[variants];
            for (int v = 0; v < variants; ++v) {
                m[v] = median(seconds[static_cast<std::size_t>(v)]) * 1e6;
                std::printf(" %10.2f", m[v]);
            }
            std::printf(" %8.2f\n", m[agv] / m[ag]);
            std::fflush(stdout);
        }
    }
    MPI_Comm_free(&raw);
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
