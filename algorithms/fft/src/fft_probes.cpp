// The FFT's kernel constants D, F, C (CCM paper §3) and the two the implementation adds (strided leaf, reorder),
// measured on this processor alone with the kernels FftPlan::execute runs.

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/fft.hpp>
#include <llc/cost/kernel_probe.hpp>

#include "fft_kernels.hpp"

namespace llc::detail::fft {

namespace {

/// Median seconds of `repeat` runs of body (after one warm-up run).
double median_seconds(int repeat, const std::function<void()>& body) {
    body();
    std::vector<double> samples;
    for (int i = 0; i < repeat; ++i) {
        const auto start = std::chrono::steady_clock::now();
        body();
        samples.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(samples.begin(), samples.end());
    return samples[samples.size() / 2];
}

/// Elements a probe works on: out of cache, like the leaves and stages of the sizes llc-validate sweeps
/// (n = 2^16 … 2^24 at P ≤ 2 gives blocks of 2^15 … 2^24 entries).
std::size_t probe_size(bool quick) {
    return quick ? std::size_t{1} << 18 : std::size_t{1} << 20;
}
int probe_repeat(bool quick) {
    return quick ? 3 : 7;
}

void fill(const Buffer& b, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (Complex& z : b.span()) {
        z = {u(rng), u(rng)};
    }
}

double leaf_probe(bool quick, std::size_t stride, std::size_t n) {
    Leaf leaf(n, stride, stride == 1, FftDirection::forward, FftPlanner::estimate);
    const Buffer in(n * stride);
    const Buffer out(n);
    fill(in, 1);
    Complex* target = stride == 1 ? in.data() : out.data();
    const double t = median_seconds(probe_repeat(quick), [&] { leaf.execute(in.data(), target); });
    return t / (static_cast<double>(n) * std::log2(static_cast<double>(n)));
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    probes.push_back(
        {"fft.divide", "element of a decimation-in-frequency butterfly (upper partner, with twiddle)", [](bool quick) {
             const std::size_t L = probe_size(quick);
             const Buffer a(L);
             const Buffer b(L);
             fill(a, 2);
             fill(b, 3);
             const Twiddles w(2 * L, -1, 0, L);
             const double t = median_seconds(probe_repeat(quick), [&] { dif_upper(a.data(), b.data(), b.data(), w); });
             return t / static_cast<double>(L);
         }});
    probes.push_back({"fft.combine", "butterfly (two elements) of the decimation-in-time combine", [](bool quick) {
                          const std::size_t n = 2 * probe_size(quick);
                          const Buffer x(n);
                          fill(x, 4);
                          const Twiddles w(n, -1, 0, n / 2);
                          const double t = median_seconds(probe_repeat(quick), [&] { dit_combine(x.data(), w); });
                          return t / static_cast<double>(n / 2);
                      }});
    probes.push_back({"fft.leaf", "n*log2(n) of a contiguous in-place leaf (default planner)", [](bool quick) {
                          return leaf_probe(quick, 1, probe_size(quick));
                      }});
    probes.push_back({"fft.leaf_strided",
                      "n*log2(n) of a leaf reading with stride 2 (default planner)",
                      [](bool quick) { return leaf_probe(quick, 2, probe_size(quick)); }});
    // The leaf's cost per n·log2 n depends on n (cache, and the four-step from 2^15): one constant per size, which
    // llc::cost::FftConstants interpolates in log2 n.
    for (int k = 12; k <= 24; k += 2) {
        const std::size_t n = std::size_t{1} << k;
        const std::string suffix = ".2^" + std::to_string(k);
        probes.push_back({"fft.leaf" + suffix,
                          "n*log2(n) of a contiguous in-place leaf of 2^" + std::to_string(k),
                          [n](bool quick) { return leaf_probe(quick, 1, n); }});
        if (k <= 22) {
            probes.push_back({"fft.leaf_strided" + suffix,
                              "n*log2(n) of a stride-2 leaf of 2^" + std::to_string(k),
                              [n](bool quick) { return leaf_probe(quick, 2, n); }});
        }
    }
    probes.push_back({"fft.reorder", "element of the natural-order interleave", [](bool quick) {
                          const std::size_t m = probe_size(quick) / 2;
                          const Buffer a(m);
                          const Buffer b(m);
                          const Buffer out(2 * m);
                          fill(a, 5);
                          fill(b, 6);
                          const double t = median_seconds(probe_repeat(quick),
                                                          [&] { interleave2(a.data(), b.data(), out.data(), m, 0); });
                          return t / static_cast<double>(2 * m);
                      }});
    return probes;
}

}  // namespace llc::detail::fft
