#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/error.hpp>

#include "chain_policy_double.hpp"
#include "interval_dp.hpp"

namespace llc {

template <class T>
IntervalTable<T>::IntervalTable(std::int64_t n, std::int64_t r, int P, int rank) : n_(n), r_(r), P_(P), rank_(rank) {
    storage_.offset_.assign(static_cast<std::size_t>(n), -1);
    std::int64_t size = 0;
    for (std::int64_t j = 0; j < n; ++j) {
        if (owns(j)) {
            storage_.offset_[static_cast<std::size_t>(j)] = size;
            size += j + 1;
        }
    }
    storage_.entries_ = static_cast<std::size_t>(size);
    storage_.values_ = detail::interval_dp::fresh_array<T>(storage_.entries_);
    storage_.splits_ = detail::interval_dp::fresh_array<std::int32_t>(storage_.entries_);
}

template class IntervalTable<std::int64_t>;
template class IntervalTable<double>;

namespace {

using detail::interval_dp::Best;
using detail::interval_dp::ChainPolicy;
using detail::interval_dp::min_plus;

constexpr std::int64_t int64_top = std::numeric_limits<std::int64_t>::max();

/// Optimal BST on n + 1 indices: min_k {c(i,k) + c(k+1,j)} + (prefix[j] − prefix[i]).
///
/// The middle runs the matrix chain's four-row kernel (min_plus_quad) with weights 0·0: each candidate is then
/// (c(i,k) + c(k+1,j)) + 0·0 = c(i,k) + c(k+1,j) exactly (a fused multiply-add of zeros adds an exact 0), the value
/// range computes, so the table and its smallest roots are the one-row kernel's, bit for bit.
struct BstPolicy {
    const double* prefix;
    const double* zeros;  ///< the kernel's weights g: at least n + 1 zeros
    [[nodiscard]] static Best<double> range(std::int64_t /*i*/,
                                            std::int64_t /*j*/,
                                            std::int64_t k0,
                                            std::int64_t k1,
                                            const double* row,
                                            const double* col) {
        Best<double> best = min_plus<double, false>(row, col, nullptr, 0.0, k1 - k0);
        best.m += k0;
        return best;
    }
    /// range for rows i … i + 3 against column j at once (compute_middle). rows[t] = &c(i + t, k0).
    [[nodiscard]] std::array<Best<double>, 4> range4(std::int64_t /*i*/,
                                                     std::int64_t /*j*/,
                                                     std::int64_t k0,
                                                     std::int64_t k1,
                                                     const std::array<const double*, 4>& rows,
                                                     const double* col) const {
        return quad<true>(k0, k1, rows, col);
    }
#if defined(__AVX512F__)
    /// range4 whose k are group starts, made exact by first_in_group (as the chain's policies).
    [[nodiscard]] std::array<Best<double>, 4> range4_coarse(std::int64_t /*i*/,
                                                            std::int64_t /*j*/,
                                                            std::int64_t k0,
                                                            std::int64_t k1,
                                                            const std::array<const double*, 4>& rows,
                                                            const double* col) const {
        return quad<false>(k0, k1, rows, col);
    }
    /// The exact k of range4_coarse's merged result over the k range [kb, ke): row = &c(i, kb), col = &c(kb + 1, j).
    [[nodiscard]] std::int64_t first_in_group(std::int64_t /*i*/,
                                              std::int64_t /*j*/,
                                              std::int64_t kb,
                                              std::int64_t ke,
                                              const double* row,
                                              const double* col,
                                              Best<double> best) const {
        return kb + detail::interval_dp::min_plus_first_in_group<double>(
                        row, col, zeros, 0.0, ke - kb, best.m - kb, best.value);
    }
#endif
    template <bool Exact>
    [[nodiscard]] std::array<Best<double>, 4> quad(std::int64_t k0,
                                                   std::int64_t k1,
                                                   const std::array<const double*, 4>& rows,
                                                   const double* col) const {
        std::array<Best<double>, 4> best =
            detail::interval_dp::min_plus_quad<double, Exact>(rows, col, zeros, {0.0, 0.0, 0.0, 0.0}, k1 - k0);
        for (Best<double>& b : best) {
            b.m += k0;
        }
        return best;
    }
    [[nodiscard]] double finish(std::int64_t i, std::int64_t j, double m) const {
        return m + (prefix[j] - prefix[i]);
    }
    [[nodiscard]] static bool pushes() {
        return true;
    }
    /// c(i,k) + c(k+1,j) for j in [j0, j0 + len), as range adds them.
    static void push(std::int64_t /*i*/,
                     std::int64_t k,
                     double cik,
                     const double* crow,
                     std::int64_t /*j0*/,
                     std::int64_t len,
                     double* val,
                     std::int64_t* arg) {
        for (std::int64_t m = 0; m < len; ++m) {
            const double c = cik + crow[m];
            const bool less = c < val[m];
            val[m] = less ? c : val[m];
            arg[m] = less ? k : arg[m];
        }
    }
};

/// Whether every candidate c(i,k) + c(k+1,j) + f of a chain fits in int64 unchecked: each is at most
/// (j − i)·max(dims)³ < n·max(dims)³.
bool chain_fits(std::span<const std::int64_t> dims) {
    return detail::interval_dp::chain_candidate_bound(dims.data(), dims.size()) < 0x1p62L;
}

std::int64_t default_r(int P, std::int64_t n, const IntervalDpOptions& options) {
    if (options.r) {
        return *options.r;
    }
    if (options.profile != nullptr) {
        return cost::matrix_chain_best_r(P, n, *options.profile);
    }
    return default_block_size(P, n);
}

/// default_r, unless `error` already holds this rank's verdict; a failure of the cost model becomes the verdict, so
/// that the agreement check that follows makes it an error on every rank.
std::int64_t resolved_r(
    const char* function, int P, std::int64_t n, const IntervalDpOptions& options, std::string& error) {
    if (!error.empty() || n < 1) {
        return 0;
    }
    try {
        return default_r(P, n, options);
    } catch (const Error& e) {
        error = std::string(function) + ": choosing the block size: " + e.what();
        return 0;
    }
}

/// Walks the optimal tree from (0, n−1) level by level: the owner of column j knows split(i, j); one allreduce (max
/// of −1 and the owner's value) a level tells every rank. Calls visit(i, j, k) for every internal node.
template <class T>
void walk_tree(Group& g,
               const IntervalTable<T>& table,
               std::int64_t n,
               const std::function<void(std::int64_t, std::int64_t, std::int64_t)>& visit) {
    std::vector<std::array<std::int64_t, 2>> level{{0, n - 1}};
    while (!level.empty()) {
        std::vector<std::int64_t> k(level.size(), -1);
        for (std::size_t e = 0; e < level.size(); ++e) {
            if (table.owns(level[e][1])) {
                k[e] = table.split(level[e][0], level[e][1]);
            }
        }
        if (g.size() > 1) {
            const Label label(names::matrix_chain::walk);
            g.allreduce(std::span<const std::int64_t>(k), std::span<std::int64_t>(k), Op::max);
        }
        std::vector<std::array<std::int64_t, 2>> next;
        for (std::size_t e = 0; e < level.size(); ++e) {
            const auto [i, j] = level[e];
            visit(i, j, k[e]);
            for (const auto& child : {std::array{i, k[e]}, std::array{k[e] + 1, j}}) {
                if (child[0] < child[1]) {
                    next.push_back(child);
                }
            }
        }
        level = std::move(next);
    }
}

/// The value c(0, n−1) on every rank (its owner broadcasts it): the superstep that ends the last macro-step's blocks,
/// priced by cost::matrix_chain under the same label.
template <class T>
T top_value(Group& g, const IntervalTable<T>& table) {
    const std::int64_t n = table.n();
    T value = table.owns(n - 1) ? table.value(0, n - 1) : T{};
    if (g.size() > 1) {
        const Label label(names::matrix_chain::result);
        g.bcast(value, table.owner(n - 1));
    }
    return value;
}

std::string parenthesize(std::int64_t n, const std::function<std::int64_t(std::int64_t, std::int64_t)>& split) {
    std::string s;
    // Iterative, so that a chain of 10^5 matrices nested one deep per matrix cannot overflow the stack.
    struct Frame {
        std::int64_t i;
        std::int64_t j;
        int stage;
    };
    std::vector<Frame> stack{{0, n - 1, 0}};
    while (!stack.empty()) {
        Frame& f = stack.back();
        if (f.i == f.j) {
            s += 'A';
            s += std::to_string(f.i + 1);
            stack.pop_back();
            continue;
        }
        const std::int64_t k = split(f.i, f.j);
        if (f.stage == 0) {
            s += '(';
            f.stage = 1;
            stack.push_back({f.i, k, 0});
        } else if (f.stage == 1) {
            f.stage = 2;
            stack.push_back({k + 1, f.j, 0});
        } else {
            s += ')';
            stack.pop_back();
        }
    }
    return s;
}

void check_options(Group& g, const char* function, const IntervalDpOptions& options, std::string& error) {
    if (error.empty() && options.r && *options.r < 1) {
        error = argument_message(function, "options.r", std::to_string(*options.r), "must be at least 1");
    }
    (void)g;
}

}  // namespace

std::int64_t default_block_size(int P, std::int64_t n) {
    if (P == 1) {
        return std::clamp<std::int64_t>(n, 1, 64);  // blocks of 64 columns keep each block's data in the cache
    }
    // ρ = τ_c/τ_a, a word rotated over an update. 8 was measured with the one-row kernel (0.23 ns an update,
    // 2026-11-25); the tagged tile updates at ~0.04 ns, so a word costs more updates: from a quick profile's
    // shift.written over mc.update at long ranges, ρ ≈ 6 while the rotated trapezoids stay in the last-level cache and
    // ≈ 14 once they outgrow it (n ≳ 2000 on the 2-core VM). 12 lies between: P = 2, alternated medians, r = 63 ran n =
    // 1000 in 9.2–9.7 ms against 9.9–10.1 at ρ = 8's 52, r = 126 ran n = 4000 in 327–345 ms against 333–352 at 103.
    const double r = std::round(cost::miguet_r_opt_approx(static_cast<double>(n), P, 12.0));
    return std::clamp<std::int64_t>(static_cast<std::int64_t>(r), 1, std::max<std::int64_t>(1, (n + P - 1) / P));
}

MatrixChainResult matrix_chain(Group& g, std::span<const std::int64_t> dims, const IntervalDpOptions& options) {
    constexpr const char* name = "llc::matrix_chain";
    std::string error;
    if (dims.size() < 2) {
        error = argument_message(name, "dims.size()", std::to_string(dims.size()), "must be at least 2 (one matrix)");
    }
    for (std::size_t i = 0; i < dims.size() && error.empty(); ++i) {
        if (dims[i] <= 0) {
            error =
                argument_message(name, "dims[" + std::to_string(i) + "]", std::to_string(dims[i]), "must be positive");
        }
    }
    check_options(g, name, options, error);
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    MatrixChainResult result;
    result.r = resolved_r(name, g.size(), n, options, error);
    Agreement(g, name)
        .same("dims.size()", static_cast<long long>(dims.size()))
        .same_array("dims", dims)
        .same("options.r", options.r.value_or(0))
        .same("r (resolved)", result.r)
        .error(error)
        .check();
    if (detail::interval_dp::chain_fits_double(dims.data(), dims.size())) {
        // Every candidate an integer below 2^53: the engine in double (chain_policy_double.hpp), the same table.
        const std::vector<double> dims_double(dims.begin(), dims.end());
        const detail::interval_dp::DoubleChainPolicy policy{
            dims_double.data(), detail::interval_dp::chain_fits_tagged(dims.data(), dims.size())};
        result.table = detail::IntervalTableAccess::converted<IntervalTable<std::int64_t>>(
            detail::interval_dp::run<double>(g, n, result.r, policy, options.received),
            [](double v) { return static_cast<std::int64_t>(v); });
    } else {
        const ChainPolicy policy{dims.data(), !chain_fits(dims)};
        result.table = detail::interval_dp::run<std::int64_t>(g, n, result.r, policy, options.received);
    }
    result.cost = top_value(g, result.table);
    if (result.cost == int64_top) {
        throw_argument_error(name,
                             "dims",
                             "(" + std::to_string(dims.size()) + " dimensions)",
                             "the optimal cost does not fit in a signed 64-bit integer");
    }
    std::vector<std::int64_t> splits;
    std::vector<std::array<std::int64_t, 2>> nodes;
    if (n > 1) {
        walk_tree(g, result.table, n, [&](std::int64_t i, std::int64_t j, std::int64_t k) {
            nodes.push_back({i, j});
            splits.push_back(k);
        });
    }
    // Look-ups by (i, j) for the printer: the nodes are few (n − 1), sorted once.
    std::vector<std::size_t> order(nodes.size());
    for (std::size_t e = 0; e < order.size(); ++e) {
        order[e] = e;
    }
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return nodes[x] < nodes[y]; });
    result.parenthesization = parenthesize(n, [&](std::int64_t i, std::int64_t j) {
        const auto it = std::lower_bound(
            order.begin(), order.end(), std::array{i, j}, [&](std::size_t e, const auto& v) { return nodes[e] < v; });
        return splits[*it];
    });
    return result;
}

OptimalBstResult optimal_bst(Group& g, std::span<const double> freq, const IntervalDpOptions& options) {
    constexpr const char* name = "llc::optimal_bst";
    std::string error;
    if (freq.empty()) {
        error = argument_message(name, "freq.size()", "0", "must be at least 1");
    }
    for (std::size_t i = 0; i < freq.size() && error.empty(); ++i) {
        if (!std::isfinite(freq[i]) || freq[i] < 0.0) {
            error = argument_message(name,
                                     "freq[" + std::to_string(i) + "]",
                                     detail::format_value(freq[i]),
                                     "must be finite and non-negative");
        }
    }
    check_options(g, name, options, error);
    const auto keys = static_cast<std::int64_t>(freq.size());
    const std::int64_t n = keys + 1;
    // At P = 1 Knuth's algorithm runs without blocks; elsewhere the block size must be the same on every rank (a
    // profile given on some ranks only, or different profiles, would choose different ones).
    const std::int64_t r =
        g.size() == 1 && options.received == nullptr ? 0 : resolved_r(name, g.size(), n, options, error);
    Agreement(g, name)
        .same("freq.size()", static_cast<long long>(freq.size()))
        .same_array("freq", freq)
        .same("options.r", options.r.value_or(0))
        .same("r (resolved)", r)
        .error(error)
        .check();
    std::vector<double> prefix(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t m = 0; m < keys; ++m) {
        prefix[static_cast<std::size_t>(m + 1)] =
            prefix[static_cast<std::size_t>(m)] + freq[static_cast<std::size_t>(m)];
    }
    OptimalBstResult result;
    result.parent.assign(static_cast<std::size_t>(keys), -1);
    if (g.size() == 1 && options.received == nullptr) {
        // Knuth's O(n²): valid for this cost (quadrangle inequality), and the same tie rule as the cubic DP.
        std::vector<std::int32_t> root;
        result.cost = sequential::optimal_bst_knuth(freq, &root);
        result.r = 0;
        result.table = IntervalTable<double>(n, n, 1, 0);
        // Fill the table from Knuth's run so that the result has the same shape as at P > 1.
        std::vector<double> c(static_cast<std::size_t>(n * n), 0.0);
        for (std::int64_t d = 1; d < n; ++d) {
            for (std::int64_t i = 0; i + d < n; ++i) {
                const std::int64_t j = i + d;
                const std::int64_t k = root[static_cast<std::size_t>(i * n + j)];
                c[static_cast<std::size_t>(i * n + j)] =
                    c[static_cast<std::size_t>(i * n + k)] + c[static_cast<std::size_t>((k + 1) * n + j)] +
                    (prefix[static_cast<std::size_t>(j)] - prefix[static_cast<std::size_t>(i)]);
            }
        }
        for (std::int64_t j = 0; j < n; ++j) {
            for (std::int64_t i = 0; i <= j; ++i) {
                detail::interval_table_storage(result.table).column(j)[i] = c[static_cast<std::size_t>(i * n + j)];
                detail::interval_table_storage(result.table).split_column(j)[i] =
                    root[static_cast<std::size_t>(i * n + j)];
            }
        }
    } else {
        result.r = r;
        const std::vector<double> zeros(static_cast<std::size_t>(n) + 1, 0.0);
        result.table =
            detail::interval_dp::run<double>(g, n, result.r, BstPolicy{prefix.data(), zeros.data()}, options.received);
        result.cost = top_value(g, result.table);
    }
    // Node (i, j) has root key k; its subtrees are the keys i … k−1 and k+1 … j−1.
    std::vector<std::array<std::int64_t, 3>> found;  // {i, j, k}
    walk_tree(g, result.table, n, [&](std::int64_t i, std::int64_t j, std::int64_t k) { found.push_back({i, j, k}); });
    std::sort(found.begin(), found.end());
    const auto root_of = [&](std::int64_t i, std::int64_t j) {
        const auto it = std::lower_bound(
            found.begin(), found.end(), std::array<std::int64_t, 3>{i, j, std::numeric_limits<std::int64_t>::min()});
        return (*it)[2];
    };
    result.root = static_cast<int>(root_of(0, n - 1));
    for (const auto& [i, j, k] : found) {
        for (const auto& child : {std::array{i, k}, std::array{k + 1, j}}) {
            if (child[0] < child[1]) {
                result.parent[static_cast<std::size_t>(root_of(child[0], child[1]))] = static_cast<int>(k);
            }
        }
    }
    return result;
}

namespace sequential {

std::int64_t matrix_chain_textbook(std::span<const std::int64_t> dims, std::vector<std::int32_t>* split) {
    constexpr const char* name = "llc::sequential::matrix_chain_textbook";
    if (dims.size() < 2) {
        throw_argument_error(name, "dims.size()", std::to_string(dims.size()), "must be at least 2 (one matrix)");
    }
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (dims[i] <= 0) {
            throw_argument_error(name, "dims[" + std::to_string(i) + "]", std::to_string(dims[i]), "must be positive");
        }
    }
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    const bool fits = chain_fits(dims);
    std::vector<std::int64_t> m(static_cast<std::size_t>(n * n), 0);
    std::vector<std::int32_t> s(static_cast<std::size_t>(n * n), 0);
    const auto at = [n](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * n + j); };
    for (std::int64_t l = 2; l <= n; ++l) {
        for (std::int64_t i = 0; i + l - 1 < n; ++i) {
            const std::int64_t j = i + l - 1;
            std::int64_t best = int64_top;
            std::int64_t best_k = i;
            for (std::int64_t k = i; k < j; ++k) {
                std::int64_t q = 0;
                if (fits) {
                    q = m[at(i, k)] + m[at(k + 1, j)] + dims[i] * dims[k + 1] * dims[j + 1];
                } else {
                    std::int64_t f = 0;
                    if (__builtin_add_overflow(m[at(i, k)], m[at(k + 1, j)], &q) ||
                        __builtin_mul_overflow(dims[i], dims[k + 1], &f) ||
                        __builtin_mul_overflow(f, dims[j + 1], &f) || __builtin_add_overflow(q, f, &q)) {
                        q = int64_top;
                    }
                }
                if (q < best) {
                    best = q;
                    best_k = k;
                }
            }
            m[at(i, j)] = best;
            s[at(i, j)] = static_cast<std::int32_t>(best_k);
        }
    }
    if (m[at(0, n - 1)] == int64_top && n > 1) {
        throw_argument_error(name,
                             "dims",
                             "(" + std::to_string(dims.size()) + " dimensions)",
                             "the optimal cost does not fit in a signed 64-bit integer");
    }
    if (split != nullptr) {
        *split = std::move(s);
    }
    return m[at(0, n - 1)];
}

namespace {

double bst(std::span<const double> freq, std::vector<std::int32_t>* root, bool knuth) {
    constexpr const char* name = "llc::sequential::optimal_bst";
    if (freq.empty()) {
        throw_argument_error(name, "freq.size()", "0", "must be at least 1");
    }
    for (std::size_t i = 0; i < freq.size(); ++i) {
        if (!std::isfinite(freq[i]) || freq[i] < 0.0) {
            throw_argument_error(name,
                                 "freq[" + std::to_string(i) + "]",
                                 detail::format_value(freq[i]),
                                 "must be finite and non-negative");
        }
    }
    const auto n = static_cast<std::int64_t>(freq.size()) + 1;
    std::vector<double> prefix(static_cast<std::size_t>(n), 0.0);
    for (std::int64_t m = 1; m < n; ++m) {
        prefix[static_cast<std::size_t>(m)] =
            prefix[static_cast<std::size_t>(m - 1)] + freq[static_cast<std::size_t>(m - 1)];
    }
    const auto at = [n](std::int64_t i, std::int64_t j) { return static_cast<std::size_t>(i * n + j); };
    std::vector<double> c(static_cast<std::size_t>(n * n), 0.0);
    std::vector<std::int32_t> rt(static_cast<std::size_t>(n * n), 0);
    for (std::int64_t i = 0; i < n; ++i) {
        rt[at(i, i)] = static_cast<std::int32_t>(i);
    }
    for (std::int64_t d = 1; d < n; ++d) {
        for (std::int64_t i = 0; i + d < n; ++i) {
            const std::int64_t j = i + d;
            std::int64_t lo = i;
            std::int64_t hi = j - 1;
            if (knuth && d >= 2) {
                lo = rt[at(i, j - 1)];
                hi = std::min<std::int64_t>(rt[at(i + 1, j)], j - 1);
            }
            double best = std::numeric_limits<double>::max();
            std::int64_t best_k = lo;
            for (std::int64_t k = lo; k <= hi; ++k) {
                const double q = c[at(i, k)] + c[at(k + 1, j)];
                if (q < best) {
                    best = q;
                    best_k = k;
                }
            }
            c[at(i, j)] = best + (prefix[static_cast<std::size_t>(j)] - prefix[static_cast<std::size_t>(i)]);
            rt[at(i, j)] = static_cast<std::int32_t>(best_k);
        }
    }
    if (root != nullptr) {
        *root = std::move(rt);
    }
    return c[at(0, n - 1)];
}

}  // namespace

double optimal_bst_knuth(std::span<const double> freq, std::vector<std::int32_t>* root) {
    return bst(freq, root, true);
}

double optimal_bst_cubic(std::span<const double> freq, std::vector<std::int32_t>* root) {
    return bst(freq, root, false);
}

std::string parenthesization(std::int64_t n, std::span<const std::int32_t> split) {
    return parenthesize(n, [&](std::int64_t i, std::int64_t j) {
        return static_cast<std::int64_t>(split[static_cast<std::size_t>(i * n + j)]);
    });
}

}  // namespace sequential

}  // namespace llc
