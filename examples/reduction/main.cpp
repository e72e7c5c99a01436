// A common-common reduction with normal supersteps: the mean and variance of x and the dot product x·y.
//
// Every processor holds the whole input (x and y are made from the same seed everywhere) and ends with the whole
// answer. A normal superstep of the CCM is local work W followed by one collective of the group: here each processor
// sums over its own block of the indices, then Group::allreduce adds the partial sums up on every processor. The
// variance needs the mean first, so it takes a second superstep. llc::Label names each superstep in the trace.
//
// Run:   mpirun -np 2 build/bin/llc-example-reduction [n]                        n: vector length, default 1000000
//        LLC_TRACE=reduction.json mpirun -np 2 build/bin/llc-example-reduction    writes reduction.json (the merged
//        tree of supersteps) and reduction.chrome.json (open it at https://ui.perfetto.dev or chrome://tracing)
// It checks the answers against a sequential computation and exits with 1 if they differ.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);  // LLC_TRACE=path switches tracing on and writes the trace at exit
    llc::Group& g = llc::Group::world();
    const long long n = argc > 1 ? std::atoll(argv[1]) : 1000000;
    if (n < 2) {
        if (g.rank() == 0) {
            std::fprintf(stderr, "usage: llc-example-reduction [n]: n = %lld must be >= 2\n", n);
        }
        return 2;
    }

    // The same input on every processor.
    std::vector<double> x(static_cast<std::size_t>(n));
    std::vector<double> y(static_cast<std::size_t>(n));
    std::mt19937_64 random(11);
    std::normal_distribution<double> normal(3.0, 2.0);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = normal(random);
        y[i] = normal(random);
    }

    // This processor's block of the indices: [lo, hi), blocks as equal as they can be.
    const auto lo = static_cast<std::size_t>(n * g.rank() / g.size());
    const auto hi = static_cast<std::size_t>(n * (g.rank() + 1) / g.size());

    // Superstep 1: W = the partial sums of x and of x·y over the block; f = allreduce of both.
    double sums[2] = {0.0, 0.0};
    {
        const llc::Label label("sums");
        double partial[2] = {0.0, 0.0};
        for (std::size_t i = lo; i < hi; ++i) {
            partial[0] += x[i];
            partial[1] += x[i] * y[i];
        }
        g.allreduce<double>(partial, sums, llc::Op::sum);
    }
    const double mean = sums[0] / static_cast<double>(n);
    const double dot = sums[1];

    // Superstep 2: W = the squared deviations from the mean over the block; f = allreduce of their sum.
    double variance = 0.0;
    {
        const llc::Label label("squared deviations");
        double partial = 0.0;
        for (std::size_t i = lo; i < hi; ++i) {
            partial += (x[i] - mean) * (x[i] - mean);
        }
        variance = g.allreduce(partial, llc::Op::sum) / static_cast<double>(n - 1);
    }

    // The oracle: the same quantities by one processor alone, summed in long double.
    long double s = 0.0L;
    long double sxy = 0.0L;
    for (std::size_t i = 0; i < x.size(); ++i) {
        s += x[i];
        sxy += static_cast<long double>(x[i]) * y[i];
    }
    const long double m = s / n;
    long double ss = 0.0L;
    for (const double xi : x) {
        ss += (xi - m) * (xi - m);
    }
    const auto close = [](double got, long double want) {
        return std::abs(static_cast<long double>(got) - want) <= 1e-9L * std::max(1.0L, std::abs(want));
    };
    const bool ok = close(mean, m) && close(variance, ss / (n - 1)) && close(dot, sxy);
    const llc::Label label("check");
    const int wrong = g.allreduce(ok ? 0 : 1, llc::Op::sum);  // every processor checked its own copy

    if (g.rank() == 0) {
        std::printf("n = %lld, P = %d: mean %.9f, variance %.9f, x.y %.6f: %s\n",
                    n,
                    g.size(),
                    mean,
                    variance,
                    dot,
                    wrong == 0 ? "matches the sequential computation" : "WRONG");
        if (const char* trace = std::getenv("LLC_TRACE"); trace != nullptr && *trace != '\0') {
            std::printf("trace: %s (and the Chrome/Perfetto view beside it), written at exit\n", trace);
        }
    }
    return wrong == 0 ? 0 : 1;
}
