// The collectives card's cold swap (llc/card/cases_collectives.cpp): its 2 × 128 MiB rotation is prepared once per
// process and shared by every instance, so a visit of llc-validate no longer fills 256 MiB. Nothing timed: the
// resident memory counts the preparations (with an instance's own rotation, three alive together hold 768 MiB more).
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <malloc.h>  // mallopt
#include <memory>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <llc/llc.hpp>
#include <llc/tools/buffers.hpp>
#include <llc/tools/card.hpp>

#include "memory_maps.hpp"

namespace {

using llc::test::huge_pages_on_advice;
using llc::test::mapping_kb;

/// This process's resident bytes (/proc/self/statm).
double resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0;
    long resident = 0;
    statm >> pages >> resident;
    return static_cast<double>(resident) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

const llc::validate::Case& cold_swap() {
    const auto& cases = llc::tools::all_cases();
    const auto it = std::find_if(
        cases.begin(), cases.end(), [](const llc::validate::Case& c) { return c.algorithm == "swap.cold"; });
    if (it == cases.end()) {
        throw std::runtime_error("no swap.cold case");
    }
    return *it;
}

TEST(ColdRotation, EveryColdSwapSharesOnePreparedRotation) {
    llc::Group& g = llc::Group::world();
    if (g.size() % 2 != 0) {
        GTEST_SKIP() << "the cold swap runs on an even number of processors";
    }
    const llc::validate::Case& c = cold_swap();
    // The first instance prepares the rotation (2 × 128 MiB touched); runs of it go through its slots.
    auto first = c.prepare(g, 2048);
    for (int i = 0; i < 5; ++i) {
        first->run();
    }
    const double after_first = resident_bytes();
    // Three more, alive together, of three sizes: each its own 256 MiB before the rotation was shared.
    std::vector<std::unique_ptr<llc::validate::Instance>> more;
    for (const std::int64_t n : {64, 65536, 1 << 20}) {
        more.push_back(c.prepare(g, n));
        more.back()->run();
        more.back()->run();
    }
    const double grown = resident_bytes() - after_first;
    EXPECT_LT(grown, 64.0 * (1 << 20)) << "resident memory grew by " << grown / (1 << 20) << " MiB";
}

TEST(ColdRotation, TheCaseSwapsThroughTheRotationTheProbeUses) {
    llc::Group& g = llc::Group::world();
    if (g.size() % 2 != 0) {
        GTEST_SKIP() << "the cold swap runs on an even number of processors";
    }
    // llc-probe's swap.cold prepares tools::cold_rotation(); a case prepared after it must not make another one.
    (void)llc::tools::cold_rotation();
    const double before = resident_bytes();
    auto instance = cold_swap().prepare(g, 4096);
    instance->run();
    const double grown = resident_bytes() - before;
    EXPECT_LT(grown, 64.0 * (1 << 20)) << "resident memory grew by " << grown / (1 << 20) << " MiB";
}

TEST(ColdRotation, GoesOnAcrossSizesAndNeverAliasesModulo4KiB) {
    llc::tools::ColdRotation& r = llc::tools::cold_rotation();
    const auto send = reinterpret_cast<std::uintptr_t>(r.send().data());
    const auto receive = reinterpret_cast<std::uintptr_t>(r.receive().data());
    EXPECT_EQ(send % 4096, 0U);
    EXPECT_EQ((receive - send) % 4096, 2048U);  // the 4K-aliasing rule of llc/tools/buffers.hpp
    EXPECT_GE(receive, send + llc::tools::ColdRotation::capacity);
    const llc::tools::ColdSlots small = llc::tools::cold_slots(64, llc::tools::cold_rotation_bytes);
    const llc::tools::ColdSlots large = llc::tools::cold_slots(1 << 20, llc::tools::cold_rotation_bytes);
    const std::size_t a = r.advance(small);
    const std::size_t b = r.advance(small);
    EXPECT_EQ(b, (a + 4096) % (small.count * small.stride));
    // A larger size goes on past the small slots instead of starting again at slot 0.
    const std::size_t c = r.advance(large);
    EXPECT_EQ(c, (b + 4096 + large.stride - 1) / large.stride % large.count * large.stride);
    EXPECT_EQ(r.advance(large), (c + large.stride) % (large.count * large.stride));
}

TEST(ColdRotation, IsOnHugePagesEvenWhereTheHeapHoldsPagesFaultedIn) {
    // llc-validate makes the rotation at its first cold swap, after other cases grew and freed the heap. Made by the
    // allocator, it was then served over heap pages already faulted in at 4 KiB, which MADV_HUGEPAGE does not re-back
    // (a quick validation on the 2-core VM: 76–94 of 260 MiB huge a minute in, the cold swaps 1.4–2× the probe's).
    // Here the heap is made to hold 64 MiB of faulted, freed pages first (no mmap for large blocks, no trimming); the
    // rotation's own mapping must still be (almost) all huge pages. Rank 0 alone: nothing collective.
    if (llc::Group::world().rank() != 0) {
        return;
    }
    if (!huge_pages_on_advice()) {
        GTEST_SKIP() << "transparent huge pages are off on this machine";
    }
    if (mallopt(M_MMAP_THRESHOLD, 1 << 30) != 1 || mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1) {
        GTEST_SKIP() << "the allocator takes no mallopt (a sanitizer's): no heap to make";
    }
    {
        std::vector<unsigned char> grown(std::size_t{64} << 20, 1);  // from the heap, faulted in, then freed
        ASSERT_EQ(grown.back(), 1);
    }
    const auto rotation = std::make_unique<llc::tools::ColdRotation>();
    const auto [size, huge] = mapping_kb(rotation->send().data());
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // glibc's default again
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    ASSERT_GE(size, static_cast<long>(2 * llc::tools::cold_rotation_bytes / 1024)) << "no mapping holds send()";
    EXPECT_GE(static_cast<double>(huge), 0.9 * static_cast<double>(size)) << huge << " of " << size << " kB huge";
}

TEST(ColdRotation, TheHeapSwapSendsFromTheAllocatorsPagesIntoTheRotation) {
    // swap.cold.heap (cost::heap_suffix) prices an exchange that sends a caller's std::vector: its send side is the
    // allocator's memory, on the pages such a vector gets (4 KiB ones where huge pages are only on request), its
    // receive side the rotation's, and the two never 4K-alias. Rank 0 alone: nothing collective.
    if (llc::Group::world().rank() != 0) {
        return;
    }
    llc::tools::ColdRotation& r = llc::tools::cold_rotation();
    const std::span<unsigned char> heap = r.heap_send();
    ASSERT_EQ(heap.size(), llc::tools::ColdRotation::capacity);
    EXPECT_EQ(r.heap_send().data(), heap.data()) << "made once, at the first call";
    const auto at = reinterpret_cast<std::uintptr_t>(heap.data());
    const auto send = reinterpret_cast<std::uintptr_t>(r.send().data());
    const auto receive = reinterpret_cast<std::uintptr_t>(r.receive().data());
    EXPECT_TRUE(at + heap.size() <= send || at >= receive + llc::tools::ColdRotation::capacity)
        << "the heap side lies inside the rotation's mapping";
    const std::uintptr_t apart = (receive - at) % 4096;
    EXPECT_GE(std::min<std::uintptr_t>(apart, 4096 - apart), 64U) << "the heap side 4K-aliases the receive side";
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    std::getline(mode, line);
    if (line.find("[madvise]") == std::string::npos) {
        GTEST_SKIP() << "huge pages are not only on request here (" << line << "): a vector's pages may be huge too";
    }
    const auto [size, huge] = mapping_kb(heap.data());
    ASSERT_GE(size, static_cast<long>(llc::tools::cold_rotation_bytes / 1024)) << "no mapping holds heap_send()";
    EXPECT_LE(static_cast<double>(huge), 0.1 * static_cast<double>(size)) << huge << " of " << size << " kB huge";
}

}  // namespace
