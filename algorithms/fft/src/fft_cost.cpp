#include <array>
#include <cmath>
#include <cstddef>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <llc/algorithms/fft_cost.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/error.hpp>
#include <llc/partners.hpp>

#include "fft_kernels.hpp"

namespace llc::cost {

namespace {

constexpr double complex_bytes = 16.0;

double n_log_n(double n) {
    return n > 1.0 ? n * std::log2(n) : 0.0;
}

bool is_power_of_two(std::int64_t x) {
    return x > 0 && (x & (x - 1)) == 0;
}

/// The single constant `name` of an older profile; 0 if the profile has the table `table` instead, which then
/// replaces it. @throws llc::Error (Profile::kernel's, naming the kernel) if it has neither.
double single_of(const Profile& profile, const std::string& name, const std::map<int, double>& table) {
    if (profile.has_kernel(name) || table.empty()) {
        return profile.kernel(name).seconds_per_unit;
    }
    return 0.0;
}

/// The replicated algorithm on P processors from a division level on whose leaves read every stride-th term
/// (stride 1 at the top: a leaf there is the contiguous out-of-place one).
Expr replicated(int P, std::int64_t n, std::size_t stride, const FftConstants& k) {
    if (P == 1 || n % 2 != 0) {
        return Expr::compute("fft.leaf", k.leaf_seconds(static_cast<double>(n), stride, false));
    }
    const std::array<double, 2> weights{1.0, 1.0};
    const std::vector<int> sizes = split_sizes(P, weights);
    const double half_bytes = static_cast<double>(n / 2) * complex_bytes;
    // The busiest processor: one of the smaller half sends to ⌈P_0/P_1⌉ partners and receives once.
    const int fan_out = (sizes[0] + sizes[1] - 1) / sizes[1];
    const double bytes = (1.0 + fan_out) * half_bytes;
    std::vector<Expr> tasks{replicated(sizes[0], n / 2, 2 * stride, k), replicated(sizes[1], n / 2, 2 * stride, k)};
    return Expr::sequence("fft.level",
                          {Expr::division("fft.split", P, sizes, std::move(tasks), bytes),
                           Expr::compute("fft.combine", k.combine_seconds(static_cast<double>(n / 2)))});
}

}  // namespace

double FftConstants::leaf_seconds(double n, std::size_t stride, bool in_place) const {
    double c = 0.0;
    if (stride > 1) {
        // The table of the largest measured stride ≤ stride.
        auto it = leaf_strided_by_size.upper_bound(stride);
        while (it != leaf_strided_by_size.begin() && std::prev(it)->second.empty()) {
            --it;
        }
        c = it == leaf_strided_by_size.begin() ? leaf_strided : kernel_per_unit(std::prev(it)->second, n, leaf_strided);
    } else if (!in_place && !leaf_oop_by_size.empty()) {
        c = kernel_per_unit(leaf_oop_by_size, n, leaf);
    } else {
        c = kernel_per_unit(leaf_by_size, n, leaf);
    }
    return c * n_log_n(n);
}

double FftConstants::serial_seconds(double n) const {
    if (leaf_oop_solo_by_size.empty()) {
        return leaf_seconds(n, 1, false);
    }
    return kernel_per_unit(leaf_oop_solo_by_size, n, leaf) * n_log_n(n);
}

double FftConstants::divide_seconds(double L) const {
    return kernel_per_unit(divide_by_size, L, divide) * L;
}

double FftConstants::combine_seconds(double butterflies) const {
    return kernel_per_unit(combine_by_size, butterflies, combine) * butterflies;
}

double FftConstants::reorder_seconds(double L) const {
    return kernel_per_unit(reorder_by_size, L, reorder) * L;
}

double FftConstants::last_stage_seconds(std::int64_t L, bool in_place) const {
    const auto Ld = static_cast<double>(L);
    // FftPlan folds the butterfly where the default planner gives the leaf to the four-step (fft_kernels.hpp).
    if (!leaf_dif_by_size.empty() &&
        detail::fft::uses_four_step(static_cast<std::size_t>(L), FftOptions{}.planner, in_place)) {
        return kernel_per_unit(leaf_dif_by_size, Ld, 0.0) * n_log_n(Ld);
    }
    return divide_seconds(Ld) + leaf_seconds(Ld, 1, in_place);
}

FftConstants FftConstants::from(const Profile& profile) {
    FftConstants k;
    k.divide_by_size = kernel_size_table(profile, "fft.divide");
    k.combine_by_size = kernel_size_table(profile, "fft.combine");
    k.reorder_by_size = kernel_size_table(profile, "fft.reorder");
    k.leaf_by_size = kernel_size_table(profile, "fft.leaf");
    k.leaf_oop_by_size = kernel_size_table(profile, "fft.leaf_oop");
    k.leaf_oop_solo_by_size = kernel_size_table(profile, "fft.leaf_oop_solo");
    k.leaf_dif_by_size = kernel_size_table(profile, "fft.leaf_dif");
    for (const std::size_t stride : {2, 4, 8, 16, 32, 64}) {
        std::map<int, double> table =
            kernel_size_table(profile, stride == 2 ? "fft.leaf_strided" : "fft.leaf_strided" + std::to_string(stride));
        if (!table.empty()) {
            k.leaf_strided_by_size[stride] = std::move(table);
        }
    }
    k.divide = single_of(profile, "fft.divide", k.divide_by_size);
    k.combine = single_of(profile, "fft.combine", k.combine_by_size);
    k.reorder = single_of(profile, "fft.reorder", k.reorder_by_size);
    // Contiguous leaves: either table serves both kinds (out of place falls back to in place).
    std::map<int, double> contiguous = k.leaf_by_size;
    contiguous.insert(k.leaf_oop_by_size.begin(), k.leaf_oop_by_size.end());
    k.leaf = single_of(profile, "fft.leaf", contiguous);
    std::map<int, double> strided;
    for (const auto& [stride, table] : k.leaf_strided_by_size) {
        strided.insert(table.begin(), table.end());
    }
    k.leaf_strided = single_of(profile, "fft.leaf_strided", strided);
    const std::string cold_swap = "swap" + std::string(cold_suffix);
    if (profile.has_collective(cold_swap)) {
        k.swap = cold_swap;
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
    // The serial path: on one processor with the node's others idle (P = 1), or on every processor at once.
    if (P == 1) {
        return Expr::sequence("fft", {Expr::compute("fft.leaf", k.serial_seconds(nd))});
    }
    const Expr serial = Expr::compute("fft.leaf", k.leaf_seconds(nd, 1, false));
    if (layout == FftLayout::replicated) {
        return Expr::sequence("fft", {n % 2 != 0 ? serial : replicated(P, n, 1, k)});
    }
    if (!is_power_of_two(P) || n % P != 0) {
        // The gathered fallback: all-gather (h = the whole result, as the models define it), then replicated.
        Expr body = n % 2 == 0 ? replicated(P, n, 1, k) : serial;
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
        items.push_back(
            Expr::normal("fft.dif", t == 0 ? 0.0 : k.divide_seconds(Ld), k.swap, P, 2.0 * Ld * complex_bytes));
    }
    const double last = k.last_stage_seconds(L, order == FftOrder::scrambled);
    if (order == FftOrder::scrambled) {
        // The last butterfly and the leaf: local work that no collective ends (one compute node in the trace).
        items.push_back(Expr::compute("fft.leaf", last));
        return Expr::sequence("fft", std::move(items));
    }
    if (P == 2 && L % 2 == 0) {
        items.push_back(Expr::normal("fft.redistribute", last, k.swap, P, Ld * complex_bytes));
    } else {
        // Equal pieces when P divides L, else unequal ones (llc's alltoallv); both record the whole send buffer.
        items.push_back(
            Expr::normal("fft.redistribute", last, L % P == 0 ? "alltoall" : "alltoallv", P, Ld * complex_bytes));
    }
    items.push_back(Expr::compute("fft.reorder", k.reorder_seconds(Ld)));
    return Expr::sequence("fft", std::move(items));
}

Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const Profile& profile) {
    return fft(P, n, layout, order, FftConstants::from(profile));
}

}  // namespace llc::cost
