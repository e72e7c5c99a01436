#include <algorithm>
#include <cmath>
#include <iterator>

#include <llc/cost/kernel_table.hpp>
#include <llc/error.hpp>

namespace llc::cost {

std::string kernel_size_key(std::string_view name, int exponent) {
    return std::string(name) + ".2^" + std::to_string(exponent);
}

namespace {

/// The sizes of "<name>.2^e" the profile has; empty if none.
KernelSizeTable sizes_in(const Profile& profile, std::string_view name) {
    KernelSizeTable table;
    for (int e = 0; e <= 40; ++e) {
        const std::string key = kernel_size_key(name, e);
        if (profile.has_kernel(key)) {
            table[e] = profile.kernel(key).seconds_per_unit;
        }
    }
    return table;
}

}  // namespace

KernelSizeTable kernel_size_table(const Profile& profile, std::string_view name) {
    KernelSizeTable table = sizes_in(profile, name);
    if (table.empty()) {
        throw Error(missing_kernel_message("llc::cost::kernel_size_table", std::string(name) + ".2^e"));
    }
    return table;
}

std::string solo_kernel_name(std::string_view name) {
    return std::string(name) + "_solo";
}

std::string rank0_kernel_name(std::string_view name) {
    return std::string(name) + "_rank0";
}

std::string rank0_kernel_key(std::string_view key) {
    constexpr std::string_view size_mark = ".2^";
    const std::size_t at = key.rfind(size_mark);
    if (at == std::string_view::npos) {
        return rank0_kernel_name(key);
    }
    return rank0_kernel_name(key.substr(0, at)) + std::string(key.substr(at));
}

KernelSizeTable kernel_size_table(const Profile& profile, std::string_view name, int P) {
    KernelSizeTable table = kernel_size_table(profile, name);
    if (P == 1) {
        // Rank 0's processor first, then alone on the node where measured so: the closer to a one-processor run wins.
        for (const std::string& refined : {rank0_kernel_name(name), solo_kernel_name(name)}) {
            for (const auto& [e, seconds] : sizes_in(profile, refined)) {
                table[e] = seconds;
            }
        }
    }
    return table;
}

double kernel_seconds(const Profile& profile, std::string_view key, int P) {
    const std::string rank0 = rank0_kernel_key(key);
    if (P == 1 && profile.has_kernel(rank0)) {
        return profile.kernel(rank0).seconds_per_unit;
    }
    return profile.kernel(key).seconds_per_unit;
}

double kernel_per_unit(const KernelSizeTable& table, double x, double fallback) {
    if (table.empty()) {
        return fallback;
    }
    const double e = x > 1.0 ? std::log2(x) : 0.0;
    const auto hi = table.lower_bound(static_cast<int>(std::ceil(e)));
    if (hi == table.end()) {
        return std::prev(hi)->second;
    }
    if (hi == table.begin() || static_cast<double>(hi->first) == e) {
        return hi->second;
    }
    const auto lo = std::prev(hi);
    const double t = (e - lo->first) / (hi->first - lo->first);
    return lo->second + t * (hi->second - lo->second);
}

double kernel_per_unit_by_footprint(const KernelSizeTable& in_cache,
                                    const KernelSizeTable& in_memory,
                                    double x,
                                    double bytes,
                                    double cache_bytes,
                                    double memory_bytes) {
    const double cached = kernel_per_unit(in_cache, x, 0.0);
    if (in_memory.empty()) {
        return cached;
    }
    const double low = std::log2(cache_bytes);
    const double high = std::log2(memory_bytes);
    const double t = high > low ? std::clamp((std::log2(std::max(bytes, 1.0)) - low) / (high - low), 0.0, 1.0)
                                : (bytes >= memory_bytes ? 1.0 : 0.0);
    return cached + t * (kernel_per_unit(in_memory, x, 0.0) - cached);
}

double kernel_per_unit_by_cache(const KernelSizeTable& in_cache,
                                const KernelSizeTable& in_memory,
                                double x,
                                double bytes,
                                double cache_bytes,
                                double memory_bytes,
                                double effective_cache_bytes,
                                int sharing) {
    const double ranks = std::max(1, sharing);
    if (!(effective_cache_bytes > 0.0) || in_memory.empty() || ranks * cache_bytes > effective_cache_bytes) {
        return kernel_per_unit_by_footprint(in_cache, in_memory, x, bytes, cache_bytes, memory_bytes);
    }
    return kernel_per_unit(ranks * bytes <= effective_cache_bytes ? in_cache : in_memory, x, 0.0);
}

int ranks_sharing_cache(const ProfileMeta& meta, int P) {
    if (P <= 1) {
        return 1;
    }
    int most = meta.world_size > 0 ? meta.world_size : P;
    if (!meta.nodes.empty()) {
        most = *std::max_element(meta.nodes.begin(), meta.nodes.end());
    }
    return std::min(P, most);
}

}  // namespace llc::cost
