// llc-compare edt: llc's exact Euclidean distance transform (algorithms/distance_transform) at the world's P against
// OpenCV's exact one, cv::distanceTransform(DIST_L2, DIST_MASK_PRECISE) (Felzenszwalb–Huttenlocher, float output), on
// rank 0 with one thread and with OpenCV's default threads, on the same random blob image, timed interleaved.
//
// Rows, per n (default 2048, 4096, 8192; n × n pixels):
//   edt  vs opencv-precise-1-thread and opencv-precise-threads
// The threaded row names the CPUs OpenCV sees: under mpirun's default binding rank 0 has one core (…-threads-1); with
// `mpirun --bind-to none` OpenCV's threads get the machine's cores. Before timing, rank 0 checks that √(our squared
// distances) match OpenCV's within 1e-3 on its rows.
#include <cmath>
#include <cstdint>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include <llc/algorithms/blob_image.hpp>
#include <llc/algorithms/euclidean_distance.hpp>
#include <llc/group.hpp>

#include "comparison.hpp"

namespace llc::compare {

namespace {

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes =
        options.sizes.empty() ? std::vector<std::int64_t>{2048, 4096, 8192} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 9;
    const int P = world.size();
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const std::vector<std::uint8_t> whole = random_blob_image(n, n, 20261125);
        const std::int64_t r = (n + P - 1) / P;
        const std::int64_t first = std::min(n, world.rank() * r);
        const std::int64_t last = std::min(n, first + r);
        const std::vector<std::uint8_t> image(whole.begin() + first * n, whole.begin() + last * n);
        std::vector<std::int32_t> squared(image.size());
        const int side = static_cast<int>(n);
        const cv::Mat source(side, side, CV_8U, const_cast<std::uint8_t*>(whole.data()));
        cv::Mat distances;
        // The same answer first (rank 0's rows; OpenCV's float output is within 1e-3 of the exact distance).
        euclidean_distance_transform(world, n, n, r, image, squared);
        if (world.rank() == 0) {
            cv::distanceTransform(source, distances, cv::DIST_L2, cv::DIST_MASK_PRECISE);
            for (std::size_t i = 0; i < squared.size(); ++i) {
                const double ours = std::sqrt(static_cast<double>(squared[i]));
                if (std::abs(ours - static_cast<double>(distances.ptr<float>()[i])) > 1e-3) {
                    throw std::runtime_error("llc-compare edt: our distance and OpenCV's differ at pixel " +
                                             std::to_string(i) + " of n = " + std::to_string(n));
                }
            }
        }
        const auto opencv = [&](int threads) {
            return [&, threads] {
                if (world.rank() == 0) {
                    cv::setNumThreads(threads);
                    cv::distanceTransform(source, distances, cv::DIST_L2, cv::DIST_MASK_PRECISE);
                }
            };
        };
        const std::vector<std::function<void()>> bodies{
            [&] { euclidean_distance_transform(world, n, n, r, image, squared); }, opencv(1), opencv(-1)};
        const std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        rows.push_back({"edt", P, n, t[0], "opencv-precise-1-thread", t[1]});
        rows.push_back({"edt", P, n, t[0], "opencv-precise-threads-" + std::to_string(cv::getNumberOfCPUs()), t[2]});
    }
    return rows;
}

}  // namespace

Comparison euclidean_comparison() {
    return {"edt",
            "exact Euclidean distance transform vs OpenCV distanceTransform(DIST_L2, DIST_MASK_PRECISE), 1 thread and "
            "default threads",
            run};
}

}  // namespace llc::compare
