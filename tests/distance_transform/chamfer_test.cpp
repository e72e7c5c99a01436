// The pipelined chamfer transforms against independent oracles: the closed forms of d4, d8 and 3-4 (min over the
// features of |dx| + |dy|, max(|dx|, |dy|), 3·max + min) and Dijkstra on the mask's graph (5-7-11, a custom mask), at
// every P, for block sizes r and segment lengths k from 1 to more than the image; the thesis' worked example; edge
// shapes; and the argument errors on every rank.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using Image = std::vector<std::uint8_t>;
using Distances = std::vector<std::int32_t>;
using llc::ChamferMask;

llc::Group& world() {
    return llc::Group::world();
}

/// Minimum over the features of f(|dx|, |dy|); −1 without a feature.
Distances closed_form(const Image& image, int width, int height, const std::function<int(int, int)>& f) {
    Distances out(image.size(), -1);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            int best = INT_MAX;
            for (int v = 0; v < height; ++v) {
                for (int u = 0; u < width; ++u) {
                    if (image[static_cast<std::size_t>(v * width + u)] == 0) {
                        best = std::min(best, f(std::abs(x - u), std::abs(y - v)));
                    }
                }
            }
            out[static_cast<std::size_t>(y * width + x)] = best == INT_MAX ? -1 : best;
        }
    }
    return out;
}

/// Dijkstra from every feature at once over the graph whose edges are the mask's steps both ways, inside the image.
Distances dijkstra(const Image& image, int width, int height, const ChamferMask& mask) {
    Distances d(image.size(), INT_MAX);
    using Item = std::pair<int, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
    for (int i = 0; i < width * height; ++i) {
        if (image[static_cast<std::size_t>(i)] == 0) {
            d[static_cast<std::size_t>(i)] = 0;
            queue.push({0, i});
        }
    }
    while (!queue.empty()) {
        const auto [dist, i] = queue.top();
        queue.pop();
        if (dist > d[static_cast<std::size_t>(i)]) {
            continue;
        }
        const int y = i / width;
        const int x = i % width;
        for (const ChamferMask::Step& s : mask.forward()) {
            for (const int sign : {1, -1}) {
                const int v = y + sign * s.dy;
                const int u = x + sign * s.dx;
                if (v < 0 || v >= height || u < 0 || u >= width) {
                    continue;
                }
                const std::size_t j = static_cast<std::size_t>(v * width + u);
                if (dist + s.weight < d[j]) {
                    d[j] = dist + s.weight;
                    queue.push({d[j], v * width + u});
                }
            }
        }
    }
    for (auto& v : d) {
        v = v == INT_MAX ? -1 : v;
    }
    return d;
}

Distances oracle(const Image& image, int width, int height, const ChamferMask& mask) {
    if (mask.name() == "d4") {
        return closed_form(image, width, height, [](int dx, int dy) { return dx + dy; });
    }
    if (mask.name() == "d8") {
        return closed_form(image, width, height, [](int dx, int dy) { return std::max(dx, dy); });
    }
    if (mask.name() == "chamfer34") {
        return closed_form(
            image, width, height, [](int dx, int dy) { return 3 * std::max(dx, dy) + std::min(dx, dy); });
    }
    return dijkstra(image, width, height, mask);
}

/// The distributed transform of `image` in blocks of r rows with segments of k, checked pixel by pixel against
/// `expected` on this rank's rows.
void check(
    const Image& image, const Distances& expected, int width, int height, int r, int k, const ChamferMask& mask) {
    Image local;
    std::vector<int> rows;
    for (int j = 0; j < height; ++j) {
        if ((j / r) % world().size() == world().rank()) {
            rows.push_back(j);
            local.insert(local.end(), image.begin() + j * width, image.begin() + (j + 1) * width);
        }
    }
    Distances out(local.size(), -7);
    llc::chamfer_distance_transform(world(), width, height, r, local, mask, out, k);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        for (int x = 0; x < width; ++x) {
            ASSERT_EQ(out[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)],
                      expected[static_cast<std::size_t>(rows[i] * width + x)])
                << mask.name() << ", pixel (" << x << ", " << rows[i] << ") of " << width << " × " << height
                << ", r = " << r << ", k = " << k << ", P = " << world().size();
        }
    }
}

std::vector<ChamferMask> masks() {
    return {ChamferMask::d4(),
            ChamferMask::d8(),
            ChamferMask::chamfer34(),
            ChamferMask::chamfer5711(),
            ChamferMask::custom({{0, -1, 2}, {-1, -1, 3}, {-1, 0, 2}, {-1, 1, 3}}, "two-three")};
}

TEST(ChamferTest, ThesisExample) {
    // miguet-thesis.md §10 E: the blob image and its d4, d8 and d3-4 distances.
    const int width = 9;
    const int height = 7;
    const Image image = {0, 0, 0, 0, 0, 0, 0, 0, 0,  //
                         0, 1, 1, 1, 1, 1, 1, 0, 0,  //
                         0, 1, 1, 1, 1, 1, 1, 1, 0,  //
                         0, 1, 1, 1, 1, 1, 1, 1, 0,  //
                         0, 0, 1, 1, 1, 1, 1, 1, 0,  //
                         0, 0, 0, 0, 1, 1, 1, 0, 0,  //
                         0, 0, 0, 0, 0, 0, 0, 0, 0};
    const Distances d4 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2,
                          2, 2, 2, 2, 1, 0, 0, 1, 2, 2, 3, 3, 2, 1, 0, 0, 0, 1, 1, 2, 2,
                          2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const Distances d8 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 2,
                          2, 2, 2, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2, 1, 0, 0, 0, 1, 1, 1, 2,
                          1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    const Distances d34 = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 3, 3, 3, 3, 3, 0, 0, 0, 3, 6,
                           6, 6, 6, 4, 3, 0, 0, 3, 4, 6, 7, 8, 6, 3, 0, 0, 0, 3, 3, 4, 6,
                           4, 3, 0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (const int r : {1, 2, 7}) {
        for (const int k : {1, 3, 9}) {
            if (k == 1 && world().size() > 2) {
                continue;  // one-column segments step the whole ring per pixel: slow when oversubscribed
            }
            check(image, d4, width, height, r, k, ChamferMask::d4());
            check(image, d8, width, height, r, k, ChamferMask::d8());
            check(image, d34, width, height, r, k, ChamferMask::chamfer34());
        }
    }
}

TEST(ChamferTest, EveryMaskBlockAndSegmentOnRandomImages) {
    std::mt19937 rng(77);  // the same images on every rank
    for (const auto& [width, height] : {std::pair{11, 13}, std::pair{1, 9}, std::pair{9, 1}, std::pair{23, 6}}) {
        Image image(static_cast<std::size_t>(width * height));
        for (auto& p : image) {
            p = rng() % 7 == 0 ? 0 : 1;
        }
        for (const ChamferMask& mask : masks()) {
            const Distances expected = oracle(image, width, height, mask);
            // Blocks of one row (the wrap layout; a 5 × 5 mask then passes on rows it received), of three, of more
            // than the image; segments of one column, of five, of more than a row with its lag.
            for (const int r : {1, 3, height + 2}) {
                for (const int k : {1, 5, width + 3 * height}) {
                    if (k == 1 && world().size() > 2) {
                        continue;  // one-column segments step the whole ring per pixel: slow when oversubscribed
                    }
                    check(image, expected, width, height, r, k, mask);
                }
            }
            check(image, expected, width, height, 2, 0, mask);  // k chosen by the implementation
        }
    }
}

TEST(ChamferTest, EdgeImages) {
    for (const ChamferMask& mask : masks()) {
        check(Image{0}, Distances{0}, 1, 1, 1, 1, mask);
        check(Image{9}, Distances{-1}, 1, 1, 1, 1, mask);
        check(Image(12, 4), Distances(12, -1), 4, 3, 1, 2, mask);  // no feature: unreachable everywhere
        check(Image(12, 0), Distances(12, 0), 3, 4, 1, 2, mask);   // every pixel a feature
    }
    // A mask that cannot reach every pixel: vertical steps only, on one feature column.
    const ChamferMask vertical = ChamferMask::custom({{-1, 0, 1}}, "vertical");
    Image image(20, 1);
    image[2] = 0;  // column 2 of a 5 × 4 image
    Distances expected(20, -1);
    for (int y = 0; y < 4; ++y) {
        expected[static_cast<std::size_t>(y * 5 + 2)] = y;
    }
    check(image, expected, 5, 4, 1, 2, vertical);
}

TEST(ChamferTest, PartlyUnreachableImagesEveryBlockAndSegment) {
    // Masks that reach only the pixels on a line through a feature, so that most pixels end unreached (−1) and their
    // neighbours read them across segment borders (the diagonals read a column left or right in the row before, the
    // others two: with one-column segments, two units back): the backward pass marks a unit only once no later unit
    // reads it, and a mark read too early would come out as a distance of weight − 1. (Along a line two passes are
    // Dijkstra's distances; for other custom masks they need not be.)
    const std::vector<ChamferMask> sparse_masks = {ChamferMask::custom({{-1, -1, 1}}, "diagonal"),
                                                   ChamferMask::custom({{-1, 1, 2}}, "anti-diagonal"),
                                                   ChamferMask::custom({{-1, -2, 1}}, "two-left"),
                                                   ChamferMask::custom({{-1, 2, 1}}, "two-right")};
    std::mt19937 rng(91);  // the same images on every rank
    for (const auto& [width, height] : {std::pair{17, 12}, std::pair{6, 19}}) {
        Image image(static_cast<std::size_t>(width * height), 1);
        for (int f = 0; f < 3; ++f) {
            image[rng() % image.size()] = 0;
        }
        for (const ChamferMask& mask : sparse_masks) {
            const Distances expected = oracle(image, width, height, mask);
            ASSERT_GT(std::count(expected.begin(), expected.end(), -1), width * height / 2) << mask.name();
            const bool oversubscribed = world().size() > 2;  // short segments step the whole ring per few pixels
            for (const int r : {1, 2, 5}) {
                for (const int k : {1, 2, 3, 7, width + 3 * height}) {
                    if (!oversubscribed || (r > 1 && k > 2)) {
                        check(image, expected, width, height, r, k, mask);
                    }
                }
            }
        }
    }
}

TEST(ChamferTest, MasksAreChecked) {
    EXPECT_THROW((void)ChamferMask::custom({}), llc::Error);
    EXPECT_THROW((void)ChamferMask::custom({{1, 0, 1}}), llc::Error);   // backward half
    EXPECT_THROW((void)ChamferMask::custom({{0, 0, 1}}), llc::Error);   // no move
    EXPECT_THROW((void)ChamferMask::custom({{0, -1, 0}}), llc::Error);  // weight 0
    EXPECT_THROW((void)ChamferMask::custom({{0, -1, 1}, {0, -1, 2}}), llc::Error);
    EXPECT_THROW((void)ChamferMask::custom({{-9, 0, 1}}), llc::Error);
    EXPECT_EQ(ChamferMask::chamfer5711().reach(), 2);
    EXPECT_EQ(ChamferMask::chamfer5711().lead(), 2);
    EXPECT_EQ(ChamferMask::d8().lead(), 1);
    EXPECT_EQ(ChamferMask::d4().lead(), 0);
}

TEST(ChamferTest, BadArgumentsFailOnEveryRank) {
    Image none;
    Distances out;
    const ChamferMask mask = ChamferMask::d8();
    llc::test::expect_error_everywhere([&] { llc::chamfer_distance_transform(world(), 0, 3, 1, none, mask, out); },
                                       {"llc::chamfer_distance_transform", "width"});
    llc::test::expect_error_everywhere([&] { llc::chamfer_distance_transform(world(), 3, 3, 1, none, mask, out, -1); },
                                       {"llc::chamfer_distance_transform", "k"});
    const auto rows = static_cast<std::size_t>(llc::block_rows_held(world().size(), world().rank(), 5, 1));
    Image local(rows * 3, 1);
    Distances short_out(local.size() + (world().rank() == 0 ? 1 : 0));
    llc::test::expect_error_everywhere(
        [&] { llc::chamfer_distance_transform(world(), 3, 5, 1, local, mask, short_out); },
        {"llc::chamfer_distance_transform"});
    if (world().size() > 1) {
        Distances good(local.size());
        const ChamferMask other = world().rank() == 0 ? ChamferMask::d4() : ChamferMask::d8();
        llc::test::expect_error_everywhere(
            [&] { llc::chamfer_distance_transform(world(), 3, 5, 1, local, other, good); },
            {"llc::chamfer_distance_transform"});
    }
}

}  // namespace
