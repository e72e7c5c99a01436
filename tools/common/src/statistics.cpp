#include <algorithm>
#include <cmath>
#include <limits>

#include <llc/tools/statistics.hpp>

namespace llc::tools {

double quantile(std::vector<double> values, double q) {
    values.erase(std::remove_if(values.begin(), values.end(), [](double v) { return !std::isfinite(v); }),
                 values.end());
    if (values.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    std::sort(values.begin(), values.end());
    const double position = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const auto above = std::min(below + 1, values.size() - 1);
    const double fraction = position - static_cast<double>(below);
    return values[below] + fraction * (values[above] - values[below]);
}

double median(std::vector<double> values) {
    return quantile(std::move(values), 0.5);
}

double median_rse(const std::vector<double>& values) {
    if (values.size() < 3) {
        return std::numeric_limits<double>::infinity();
    }
    const double m = median(values);
    if (!(m > 0.0)) {
        return 0.0;  // a zero median (nothing to time) is as stable as it gets
    }
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (const double v : values) {
        deviations.push_back(std::abs(v - m));
    }
    const double mad = median(std::move(deviations));
    return 1.2533 * 1.4826 * mad / (std::sqrt(static_cast<double>(values.size())) * m);
}

double rank_ratio(const std::vector<std::vector<double>>& by_probe) {
    std::size_t ranks = 0;
    for (const auto& probe : by_probe) {
        ranks = std::max(ranks, probe.size());
    }
    double farthest = 1.0;
    for (std::size_t r = 1; r < ranks; ++r) {
        std::vector<double> ratios;
        for (const auto& probe : by_probe) {
            if (r < probe.size() && std::isfinite(probe[r]) && std::isfinite(probe[0]) && probe[0] > 0.0) {
                ratios.push_back(probe[r] / probe[0]);
            }
        }
        const double m = median(std::move(ratios));
        if (std::isfinite(m) && m > 0.0 && std::abs(std::log(m)) > std::abs(std::log(farthest))) {
            farthest = m;
        }
    }
    return farthest;
}

}  // namespace llc::tools
