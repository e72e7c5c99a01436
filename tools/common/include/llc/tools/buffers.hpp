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
#include <span>
#include <vector>

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

/// Two buffers of `a` and `b` values in one allocation, the second starting 2 KiB past a 4 KiB boundary of the first.
template <typename T>
class TwoBuffers {
  public:
    TwoBuffers(std::size_t a, std::size_t b, T a_value, T b_value) : a_(a), b_(b) {
        static_assert(4096 % sizeof(T) == 0, "a value must divide a page");
        constexpr std::size_t page = 4096 / sizeof(T);
        constexpr std::size_t half_page = page / 2;
        offset_ = a + (half_page + page - a % page) % page;  // offset ≡ 2 KiB (mod 4 KiB), ≥ a
        storage_.assign(offset_ + b + 1, b_value);
        std::fill_n(storage_.begin(), a, a_value);
    }
    [[nodiscard]] std::span<T> a() noexcept { return {storage_.data(), a_}; }
    [[nodiscard]] std::span<T> b() noexcept { return {storage_.data() + offset_, b_}; }

  private:
    std::vector<T> storage_;
    std::size_t a_ = 0;
    std::size_t b_ = 0;
    std::size_t offset_ = 0;
};

}  // namespace llc::tools
