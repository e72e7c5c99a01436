// Contour ranking against a brute-force oracle that follows every pixel's successors one by one (no segments, no
// blocks): the digest's cases T1–T8, random maps of open lists and cycles crossing block borders and corners, sizes
// that are not multiples of √P, P > height; and the invalid maps, rejected on every rank with the pixel named. The
// blocks are scattered and gathered by the layout written in test_blocks.hpp, which a test holds block_of to.
#include <cstdint>
#include <random>
#include <string>
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

namespace {

using Codes = std::vector<std::int8_t>;

llc::Group& world() {
    return llc::Group::world();
}

constexpr int kDr[8] = {0, -1, -1, -1, 0, 1, 1, 1};
constexpr int kDc[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/// The map from the digest's notation: '.' non-edge, 'H' head, '0'–'7' Freeman directions; rows of equal length.
Codes parse(const std::vector<std::string>& rows) {
    Codes out;
    for (const auto& row : rows) {
        for (const char ch : row) {
            out.push_back(ch == '.'   ? std::int8_t{-1}
                          : ch == 'H' ? std::int8_t{8}
                                      : static_cast<std::int8_t>(ch - '0'));
        }
    }
    return out;
}

/// Head and rank by definition: walk the successors from each pixel until a head, or back to the start (a cycle,
/// whose head is its smallest index; the rank is then the number of steps from the pixel to that index).
std::vector<llc::ContourRank> oracle(const Codes& codes, int width) {
    std::vector<llc::ContourRank> out(codes.size());
    for (std::size_t start = 0; start < codes.size(); ++start) {
        if (codes[start] < 0) {
            continue;
        }
        std::vector<std::int64_t> walk{static_cast<std::int64_t>(start)};
        while (codes[static_cast<std::size_t>(walk.back())] != 8) {
            const std::int64_t p = walk.back();
            const int d = codes[static_cast<std::size_t>(p)];
            const std::int64_t q = (p / width + kDr[d]) * width + p % width + kDc[d];
            if (q == walk.front()) {
                break;
            }
            walk.push_back(q);
        }
        if (codes[static_cast<std::size_t>(walk.back())] == 8) {
            out[start] = {walk.back(), static_cast<std::int64_t>(walk.size() - 1)};
        } else {
            std::size_t low = 0;
            for (std::size_t k = 0; k < walk.size(); ++k) {
                low = walk[k] < walk[low] ? k : low;
            }
            out[start] = {walk[low], static_cast<std::int64_t>(low)};
        }
    }
    return out;
}

/// Every merge pattern; automatic without a profile is logp-lev-quad, run again through the choice.
constexpr llc::ContourPattern kPatterns[] = {llc::ContourPattern::one_level_direct,
                                             llc::ContourPattern::two_level_row_column,
                                             llc::ContourPattern::log_level_quad,
                                             llc::ContourPattern::log_level_balanced,
                                             llc::ContourPattern::automatic};

/// Ranks the whole map at this P, each rank given its block by the test's layout, and gathers the blocks back into
/// one image by the same layout.
std::vector<llc::ContourRank> rank_all(const Codes& codes,
                                       int width,
                                       int height,
                                       llc::ContourPattern pattern = llc::ContourPattern::one_level_direct) {
    namespace blocks = llc::test::contour_blocks;
    const int P = world().size();
    const llc::SuccessorMap map(world(), width, height, blocks::scatter(codes, world().rank(), P, width, height));
    const auto local = llc::contour_rank(world(), map, pattern);
    const auto all = world().allgatherv(std::span<const llc::ContourRank>(local));
    EXPECT_EQ(all.size(), codes.size());
    return blocks::gather(all, P, width, height);
}

/// Every pattern against the oracle (and so bit-identical to each other).
void expect_ranked(const Codes& codes, int width, int height) {
    const auto want = oracle(codes, width);
    for (const auto pattern : kPatterns) {
        const auto got = rank_all(codes, width, height, pattern);
        for (std::size_t i = 0; i < codes.size(); ++i) {
            ASSERT_EQ(got[i], want[i]) << llc::to_string(pattern) << ", pixel (" << i / width << ", " << i % width
                                       << ") of " << width << "×" << height << ": got (" << got[i].head << ", "
                                       << got[i].rank << ")";
        }
    }
}

/// Random simple walks over unvisited pixels, each ending at a head or, when it can, closed into a cycle.
Codes random_map(int width, int height, std::uint64_t seed, double fill) {
    std::mt19937_64 rng(seed);
    Codes codes(static_cast<std::size_t>(width * height), -1);
    const auto free = [&](int r, int c) {
        return r >= 0 && c >= 0 && r < height && c < width && codes[static_cast<std::size_t>(r * width + c)] == -1;
    };
    std::vector<char> used(codes.size(), 0);
    for (int attempt = 0; attempt < width * height * fill; ++attempt) {
        int r = static_cast<int>(rng() % static_cast<std::uint64_t>(height));
        int c = static_cast<int>(rng() % static_cast<std::uint64_t>(width));
        if (!free(r, c)) {
            continue;
        }
        const int r0 = r;
        const int c0 = c;
        std::size_t length = 1;
        codes[static_cast<std::size_t>(r * width + c)] = 8;
        while (rng() % 20 != 0) {
            std::vector<int> options;
            for (int d = 0; d < 8; ++d) {
                if (free(r + kDr[d], c + kDc[d])) {
                    options.push_back(d);
                }
            }
            if (options.empty()) {
                break;
            }
            const int d = options[rng() % options.size()];
            codes[static_cast<std::size_t>(r * width + c)] = static_cast<std::int8_t>(d);
            r += kDr[d];
            c += kDc[d];
            codes[static_cast<std::size_t>(r * width + c)] = 8;
            ++length;
        }
        // Close the walk into a cycle when its end touches its start.
        for (int d = 0; d < 8 && length >= 2 && rng() % 2 == 0; ++d) {
            if (r + kDr[d] == r0 && c + kDc[d] == c0) {
                codes[static_cast<std::size_t>(r * width + c)] = static_cast<std::int8_t>(d);
                break;
            }
        }
    }
    return codes;
}

TEST(ContourRank, BlockOfIsTheLayoutOfTheTests) {
    // block_of against the formula of test_blocks.hpp: square and non-square P, sizes that do not divide, P above the
    // height and the width; and from_whole hands this rank exactly that block.
    namespace blocks = llc::test::contour_blocks;
    for (const int P : {1, 2, 3, 4, 5, 6, 8, 9, 12, 16}) {
        for (const auto& [width, height] : {std::pair{1, 1},
                                            std::pair{7, 5},
                                            std::pair{13, 11},
                                            std::pair{3, 17},
                                            std::pair{64, 48},
                                            std::pair{2, 2},
                                            std::pair{0, 0}}) {
            for (int rank = 0; rank < P; ++rank) {
                const blocks::Block want = blocks::block(rank, P, width, height);
                const llc::PixelBlock got = llc::block_of(rank, P, width, height);
                EXPECT_EQ(got.row0, want.row0) << "P " << P << " rank " << rank << ", " << width << "×" << height;
                EXPECT_EQ(got.col0, want.col0) << "P " << P << " rank " << rank << ", " << width << "×" << height;
                EXPECT_EQ(got.rows, want.rows) << "P " << P << " rank " << rank << ", " << width << "×" << height;
                EXPECT_EQ(got.cols, want.cols) << "P " << P << " rank " << rank << ", " << width << "×" << height;
            }
        }
    }
    for (const auto& [width, height] : {std::pair{13, 11}, std::pair{4, 1}}) {
        Codes codes(static_cast<std::size_t>(width * height));
        for (std::size_t i = 0; i < codes.size(); ++i) {
            codes[i] = static_cast<std::int8_t>(static_cast<int>(i % 9) - 1);  // every code, so a misplaced pixel shows
        }
        const auto map = llc::SuccessorMap::from_whole(world(), width, height, codes);
        const auto mine = blocks::scatter(codes, world().rank(), world().size(), width, height);
        EXPECT_EQ(Codes(map.codes().begin(), map.codes().end()), mine) << width << "×" << height;
    }
}

TEST(ContourRank, DigestCases) {
    expect_ranked(parse({"0000H"}), 5, 1);                                                     // T1
    expect_ranked(parse({"...", ".H.", "..."}), 3, 3);                                         // T2
    expect_ranked(parse({"0006", "6444", "0006", "H444"}), 4, 4);                              // T3
    expect_ranked(parse({"777H", "777H", "777H", "HHHH"}), 4, 4);                              // T4
    expect_ranked(parse({"7..H", ".71.", ".17.", "1..H"}), 4, 4);                              // T5
    expect_ranked(parse({"6.6.", "6.6.", "6.6.", "H.H."}), 4, 4);                              // T6
    expect_ranked(parse({"000006", "000066", "200666", "22H466", "224446", "244444"}), 6, 6);  // T7
    expect_ranked(parse({"H..6", ".0H6", "1..5", "2H4."}), 4, 4);                              // T8
}

TEST(ContourRank, DigestExpectedValues) {
    // T7 by the digest's own numbers, not only by the oracle.
    const auto got = rank_all(parse({"000006", "000066", "200666", "22H466", "224446", "244444"}), 6, 6);
    const std::vector<int> ranks = {35, 34, 33, 32, 31, 30, 16, 15, 14, 13, 12, 29, 17, 4,  3,  2,  11, 28,
                                    18, 5,  0,  1,  10, 27, 19, 6,  7,  8,  9,  26, 20, 21, 22, 23, 24, 25};
    for (std::size_t i = 0; i < ranks.size(); ++i) {
        EXPECT_EQ(got[i], (llc::ContourRank{20, ranks[i]})) << i;
    }
}

TEST(ContourRank, ClosedContours) {
    // A 2 × 2 cycle and a ring around the whole image: canonical head = smallest index, at every P.
    expect_ranked(parse({"06", "24"}), 2, 2);
    expect_ranked(parse({"00006", "2...6", "2...6", "24444"}), 5, 4);
    const auto got = rank_all(parse({"06", "24"}), 2, 2);
    EXPECT_EQ(got[0], (llc::ContourRank{0, 0}));
    EXPECT_EQ(got[2], (llc::ContourRank{0, 1}));  // (1,0) → N → (0,0)
}

TEST(ContourRank, EdgeShapes) {
    expect_ranked(parse({"H"}), 1, 1);
    expect_ranked(parse({"."}), 1, 1);
    expect_ranked({}, 0, 0);
    expect_ranked({}, 7, 0);
    expect_ranked(parse({"6", "6", "6", "6", "6", "6", "H"}), 1, 7);  // one column, P > width
    expect_ranked(parse({"H44444444444"}), 12, 1);                    // one row, P > height
}

TEST(ContourRank, RandomMaps) {
    // Sizes prime, not multiples of √P, taller and wider; sparse and dense.
    const int sizes[][2] = {{13, 11}, {17, 5}, {5, 23}, {32, 32}, {3, 3}, {41, 37}};
    std::uint64_t seed = 1;
    for (const auto& size : sizes) {
        for (const double fill : {0.1, 0.5, 2.0}) {
            const Codes codes = random_map(size[0], size[1], seed++, fill);
            expect_ranked(codes, size[0], size[1]);
        }
    }
}

TEST(ContourRank, SyntheticImages) {
    // The paper's test images (§5.3): the digest's T4 (diagonal, 100 %) and T6 (vertical, 50 %), then larger ones
    // whose lines cross every block border and corner, ranked by every pattern.
    EXPECT_EQ(llc::synthetic_successor_map(4, 4, 1.0, llc::ContourLines::diagonal),
              parse({"777H", "777H", "777H", "HHHH"}));
    EXPECT_EQ(llc::synthetic_successor_map(4, 4, 0.5, llc::ContourLines::vertical),
              parse({"6.6.", "6.6.", "6.6.", "H.H."}));
    EXPECT_EQ(llc::synthetic_successor_map(3, 2, 0.0, llc::ContourLines::diagonal), Codes(6, -1));
    for (const double density : {1.0, 0.34, 0.1}) {
        expect_ranked(llc::synthetic_successor_map(29, 23, density, llc::ContourLines::diagonal), 29, 23);
        expect_ranked(llc::synthetic_successor_map(29, 23, density, llc::ContourLines::vertical), 29, 23);
    }
    EXPECT_THROW((void)llc::synthetic_successor_map(3, 3, 1.5, llc::ContourLines::diagonal), llc::Error);
    EXPECT_THROW((void)llc::synthetic_successor_map(-3, 3, 0.5, llc::ContourLines::diagonal), llc::Error);
}

TEST(ContourRank, PatternNames) {
    for (const auto pattern : kPatterns) {
        EXPECT_EQ(llc::contour_pattern_from_string(llc::to_string(pattern)), pattern);
    }
    EXPECT_EQ(llc::to_string(llc::ContourPattern::log_level_balanced), "logp-lev-bal");
    llc::test::expect_error_everywhere([] { (void)llc::contour_pattern_from_string("quad"); },
                                       {"pattern", "quad", "logp-lev-quad"});
    // A value outside the enum is rejected on every rank before any communication of the merge.
    const auto map = llc::SuccessorMap::from_whole(world(), 2, 2, Codes(4, -1));
    llc::test::expect_error_everywhere(
        [&] { (void)llc::contour_rank(world(), map, static_cast<llc::ContourPattern>(17)); }, {"pattern", "17"});
}

TEST(ContourRank, CostExpressionMirrorsTheTrace) {
    // cost::contour_rank has the supersteps contour_rank records, node for node, for every pattern (the prices here
    // are placeholders: only the structure is compared).
    const llc::cost::Profile profile = llc::test::structure_profile(
        world().size(),
        {"cr.pixel.2^10", "cr.edge.2^10", "cr.quarter_edge.2^10", "cr.sparse_edge.2^10", "cr.merge"},
        {"allgatherv", "allreduce", "alltoallv"});
    const auto model = llc::cost::make_model("ccm", profile);
    const auto map = llc::SuccessorMap::from_whole(
        world(), 32, 24, llc::synthetic_successor_map(32, 24, 0.5, llc::ContourLines::diagonal));
    for (const auto pattern : kPatterns) {
        if (pattern == llc::ContourPattern::automatic) {
            continue;
        }
        llc::Trace::enable(true);
        world().restart_superstep_clock();
        (void)llc::contour_rank(world(), map, pattern);
        const llc::Trace trace = llc::Trace::gather(world());
        llc::Trace::enable(false);
        if (world().rank() == 0) {
            const auto expr = llc::cost::contour_rank(world().size(), 32, 24, 0.5, pattern, profile);
            const auto c = llc::cost::compare(trace.merged(), expr, *model);
            EXPECT_TRUE(c.structure_matches) << llc::to_string(pattern) << "\n" << c.to_text();
        }
    }
}

TEST(ContourRank, InvalidMaps) {
    const auto reject = [](const std::vector<std::string>& rows, std::initializer_list<std::string> fragments) {
        const Codes codes = parse(rows);
        const int width = static_cast<int>(rows.front().size());
        const int height = static_cast<int>(rows.size());
        llc::test::expect_error_everywhere(
            [&] {
                const auto map = llc::SuccessorMap::from_whole(world(), width, height, codes);
                (void)llc::contour_rank(world(), map);
            },
            fragments);
    };
    reject({"0"}, {"pixel (0, 0)", "off the image"});
    reject({"2", "H"}, {"pixel (0, 0)", "off the image"});
    reject({"0H4"}, {"pixel (0, 1)", "two predecessors"});
    reject({"0."}, {"pixel (0, 0)", "(0, 1) is a non-edge pixel"});
    reject({"H...", "....", "....", "...7"}, {"pixel (3, 3)", "off the image"});
    reject({"....", "..6.", "..H.", "..2."}, {"pixel (2, 2)", "two predecessors"});
    Codes bad(4, -1);
    bad[3] = 9;
    llc::test::expect_error_everywhere(
        [&] { (void)llc::contour_rank(world(), llc::SuccessorMap::from_whole(world(), 2, 2, bad)); },
        {"pixel (1, 1)", "outside [-1, 8]"});
    llc::test::expect_error_everywhere([&] { (void)llc::SuccessorMap::from_whole(world(), 3, 2, Codes(5, -1)); },
                                       {"all.size()", "5"});
    llc::test::expect_error_everywhere([&] { (void)llc::SuccessorMap::from_whole(world(), -1, 2, Codes{}); },
                                       {"width", "-1"});
}

}  // namespace
