// symv's kernel constants, by block size 2^e (the rows r = n/(2P) of a block of the reflection mapping, n/P of the
// standard one): seconds per off-diagonal packed entry of the fused row-and-column pass ("symv.entry", two
// multiply-adds) and per entry of the standard algorithm's row product ("symv.row", one). Measured on an r × r block
// stored as r separate rows, as the product reads it: small blocks stay in cache, large ones stream from memory.
#include <cstdint>
#include <string>
#include <vector>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/kernel_timing.hpp>

#include "symv_kernels.hpp"

namespace llc::detail::symv {

namespace {

struct Block {
    std::int64_t r;
    std::vector<double> a;  // r rows of r entries
    std::vector<double> x;
    std::vector<double> g;
};

/// The seed of the probes' blocks: not the validation cases' (docs/validation.md).
constexpr std::uint64_t block_probe_seed = 19;

Block make_block(int e) {
    const std::int64_t r = std::int64_t{1} << e;
    cost::ProbeValues values(block_probe_seed);
    Block b{r,
            std::vector<double>(static_cast<std::size_t>(r * r)),
            std::vector<double>(static_cast<std::size_t>(r)),
            std::vector<double>(static_cast<std::size_t>(r), 0.0)};
    for (auto* v : {&b.a, &b.x}) {
        for (auto& value : *v) {
            value = values();
        }
    }
    return b;
}

double entry_probe(bool quick, int e) {
    Block b = make_block(e);
    double sink = 0.0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t i = 0; i < b.r; ++i) {
            const auto u = static_cast<std::size_t>(i);
            sink += fused_row(b.a.data() + u * static_cast<std::size_t>(b.r), b.r, b.x.data(), b.x[u], b.g.data());
        }
    });
    volatile double keep = sink + b.g[0];  // the kernel's results are used
    (void)keep;
    return t / static_cast<double>(b.r * b.r);
}

double row_probe(bool quick, int e) {
    const Block b = make_block(e);
    double sink = 0.0;
    const double t = cost::median_seconds_per_call(quick, [&] {
        for (std::int64_t i = 0; i < b.r; ++i) {
            sink += dot(b.a.data() + static_cast<std::size_t>(i * b.r), b.r, b.x.data());
        }
    });
    volatile double keep = sink;
    (void)keep;
    return t / static_cast<double>(b.r * b.r);
}

}  // namespace

std::vector<cost::KernelProbe> kernel_probes() {
    std::vector<cost::KernelProbe> probes;
    // Up to 2^12 in a quick profile too: a 2^11 block (32 MiB) still partly sits in this kind of node's last-level
    // cache, so only the 128 MiB block prices the products worth distributing, which stream from memory (at 2^11 the
    // quick constants under-predicted n = 8192 and 16384 at P = 2 by 42-52 %). Larger blocks stream the same way.
    for (int e = 3; e <= 12; ++e) {
        probes.push_back({cost::kernel_size_key(names::symv::entry, e),
                          "off-diagonal packed entry of the fused symv pass on a 2^" + std::to_string(e) + " block",
                          [e](bool quick) { return entry_probe(quick, e); },
                          cost::kernel_size_key(cost::solo_kernel_name(names::symv::entry), e)});
        probes.push_back({cost::kernel_size_key(names::symv::row, e),
                          "entry of the standard symv row product on a 2^" + std::to_string(e) + " block",
                          [e](bool quick) { return row_probe(quick, e); },
                          cost::kernel_size_key(cost::solo_kernel_name(names::symv::row), e)});
    }
    for (cost::KernelProbe& probe : probes) {
        probe.seed = block_probe_seed;
    }
    return probes;
}

}  // namespace llc::detail::symv
