// A ring pipeline: the matrix–vector product y = A·x with A and x distributed by blocks of rows, and the blocks of x
// passed around the ring with Group::shift — the pattern of Miguet's ring algorithms (the pipelined dynamic
// programming, the symmetric matrix–vector product), here in its plainest form.
//
// Processor r holds the rows [lo_r, hi_r) of A (all n columns) and the same block of x. In step s = 0 … P − 1 it
// holds the block of x that belongs to processor (r − s) mod P, multiplies it with the matching columns of its rows,
// and adds to its block of y; then one shift hands every processor's current block to the next one on the ring. P − 1
// shifts carry every block of x past every processor. A step is a CCM normal superstep: W = the block product,
// f = shift. With n not a multiple of P the blocks differ in length, and each processor receives the length its
// predecessor sends (the size rule of shift).
//
// Run:   mpirun -np 3 build/bin/llc-example-ring [n]            n: order of A, default 2000
//        LLC_TRACE=ring.json mpirun -np 3 build/bin/llc-example-ring     (the supersteps, one per ring step)
// It checks y against a sequential product and exits with 1 if they differ.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <llc/llc.hpp>

namespace {

/// First row of processor q's block when n rows are cut into P blocks as equal as they can be.
std::size_t block_start(std::size_t n, int P, int q) {
    return n * static_cast<std::size_t>(q) / static_cast<std::size_t>(P);
}

/// A(i, j) and x(j): values every processor can make on its own (a check needs no communication of the input).
double a_entry(std::size_t i, std::size_t j) {
    return std::sin(0.001 * static_cast<double>(i * 7 + j * 13));
}
double x_entry(std::size_t j) {
    return 1.0 + 0.5 * std::cos(0.01 * static_cast<double>(j));
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);  // LLC_TRACE=path switches tracing on and writes the trace at exit
    llc::Group& g = llc::Group::world();
    const long long order = argc > 1 ? std::atoll(argv[1]) : 2000;
    if (order < 1) {
        if (g.rank() == 0) {
            std::fprintf(stderr, "usage: llc-example-ring [n]: n = %lld must be >= 1\n", order);
        }
        return 2;
    }
    const auto n = static_cast<std::size_t>(order);
    const int P = g.size();
    const int r = g.rank();
    const std::size_t lo = block_start(n, P, r);
    const std::size_t rows = block_start(n, P, r + 1) - lo;

    // This processor's rows of A (row-major, all n columns) and its block of x.
    std::vector<double> a(rows * n);
    for (std::size_t i = 0; i < rows; ++i) {
        for (std::size_t j = 0; j < n; ++j) {
            a[i * n + j] = a_entry(lo + i, j);
        }
    }
    std::vector<double> held(rows);
    for (std::size_t k = 0; k < rows; ++k) {
        held[k] = x_entry(lo + k);
    }

    std::vector<double> y(rows, 0.0);
    std::vector<double> next;
    for (int s = 0; s < P; ++s) {
        const llc::Label label("ring step");
        // W: the product of this processor's rows with the columns of the block it holds, that of processor q.
        const int q = (r - s + P) % P;
        const std::size_t c0 = block_start(n, P, q);
        for (std::size_t i = 0; i < rows; ++i) {
            double sum = 0.0;
            for (std::size_t k = 0; k < held.size(); ++k) {
                sum += a[i * n + c0 + k] * held[k];
            }
            y[i] += sum;
        }
        if (s + 1 == P) {
            break;  // every block has been used: no last shift
        }
        // f: the block moves on to the next processor; from the previous one comes the block of processor q − 1.
        const int from = (q - 1 + P) % P;
        next.resize(block_start(n, P, from + 1) - block_start(n, P, from));
        g.shift(std::span<const double>(held), std::span<double>(next));
        held.swap(next);
    }

    // The oracle: this processor's rows of y by a sequential product over the whole of x, in long double.
    bool ok = true;
    for (std::size_t i = 0; i < rows; ++i) {
        long double want = 0.0L;
        for (std::size_t j = 0; j < n; ++j) {
            want += static_cast<long double>(a_entry(lo + i, j)) * x_entry(j);
        }
        ok = ok && std::abs(static_cast<long double>(y[i]) - want) <= 1e-9L * std::max(1.0L, std::abs(want));
    }
    const llc::Label label("check");
    const int wrong = g.allreduce(ok ? 0 : 1, llc::Op::sum);
    if (g.rank() == 0) {
        std::printf("n = %zu, P = %d: y = A x by %d ring steps (%d shifts): %s\n",
                    n,
                    P,
                    P,
                    P - 1,
                    wrong == 0 ? "matches the sequential product" : "WRONG");
    }
    return wrong == 0 ? 0 : 1;
}
