// The distributed exact EDT against a brute-force oracle (the minimum over every feature pixel of dx² + dy²), at every
// P, for every block size r from 1 to more than the image's height, on edge shapes (1 × 1, one row, one column, no
// feature, all features) and random images; and its argument errors, on every rank.
#include <climits>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using Image = std::vector<std::uint8_t>;

llc::Group& world() {
    return llc::Group::world();
}

/// Squared distance to the nearest zero pixel, −1 without one: the definition, by brute force.
std::vector<std::int32_t> brute_force(const Image& image, int width, int height) {
    std::vector<std::int32_t> out(image.size(), -1);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            long long best = LLONG_MAX;
            for (int v = 0; v < height; ++v) {
                for (int u = 0; u < width; ++u) {
                    if (image[static_cast<std::size_t>(v * width + u)] == 0) {
                        best = std::min(
                            best, static_cast<long long>(x - u) * (x - u) + static_cast<long long>(y - v) * (y - v));
                    }
                }
            }
            out[static_cast<std::size_t>(y * width + x)] = best == LLONG_MAX ? -1 : static_cast<std::int32_t>(best);
        }
    }
    return out;
}

/// The rows of block layout r this rank holds, in order (row j on processor ⌊j/r⌋ mod P), computed from scratch.
std::vector<int> my_rows(int height, int r) {
    std::vector<int> rows;
    for (int j = 0; j < height; ++j) {
        if ((j / r) % world().size() == world().rank()) {
            rows.push_back(j);
        }
    }
    return rows;
}

/// Runs the distributed transform on `image` and checks every local pixel against the oracle; the nearest feature
/// must be a feature at exactly that distance.
void check(const Image& image, int width, int height, int r) {
    const std::vector<std::int32_t> expected = brute_force(image, width, height);
    const std::vector<int> rows = my_rows(height, r);
    EXPECT_EQ(llc::block_rows_held(world().size(), world().rank(), height, r), static_cast<std::int64_t>(rows.size()));
    Image local;
    for (const int j : rows) {
        local.insert(local.end(), image.begin() + j * width, image.begin() + (j + 1) * width);
    }
    std::vector<std::int32_t> squared(local.size(), -7);
    std::vector<std::int32_t> nearest(local.size(), -7);
    llc::euclidean_distance_transform(world(), width, height, r, local, squared, nearest);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (int x = 0; x < width; ++x) {
            const std::size_t at = i * static_cast<std::size_t>(width) + static_cast<std::size_t>(x);
            const std::int32_t want = expected[static_cast<std::size_t>(rows[i] * width + x)];
            EXPECT_EQ(squared[at], want) << "pixel (" << x << ", " << rows[i] << ") of " << width << " × " << height
                                         << ", r = " << r;
            if (want < 0) {
                EXPECT_EQ(nearest[at], -1);
                continue;
            }
            const std::int32_t f = nearest[at];
            if (f < 0 || f >= width * height) {
                ADD_FAILURE() << "nearest feature index " << f << " outside the image";
                continue;
            }
            EXPECT_EQ(image[static_cast<std::size_t>(f)], 0) << "the nearest feature is not a feature";
            const int du = f % width - x;
            const int dv = f / width - rows[i];
            EXPECT_EQ(du * du + dv * dv, want) << "the nearest feature is not at the distance";
        }
    }
}

Image random_image(std::mt19937& rng, int width, int height, double features) {
    Image image(static_cast<std::size_t>(width) * static_cast<std::size_t>(height));
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (auto& p : image) {
        p = u(rng) < features ? 0 : static_cast<std::uint8_t>(1 + rng() % 255);
    }
    return image;
}

TEST(EuclideanDistanceTest, EdgeShapes) {
    check(Image{0}, 1, 1, 1);
    check(Image{5}, 1, 1, 1);                    // no feature: unreachable
    check(Image{1, 1, 0, 1, 1, 1, 1}, 7, 1, 1);  // one row: more processors than rows
    check(Image{1, 1, 0, 1, 1, 1, 1}, 1, 7, 2);  // one column
    check(Image(30, 9), 6, 5, 2);                // no feature at all
    check(Image(30, 0), 6, 5, 3);                // every pixel a feature
}

TEST(EuclideanDistanceTest, EveryBlockSizeOnRandomImages) {
    std::mt19937 rng(2024);  // the same images on every rank
    for (const auto& [width, height] : {std::pair{13, 11}, std::pair{1, 17}, std::pair{17, 1}, std::pair{8, 23}}) {
        for (const double features : {0.02, 0.3}) {
            const Image image = random_image(rng, width, height, features);
            for (int r = 1; r <= height + 2; r += r < 4 ? 1 : 3) {
                check(image, width, height, r);
            }
        }
    }
}

TEST(EuclideanDistanceTest, FeaturesFarAcrossBlocks) {
    // One feature in the first row and one in the last, a tall image: every block in between takes its distances
    // from the scans over the other blocks' summaries.
    const int width = 9;
    const int height = 40;
    Image image(static_cast<std::size_t>(width * height), 3);
    image[2] = 0;
    image[static_cast<std::size_t>((height - 1) * width + 7)] = 0;
    for (const int r : {1, 2, 5, 13, 40}) {
        check(image, width, height, r);
    }
}

TEST(EuclideanDistanceTest, BadArgumentsFailOnEveryRank) {
    const int P = world().size();
    Image none;
    std::vector<std::int32_t> out;
    llc::test::expect_error_everywhere([&] { llc::euclidean_distance_transform(world(), 0, 4, 1, none, out); },
                                       {"llc::euclidean_distance_transform", "width", "0"});
    llc::test::expect_error_everywhere([&] { llc::euclidean_distance_transform(world(), 4, 0, 1, none, out); },
                                       {"llc::euclidean_distance_transform", "height"});
    llc::test::expect_error_everywhere([&] { llc::euclidean_distance_transform(world(), 4, 4, 0, none, out); },
                                       {"llc::euclidean_distance_transform", "r"});
    llc::test::expect_error_everywhere([&] { llc::euclidean_distance_transform(world(), 40000, 40000, 1, none, out); },
                                       {"llc::euclidean_distance_transform", "int32"});
    // Rank 0 passes one pixel too many: its message names the argument, the others learn that a rank failed.
    const auto rows = static_cast<std::size_t>(llc::block_rows_held(P, world().rank(), 6, 1));
    Image local(rows * 4 + (world().rank() == 0 ? 1 : 0), 1);
    std::vector<std::int32_t> squared(local.size());
    llc::test::expect_error_everywhere([&] { llc::euclidean_distance_transform(world(), 4, 6, 1, local, squared); },
                                       {"llc::euclidean_distance_transform"});
    // Heights that differ across ranks.
    if (P > 1) {
        llc::test::expect_error_everywhere(
            [&] { llc::euclidean_distance_transform(world(), 4, world().rank() == 0 ? 6 : 7, 100, local, squared); },
            {"llc::euclidean_distance_transform"});
    }
    EXPECT_THROW((void)llc::block_rows_held(0, 0, 5, 1), llc::Error);
    EXPECT_THROW((void)llc::block_rows_held(2, 2, 5, 1), llc::Error);
    EXPECT_THROW((void)llc::block_rows_held(2, 0, 5, 0), llc::Error);
}

}  // namespace
