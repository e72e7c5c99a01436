// <llc/log2.hpp>: the one floor_log2 / ceil_log2 / is_power_of_two, against powers of two counted out by hand (the
// oracle shares no code with it), around every power of two up to 2^62 and at the edges (n ≤ 1).
#include <climits>

#include <gtest/gtest.h>

#include <llc/log2.hpp>

namespace {

/// The largest d with 2^d ≤ n, by doubling; n ≥ 1.
int floor_by_doubling(long long n) {
    int d = 0;
    for (long long power = 1; power <= n / 2; power *= 2) {
        ++d;
    }
    return d;
}

/// The smallest d with 2^d ≥ n, by doubling; n ≥ 1.
int ceil_by_doubling(long long n) {
    int d = 0;
    for (long long power = 1; power < n; power *= 2) {
        ++d;
    }
    return d;
}

/// Whether n is 2^d for some d, by halving; any n.
bool power_by_halving(long long n) {
    if (n < 1) {
        return false;
    }
    while (n % 2 == 0) {
        n /= 2;
    }
    return n == 1;
}

TEST(Log2, SmallValues) {
    for (long long n = 1; n <= 4096; ++n) {
        EXPECT_EQ(llc::floor_log2(n), floor_by_doubling(n)) << n;
        EXPECT_EQ(llc::ceil_log2(n), ceil_by_doubling(n)) << n;
    }
    for (long long n = -64; n <= 4096; ++n) {
        EXPECT_EQ(llc::is_power_of_two(n), power_by_halving(n)) << n;
    }
}

TEST(Log2, AroundEveryPowerOfTwo) {
    for (int d = 1; d <= 62; ++d) {
        const long long p = 1LL << d;
        EXPECT_EQ(llc::floor_log2(p), d);
        EXPECT_EQ(llc::ceil_log2(p), d);
        EXPECT_EQ(llc::floor_log2(p - 1), d - 1);
        EXPECT_EQ(llc::ceil_log2(p + 1), d + 1);
        EXPECT_EQ(llc::ceil_log2(p - 1), d == 1 ? 0 : d);
    }
    for (int d = 0; d <= 62; ++d) {
        const long long p = 1LL << d;
        EXPECT_TRUE(llc::is_power_of_two(p)) << p;
        EXPECT_EQ(llc::is_power_of_two(p + 1), d == 0) << p + 1;  // 2 is the one p + 1 that is a power too
        EXPECT_EQ(llc::is_power_of_two(p - 1), d == 1) << p - 1;  // 1 likewise
        EXPECT_FALSE(llc::is_power_of_two(-p)) << -p;
    }
    EXPECT_FALSE(llc::is_power_of_two(LLONG_MAX));
    EXPECT_FALSE(llc::is_power_of_two(LLONG_MIN));
    EXPECT_EQ(llc::floor_log2(INT_MAX), 30);
    EXPECT_EQ(llc::ceil_log2(INT_MAX), 31);
    EXPECT_EQ(llc::floor_log2(LLONG_MAX), 62);
    EXPECT_EQ(llc::ceil_log2(LLONG_MAX), 63);
}

TEST(Log2, OneAndBelowAreZero) {
    for (const long long n : {1LL, 0LL, -1LL, static_cast<long long>(INT_MIN)}) {
        EXPECT_EQ(llc::floor_log2(n), 0) << n;
        EXPECT_EQ(llc::ceil_log2(n), 0) << n;
    }
    EXPECT_FALSE(llc::is_power_of_two(0));
    static_assert(llc::floor_log2(64) == 6 && llc::ceil_log2(65) == 7 && llc::is_power_of_two(64));  // constexpr
}

}  // namespace
