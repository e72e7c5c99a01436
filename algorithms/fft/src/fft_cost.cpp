#include <array>
#include <cmath>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include <llc/algorithms/fft_cost.hpp>
#include <llc/error.hpp>
#include <llc/partners.hpp>

namespace llc::cost {

namespace {

constexpr double complex_bytes = 16.0;

double n_log_n(double n) {
    return n > 1.0 ? n * std::log2(n) : 0.0;
}

bool is_power_of_two(std::int64_t x) {
    return x > 0 && (x & (x - 1)) == 0;
}

/// The replicated algorithm on P processors from a division level on (leaves read with a stride ≥ 2).
Expr replicated(int P, std::int64_t n, const FftConstants& k) {
    if (P == 1 || n % 2 != 0) {
        return Expr::compute("fft.leaf", k.leaf_seconds(static_cast<double>(n), true));
    }
    const std::array<double, 2> weights{1.0, 1.0};
    const std::vector<int> sizes = split_sizes(P, weights);
    const double half_bytes = static_cast<double>(n / 2) * complex_bytes;
    // The busiest processor: one of the smaller half sends to ⌈P_0/P_1⌉ partners and receives once.
    const int fan_out = (sizes[0] + sizes[1] - 1) / sizes[1];
    const double bytes = (1.0 + fan_out) * half_bytes;
    std::vector<Expr> tasks{replicated(sizes[0], n / 2, k), replicated(sizes[1], n / 2, k)};
    return Expr::sequence("fft.level",
                          {Expr::division("fft.split", P, sizes, std::move(tasks), bytes),
                           Expr::compute("fft.combine", k.combine * static_cast<double>(n / 2))});
}

}  // namespace

double FftConstants::leaf_seconds(double n, bool strided) const {
    const std::map<int, double>& table = strided ? leaf_strided_by_size : leaf_by_size;
    double per_unit = strided ? leaf_strided : leaf;
    if (!table.empty() && n > 1.0) {
        const double x = std::log2(n);
        const auto hi = table.lower_bound(static_cast<int>(std::ceil(x)));
        if (hi == table.end()) {
            per_unit = std::prev(hi)->second;
        } else if (hi == table.begin() || static_cast<double>(hi->first) == x) {
            per_unit = hi->second;
        } else {
            const auto lo = std::prev(hi);
            const double t = (x - lo->first) / (hi->first - lo->first);
            per_unit = lo->second + t * (hi->second - lo->second);
        }
    }
    return per_unit * n_log_n(n);
}

FftConstants FftConstants::from(const Profile& profile) {
    FftConstants k;
    k.divide = profile.kernel("fft.divide").seconds_per_unit;
    k.combine = profile.kernel("fft.combine").seconds_per_unit;
    k.leaf = profile.kernel("fft.leaf").seconds_per_unit;
    k.leaf_strided = profile.kernel("fft.leaf_strided").seconds_per_unit;
    k.reorder = profile.kernel("fft.reorder").seconds_per_unit;
    for (int e = 1; e <= 40; ++e) {
        const std::string suffix = ".2^" + std::to_string(e);
        if (profile.has_kernel("fft.leaf" + suffix)) {
            k.leaf_by_size[e] = profile.kernel("fft.leaf" + suffix).seconds_per_unit;
        }
        if (profile.has_kernel("fft.leaf_strided" + suffix)) {
            k.leaf_strided_by_size[e] = profile.kernel("fft.leaf_strided" + suffix).seconds_per_unit;
        }
    }
    return k;
}

Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const FftConstants& k) {
    constexpr const char* name = "llc::cost::fft";
    if (P < 1) {
        throw_argument_error(name, "P", std::to_string(P), "must be at least 1");
    }
    if (n < 1) {
        throw_argument_error(name, "n", std::to_string(n), "must be at least 1");
    }
    const auto nd = static_cast<double>(n);
    const Expr serial = Expr::compute("fft.leaf", k.leaf_seconds(nd, false));
    if (layout == FftLayout::replicated) {
        if (P == 1 || n % 2 != 0) {
            return Expr::sequence("fft", {serial});
        }
        return Expr::sequence("fft", {replicated(P, n, k)});
    }
    if (P == 1) {
        return Expr::sequence("fft", {serial});
    }
    if (!is_power_of_two(P) || n % P != 0) {
        // The gathered fallback: all-gather (h = the whole result, as the models define it), then replicated.
        Expr body = n % 2 == 0 ? replicated(P, n, k) : serial;
        return Expr::sequence("fft",
                              {Expr::normal("fft.gather", 0.0, "allgatherv", P, nd * complex_bytes), std::move(body)});
    }
    const std::int64_t L = n / P;
    const auto Ld = static_cast<double>(L);
    int s = 0;
    while ((1 << s) < P) {
        ++s;
    }
    std::vector<Expr> items;
    for (int t = 0; t < s; ++t) {
        // W of stage t's swap is the butterfly of stage t − 1 (none before the first).
        items.push_back(Expr::normal("fft.dif", t == 0 ? 0.0 : k.divide * Ld, "swap", P, 2.0 * Ld * complex_bytes));
    }
    const double last = k.divide * Ld + k.leaf_seconds(Ld, false);
    if (order == FftOrder::scrambled) {
        // The last butterfly and the leaf: local work that no collective ends (one compute node in the trace).
        items.push_back(Expr::compute("fft.leaf", last));
        return Expr::sequence("fft", std::move(items));
    }
    if (P == 2 && L % 2 == 0) {
        items.push_back(Expr::normal("fft.redistribute", last, "swap", P, Ld * complex_bytes));
    } else {
        // Equal pieces when P divides L, else unequal ones (llc's alltoallv); both record the whole send buffer.
        items.push_back(
            Expr::normal("fft.redistribute", last, L % P == 0 ? "alltoall" : "alltoallv", P, Ld * complex_bytes));
    }
    items.push_back(Expr::compute("fft.reorder", k.reorder * Ld));
    return Expr::sequence("fft", std::move(items));
}

Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const Profile& profile) {
    return fft(P, n, layout, order, FftConstants::from(profile));
}

}  // namespace llc::cost
