// Conjugate gradients on the symmetric positive definite matrix tridiag(−1, 4, −1) + 0.01·(all ones) — dense, so
// every packed entry matters: one distributed SymmetricMatrix (reflection mapping, each rank ≈ n²/(2P) packed entries)
// reused by every product, the vectors kept in the matrix's layout, dot products by one allreduce each. The right-hand
// side is b = A·1, so the solution is all ones.
//
//   mpirun -np 4 llc-example-symv [n]
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <llc/algorithms/symv.hpp>
#include <llc/llc.hpp>

namespace {

double dot(llc::Group& g, const std::vector<double>& a, const std::vector<double>& b) {
    double local = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) {
        local += a[k] * b[k];
    }
    return g.allreduce(local, llc::Op::sum);
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = llc::Group::world();
    const std::int64_t n = argc > 1 ? std::stoll(argv[1]) : 300;
    // Only the lower triangle is asked for (i ≥ j), and only this rank's rows.
    const llc::SymmetricMatrix<double> A(
        world, n, [](std::int64_t i, std::int64_t j) { return 0.01 + (i == j ? 4.0 : (i == j + 1 ? -1.0 : 0.0)); });
    const std::vector<double> ones(static_cast<std::size_t>(A.local_rows()), 1.0);
    std::vector<double> b(ones.size());
    llc::symv<double>(world, 1.0, A, A.layout(), ones, 0.0, b);

    std::vector<double> x(ones.size(), 0.0);
    std::vector<double> r = b;
    std::vector<double> p = r;
    std::vector<double> q(ones.size());
    double rr = dot(world, r, r);
    int it = 0;
    for (; it < 1000 && rr > 1e-24 * static_cast<double>(n); ++it) {
        llc::symv<double>(world, 1.0, A, A.layout(), p, 0.0, q);  // q = Ap, nothing redistributed
        const double step = rr / dot(world, p, q);
        for (std::size_t k = 0; k < x.size(); ++k) {
            x[k] += step * p[k];
            r[k] -= step * q[k];
        }
        const double next = dot(world, r, r);
        for (std::size_t k = 0; k < p.size(); ++k) {
            p[k] = r[k] + (next / rr) * p[k];
        }
        rr = next;
    }
    double local_error = 0.0;
    for (const double v : x) {
        local_error = std::max(local_error, std::abs(v - 1.0));
    }
    const double error = world.allreduce(local_error, llc::Op::max);
    if (world.rank() == 0) {
        std::printf("n = %lld on %d processors, %lld matrix entries on rank 0\n",
                    static_cast<long long>(n),
                    world.size(),
                    static_cast<long long>(A.local_entries()));
        std::printf("CG: %d iterations, max |x_i - 1| = %.3g\n", it, error);
    }
    return error < 1e-8 ? 0 : 1;
}
