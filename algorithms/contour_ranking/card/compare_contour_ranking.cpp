// llc-compare contour-ranking: contour tracing and ranking (algorithms/contour_ranking: trace_contours, then
// contour_rank of the borders) at the world's P against OpenCV's cv::findContours (RETR_LIST, CHAIN_APPROX_NONE) on
// the same random blob image (llc::random_blob_image), and against our own run on one processor, timed interleaved.
//
// Rows, per n (default 4096; n × n pixels), the image distributed by block_of:
//   trace+rank           vs opencv findContours and vs ours at P = 1: every border's successor graph ranked (each
//                        border pixel visit knows its contour and position), which findContours' point lists hold too
//   trace+rank+contours  the same plus contours(): the ordered point lists gathered and sorted on rank 0
// OpenCV and our one-processor runs are on rank 0 while the other ranks wait; OpenCV with one thread (findContours is
// sequential anyway). Before timing, rank 0 checks that our one-processor contours are OpenCV's: as many contours, the
// same lengths, the same points.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/contour_ranking.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

/// Ours on `g`: the blob image's block, traced and ranked (and assembled on g's rank 0 when asked).
struct Ours {
    Ours(Group& g, const std::vector<std::uint8_t>& whole, std::int64_t n)
        : group(g), image(BinaryImage::from_whole(g, n, n, whole)) {}
    void operator()(bool assemble) {
        const BorderMap borders = trace_contours(group, image);
        const std::vector<ContourRank> ranks = contour_rank(group, borders);
        if (assemble) {
            found = contours(group, borders, ranks);
        }
    }
    Group& group;
    BinaryImage image;
    std::vector<Contour> found;
};

/// The contours as (length, sorted points) pairs, sorted: equal for the same borders whatever the start and order.
std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> fingerprint(
    const std::vector<std::vector<std::int64_t>>& contours) {
    std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> out;
    for (const auto& c : contours) {
        std::vector<std::int64_t> sorted = c;
        std::sort(sorted.begin(), sorted.end());
        out.emplace_back(c.size(), std::move(sorted));
    }
    std::sort(out.begin(), out.end());
    return out;
}

void check_against_opencv(const std::vector<Contour>& ours,
                          const std::vector<std::vector<cv::Point>>& theirs,
                          std::int64_t n) {
    std::vector<std::vector<std::int64_t>> a;
    for (const Contour& c : ours) {
        a.emplace_back();
        for (const ContourPoint& p : c.points) {
            a.back().push_back(p.row * n + p.col);
        }
    }
    std::vector<std::vector<std::int64_t>> b;
    for (const auto& c : theirs) {
        b.emplace_back();
        for (const cv::Point& p : c) {
            b.back().push_back(static_cast<std::int64_t>(p.y) * n + p.x);
        }
    }
    if (fingerprint(a) != fingerprint(b)) {
        throw std::runtime_error(
            "llc-compare contour-ranking: our contours differ from OpenCV's on n = " + std::to_string(n) + " (" +
            std::to_string(a.size()) + " against " + std::to_string(b.size()) + ")");
    }
}

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes = options.sizes.empty() ? std::vector<std::int64_t>{4096} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 9;
    const int P = world.size();
    cv::setNumThreads(1);
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, 20261125);
        const int side = static_cast<int>(n);
        const cv::Mat source(side, side, CV_8U, const_cast<std::uint8_t*>(whole.data()));
        std::vector<std::vector<cv::Point>> found;
        Ours ours(world, whole, n);
        std::optional<Ours> one;  // ours on rank 0 alone
        if (world.rank() == 0) {
            one.emplace(world.self(), whole, n);
            (*one)(true);
            cv::findContours(source, found, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
            check_against_opencv(one->found, found, n);
        }
        for (const bool assemble : {false, true}) {
            const std::vector<std::function<void()>> bodies{
                [&] { ours(assemble); },
                [&] {
                    if (one) {
                        (*one)(assemble);
                    }
                },
                [&] {
                    if (world.rank() == 0) {
                        cv::findContours(source, found, cv::RETR_LIST, cv::CHAIN_APPROX_NONE);
                    }
                }};
            const std::vector<double> time = time_medians_interleaved(world, repeat, bodies);
            const std::string name = assemble ? "trace+rank+contours" : "trace+rank";
            rows.push_back({name, P, n, time[0], "opencv-findContours", time[2]});
            rows.push_back({name, P, n, time[0], "ours-P1", time[1]});
        }
    }
    return rows;
}

}  // namespace

Comparison contour_ranking_comparison() {
    return {
        "contour-ranking",
        "contour tracing + ranking of a blob image vs OpenCV findContours (RETR_LIST, CHAIN_APPROX_NONE) and vs our "
        "P = 1",
        run};
}

}  // namespace llc::cards
