// llc-compare distance-transform: llc's distance transforms (algorithms/distance_transform) at the world's P against
// OpenCV's cv::distanceTransform on the same random blob image (llc::random_blob_image), and against our own
// transform on one processor, timed interleaved.
//
// Rows, per n (default 2048, 4096; n × n pixels), our distributed run in llc::sweep_layout's blocks and segments (the
// EDT in one block a processor):
//   d4   vs opencv DIST_L1 (mask 3) and vs ours at P = 1     (both exact: the same distances)
//   d8   vs opencv DIST_C (mask 3) and vs ours at P = 1
//   chamfer34  vs ours at P = 1 (OpenCV has no 3-4 mask)
//   edt  vs opencv DIST_L2 DIST_MASK_PRECISE (exact, float) and vs ours at P = 1
// OpenCV and our one-processor runs are on rank 0 while the other ranks wait. OpenCV runs with one thread
// (cv::setNumThreads(1)); its threaded runs gain nothing for the chamfer masks (peers-and-limits.md §4). Before
// timing, rank 0 checks that our one-processor distances equal OpenCV's (the EDT's within 1e-3) and that our
// distributed run's (gathered) equal our one-processor run's exactly (integer distances, the EDT's squared).
#include <cmath>
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
#include <llc/algorithms/chamfer.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/algorithms/row_image.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"
#include "inputs.hpp"

namespace llc::cards {

namespace {

struct Transform {
    std::string name;
    std::optional<ChamferMask> mask;  ///< none: the exact Euclidean transform
    int cv_type = -1;                 ///< OpenCV's distance type, −1: no OpenCV peer
    int cv_mask = 3;
};

/// Ours on `g`: the chamfer transforms in llc::sweep_layout's blocks and segments, the EDT in one block a processor.
struct Ours {
    Ours(const Transform& t, Group& g, const std::vector<std::uint8_t>& whole, std::int64_t side)
        : transform(t), group(g), n(side) {
        layout = t.mask ? sweep_layout(g.size(), n, n, *t.mask) : SweepLayout{(n + g.size() - 1) / g.size(), 1};
        DistributedImage<std::uint8_t> part = distribute_rows(g, ImageView<const std::uint8_t>{n, n, whole}, layout.r);
        rows = part.layout;
        image = std::move(part.rows);
        out.resize(image.size());
    }
    void operator()() {
        if (transform.mask) {
            chamfer_distance_transform(group, n, n, layout.r, image, *transform.mask, out, layout.k);
        } else {
            euclidean_distance_transform(group, n, n, layout.r, image, out);
        }
    }
    const Transform& transform;
    Group& group;
    std::int64_t n;
    SweepLayout layout;
    RowBlocks rows;  ///< which rows this processor holds
    std::vector<std::uint8_t> image;
    std::vector<std::int32_t> out;
    /// The whole output on rank 0 (one gatherv); empty elsewhere. Collective over the group.
    [[nodiscard]] std::vector<std::int32_t> gathered() {
        return gather_rows(group, DistributedImage<std::int32_t>{rows, group.rank(), out}, 0).pixels;
    }
};

/// Our distances on rank 0's rows against OpenCV's (float) output.
void check_against_opencv(const Transform& t,
                          std::span<const std::int32_t> ours,
                          const cv::Mat& theirs,
                          std::int64_t n) {
    for (std::size_t i = 0; i < ours.size(); ++i) {
        const double mine = t.mask ? static_cast<double>(ours[i]) : std::sqrt(static_cast<double>(ours[i]));
        const double peer = static_cast<double>(theirs.ptr<float>()[i]);
        if (std::abs(mine - peer) > 1e-3) {
            throw std::runtime_error("llc-compare distance-transform: " + t.name + " differs from OpenCV at pixel " +
                                     std::to_string(i) + " of n = " + std::to_string(n));
        }
    }
}

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes =
        options.sizes.empty() ? std::vector<std::int64_t>{2048, 4096} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 9;
    const int P = world.size();
    const std::vector<Transform> transforms{{"d4", ChamferMask::d4(), cv::DIST_L1, 3},
                                            {"d8", ChamferMask::d8(), cv::DIST_C, 3},
                                            {"chamfer34", ChamferMask::chamfer34(), -1, 3},
                                            {"edt", std::nullopt, cv::DIST_L2, cv::DIST_MASK_PRECISE}};
    cv::setNumThreads(1);
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, dt::blob_seed);
        const int side = static_cast<int>(n);
        const cv::Mat source(side, side, CV_8U, const_cast<std::uint8_t*>(whole.data()));
        cv::Mat distances;
        for (const Transform& t : transforms) {
            Ours ours(t, world, whole, n);
            std::optional<Ours> one;  // ours on rank 0 alone
            if (world.rank() == 0) {
                one.emplace(t, world.self(), whole, n);
            }
            if (world.rank() == 0) {
                (*one)();
                if (t.cv_type >= 0) {
                    cv::distanceTransform(source, distances, t.cv_type, t.cv_mask);
                    check_against_opencv(t, one->out, distances, n);
                }
            }
            ours();
            if (const std::vector<std::int32_t> all = ours.gathered(); world.rank() == 0 && all != one->out) {
                throw std::runtime_error("llc-compare distance-transform: " + t.name + " at P = " + std::to_string(P) +
                                         " differs from our P = 1 at n = " + std::to_string(n));
            }
            const std::vector<std::function<void()>> bodies{[&] { ours(); },
                                                            [&] {
                                                                if (one) {
                                                                    (*one)();
                                                                }
                                                            },
                                                            [&] {
                                                                if (world.rank() == 0 && t.cv_type >= 0) {
                                                                    cv::distanceTransform(
                                                                        source, distances, t.cv_type, t.cv_mask);
                                                                }
                                                            }};
            const std::vector<double> time = time_medians_interleaved(world, repeat, bodies);
            if (t.cv_type >= 0) {
                rows.push_back({t.name, P, n, time[0], "opencv-1-thread", time[2]});
            }
            rows.push_back({t.name, P, n, time[0], "ours-P1", time[1]});
        }
    }
    return rows;
}

}  // namespace

Comparison distance_transform_comparison() {
    return {"distance-transform",
            "d4, d8, 3-4 and exact Euclidean distance transforms vs OpenCV distanceTransform and vs our P = 1",
            run};
}

}  // namespace llc::cards
