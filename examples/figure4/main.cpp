// The FFT of the CCM paper, Figure 4 (parFFT) and Figure 5 (main), written with the La Laguna C–style macros of
// <llc/llc.h> almost as printed. Every processor holds the whole input A and ends with the whole transform B
// ("common-common"). PAR halves the current group, runs one recursive call on each half and swaps the results
// between partners (the paper's Figure 6), so that both halves hold A2 and A1 when Combine runs.
//
// Differences from the printed code, all marked below: the paper's `b[0].re = a[0].re` is `B[0] = A[0]` (the
// printed lower-case names are a typo), the buffers a2, a1, A2, A1 are allocated (the paper leaves that out), and
// Complex is std::complex<double>. The leaf seqFFT is a naive O(n²) DFT; a real program would call FFTW there.
//
// Run:   mpirun -np 4 build/bin/llc-example-figure4 [n]        n: a power of two, default 1024
// It checks B against a direct DFT computed in long double and exits with 1 if the error is too large.

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <mpi.h>

#include <llc/llc.h>

using Complex = std::complex<double>;

// The sequential transform "provided by the user": B[k] = sum_j A[j] e^{-2 pi i jk/n}, naive O(n^2).
void seqFFT(const Complex* A, Complex* B, int n) {
    const double step = -2.0 * std::numbers::pi / n;
    for (int k = 0; k < n; ++k) {
        Complex sum = 0.0;
        for (int j = 0; j < n; ++j) {
            // (j * k) mod n keeps the angle small, so the twiddle factor stays accurate for large n.
            const long long jk = (static_cast<long long>(j) * k) % n;
            sum += A[j] * std::polar(1.0, step * static_cast<double>(jk));
        }
        B[k] = sum;
    }
}

// Splits A (2m entries) into its even terms a2 and its odd terms a1, as the paper's odd_and_even().
void odd_and_even(const Complex* A, Complex* a2, Complex* a1, int m) {
    for (int k = 0; k < m; ++k) {
        a2[k] = A[2 * k];
        a1[k] = A[2 * k + 1];
    }
}

// The butterfly: B[k] = A2[k] + w^k A1[k] and B[k + m] = A2[k] - w^k A1[k], with w = e^{-2 pi i / 2m}.
void Combine(Complex* B, const Complex* A2, const Complex* A1, int m) {
    for (int k = 0; k < m; ++k) {
        const Complex t = std::polar(1.0, -std::numbers::pi * k / m) * A1[k];
        B[k] = A2[k] + t;
        B[k + m] = A2[k] - t;
    }
}

// Figure 4 of the paper. NUMPROCESSORS is the size of the current group: the world at the top, a half inside PAR.
void parFFT(Complex* A, Complex* B, int n) {
    Complex *a2, *A2; /* Even terms */
    Complex *a1, *A1; /* Odd terms */
    int m;
    std::size_t size;

    if (NUMPROCESSORS > 1) {
        if (n == 1) {     /* Trivial problem */
            B[0] = A[0];  // printed as b[0].re = a[0].re; b[0].im = a[0].im;
        } else {
            m = n / 2;
            size = static_cast<std::size_t>(m) * sizeof(Complex);
            std::vector<Complex> work(4 * static_cast<std::size_t>(m));  // not in the paper: the four buffers
            a2 = work.data();
            a1 = a2 + m;
            A2 = a1 + m;
            A1 = A2 + m;
            odd_and_even(A, a2, a1, m);
            // Task 0 runs on the first half of the processors, task 1 on the second; each leaves `size` bytes at
            // A2 resp. A1, and partners swap them, so every processor holds both afterwards.
            PAR(parFFT(a2, A2, m), A2, size, parFFT(a1, A1, m), A1, size);
            Combine(B, A2, A1, m);
        }
    } else {
        seqFFT(A, B, n);
    }
}

// The same input on every processor (a fixed seed), as the paper's initialize(A) reading it from a file.
void initialize(std::vector<Complex>& A) {
    std::mt19937_64 random(2024);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    for (auto& a : A) {
        a = Complex(value(random), value(random));
    }
}

// The oracle: the DFT straight from its definition, summed in long double.
std::vector<std::complex<long double>> direct_dft(const std::vector<Complex>& A) {
    const auto n = static_cast<long long>(A.size());
    std::vector<std::complex<long double>> twiddle(A.size());
    for (long long k = 0; k < n; ++k) {
        const long double angle = -2.0L * std::numbers::pi_v<long double> * static_cast<long double>(k) / n;
        twiddle[static_cast<std::size_t>(k)] = {std::cos(angle), std::sin(angle)};
    }
    std::vector<std::complex<long double>> B(A.size());
    for (long long k = 0; k < n; ++k) {
        std::complex<long double> sum = 0.0L;
        for (long long j = 0; j < n; ++j) {
            const std::complex<long double> a(A[static_cast<std::size_t>(j)].real(),
                                              A[static_cast<std::size_t>(j)].imag());
            sum += a * twiddle[static_cast<std::size_t>((j * k) % n)];
        }
        B[static_cast<std::size_t>(k)] = sum;
    }
    return B;
}

// Figure 5 of the paper, plus the check.
int main(int argc, char** argv) {
    INITIALIZE;
    int n = 1024;
    if (argc > 1) {
        n = std::atoi(argv[1]);
    }
    if (n < 1 || (n & (n - 1)) != 0) {
        GPRINTF("usage: llc-example-figure4 [n]: n = '%s' must be a power of two >= 1\n", argc > 1 ? argv[1] : "");
        EXIT;
        return 2;
    }
    std::vector<Complex> A(static_cast<std::size_t>(n));
    std::vector<Complex> B(static_cast<std::size_t>(n));

    initialize(A); /* Read array A */
    const double itime = MPI_Wtime();
    parFFT(A.data(), B.data(), n);
    const double ftime = MPI_Wtime();
    GPRINTF("\n%d: time: (%lf)\n", NAME, ftime - itime);

    // Every processor checks its own copy of B; the worst error over the processors decides.
    const auto reference = direct_dft(A);
    long double error = 0.0L;
    long double scale = 0.0L;
    for (std::size_t k = 0; k < B.size(); ++k) {
        const std::complex<long double> b(B[k].real(), B[k].imag());
        error = std::max(error, std::abs(b - reference[k]));
        scale = std::max(scale, std::abs(reference[k]));
    }
    const double relative = static_cast<double>(error / std::max(scale, 1.0L));
    const double worst = llc::current_group().allreduce(relative, llc::Op::max);
    const bool ok = worst < 1e-10;
    GPRINTF("n = %d, P = %d: max error vs direct DFT = %.3e (relative to max |B|): %s\n",
            n,
            NUMPROCESSORS,
            worst,
            ok ? "ok" : "WRONG");
    EXIT;
    return ok ? 0 : 1;
}
