// The interval-DP engine's reuse of large arrays (detail::take_block / give_back_block, src/block_cache.cpp): a block
// given back is handed to the next request of its size and to no other, and two live blocks are never the same.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <gtest/gtest.h>

#include <llc/algorithms/detail/interval_table.hpp>

namespace {

constexpr std::size_t huge = std::size_t{1} << 21;

TEST(BlockCache, GivenBackBlockIsReusedForItsSizeOnly) {
    void* a = llc::detail::take_block(2 * huge);
    ASSERT_NE(a, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % huge, 0U);
    std::memset(a, 7, 2 * huge);
    void* b = llc::detail::take_block(2 * huge);  // a is live: another block
    ASSERT_NE(b, nullptr);
    EXPECT_NE(a, b);
    llc::detail::give_back_block(a);
    void* c = llc::detail::take_block(3 * huge);  // another size: not a
    EXPECT_NE(c, a);
    void* d = llc::detail::take_block(2 * huge);  // a's size: a again, its pages touched already
    EXPECT_EQ(d, a);
    EXPECT_EQ(static_cast<unsigned char*>(d)[2 * huge - 1], 7);
    void* e = llc::detail::take_block(2 * huge);  // a and b live: neither
    EXPECT_NE(e, a);
    EXPECT_NE(e, b);
    for (void* p : {b, c, d, e}) {
        llc::detail::give_back_block(p);
    }
    llc::detail::give_back_block(nullptr);  // a no-op, as free(nullptr)
}

}  // namespace
