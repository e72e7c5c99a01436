#include <algorithm>
#include <cmath>

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

double lockstep_excess(const Profile& profile, int P, double seconds) {
    if (P <= 1) {
        return 0.0;
    }
    KernelSizeTable table;
    for (int e = 0; e <= 40; ++e) {
        const std::string key = kernel_size_key(lockstep_key(P), e);
        if (profile.has_kernel(key)) {
            table[e] = profile.kernel(key).seconds_per_unit;
        }
    }
    if (table.empty()) {
        throw Error(missing_kernel_message("llc::cost::lockstep_excess", lockstep_key(P) + ".2^e"));
    }
    // Never below 0: the slowest of P is at least the mean one (a noisy probe may measure a little less).
    return std::max(0.0, kernel_per_unit(table, std::max(seconds, 0.0) * 1e9, 0.0));
}

double lockstep_seconds(const Profile& profile, int P, double seconds) {
    return seconds * (1.0 + lockstep_excess(profile, P, seconds));
}

}  // namespace llc::cost
