#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <set>
#include <string_view>
#include <system_error>
#include <vector>

#include <llc/cost/kernel_table.hpp>
#include <llc/cost/lockstep.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/error.hpp>

namespace llc::cost {

std::string lockstep_key(int P) {
    return std::string(names::op::lockstep_excess) + ".p" + std::to_string(P);
}

int lockstep_exponent(double seconds) {
    const double ns = seconds * 1e9;
    return ns > 1.0 ? static_cast<int>(std::lround(std::log2(ns))) : 0;
}

namespace {

/// The table "lockstep.excess.p<P>.2^e" (e = 0 … 40) of `profile`, empty if it has none.
KernelSizeTable lockstep_table(const Profile& profile, int P) {
    KernelSizeTable table;
    for (int e = 0; e <= 40; ++e) {
        const std::string key = kernel_size_key(lockstep_key(P), e);
        if (profile.has_kernel(key)) {
            table[e] = profile.kernel(key).seconds_per_unit;
        }
    }
    return table;
}

/// The group sizes p ≥ 2 with a lockstep table in `profile`, ascending.
std::set<int> lockstep_sizes(const Profile& profile) {
    const std::string prefix = std::string(names::op::lockstep_excess) + ".p";
    std::set<int> sizes;
    for (auto it = profile.kernels().lower_bound(prefix);
         it != profile.kernels().end() && it->first.compare(0, prefix.size(), prefix) == 0;
         ++it) {
        const std::string_view rest = std::string_view(it->first).substr(prefix.size());
        int p = 0;
        const auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), p);
        if (error == std::errc() && end != rest.data() && p >= 2) {
            sizes.insert(p);
        }
    }
    return sizes;
}

/// The excess at P beyond the profile's group sizes: σ/μ fitted over the measured p (see lockstep_excess); NaN when
/// there is no measured p.
double extrapolated_excess(const Profile& profile, const std::set<int>& measured, int P, double ns) {
    double fit_xy = 0.0;
    double fit_xx = 0.0;
    for (const int p : measured) {
        const double a = expected_max_of_normals(p);
        fit_xy += a * std::max(0.0, kernel_per_unit(lockstep_table(profile, p), ns, 0.0));
        fit_xx += a * a;
    }
    return fit_xx > 0.0 ? fit_xy / fit_xx * expected_max_of_normals(P) : std::nan("");
}

}  // namespace

namespace {

double integrate_expected_max(int P) {
    // Simpson's rule on [−10, 10]: P φ(x) Φ(x)^(P−1) has no mass worth counting outside it for any int P.
    constexpr int intervals = 2000;
    constexpr double lo = -10.0;
    constexpr double hi = 10.0;
    constexpr double step = (hi - lo) / intervals;
    const double n = static_cast<double>(P);
    auto f = [n](double x) {
        const double cdf = 0.5 * std::erfc(-x / std::numbers::sqrt2);
        if (cdf <= 0.0) {
            return 0.0;
        }
        const double log_density = -0.5 * x * x - 0.5 * std::log(2.0 * std::numbers::pi);
        return x * n * std::exp(log_density + (n - 1.0) * std::log(cdf));
    };
    double sum = f(lo) + f(hi);
    for (int i = 1; i < intervals; ++i) {
        sum += (i % 2 == 1 ? 4.0 : 2.0) * f(lo + i * step);
    }
    return sum * step / 3.0;
}

}  // namespace

double expected_max_of_normals(int P) {
    if (P <= 1) {
        return 0.0;
    }
    // Once per P (an integral of 2000 steps; a pipelined run prices hundreds of lockstep steps).
    static std::mutex mutex;
    static std::map<int, double> known;
    const std::scoped_lock lock(mutex);
    const auto [it, added] = known.try_emplace(P, 0.0);
    if (added) {
        it->second = integrate_expected_max(P);
    }
    return it->second;
}

double lockstep_excess(const Profile& profile, int P, double seconds) {
    if (P <= 1) {
        return 0.0;
    }
    const double ns = std::max(seconds, 0.0) * 1e9;
    const KernelSizeTable table = lockstep_table(profile, P);
    if (!table.empty()) {
        // Never below 0: the slowest of P is at least the mean one (a noisy probe may measure a little less).
        return std::max(0.0, kernel_per_unit(table, ns, 0.0));
    }
    // No table at P: beyond the profile's group sizes, extrapolated; inside them, a profile to re-calibrate.
    const std::set<int> measured = lockstep_sizes(profile);
    const std::vector<int> divisions = profile.division_sizes();
    const int largest = std::max(measured.empty() ? 0 : *measured.rbegin(), divisions.empty() ? 0 : divisions.back());
    if (P > largest && !measured.empty()) {
        return std::max(0.0, extrapolated_excess(profile, measured, P, ns));
    }
    throw Error(missing_kernel_message("llc::cost::lockstep_excess", lockstep_key(P) + ".2^e"));
}

double lockstep_seconds(const Profile& profile, int P, double seconds) {
    return seconds * (1.0 + lockstep_excess(profile, P, seconds));
}

}  // namespace llc::cost
