// llc::map_huge_pages / HugePageMemory (<llc/huge_pages.hpp>): a fresh mapping of whole huge pages, 2 MiB-aligned,
// zeros, given back whole; on transparent huge pages even where the heap holds pages earlier allocations faulted in at
// 4 KiB (the case that made the FFT's buffers and matrix chain's tables change page kind from run to run).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <malloc.h>  // mallopt
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/huge_pages.hpp>

#include "memory_maps.hpp"

namespace {

TEST(HugePages, WholeAlignedZeroedPagesGivenBackWhole) {
    EXPECT_EQ(llc::whole_huge_pages(0), 0U);
    EXPECT_EQ(llc::whole_huge_pages(1), llc::huge_page_bytes);
    EXPECT_EQ(llc::whole_huge_pages(llc::huge_page_bytes), llc::huge_page_bytes);
    EXPECT_EQ(llc::whole_huge_pages(llc::huge_page_bytes + 1), 2 * llc::huge_page_bytes);
    const std::size_t bytes = 3 * llc::huge_page_bytes - 100;
    void* p = llc::map_huge_pages(bytes);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % llc::huge_page_bytes, 0U);
    const auto* bytes_of = static_cast<const unsigned char*>(p);
    EXPECT_EQ(bytes_of[0], 0);
    EXPECT_EQ(bytes_of[3 * llc::huge_page_bytes - 1], 0);  // the rounded-up tail is there too
    std::memset(p, 5, 3 * llc::huge_page_bytes);
    // The mapping is exactly the pages given: nothing of the over-allocation made to align it is left mapped.
    EXPECT_EQ(llc::test::mapping_kb(p).first, static_cast<long>(3 * llc::huge_page_bytes / 1024));
    llc::unmap_huge_pages(p, bytes);
    EXPECT_EQ(llc::test::mapping_kb(p).first, 0);
    llc::unmap_huge_pages(nullptr, bytes);  // a no-op
}

TEST(HugePages, MemoryOwnsItsMappingAndMoves) {
    const llc::HugePageMemory none;
    EXPECT_EQ(none.data(), nullptr);
    EXPECT_EQ(none.size(), 0U);
    EXPECT_EQ(llc::HugePageMemory(0).data(), nullptr);
    llc::HugePageMemory a(100);
    ASSERT_NE(a.data(), nullptr);
    EXPECT_EQ(a.size(), llc::huge_page_bytes);
    void* const at = a.data();
    llc::HugePageMemory b(std::move(a));
    EXPECT_EQ(b.data(), at);
    EXPECT_EQ(a.data(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is empty, by contract
    llc::HugePageMemory c(llc::huge_page_bytes);
    void* const other = c.data();
    c = std::move(b);  // c's own mapping is given back
    EXPECT_EQ(c.data(), at);
    EXPECT_EQ(llc::test::mapping_kb(other).first, 0);
    EXPECT_GT(llc::test::mapping_kb(at).first, 0);
}

TEST(HugePages, AreHugeEvenWhereTheHeapHoldsPagesFaultedIn) {
    if (!llc::test::huge_pages_on_advice()) {
        GTEST_SKIP() << "transparent huge pages are off on this machine";
    }
    // The heap is made to hold 64 MiB of faulted, freed 4 KiB pages first (no mmap for large blocks, no trimming),
    // as a long-running process's heap does: the aligned_alloc + madvise these buffers had before was served from it.
    if (mallopt(M_MMAP_THRESHOLD, 1 << 30) != 1 || mallopt(M_TRIM_THRESHOLD, 1 << 30) != 1) {
        GTEST_SKIP() << "the allocator takes no mallopt (a sanitizer's): no heap to make";
    }
    {
        std::vector<unsigned char> grown(std::size_t{64} << 20, 1);
        ASSERT_EQ(grown.back(), 1);
    }
    const llc::HugePageMemory memory(std::size_t{32} << 20);
    std::memset(memory.data(), 1, memory.size());  // the first touch
    const auto [size, huge] = llc::test::mapping_kb(memory.data());
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // glibc's default again
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    ASSERT_EQ(size, static_cast<long>(memory.size() / 1024));
    EXPECT_GE(static_cast<double>(huge), 0.9 * static_cast<double>(size)) << huge << " of " << size << " kB huge";
}

}  // namespace
