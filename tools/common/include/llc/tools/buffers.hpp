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
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

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
