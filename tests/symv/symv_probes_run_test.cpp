// symv's kernel probes run (algorithms/symv/src/symv_probes.cpp): alone, rank 0 calls llc::symv on a one-processor
// matrix built from the probe's rows (from_local checks their count: a share laid out otherwise than the matrix stores
// it throws), side by side every rank times its share with the product's O(n) work around it. Each returns a finite,
// positive time per unit; no speed is asserted (timings are measured by llc-probe, never held in a ctest).
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/llc.hpp>

namespace {

TEST(SymvProbesRun, TheSmallestSizesGiveAPositiveTimePerUnit) {
    llc::Group& g = llc::Group::world();
    int checked = 0;
    for (const llc::cost::KernelProbe& probe : llc::detail::symv::kernel_probes()) {
        for (const char* name : {llc::names::symv::entry, llc::names::symv::row}) {
            if (probe.name != llc::cost::kernel_size_key(name, llc::detail::symv::probe_min_e)) {
                continue;
            }
            g.barrier();  // side by side, as llc-probe starts every probe on all ranks at once
            const double side = probe.measure(true);
            EXPECT_TRUE(std::isfinite(side) && side > 0.0) << probe.name << " side by side: " << side;
            if (g.rank() == 0) {
                ASSERT_TRUE(probe.measure_alone) << probe.name << " has no alone measurement";
                const double alone = probe.measure_alone(true);
                EXPECT_TRUE(std::isfinite(alone) && alone > 0.0) << probe.name << " alone: " << alone;
            }
            ++checked;
        }
    }
    EXPECT_EQ(checked, 2) << "the reflection and the standard probes at 2^" << llc::detail::symv::probe_min_e;
}

}  // namespace
