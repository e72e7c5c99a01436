// The FFT's kernel constants D, F, C (CCM paper §3) and the ones the implementation adds (out-of-place and strided
// leaves, reorder), measured on this processor alone with the kernels FftPlan::execute runs, per size: a leaf's cost
// per n·log2 n and a streaming kernel's cost per element depend on whether the data fits in cache, and FFTW's
// estimate planner picks a different algorithm for each length. llc::cost::FftConstants interpolates the per-size
// constants in log2 of the size.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <pthread.h>
#include <sched.h>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_names.hpp>
#include <llc/clock.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "fft_kernels.hpp"

namespace llc::detail::fft {

namespace {

/// The planner FftOptions uses by default (the one llc-validate and the cost model assume).
constexpr FftPlanner probe_planner = FftOptions{}.planner;

/// The probe's input: reproducible values in [−1, 1) (the kernels' times do not depend on them).
void fill(const Buffer& b, std::uint64_t seed) {
    cost::ProbeValues next(seed);
    for (Complex& z : b.span()) {
        const double re = next();
        z = {re, next()};
    }
}

/// Seconds per n·log2 n of the leaf FftPlan builds as Leaf(n, stride, in_place, forward, the default planner): the
/// replicated layout's leaves read every stride-th term of an array of n·stride entries and write n contiguous ones
/// (out of place), the block layout's run in place (scrambled order) or out of place (natural order), the serial path
/// out of place. An in-place leaf runs repeatedly on its own output: FFTW's time does not depend on the values. The
/// arrays stand for the caller's, on ordinary pages (the four-step's intermediate array is its own, on huge pages).
double leaf_probe(bool quick, std::size_t n, std::size_t stride, bool in_place) {
    Leaf leaf(n, stride, in_place, FftDirection::forward, probe_planner);
    const Buffer in(n * stride, Pages::ordinary);
    const Buffer out(in_place ? 0 : n, Pages::ordinary);
    fill(in, 1);
    Complex* target = in_place ? in.data() : out.data();
    const double t = cost::median_seconds_per_call(quick, [&] { leaf.execute(in.data(), target); });
    return t / (static_cast<double>(n) * std::log2(static_cast<double>(n)));
}

/// Seconds per L·log2 L of the block layout's last stage with its butterfly folded into the four-step leaf
/// (Leaf::execute_dif), for the upper partner (its butterfly multiplies by the twiddles: the slower of the two, and
/// the stage lasts as long as its slowest processor).
double leaf_dif_probe(bool quick, std::size_t L) {
    Leaf leaf(L, 1, true, FftDirection::forward, probe_planner, /*dif_upper=*/true, /*four_step=*/true);
    const Buffer a(L);  // the received block: the plan's own buffer
    const Buffer b(L, Pages::ordinary);
    const Buffer out(L, Pages::ordinary);
    fill(a, 7);
    fill(b, 8);
    const double t =
        cost::median_seconds_per_call(quick, [&] { leaf.execute_dif(a.data(), b.data(), true, out.data()); });
    return t / (static_cast<double>(L) * std::log2(static_cast<double>(L)));
}

double divide_probe(bool quick, std::size_t L) {
    const Buffer a(L);  // the received block: the plan's own buffer
    const Buffer b(L, Pages::ordinary);
    fill(a, 2);
    fill(b, 3);
    const Twiddles w(2 * L, -1, 0, L);
    return cost::median_seconds_per_call(quick, [&] { dif_upper(a.data(), b.data(), b.data(), w); }) /
           static_cast<double>(L);
}

double combine_hot_probe(bool quick, std::size_t butterflies) {
    const std::size_t n = 2 * butterflies;
    const Buffer x(n, Pages::ordinary);
    fill(x, 4);
    const Twiddles w(n, -1, 0, butterflies);
    return cost::median_seconds_per_call(quick, [&] { dit_combine(x.data(), w); }) / static_cast<double>(butterflies);
}

/// Reads `bytes` at `data` on a thread pinned to another processor than the calling thread's (unpinned when the
/// process may run on one only), and waits for it: afterwards the lines are shared with that processor's caches, as
/// after a partner of an exchange copied them (Open MPI's single-copy receive reads the sender's memory from the
/// receiver's processor).
void read_on_another_processor(const Complex* data, std::size_t bytes, std::vector<unsigned char>& sink) {
    const int mine = sched_getcpu();
    cpu_set_t others;
    CPU_ZERO(&others);
    for (int cpu = 0; cpu < static_cast<int>(std::thread::hardware_concurrency()) && cpu < CPU_SETSIZE; ++cpu) {
        if (cpu != mine) {
            CPU_SET(cpu, &others);
        }
    }
    std::thread reader([&] {
        if (CPU_COUNT(&others) > 0) {
            (void)pthread_setaffinity_np(pthread_self(), sizeof(others), &others);
        }
        std::memcpy(sink.data(), data, bytes);
    });
    reader.join();
}

/// The smallest and largest butterflies whose combine is probed after another processor read the half it sends: at
/// 2^9 butterflies the division sends 8 KiB, beyond Open MPI's 4 KiB eager copy (at 2^7 the combine after the exchange
/// cost what it costs hot); at 2^18 (8 MiB) the data has left this machine's 2 MiB second-level cache, and from 2^20
/// (32 MiB, past the last-level cache) it streams from memory whoever held it, where a probe of single calls after a
/// 64 MiB copy took seconds.
constexpr std::size_t combine_shared_min = std::size_t{1} << 9;
constexpr std::size_t combine_shared_max = std::size_t{1} << 18;

/// Seconds per butterfly of the DIT combine in the state the replicated layout runs it: right after the division's
/// exchange, whose partner has just read the half this processor sent (Open MPI's single-copy receive reads the
/// sender's memory from the receiver's processor). The combine writes both halves in place, and each line another
/// processor holds must be taken back before it is written. Measured at P = 2 (2026-11-27, loaded): the combine after
/// the exchange took 5.2 / 21.8 / 40.1 / 164 µs against 0.45 / 2.2 / 8.0 / 32 µs hot at n = 2^10 / 2^12 / 2^14 / 2^16,
/// nothing more at 2^8; priced hot, the replicated layout's p = 2 runs were 33–60 % low at n ≤ 2^16 in the quiet demos.
/// The probe has another processor read the first half (a thread pinned there), then times one call; the median of such
/// calls. Outside [combine_shared_min, combine_shared_max] the combine is timed hot, call after call.
double combine_probe(bool quick, std::size_t butterflies) {
#if defined(LLC_SMPI)
    constexpr bool simulated = true;  // a simulated host shares no cache lines
#else
    constexpr bool simulated = false;
#endif
    if (simulated || butterflies < combine_shared_min || butterflies > combine_shared_max) {
        return combine_hot_probe(quick, butterflies);
    }
    const std::size_t n = 2 * butterflies;
    const Buffer x(n, Pages::ordinary);
    fill(x, 4);
    const Twiddles w(n, -1, 0, butterflies);
    std::vector<unsigned char> sink(butterflies * sizeof(Complex));
    dit_combine(x.data(), w);  // first touch, twiddles in cache
    // Single calls (one call changes the state): more where a call is short, fewer where it streams the cache.
    const int calls = butterflies <= (std::size_t{1} << 16) ? (quick ? 9 : 25) : (quick ? 5 : 9);
    std::vector<double> seconds;
    for (int c = 0; c < calls; ++c) {
        read_on_another_processor(x.data(), butterflies * sizeof(Complex), sink);
        const double t0 = clock_seconds();
        dit_combine(x.data(), w);
        seconds.push_back(clock_seconds() - t0);
    }
    std::nth_element(seconds.begin(), seconds.begin() + static_cast<std::ptrdiff_t>(seconds.size() / 2), seconds.end());
    return seconds[seconds.size() / 2] / static_cast<double>(butterflies);
}

double reorder_probe(bool quick, std::size_t L) {
    const std::size_t m = L / 2;
    const Buffer a(m);
    const Buffer b(m);
    const Buffer out(L, Pages::ordinary);
    fill(a, 5);
    fill(b, 6);
    return cost::median_seconds_per_call(quick, [&] { interleave2(a.data(), b.data(), out.data(), m, 0); }) /
           static_cast<double>(L);
}

/// The leaf sizes probed: every power of two from 2^4 up to `top`. Below 2^16 FFTW's estimate plans, and with them
/// the cost per n·log2 n, change from one length to the next while the data is in cache; above, the four-step splits
/// an odd power unevenly (2^17 = 2^9 × 2^8), and a stride-2 leaf of 2^17 cost 1.10 ns per n·log2 n, as much as 2^18
/// and 28 % more than 2^16 — the interpolation between the even powers priced it ~10 % low. Two processors run leaves
/// of odd powers whenever n is an even one.
std::vector<int> leaf_exponents(int top) {
    std::vector<int> ks;
    for (int k = 4; k <= top; ++k) {
        ks.push_back(k);
    }
    return ks;
}

/// 2^k, for the probes' units.
std::string pow2(int k) {
    return "2^" + std::to_string(k);
}

/// The largest size (log2) a quick calibration (`llc-probe --quick`) measures: the probes above it are full_only.
constexpr int quick_max_exponent = 22;

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    namespace key = names::fft;
    std::vector<cost::KernelProbe> probes;
    // Above 2^22 entries a probe takes about a second (buffers of 256 MiB and more, their twiddles, two calls; all of
    // them together were half of a quick calibration's kernel time): full calibrations only. A quick profile prices
    // those sizes with its largest (cost::kernel_per_unit clamps to the measured range).
    const auto add = [&probes](const char* kernel,
                               int k,
                               std::string unit,
                               std::function<double(bool)> measure,
                               std::string solo_name = {}) {
        probes.push_back({cost::kernel_size_key(kernel, k),
                          std::move(unit),
                          std::move(measure),
                          std::move(solo_name),
                          /*full_only=*/k > quick_max_exponent});
    };
    // Leaves, contiguous out of place (serial, block natural order) and in place (block scrambled order), and
    // replicated leaves reading with stride 2^d after d divisions (stride 2 at P = 2, 4 at P = 3, 4, …). Each kind
    // up to the largest leaf of it that a run of n ≤ 2^24 on P ≤ 2 makes: 2^24 out of place (serial), 2^23 with
    // stride 2 and folded (P = 2). Beyond the 32 MiB last-level cache the four-step's cost per n·log2 n still grows:
    // taking 2^22's constant priced the serial 2^24 transform 13–17 % low in each of the three cases of one validation
    // run here. The in-place
    // leaf runs where no fold applies (scrambled blocks of in_place_fftw_min … in_place_fftw_max, other lengths that
    // are not powers of two), and strides 4 and 8 at P ≥ 3 (their inputs are 4–8 times the leaf): up to 2^22 and 2^20;
    // larger leaves take the constant of the largest.
    for (const int k : leaf_exponents(24)) {
        const std::size_t n = std::size_t{1} << k;
        // Also alone on the node, at odd powers only: the serial path of a one-processor plan. Measured alone, the leaf
        // is a whole one-processor FFT, and llc-validate's FFT cases validate even powers at p = 1: the calibration
        // must not time the very runs it is validated on (docs/validation.md), so their prices interpolate between
        // the odd powers around them.
        const bool solo = k % 2 == 1;
        add(
            key::leaf_oop,
            k,
            "n*log2(n) of a contiguous out-of-place leaf of " + pow2(k),
            [n](bool quick) { return leaf_probe(quick, n, 1, false); },
            solo ? cost::kernel_size_key(key::leaf_oop_solo, k) : std::string{});
        if (solo) {
            probes.back().whole_run_of = "fft";
            probes.back().whole_run_size = std::int64_t{1} << k;
        }
    }
    for (const int k : leaf_exponents(22)) {
        const std::size_t n = std::size_t{1} << k;
        add(key::leaf, k, "n*log2(n) of a contiguous in-place leaf of " + pow2(k), [n](bool quick) {
            return leaf_probe(quick, n, 1, true);
        });
    }
    // The last stage of the block layout where FftPlan folds its butterfly into the leaf (the four-step sizes).
    for (const int k : leaf_exponents(23)) {
        const std::size_t L = std::size_t{1} << k;
        if (four_step_applies(L)) {
            add(key::leaf_dif,
                k,
                "L*log2(L) of the last butterfly folded into a four-step leaf of " + pow2(k),
                [L](bool quick) { return leaf_dif_probe(quick, L); });
        }
    }
    for (const key::StridedLeaf& strided : key::strided_leaves) {
        const std::size_t stride = strided.stride;
        for (const int k : leaf_exponents(stride == 2 ? 23 : 20)) {
            const std::size_t n = std::size_t{1} << k;
            add(strided.key,
                k,
                "n*log2(n) of a stride-" + std::to_string(stride) + " out-of-place leaf of " + pow2(k),
                [n, stride](bool quick) { return leaf_probe(quick, n, stride, false); });
        }
    }
    // Streaming kernels: per element (butterfly) at every second size up to 2^24, the largest a run of n ≤ 2^24 on
    // P ≤ 2 streams over (2^23 there, between the two last sizes): past the last-level cache the cost per element
    // still grows with the size (the reorder of 2^23 in a trace took 1.8× the price of 2^22's constant).
    // The combine as it runs after its division's exchange (combine_probe), also at 2^9 butterflies, the smallest
    // whose exchange lets the partner read the sent half: between 2^8 (hot) and 2^10 the interpolation would halve it.
    const auto add_combine = [&add](int k) {
        const std::size_t m = std::size_t{1} << k;
        add(key::combine,
            k,
            "butterfly (two elements) of the decimation-in-time combine after its exchange, " + pow2(k) +
                " butterflies",
            [m](bool quick) { return combine_probe(quick, m); });
    };
    add_combine(9);
    for (int k = 6; k <= 24; k += 2) {
        const std::size_t m = std::size_t{1} << k;
        add(key::divide,
            k,
            "element of a decimation-in-frequency butterfly (upper partner, with twiddle), block of " + pow2(k),
            [m](bool quick) { return divide_probe(quick, m); });
        add_combine(k);
        add(key::reorder, k, "element of the natural-order interleave, block of " + pow2(k), [m](bool quick) {
            return reorder_probe(quick, m);
        });
    }
    return probes;
}

}  // namespace llc::detail::fft
