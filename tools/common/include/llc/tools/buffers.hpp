#pragma once
/// @file
/// Buffers the llc tools time operations on. One rule: an operation's input and output never sit at the same offset
/// modulo 4 KiB.
///
/// Two same-sized vectors allocated one after the other sit 16 bytes apart modulo 4 KiB once they are large enough to
/// be mapped pages (every such block starts 16 bytes into a page), and a copy, reduction or out-of-place transform
/// from one into the other then runs 3–20× slower on this machine (4K aliasing: each store looks to the core as if it
/// may feed the next loads). Measured with MPI_Allreduce: 1024 doubles on one processor took 4.6 µs aliased against
/// 0.2 µs not; 2^17 doubles on two processors 1122 µs against 342 µs. A tool whose buffers alias measures the
/// allocator's luck, and llc-probe and llc-validate would each measure a different luck.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

#include <llc/huge_pages.hpp>

#if defined(LLC_SMPI)
#include <mpi.h>  // SMPI_SHARED_MALLOC, SMPI_SHARED_FREE
#endif

namespace llc::tools {

/// How much memory a measurement of data out of cache (the cold swap, `cost::cold_suffix`) rotates its buffers
/// through: each call uses the next slot, so a slot's data has left the caches before its turn comes again (four
/// times the 32 MiB last-level cache of the machine this was written on).
inline constexpr std::size_t cold_rotation_bytes = std::size_t{128} << 20;

/// Page-aligned slots of `bytes` each in a buffer of `room` bytes: the distance between slots and their number
/// (at least one; one slot when `room` holds no more, as for a message larger than the rotation).
struct ColdSlots {
    std::size_t stride = 0;
    std::size_t count = 1;
};
[[nodiscard]] inline ColdSlots cold_slots(std::size_t bytes, std::size_t room) {
    constexpr std::size_t page = 4096;
    ColdSlots s;
    s.stride = (bytes + page - 1) / page * page;
    if (s.stride > 0 && room > bytes) {
        s.count = (room - bytes) / s.stride + 1;
    }
    return s;
}

/// The cold swap's rotation (`cost::cold_suffix`): a send and a receive buffer of cold_rotation_bytes and a page each,
/// on transparent huge pages where the kernel grants them, and where the last call left off. One per process
/// (cold_rotation()), used alike by llc-probe's swap.cold and llc-validate's swap.cold case, so the probe measures what
/// the case runs: the same allocation, the same page kind and the same position, going on from call to call and from
/// size to size (llc-probe's cells each restarted at slot 0 before). Why huge pages: the exchanges the entry prices —
/// the FFT's block exchanges when its working set exceeds the last-level cache — receive into the FFT's own buffers,
/// which are huge pages of their own mapping (algorithms/fft's Buffer); on 4 KiB pages every cold slot also
/// misses the TLB and its page-table entries (a loaded micro-benchmark on this VM, MPI_Sendrecv through 128 MiB: 64 B
/// 1.2–1.4 µs on 4 KiB pages against 0.7 µs on huge pages, 92 KB 34–44 against 19–20 µs, 1 MiB 350–400 against
/// 170–177 µs). One mapping: the receive buffer starts 2 KiB past a 4 KiB boundary of the send buffer's end.
///
/// Why its own mapping (llc::HugePageMemory), not the allocator's: madvise(MADV_HUGEPAGE) only decides how pages not
/// yet faulted in are backed. Made late in a process (llc-validate makes it at the first cold swap's visit, after other
/// cases grew and freed the heap), glibc served the 260 MiB from its heap (0x55… addresses), over pages earlier
/// allocations had already faulted in at 4 KiB: in a whole quick validation on the 2-core VM only 76–94 of its 260 MiB
/// were huge pages a minute in (khugepaged then collapsed the rest over minutes), and the case's cold swaps ran on 4
/// KiB pages at the price above — 1.4–2× llc-probe's, whose rotation, made early, was all huge pages. A fresh anonymous
/// mapping has no page faulted in.
class ColdRotation {
  public:
    static constexpr std::size_t huge_page = huge_page_bytes;
    static constexpr std::size_t capacity = cold_rotation_bytes + 4096;  ///< bytes of each buffer

    ColdRotation() {
        const std::size_t send_room = (capacity + huge_page - 1) / huge_page * huge_page;
        receive_at_ = send_room + 2048;
        mapping_ = HugePageMemory(receive_at_ + capacity);
        data_ = static_cast<unsigned char*>(mapping_.data());
        std::memset(data_, 1, mapping_.size());  // first touch now: page faults are no part of a timing
    }
    ColdRotation(const ColdRotation&) = delete;
    ColdRotation& operator=(const ColdRotation&) = delete;
    ColdRotation(ColdRotation&&) = delete;
    ColdRotation& operator=(ColdRotation&&) = delete;
    ~ColdRotation() = default;

    [[nodiscard]] std::span<unsigned char> send() noexcept { return {data_, capacity}; }
    [[nodiscard]] std::span<unsigned char> receive() noexcept { return {data_ + receive_at_, capacity}; }
    /// The send side of swap.cold.heap (`cost::heap_suffix`): `capacity` bytes of the allocator's memory, as a caller's
    /// std::vector of that size gets it (a fresh mapping of ordinary pages where huge pages are only on request), made
    /// and first touched by the first call; the receive side is receive(), the slots those of advance().
    [[nodiscard]] std::span<unsigned char> heap_send() {
        if (heap_send_.empty()) {
            heap_send_.assign(capacity, 1);
        }
        return {heap_send_.data(), capacity};
    }
    /// The byte offset of the next of `slots` (page-aligned, cold_slots over at most `capacity`), going on after the
    /// slot the last call of any size used; a slot is used again only after the rest of the rotation.
    [[nodiscard]] std::size_t advance(const ColdSlots& slots) noexcept {
        const std::size_t stride = std::max<std::size_t>(slots.stride, 1);
        const std::size_t slot = (next_byte_ + stride - 1) / stride % slots.count;  // not back over the last slot
        next_byte_ = (slot + 1) % slots.count * stride;
        return slot * stride;
    }

  private:
    HugePageMemory mapping_;  ///< its own mapping on huge pages (llc/huge_pages.hpp), unmapped at the end
    unsigned char* data_ = nullptr;
    std::size_t receive_at_ = 0;
    std::size_t next_byte_ = 0;
    std::vector<unsigned char> heap_send_;  ///< heap_send()'s memory (empty until its first call)
};

/// This process's cold rotation, prepared (allocated and first touched) by the first call and kept until the process
/// ends, so that no timing visit refills 2 × 128 MiB.
[[nodiscard]] inline ColdRotation& cold_rotation() {
    static ColdRotation rotation;
    return rotation;
}

/// Whether a buffer's contents matter. `payload`: a timing's message payload, whose values nobody reads (llc-probe's
/// and llc-validate's collectives). Under SimGrid SMPI (LLC_SMPI) a payload is allocated with SMPI_SHARED_MALLOC:
/// every simulated rank runs in one process, and P ranks' payloads (p·h at a scatter's root, 2 × 256 MiB a rank at
/// P = 64 with messages to 4 MiB) would otherwise need P times the memory (9.6 GB at P = 32); SMPI folds shared
/// blocks onto one physical block and does not copy their bytes, which the simulated message time does not depend
/// on. `data`: values that are read or checked (an algorithm's input and output); a vector in every build. Outside
/// SMPI the two are the same.
enum class Contents { data, payload };

/// Two buffers of `a` and `b` values in one allocation, the second starting 2 KiB past a 4 KiB boundary of the first.
template <typename T>
class TwoBuffers {
  public:
    TwoBuffers(std::size_t a, std::size_t b, T a_value, T b_value, Contents contents = Contents::data) : a_(a), b_(b) {
        static_assert(4096 % sizeof(T) == 0, "a value must divide a page");
        constexpr std::size_t page = 4096 / sizeof(T);
        constexpr std::size_t half_page = page / 2;
        offset_ = a + (half_page + page - a % page) % page;  // offset ≡ 2 KiB (mod 4 KiB), ≥ a
#if defined(LLC_SMPI)
        if (contents == Contents::payload) {
            static_assert(std::is_trivially_copyable_v<T>, "a shared payload holds plain values");
            shared_.reset(static_cast<T*>(SMPI_SHARED_MALLOC((offset_ + b + 1) * sizeof(T))));
            data_ = shared_.get();
            std::fill_n(data_, offset_ + b + 1, b_value);
            std::fill_n(data_, a, a_value);
            return;
        }
#else
        (void)contents;
#endif
        storage_.assign(offset_ + b + 1, b_value);
        std::fill_n(storage_.begin(), a, a_value);
        data_ = storage_.data();
    }
    TwoBuffers(const TwoBuffers&) = delete;
    TwoBuffers& operator=(const TwoBuffers&) = delete;
    // A moved vector keeps its data's address, so data_ stays valid.
    TwoBuffers(TwoBuffers&&) noexcept = default;
    TwoBuffers& operator=(TwoBuffers&&) noexcept = default;
    ~TwoBuffers() = default;

    [[nodiscard]] std::span<T> a() noexcept {
        return {data_, a_};
    }
    [[nodiscard]] std::span<T> b() noexcept {
        return {data_ + offset_, b_};
    }

  private:
#if defined(LLC_SMPI)
    struct SharedFree {
        void operator()(T* p) const noexcept { SMPI_SHARED_FREE(p); }
    };
    std::unique_ptr<T, SharedFree> shared_;
#endif
    std::vector<T> storage_;
    T* data_ = nullptr;
    std::size_t a_ = 0;
    std::size_t b_ = 0;
    std::size_t offset_ = 0;
};

}  // namespace llc::tools
