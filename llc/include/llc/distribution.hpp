#pragma once
/// @file
/// One vocabulary for distributions: where the n entries of a global array live on P processors, and one
/// redistribution between any two.
///
/// A Distribution partitions the global indices 0 … n−1 over the processors 0 … P−1 and orders each processor's
/// entries: processor q holds local_size(q) entries, its l-th being global index global_index(q, l). Every global
/// index has exactly one owner, owner(i), where it sits at local_index(i); and a processor's entries are in increasing
/// global order (global_index(q, ·) increases), which is what lets redistribute pair what one processor sends with
/// what another receives without sending indices. Every layout of llc's algorithms models it:
///
/// | type                                   | over                          | what                                   |
/// |----------------------------------------|-------------------------------|----------------------------------------|
/// | BlockDistribution                      | any array                     | contiguous balanced blocks (a user's)  |
/// | BlockCyclicDistribution                | rows, columns                 | blocks of r dealt round-robin          |
/// | ExpandedDistribution (expand(d, k))    | entries of runs of k          | index i of d as k consecutive entries  |
/// | SymvLayout (symv.hpp)                  | rows of A, entries of x and y | reflection (q, 2P−1−q) or standard     |
/// | RowBlocks (row_image.hpp)              | image rows; .pixels(): pixels | r rows dealt round-robin               |
/// | PixelBlocks (contour_blocks.hpp)       | row-major pixel indices       | contour ranking's q × q grid or strips |
/// | FftPlan::input_distribution() (fft.hpp)| entries of x (block layout)   | BlockDistribution                      |
/// | IntervalTable::columns() (matrix_chain)| columns j of the DP table     | BlockCyclicDistribution(n, r, P)       |

#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/trace_record.hpp>

namespace llc {

/// A partition of the global indices [0, global_size()) over processors() processors (see the file comment). The
/// semantic requirements, which check_distribution tests: Σ_q local_size(q) = global_size(); for every q and
/// 0 ≤ l < local_size(q), i = global_index(q, l) has owner(i) = q and local_index(i) = l; global_index(q, ·)
/// increases with l.
template <class D>
concept Distribution = requires(const D& d, std::int64_t i, int q) {
    { d.global_size() } -> std::convertible_to<std::int64_t>;
    { d.processors() } -> std::convertible_to<int>;
    { d.owner(i) } -> std::convertible_to<int>;
    { d.local_index(i) } -> std::convertible_to<std::int64_t>;
    { d.local_size(q) } -> std::convertible_to<std::int64_t>;
    { d.global_index(q, i) } -> std::convertible_to<std::int64_t>;
};

/// Contiguous balanced blocks, as a user's code holds an array: processor q holds [start(q), start(q) + local_size(q)),
/// ⌊n/P⌋ entries and one more on the first n mod P processors. The FFT's block layout (fft_block_size/start) and symv's
/// standard mapping are this distribution.
class BlockDistribution {
  public:
    BlockDistribution() = default;
    /// @throws llc::Error naming llc::BlockDistribution for n < 0 or P < 1.
    BlockDistribution(std::int64_t n, int P) : n_(n), P_(P) {
        if (n < 0 || P < 1) {
            throw_argument_error("llc::BlockDistribution",
                                 n < 0 ? "n" : "P",
                                 std::to_string(n < 0 ? n : P),
                                 n < 0 ? "must be at least 0" : "must be at least 1");
        }
    }

    [[nodiscard]] std::int64_t global_size() const noexcept { return n_; }
    [[nodiscard]] int processors() const noexcept { return P_; }
    /// The first global index processor q holds.
    [[nodiscard]] std::int64_t start(int q) const noexcept {
        return q * (n_ / P_) + std::min<std::int64_t>(q, n_ % P_);
    }
    [[nodiscard]] std::int64_t local_size(int q) const noexcept { return n_ / P_ + (q < n_ % P_ ? 1 : 0); }
    [[nodiscard]] int owner(std::int64_t i) const noexcept {
        // The first n mod P blocks have ⌊n/P⌋ + 1 entries, the rest ⌊n/P⌋.
        const std::int64_t big = n_ / P_ + 1;
        const std::int64_t boundary = (n_ % P_) * big;
        return static_cast<int>(i < boundary ? i / big : n_ % P_ + (i - boundary) / (n_ / P_));
    }
    [[nodiscard]] std::int64_t local_index(std::int64_t i) const noexcept { return i - start(owner(i)); }
    [[nodiscard]] std::int64_t global_index(int q, std::int64_t l) const noexcept { return start(q) + l; }
    friend bool operator==(const BlockDistribution&, const BlockDistribution&) = default;

  private:
    std::int64_t n_ = 0;
    int P_ = 1;
};

/// Blocks of r consecutive indices dealt round-robin: block b = [b·r, (b+1)·r) on processor b mod P, each processor
/// keeping its indices in increasing order; the last block may be short. The rows of RowBlocks and the columns of the
/// interval-DP table (IntervalTable) are placed so.
class BlockCyclicDistribution {
  public:
    BlockCyclicDistribution() = default;
    /// @throws llc::Error naming llc::BlockCyclicDistribution for n < 0, r < 1 or P < 1.
    BlockCyclicDistribution(std::int64_t n, std::int64_t r, int P) : n_(n), r_(r), P_(P) {
        if (n < 0 || r < 1 || P < 1) {
            throw_argument_error("llc::BlockCyclicDistribution",
                                 "n, r, P",
                                 std::to_string(n) + ", " + std::to_string(r) + ", " + std::to_string(P),
                                 "must be n ≥ 0, r ≥ 1, P ≥ 1");
        }
    }

    [[nodiscard]] std::int64_t global_size() const noexcept { return n_; }
    [[nodiscard]] int processors() const noexcept { return P_; }
    [[nodiscard]] std::int64_t block() const noexcept { return r_; }
    [[nodiscard]] int owner(std::int64_t i) const noexcept { return static_cast<int>((i / r_) % P_); }
    [[nodiscard]] std::int64_t local_index(std::int64_t i) const noexcept { return (i / r_ / P_) * r_ + i % r_; }
    [[nodiscard]] std::int64_t global_index(int q, std::int64_t l) const noexcept {
        return ((l / r_) * P_ + q) * r_ + l % r_;
    }
    [[nodiscard]] std::int64_t local_size(int q) const noexcept {
        const std::int64_t blocks = (n_ + r_ - 1) / r_;  // block b on processor b mod P
        if (q >= blocks) {
            return 0;
        }
        const std::int64_t mine = (blocks - 1 - q) / P_ + 1;
        const std::int64_t last = blocks - 1;  // the only block that may be short
        return mine * r_ - (last % P_ == q ? last * r_ + r_ - n_ : 0);
    }
    friend bool operator==(const BlockCyclicDistribution&, const BlockCyclicDistribution&) = default;

  private:
    std::int64_t n_ = 0;
    std::int64_t r_ = 1;
    int P_ = 1;
};

/// Distribution d with every index expanded into k consecutive entries: index i of d becomes entries [i·k, (i+1)·k)
/// on d.owner(i), kept together. expand(rows, width) turns a distribution of image rows into one of row-major pixels.
template <Distribution D>
class ExpandedDistribution {
  public:
    /// @throws llc::Error for k < 1.
    ExpandedDistribution(D base, std::int64_t k) : base_(std::move(base)), k_(k) {
        if (k < 1) {
            throw_argument_error("llc::expand", "k", std::to_string(k), "must be at least 1");
        }
    }
    [[nodiscard]] const D& base() const noexcept { return base_; }
    [[nodiscard]] std::int64_t k() const noexcept { return k_; }
    [[nodiscard]] std::int64_t global_size() const { return base_.global_size() * k_; }
    [[nodiscard]] int processors() const { return base_.processors(); }
    [[nodiscard]] int owner(std::int64_t i) const { return base_.owner(i / k_); }
    [[nodiscard]] std::int64_t local_index(std::int64_t i) const { return base_.local_index(i / k_) * k_ + i % k_; }
    [[nodiscard]] std::int64_t local_size(int q) const { return base_.local_size(q) * k_; }
    [[nodiscard]] std::int64_t global_index(int q, std::int64_t l) const {
        return base_.global_index(q, l / k_) * k_ + l % k_;
    }

  private:
    D base_;
    std::int64_t k_ = 1;
};

/// d with each index as k consecutive entries (ExpandedDistribution).
template <Distribution D>
[[nodiscard]] ExpandedDistribution<D> expand(D d, std::int64_t k) {
    return ExpandedDistribution<D>(std::move(d), k);
}

/// "" when d meets the concept's semantic requirements (see Distribution), else what is wrong, naming the processor
/// and the index. O(global_size() + P): for tests of a model, not for every call.
template <Distribution D>
[[nodiscard]] std::string check_distribution(const D& d) {
    std::int64_t total = 0;
    for (int q = 0; q < d.processors(); ++q) {
        std::int64_t previous = -1;
        for (std::int64_t l = 0; l < d.local_size(q); ++l) {
            const std::int64_t i = d.global_index(q, l);
            const std::string where = "processor " + std::to_string(q) + ", local " + std::to_string(l) + ": ";
            if (i < 0 || i >= d.global_size()) {
                return where + "global index " + std::to_string(i) + " outside [0, " + std::to_string(d.global_size()) +
                       ")";
            }
            if (i <= previous) {
                return where + "global index " + std::to_string(i) + " not above the previous " +
                       std::to_string(previous);
            }
            if (d.owner(i) != q || d.local_index(i) != l) {
                return where + "global index " + std::to_string(i) + " has owner " + std::to_string(d.owner(i)) +
                       ", local index " + std::to_string(d.local_index(i));
            }
            previous = i;
        }
        total += d.local_size(q);
    }
    if (total != d.global_size()) {
        return "the local sizes sum to " + std::to_string(total) + ", not the global size " +
               std::to_string(d.global_size());
    }
    return {};
}

/// Whether a and b place every index on the same processor at the same local position (O(global_size() + P); the same
/// answer on every rank for distributions agreed across the group).
template <Distribution A, Distribution B>
[[nodiscard]] bool same_placement(const A& a, const B& b) {
    if (a.global_size() != b.global_size() || a.processors() != b.processors()) {
        return false;
    }
    for (int q = 0; q < a.processors(); ++q) {
        if (a.local_size(q) != b.local_size(q)) {
            return false;
        }
        for (std::int64_t l = 0; l < a.local_size(q); ++l) {
            if (a.global_index(q, l) != b.global_index(q, l)) {
                return false;
            }
        }
    }
    return true;
}

namespace names::distribution {
/// The superstep label of redistribute (its one alltoallv), shared with cost::redistribute.
inline constexpr const char* redistribute = "llc.redistribute";
}  // namespace names::distribution

namespace detail {
template <Distribution D>
std::vector<long long> local_sizes(const D& d) {
    std::vector<long long> sizes(static_cast<std::size_t>(std::max(d.processors(), 0)));
    for (int q = 0; q < d.processors(); ++q) {
        sizes[static_cast<std::size_t>(q)] = d.local_size(q);
    }
    return sizes;
}
}  // namespace detail

/// This rank's entries of the array under `to`, from its entries `local` under `from` (both over the same global
/// size, on this group's P processors). One all-to-all (Group::alltoallv: one superstep, labelled
/// names::distribution::redistribute), each processor sending every entry to its owner under `to`; O(local sizes)
/// packing and unpacking around it. Collective over g; also when nothing moves (from and to place alike), so that its
/// cost and trace do not depend on the data.
///
/// Cost (CCM): cost::redistribute(from, to, sizeof(T)) in <llc/cost/redistribute.hpp>: T_alltoall(P, h), h the
/// largest send buffer, max_q from.local_size(q)·sizeof(T) bytes.
/// @throws llc::Error on every rank when the global sizes of from and to differ (from each other or across the
///         ranks), their processors() is not g.size(), their local sizes differ across the ranks, local.size() is not
///         from.local_size(g.rank()), or a rank's entries under `from` or `to` are not in increasing global order.
template <class T, Distribution From, Distribution To>
requires std::is_trivially_copyable_v<T>
[[nodiscard]] std::vector<T> redistribute(Group& g, const From& from, const To& to, std::span<const T> local) {
    constexpr const char* function = "llc::redistribute";
    const int P = g.size();
    const int me = g.rank();
    std::string error;
    if (from.processors() != P || to.processors() != P) {
        error = argument_message(function,
                                 "from.processors(), to.processors()",
                                 std::to_string(from.processors()) + ", " + std::to_string(to.processors()),
                                 "must be the group's size " + std::to_string(P));
    } else if (from.global_size() != to.global_size()) {
        error = argument_message(function,
                                 "from.global_size(), to.global_size()",
                                 std::to_string(from.global_size()) + ", " + std::to_string(to.global_size()),
                                 "must be equal");
    } else if (static_cast<std::int64_t>(local.size()) != from.local_size(me)) {
        error = argument_message(
            function,
            "local.size()",
            std::to_string(local.size()),
            "must be from.local_size(" + std::to_string(me) + ") = " + std::to_string(from.local_size(me)));
    }
    // Where each local entry goes, in local order (increasing global order: checked here, so that a distribution
    // that breaks it is an error on every rank, not a scrambled result).
    std::vector<int> counts(static_cast<std::size_t>(P), 0);
    std::vector<int> destination;
    if (error.empty()) {
        destination.resize(local.size());
        std::int64_t previous = -1;
        for (std::size_t l = 0; l < local.size() && error.empty(); ++l) {
            const std::int64_t i = from.global_index(me, static_cast<std::int64_t>(l));
            const int q = i > previous && i < to.global_size() ? to.owner(i) : -1;
            if (q < 0 || q >= P) {
                error = argument_message(function,
                                         "from",
                                         "global index " + std::to_string(i) + " at local " + std::to_string(l),
                                         "must increase, be below the global size and have an owner under `to`");
            } else {
                destination[l] = q;
                ++counts[static_cast<std::size_t>(q)];
                previous = i;
            }
        }
    }
    // Where each entry this rank holds under `to` comes from, in the same increasing order.
    std::vector<int> source;
    if (error.empty()) {
        const std::int64_t mine = to.local_size(me);
        source.resize(static_cast<std::size_t>(std::max<std::int64_t>(mine, 0)));
        std::int64_t previous = -1;
        for (std::int64_t l = 0; l < mine && error.empty(); ++l) {
            const std::int64_t i = to.global_index(me, l);
            const int s = i > previous && i < from.global_size() ? from.owner(i) : -1;
            if (s < 0 || s >= P) {
                error = argument_message(function,
                                         "to",
                                         "global index " + std::to_string(i) + " at local " + std::to_string(l),
                                         "must increase, be below the global size and have an owner under `from`");
            }
            source[static_cast<std::size_t>(l)] = s;
            previous = i;
        }
    }
    const std::vector<long long> from_sizes = detail::local_sizes(from);
    const std::vector<long long> to_sizes = detail::local_sizes(to);
    Agreement(g, function)
        .same("from.global_size()", static_cast<long long>(from.global_size()))
        .same("to.global_size()", static_cast<long long>(to.global_size()))
        .same_array("from.local_size(q)", std::span<const long long>(from_sizes))
        .same_array("to.local_size(q)", std::span<const long long>(to_sizes))
        .error(error)
        .check();
    // Stable bucketing by destination keeps each bucket in increasing global order.
    std::vector<int> offset(static_cast<std::size_t>(P) + 1, 0);
    for (int q = 0; q < P; ++q) {
        offset[static_cast<std::size_t>(q) + 1] =
            offset[static_cast<std::size_t>(q)] + counts[static_cast<std::size_t>(q)];
    }
    std::vector<T> send(local.size());
    for (std::size_t l = 0; l < local.size(); ++l) {
        send[static_cast<std::size_t>(offset[static_cast<std::size_t>(destination[l])]++)] = local[l];
    }
    std::vector<int> received;
    std::vector<T> arrived;
    {
        const Label label(names::distribution::redistribute);
        arrived = g.alltoallv(std::span<const T>(send), std::span<const int>(counts), &received);
    }
    // What arrived from processor s is its entries owned here in increasing global order, as this rank's entries
    // under `to` that `from` places on s.
    std::vector<int> next(static_cast<std::size_t>(P), 0);
    std::vector<int> end(static_cast<std::size_t>(P), 0);
    for (int s = 0; s < P; ++s) {
        const auto u = static_cast<std::size_t>(s);
        next[u] = s == 0 ? 0 : end[u - 1];
        end[u] = next[u] + received[u];
    }
    std::vector<T> result(source.size());
    for (std::size_t l = 0; l < source.size(); ++l) {
        const auto s = static_cast<std::size_t>(source[l]);
        if (next[s] >= end[s]) {  // the ranks' models place an index on different owners: a broken model
            throw_argument_error(function,
                                 "from, to",
                                 "processor " + std::to_string(source[l]),
                                 "sent fewer entries than `from` and `to` place here");
        }
        result[l] = arrived[static_cast<std::size_t>(next[s]++)];
    }
    return result;
}

/// redistribute of a contiguous range (a std::vector, a std::array).
template <detail::InputRange R, Distribution From, Distribution To>
[[nodiscard]] std::vector<std::ranges::range_value_t<R>> redistribute(Group& g,
                                                                      const From& from,
                                                                      const To& to,
                                                                      const R& local) {
    return redistribute(g, from, to, detail::input_span(local));
}

}  // namespace llc
