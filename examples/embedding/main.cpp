// llc linked into a program that owns MPI (docs/embedding.md): the program initialises MPI itself, splits
// MPI_COMM_WORLD into two halves, wraps each half's communicator in an llc::Group, runs the parallel FFT on one half
// and the matrix-chain order on the other side by side, checks both against oracles written here, and finalises MPI
// itself. No llc::Environment: llc changes nothing process-wide, and LLC_TRACE / LLC_CHECKS still work through
// llc::configure_from_environment and llc::write_trace_from_environment.
//
//   mpirun -np 4 build/bin/llc-example-embedding
//   LLC_TRACE=embedding.json mpirun -np 4 build/bin/llc-example-embedding    (also writes the trace of both halves)
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <numbers>
#include <vector>

#include <mpi.h>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/llc.hpp>

namespace {

/// The signal x[j] = e^{2πi·3j/n}·(1 + j/n): every processor computes its own entries from the formula.
std::complex<double> signal(std::int64_t j, std::int64_t n) {
    const double t = static_cast<double>(j) / static_cast<double>(n);
    return std::polar(1.0 + t, 2 * std::numbers::pi * 3 * t);
}

/// The FFT half: a block-layout transform of n entries, checked entry by entry against the DFT's definition.
bool fft_half(llc::Group& g) {
    const std::int64_t n = 256;
    // FftLayout::block: processor r of g holds the contiguous entries [input_start, input_start + input_size) and, in
    // natural order, gets the same range of X back.
    llc::FftPlan plan(g, n, {.direction = llc::FftDirection::forward, .layout = llc::FftLayout::block});
    std::vector<std::complex<double>> x(static_cast<std::size_t>(plan.input_size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = signal(plan.input_start() + static_cast<std::int64_t>(i), n);
    }
    const std::vector<std::complex<double>> X = plan.execute(x);
    double error = 0.0;
    for (std::size_t i = 0; i < X.size(); ++i) {
        const std::int64_t k = plan.output_index(static_cast<std::int64_t>(i));
        std::complex<double> expected = 0.0;  // X[k] = Σ_j x[j]·e^{−2πi·jk/n}
        for (std::int64_t j = 0; j < n; ++j) {
            expected +=
                signal(j, n) *
                std::polar(1.0, -2 * std::numbers::pi * static_cast<double>((j * k) % n) / static_cast<double>(n));
        }
        error = std::max(error, std::abs(X[i] - expected));
    }
    error = g.allreduce(error, llc::Op::max);
    if (g.rank() == 0) {
        std::printf("%s: FFT of %lld entries on %d processors, max error against the DFT %.1e\n",
                    g.path().c_str(),
                    static_cast<long long>(n),
                    g.size(),
                    error);
    }
    return error < 1e-9;
}

/// The textbook O(n³) dynamic programme for the cheapest order of a matrix chain (CLRS §15.2).
std::int64_t chain_cost(const std::vector<std::int64_t>& dims) {
    const std::size_t n = dims.size() - 1;
    std::vector<std::vector<std::int64_t>> m(n, std::vector<std::int64_t>(n, 0));
    for (std::size_t length = 2; length <= n; ++length) {
        for (std::size_t i = 0; i + length <= n; ++i) {
            const std::size_t j = i + length - 1;
            m[i][j] = std::numeric_limits<std::int64_t>::max();
            for (std::size_t k = i; k < j; ++k) {
                m[i][j] = std::min(m[i][j], m[i][k] + m[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]);
            }
        }
    }
    return m[0][n - 1];
}

/// The matrix-chain half: the order of a chain of 120 matrices, checked against the textbook loop. The dimensions
/// are the same on every processor of the half (matrix_chain's input is replicated; its table is distributed).
bool matrix_chain_half(llc::Group& g) {
    std::vector<std::int64_t> dims(121);
    for (std::size_t i = 0; i < dims.size(); ++i) {
        dims[i] = 5 + static_cast<std::int64_t>((i * 37 + 11) % 53);
    }
    const llc::MatrixChainResult result = llc::matrix_chain(g, dims);
    const std::int64_t expected = chain_cost(dims);
    if (g.rank() == 0) {
        std::printf("%s: matrix chain of %zu matrices on %d processors, cost %lld (textbook loop %lld)\n",
                    g.path().c_str(),
                    dims.size() - 1,
                    g.size(),
                    static_cast<long long>(result.cost),
                    static_cast<long long>(expected));
    }
    return result.cost == expected;
}

}  // namespace

int main(int argc, char** argv) {
    // The program owns MPI: llc needs no more than MPI_THREAD_SINGLE, and calls MPI from one thread only.
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank = 0;
    int size = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    // LLC_CHECKS and LLC_TRACE as an llc::Environment would read them (tracing on when LLC_TRACE is set).
    (void)llc::configure_from_environment();

    // Two halves of the world: ranks [0, P/2) run the FFT, the others the matrix chain (at P = 1, both on rank 0).
    const int color = size == 1 ? 0 : (rank < size / 2 ? 0 : 1);
    MPI_Comm half = MPI_COMM_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, color, rank, &half);

    int ok = 1;
    try {
        // Each Group works on its own duplicate of the communicator (freed when the Group goes), with MPI errors
        // returned as llc::MpiError; `half` and MPI_COMM_WORLD keep their error handlers. The names appear in errors.
        llc::Group group(half, color == 0 ? "fft" : "chain");
        if (color == 0) {
            ok = fft_half(group) ? 1 : 0;
        }
        if (color == 1 || size == 1) {
            ok = matrix_chain_half(group) && ok == 1 ? 1 : 0;
        }
    } catch (const llc::Error& e) {
        // An llc::Error is thrown on every rank of the group that failed; the other half is not waiting on it.
        std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
        ok = 0;
    }
    // Both halves' records, merged into one trace, when LLC_TRACE names a file (nothing otherwise). Outside the try:
    // every rank reaches it, whichever half failed.
    {
        llc::Group all(MPI_COMM_WORLD);
        llc::write_trace_from_environment(all);
    }
    MPI_Comm_free(&half);  // the program's own communicator: the program frees it

    int all_ok = 0;
    MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (rank == 0) {
        std::printf("embedding: %s on %d processors\n", all_ok == 1 ? "both halves right" : "WRONG", size);
    }
    MPI_Finalize();
    return all_ok == 1 ? 0 : 1;
}
