// A parallel FFT in a few lines: every processor holds a block of a signal made of two tones, transforms it with
// llc::FftPlan (block layout, natural order), finds the strongest frequencies, and transforms back.
//
//   mpirun -np 2 build/bin/llc-example-fft [n]          (n: a power of two ≥ 64; default 2^16)
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <vector>

#include <llc/algorithms/fft.hpp>
#include <llc/llc.hpp>

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = env.world();
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : std::int64_t{1} << 16;

    // Plan once per (group, n, direction, layout); reuse for every transform of that kind.
    llc::FftPlan forward(world, n, {.direction = llc::FftDirection::forward, .layout = llc::FftLayout::block});
    llc::FftPlan inverse(world, n, {.direction = llc::FftDirection::inverse, .layout = llc::FftLayout::block});

    // This processor's block of x[j] = e^{2πi·5j/n} + 0.5·e^{2πi·(n/4)j/n}: entries [input_start, +input_size).
    std::vector<std::complex<double>> x(static_cast<std::size_t>(forward.input_size()));
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double j = static_cast<double>(forward.input_start() + static_cast<std::int64_t>(i));
        x[i] = std::polar(1.0, 2 * std::numbers::pi * 5 * j / static_cast<double>(n)) +
               std::polar(0.5, 2 * std::numbers::pi * static_cast<double>(n / 4) * j / static_cast<double>(n));
    }

    const std::vector<std::complex<double>> X = forward.execute(x);  // collective over world

    // Frequencies with |X[k]| > n/4, found on whichever processor holds them (5 and n/4).
    int peaks = 0;
    for (std::size_t i = 0; i < X.size(); ++i) {
        if (std::abs(X[i]) > static_cast<double>(n) / 4) {
            std::printf("rank %d: |X[%lld]| = %.1f\n",
                        world.rank(),
                        static_cast<long long>(forward.output_index(static_cast<std::int64_t>(i))),
                        std::abs(X[i]));
            ++peaks;
        }
    }

    // Round trip: FFTW's inverse is unnormalised, so inverse(forward(x)) = n·x.
    const std::vector<std::complex<double>> back = inverse.execute(X);
    double error = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        error = std::max(error, std::abs(back[i] / static_cast<double>(n) - x[i]));
    }
    error = world.allreduce(error, llc::Op::max);
    if (world.rank() == 0) {
        std::printf("P = %d, n = %lld, method %s, round-trip max error %.2e\n",
                    world.size(),
                    static_cast<long long>(n),
                    std::string(llc::to_string(forward.method())).c_str(),
                    error);
    }
    peaks = world.allreduce(peaks, llc::Op::sum);
    return error < 1e-10 && peaks == 2 ? 0 : 1;
}
