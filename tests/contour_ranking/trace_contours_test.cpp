// Contour tracing (trace_contours → contour_rank → contours) against two oracles: OpenCV's findContours (RETR_CCOMP,
// CHAIN_APPROX_NONE: the sequences of RETR_LIST, with a hierarchy that tells holes) for 8-connectivity, and a literal
// sequential Suzuki–Abe border following (raster scan, marks, the 3 × 3 search; 4 or 8 neighbours) written here, which
// OpenCV checks for 8-connectivity and which is the oracle for 4-connectivity. Each contour is compared as a cyclic
// sequence of pixels with its outer/hole flag; the images (random blobs, noise, nested rings, 1-pixel lines, crosses,
// checkerboards) cross the block borders of every P.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/cost/compare.hpp>
#include <llc/cost/model.hpp>
#include <llc/cost/piecewise.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"
#include "structure_profile.hpp"
#include "test_blocks.hpp"

#ifdef LLC_HAVE_OPENCV
#include <opencv2/imgproc.hpp>
#endif

namespace {

using Image = std::vector<std::uint8_t>;
using Points = std::vector<llc::ContourPoint>;

llc::Group& world() {
    return llc::Group::world();
}

/// A contour as compared: hole flag and its points rotated to the lexicographically smallest rotation.
using Canonical = std::pair<bool, Points>;

bool less_points(const Points& a, const Points& b) {
    return std::lexicographical_compare(
        a.begin(), a.end(), b.begin(), b.end(), [](const llc::ContourPoint& x, const llc::ContourPoint& y) {
            return std::pair(x.row, x.col) < std::pair(y.row, y.col);
        });
}

Canonical canonical(bool hole, const Points& points) {
    Points best = points;
    for (std::size_t k = 1; k < points.size(); ++k) {
        Points rotated(points.begin() + static_cast<std::ptrdiff_t>(k), points.end());
        rotated.insert(rotated.end(), points.begin(), points.begin() + static_cast<std::ptrdiff_t>(k));
        if (less_points(rotated, best)) {
            best = std::move(rotated);
        }
    }
    return {hole, best};
}

std::vector<Canonical> sorted(std::vector<Canonical> v) {
    std::sort(v.begin(), v.end(), [](const Canonical& a, const Canonical& b) {
        return a.first != b.first ? a.first < b.first : less_points(a.second, b.second);
    });
    return v;
}

/// Suzuki & Abe's border following as OpenCV 4's icvFetchContour / cvFindNextContour run it (every mark is 2 or −2),
/// with the neighbourhood search over 8 directions (step 1) or the 4 axial ones (step 2).
std::vector<Canonical> suzuki(const Image& image, int width, int height, int step) {
    const int w = width + 2;
    std::vector<int> f(static_cast<std::size_t>(w * (height + 2)), 0);
    for (int r = 0; r < height; ++r) {
        for (int c = 0; c < width; ++c) {
            f[static_cast<std::size_t>((r + 1) * w + c + 1)] =
                image[static_cast<std::size_t>(r * width + c)] != 0 ? 1 : 0;
        }
    }
    const int delta[8] = {1, -w + 1, -w, -w - 1, -1, w - 1, w, w + 1};
    const auto at = [&](int i) -> int& { return f[static_cast<std::size_t>(i)]; };
    std::vector<Canonical> out;
    const auto follow = [&](int i0, bool hole) {
        Points points;
        const auto point = [&](int i) { points.push_back({i / w - 1, i % w - 1}); };
        int s = hole ? 0 : 4;
        const int s_start = s;
        int i1 = 0;
        do {
            s = (s - step) & 7;
            i1 = i0 + delta[s];
        } while (at(i1) == 0 && s != s_start);
        if (s == s_start) {
            at(i0) = -2;
            point(i0);
        } else {
            int i3 = i0;
            for (;;) {
                const int s_end = s;
                bool east_zero = false;
                int i4 = 0;
                for (;;) {
                    s = (s + step) & 7;
                    i4 = i3 + delta[s];
                    if (at(i4) != 0) {
                        break;
                    }
                    east_zero = east_zero || s == 0;
                }
                (void)s_end;
                if (east_zero) {
                    at(i3) = -2;
                } else if (at(i3) == 1) {
                    at(i3) = 2;
                }
                point(i3);
                if (i4 == i0 && i3 == i1) {
                    break;
                }
                i3 = i4;
                s = (s + 4) & 7;
            }
        }
        out.push_back(canonical(hole, points));
    };
    for (int r = 1; r <= height; ++r) {
        int prev = 0;
        for (int x = 1; x <= width + 1; ++x) {
            const int i = r * w + x;
            const int p = at(i);
            if (p == prev) {
                continue;
            }
            if (prev == 0 && p == 1) {
                follow(i, false);
            } else if (p == 0 && prev >= 1) {
                follow(i - 1, true);
            }
            prev = at(i);
        }
    }
    return sorted(out);
}

#ifdef LLC_HAVE_OPENCV
std::vector<Canonical> opencv(const Image& image, int width, int height) {
    cv::Mat m(height, width, CV_8UC1);
    for (int r = 0; r < height; ++r) {
        for (int c = 0; c < width; ++c) {
            m.at<std::uint8_t>(r, c) = image[static_cast<std::size_t>(r * width + c)];
        }
    }
    std::vector<std::vector<cv::Point>> found;
    std::vector<cv::Vec4i> hierarchy;
    cv::findContours(m, found, hierarchy, cv::RETR_CCOMP, cv::CHAIN_APPROX_NONE);
    std::vector<Canonical> out;
    for (std::size_t k = 0; k < found.size(); ++k) {
        Points points;
        for (const cv::Point& p : found[k]) {
            points.push_back({p.y, p.x});
        }
        out.push_back(canonical(hierarchy[k][3] >= 0, points));
    }
    return sorted(out);
}
#endif

/// Ours at this P: the contours gathered on rank 0, canonical, and broadcast nowhere (rank 0 compares). Also checks
/// that every pattern ranks alike and that each contour starts at its topmost-leftmost pixel.
std::vector<Canonical> ours(const Image& image, int width, int height, llc::Connectivity connectivity) {
    // Each rank's block cut by the tests' own layout (test_blocks.hpp), not by from_whole.
    const llc::BinaryImage bin(
        world(),
        width,
        height,
        llc::test::contour_blocks::scatter(image, world().rank(), world().size(), width, height));
    const auto borders = llc::trace_contours(world(), bin, connectivity);
    const auto ranks = llc::contour_rank(world(), borders);
    for (const auto pattern : {llc::ContourPattern::two_level_row_column,
                               llc::ContourPattern::log_level_quad,
                               llc::ContourPattern::log_level_balanced}) {
        EXPECT_EQ(llc::contour_rank(world(), borders, pattern), ranks) << llc::to_string(pattern);
    }
    const auto found = llc::contours(world(), borders, ranks);
    std::vector<Canonical> out;
    for (const llc::Contour& c : found) {
        const auto top_left = std::min_element(
            c.points.begin(), c.points.end(), [](const llc::ContourPoint& a, const llc::ContourPoint& b) {
                return std::pair(a.row, a.col) < std::pair(b.row, b.col);
            });
        EXPECT_EQ(c.points.front(), *top_left) << "contour " << c.id;
        EXPECT_EQ(c.id / 8, c.points.front().row * width + c.points.front().col);
        out.push_back(canonical(c.hole, c.points));
    }
    return sorted(out);
}

std::string show(const std::vector<Canonical>& v) {
    std::string s;
    for (const auto& [hole, points] : v) {
        s += hole ? "hole:" : "outer:";
        for (const auto& p : points) {
            s += " (" + std::to_string(p.row) + "," + std::to_string(p.col) + ")";
        }
        s += "\n";
    }
    return s;
}

std::string picture(const Image& image, int width, int height) {
    std::string s;
    for (int r = 0; r < height; ++r) {
        for (int c = 0; c < width; ++c) {
            s += image[static_cast<std::size_t>(r * width + c)] != 0 ? '#' : '.';
        }
        s += '\n';
    }
    return s;
}

/// Ours against the oracles for both connectivities.
void expect_traced(const Image& image, int width, int height, const std::string& what) {
    const auto got8 = ours(image, width, height, llc::Connectivity::eight);
    const auto got4 = ours(image, width, height, llc::Connectivity::four);
    if (world().rank() != 0) {
        return;
    }
    const auto want8 = suzuki(image, width, height, 1);
#ifdef LLC_HAVE_OPENCV
    ASSERT_EQ(opencv(image, width, height), want8) << "the oracle against OpenCV on " << what << "\n"
                                                   << picture(image, width, height);
#endif
    ASSERT_EQ(got8, want8) << what << ", 8-connectivity, P = " << world().size() << "\n"
                           << picture(image, width, height) << "got:\n"
                           << show(got8) << "want:\n"
                           << show(want8);
    const auto want4 = suzuki(image, width, height, 2);
    ASSERT_EQ(got4, want4) << what << ", 4-connectivity, P = " << world().size() << "\n"
                           << picture(image, width, height) << "got:\n"
                           << show(got4) << "want:\n"
                           << show(want4);
}

Image noise(int width, int height, double fill, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution on(fill);
    Image image(static_cast<std::size_t>(width * height));
    for (auto& v : image) {
        v = on(rng) ? 1 : 0;
    }
    return image;
}

/// Noise smoothed by a box filter of radius `radius` and thresholded at half: blobs with holes and bays.
Image blobs(int width, int height, int radius, std::uint64_t seed) {
    const Image n = noise(width, height, 0.5, seed);
    Image image(n.size());
    for (int r = 0; r < height; ++r) {
        for (int c = 0; c < width; ++c) {
            int on = 0;
            int all = 0;
            for (int dr = -radius; dr <= radius; ++dr) {
                for (int dc = -radius; dc <= radius; ++dc) {
                    if (r + dr >= 0 && r + dr < height && c + dc >= 0 && c + dc < width) {
                        on += n[static_cast<std::size_t>((r + dr) * width + c + dc)];
                        ++all;
                    }
                }
            }
            image[static_cast<std::size_t>(r * width + c)] = 2 * on > all ? 255 : 0;
        }
    }
    return image;
}

/// Square rings around the centre, `gap` background pixels apart, each ring `thick` pixels wide, a dot in the middle.
Image rings(int size, int thick, int gap) {
    Image image(static_cast<std::size_t>(size * size), 0);
    const int mid = size / 2;
    for (int r = 0; r < size; ++r) {
        for (int c = 0; c < size; ++c) {
            const int d = std::max(std::abs(r - mid), std::abs(c - mid));
            image[static_cast<std::size_t>(r * size + c)] = d == 0 || (d % (thick + gap)) >= gap ? 1 : 0;
        }
    }
    return image;
}

Image from_rows(const std::vector<std::string>& rows) {
    Image image;
    for (const auto& row : rows) {
        for (const char ch : row) {
            image.push_back(ch == '#' ? 1 : 0);
        }
    }
    return image;
}

TEST(TraceContoursTest, SmallShapes) {
    expect_traced({}, 0, 0, "empty image");
    expect_traced({1}, 1, 1, "one pixel");
    expect_traced({0}, 1, 1, "one background pixel");
    expect_traced(Image(12, 1), 4, 3, "all foreground");
    expect_traced(from_rows({"#####"}), 5, 1, "a 1-pixel line along the image's edge");
    expect_traced(from_rows({".......", ".#####.", "......."}), 7, 3, "a horizontal line of 5");
    expect_traced(from_rows({"...#...", "...#...", "#######", "...#...", "...#..."}), 7, 5, "a plus sign");
    expect_traced(from_rows({"#...#", ".#.#.", "..#..", ".#.#.", "#...#"}), 5, 5, "a diagonal cross");
    expect_traced(from_rows({"###", "#.#", "###"}), 3, 3, "a ring with a one-pixel hole");
    expect_traced(from_rows({".#.", "#.#", ".#."}), 3, 3, "a diamond");
    expect_traced(from_rows({"##..", "##..", "..##", "..##"}), 4, 4, "two squares touching at a corner");
}

TEST(TraceContoursTest, LinesCrossesAndCheckerboards) {
    const int w = 23;
    const int h = 19;
    Image lines(static_cast<std::size_t>(w * h), 0);
    for (int c = 1; c < w - 1; ++c) {
        lines[static_cast<std::size_t>(3 * w + c)] = 1;  // horizontal
    }
    for (int r = 5; r < h; ++r) {
        lines[static_cast<std::size_t>(r * w + 4)] = 1;                          // vertical, to the bottom edge
        lines[static_cast<std::size_t>(r * w + 6 + (r - 5))] = 1;                // diagonal
        lines[static_cast<std::size_t>(r * w + std::max(0, 20 - (r - 5)))] = 1;  // anti-diagonal, crossing it
    }
    expect_traced(lines, w, h, "1-pixel lines");
    Image checker(static_cast<std::size_t>(w * h));
    Image checker2(checker.size());
    for (int r = 0; r < h; ++r) {
        for (int c = 0; c < w; ++c) {
            checker[static_cast<std::size_t>(r * w + c)] = (r + c) % 2 == 0 ? 1 : 0;
            checker2[static_cast<std::size_t>(r * w + c)] = (r / 2 + c / 2) % 2 == 0 ? 1 : 0;
        }
    }
    expect_traced(checker, w, h, "a checkerboard of pixels");
    expect_traced(checker2, w, h, "a checkerboard of 2 × 2 squares");
    Image plus_grid(static_cast<std::size_t>(w * h), 0);
    for (int r = 0; r < h; ++r) {
        for (int c = 0; c < w; ++c) {
            plus_grid[static_cast<std::size_t>(r * w + c)] = (r % 4 == 1 || c % 4 == 1) && (r % 8 < 5) ? 1 : 0;
        }
    }
    expect_traced(plus_grid, w, h, "a grid of crossing lines");
}

TEST(TraceContoursTest, NestedRings) {
    expect_traced(rings(21, 1, 1), 21, 21, "1-pixel rings 1 apart");
    expect_traced(rings(24, 2, 1), 24, 24, "2-pixel rings 1 apart");
    expect_traced(rings(31, 1, 2), 31, 31, "1-pixel rings 2 apart");
    expect_traced(rings(33, 3, 2), 33, 33, "3-pixel rings 2 apart");
}

TEST(TraceContoursTest, RandomBlobsAndNoise) {
    const std::pair<int, int> sizes[] = {{37, 29}, {64, 48}, {17, 53}, {101, 7}};
    std::uint64_t seed = 1;
    for (const auto& [w, h] : sizes) {
        for (const int radius : {1, 2, 3}) {
            expect_traced(
                blobs(w, h, radius, seed), w, h, "blobs r" + std::to_string(radius) + " seed " + std::to_string(seed));
            ++seed;
        }
        for (const double fill : {0.1, 0.5, 0.8}) {
            expect_traced(
                noise(w, h, fill, seed), w, h, "noise " + std::to_string(fill) + " seed " + std::to_string(seed));
            ++seed;
        }
    }
}

TEST(TraceContoursTest, LargerImages) {
    // Wide enough that every block's rows are scanned 32 pixels at a time at every P, borders crossing many blocks.
    expect_traced(blobs(203, 150, 4, 101), 203, 150, "blobs 203 × 150");
    expect_traced(noise(160, 97, 0.45, 102), 160, 97, "noise 160 × 97");
}

TEST(TraceContoursTest, BorderDensityCountsEveryBlocksStates) {
    // A 3 × 3 square in a 5 × 5 image: 8 border pixels, each with one state (the corners' diagonal moves included):
    // 8 states, 8/25 a pixel, at every P. An empty image has none.
    Image image(25, 0);
    for (int r = 1; r <= 3; ++r) {
        for (int c = 1; c <= 3; ++c) {
            image[static_cast<std::size_t>(r * 5 + c)] = 1;
        }
    }
    const auto borders = llc::trace_contours(world(), llc::BinaryImage::from_whole(world(), 5, 5, image));
    EXPECT_DOUBLE_EQ(llc::cost::border_density(world(), borders).states_per_pixel, 8.0 / 25.0);
    const auto none = llc::trace_contours(world(), llc::BinaryImage::from_whole(world(), 5, 5, Image(25, 0)));
    EXPECT_EQ(llc::cost::border_density(world(), none).states_per_pixel, 0.0);
}

TEST(TraceContoursTest, CostExpressionsMirrorTheTrace) {
    // cost::trace_contours followed by cost::contour_rank of a BorderDensity have the supersteps that trace_contours
    // and contour_rank of its BorderMap record, node for node, for every pattern (placeholder prices: only the
    // structure is compared).
    const llc::cost::Profile profile =
        llc::test::structure_profile(world().size(),
                                     {"tr.pixel.2^10", "tr.state.2^10", "tr.rank.2^10", "tr.rank_cut.2^10", "cr.merge"},
                                     {"allgatherv", "allreduce", "alltoallv"});
    const auto model = llc::cost::make_model("ccm", profile);
    const Image image = blobs(48, 40, 3, 7);
    const auto bin = llc::BinaryImage::from_whole(world(), 48, 40, image);
    for (const auto pattern : {llc::ContourPattern::one_level_direct,
                               llc::ContourPattern::two_level_row_column,
                               llc::ContourPattern::log_level_quad,
                               llc::ContourPattern::log_level_balanced}) {
        llc::Trace::enable(true);
        world().restart_superstep_clock();
        const auto borders = llc::trace_contours(world(), bin);
        (void)llc::contour_rank(world(), borders, pattern);
        const llc::Trace trace = llc::Trace::gather(world());
        llc::Trace::enable(false);
        const auto density = llc::cost::border_density(world(), borders);
        if (world().rank() == 0) {
            const auto expr =
                llc::cost::Expr::sequence("trace+rank",
                                          {llc::cost::trace_contours(world().size(), 48, 40, density, profile),
                                           llc::cost::contour_rank(world().size(), 48, 40, density, pattern, profile)});
            const auto c = llc::cost::compare(trace.merged(), expr, *model);
            EXPECT_TRUE(c.structure_matches) << llc::to_string(pattern) << "\n" << c.to_text();
        }
    }
}

TEST(TraceContoursTest, BadArgumentsFailOnEveryRank) {
    const Image image = noise(9, 7, 0.5, 3);
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::BinaryImage::from_whole(world(), 9 + (world().rank() == world().size() - 1 ? 1 : 0), 7, image);
        },
        {"llc::BinaryImage::from_whole"});
    llc::test::expect_error_everywhere([&] { (void)llc::BinaryImage::from_whole(world(), 9, 8, image); },
                                       {"llc::BinaryImage::from_whole", "all.size()", "63"});
    const auto bin = llc::BinaryImage::from_whole(world(), 9, 7, image);
    llc::test::expect_error_everywhere(
        [&] { (void)llc::trace_contours(world(), bin, static_cast<llc::Connectivity>(6)); },
        {"llc::trace_contours", "connectivity", "6"});
    const auto borders = llc::trace_contours(world(), bin);
    const auto ranks = llc::contour_rank(world(), borders);
    std::vector<llc::ContourRank> more = ranks;
    if (world().rank() == 0) {
        more.push_back({});
    }
    llc::test::expect_error_everywhere([&] { (void)llc::contours(world(), borders, more); }, {"llc::contours"});
    llc::test::expect_error_everywhere([&] { (void)llc::contours(world(), borders, ranks, world().size()); },
                                       {"llc::contours", "root"});
    llc::test::expect_error_everywhere(
        [&] { (void)llc::contour_rank(world(), borders, static_cast<llc::ContourPattern>(17)); },
        {"llc::contour_rank", "pattern", "17"});
}

}  // namespace
