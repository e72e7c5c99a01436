// llc-compare fft: llc's parallel FFT (algorithms/fft) at the world's P against serial FFTW and FFTW-MPI
// (fftw_mpi_plan_dft_1d), on the same random input, timed interleaved (ours, serial, MPI peer, ours, …).
//
// Rows, per n (default 2^20, 2^22, 2^24):
//   fft-block-scrambled  vs fftw-serial and fftw-mpi-scrambled (FFTW_MPI_SCRAMBLED_OUT)
//   fft-block-natural    vs fftw-serial and fftw-mpi
//   fft-replicated       vs fftw-serial
//   fft-block-scrambled-estimate (our default, cheap planner) vs fftw-serial
// Every FFTW plan — the peers' and our leaves' — is made with FFTW_MEASURE once, outside the timing. Planning with
// FFTW_MEASURE takes up to a minute at 2^24, so wisdom is kept in $LLC_FFTW_WISDOM (default
// $HOME/.cache/llc/fftw-wisdom-P<P>-rank<r>) and reused by later runs. Serial FFTW runs on rank 0 while the other
// ranks wait at the barrier.
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <fftw3-mpi.h>
#include <fftw3.h>
#include <mpi.h>

#include <llc/algorithms/fft.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

using Complex = std::complex<double>;

std::string wisdom_path(const Group& world) {
    std::string base;
    if (const char* env = std::getenv("LLC_FFTW_WISDOM"); env != nullptr && *env != '\0') {
        base = env;
    } else if (const char* home = std::getenv("HOME"); home != nullptr) {
        base = std::string(home) + "/.cache/llc/fftw-wisdom";
    } else {
        base = "fftw-wisdom";
    }
    const std::filesystem::path path =
        base + "-P" + std::to_string(world.size()) + "-rank" + std::to_string(world.rank());
    std::error_code ec;
    if (path.has_parent_path()) {
        std::filesystem::create_directories(path.parent_path(), ec);  // if it fails, the wisdom is just not kept
    }
    return path.string();
}

/// fftw_malloc'd complex array, released on scope exit.
struct FftwArray {
    fftw_complex* data = nullptr;
    explicit FftwArray(std::size_t n) : data(fftw_alloc_complex(n > 0 ? n : 1)) {}
    ~FftwArray() { fftw_free(data); }
    FftwArray(const FftwArray&) = delete;
    FftwArray& operator=(const FftwArray&) = delete;
    [[nodiscard]] Complex* complex() const { return reinterpret_cast<Complex*>(data); }
};

void fill(Complex* x, std::size_t count, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (std::size_t i = 0; i < count; ++i) {
        x[i] = {u(rng), u(rng)};
    }
}

std::vector<Row> run(Group& world, const Options& options) {
    static const bool mpi_ready = [] {
        fftw_mpi_init();
        return true;
    }();
    (void)mpi_ready;
    const std::string wisdom = wisdom_path(world);
    fftw_import_wisdom_from_filename(wisdom.c_str());  // absent on the first run: FFTW then plans from scratch

    const int P = world.size();
    const int repeat = options.repeat > 0 ? options.repeat : 5;
    std::vector<std::int64_t> sizes = options.sizes;
    if (sizes.empty()) {
        sizes = {std::int64_t{1} << 20, std::int64_t{1} << 22, std::int64_t{1} << 24};
    }
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const auto nu = static_cast<std::size_t>(n);
        // Serial FFTW on rank 0, planned with FFTW_MEASURE outside the timing.
        FftwArray serial_in(world.rank() == 0 ? nu : 0);
        FftwArray serial_out(world.rank() == 0 ? nu : 0);
        fftw_plan serial = nullptr;
        if (world.rank() == 0) {
            serial = fftw_plan_dft_1d(static_cast<int>(n), serial_in.data, serial_out.data, FFTW_FORWARD, FFTW_MEASURE);
            fill(serial_in.complex(), nu, 1);
        }
        // FFTW-MPI, natural and scrambled output, in its own distribution.
        ptrdiff_t local_ni = 0;
        ptrdiff_t local_i_start = 0;
        ptrdiff_t local_no = 0;
        ptrdiff_t local_o_start = 0;
        const ptrdiff_t alloc = fftw_mpi_local_size_1d(
            n, world.native(), FFTW_FORWARD, FFTW_MEASURE, &local_ni, &local_i_start, &local_no, &local_o_start);
        FftwArray mpi_in(static_cast<std::size_t>(alloc));
        FftwArray mpi_out(static_cast<std::size_t>(alloc));
        const fftw_plan mpi_natural =
            fftw_mpi_plan_dft_1d(n, mpi_in.data, mpi_out.data, world.native(), FFTW_FORWARD, FFTW_MEASURE);
        const fftw_plan mpi_scrambled = fftw_mpi_plan_dft_1d(
            n, mpi_in.data, mpi_out.data, world.native(), FFTW_FORWARD, FFTW_MEASURE | FFTW_MPI_SCRAMBLED_OUT);
        fill(mpi_in.complex(), static_cast<std::size_t>(local_ni), 2 + static_cast<std::uint64_t>(world.rank()));

        // Ours, block (scrambled, natural) and replicated, leaves planned with FFTW_MEASURE; and the default planner.
        FftPlan scrambled(
            world, n, {.layout = FftLayout::block, .order = FftOrder::scrambled, .planner = FftPlanner::measure});
        FftPlan natural(
            world, n, {.layout = FftLayout::block, .order = FftOrder::natural, .planner = FftPlanner::measure});
        FftPlan replicated(world, n, {.layout = FftLayout::replicated, .planner = FftPlanner::measure});
        FftPlan scrambled_estimate(world, n, {.layout = FftLayout::block, .order = FftOrder::scrambled});
        const auto local = static_cast<std::size_t>(scrambled.input_size());
        std::vector<Complex> block_in(local);
        std::vector<Complex> block_out(local);
        fill(block_in.data(), local, 3 + static_cast<std::uint64_t>(world.rank()));
        std::vector<Complex> whole_in(nu);
        std::vector<Complex> whole_out(nu);
        fill(whole_in.data(), nu, 4);
        fftw_export_wisdom_to_filename(wisdom.c_str());

        const std::vector<std::function<void()>> bodies{
            [&] { scrambled.execute(block_in, block_out); },
            [&] { natural.execute(block_in, block_out); },
            [&] { replicated.execute(whole_in, whole_out); },
            [&] { scrambled_estimate.execute(block_in, block_out); },
            [&] {
                if (serial != nullptr) {
                    fftw_execute(serial);
                }
            },
            [&] { fftw_execute(mpi_natural); },
            [&] { fftw_execute(mpi_scrambled); },
        };
        const std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        const double serial_s = t[4];
        rows.push_back({"fft-block-scrambled", P, n, t[0], "fftw-serial-measure", serial_s});
        rows.push_back({"fft-block-scrambled", P, n, t[0], "fftw-mpi-scrambled-measure", t[6]});
        rows.push_back({"fft-block-natural", P, n, t[1], "fftw-serial-measure", serial_s});
        rows.push_back({"fft-block-natural", P, n, t[1], "fftw-mpi-measure", t[5]});
        rows.push_back({"fft-replicated", P, n, t[2], "fftw-serial-measure", serial_s});
        rows.push_back({"fft-block-scrambled-estimate", P, n, t[3], "fftw-serial-measure", serial_s});

        if (serial != nullptr) {
            fftw_destroy_plan(serial);
        }
        fftw_destroy_plan(mpi_natural);
        fftw_destroy_plan(mpi_scrambled);
    }
    return rows;
}

}  // namespace

Comparison fft_comparison() {
    return {"fft",
            "parallel FFT (block scrambled / natural, replicated) vs serial FFTW and FFTW-MPI, FFTW_MEASURE plans",
            run};
}

}  // namespace llc::cards
