// Symmetric matrix–vector product on a ring with the reflection mapping (article [3] of Miguet's thesis) and the
// standard row-block product of its §2.
#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/algorithms/symv.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/error.hpp>
#include <llc/trace.hpp>

#include "symv_kernels.hpp"

namespace llc {

namespace {

/// First pair of processor q when `pairs` row pairs are dealt in P contiguous runs, the first pairs mod P runs one
/// longer.
std::int64_t pair_begin(std::int64_t pairs, int P, int q) {
    return q * (pairs / P) + std::min<std::int64_t>(q, pairs % P);
}

/// Σ_{i=a}^{e−1} (i + 1): the packed entries of rows [a, e) of a lower triangle.
std::int64_t triangle_rows(std::int64_t a, std::int64_t e) {
    return (e * (e + 1) - a * (a + 1)) / 2;
}

std::string size_text(std::size_t s) {
    return std::to_string(s);
}

}  // namespace

std::string_view to_string(SymvMapping mapping) {
    return mapping == SymvMapping::reflection ? "reflection" : "standard";
}

// ---------------------------------------------------------------------------------------------------------------------
// Layout

SymvLayout::SymvLayout(std::int64_t n, int P, SymvMapping mapping) : n_(n), P_(P), mapping_(mapping) {
    if (n < 1) {
        throw_argument_error("llc::SymvLayout", "n", std::to_string(n), "must be at least 1");
    }
    if (P < 1) {
        throw_argument_error("llc::SymvLayout", "P", std::to_string(P), "must be at least 1");
    }
}

std::int64_t SymvLayout::block_begin(int b) const noexcept {
    if (mapping_ == SymvMapping::standard) {
        return b * (n_ / P_) + std::min<std::int64_t>(b, n_ % P_);
    }
    // Block b < P is processor b's run of first rows of pairs; block 2P−1−q holds the partners n−1−i of processor q's
    // run, so it begins where processor q's run ends, mirrored. An odd n's middle row ⌊n/2⌋ falls between block P−1's
    // run and block P's mirrored run: it belongs to block P−1.
    const std::int64_t pairs = n_ / 2;
    return b < P_ ? pair_begin(pairs, P_, b) : n_ - pair_begin(pairs, P_, 2 * P_ - b);
}

int SymvLayout::block_owner(int b) const noexcept {
    return mapping_ == SymvMapping::reflection && b >= P_ ? 2 * P_ - 1 - b : b;
}

std::vector<int> SymvLayout::blocks_of(int q) const {
    if (mapping_ == SymvMapping::standard) {
        return {q};
    }
    return {q, 2 * P_ - 1 - q};
}

std::int64_t SymvLayout::local_rows(int q) const {
    // blocks_of(q)'s blocks without its vector: local_size (= local_rows) is called per index by the Distribution
    // algorithms (same_placement, redistribute's plans), where an allocation a call cost more than the rest.
    return mapping_ == SymvMapping::standard ? block_size(q) : block_size(q) + block_size(2 * P_ - 1 - q);
}

std::int64_t SymvLayout::local_entries(int q) const {
    if (mapping_ == SymvMapping::standard) {
        return local_rows(q) * n_;
    }
    std::int64_t entries = 0;
    for (const int b : blocks_of(q)) {
        entries += triangle_rows(block_begin(b), block_begin(b + 1));
    }
    return entries;
}

std::pair<int, std::int64_t> SymvLayout::locate(std::int64_t i) const {
    // The last block beginning at or before i is not empty and holds i.
    int lo = 0;
    int hi = blocks();
    while (hi - lo > 1) {
        const int mid = (lo + hi) / 2;
        (block_begin(mid) <= i ? lo : hi) = mid;
    }
    const int q = block_owner(lo);
    const int first = blocks_of(q).front();
    const std::int64_t before = lo == first ? 0 : block_size(first);
    return {q, before + (i - block_begin(lo))};
}

// ---------------------------------------------------------------------------------------------------------------------
// Matrix

template <class T>
SymmetricMatrix<T>::SymmetricMatrix(Group& g,
                                    std::int64_t n,
                                    SymvMapping mapping,
                                    const char* function,
                                    const std::string& local_error,
                                    bool allocate) {
    const std::string error =
        n < 1 ? argument_message(function, "n", std::to_string(n), "must be at least 1") : local_error;
    Agreement(g, function)
        .same("n", n)
        .same("mapping", static_cast<long long>(mapping), to_string(mapping))
        .error(error)
        .check();
    layout_ = SymvLayout(n, g.size(), mapping);
    rank_ = g.rank();
    for (const int b : layout_.blocks_of(rank_)) {
        for (std::int64_t i = layout_.block_begin(b); i < layout_.block_begin(b + 1); ++i) {
            rows_.push_back(i);
        }
    }
    offsets_.reserve(rows_.size() + 1);
    offsets_.push_back(0);
    for (const std::int64_t i : rows_) {
        const std::int64_t length = mapping == SymvMapping::reflection ? i + 1 : n;
        offsets_.push_back(offsets_.back() + static_cast<std::size_t>(length));
    }
    if (allocate) {
        data_.assign(offsets_.back(), T{});
    }
}

template <class T>
SymmetricMatrix<T> SymmetricMatrix<T>::from_full(
    Group& g, std::int64_t n, std::span<const T> full, Triangle triangle, SymvMapping mapping) {
    constexpr const char* name = "llc::SymmetricMatrix::from_full";
    std::string error;
    if (n >= 1 && full.size() != static_cast<std::size_t>(n * n)) {
        error = argument_message(name, "full.size()", size_text(full.size()), "must be n² = " + std::to_string(n * n));
    }
    // Which triangle the ranks read changes the matrix without a message to show it: agreed first.
    Agreement(g, name)
        .same("triangle", static_cast<long long>(triangle), triangle == Triangle::lower ? "lower" : "upper")
        .check();
    SymmetricMatrix m(g, n, mapping, name, error, true);
    const auto un = static_cast<std::size_t>(n);
    auto entry = [&](std::int64_t i, std::int64_t j) {  // i ≥ j
        const auto ui = static_cast<std::size_t>(i);
        const auto uj = static_cast<std::size_t>(j);
        return triangle == Triangle::lower ? full[ui * un + uj] : full[uj * un + ui];
    };
    m.fill(entry);
    return m;
}

template <class T>
SymmetricMatrix<T> SymmetricMatrix<T>::from_packed(Group& g,
                                                   std::int64_t n,
                                                   std::span<const T> packed,
                                                   SymvMapping mapping) {
    constexpr const char* name = "llc::SymmetricMatrix::from_packed";
    std::string error;
    if (n >= 1 && packed.size() != static_cast<std::size_t>(n * (n + 1) / 2)) {
        error = argument_message(
            name, "packed.size()", size_text(packed.size()), "must be n(n+1)/2 = " + std::to_string(n * (n + 1) / 2));
    }
    SymmetricMatrix m(g, n, mapping, name, error, true);
    auto entry = [&](std::int64_t i, std::int64_t j) { return packed[static_cast<std::size_t>(i * (i + 1) / 2 + j)]; };
    m.fill(entry);
    return m;
}

template <class T>
SymmetricMatrix<T> SymmetricMatrix<T>::from_local(Group& g, std::int64_t n, std::vector<T> local, SymvMapping mapping) {
    constexpr const char* name = "llc::SymmetricMatrix::from_local";
    std::string error;
    if (n >= 1) {
        const std::int64_t expected = SymvLayout(n, g.size(), mapping).local_entries(g.rank());
        if (local.size() != static_cast<std::size_t>(expected)) {
            error = argument_message(name,
                                     "local.size()",
                                     size_text(local.size()),
                                     "must be this rank's entry count " + std::to_string(expected));
        }
    }
    SymmetricMatrix m(g, n, mapping, name, error, false);
    m.data_ = std::move(local);
    return m;
}

// ---------------------------------------------------------------------------------------------------------------------
// Vectors

template <class T>
std::vector<T> distribute_vector(const SymvLayout& layout, int rank, std::span<const T> full) {
    if (full.size() != static_cast<std::size_t>(layout.n())) {
        throw_argument_error("llc::distribute_vector",
                             "full.size()",
                             size_text(full.size()),
                             "must be the matrix order n = " + std::to_string(layout.n()));
    }
    std::vector<T> local;
    local.reserve(static_cast<std::size_t>(layout.local_rows(rank)));
    for (const int b : layout.blocks_of(rank)) {
        local.insert(local.end(), full.begin() + layout.block_begin(b), full.begin() + layout.block_begin(b + 1));
    }
    return local;
}

namespace {

/// The whole vector from every rank's local entries concatenated in rank order.
template <class T>
std::vector<T> assemble(const SymvLayout& layout, std::span<const T> all) {
    std::vector<T> full(static_cast<std::size_t>(layout.n()));
    std::size_t at = 0;
    for (int q = 0; q < layout.P(); ++q) {
        for (const int b : layout.blocks_of(q)) {
            const auto size = static_cast<std::size_t>(layout.block_size(b));
            std::copy_n(all.begin() + static_cast<std::ptrdiff_t>(at), size, full.begin() + layout.block_begin(b));
            at += size;
        }
    }
    return full;
}

}  // namespace

template <class T>
std::vector<T> gather_vector(Group& g, const SymvLayout& layout, std::span<const T> local, int root) {
    constexpr const char* name = "llc::gather_vector";
    std::string error = root >= 0 ? g.root_error(name, root) : std::string{};
    if (error.empty() && layout.P() != g.size()) {
        error = argument_message(name, "layout.P()", std::to_string(layout.P()), "must be the group's size");
    }
    if (error.empty() && local.size() != static_cast<std::size_t>(layout.local_rows(g.rank()))) {
        error = argument_message(name,
                                 "local.size()",
                                 size_text(local.size()),
                                 "must be this rank's row count " + std::to_string(layout.local_rows(g.rank())));
    }
    g.check_same(name, {{"n", layout.n()}, {"root", root}}, error);
    if (root < 0) {
        return assemble<T>(layout, g.allgatherv(local));
    }
    const std::vector<T> all = g.gatherv(local, root);
    return g.rank() == root ? assemble<T>(layout, all) : std::vector<T>{};
}

// ---------------------------------------------------------------------------------------------------------------------
// The products

namespace {

/// Reflection mapping, the busy part of step s: detail::symv::reflection_step on A's stored rows.
template <class T>
void add_step(const SymmetricMatrix<T>& A, std::span<const T> x, int d, std::span<T> gamma, std::span<T> mine) {
    detail::symv::reflection_step<T>(
        A.layout(), A.rank(), [&](std::int64_t k) { return A.row(k).data(); }, x, d, gamma, mine);
}

/// The diagonal blocks of this rank: detail::symv::reflection_diagonal on A's stored rows.
template <class T>
void add_diagonal(const SymmetricMatrix<T>& A, std::span<const T> x, std::span<T> mine) {
    detail::symv::reflection_diagonal<T>(
        A.layout(), A.rank(), [&](std::int64_t k) { return A.row(k).data(); }, x, mine);
}

template <class T>
void add_into(std::span<T> to, std::span<const T> from) {
    for (std::size_t k = 0; k < to.size(); ++k) {
        to[k] += from[k];
    }
}

/// x replicated in row order from every rank's local entries (one allgatherv).
template <class T>
std::vector<T> replicate(Group& g, const SymvLayout& layout, std::span<const T> x) {
    if (g.size() == 1) {
        return assemble<T>(layout, x);
    }
    const Label label(names::symv::x);
    return assemble<T>(layout, g.allgatherv(x));
}

/// A·x in this rank's local layout, reflection mapping (article [3] §3.2 with x duplicated).
template <class T>
std::vector<T> reflection_product(Group& g, const SymmetricMatrix<T>& A, std::span<const T> x_local, bool overlap) {
    const SymvLayout& layout = A.layout();
    const int P = layout.P();
    const int q = A.rank();
    const std::vector<T> x = replicate(g, layout, x_local);
    const std::span<const T> xs(x);
    std::vector<T> mine(static_cast<std::size_t>(A.local_rows()), T{});
    // The partial sums this rank adds to at step s belong to processor (q + s) mod P; at s = P (≡ 0) to itself, so
    // the last step adds straight into `mine`, with the diagonal blocks.
    const auto dest = [&](int s) { return (q + s) % P; };
    const auto sized = [&](int d) { return std::vector<T>(static_cast<std::size_t>(layout.local_rows(d)), T{}); };
    const auto compute = [&](int s, std::span<T> gamma) {
        add_step<T>(A, xs, dest(s), gamma, mine);
        if (s == P) {
            add_diagonal<T>(A, xs, mine);
        }
    };
    if (P == 1) {
        compute(1, mine);
        return mine;
    }
    std::vector<T> send = sized(dest(1));
    compute(1, send);
    for (int s = 1; s < P; ++s) {
        // Shift s carries this rank's partial sums for processor q + s to q − 1, and brings processor q + 1's for
        // q + s + 1, which this rank adds step s + 1's contributions to.
        std::vector<T> recv = sized(dest(s + 1));
        std::vector<T> next = s + 1 < P ? sized(dest(s + 1)) : std::vector<T>{};
        std::span<T> gamma = s + 1 < P ? std::span<T>(next) : std::span<T>(mine);
        const Label label(names::symv::ring);  // the shift is recorded at wait() or at shift()
        if (overlap) {
            ShiftInFlight flight = g.shift_start<T>(send, recv, -1);
            compute(s + 1, gamma);  // needs nothing that is in flight
            flight.wait();
        } else {
            g.shift<T>(send, recv, -1);
            compute(s + 1, gamma);
        }
        add_into<T>(gamma, recv);
        send = std::move(next);
    }
    return mine;
}

/// A·x in this rank's local layout, standard mapping (article [3] §2): at step s, P_q holds X_{(q+s) mod P} and
/// multiplies its rows' block of columns (q + s) mod P, while the block moves on to P_{q−1}.
template <class T>
std::vector<T> standard_product(Group& g, const SymmetricMatrix<T>& A, std::span<const T> x_local, bool overlap) {
    const SymvLayout& layout = A.layout();
    const int P = layout.P();
    const int q = A.rank();
    std::vector<T> mine(static_cast<std::size_t>(A.local_rows()), T{});
    std::vector<T> held(x_local.begin(), x_local.end());
    const auto compute = [&](int c) {
        detail::symv::standard_step<T>(
            layout, A.local_rows(), [&](std::int64_t k) { return A.row(k).data(); }, c, held, mine);
    };
    for (int s = 0; s < P; ++s) {
        const int c = (q + s) % P;
        if (s + 1 == P) {
            compute(c);
            break;
        }
        std::vector<T> next(static_cast<std::size_t>(layout.block_size((c + 1) % P)));
        const Label label(names::symv::ring);
        if (overlap) {
            ShiftInFlight flight = g.shift_start<T>(held, next, -1);
            compute(c);  // reads `held`, which the shift only sends
            flight.wait();
        } else {
            compute(c);
            g.shift<T>(held, next, -1);
        }
        held = std::move(next);
    }
    return mine;
}

}  // namespace

template <class T>
void detail::symv_in_layout(Group& g,
                            T alpha,
                            const SymmetricMatrix<T>& A,
                            std::span<const T> x,
                            T beta,
                            std::span<T> y,
                            const SymvOptions& options) {
    constexpr const char* name = "llc::symv";
    std::string error;
    if (A.n() < 1) {
        error = argument_message(name, "A.n()", "0", "the matrix is empty (default-constructed)");
    } else if (A.P() != g.size() || A.rank() != g.rank()) {
        error = argument_message(name,
                                 "A",
                                 "built on " + std::to_string(A.P()) + " processors, rank " + std::to_string(A.rank()),
                                 "must be built on this group");
    } else if (x.size() != static_cast<std::size_t>(A.local_rows())) {
        error = argument_message(
            name, "x.size()", size_text(x.size()), "must be A.local_rows() = " + std::to_string(A.local_rows()));
    } else if (y.size() != static_cast<std::size_t>(A.local_rows())) {
        error = argument_message(
            name, "y.size()", size_text(y.size()), "must be A.local_rows() = " + std::to_string(A.local_rows()));
    }
    Agreement(g, name)
        .same("A.n()", A.n())
        .same("A.mapping()", static_cast<long long>(A.mapping()), to_string(A.mapping()))
        .same_real("alpha", static_cast<double>(alpha))
        .same_real("beta", static_cast<double>(beta))
        .same("options.overlap", options.overlap ? 1 : 0)
        .error(error)
        .check();
    // As BLAS: β = 0 sets y without reading it, α = 0 reads neither A nor x.
    const auto scaled = [beta](T old) { return beta == T{} ? T{} : beta * old; };
    if (alpha == T{}) {
        std::transform(y.begin(), y.end(), y.begin(), scaled);
        return;
    }
    const std::vector<T> ax = A.mapping() == SymvMapping::reflection ? reflection_product(g, A, x, options.overlap)
                                                                     : standard_product(g, A, x, options.overlap);
    for (std::size_t k = 0; k < y.size(); ++k) {
        y[k] = alpha * ax[k] + scaled(y[k]);
    }
}

namespace sequential {

template <class T>
void symv_full(
    std::int64_t n, T alpha, std::span<const T> A, Triangle triangle, std::span<const T> x, T beta, std::span<T> y) {
    constexpr const char* name = "llc::sequential::symv_full";
    if (n < 1) {
        throw_argument_error(name, "n", std::to_string(n), "must be at least 1");
    }
    const auto un = static_cast<std::size_t>(n);
    if (A.size() != un * un) {
        throw_argument_error(name, "A.size()", size_text(A.size()), "must be n² = " + std::to_string(n * n));
    }
    if (x.size() != un || y.size() != un) {
        throw_argument_error(name,
                             x.size() != un ? "x.size()" : "y.size()",
                             size_text(x.size() != un ? x.size() : y.size()),
                             "must be n = " + std::to_string(n));
    }
    const auto entry = [&](std::size_t i, std::size_t j) {
        const bool stored = triangle == Triangle::lower ? i >= j : i <= j;
        return stored ? A[i * un + j] : A[j * un + i];
    };
    for (std::size_t i = 0; i < un; ++i) {
        T sum{};
        for (std::size_t j = 0; j < un; ++j) {
            sum += entry(i, j) * x[j];
        }
        const T old = beta == T{} ? T{} : beta * y[i];
        y[i] = alpha == T{} ? old : alpha * sum + old;
    }
}

}  // namespace sequential

// double first; float follows.
#define LLC_SYMV_INSTANTIATE(T)                                                                         \
    template class SymmetricMatrix<T>;                                                                  \
    template void detail::symv_in_layout<T>(                                                            \
        Group&, T, const SymmetricMatrix<T>&, std::span<const T>, T, std::span<T>, const SymvOptions&); \
    template std::vector<T> distribute_vector<T>(const SymvLayout&, int, std::span<const T>);           \
    template std::vector<T> gather_vector<T>(Group&, const SymvLayout&, std::span<const T>, int);       \
    template void sequential::symv_full<T>(                                                             \
        std::int64_t, T, std::span<const T>, Triangle, std::span<const T>, T, std::span<T>);

LLC_SYMV_INSTANTIATE(double)
LLC_SYMV_INSTANTIATE(float)

#undef LLC_SYMV_INSTANTIATE

}  // namespace llc
