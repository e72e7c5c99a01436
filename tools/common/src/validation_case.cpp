#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <llc/tools/validation_case.hpp>

namespace llc::validate {

std::vector<std::int64_t> log_sizes(std::int64_t low, std::int64_t high, int count, std::int64_t multiple) {
    std::vector<std::int64_t> sizes;
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : static_cast<double>(i) / (count - 1);
        const double value =
            std::exp(std::log(static_cast<double>(low)) * (1.0 - t) + std::log(static_cast<double>(high)) * t);
        std::int64_t rounded =
            std::max<std::int64_t>(multiple, static_cast<std::int64_t>(std::llround(value / multiple)) * multiple);
        if (sizes.empty() || rounded > sizes.back()) {
            sizes.push_back(rounded);
        }
    }
    return sizes;
}

}  // namespace llc::validate
