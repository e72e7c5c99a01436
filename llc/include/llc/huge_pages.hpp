#pragma once
/// @file
/// Memory on transparent huge pages that no earlier allocation has touched: a fresh anonymous mapping, aligned to
/// 2 MiB and advised MADV_HUGEPAGE before its first page fault.
///
/// Why not the allocator's memory advised afterwards: madvise(MADV_HUGEPAGE) only decides how pages not yet faulted
/// in are backed. Late in a process glibc serves a large aligned_alloc from its heap, over pages earlier allocations
/// already faulted in at 4 KiB; the advice then leaves them so, and the kernel's khugepaged collapses them into huge
/// pages over the following minutes. The same buffer thus ran on 4 KiB pages in one run and on huge pages in another,
/// and its time with it (issue #32: the cold swap's rotation in llc-validate had 76–94 of its 260 MiB on huge pages a
/// minute in, and swapped 1.4–2× slower than in llc-probe, whose rotation, made early, was all huge pages). The advice
/// also stays on the heap's range after the buffer is freed, so later allocations of other code inherit it. A mapping
/// of its own has neither problem, and it is unmapped when freed.
///
/// Where the kernel offers no transparent huge pages the advice is ignored and the pages are ordinary ones.

#include <cstddef>

namespace llc {

/// The transparent huge page size of x86-64 and AArch64 (4 KiB granules) Linux.
inline constexpr std::size_t huge_page_bytes = std::size_t{2} << 20;

/// `bytes` rounded up to whole huge pages (0 stays 0).
[[nodiscard]] constexpr std::size_t whole_huge_pages(std::size_t bytes) noexcept {
    return (bytes + huge_page_bytes - 1) / huge_page_bytes * huge_page_bytes;
}

/// A fresh mapping of whole_huge_pages(bytes) bytes (bytes > 0), 2 MiB-aligned, advised MADV_HUGEPAGE, not yet
/// touched (reads give zeros). Give it back with unmap_huge_pages(p, bytes). @throws std::bad_alloc when the system
/// has no such mapping to give.
[[nodiscard]] void* map_huge_pages(std::size_t bytes);

/// Unmaps memory of map_huge_pages(bytes) (the same `bytes`); nullptr is ignored.
void unmap_huge_pages(void* p, std::size_t bytes) noexcept;

/// An owned map_huge_pages mapping (RAII, move-only).
class HugePageMemory {
  public:
    HugePageMemory() = default;
    /// whole_huge_pages(bytes) bytes (none for 0). @throws std::bad_alloc as map_huge_pages.
    explicit HugePageMemory(std::size_t bytes);
    ~HugePageMemory();
    HugePageMemory(HugePageMemory&& other) noexcept;
    HugePageMemory& operator=(HugePageMemory&& other) noexcept;
    HugePageMemory(const HugePageMemory&) = delete;
    HugePageMemory& operator=(const HugePageMemory&) = delete;

    [[nodiscard]] void* data() const noexcept { return data_; }
    /// The mapping's bytes: whole huge pages.
    [[nodiscard]] std::size_t size() const noexcept { return bytes_; }

  private:
    void* data_ = nullptr;
    std::size_t bytes_ = 0;
};

}  // namespace llc
