// Ordinary calls compile: the calls of issue #30 and of the READMEs (README.md, algorithms/*/README.md, docs/llc.md,
// docs/broadcast.md) written as a user writes them, on std::vector and std::array, without spelling out a
// std::span. The lines marked "verbatim" are copied from the documents as they stand; each test also checks the
// results, so that a call that compiles but misreads its arguments fails. Run at P = 1, 2.
#include <algorithm>
#include <array>
#include <complex>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/llc.hpp>

namespace {

llc::Group& world() {
    return llc::Group::world();
}

// ---- Issue #30's calls ----------------------------------------------------------------------------------------------

TEST(OrdinaryCalls, SymvOnVectors) {
    auto& g = world();
    const std::int64_t n = 8;
    const llc::SymmetricMatrix<double> A(g, n, [](std::int64_t i, std::int64_t j) { return i == j ? 1.0 : 0.0; });
    std::vector<double> whole(static_cast<std::size_t>(n));
    std::iota(whole.begin(), whole.end(), 1.0);
    // The user: x and y are this rank's contiguous block (what plain vectors mean to symv).
    const llc::BlockDistribution blocks(n, g.size());
    const auto first = whole.begin() + blocks.start(g.rank());
    const std::vector<double> x(first, first + blocks.local_size(g.rank()));
    std::vector<double> y(x.size());
    llc::symv(g, 1.0, A, x, 0.0, y);  // verbatim from the issue
    llc::symv(g, 2, A, x, 1, y);      // integer scalars convert to the matrix's T
    const std::vector<double> all = g.allgatherv(y);
    ASSERT_EQ(all.size(), whole.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        EXPECT_EQ(all[i], 3.0 * whole[i]) << i;
    }
    const std::vector<double> in_layout = llc::distribute_vector(A.layout(), g.rank(), whole);  // a vector, deduced
    const std::array<double, 8> fixed{1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_EQ(llc::distribute_vector(A.layout(), g.rank(), fixed), in_layout);
    EXPECT_EQ(llc::gather_vector(g, A.layout(), in_layout), whole);
}

TEST(OrdinaryCalls, GroupCollectivesOnVectors) {
    auto& g = world();
    const auto P = static_cast<std::size_t>(g.size());
    const std::vector<int> vec(static_cast<std::size_t>(g.rank()) + 1, g.rank());
    const std::vector<int> all = g.allgatherv(vec);  // verbatim from the issue
    EXPECT_EQ(all.size(), P * (P + 1) / 2);
    EXPECT_EQ(all.back(), g.size() - 1);
    const std::array<double, 3> three{1.0, 2.0, 3.0};
    std::vector<double> sums(3);
    g.allreduce(three, sums, llc::Op::sum);
    EXPECT_EQ(sums[2], 3.0 * static_cast<double>(P));
    std::vector<double> in_place{1.0, 2.0};
    g.allreduce(in_place, in_place, llc::Op::max);
    EXPECT_EQ(in_place[1], 2.0);
    std::vector<double> reduced(3);
    g.reduce(three, reduced, llc::Op::sum, 0);
    if (g.rank() == 0) {
        EXPECT_EQ(reduced[0], static_cast<double>(P));
    }
    EXPECT_EQ(g.allgather(three).size(), 3 * P);
    EXPECT_EQ(g.gather(three, 0).size(), g.rank() == 0 ? 3 * P : 0);
    EXPECT_EQ(g.gatherv(vec, 0).size(), g.rank() == 0 ? P * (P + 1) / 2 : 0);
    std::vector<int> blocks(2 * P);
    std::iota(blocks.begin(), blocks.end(), 0);
    std::vector<int> mine(2);
    g.scatter(blocks, mine, 0);
    EXPECT_EQ(mine[0], 2 * g.rank());
    const std::vector<int> counts(P, 2);
    EXPECT_EQ(g.scatterv(blocks, counts, 0), mine);
    std::vector<int> swapped(blocks.size());
    g.alltoall(blocks, swapped);
    EXPECT_EQ(swapped[0], 2 * g.rank());
    EXPECT_EQ(g.alltoallv(blocks, counts).size(), blocks.size());
    std::vector<int> from_left(1);
    g.shift(std::vector<int>{g.rank()}, from_left, 1);
    EXPECT_EQ(from_left[0], (g.rank() + g.size() - 1) % g.size());
    const int other = g.size() == 2 ? 1 - g.rank() : g.rank();
    std::vector<int> partner(1);
    g.swap(other, std::array<int, 1>{g.rank()}, partner);
    EXPECT_EQ(partner[0], other);
    std::vector<int> again(1);
    auto flight = g.shift_start(std::vector<int>{g.rank()}, again, 1);
    flight.wait();
    EXPECT_EQ(again, from_left);
}

// ---- README.md ("Ten lines") ----------------------------------------------------------------------------------------

std::vector<double> leaf(std::span<const double> x) {
    return {std::accumulate(x.begin(), x.end(), 0.0)};
}
std::pair<std::span<const double>, std::span<const double>> halves(std::span<const double> x) {
    return {x.first(x.size() / 2), x.subspan(x.size() / 2)};
}
std::vector<double> combine(const std::vector<double>& a, const std::vector<double>& b) {
    return {a[0] + b[0]};
}

// verbatim
// clang-format off
std::vector<double> solve(llc::Group& g, std::span<const double> x) {
    if (g.size() == 1 || x.size() < 2) return leaf(x);               // sequential leaf
    const auto [lo, hi] = halves(x);
    auto [a, b] = llc::par(g, [&](llc::Group& s) { return solve(s, lo); },   // division superstep:
                              [&](llc::Group& s) { return solve(s, hi); });  // both results on every processor
    return combine(a, b);
}
// clang-format on

TEST(OrdinaryCalls, ReadmeTenLines) {
    std::vector<double> input(100);
    std::iota(input.begin(), input.end(), 1.0);
    auto r = solve(llc::Group::world(), input);  // main()'s call, with a vector
    EXPECT_EQ(r[0], 5050.0);
}

// ---- docs/llc.md and docs/broadcast.md ------------------------------------------------------------------------------

TEST(OrdinaryCalls, DocsParAndBroadcast) {
    auto& g = world();
    const std::vector<double> weights{1.0, 3.0};
    // docs/llc.md's call, with R = int and a task of our own
    // clang-format off
    std::vector<int> parts = llc::weighted_par(g, weights,       // r = weights.size() tasks
        [&](llc::Group& sub, int t) { return sub.size() * 0 + t; }); // sizes ∝ weights; every processor holds all r results
    // clang-format on
    EXPECT_EQ(parts, (std::vector<int>{0, 1}));
    std::vector<double> v(5, g.rank() == 0 ? 7.0 : 0.0);
    const int root = 0;
    llc::bcast(g, std::span<double>(v), root, llc::Bcast::bidirectional);  // verbatim
    llc::bcast(g, v, root, llc::Bcast::automatic);                         // the vector itself
    EXPECT_EQ(v[4], 7.0);
    std::array<int, 2> pair{g.rank() == 0 ? 4 : 0, 5};
    llc::bcast(g, pair, root, llc::Bcast::binomial);
    EXPECT_EQ(pair[0], 4);
}

// ---- algorithms/*/README.md -----------------------------------------------------------------------------------------

TEST(OrdinaryCalls, FftReadme) {
    auto& g = world();
    const std::int64_t n = 16;
    // clang-format off
    llc::FftPlan plan(g, n, {.direction = llc::FftDirection::forward,
                         .layout = llc::FftLayout::block, .order = llc::FftOrder::natural});
    // clang-format on
    std::vector<std::complex<double>> my_block(static_cast<std::size_t>(plan.input_size()), 1.0);
    std::vector<std::complex<double>> my_output(my_block.size());
    plan.execute(my_block, my_output);  // verbatim
    for (std::size_t i = 0; i < my_output.size(); ++i) {
        const double expected = plan.output_index(static_cast<std::int64_t>(i)) == 0 ? 16.0 : 0.0;
        EXPECT_NEAR(std::abs(my_output[i] - expected), 0.0, 1e-12);
    }
    EXPECT_EQ(llc::fft(g, my_block).size(), my_block.size());
}

TEST(OrdinaryCalls, DistanceTransformReadme) {
    auto& g = world();
    llc::Image<std::uint8_t> read{5, 4, std::vector<std::uint8_t>(20, 1)};
    read.pixels[0] = 0;
    const llc::Image<std::uint8_t> image = read;
    // verbatim
    // clang-format off
    const auto part = llc::scatter_rows(g, image.view(), /*r=*/64, /*root=*/0);
    const auto distances = llc::distance_transform(g, part, llc::Metric::chamfer34);
    const llc::Image<std::int32_t> result = llc::gather_rows(g, distances, 0);  // whole on rank 0
    // clang-format on
    if (g.rank() == 0) {
        ASSERT_EQ(result.pixels.size(), 20U);
        EXPECT_EQ(result.pixels[19], 3 * 4 + 3);  // (3, 4): three diagonal steps (4) and one across (3)
    }
}

TEST(OrdinaryCalls, ContourRankingReadme) {
    auto& group = world();
    const std::int64_t width = 6;
    const std::int64_t height = 6;
    std::vector<std::uint8_t> pixels(36, 0);
    pixels[2 * 6 + 2] = pixels[2 * 6 + 3] = pixels[3 * 6 + 2] = pixels[3 * 6 + 3] = 1;
    const auto pattern = llc::ContourPattern::one_level_direct;
    // verbatim
    // clang-format off
    auto image = llc::BinaryImage::from_whole(group, width, height, pixels);   // or this rank's block directly
    llc::BorderMap borders = llc::trace_contours(group, image, llc::Connectivity::eight);
    std::vector<llc::ContourRank> ranks = llc::contour_rank(group, borders, pattern);   // any ContourPattern
    std::vector<llc::Contour> found = llc::contours(group, borders, ranks);            // on rank 0: id, hole, points
    // clang-format on
    if (group.rank() == 0) {
        ASSERT_EQ(found.size(), 1U);
        EXPECT_EQ(found[0].points.size(), 4U);
    }
}

TEST(OrdinaryCalls, SymvAndMatrixChainReadmes) {
    auto& g = world();
    const llc::SymmetricMatrix<double> A(g, 4, [](std::int64_t i, std::int64_t j) { return double(i + j); });
    const double alpha = 1.0;
    const double beta = 0.0;
    const llc::SymvOptions options{};
    const std::vector<double> x = llc::distribute_vector(A.layout(), g.rank(), std::vector<double>{1, 0, 0, 0});
    std::vector<double> y(x.size());
    llc::symv(g, alpha, A, A.layout(), x, beta, y, options);  // verbatim
    EXPECT_EQ(llc::gather_vector(g, A.layout(), y), (std::vector<double>{0, 1, 2, 3}));
    const std::vector<std::int64_t> dims{10, 100, 5, 50};
    EXPECT_EQ(llc::matrix_chain(g, dims).cost, 7500);  // verbatim: llc::matrix_chain(g, dims)
    const std::vector<double> freq{0.5, 0.25, 0.25};
    EXPECT_EQ(llc::optimal_bst(g, freq).root, 0);  // verbatim: llc::optimal_bst(g, freq)
}

}  // namespace
