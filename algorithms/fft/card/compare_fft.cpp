// llc-compare fft: llc's parallel FFT (algorithms/fft) at the world's P against serial FFTW and FFTW-MPI
// (fftw_mpi_plan_dft_1d), on the same random input, timed interleaved (ours, serial, MPI peer, ours, …).
//
// Rows, per n (default 2^20, 2^22, 2^24):
//   fft-block-scrambled  vs fftw-serial and fftw-mpi-scrambled (FFTW_MPI_SCRAMBLED_OUT)
//   fft-block-natural    vs fftw-serial and fftw-mpi
//   fft-replicated       vs fftw-serial
//   fft-block-scrambled-estimate (our default, cheap planner) vs fftw-serial
// Every side transforms the same input x (uniform in [−1, 1]², seed 1), each in its own distribution. Before timing,
// every output is checked against serial FFTW's X (broadcast from rank 0): ours in each layout and order (at the
// frequency FftPlan::output_index names) and FFTW-MPI's natural output must satisfy max_k |X'_k − X_k| ≤ 1e-9 ·
// ||x||₂ · max(1, log2 n) — a transform's rounding error grows as ε·log2 n·||X||₂ = ε·log2 n·√n·||x||₂, far below
// this bound at these sizes, while a wrong twiddle, sign or permutation moves entries by O(||x||₂). FFTW-MPI's
// scrambled order is not documented, so its output is checked by Parseval (Σ|X'_k|² = n·Σ|x_j|² within 1e-9 ·
// log2 n relative). A miss stops the job (non-zero exit).
// Every FFTW plan — the peers' and our leaves' — is made with FFTW_MEASURE once, outside the timing. Planning with
// FFTW_MEASURE takes up to a minute at 2^24, so wisdom is kept in $LLC_FFTW_WISDOM (default
// $HOME/.cache/llc/fftw-wisdom-P<P>-rank<r>) and reused by later runs. Serial FFTW runs on rank 0 while the other
// ranks wait at the barrier.
#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#if !defined(LLC_SMPI)
#include <fftw3-mpi.h>  // built on Open MPI: no FFTW-MPI peer under SimGrid SMPI (docs/scaling.md)
#endif
#include <fftw3.h>
#include <mpi.h>

#include <llc/algorithms/fft.hpp>
#include <llc/error.hpp>
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

std::vector<Complex> random_input(std::size_t count) {
    std::vector<Complex> x(count);
    std::mt19937_64 rng(1);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (auto& v : x) {
        v = {u(rng), u(rng)};
    }
    return x;
}

/// "1.23e-05": errors and bounds far below 1e-6, which std::to_string would print as 0.000000.
std::string sci(double v) {
    std::array<char, 32> text{};
    std::snprintf(text.data(), text.size(), "%.3g", v);
    return text.data();
}

/// Our plans' and FFTW-MPI's outputs, checked against serial FFTW's before anything is timed (see the file comment).
struct OutputCheck {
    Group& world;
    std::int64_t n;
    std::vector<Complex> reference;  ///< serial FFTW's X, on every rank
    double tolerance = 0.0;
    double x_energy = 0.0;  ///< Σ|x_j|²

    OutputCheck(Group& g, std::int64_t size, const std::vector<Complex>& x, const Complex* serial_out)
        : world(g), n(size), reference(static_cast<std::size_t>(size)) {
        if (world.rank() == 0) {
            std::copy_n(serial_out, reference.size(), reference.begin());
        }
        MPI_Bcast(reference.data(), static_cast<int>(2 * n), MPI_DOUBLE, 0, world.native());
        for (const Complex& v : x) {
            x_energy += std::norm(v);
        }
        tolerance = 1e-9 * std::sqrt(x_energy) * std::max(1.0, std::log2(static_cast<double>(n)));
    }
    /// out[i] is X[frequency(i)]; collective: every rank throws when one rank's error exceeds the bound.
    void same(const std::string& who,
              std::span<const Complex> out,
              const std::function<std::int64_t(std::int64_t)>& frequency) {
        double worst = 0.0;
        for (std::size_t i = 0; i < out.size(); ++i) {
            const std::int64_t k = frequency(static_cast<std::int64_t>(i));
            worst = std::max(worst, std::abs(out[i] - reference[static_cast<std::size_t>(k)]));
        }
        MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, world.native());
        if (!(worst <= tolerance)) {
            throw Error("llc-compare fft: " + who + " differs from serial FFTW at n = " + std::to_string(n) +
                        ": max |X' − X| = " + sci(worst) + " > 1e-9·||x||·log2 n = " + sci(tolerance));
        }
    }
    /// Parseval: Σ|X'_k|² over every rank's `out` against n·Σ|x_j|².
    void parseval(const std::string& who, std::span<const Complex> out) {
        double energy = 0.0;
        for (const Complex& v : out) {
            energy += std::norm(v);
        }
        MPI_Allreduce(MPI_IN_PLACE, &energy, 1, MPI_DOUBLE, MPI_SUM, world.native());
        const double expected = static_cast<double>(n) * x_energy;
        if (!(std::abs(energy - expected) <= 1e-9 * std::max(1.0, std::log2(static_cast<double>(n))) * expected)) {
            throw Error("llc-compare fft: " + who + "'s output breaks Parseval at n = " + std::to_string(n) + " (" +
                        sci(energy) + " against n·Σ|x|² = " + sci(expected) + ")");
        }
    }
};

/// FFTW-MPI's plans of one n, natural and scrambled output (FFTW_MEASURE), on x in FFTW-MPI's own distribution. A
/// plan FFTW declines (null: small n at P = 1) gives no row; n = 1 is not planned (fftw_mpi_plan_dft_1d crashes there).
struct MpiPeer {
    ptrdiff_t local_ni = 0;
    ptrdiff_t local_i_start = 0;
    ptrdiff_t local_no = 0;
    ptrdiff_t local_o_start = 0;
    ptrdiff_t scrambled_no = 0;  ///< the scrambled plan's local output count (its own distribution)
    std::unique_ptr<FftwArray> in;
    std::unique_ptr<FftwArray> out;
    fftw_plan natural = nullptr;
    fftw_plan scrambled = nullptr;

    MpiPeer(Group& world, std::int64_t n, const std::vector<Complex>& x) {
#if defined(LLC_SMPI)
        // libfftw3_mpi is built on Open MPI and does not link under smpicxx: no peer, no rows for it.
        (void)world;
        (void)n;
        (void)x;
        return;
#else
        if (n < 2) {
            return;
        }
        const ptrdiff_t alloc_natural = fftw_mpi_local_size_1d(
            n, world.native(), FFTW_FORWARD, FFTW_MEASURE, &local_ni, &local_i_start, &local_no, &local_o_start);
        ptrdiff_t ni = 0;
        ptrdiff_t i_start = 0;
        ptrdiff_t o_start = 0;
        const ptrdiff_t alloc_scrambled = fftw_mpi_local_size_1d(n,
                                                                 world.native(),
                                                                 FFTW_FORWARD,
                                                                 FFTW_MEASURE | FFTW_MPI_SCRAMBLED_OUT,
                                                                 &ni,
                                                                 &i_start,
                                                                 &scrambled_no,
                                                                 &o_start);
        if (ni != local_ni || i_start != local_i_start) {
            throw Error("llc-compare fft: FFTW-MPI's scrambled plan takes another input distribution at n = " +
                        std::to_string(n));
        }
        const auto alloc = static_cast<std::size_t>(std::max(alloc_natural, alloc_scrambled));
        in = std::make_unique<FftwArray>(alloc);
        out = std::make_unique<FftwArray>(alloc);
        natural = fftw_mpi_plan_dft_1d(n, in->data, out->data, world.native(), FFTW_FORWARD, FFTW_MEASURE);
        scrambled = fftw_mpi_plan_dft_1d(
            n, in->data, out->data, world.native(), FFTW_FORWARD, FFTW_MEASURE | FFTW_MPI_SCRAMBLED_OUT);
        std::copy_n(x.begin() + local_i_start, local_ni, in->complex());  // after planning: MEASURE overwrites
#endif
    }
    ~MpiPeer() {
        for (const fftw_plan plan : {natural, scrambled}) {
            if (plan != nullptr) {
                fftw_destroy_plan(plan);
            }
        }
    }
    MpiPeer(const MpiPeer&) = delete;
    MpiPeer& operator=(const MpiPeer&) = delete;

    static void execute(fftw_plan plan) {
        if (plan != nullptr) {
            fftw_execute(plan);
        }
    }
    /// The natural output against serial FFTW's entry by entry, the scrambled one by Parseval. Collective.
    void check(OutputCheck& check) const {
        if (natural != nullptr) {
            fftw_execute(natural);
            check.same("FFTW-MPI",
                       {out->complex(), static_cast<std::size_t>(local_no)},
                       [start = local_o_start](std::int64_t i) { return start + i; });
        }
        if (scrambled != nullptr) {
            fftw_execute(scrambled);
            check.parseval("FFTW-MPI scrambled", {out->complex(), static_cast<std::size_t>(scrambled_no)});
        }
    }
};

std::vector<Row> run(Group& world, const Options& options) {
    static const bool mpi_ready = [] {
#if !defined(LLC_SMPI)
        fftw_mpi_init();
#endif
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
        const std::vector<Complex> x = random_input(nu);  // every side's input, each in its own distribution
        // Serial FFTW on rank 0, planned with FFTW_MEASURE outside the timing.
        FftwArray serial_in(world.rank() == 0 ? nu : 0);
        FftwArray serial_out(world.rank() == 0 ? nu : 0);
        fftw_plan serial = nullptr;
        if (world.rank() == 0) {
            serial = fftw_plan_dft_1d(static_cast<int>(n), serial_in.data, serial_out.data, FFTW_FORWARD, FFTW_MEASURE);
            std::copy(x.begin(), x.end(), serial_in.complex());
        }
        const MpiPeer mpi(world, n, x);

        // Ours, block (scrambled, natural) and replicated, leaves planned with FFTW_MEASURE; and the default planner.
        FftPlan scrambled(
            world, n, {.layout = FftLayout::block, .order = FftOrder::scrambled, .planner = FftPlanner::measure});
        FftPlan natural(
            world, n, {.layout = FftLayout::block, .order = FftOrder::natural, .planner = FftPlanner::measure});
        FftPlan replicated(world, n, {.layout = FftLayout::replicated, .planner = FftPlanner::measure});
        FftPlan scrambled_estimate(world, n, {.layout = FftLayout::block, .order = FftOrder::scrambled});
        const auto local = static_cast<std::size_t>(scrambled.input_size());
        const std::vector<Complex> block_in(x.begin() + scrambled.input_start(),
                                            x.begin() + scrambled.input_start() + static_cast<std::ptrdiff_t>(local));
        std::vector<Complex> block_out(local);
        const std::vector<Complex>& whole_in = x;
        std::vector<Complex> whole_out(nu);
        fftw_export_wisdom_to_filename(wisdom.c_str());

        if (serial != nullptr) {
            fftw_execute(serial);
        }
        OutputCheck check(world, n, x, serial_out.complex());
        for (FftPlan* plan : {&scrambled, &natural, &scrambled_estimate}) {
            plan->execute(block_in, block_out);
            check.same(std::string("ours (block, ") + std::string(to_string(plan->options().order)) +
                           (plan == &scrambled_estimate ? ", estimate)" : ")"),
                       block_out,
                       [plan](std::int64_t i) { return plan->output_index(i); });
        }
        replicated.execute(whole_in, whole_out);
        check.same("ours (replicated)", whole_out, [](std::int64_t i) { return i; });
        mpi.check(check);

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
            [&] { mpi.execute(mpi.natural); },
            [&] { mpi.execute(mpi.scrambled); },
        };
        const std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        const double serial_s = t[4];
        rows.push_back({"fft-block-scrambled", P, n, t[0], "fftw-serial-measure", serial_s});
        if (mpi.scrambled != nullptr) {
            rows.push_back({"fft-block-scrambled", P, n, t[0], "fftw-mpi-scrambled-measure", t[6]});
        }
        rows.push_back({"fft-block-natural", P, n, t[1], "fftw-serial-measure", serial_s});
        if (mpi.natural != nullptr) {
            rows.push_back({"fft-block-natural", P, n, t[1], "fftw-mpi-measure", t[5]});
        }
        rows.push_back({"fft-replicated", P, n, t[2], "fftw-serial-measure", serial_s});
        rows.push_back({"fft-block-scrambled-estimate", P, n, t[3], "fftw-serial-measure", serial_s});

        if (serial != nullptr) {
            fftw_destroy_plan(serial);
        }
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
