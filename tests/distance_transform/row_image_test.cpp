// Images distributed by rows (row_image.hpp) and the transforms on them (distance_transform.hpp), at every P: the
// layout's formulas against enumerating the rows, scatter → gather and distribute → allgather round trips on odd
// sizes (P > height, r > height, one row, one column), the metrics against their closed forms on an open grid and path
// planning on a uniform map against the octile distance (each rank's rows checked where they lie, by the layout's
// definition, not gathered through the library), and every bad argument rejected on every rank.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

llc::Group& world() {
    return llc::Group::world();
}

/// The image rows processor `rank` holds: row j on processor ⌊j/r⌋ mod P, from the definition.
std::vector<std::int64_t> rows_by_definition(std::int64_t height, std::int64_t r, int P, int rank) {
    std::vector<std::int64_t> rows;
    for (std::int64_t j = 0; j < height; ++j) {
        if ((j / r) % P == rank) {
            rows.push_back(j);
        }
    }
    return rows;
}

/// A width × height image whose pixel (row, column) is row · 1000 + column, so a misplaced row shows.
llc::Image<std::int32_t> numbered(std::int64_t width, std::int64_t height) {
    llc::Image<std::int32_t> image{width, height, {}};
    for (std::int64_t y = 0; y < height; ++y) {
        for (std::int64_t x = 0; x < width; ++x) {
            image.pixels.push_back(static_cast<std::int32_t>(y * 1000 + x));
        }
    }
    return image;
}

/// `part` holds exactly this rank's rows of `image`, in order.
void expect_my_rows(const llc::DistributedImage<std::int32_t>& part, const llc::Image<std::int32_t>& image) {
    const std::vector<std::int64_t> rows =
        rows_by_definition(image.height, part.layout.r, world().size(), world().rank());
    ASSERT_EQ(part.rows.size(), rows.size() * static_cast<std::size_t>(image.width));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto mine = part.local().row(static_cast<std::int64_t>(i));
        const auto want = llc::ImageView<const std::int32_t>(image.view()).row(rows[i]);
        EXPECT_TRUE(std::equal(mine.begin(), mine.end(), want.begin()))
            << "local row " << i << " is not image row " << rows[i] << ", r = " << part.layout.r;
    }
}

/// The shapes every round trip runs on: one pixel, one row with more processors than rows, one column, odd sizes.
constexpr std::pair<std::int64_t, std::int64_t> shapes[] = {{1, 1}, {7, 1}, {1, 9}, {5, 3}, {13, 11}, {4, 23}};

TEST(RowImageTest, LayoutFormulasMatchTheDefinition) {
    for (const int P : {1, 2, 3, 4, 5, 8}) {
        for (const std::int64_t height : {1, 2, 7, 16, 23}) {
            for (const std::int64_t r : {1, 2, 3, 5, 16, 40}) {
                const llc::RowBlocks layout = llc::RowBlocks::checked("test", 3, height, r, P);
                std::int64_t total = 0;
                for (int rank = 0; rank < P; ++rank) {
                    const std::vector<std::int64_t> rows = rows_by_definition(height, r, P, rank);
                    ASSERT_EQ(layout.rows_held(rank), static_cast<std::int64_t>(rows.size()))
                        << "P = " << P << ", rank " << rank << ", height " << height << ", r = " << r;
                    for (std::size_t i = 0; i < rows.size(); ++i) {
                        EXPECT_EQ(layout.owner(rows[i]), rank);
                        EXPECT_EQ(layout.local_row(rows[i]), static_cast<std::int64_t>(i));
                        EXPECT_EQ(layout.image_row(rank, static_cast<std::int64_t>(i)), rows[i]);
                    }
                    total += static_cast<std::int64_t>(rows.size());
                }
                EXPECT_EQ(total, height);
            }
        }
    }
}

TEST(RowImageTest, ScatterThenGatherGivesTheImageBack) {
    const int P = world().size();
    for (const auto& [width, height] : shapes) {
        const llc::Image<std::int32_t> image = numbered(width, height);
        for (const std::int64_t r : {std::int64_t{1}, std::int64_t{2}, height + 3}) {
            for (const int root : {0, P - 1}) {
                // Only the root's image is read: the others pass an empty view.
                const llc::ImageView<const std::int32_t> input =
                    world().rank() == root ? image.view() : llc::ImageView<const std::int32_t>{};
                const auto part = llc::scatter_rows(world(), input, r, root);
                EXPECT_EQ(part.layout.width, width);
                EXPECT_EQ(part.layout.height, height);
                expect_my_rows(part, image);
                const llc::Image<std::int32_t> back = llc::gather_rows(world(), part, root);
                if (world().rank() == root) {
                    EXPECT_EQ(back.width, width);
                    EXPECT_EQ(back.height, height);
                    EXPECT_EQ(back.pixels, image.pixels) << width << " × " << height << ", r = " << r;
                } else {
                    EXPECT_TRUE(back.empty());
                }
            }
        }
    }
}

TEST(RowImageTest, DistributeMatchesScatterAndAllgatherGivesTheImageEverywhere) {
    for (const auto& [width, height] : shapes) {
        const llc::Image<std::int32_t> image = numbered(width, height);
        for (const std::int64_t r : {std::int64_t{1}, std::int64_t{3}}) {
            const auto part = llc::distribute_rows(world(), image.view(), r);
            expect_my_rows(part, image);
            EXPECT_EQ(part.rows, llc::scatter_rows(world(), image.view(), r, 0).rows);
            const llc::Image<std::int32_t> everywhere = llc::allgather_rows(world(), part);
            EXPECT_EQ(everywhere.pixels, image.pixels) << width << " × " << height << ", r = " << r;
        }
    }
}

/// The distance of an offset (dx, dy) on an open grid under each metric (every pixel passable): the closed forms.
std::int64_t closed_form(llc::Metric metric, std::int64_t dx, std::int64_t dy) {
    dx = std::abs(dx);
    dy = std::abs(dy);
    const std::int64_t lo = std::min(dx, dy);
    const std::int64_t hi = std::max(dx, dy);
    switch (metric) {
        case llc::Metric::d4:
            return dx + dy;
        case llc::Metric::d8:
            return hi;
        case llc::Metric::chamfer34:
            return 4 * lo + 3 * (hi - lo);
        case llc::Metric::euclidean:
            return dx * dx + dy * dy;
        case llc::Metric::chamfer5711:
            // Axial and knight moves (5, 11) while the offset is at least twice as long as wide, else knight and
            // diagonal ones (11, 7); chamfer_test checks this form against Dijkstra on the literal 5-7-11 table.
            return hi >= 2 * lo ? 5 * hi + lo : 4 * hi + 3 * lo;
    }
    ADD_FAILURE() << "no closed form for " << llc::metric_name(metric);
    return -1;
}

/// The transform of `image` by brute force: the least closed-form distance to a feature (a 0), −1 without one.
std::vector<std::int32_t> brute_force(llc::Metric metric, const llc::Image<std::uint8_t>& image) {
    std::vector<std::int32_t> out;
    for (std::int64_t y = 0; y < image.height; ++y) {
        for (std::int64_t x = 0; x < image.width; ++x) {
            std::int64_t best = -1;
            for (std::int64_t v = 0; v < image.height; ++v) {
                for (std::int64_t u = 0; u < image.width; ++u) {
                    if (image.view().at(v, u) == 0) {
                        const std::int64_t d = closed_form(metric, x - u, y - v);
                        best = best < 0 ? d : std::min(best, d);
                    }
                }
            }
            out.push_back(static_cast<std::int32_t>(best));
        }
    }
    return out;
}

/// `part` holds exactly this rank's rows of the whole image `want` (width pixels a row), by the definition of the
/// layout: the results are checked where they lie, not gathered through the library's layout code.
template <class T>
void expect_my_rows_are(const llc::DistributedImage<T>& part, const std::vector<T>& want, std::int64_t width) {
    const auto height = static_cast<std::int64_t>(want.size()) / std::max<std::int64_t>(width, 1);
    const std::vector<std::int64_t> rows = rows_by_definition(height, part.layout.r, world().size(), world().rank());
    ASSERT_EQ(part.rows.size(), rows.size() * static_cast<std::size_t>(width));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto mine = part.rows.begin() + static_cast<std::ptrdiff_t>(i) * width;
        const auto theirs = want.begin() + static_cast<std::ptrdiff_t>(rows[i] * width);
        EXPECT_TRUE(std::equal(mine, mine + width, theirs)) << "image row " << rows[i];
    }
}

TEST(RowImageTest, DistanceTransformByMetricMatchesTheClosedForms) {
    std::mt19937 rng(77);  // the same images on every rank
    for (const auto& [width, height] : shapes) {
        for (const double features : {0.0, 0.05, 0.4}) {
            llc::Image<std::uint8_t> image{width, height, {}};
            std::bernoulli_distribution feature(features);
            for (std::int64_t i = 0; i < width * height; ++i) {
                image.pixels.push_back(feature(rng) ? 0 : 1);
            }
            for (const llc::Metric metric : {llc::Metric::d4,
                                             llc::Metric::d8,
                                             llc::Metric::chamfer34,
                                             llc::Metric::chamfer5711,
                                             llc::Metric::euclidean}) {
                const auto part = llc::scatter_rows(world(), image, 2, 0);
                const auto distances = llc::distance_transform(world(), part, metric);
                EXPECT_EQ(distances.layout.height, height);
                SCOPED_TRACE(std::string(llc::metric_name(metric)) + " on " + std::to_string(width) + " × " +
                             std::to_string(height) + ", features " + std::to_string(features));
                expect_my_rows_are(distances, brute_force(metric, image), width);
            }
        }
    }
}

TEST(RowImageTest, MetricNamesRoundTrip) {
    for (const llc::Metric metric :
         {llc::Metric::d4, llc::Metric::d8, llc::Metric::chamfer34, llc::Metric::chamfer5711, llc::Metric::euclidean}) {
        EXPECT_EQ(llc::parse_metric(llc::metric_name(metric)), metric);
    }
    EXPECT_EQ(llc::chamfer_mask(llc::Metric::chamfer34).name(), llc::ChamferMask::chamfer34().name());
    EXPECT_EQ(llc::chamfer_mask(llc::Metric::chamfer5711).forward().size(),
              llc::ChamferMask::chamfer5711().forward().size());
}

TEST(RowImageTest, PathPlanningOnAUniformMapIsTheOctileDistance) {
    // Every pixel costs 1: a step costs 1 across and √2 diagonally, so the least cost from the source is
    // (max − min) + √2 · min of the offsets.
    for (const auto& [width, height] : {std::pair<std::int64_t, std::int64_t>{9, 7}, {1, 5}, {6, 1}}) {
        const llc::Image<double> map{width, height, std::vector<double>(static_cast<std::size_t>(width * height), 1.0)};
        const llc::Pixel source{height / 2, width - 1};
        const auto part = llc::distribute_rows(world(), map.view(), 2);
        const llc::PlannedPaths planned = llc::path_planning(world(), part, {&source, 1});
        EXPECT_GE(planned.report.sweeps, 1);
        std::vector<double> octile(static_cast<std::size_t>(width * height));
        for (std::int64_t y = 0; y < height; ++y) {
            for (std::int64_t x = 0; x < width; ++x) {
                const double dx = std::abs(static_cast<double>(x - source.column));
                const double dy = std::abs(static_cast<double>(y - source.row));
                octile[static_cast<std::size_t>(y * width + x)] =
                    std::max(dx, dy) - std::min(dx, dy) + std::sqrt(2.0) * std::min(dx, dy);
            }
        }
        // This rank's rows by the layout's definition.
        const std::vector<std::int64_t> rows = rows_by_definition(height, 2, world().size(), world().rank());
        ASSERT_EQ(planned.cost.rows.size(), rows.size() * static_cast<std::size_t>(width));
        for (std::size_t i = 0; i < rows.size(); ++i) {
            for (std::int64_t x = 0; x < width; ++x) {
                EXPECT_NEAR(planned.cost.rows[i * static_cast<std::size_t>(width) + static_cast<std::size_t>(x)],
                            octile[static_cast<std::size_t>(rows[i] * width + x)],
                            1e-12)
                    << "pixel (" << rows[i] << ", " << x << ")";
            }
        }
    }
}

// The size check the transforms and path planning share (detail::rows_problem): rank 0 of 2 holds rows 0, 2 and 4 of a
// 5-row image in blocks of 1 (3 rows × width 3 = 9 values), counted here by hand.
TEST(RowImageTest, RowsProblemNamesTheArgumentAndTheSizes) {
    const auto problem = [](std::size_t input, std::size_t output) {
        return llc::detail::rows_problem("f", 2, 0, 3, 5, 1, {"image.size()", input, "out.size()", output});
    };
    EXPECT_EQ(problem(9, 9), "");
    const std::string input = problem(10, 9);
    for (const char* fragment : {"f", "image.size()", "10", "must be this rank's rows × width = 9"}) {
        EXPECT_NE(input.find(fragment), std::string::npos) << fragment << " in " << input;
    }
    const std::string output = problem(9, 8);
    for (const char* fragment : {"f", "out.size()", "8", "must equal image.size() = 9"}) {
        EXPECT_NE(output.find(fragment), std::string::npos) << fragment << " in " << output;
    }
}

TEST(RowImageTest, BadArgumentsFailOnEveryRank) {
    const int P = world().size();
    const int rank = world().rank();
    const llc::Image<std::int32_t> image = numbered(4, 3);
    llc::test::expect_error_everywhere([&] { (void)llc::scatter_rows(world(), image.view(), 1, P); },
                                       {"llc::scatter_rows", "root", std::to_string(P)});
    llc::test::expect_error_everywhere([&] { (void)llc::scatter_rows(world(), image.view(), 0, 0); },
                                       {"llc::scatter_rows", "r", "0"});
    // A root image whose pixels do not fill width × height: only the root can tell, every rank throws.
    const llc::ImageView<const std::int32_t> short_image{4, 3, std::span(image.pixels).first(11)};
    if (rank == P - 1) {
        llc::test::expect_error_everywhere([&] { (void)llc::scatter_rows(world(), short_image, 1, P - 1); },
                                           {"llc::scatter_rows", "image.pixels.size()", "11"});
    } else {  // the other ranks are told that another rank rejected its arguments
        llc::test::expect_error_everywhere([&] { (void)llc::scatter_rows(world(), short_image, 1, P - 1); },
                                           {"llc::scatter_rows", "another rank"});
    }
    // Sizes that differ across ranks (only when there are several ranks to differ).
    if (P > 1) {
        const llc::Image<std::int32_t> mine = numbered(3 + rank, 2);
        llc::test::expect_error_everywhere([&] { (void)llc::distribute_rows(world(), mine.view(), 1); },
                                           {"llc::distribute_rows", "image.width"});
    }
    llc::test::expect_error_everywhere(
        [&] {
            (void)llc::distribute_rows(world(), llc::ImageView<const std::int32_t>{0, 3, {}}, 1);
        },
        {"llc::distribute_rows", "image.width", "0"});
    // A part whose rows do not match its layout, on one rank only.
    auto part = llc::distribute_rows(world(), image.view(), 1);
    if (rank == P - 1) {
        part.rows.push_back(0);
    }
    const char* const verdict = rank == P - 1 ? "part.rows.size()" : "another rank";
    llc::test::expect_error_everywhere([&] { (void)llc::gather_rows(world(), part, 0); },
                                       {"llc::gather_rows", verdict});
    llc::test::expect_error_everywhere([&] { (void)llc::allgather_rows(world(), part); },
                                       {"llc::allgather_rows", verdict});
    // A part made for another group size.
    llc::DistributedImage<std::uint8_t> foreign{llc::RowBlocks::checked("test", 2, 2, 1, P + 1), rank, {}};
    foreign.rows.resize(static_cast<std::size_t>(foreign.layout.rows_held(rank) * 2));
    llc::test::expect_error_everywhere([&] { (void)llc::distance_transform(world(), foreign, llc::Metric::d4); },
                                       {"llc::distance_transform", "image.layout.P", std::to_string(P + 1)});
    llc::test::expect_error_everywhere([&] { (void)llc::parse_metric("d6", "llc-run"); }, {"llc-run", "metric", "d6"});
    llc::test::expect_error_everywhere([&] { (void)llc::chamfer_mask(llc::Metric::euclidean); },
                                       {"llc::chamfer_mask", "euclidean"});
}

}  // namespace
