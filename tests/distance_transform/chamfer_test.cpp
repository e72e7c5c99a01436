// The pipelined chamfer transforms against oracles that share nothing with the library's masks: every metric is a
// literal table of moves and weights written here (d4, d8, 3-4, 5-7-11 with (1,0) = 5, (1,1) = 7, (2,1) = 11, and
// their symmetric moves), Dijkstra runs on the graph of those literal moves, and small images carry their distances as
// numbers worked out by hand; a test holds the library's masks to the literal tables move by move. Then every P, block
// sizes r and segment lengths k from 1 to more than the image; the thesis' worked example; edge shapes; and the
// argument errors on every rank.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"
#include "smpi_sizes.hpp"

namespace {

using Image = std::vector<std::uint8_t>;
using Distances = std::vector<std::int32_t>;
using llc::ChamferMask;

llc::Group& world() {
    return llc::Group::world();
}

/// One move of a metric, in the test's own words: from (x, y) to (x + dx, y + dy) for `weight`.
struct Move {
    int dy;
    int dx;
    std::int32_t weight;
};
using Moves = std::vector<Move>;

// The literal step tables: every move of each metric, both halves, written out (never read from a ChamferMask).
const Moves d4_moves = {{0, 1, 1}, {0, -1, 1}, {1, 0, 1}, {-1, 0, 1}};
const Moves d8_moves = {{0, 1, 1}, {0, -1, 1}, {1, 0, 1}, {-1, 0, 1}, {1, 1, 1}, {1, -1, 1}, {-1, 1, 1}, {-1, -1, 1}};
const Moves chamfer34_moves = {
    {0, 1, 3}, {0, -1, 3}, {1, 0, 3}, {-1, 0, 3}, {1, 1, 4}, {1, -1, 4}, {-1, 1, 4}, {-1, -1, 4}};
const Moves chamfer5711_moves = {{0, 1, 5},
                                 {0, -1, 5},
                                 {1, 0, 5},
                                 {-1, 0, 5},  // axial: 5
                                 {1, 1, 7},
                                 {1, -1, 7},
                                 {-1, 1, 7},
                                 {-1, -1, 7},  // diagonal: 7
                                 {1, 2, 11},
                                 {1, -2, 11},
                                 {-1, 2, 11},
                                 {-1, -2, 11},  // knight: 11
                                 {2, 1, 11},
                                 {2, -1, 11},
                                 {-2, 1, 11},
                                 {-2, -1, 11}};

/// A mask under test and the literal moves it must walk.
struct Metric {
    ChamferMask mask;
    Moves moves;
};

/// A custom mask from a forward half written here, with its moves: those steps and their mirrors.
Metric custom(const Moves& forward, const std::string& name) {
    std::vector<ChamferMask::Step> steps;
    Moves moves;
    for (const Move& m : forward) {
        steps.push_back({m.dy, m.dx, m.weight});
        moves.push_back(m);
        moves.push_back({-m.dy, -m.dx, m.weight});
    }
    return {ChamferMask::custom(steps, name), moves};
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

/// Dijkstra from every feature at once over the graph of the literal moves, inside the image: the oracle.
Distances dijkstra(const Image& image, int width, int height, const Moves& moves) {
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
        for (const Move& m : moves) {
            const int v = y + m.dy;
            const int u = x + m.dx;
            if (v < 0 || v >= height || u < 0 || u >= width) {
                continue;
            }
            const std::size_t j = static_cast<std::size_t>(v * width + u);
            if (dist + m.weight < d[j]) {
                d[j] = dist + m.weight;
                queue.push({d[j], v * width + u});
            }
        }
    }
    for (auto& v : d) {
        v = v == INT_MAX ? -1 : v;
    }
    return d;
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

/// Every mask under test with its literal moves: the four named metrics and a custom one.
std::vector<Metric> metrics() {
    return {{ChamferMask::d4(), d4_moves},
            {ChamferMask::d8(), d8_moves},
            {ChamferMask::chamfer34(), chamfer34_moves},
            {ChamferMask::chamfer5711(), chamfer5711_moves},
            custom({{0, -1, 2}, {-1, -1, 3}, {-1, 0, 2}, {-1, 1, 3}}, "two-three")};
}

/// The key of a move for the messages: "(dy, dx) = (−1, 2)".
std::string move_text(int dy, int dx) {
    return "(dy, dx) = (" + std::to_string(dy) + ", " + std::to_string(dx) + ")";
}

TEST(ChamferTest, LibraryMasksAreTheLiteralTables) {
    // Each forward step and its mirror is a literal move of the same weight, and every literal move is one of them: a
    // mistyped weight fails here, naming the move.
    for (const auto& [mask, moves] : metrics()) {
        std::size_t found = 0;
        for (const ChamferMask::Step& s : mask.forward()) {
            for (const int sign : {1, -1}) {
                const int dy = sign * s.dy;
                const int dx = sign * s.dx;
                const auto literal =
                    std::find_if(moves.begin(), moves.end(), [&](const Move& m) { return m.dy == dy && m.dx == dx; });
                if (literal == moves.end()) {
                    ADD_FAILURE() << mask.name() << ": the library's move " << move_text(dy, dx)
                                  << " is not in the literal table";
                    continue;
                }
                ++found;
                EXPECT_EQ(s.weight, literal->weight)
                    << mask.name() << ": move " << move_text(dy, dx) << " weighs " << s.weight << " in the library, "
                    << literal->weight << " in the literal table";
            }
        }
        EXPECT_EQ(found, moves.size()) << mask.name() << ": the library has " << 2 * mask.forward().size()
                                       << " moves, the literal table " << moves.size();
    }
}

TEST(ChamferTest, LiteralTablesAgreeWithTheClosedForms) {
    // The oracle checked on its own: Dijkstra on the literal moves against the metrics' closed forms (5-7-11: axial
    // and knight moves while the offset is at least twice as long as wide, 5·hi + lo; else knight and diagonal moves,
    // 4·hi + 3·lo), on random images.
    const auto d4 = [](int dx, int dy) { return dx + dy; };
    const auto d8 = [](int dx, int dy) { return std::max(dx, dy); };
    const auto d34 = [](int dx, int dy) { return 3 * std::max(dx, dy) + std::min(dx, dy); };
    const auto d5711 = [](int dx, int dy) {
        const int hi = std::max(dx, dy);
        const int lo = std::min(dx, dy);
        return hi >= 2 * lo ? 5 * hi + lo : 4 * hi + 3 * lo;
    };
    std::mt19937 rng(5);
    for (const auto& [width, height] : {std::pair{9, 8}, std::pair{1, 7}, std::pair{13, 3}}) {
        Image image(static_cast<std::size_t>(width * height));
        for (auto& p : image) {
            p = rng() % 9 == 0 ? 0 : 1;
        }
        EXPECT_EQ(dijkstra(image, width, height, d4_moves), closed_form(image, width, height, d4));
        EXPECT_EQ(dijkstra(image, width, height, d8_moves), closed_form(image, width, height, d8));
        EXPECT_EQ(dijkstra(image, width, height, chamfer34_moves), closed_form(image, width, height, d34));
        EXPECT_EQ(dijkstra(image, width, height, chamfer5711_moves), closed_form(image, width, height, d5711));
    }
}

/// A width × height image whose only feature is (fx, fy).
Image one_feature(int width, int height, int fx, int fy) {
    Image image(static_cast<std::size_t>(width * height), 1);
    image[static_cast<std::size_t>(fy * width + fx)] = 0;
    return image;
}

/// The transform checked against distances written by hand, at a few blocks and segments; the oracle too.
void check_literal(const Image& image, const Distances& expected, int width, int height, const Metric& metric) {
    EXPECT_EQ(dijkstra(image, width, height, metric.moves), expected) << metric.mask.name() << ": the oracle";
    for (const auto& [r, k] : {std::pair{1, 3}, std::pair{2, 0}, std::pair{height, width}}) {
        check(image, expected, width, height, r, k, metric.mask);
    }
}

TEST(ChamferTest, LiteralDistancesByHand) {
    const Metric d4{ChamferMask::d4(), d4_moves};
    const Metric d8{ChamferMask::d8(), d8_moves};
    const Metric d34{ChamferMask::chamfer34(), chamfer34_moves};
    const Metric d5711{ChamferMask::chamfer5711(), chamfer5711_moves};
    // clang-format off
    // One feature in the middle of 5 × 5.
    const Distances d4_centre = {4, 3, 2, 3, 4,
                                 3, 2, 1, 2, 3,
                                 2, 1, 0, 1, 2,
                                 3, 2, 1, 2, 3,
                                 4, 3, 2, 3, 4};
    const Distances d8_centre = {2, 2, 2, 2, 2,
                                 2, 1, 1, 1, 2,
                                 2, 1, 0, 1, 2,
                                 2, 1, 1, 1, 2,
                                 2, 2, 2, 2, 2};
    // 3-4: (1, 1) = 4, (2, 1) = 4 + 3, (2, 2) = 4 + 4.
    const Distances d34_centre = {8, 7, 6, 7, 8,
                                  7, 4, 3, 4, 7,
                                  6, 3, 0, 3, 6,
                                  7, 4, 3, 4, 7,
                                  8, 7, 6, 7, 8};
    // 5-7-11, one feature in the middle of 7 × 7: 5 a step across, 7 diagonally, 11 a knight's move; (2, 2) = 7 + 7,
    // (3, 1) = 11 + 5, (3, 2) = 11 + 7, (3, 3) = 7 + 7 + 7.
    const Distances d5711_centre = {21, 18, 16, 15, 16, 18, 21,
                                    18, 14, 11, 10, 11, 14, 18,
                                    16, 11,  7,  5,  7, 11, 16,
                                    15, 10,  5,  0,  5, 10, 15,
                                    16, 11,  7,  5,  7, 11, 16,
                                    18, 14, 11, 10, 11, 14, 18,
                                    21, 18, 16, 15, 16, 18, 21};
    // 5-7-11 from the top-left corner of 5 × 5: (4, 2) = 11 + 11, (4, 3) = 11 + 7 + 7, (4, 4) = 4 · 7.
    const Distances d5711_corner = { 0,  5, 10, 15, 20,
                                     5,  7, 11, 16, 21,
                                    10, 11, 14, 18, 22,
                                    15, 16, 18, 21, 25,
                                    20, 21, 22, 25, 28};
    // 5-7-11 on two rows from (0, 0): the knight's move (2, 1) at 11 beats 5 + 7 = 12.
    const Distances d5711_two_rows = {0, 5, 10, 15, 20,
                                      5, 7, 11, 16, 21};
    // clang-format on
    check_literal(one_feature(5, 5, 2, 2), d4_centre, 5, 5, d4);
    check_literal(one_feature(5, 5, 2, 2), d8_centre, 5, 5, d8);
    check_literal(one_feature(5, 5, 2, 2), d34_centre, 5, 5, d34);
    check_literal(one_feature(7, 7, 3, 3), d5711_centre, 7, 7, d5711);
    check_literal(one_feature(5, 5, 0, 0), d5711_corner, 5, 5, d5711);
    check_literal(one_feature(5, 2, 0, 0), d5711_two_rows, 5, 2, d5711);
    // One row: no knight's move fits, only steps of 5; two features, the nearer one counts.
    Image row(7, 1);
    row[0] = 0;
    row[6] = 0;
    check_literal(row, {0, 5, 10, 15, 10, 5, 0}, 7, 1, d5711);
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
        if (llc::test::under_smpi && height == 1) {
            continue;
        }
        Image image(static_cast<std::size_t>(width * height));
        for (auto& p : image) {
            p = rng() % 7 == 0 ? 0 : 1;
        }
        for (const auto& [mask, moves] : metrics()) {
            const Distances expected = dijkstra(image, width, height, moves);
            // Blocks of one row (the wrap layout; a 5 × 5 mask then passes on rows it received), of three, of more
            // than the image; segments of one column, of five, of more than a row with its lag.
            // Under SMPI (smpi_sizes.hpp) not the one block of more rows than the image: P = 16 … 64 adds nothing to
            // it, nor to the one-row image, whose blocks all but one are empty at any P > 1.
            for (const int r : llc::test::sizes_for({1, 3, height + 2}, {1, 3})) {
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
    for (const auto& [mask, moves] : metrics()) {
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
    const std::vector<Metric> sparse_masks = {custom({{-1, -1, 1}}, "diagonal"),
                                              custom({{-1, 1, 2}}, "anti-diagonal"),
                                              custom({{-1, -2, 1}}, "two-left"),
                                              custom({{-1, 2, 1}}, "two-right")};
    std::mt19937 rng(91);  // the same images on every rank
    for (const auto& [width, height] : {std::pair{17, 12}, std::pair{6, 19}}) {
        Image image(static_cast<std::size_t>(width * height), 1);
        for (int f = 0; f < 3; ++f) {
            image[rng() % image.size()] = 0;
        }
        for (const auto& [mask, moves] : sparse_masks) {
            const Distances expected = dijkstra(image, width, height, moves);
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
