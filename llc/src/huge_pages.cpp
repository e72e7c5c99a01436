#include <cstdint>
#include <new>
#include <sys/mman.h>
#include <utility>

#include <llc/huge_pages.hpp>

namespace llc {

void* map_huge_pages(std::size_t bytes) {
    const std::size_t size = whole_huge_pages(bytes);
    if (size == 0) {
        throw std::bad_alloc();
    }
    // A huge page more than asked, then the unaligned head and the tail cut off: what remains starts on a 2 MiB
    // boundary and is exactly `size` bytes, so that unmap_huge_pages(p, bytes) gives back the whole mapping.
    const std::size_t span = size + huge_page_bytes;
    void* const start = ::mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (start == MAP_FAILED) {
        throw std::bad_alloc();
    }
    const auto address = reinterpret_cast<std::uintptr_t>(start);
    const std::size_t head = (huge_page_bytes - address % huge_page_bytes) % huge_page_bytes;
    auto* const aligned = static_cast<unsigned char*>(start) + head;
    if (head > 0) {
        ::munmap(start, head);
    }
    if (const std::size_t tail = span - head - size; tail > 0) {
        ::munmap(aligned + size, tail);
    }
#if defined(MADV_HUGEPAGE)
    ::madvise(aligned, size, MADV_HUGEPAGE);  // a hint: without THP the pages stay ordinary
#endif
    return aligned;
}

void unmap_huge_pages(void* p, std::size_t bytes) noexcept {
    if (p != nullptr) {
        ::munmap(p, whole_huge_pages(bytes));
    }
}

HugePageMemory::HugePageMemory(std::size_t bytes) {
    if (bytes > 0) {
        data_ = map_huge_pages(bytes);
        bytes_ = whole_huge_pages(bytes);
    }
}

HugePageMemory::~HugePageMemory() {
    unmap_huge_pages(data_, bytes_);
}

HugePageMemory::HugePageMemory(HugePageMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), bytes_(std::exchange(other.bytes_, 0)) {}

HugePageMemory& HugePageMemory::operator=(HugePageMemory&& other) noexcept {
    if (this != &other) {
        unmap_huge_pages(data_, bytes_);
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

}  // namespace llc
