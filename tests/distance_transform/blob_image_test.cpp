// kept_random_blob_image: the kernel probes' kept images are the images random_blob_image makes (so a probe measures
// the pixels it measured before they were kept), one per (width, height, seed), made once.
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/blob_image.hpp>

namespace {

TEST(KeptRandomBlobImage, IsTheImageRandomBlobImageMakes) {
    for (const auto& [width, height, seed] :
         {std::tuple{4096, 256, 13}, std::tuple{64, 64, 7321}, std::tuple{3, 1, 1}}) {
        EXPECT_EQ(llc::kept_random_blob_image(width, height, seed), llc::random_blob_image(width, height, seed))
            << width << " x " << height << ", seed " << seed;
    }
}

TEST(KeptRandomBlobImage, MadeOnceAndKept) {
    const std::vector<std::uint8_t>& first = llc::kept_random_blob_image(128, 32, 14);
    const std::vector<std::uint8_t>& again = llc::kept_random_blob_image(128, 32, 14);
    EXPECT_EQ(&first, &again);
    // Another seed or shape is another image, and asking for it leaves the first where it was.
    const std::vector<std::uint8_t>& other = llc::kept_random_blob_image(128, 32, 15);
    EXPECT_NE(&first, &other);
    EXPECT_NE(first, other);
    EXPECT_EQ(&llc::kept_random_blob_image(32, 128, 14), &llc::kept_random_blob_image(32, 128, 14));
    EXPECT_NE(&llc::kept_random_blob_image(32, 128, 14), &first);
    EXPECT_EQ(first, llc::random_blob_image(128, 32, 14));
}

TEST(KeptRandomBlobImage, BadSizesAreErrorsAsForRandomBlobImage) {
    EXPECT_ANY_THROW((void)llc::kept_random_blob_image(0, 8, 1));
    EXPECT_ANY_THROW((void)llc::kept_random_blob_image(8, -1, 1));
}

}  // namespace
