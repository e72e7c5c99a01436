#pragma once
/// @file
/// Integer logarithms of processor counts and sizes, and the power-of-two test: the one definition that llc, its cost
/// layer and the algorithms use (the broadcast schedules' rounds, the models' ⌈log2 P⌉ latencies, the FFT's stages).

#include <bit>

namespace llc {

/// ⌊log2 n⌋ for n ≥ 1 (the largest d with 2^d ≤ n); 0 for n ≤ 1.
[[nodiscard]] constexpr int floor_log2(long long n) noexcept {
    return n <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<unsigned long long>(n))) - 1;
}

/// ⌈log2 n⌉ for n ≥ 1 (the smallest d with 2^d ≥ n: the rounds of a binomial tree over n processors); 0 for n ≤ 1.
[[nodiscard]] constexpr int ceil_log2(long long n) noexcept {
    return n <= 1 ? 0 : static_cast<int>(std::bit_width(static_cast<unsigned long long>(n - 1)));
}

/// True when n is a power of two (1, 2, 4, …); false for n ≤ 0. For such n, floor_log2(n) == ceil_log2(n) is its
/// exponent.
[[nodiscard]] constexpr bool is_power_of_two(long long n) noexcept {
    return n > 0 && std::has_single_bit(static_cast<unsigned long long>(n));
}

}  // namespace llc
