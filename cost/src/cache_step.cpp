#include <algorithm>
#include <vector>

#include <llc/cost/cache_step.hpp>

namespace llc::cost {

namespace {

double median_of(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double effective_cache_bytes(std::span<const Sample> samples) {
    std::vector<Sample> by_size;
    for (const Sample& s : samples) {
        if (s.bytes >= cache_step_min_bytes && s.seconds > 0.0) {
            by_size.push_back({s.bytes, s.seconds / s.bytes});  // seconds now holds the per-byte price
        }
    }
    if (by_size.size() < 4) {
        return 0.0;
    }
    // Ties in size (repeated sizes) are ordered by price, so the result does not depend on the samples' order.
    std::sort(by_size.begin(), by_size.end(), [](const Sample& a, const Sample& b) {
        return a.bytes != b.bytes ? a.bytes < b.bytes : a.seconds < b.seconds;
    });
    const double largest = by_size.back().bytes;
    std::vector<double> top;
    double low = by_size.front().seconds;
    for (const Sample& s : by_size) {
        low = std::min(low, s.seconds);
        if (s.bytes >= largest / 4.0) {
            top.push_back(s.seconds);
        }
    }
    const double high = median_of(top);
    if (high < 1.5 * low) {
        return 0.0;
    }
    const double threshold = 0.5 * (low + high);
    for (std::size_t i = by_size.size() - 1; i > 0; --i) {
        if (by_size[i].seconds <= threshold && by_size[i - 1].seconds <= threshold) {
            return by_size[i].bytes;
        }
    }
    return 0.0;
}

}  // namespace llc::cost
