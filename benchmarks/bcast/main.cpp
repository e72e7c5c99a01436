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
// pays the same overhead. Exit status 2 on a bad argument.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/cost/seidel.hpp>
#include <llc/llc.hpp>
#include <llc/version.hpp>

namespace {

struct Options {
    std::size_t min_bytes = 8;
    std::size_t max_bytes = std::size_t{1} << 24;
    double seconds = 0.3;
    int root = 0;
};

bool parse(int argc, char** argv, Options& o, std::string& error) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (i + 1 >= argc) {
            error = "missing value after " + arg;
            return false;
        }
        const std::string value = argv[++i];
        char* end = nullptr;
        if (arg == "--min" || arg == "--max") {
            const unsigned long long v = std::strtoull(value.c_str(), &end, 10);
            if (*end != '\0' || v == 0 || v > (1ULL << 30)) {
                error = arg + " must be a byte count in [1, 2^30], got '" + value + "'";
                return false;
            }
            (arg == "--min" ? o.min_bytes : o.max_bytes) = static_cast<std::size_t>(v);
        } else if (arg == "--seconds") {
            o.seconds = std::strtod(value.c_str(), &end);
            if (*end != '\0' || !(o.seconds > 0.0) || o.seconds > 60.0) {
                error = "--seconds must be in (0, 60], got '" + value + "'";
                return false;
            }
        } else if (arg == "--root") {
            o.root = static_cast<int>(std::strtol(value.c_str(), &end, 10));
            if (*end != '\0') {
                error = "--root must be an integer, got '" + value + "'";
                return false;
            }
        } else {
            error = "unknown argument '" + arg + "' (use --min, --max, --seconds, --root)";
            return false;
        }
    }
    if (o.min_bytes > o.max_bytes) {
        error = "--min must not exceed --max";
        return false;
    }
    return true;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv, {.keep_freed_memory = true});  // the cost model assumes freed memory is reused
    llc::Group& g = llc::Group::world();
    Options o;
    std::string error;
    if (!parse(argc, argv, o, error) || o.root < 0 || o.root >= g.size()) {
        if (g.rank() == 0) {
            std::fprintf(stderr, "llc-bench-bcast: %s\n", error.empty() ? "--root must be a rank" : error.c_str());
        }
        return 2;
    }
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
    for (std::size_t bytes = o.min_bytes; bytes <= o.max_bytes; bytes *= 2) {
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
