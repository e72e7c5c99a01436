// Contour ranking (algorithms/contour_ranking, C³ paper §5): the digest's 6 × 6 inward spiral ranked by each of the
// four merge patterns and printed, then the paper's synthetic image of diagonal lines (n × n, 100 % edge pixels),
// whose answer is known in closed form: pixel (r, c) has rank min(n−1−r, n−1−c) on the line ending at
// (r + rank, c + rank).
//
//   mpirun -np 4 llc-example-contour-ranking [n]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <llc/algorithms/contour_ranking.hpp>
#include <llc/llc.hpp>

namespace {

/// Every rank's block of `local`, back in map order on every rank.
std::vector<llc::ContourRank> whole(llc::Group& world,
                                    const std::vector<llc::ContourRank>& local,
                                    std::int64_t width,
                                    std::int64_t height) {
    const auto all = world.allgatherv(std::span<const llc::ContourRank>(local));
    std::vector<llc::ContourRank> out(static_cast<std::size_t>(width * height));
    std::size_t next = 0;
    for (int q = 0; q < world.size(); ++q) {
        const llc::PixelBlock b = llc::block_of(q, world.size(), width, height);
        for (std::int64_t r = b.row0; r < b.row0 + b.rows; ++r) {
            for (std::int64_t c = b.col0; c < b.col0 + b.cols; ++c) {
                out[static_cast<std::size_t>(r * width + c)] = all[next++];
            }
        }
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    llc::Environment env(argc, argv);
    llc::Group& world = llc::Group::world();
    const bool root = world.rank() == 0;
    const llc::ContourPattern patterns[] = {llc::ContourPattern::one_level_direct,
                                            llc::ContourPattern::two_level_row_column,
                                            llc::ContourPattern::log_level_quad,
                                            llc::ContourPattern::log_level_balanced};
    bool ok = true;

    // The spiral: codes as in the digest ('H' head = 8, Freeman directions 0 = E, 2 = N, 4 = W, 6 = S).
    const std::string rows = "000006000066200666228466224446244444";
    std::vector<std::int8_t> spiral;
    for (const char ch : rows) {
        spiral.push_back(static_cast<std::int8_t>(ch - '0'));
    }
    const auto map = llc::SuccessorMap::from_whole(world, 6, 6, spiral);
    std::vector<llc::ContourRank> first;
    for (const auto pattern : patterns) {
        const auto ranks = whole(world, llc::contour_rank(world, map, pattern), 6, 6);  // collective
        ok = ok && (first.empty() || ranks == first);
        first = ranks;
    }
    if (root) {
        std::printf("6 × 6 spiral, head pixel %lld, ranks (the same by every pattern):\n",
                    static_cast<long long>(first[0].head));
        for (int r = 0; r < 6; ++r) {
            for (int c = 0; c < 6; ++c) {
                std::printf("%3lld", static_cast<long long>(first[static_cast<std::size_t>(r * 6 + c)].rank));
            }
            std::printf("\n");
        }
    }
    ok = ok && first[0].rank == 35 && first[20].rank == 0;

    const std::int64_t n = argc > 1 ? std::stoll(argv[1]) : 256;
    const auto lines = llc::synthetic_successor_map(n, n, 1.0, llc::ContourLines::diagonal);
    const auto image = llc::SuccessorMap::from_whole(world, n, n, lines);
    for (const auto pattern : patterns) {
        const auto ranks = whole(world, llc::contour_rank(world, image, pattern), n, n);
        std::int64_t wrong = 0;
        for (std::int64_t r = 0; r < n; ++r) {
            for (std::int64_t c = 0; c < n; ++c) {
                const std::int64_t rank = std::min(n - 1 - r, n - 1 - c);
                const llc::ContourRank want{(r + rank) * n + c + rank, rank};
                wrong += ranks[static_cast<std::size_t>(r * n + c)] == want ? 0 : 1;
            }
        }
        if (root) {
            std::printf("%lld × %lld diagonal lines by %s: %lld wrong pixels\n",
                        static_cast<long long>(n),
                        static_cast<long long>(n),
                        std::string(llc::to_string(pattern)).c_str(),
                        static_cast<long long>(wrong));
        }
        ok = ok && wrong == 0;
    }
    return ok ? 0 : 1;
}
