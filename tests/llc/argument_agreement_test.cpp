// Every collective entry point agrees on its arguments before it moves data: each argument, passed differently on one
// rank (the last), is an llc::Error on every rank, whose message names the entry point, the argument and the values.
// Registered at P = 2, 3, 5 with a short timeout: a hang fails the test.
#include <complex>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/algorithms/distance_transform.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/llc.hpp>

#include "expect_error.hpp"

namespace {

using llc::test::expect_error_everywhere;

llc::Group& world() {
    return llc::Group::world();
}

/// `usual` on every rank but the last, `odd` there.
template <class T>
T one_differs(T usual, T odd) {
    return world().rank() == world().size() - 1 ? odd : usual;
}

// ---- The llc layer --------------------------------------------------------------------------------------------------

TEST(ArgumentAgreement, GroupCollectives) {
    auto& g = world();
    std::vector<double> data(one_differs<std::size_t>(4, 5), 1.0);
    std::vector<double> out(data.size());
    expect_error_everywhere([&] { g.bcast(std::span<double>(data), 0); },
                            {"llc::Group::bcast", "data.size()", "4", "5"});
    std::vector<double> four(4, 1.0);
    std::vector<double> sum(4);
    expect_error_everywhere([&] { g.bcast(std::span<double>(four), one_differs(0, 1)); }, {"'root'", "0 on", "1 on"});
    expect_error_everywhere(
        [&] {
            g.reduce(std::span<const double>(four), std::span<double>(sum), one_differs(llc::Op::sum, llc::Op::max), 0);
        },
        {"llc::Group::reduce", "'op'"});
    expect_error_everywhere(
        [&] {
            g.allreduce(std::span<const double>(four), std::span<double>(sum), one_differs(llc::Op::sum, llc::Op::min));
        },
        {"llc::Group::allreduce", "'op'"});
    expect_error_everywhere([&] { g.allreduce(std::span<const double>(data), std::span<double>(out), llc::Op::sum); },
                            {"llc::Group::allreduce", "in.size()"});
    expect_error_everywhere([&] { (void)g.gather(std::span<const double>(data), 0); },
                            {"llc::Group::gather", "send.size()"});
    expect_error_everywhere([&] { (void)g.gatherv(std::span<const double>(four), one_differs(0, 1)); },
                            {"llc::Group::gatherv", "'root'"});
    expect_error_everywhere([&] { (void)g.allgather(std::span<const double>(data)); }, {"llc::Group::allgather"});
    std::vector<double> all(4 * static_cast<std::size_t>(g.size()));
    std::vector<double> part(one_differs<std::size_t>(4, 3));
    expect_error_everywhere([&] { g.scatter(std::span<const double>(all), std::span<double>(part), 0); },
                            {"llc::Group::scatter", "recv.size()"});
    const std::vector<int> counts(static_cast<std::size_t>(g.size()), 1);
    const std::vector<double> ones(static_cast<std::size_t>(g.size()), 1.0);
    expect_error_everywhere(
        [&] { (void)g.scatterv(std::span<const double>(ones), std::span<const int>(counts), one_differs(0, 1)); },
        {"llc::Group::scatterv", "'root'"});
    std::vector<double> blocks(static_cast<std::size_t>(g.size()) * one_differs<std::size_t>(2, 3));
    std::vector<double> received(blocks.size());
    expect_error_everywhere([&] { g.alltoall(std::span<const double>(blocks), std::span<double>(received)); },
                            {"llc::Group::alltoall", "send.size()"});
    expect_error_everywhere([&] { g.shift(std::span<const double>(four), std::span<double>(sum), one_differs(1, 2)); },
                            {"llc::Group::shift", "offset"});
    expect_error_everywhere(
        [&] { llc::bcast(g, std::span<double>(four), 0, one_differs(llc::Bcast::binomial, llc::Bcast::mpi)); },
        {"llc::bcast", "algorithm"});
    const std::vector<double> weights{1.0, one_differs(2.0, 3.0)};
    expect_error_everywhere(
        [&] { (void)llc::weighted_par(g, std::span<const double>(weights), [](llc::Group&, int t) { return t; }); },
        {"llc::weighted_par", "'weights'", "[1] = 3 where rank 0 has 2", "fingerprint"});
}

// ---- FFT ------------------------------------------------------------------------------------------------------------

TEST(ArgumentAgreement, FftPlanAndExecute) {
    auto& g = world();
    using llc::FftDirection;
    using llc::FftLayout;
    using llc::FftOrder;
    using llc::FftPlanner;
    expect_error_everywhere([&] { llc::FftPlan plan(g, one_differs(64, 32)); },
                            {"llc::FftPlan", "'n'", "64 on", "32 on"});
    expect_error_everywhere(
        [&] { llc::FftPlan plan(g, 64, {.direction = one_differs(FftDirection::forward, FftDirection::inverse)}); },
        {"options.direction", "forward", "inverse"});
    expect_error_everywhere(
        [&] { llc::FftPlan plan(g, 64, {.layout = one_differs(FftLayout::block, FftLayout::replicated)}); },
        {"options.layout", "block", "replicated"});
    expect_error_everywhere(
        [&] { llc::FftPlan plan(g, 64, {.order = one_differs(FftOrder::natural, FftOrder::scrambled)}); },
        {"options.order", "natural", "scrambled"});
    expect_error_everywhere(
        [&] { llc::FftPlan plan(g, 64, {.planner = one_differs(FftPlanner::estimate, FftPlanner::measure)}); },
        {"options.planner", "estimate", "measure"});
    // A wrong local size on one rank: every rank's message shows the size it got and the size the plan expects.
    llc::FftPlan plan(g, 60, {.layout = FftLayout::block});
    const auto expected = static_cast<std::size_t>(plan.input_size());
    std::vector<std::complex<double>> in(one_differs(expected, expected + 1));
    std::vector<std::complex<double>> out(in.size());
    // Every rank's message quotes the rank that differs, whose input size may not be this rank's when P does not
    // divide n (60 at P = 16: 4 here, 3 there): that rank's size, sent by plain MPI.
    unsigned long long last = expected;
    MPI_Bcast(&last, 1, MPI_UNSIGNED_LONG_LONG, g.size() - 1, g.native());
    expect_error_everywhere([&] { plan.execute(in, out); },
                            {"llc::FftPlan::execute",
                             "in.size()' = " + std::to_string(last + 1),
                             "input_size() = " + std::to_string(last),
                             "rank " + std::to_string(g.size() - 1)});
    // The one-shot transform agrees on the layout before it sums the block sizes.
    std::vector<std::complex<double>> block(8);
    expect_error_everywhere(
        [&] { (void)llc::fft(g, block, {.layout = one_differs(FftLayout::block, FftLayout::replicated)}); },
        {"llc::fft", "options.layout"});
    std::vector<std::complex<double>> whole(one_differs<std::size_t>(16, 8));
    expect_error_everywhere([&] { (void)llc::fft(g, whole, {.layout = FftLayout::replicated}); },
                            {"llc::fft", "in.size()"});
}

// ---- Matrix chain and optimal BST -----------------------------------------------------------------------------------

TEST(ArgumentAgreement, MatrixChainAndOptimalBst) {
    auto& g = world();
    const std::vector<std::int64_t> dims{4, 6, one_differs<std::int64_t>(5, 7), 3, 2};
    expect_error_everywhere([&] { (void)llc::matrix_chain(g, dims); },
                            {"llc::matrix_chain", "'dims'", "[2] = 7 where rank 0 has 5", "fingerprint"});
    const std::vector<std::int64_t> longer(one_differs<std::size_t>(5, 6), 3);
    expect_error_everywhere([&] { (void)llc::matrix_chain(g, longer); }, {"dims.size()", "5 on", "6 on"});
    const std::vector<std::int64_t> same{4, 6, 5, 3, 2};
    expect_error_everywhere([&] { (void)llc::matrix_chain(g, same, {.r = one_differs<std::int64_t>(1, 2)}); },
                            {"options.r"});
    const std::vector<double> freq{0.5, one_differs(0.25, 0.125), 0.25};
    expect_error_everywhere([&] { (void)llc::optimal_bst(g, freq); },
                            {"llc::optimal_bst", "'freq'", "[1] = 0.125 where rank 0 has 0.25"});
    const std::vector<double> f{0.5, 0.25, 0.25};
    expect_error_everywhere([&] { (void)llc::optimal_bst(g, f, {.r = one_differs<std::int64_t>(1, 2)}); },
                            {"options.r"});
}

// ---- symv -----------------------------------------------------------------------------------------------------------

TEST(ArgumentAgreement, Symv) {
    auto& g = world();
    const auto entry = [](std::int64_t i, std::int64_t j) { return static_cast<double>(i + j); };
    using llc::SymvMapping;
    expect_error_everywhere([&] { llc::SymmetricMatrix<double> A(g, one_differs(8, 9), entry); },
                            {"llc::SymmetricMatrix", "'n'"});
    expect_error_everywhere(
        [&] {
            llc::SymmetricMatrix<double> A(g, 8, entry, one_differs(SymvMapping::reflection, SymvMapping::standard));
        },
        {"'mapping'", "reflection", "standard"});
    const std::vector<double> full(64, 1.0);
    expect_error_everywhere(
        [&] {
            (void)llc::SymmetricMatrix<double>::from_full(
                g, 8, full, one_differs(llc::Triangle::lower, llc::Triangle::upper));
        },
        {"llc::SymmetricMatrix::from_full", "'triangle'", "lower on", "upper on"});
    const std::vector<double> packed(one_differs<std::size_t>(36, 35), 1.0);
    expect_error_everywhere([&] { (void)llc::SymmetricMatrix<double>::from_packed(g, 8, packed); },
                            {"llc::SymmetricMatrix::from_packed", "packed.size()"});
    const llc::SymmetricMatrix<double> A(g, 8, entry);
    // x and y in contiguous blocks, as plain vectors are read.
    const std::vector<double> x(static_cast<std::size_t>(llc::BlockDistribution(8, g.size()).local_size(g.rank())),
                                1.0);
    std::vector<double> y(x.size());
    expect_error_everywhere([&] { llc::symv(g, one_differs(1.0, 2.0), A, x, 0.0, y); },
                            {"llc::symv", "'alpha'", "1 on", "2 on"});
    expect_error_everywhere([&] { llc::symv(g, 1.0, A, x, one_differs(0.0, 0.5), y); }, {"'beta'", "0.5"});
    expect_error_everywhere([&] { llc::symv(g, 1.0, A, x, 0.0, y, {.overlap = one_differs(true, false)}); },
                            {"options.overlap"});
    const std::vector<double> long_x(x.size() + static_cast<std::size_t>(one_differs(0, 1)), 1.0);
    expect_error_everywhere([&] { llc::symv(g, 1.0, A, long_x, 0.0, y); }, {"llc::symv", "x.size()"});
    const std::vector<double> in_layout(static_cast<std::size_t>(A.local_rows()), 1.0);  // gather_vector's layout
    expect_error_everywhere([&] { (void)llc::gather_vector(g, A.layout(), in_layout, one_differs(0, 1)); },
                            {"llc::gather_vector", "'root'"});
}

// ---- Distance transforms and path planning --------------------------------------------------------------------------

llc::Image<std::uint8_t> test_image() {
    llc::Image<std::uint8_t> image{9, 7, std::vector<std::uint8_t>(63, 1)};
    image.pixels[20] = 0;
    return image;
}

TEST(ArgumentAgreement, DistanceTransformMetrics) {
    auto& g = world();
    const auto part = llc::distribute_rows(g, test_image(), 1);
    using llc::Metric;
    // The hang: d8 on some ranks, the Euclidean transform on another.
    for (const Metric other : {Metric::euclidean, Metric::d4, Metric::chamfer34, Metric::chamfer5711}) {
        expect_error_everywhere([&] { (void)llc::distance_transform(g, part, one_differs(Metric::d8, other)); },
                                {"llc::distance_transform", "'metric'", "d8 on", std::string(llc::metric_name(other))});
    }
    // Masks: a standard one against a custom one, and two custom ones with one weight apart.
    const auto custom = llc::ChamferMask::custom({{0, -1, 1}, {-1, 0, one_differs(1, 2)}});
    expect_error_everywhere(
        [&] { (void)llc::distance_transform(g, part, custom); },
        {"llc::chamfer_distance_transform", "'mask'", "[1] = (-1, 0) weight 2 where rank 0 has (-1, 0) weight 1"});
    expect_error_everywhere(
        [&] { (void)llc::distance_transform(g, part, one_differs(llc::ChamferMask::d4(), llc::ChamferMask::d8())); },
        {"'mask'", "2 entries", "4 entries"});
    expect_error_everywhere([&] { (void)llc::distance_transform(g, part, Metric::d8, one_differs(2, 3)); }, {"'k'"});
}

TEST(ArgumentAgreement, DistanceTransformSizes) {
    auto& g = world();
    const std::int64_t width = 9;
    const std::int64_t height = 7;
    const std::int64_t r = one_differs<std::int64_t>(1, 2);
    const auto rows = [&](std::int64_t rr) {
        return static_cast<std::size_t>(llc::block_rows_held(g.size(), g.rank(), height, rr) * width);
    };
    const std::vector<std::uint8_t> image(rows(r), 1);
    std::vector<std::int32_t> out(image.size());
    expect_error_everywhere(
        [&] { llc::chamfer_distance_transform(g, width, height, r, image, llc::ChamferMask::d8(), out); },
        {"llc::chamfer_distance_transform", "'r'"});
    expect_error_everywhere([&] { llc::euclidean_distance_transform(g, width, height, r, image, out); },
                            {"llc::euclidean_distance_transform", "'r'"});
    // Different entry points on different ranks meet in the same check.
    const std::vector<std::uint8_t> image1(rows(1), 1);
    std::vector<std::int32_t> out1(image1.size());
    expect_error_everywhere(
        [&] {
            if (g.rank() == g.size() - 1) {
                llc::euclidean_distance_transform(g, width, height, 1, image1, out1);
            } else {
                llc::chamfer_distance_transform(g, width, height, 1, image1, llc::ChamferMask::d8(), out1);
            }
        },
        {"not in the same collective call", "llc::chamfer_distance_transform(", "llc::euclidean_distance_transform("});
}

TEST(ArgumentAgreement, PathPlanningAndRowImages) {
    auto& g = world();
    llc::Image<double> map{6, 5, std::vector<double>(30, 1.0)};
    const auto costs = llc::distribute_rows(g, map, 1);
    const std::vector<llc::Pixel> sources{{0, 0}, {one_differs<std::int64_t>(2, 3), 4}};
    expect_error_everywhere([&] { (void)llc::path_planning(g, costs, sources); },
                            {"llc::path_planning", "'sources'", "[1] = (3, 4) where rank 0 has (2, 4)"});
    const std::vector<llc::Pixel> one{{0, 0}};
    expect_error_everywhere([&] { (void)llc::path_planning(g, costs, one, one_differs(2, 3)); }, {"'k'"});
    expect_error_everywhere([&] { (void)llc::distribute_rows(g, map, one_differs(1, 2)); },
                            {"llc::distribute_rows", "'r'"});
    expect_error_everywhere([&] { (void)llc::scatter_rows(g, map, 1, one_differs(0, 1)); },
                            {"llc::scatter_rows", "'root'"});
    expect_error_everywhere([&] { (void)llc::gather_rows(g, costs, one_differs(0, 1)); },
                            {"llc::gather_rows", "'root'"});
}

// ---- Contour tracing and ranking ------------------------------------------------------------------------------------

TEST(ArgumentAgreement, ContourTracingAndRanking) {
    auto& g = world();
    std::vector<std::uint8_t> pixels(8 * 8, 0);
    for (int row = 2; row < 6; ++row) {
        for (int col = 2; col < 6; ++col) {
            pixels[static_cast<std::size_t>(row * 8 + col)] = 1;
        }
    }
    expect_error_everywhere([&] { (void)llc::BinaryImage::from_whole(g, 8, one_differs(8, 9), pixels); },
                            {"llc::BinaryImage"});
    const auto image = llc::BinaryImage::from_whole(g, 8, 8, pixels);
    using llc::Connectivity;
    expect_error_everywhere(
        [&] { (void)llc::trace_contours(g, image, one_differs(Connectivity::eight, Connectivity::four)); },
        {"llc::trace_contours", "connectivity"});
    const auto borders = llc::trace_contours(g, image);
    using llc::ContourPattern;
    expect_error_everywhere(
        [&] {
            (void)llc::contour_rank(
                g, borders, one_differs(ContourPattern::one_level_direct, ContourPattern::log_level_quad));
        },
        {"llc::contour_rank", "'pattern'", "1-lev-dir", "logp-lev-quad"});
    const auto ranks = llc::contour_rank(g, borders);
    expect_error_everywhere([&] { (void)llc::contours(g, borders, ranks, one_differs(0, 1)); },
                            {"llc::contours", "'root'"});
    const auto codes = llc::synthetic_successor_map(8, 8, 0.25, llc::ContourLines::vertical);
    expect_error_everywhere([&] { (void)llc::SuccessorMap::from_whole(g, one_differs(8, 4), 8, codes); },
                            {"llc::SuccessorMap"});
    const auto succ = llc::SuccessorMap::from_whole(g, 8, 8, codes);
    expect_error_everywhere(
        [&] {
            (void)llc::contour_rank(
                g, succ, one_differs(ContourPattern::two_level_row_column, ContourPattern::log_level_balanced));
        },
        {"llc::contour_rank", "'pattern'", "2-lev-rc", "logp-lev-bal"});
}

}  // namespace
