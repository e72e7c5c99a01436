#pragma once
/// @file
/// Integer logarithms of processor counts and sizes: the one definition that llc, its cost layer and the algorithms
/// use (the broadcast schedules' rounds, the models' ⌈log2 P⌉ latencies).

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

}  // namespace llc
