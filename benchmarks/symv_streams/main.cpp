// llc-bench-symv-streams: the reflection product's passes (symv_kernels.hpp) on one rank while the others sleep,
// beside the same passes on every rank at once, step by step as the product's lockstep runs them, and beside the
// product itself — what a kernel probe timed on one core, or on the cores unsynchronised, does not see when every
// core streams its share of the matrix at once.
//
// Run:   mpirun -np 2 build/bin/llc-bench-symv-streams [--sizes 1536,3072,6144,12288] [--repeat 15]
//
// For each n (default: the sizes the symv probes run at P = 2, 3 · 2^e, none of them validated), this rank's share
// of the reflection layout is stored twice: in a std::vector (the heap, as SymmetricMatrix stores it) and on a
// mapping of its own advised for huge pages (llc::HugePageMemory). Every repetition times, in an order that turns
// from one repetition to the next:
//   alone     each rank in turn runs all its passes (every step, the diagonal blocks) while the others sleep;
//   together  after a barrier, every rank runs all its passes at once: the slowest rank's time;
//   steps     the same, with a barrier before every step (the product's shifts): the sum over the steps of the
//             slowest rank's step;
//   product   llc::symv on a SymmetricMatrix of the same n (the heap), after a barrier: the slowest rank's time;
//   probe     the symv.entry_share probe of this size (llc-probe's side-by-side closure), on every rank at once.
// First, the small collectives a product calls that no priced collective holds (the product's llc::Agreement, the
// counts allgather of Group::allgatherv) beside MPI_Barrier and llc's barrier (the profile's "barrier"): batches of
// 100 back-to-back calls, the kinds interleaved, medians of the batches' mean call.
// Printed: medians per off-diagonal packed entry of the busiest rank (the cost function's unit), and the share of
// each store on huge pages (AnonHugePages of its mapping in /proc/self/smaps). --help lists the options; exit status 2
// on a bad argument (on every rank).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <span>
#include <sstream>
#include <string>
#include <time.h>
#include <vector>

#include <mpi.h>

#include <llc/agreement.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/bench/command_line.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/huge_pages.hpp>
#include <llc/llc.hpp>
#include <llc/tools/statistics.hpp>

#include "symv_kernels.hpp"

namespace {

using llc::SymvLayout;
using llc::SymvMapping;
using llc::bench::slowest;

struct Options {
    std::vector<std::int64_t> sizes;
    int repeat = 15;
};

/// --sizes: comma-separated n, each in [16, 40000].
void read_sizes(const std::string& text, std::vector<std::int64_t>& sizes) {
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const long long v = std::strtoll(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < 16 || v > 40000) {
            throw llc::bench::BadArgument(
                llc::bench::bad_value("--sizes", "comma-separated n in " + llc::bench::range_text(16, 40000), item));
        }
        sizes.push_back(v);
    }
    if (sizes.empty()) {
        throw llc::bench::BadArgument(llc::bench::bad_value("--sizes", "at least one n", text));
    }
}

/// The command line, each option with its check.
llc::bench::CommandLine command_line(Options& o) {
    namespace po = boost::program_options;
    llc::bench::CommandLine c("llc-bench-symv-streams");
    c.add()("sizes",
            po::value<std::string>()->default_value("1536,3072,6144,12288")->notifier([&o](const std::string& v) {
                read_sizes(v, o.sizes);
            }),
            "comma-separated n (default: the sizes the symv probes run at P = 2)");
    c.add_repeat(o.repeat, 10000);
    return c;
}

/// AnonHugePages / Rss of the mapping that holds `p` (/proc/self/smaps), or −1 when not found.
double huge_share(const void* p) {
    std::ifstream smaps("/proc/self/smaps");
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::string line;
    bool inside = false;
    double rss = 0.0;
    double huge = 0.0;
    while (std::getline(smaps, line)) {
        unsigned long lo = 0;
        unsigned long hi = 0;
        if (std::sscanf(line.c_str(), "%lx-%lx ", &lo, &hi) == 2 && line.find(':') > line.find('-')) {
            if (inside) {
                break;
            }
            inside = at >= lo && at < hi;
            continue;
        }
        if (inside) {
            double kb = 0.0;
            if (std::sscanf(line.c_str(), "Rss: %lf", &kb) == 1) {
                rss = kb;
            } else if (std::sscanf(line.c_str(), "AnonHugePages: %lf", &kb) == 1) {
                huge = kb;
            }
        }
    }
    return rss > 0.0 ? huge / rss : -1.0;
}

/// This rank's rows of the reflection layout, stored contiguously at `base` (offsets as SymmetricMatrix has them).
struct Share {
    SymvLayout layout;
    int q = 0;
    std::vector<std::int64_t> offsets{0};
    std::vector<double> heap;
    llc::HugePageMemory mapped;
    double* base = nullptr;
    double units = 0.0;
};

void lay_out(Share& s) {
    for (const int b : s.layout.blocks_of(s.q)) {
        const std::int64_t begin = s.layout.block_begin(b);
        const auto rows = static_cast<double>(s.layout.block_size(b));
        s.units += rows * (static_cast<double>(begin) + rows / 2.0);
        for (std::int64_t i = begin; i < s.layout.block_begin(b + 1); ++i) {
            s.offsets.push_back(s.offsets.back() + i + 1);
        }
    }
}

void fill(double* data, std::int64_t count) {
    llc::cost::ProbeValues values(23);  // neither a validation case's seed nor the probes'
    for (std::int64_t k = 0; k < count; ++k) {
        data[k] = values();
    }
}

/// Every pass of this rank's product (steps 1 … P, the diagonal blocks in the last), into fresh partial sums.
double passes(const Share& s, const std::vector<double>& x, int only_step = 0) {
    const int P = s.layout.P();
    const auto row = [&](std::int64_t k) { return s.base + s.offsets[static_cast<std::size_t>(k)]; };
    std::vector<double> mine(static_cast<std::size_t>(s.layout.local_rows(s.q)), 0.0);
    for (int step = 1; step <= P; ++step) {
        if (only_step != 0 && step != only_step) {
            continue;
        }
        const int d = (s.q + step) % P;
        if (step == P) {
            llc::detail::symv::reflection_step<double>(s.layout, s.q, row, x, d, mine, mine);
            llc::detail::symv::reflection_diagonal<double>(s.layout, s.q, row, x, mine);
        } else {
            std::vector<double> gamma(static_cast<std::size_t>(s.layout.local_rows(d)), 0.0);
            llc::detail::symv::reflection_step<double>(s.layout, s.q, row, x, d, gamma, mine);
            mine[0] += gamma[0];
        }
    }
    return mine.empty() ? 0.0 : mine[0];
}

/// Waits for every rank at a barrier without spinning (the sleeping ranks of "alone" must not take a core).
void sleepy_barrier(MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &request);
    int done = 0;
    while (MPI_Test(&request, &done, MPI_STATUS_IGNORE) == MPI_SUCCESS && done == 0) {
        const timespec pause{0, 20000};
        nanosleep(&pause, nullptr);
    }
}

struct Columns {
    std::vector<double> alone, together, steps, product, probe;
};

double med(const std::vector<double>& v) {
    return v.empty() ? -1.0 : llc::tools::median(v);
}

/// Medians of `batches` batches of 100 calls of each small collective, interleaved.
void small_collectives(llc::Group& g, int batches) {
    const MPI_Comm comm = g.native();
    constexpr int kinds = 6;
    std::vector<double> t[kinds];
    const char* names[kinds] = {
        "MPI_Barrier", "llc barrier", "Agreement", "counts allgather", "allgatherv 8 KiB", "allgather 8 KiB"};
    const std::vector<double> part(1024 / static_cast<std::size_t>(g.size()), 1.0);  // x of n = 1024, 8 KiB
    double sink = 0.0;
    std::vector<int> counts(static_cast<std::size_t>(g.size()));
    for (int b = 0; b < batches; ++b) {
        for (int k = 0; k < kinds; ++k) {
            const int kind = (k + b) % kinds;
            MPI_Barrier(comm);
            const double t0 = MPI_Wtime();
            for (int c = 0; c < 100; ++c) {
                if (kind == 0) {
                    MPI_Barrier(comm);
                } else if (kind == 1) {
                    g.barrier();
                } else if (kind == 2) {
                    llc::Agreement(g, "llc::symv").same("A.n()", 4096).same_real("alpha", 1.0).check();
                } else if (kind == 3) {
                    const int mine = 100 + g.rank();
                    MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
                } else if (kind == 4) {
                    sink += g.allgatherv(std::span<const double>(part)).back();
                } else {
                    sink += g.allgather(std::span<const double>(part)).back();
                }
            }
            t[kind].push_back(slowest(comm, (MPI_Wtime() - t0) / 100.0));
        }
    }
    volatile double keep = sink;
    (void)keep;
    if (g.rank() == 0) {
        for (int k = 0; k < kinds; ++k) {
            std::printf("%-18s %7.3f us a call (median of %d batches of 100)\n", names[k], 1e6 * med(t[k]), batches);
        }
    }
}

/// The measurement, on the options checked.
int measure(llc::Group& g, const Options& o) {
    const MPI_Comm comm = g.native();
    const int P = g.size();
    const int q = g.rank();
    const std::vector<llc::cost::KernelProbe> probes = llc::detail::symv::kernel_probes();
    if (P > 1) {
        small_collectives(g, 61);
    }
    if (q == 0) {
        std::printf(
            "P = %d; ns per off-diagonal packed entry of the busiest rank (medians of %d repetitions)\n", P, o.repeat);
        std::printf("%7s %10s %6s %6s %9s %9s %9s %9s %9s\n",
                    "n",
                    "entries",
                    "store",
                    "huge",
                    "alone",
                    "together",
                    "steps",
                    "product",
                    "probe");
    }
    for (const std::int64_t n : o.sizes) {
        Share s;
        s.layout = SymvLayout(n, P, SymvMapping::reflection);
        s.q = q;
        lay_out(s);
        const std::int64_t count = s.offsets.back();
        s.heap.resize(static_cast<std::size_t>(count));
        fill(s.heap.data(), count);
        s.mapped = llc::HugePageMemory(static_cast<std::size_t>(count) * sizeof(double));
        fill(static_cast<double*>(s.mapped.data()), count);
        std::vector<double> x(static_cast<std::size_t>(n));
        fill(x.data(), n);
        double busiest = s.units;
        MPI_Allreduce(MPI_IN_PLACE, &busiest, 1, MPI_DOUBLE, MPI_MAX, comm);
        const llc::SymmetricMatrix<double> A(
            g, n, [](std::int64_t i, std::int64_t j) { return 1.0 / static_cast<double>(1 + i + j); });
        std::vector<double> ax(static_cast<std::size_t>(A.local_rows()), 1.0);
        std::vector<double> y(ax.size(), 0.0);
        int e = -1;  // the probe of this size at P, if there is one
        for (int k = llc::detail::symv::probe_min_e; k <= llc::detail::symv::probe_max_e; ++k) {
            if (llc::detail::symv::probe_rows(k, P, SymvMapping::reflection) == n) {
                e = k;
            }
        }
        double sink = 0.0;
        Columns c[2];
        for (int rep = 0; rep < o.repeat; ++rep) {
            for (int m = 0; m < 5; ++m) {
                const int mode = (m + rep) % 5;
                for (int store = 0; store < 2; ++store) {
                    s.base = store == 0 ? s.heap.data() : static_cast<double*>(s.mapped.data());
                    Columns& col = c[store];
                    if (mode == 0) {
                        double worst = 0.0;
                        for (int r = 0; r < P; ++r) {
                            sleepy_barrier(comm);
                            double t = 0.0;
                            if (q == r) {
                                const double t0 = MPI_Wtime();
                                sink += passes(s, x);
                                t = MPI_Wtime() - t0;
                            }
                            sleepy_barrier(comm);
                            worst = std::max(worst, slowest(comm, t));
                        }
                        col.alone.push_back(worst / busiest);
                    } else if (mode == 1) {
                        MPI_Barrier(comm);
                        const double t0 = MPI_Wtime();
                        sink += passes(s, x);
                        col.together.push_back(slowest(comm, MPI_Wtime() - t0) / busiest);
                    } else if (mode == 2) {
                        double total = 0.0;
                        for (int step = 1; step <= P; ++step) {
                            MPI_Barrier(comm);
                            const double t0 = MPI_Wtime();
                            sink += passes(s, x, step);
                            total += slowest(comm, MPI_Wtime() - t0);
                        }
                        col.steps.push_back(total / busiest);
                    } else if (mode == 3 && store == 0) {
                        MPI_Barrier(comm);
                        const double t0 = MPI_Wtime();
                        llc::symv<double>(g, 1.0, A, A.layout(), ax, 0.0, y);
                        col.product.push_back(slowest(comm, MPI_Wtime() - t0) / busiest);
                    } else if (mode == 4 && store == 0 && e >= 0 && rep < 5) {
                        MPI_Barrier(comm);
                        const double v =
                            probes[static_cast<std::size_t>(2 * (e - llc::detail::symv::probe_min_e))].measure(true);
                        col.probe.push_back(slowest(comm, v));
                    }
                }
            }
        }
        const double huge[2] = {huge_share(s.heap.data()), huge_share(s.mapped.data())};
        double huge_max[2];
        MPI_Allreduce(huge, huge_max, 2, MPI_DOUBLE, MPI_MIN, comm);
        if (q == 0) {
            for (int store = 0; store < 2; ++store) {
                const Columns& col = c[store];
                std::printf("%7lld %10.0f %6s %5.0f%% %9.3f %9.3f %9.3f %9.3f %9.3f\n",
                            static_cast<long long>(n),
                            busiest,
                            store == 0 ? "heap" : "huge",
                            100.0 * huge_max[store],
                            1e9 * med(col.alone),
                            1e9 * med(col.together),
                            1e9 * med(col.steps),
                            1e9 * med(col.product),
                            1e9 * med(col.probe));
            }
            std::fflush(stdout);
        }
        volatile double keep = sink + y[0];
        (void)keep;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    return llc::bench::run(argc, argv, command_line(o), [&o](llc::Group& world) { return measure(world, o); });
}
