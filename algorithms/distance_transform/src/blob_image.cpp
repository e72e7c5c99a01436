#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <string>
#include <tuple>

#include <llc/algorithms/blob_image.hpp>
#include <llc/cost/kernel_timing.hpp>
#include <llc/error.hpp>

namespace llc {

std::vector<std::uint8_t> random_blob_image(std::int64_t width,
                                            std::int64_t height,
                                            std::uint64_t seed,
                                            double coverage) {
    constexpr const char* function = "llc::random_blob_image";
    if (width < 1) {
        throw_argument_error(function, "width", std::to_string(width), "must be at least 1");
    }
    if (height < 1) {
        throw_argument_error(function, "height", std::to_string(height), "must be at least 1");
    }
    if (!(coverage >= 0.0 && coverage <= 10.0)) {
        throw_argument_error(function, "coverage", std::to_string(coverage), "must be in [0, 10]");
    }
    std::vector<std::uint8_t> image(static_cast<std::size_t>(width * height), 0);
    // splitmix64 values: the same on every platform (std::uniform_*_distribution is not).
    cost::ProbeValues random(seed);
    const auto uniform = [&](std::int64_t n) {
        return std::min(n - 1, static_cast<std::int64_t>((random() + 1.0) * 0.5 * static_cast<double>(n)));
    };
    const std::int64_t max_extra = 1 + std::max(width, height) / 64;
    const double target = coverage * static_cast<double>(width * height);
    for (double covered = 0.0; covered < target;) {
        const std::int64_t cx = uniform(width);
        const std::int64_t cy = uniform(height);
        const std::int64_t radius = 2 + uniform(max_extra);
        for (std::int64_t y = std::max<std::int64_t>(0, cy - radius); y <= std::min(height - 1, cy + radius); ++y) {
            for (std::int64_t x = std::max<std::int64_t>(0, cx - radius); x <= std::min(width - 1, cx + radius); ++x) {
                if ((x - cx) * (x - cx) + (y - cy) * (y - cy) <= radius * radius) {
                    image[static_cast<std::size_t>(y * width + x)] = 255;
                }
            }
        }
        covered += std::numbers::pi * static_cast<double>(radius * radius);
    }
    return image;
}

const std::vector<std::uint8_t>& kept_random_blob_image(std::int64_t width, std::int64_t height, std::uint64_t seed) {
    static std::mutex lock;
    static std::map<std::tuple<std::int64_t, std::int64_t, std::uint64_t>, std::vector<std::uint8_t>> kept;
    const std::scoped_lock guard(lock);
    const auto key = std::tuple{width, height, seed};
    auto it = kept.find(key);
    if (it == kept.end()) {
        it = kept.emplace(key, random_blob_image(width, height, seed)).first;  // std::map: the reference stays valid
    }
    return it->second;
}

}  // namespace llc
