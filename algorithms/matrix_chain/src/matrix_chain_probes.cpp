// The interval DP's kernel constant: seconds per update c(i,j) := min(c(i,j), c(i,k) + c(k+1,j) + f) of the
// matrix-chain min-plus kernel, by segment length 2^e (the length j − i of the row and column it runs over): short
// segments pay the per-entry overheads, long ones leave the cache. Measured as the engine runs it, on a 64 × 64 block
// of entries whose rows and columns are all contiguous (the working set of one block of the engine).
#include <cstdint>
#include <vector>

#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "interval_dp.hpp"

namespace llc::detail::matrix_chain {

namespace {

double update_probe(bool quick, int e) {
    constexpr int block = 64;  // the engine's r at P = 1, near the model's r at P = 2
    const std::int64_t len = std::int64_t{1} << e;
    const auto stride = static_cast<std::size_t>(len + block);
    cost::ProbeValues values(18);
    std::vector<std::int64_t> rows(block * stride);
    std::vector<std::int64_t> cols(block * stride);
    std::vector<std::int64_t> dims(stride);
    for (auto* v : {&rows, &cols, &dims}) {
        for (auto& x : *v) {
            x = static_cast<std::int64_t>((values() + 1.0) * 1000.0) + 1;
        }
    }
    std::int64_t sink = 0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (int i = 0; i < block; ++i) {
            for (int j = 0; j < block; ++j) {
                const auto best = interval_dp::min_plus<std::int64_t, true>(
                    rows.data() + i * stride, cols.data() + j * stride, dims.data(), dims[i] * dims[j], len);
                sink += best.value + best.m;
            }
        }
    });
    volatile std::int64_t keep = sink;  // the kernel's result is used
    (void)keep;
    return t / static_cast<double>(block * block * len);
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    for (int e = 2; e <= 13; ++e) {
        probes.push_back({cost::kernel_size_key("mc.update", e),
                          "update of the min-plus kernel at segment length 2^" + std::to_string(e),
                          [e](bool quick) { return update_probe(quick, e); }});
    }
    return probes;
}

}  // namespace llc::detail::matrix_chain
