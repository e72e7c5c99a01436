#include <array>
#include <cmath>
#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <llc/algorithms/fft_cost.hpp>
#include <llc/algorithms/fft_names.hpp>
#include <llc/cost/kernel_table.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/partners.hpp>
#include <llc/error.hpp>
#include <llc/log2.hpp>
#include <llc/partners.hpp>

#include "fft_kernels.hpp"

namespace llc::cost {

namespace {

constexpr double complex_bytes = 16.0;

double n_log_n(double n) {
    return n > 1.0 ? n * std::log2(n) : 0.0;
}

/// Seconds per unit at size x from the table of `kernel` (a names::fft key). @throws llc::Error naming the key if the
/// table is empty: no kernel is priced with another's constant.
double per_unit(const std::map<int, double>& table, const char* kernel, double x) {
    if (table.empty()) {
        throw Error(missing_kernel_message("llc::cost::FftConstants", std::string(kernel) + ".2^e"));
    }
    return kernel_per_unit(table, x, 0.0);
}

/// The replicated algorithm on P processors from a division level on whose leaves read every stride-th term
/// (stride 1 at the top: a leaf there is the contiguous out-of-place one).
Expr replicated(int P, std::int64_t n, std::size_t stride, const FftConstants& k) {
    if (P == 1 || n % 2 != 0) {
        return Expr::compute(names::fft::leaf_step, k.leaf_seconds(static_cast<double>(n), stride, false));
    }
    const std::array<double, 2> weights{1.0, 1.0};
    const std::vector<int> sizes = split_sizes(P, weights);
    const double half_bytes = static_cast<double>(n / 2) * complex_bytes;
    // The busiest processor: one of the smaller half sends to ⌈P_0/P_1⌉ partners and receives once.
    const int fan_out = (sizes[0] + sizes[1] - 1) / sizes[1];
    const double bytes = (1.0 + fan_out) * half_bytes;
    std::vector<Expr> tasks{replicated(sizes[0], n / 2, 2 * stride, k), replicated(sizes[1], n / 2, 2 * stride, k)};
    return Expr::sequence(names::fft::level,
                          {Expr::division(names::fft::split, P, sizes, std::move(tasks), bytes),
                           Expr::compute(names::fft::combine_step, k.combine_seconds(static_cast<double>(n / 2)))});
}

}  // namespace

double FftConstants::leaf_seconds(double n, std::size_t stride, bool in_place) const {
    if (stride <= 1) {
        return in_place ? per_unit(leaf_by_size, names::fft::leaf, n) * n_log_n(n)
                        : per_unit(leaf_oop_by_size, names::fft::leaf_oop, n) * n_log_n(n);
    }
    // The largest measured stride ≤ stride (strided_leaves ascends from 2).
    names::fft::StridedLeaf strided = names::fft::strided_leaves.front();
    for (const names::fft::StridedLeaf& measured : names::fft::strided_leaves) {
        if (measured.stride <= stride) {
            strided = measured;
        }
    }
    static const std::map<int, double> none{};
    const auto table = leaf_strided_by_size.find(strided.stride);
    return per_unit(table == leaf_strided_by_size.end() ? none : table->second, strided.key, n) * n_log_n(n);
}

double FftConstants::serial_seconds(double n) const {
    return per_unit(leaf_oop_solo_by_size, names::fft::leaf_oop_solo, n) * n_log_n(n);
}

double FftConstants::divide_seconds(double L) const {
    return per_unit(divide_by_size, names::fft::divide, L) * L;
}

double FftConstants::combine_seconds(double butterflies) const {
    return per_unit(combine_by_size, names::fft::combine, butterflies) * butterflies;
}

double FftConstants::reorder_seconds(double L) const {
    return per_unit(reorder_by_size, names::fft::reorder, L) * L;
}

double FftConstants::last_stage_seconds(std::int64_t L, bool in_place) const {
    const auto Ld = static_cast<double>(L);
    // FftPlan folds the butterfly where the default planner gives the leaf to the four-step (fft_kernels.hpp).
    if (detail::fft::uses_four_step(static_cast<std::size_t>(L), FftOptions{}.planner, in_place)) {
        return per_unit(leaf_dif_by_size, names::fft::leaf_dif, Ld) * n_log_n(Ld);
    }
    return divide_seconds(Ld) + leaf_seconds(Ld, 1, in_place);
}

std::string FftConstants::block_swap(int P, std::int64_t L, Sender sender, int distance) const {
    if (!(llc_bytes > 0.0)) {
        throw Error(missing_kernel_message("llc::cost::FftConstants::block_swap", "meta.llc_bytes"));
    }
    const double working_set = static_cast<double>(P) * 2.0 * static_cast<double>(L) * complex_bytes;
    const std::string op = working_set <= llc_bytes   ? names::op::swap
                           : sender == Sender::caller ? names::op::swap_cold_heap
                                                      : names::op::swap_cold;
    return priced_far(far_placement, P, distance) ? op + std::string(far_suffix) : op;
}

FftConstants FftConstants::from(const Profile& profile, int P) {
    FftConstants k;
    const auto table = [&](std::string_view name) { return kernel_size_table(profile, name, P); };
    k.divide_by_size = table(names::fft::divide);
    k.combine_by_size = table(names::fft::combine);
    k.reorder_by_size = table(names::fft::reorder);
    k.leaf_by_size = table(names::fft::leaf);
    k.leaf_oop_by_size = table(names::fft::leaf_oop);
    k.leaf_oop_solo_by_size = kernel_size_table(profile, names::fft::leaf_oop_solo);  // measured alone on rank 0
    k.leaf_dif_by_size = table(names::fft::leaf_dif);
    k.llc_bytes = profile.meta().cache_bytes();  // the effective cache where the profile records it
    if (profile.has_collective(names::op::swap_far)) {
        k.far_placement = profile.meta().node_of_rank;
    }
    for (const names::fft::StridedLeaf& strided : names::fft::strided_leaves) {
        k.leaf_strided_by_size[strided.stride] = table(strided.key);
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
        return Expr::sequence(names::fft::whole, {Expr::compute(names::fft::leaf_step, k.serial_seconds(nd))});
    }
    const auto serial = [&] { return Expr::compute(names::fft::leaf_step, k.leaf_seconds(nd, 1, false)); };
    if (layout == FftLayout::replicated) {
        return Expr::sequence(names::fft::whole, {n % 2 != 0 ? serial() : replicated(P, n, 1, k)});
    }
    if (!is_power_of_two(P) || n % P != 0) {
        // The gathered fallback: all-gather (h = the whole result, as the models define it), then replicated.
        Expr body = n % 2 == 0 ? replicated(P, n, 1, k) : serial();
        return Expr::sequence(
            names::fft::whole,
            {Expr::normal(names::fft::gather, 0.0, "allgatherv", P, nd * complex_bytes), std::move(body)});
    }
    const std::int64_t L = n / P;
    const auto Ld = static_cast<double>(L);
    int s = 0;
    while ((1 << s) < P) {
        ++s;
    }
    std::vector<Expr> items;
    for (int t = 0; t < s; ++t) {
        // W of stage t's swap is the butterfly of stage t − 1 (none before the first). Its partners are r and
        // r xor P/2^(t+1) (fft.cpp's Block: the stage's half).
        const std::string swap = k.block_swap(P, L, FftConstants::Sender::caller, P >> (t + 1));
        items.push_back(
            Expr::normal(names::fft::dif, t == 0 ? 0.0 : k.divide_seconds(Ld), swap, P, 2.0 * Ld * complex_bytes));
    }
    const double last = k.last_stage_seconds(L, order == FftOrder::scrambled);
    if (order == FftOrder::scrambled) {
        // The last butterfly and the leaf: local work that no collective ends (one compute node in the trace).
        items.push_back(Expr::compute(names::fft::leaf_step, last));
        return Expr::sequence(names::fft::whole, std::move(items));
    }
    if (P == 2 && L % 2 == 0) {
        items.push_back(Expr::normal(
            names::fft::redistribute, last, k.block_swap(P, L, FftConstants::Sender::plan), P, Ld * complex_bytes));
    } else {
        // Equal pieces when P divides L, else unequal ones (llc's alltoallv); both record the whole send buffer.
        items.push_back(
            Expr::normal(names::fft::redistribute, last, L % P == 0 ? "alltoall" : "alltoallv", P, Ld * complex_bytes));
    }
    items.push_back(Expr::compute(names::fft::reorder_step, k.reorder_seconds(Ld)));
    return Expr::sequence(names::fft::whole, std::move(items));
}

Expr fft(int P, std::int64_t n, FftLayout layout, FftOrder order, const Profile& profile) {
    return fft(P, n, layout, order, FftConstants::from(profile, P));
}

}  // namespace llc::cost

namespace llc {

// Here rather than in fft.cpp: both read only the plan's public accessors, and cost() is the cost function's.
BlockDistribution FftPlan::input_distribution() const {
    if (options().layout != FftLayout::block) {
        throw_argument_error("llc::FftPlan::input_distribution",
                             "options.layout",
                             std::string(to_string(options().layout)),
                             "must be block: every rank of a replicated plan holds the whole input");
    }
    return fft_block_distribution(n(), group().size());
}

cost::Expr FftPlan::cost(const cost::Profile& profile) const {
    return cost::fft(group().size(), n(), options().layout, options().order, profile);
}

}  // namespace llc
