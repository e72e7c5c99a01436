// Public headers per concern: <llc/algorithms/contour_tracing.hpp> alone traces a binary image's borders and prices
// the tracing, without the ranking API (contour_rank, contours), which <llc/algorithms/contour_ranking.hpp> adds. The
// static_asserts fail to compile if the tracing header starts to declare the ranking API again.
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/contour_tracing.hpp>
#include <llc/llc.hpp>

// A fallback that qualified lookup picks only when the real contour_rank is not declared at namespace scope (it is
// also a friend of BorderMap, which qualified lookup does not see); the real one, declared, is the better match.
namespace contour_tracing_header_test {
struct NotDeclared {};
}  // namespace contour_tracing_header_test
namespace llc {
template <class... Args>
contour_tracing_header_test::NotDeclared contour_rank(Args&&...);  // declared only, never called
}  // namespace llc

namespace {
using contour_tracing_header_test::NotDeclared;
using RankingCall = decltype(llc::contour_rank(std::declval<llc::Group&>(), std::declval<const llc::BorderMap&>()));
using TracingCall = decltype(llc::trace_contours(std::declval<llc::Group&>(), std::declval<const llc::BinaryImage&>()));
static_assert(std::is_same_v<TracingCall, llc::BorderMap>);
static_assert(std::is_same_v<RankingCall, NotDeclared>, "contour_tracing.hpp must not declare the ranking API");

TEST(ContourTracingHeaderTest, TracesASquareWithTheTracingHeaderAlone) {
    auto& g = llc::Group::world();
    // A 4 × 4 square in a 9 × 7 image: one outer border through its 12 edge pixels, each entered once.
    const std::int64_t width = 9;
    const std::int64_t height = 7;
    std::vector<std::uint8_t> image(static_cast<std::size_t>(width * height), 0);
    for (std::int64_t r = 2; r < 6; ++r) {
        for (std::int64_t c = 3; c < 7; ++c) {
            image[static_cast<std::size_t>(r * width + c)] = 255;
        }
    }
    const llc::BorderMap borders =
        llc::trace_contours(g, llc::BinaryImage::from_whole(g, width, height, image), llc::Connectivity::eight);
    const long long states = g.allreduce(static_cast<long long>(borders.states().size()), llc::Op::sum);
    EXPECT_EQ(states, 12);
    EXPECT_EQ(borders.processors(), g.size());
    const double density = llc::cost::border_density(g, borders).states_per_pixel;
    EXPECT_DOUBLE_EQ(density, 12.0 / static_cast<double>(width * height));
}

}  // namespace
