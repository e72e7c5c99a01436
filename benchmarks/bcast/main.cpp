// llc-bench-bcast: median time of Seidel's broadcasts (llc::bcast with Bcast::binomial, bidirectional,
// recursive_halving) against MPI_Bcast (Bcast::mpi), for message sizes from --min to --max bytes (powers of two).
//
// Run:   mpirun -np 2 build/bin/llc-bench-bcast [--min 8] [--max 16777216] [--seconds 0.3] [--root 0]
//
// One sample is the paper's broadcast time (§3): after a barrier every processor times its own llc::bcast, and the
// sample is the maximum over processors (the last one to hold the message). For each size the algorithms are run in
// turn, round-robin, until each has --seconds of samples (at least 5, at most 1000); the table shows medians in µs, the
// ratio to MPI_Bcast, the algorithm the default chooser of Bcast::automatic names, and the prediction of the paper's
// formulas at the default constants. Agreement checks are off while timing (as with LLC_CHECKS=0), so every column
// pays the same overhead. --help lists the options; exit status 2 on a bad argument (on every rank).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/bench/command_line.hpp>
#include <llc/cost/seidel.hpp>
#include <llc/llc.hpp>
#include <llc/version.hpp>

namespace {

struct Options {
    std::int64_t min_bytes = 8;
    std::int64_t max_bytes = std::int64_t{1} << 24;
    double seconds = 0.3;
    int root = 0;
};

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-bcast");
    const auto bytes_option = [](const char* option) {
        return llc::bench::in_range<std::int64_t>(option, 1, std::int64_t{1} << 30, "a byte count");
    };
    c.add()("min",
            po::value(&o.min_bytes)->default_value(o.min_bytes)->notifier(bytes_option("--min")),
            "smallest message (bytes; the sizes double up to --max)")(
        "max", po::value(&o.max_bytes)->default_value(o.max_bytes)->notifier(bytes_option("--max")), "largest message")(
        "seconds",
        po::value(&o.seconds)
            ->default_value(o.seconds, "0.3")
            ->notifier(
                llc::bench::require<double>("--seconds", "in (0, 60]", [](double s) { return s > 0.0 && s <= 60.0; })),
        "samples per algorithm and size, in seconds of broadcasts (at least 5, at most 1000 samples)")(
        "root", po::value(&o.root)->default_value(o.root), "the broadcast's root");
    c.add_check([&o](const llc::Group& world) {
        if (o.min_bytes > o.max_bytes) {
            throw llc::bench::BadArgument(llc::bench::bad_value(
                "--min", "at most --max (" + std::to_string(o.max_bytes) + ")", std::to_string(o.min_bytes)));
        }
        llc::bench::in_range("--root", 0, world.size() - 1, "a rank")(o.root);
    });
    return c;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/// The measurement, on the options checked.
int measure(llc::Group& g, const Options& o) {
    llc::Group::set_checks(false);
    const llc::Bcast algorithms[] = {
        llc::Bcast::mpi, llc::Bcast::binomial, llc::Bcast::bidirectional, llc::Bcast::recursive_halving};
    constexpr int A = 4;
    const int P = g.size();
    if (g.rank() == 0) {
        std::printf(
            "llc-bench-bcast: P = %d, root = %d, median of max-over-ranks time per broadcast, %.2f s per cell\n",
            P,
            o.root,
            o.seconds);
        std::printf("compiled with: %s\n", llc::build_flags);  // the timings depend on it (-march=native or not)
        std::printf("%10s %10s %10s %10s %10s | %6s %6s %6s | %-17s | %s\n",
                    "bytes",
                    "mpi_us",
                    "st_us",
                    "bst_us",
                    "rh_us",
                    "st/mpi",
                    "bst/mpi",
                    "rh/mpi",
                    "automatic(default)",
                    "predicted st/bst/rh us (default constants)");
    }
    for (auto bytes = static_cast<std::size_t>(o.min_bytes); bytes <= static_cast<std::size_t>(o.max_bytes);
         bytes *= 2) {
        std::vector<unsigned char> data(bytes, static_cast<unsigned char>(g.rank() == o.root ? 1 : 0));
        std::vector<std::vector<double>> samples(A);
        double spent[A] = {0, 0, 0, 0};
        for (int a = 0; a < A; ++a) {  // warm-up
            llc::bcast(g, std::span<unsigned char>(data), o.root, algorithms[a]);
        }
        for (int rep = 0;; ++rep) {
            bool done = true;
            for (int a = 0; a < A; ++a) {
                done = done && samples[static_cast<std::size_t>(a)].size() >= 5 &&
                       (spent[a] >= o.seconds || samples[static_cast<std::size_t>(a)].size() >= 1000);
            }
            // Every rank must agree on stopping: rank 0 decides.
            int stop = done ? 1 : 0;
            MPI_Bcast(&stop, 1, MPI_INT, 0, g.native());
            if (stop != 0) {
                break;
            }
            for (int k = 0; k < A; ++k) {
                const int a = (k + rep) % A;  // rotate the order so drift hits every algorithm alike
                MPI_Barrier(g.native());
                const double t0 = MPI_Wtime();
                llc::bcast(g, std::span<unsigned char>(data), o.root, algorithms[a]);
                double t = MPI_Wtime() - t0;
                MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, g.native());
                samples[static_cast<std::size_t>(a)].push_back(t);
                spent[a] += t;
            }
        }
        if (std::count(data.begin(), data.end(), 1) != static_cast<long>(bytes)) {
            std::fprintf(stderr, "llc-bench-bcast: wrong data on rank %d at %zu bytes\n", g.rank(), bytes);
            return 1;
        }
        if (g.rank() == 0) {
            double med[A];
            for (int a = 0; a < A; ++a) {
                med[a] = median(samples[static_cast<std::size_t>(a)]) * 1e6;
            }
            namespace sd = llc::cost::seidel;
            const auto predict = [&](llc::Bcast alg) {
                return sd::predicted_seconds(alg,
                                             P,
                                             bytes,
                                             llc::default_bcast_startup,
                                             llc::default_bcast_per_byte,
                                             llc::default_bcast_copy_per_byte) *
                       1e6;
            };
            std::printf("%10zu %10.2f %10.2f %10.2f %10.2f | %6.2f %6.2f %6.2f | %-17s | %.2f / %.2f / %.2f\n",
                        bytes,
                        med[0],
                        med[1],
                        med[2],
                        med[3],
                        med[1] / med[0],
                        med[2] / med[0],
                        med[3] / med[0],
                        std::string(llc::to_string(llc::default_bcast_choice(P, bytes))).c_str(),
                        predict(llc::Bcast::binomial),
                        predict(llc::Bcast::bidirectional),
                        predict(llc::Bcast::recursive_halving));
            std::fflush(stdout);
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
