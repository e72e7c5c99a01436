#include "inputs.hpp"

#include <algorithm>

namespace llc::cards::dt {

std::vector<std::int64_t> validation_sizes(validate::SizeClass size_class) {
    switch (size_class) {
        case validate::SizeClass::small:
            return {256, 512, 1024};
        case validate::SizeClass::medium:
            return {512, 1024, 2048, 4096};
        case validate::SizeClass::large:
            return {1024, 2048, 4096, 8192};
    }
    return {};
}

std::vector<double> blob_cost_map(std::span<const std::uint8_t> blobs, double blob_cost) {
    std::vector<double> map(blobs.size());
    std::transform(blobs.begin(), blobs.end(), map.begin(), [blob_cost](std::uint8_t pixel) {
        return pixel == 0 ? 1.0 : blob_cost;
    });
    return map;
}

Pixel middle_free_pixel(std::span<const std::uint8_t> blobs, std::int64_t n) {
    auto free = static_cast<std::int64_t>(blobs.size() / 2);
    while (free + 1 < n * n && blobs[static_cast<std::size_t>(free)] != 0) {
        ++free;
    }
    return {free / n, free % n};
}

}  // namespace llc::cards::dt
