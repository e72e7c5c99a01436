#include <gtest/gtest.h>

#include <llc/partners.hpp>

TEST(PartnersTest, EqualHalvesAreTheHypercube) {
    const std::vector<int> sizes{4, 4};
    for (int a = 0; a < 4; ++a) {
        EXPECT_EQ(llc::partners(sizes, 0, a, 1), std::vector<int>{a});
    }
}
