#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include <llc/error.hpp>
#include <llc/partners.hpp>

namespace llc {
namespace detail {

void check_weights(const char* function, int P, std::span<const double> weights) {
    if (P < 1) {
        throw_argument_error(function, "P", std::to_string(P), "a group has at least one processor");
    }
    if (weights.empty()) {
        throw_argument_error(function, "weights.size()", "0", "a division needs at least one task");
    }
    double total = 0.0;
    for (std::size_t t = 0; t < weights.size(); ++t) {
        const double w = weights[t];
        if (!std::isfinite(w) || w < 0.0) {
            throw_argument_error(function,
                                 "weights[" + std::to_string(t) + "]",
                                 format_value(w),
                                 "weights must be finite and non-negative");
        }
        total += w;
    }
    if (total <= 0.0) {
        throw_argument_error(function, "weights", "all zero", "at least one weight must be positive");
    }
}

}  // namespace detail

namespace {
using detail::check_weights;

void check_sizes(const char* function, std::span<const int> sizes, int i, int j) {
    const int r = static_cast<int>(sizes.size());
    if (i < 0 || i >= r) {
        throw_argument_error(function, "i", std::to_string(i), "must be in [0, " + std::to_string(r) + ")");
    }
    if (j < 0 || j >= r) {
        throw_argument_error(function, "j", std::to_string(j), "must be in [0, " + std::to_string(r) + ")");
    }
    for (std::size_t t = 0; t < sizes.size(); ++t) {
        if (sizes[t] < 1) {
            throw_argument_error(function,
                                 "sizes[" + std::to_string(t) + "]",
                                 std::to_string(sizes[t]),
                                 "a subgroup has at least one processor");
        }
    }
}

std::vector<int> subgroup_starts(std::span<const int> sizes) {
    std::vector<int> starts(sizes.size(), 0);
    std::exclusive_scan(sizes.begin(), sizes.end(), starts.begin(), 0);
    return starts;
}

}  // namespace

std::vector<int> split_sizes(int P, std::span<const double> weights) {
    check_weights("llc::split_sizes", P, weights);
    const auto r = static_cast<int>(weights.size());
    std::vector<int> sizes(weights.size(), 1);
    if (P <= r) {
        return sizes;
    }
    if (std::all_of(weights.begin(), weights.end(), [&](double w) { return w == weights[0]; })) {
        // Equal weights (every par): what Sainte-Laguë gives, without the loop — the first P mod r get one more.
        for (int t = 0; t < r; ++t) {
            sizes[static_cast<std::size_t>(t)] = P / r + (t < P % r ? 1 : 0);
        }
        return sizes;
    }
    // Sainte-Laguë with a floor of one: the next processor goes to the largest w / (s + 1/2).
    for (int seat = r; seat < P; ++seat) {
        std::size_t best = 0;
        double best_priority = -1.0;
        for (std::size_t t = 0; t < weights.size(); ++t) {
            const double priority = weights[t] / (sizes[t] + 0.5);
            if (priority > best_priority) {
                best_priority = priority;
                best = t;
            }
        }
        ++sizes[best];
    }
    return sizes;
}

std::vector<int> assign_tasks(int P, std::span<const double> weights) {
    check_weights("llc::assign_tasks", P, weights);
    const auto r = static_cast<int>(weights.size());
    std::vector<int> owner(weights.size(), 0);
    if (P >= r) {
        const std::vector<int> sizes = split_sizes(P, weights);
        owner = subgroup_starts(sizes);
        return owner;
    }
    // Longest processing time first; stable so that equal weights keep task order.
    std::vector<int> order(weights.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return weights[a] > weights[b]; });
    std::vector<double> load(static_cast<std::size_t>(P), 0.0);
    for (const int task : order) {
        const auto least = std::min_element(load.begin(), load.end());
        *least += weights[task];
        owner[task] = static_cast<int>(least - load.begin());
    }
    return owner;
}

std::vector<int> partners(std::span<const int> sizes, int i, int a, int j) {
    check_sizes("llc::partners", sizes, i, j);
    if (a < 0 || a >= sizes[i]) {
        throw_argument_error("llc::partners", "a", std::to_string(a), "must be a local index of Q_i");
    }
    std::vector<int> result;
    if (i == j) {
        return result;
    }
    for (int b = a; b < sizes[j]; b += sizes[i]) {
        result.push_back(b);
    }
    return result;
}

int partner_source(std::span<const int> sizes, int i, int b, int j) {
    check_sizes("llc::partner_source", sizes, i, j);
    if (b < 0 || b >= sizes[j]) {
        throw_argument_error("llc::partner_source", "b", std::to_string(b), "must be a local index of Q_j");
    }
    return b % sizes[i];
}

ExchangeRole exchange_role(std::span<const int> sizes, int rank) {
    ExchangeRole role;
    const auto r = static_cast<int>(sizes.size());
    const std::vector<int> starts = subgroup_starts(sizes);
    int mine = 0;
    while (mine + 1 < r && starts[static_cast<std::size_t>(mine + 1)] <= rank) {
        ++mine;
    }
    const int local = rank - starts[static_cast<std::size_t>(mine)];
    const int my_size = sizes[static_cast<std::size_t>(mine)];
    for (int j = 0; j < r; ++j) {
        if (j == mine) {
            continue;
        }
        const auto ju = static_cast<std::size_t>(j);
        for (int b = local; b < sizes[ju]; b += my_size) {  // partners(sizes, mine, local, j)
            role.sends.push_back({mine, rank, starts[ju] + b});
        }
        role.receives.push_back({j, starts[ju] + local % sizes[ju], rank});  // partner_source(sizes, j, local, mine)
    }
    return role;
}

ExchangeRole exchange_role_owned(int P, std::span<const int> owners, int rank) {
    ExchangeRole role;
    for (int t = 0; t < static_cast<int>(owners.size()); ++t) {
        const int owner = owners[static_cast<std::size_t>(t)];
        if (owner == rank) {
            for (int to = 0; to < P; ++to) {
                if (to != rank) {
                    role.sends.push_back({t, rank, to});
                }
            }
        } else {
            role.receives.push_back({t, owner, rank});
        }
    }
    return role;
}

std::vector<Transfer> exchange_plan(int P, std::span<const double> weights) {
    check_weights("llc::exchange_plan", P, weights);
    const bool split = P >= static_cast<int>(weights.size());
    const std::vector<int> sizes = split ? split_sizes(P, weights) : std::vector<int>{};
    const std::vector<int> owners = split ? std::vector<int>{} : assign_tasks(P, weights);
    std::vector<Transfer> plan;
    for (int q = 0; q < P; ++q) {
        const ExchangeRole role = split ? exchange_role(sizes, q) : exchange_role_owned(P, owners, q);
        plan.insert(plan.end(), role.receives.begin(), role.receives.end());
    }
    std::sort(plan.begin(), plan.end(), [](const Transfer& x, const Transfer& y) {
        return x.task != y.task ? x.task < y.task : x.to < y.to;
    });
    return plan;
}

}  // namespace llc
