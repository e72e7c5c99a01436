#pragma once
/// @file
/// Symmetric matrix–vector product y = αAx + βy on a ring of processors (Grigg, Miguet & Robert, "Symmetric
/// matrix-vector product on a ring of processors", article [3] of Miguet's thesis, §2.3).
///
/// The matrix is stored once, as its lower triangle, packed, distributed with the article's *reflection mapping*: the
/// rows are cut into 2P blocks and processor q holds blocks q and 2P−1−q, so that every processor stores the same
/// share (≈ n²/(2P) entries, one row pair (i, n−1−i) of n + 1 entries at a time). The product circulates the partial
/// sums y'' around the ring (P − 1 shifts of one block pair each, P_q → P_{q−1}) while each processor computes the next
/// step's contribution, the overlap of the article's §4.2.2. The article's *standard* algorithm (§2, thesis §2.3.1:
/// P contiguous blocks of full rows, x rotating around the ring) is the other mapping, for comparison.
///
/// A SymmetricMatrix is built once and reused over many products (Lanczos, CG). The vectors x and y are in contiguous
/// blocks (BlockDistribution) unless the call names another distribution; with A.layout() symv redistributes nothing.

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <llc/agreement.hpp>
#include <llc/algorithms/symv_names.hpp>
#include <llc/cost/expr.hpp>
#include <llc/cost/kernel_probe.hpp>
#include <llc/cost/profile.hpp>
#include <llc/cost/redistribute.hpp>
#include <llc/distribution.hpp>
#include <llc/group.hpp>

namespace llc {

/// How the rows of a symmetric matrix are placed on the ring.
enum class SymvMapping {
    /// Article [3] §3.2: 2P row blocks, processor q holds blocks q and 2P−1−q of the lower triangle, packed.
    reflection,
    /// Article [3] §2: P blocks of consecutive full rows (the square is stored: both triangles).
    standard,
};

/// "reflection" or "standard" (llc-run symv --mapping).
[[nodiscard]] std::string_view to_string(SymvMapping mapping);

/// Which triangle of a full input matrix is read.
enum class Triangle { lower, upper };

/// Where the rows of an order-n matrix go on P processors, and so where the entries of x and y go: a processor's local
/// vector is its rows' entries, block by block in increasing row order.
///
/// Reflection: the ⌊n/2⌋ row pairs (i, n−1−i) are dealt in P contiguous runs, the first ⌊n/2⌋ mod P processors taking
/// one pair more; processor q's run of pairs [s_q, s_{q+1}) gives it block q = rows [s_q, s_{q+1}) and block 2P−1−q =
/// rows [n − s_{q+1}, n − s_q). When n is odd the middle row (n−1)/2 joins block P−1. So the processors' storage
/// differs by at most one pair plus the middle row (n + 1 + (n+1)/2 entries), and blocks may be empty when n < 2P.
/// Standard: block q = rows [q⌊n/P⌋ + min(q, n mod P), …), the first n mod P processors taking one row more.
class SymvLayout {
  public:
    SymvLayout() = default;
    /// @throws llc::Error for n < 1 or P < 1.
    SymvLayout(std::int64_t n, int P, SymvMapping mapping);

    [[nodiscard]] std::int64_t n() const noexcept { return n_; }
    [[nodiscard]] int P() const noexcept { return P_; }
    [[nodiscard]] SymvMapping mapping() const noexcept { return mapping_; }
    /// 2P (reflection) or P (standard) row blocks.
    [[nodiscard]] int blocks() const noexcept { return mapping_ == SymvMapping::reflection ? 2 * P_ : P_; }
    /// First row of block b, 0 ≤ b ≤ blocks() (block_begin(blocks()) = n).
    [[nodiscard]] std::int64_t block_begin(int b) const noexcept;
    [[nodiscard]] std::int64_t block_size(int b) const noexcept { return block_begin(b + 1) - block_begin(b); }
    /// The processor that holds block b.
    [[nodiscard]] int block_owner(int b) const noexcept;
    /// Processor q's row blocks, in increasing row order: {q, 2P−1−q} (reflection) or {q} (standard).
    [[nodiscard]] std::vector<int> blocks_of(int q) const;
    /// How many rows (entries of x and y) processor q holds.
    [[nodiscard]] std::int64_t local_rows(int q) const;
    /// How many matrix entries processor q stores.
    [[nodiscard]] std::int64_t local_entries(int q) const;
    /// The processor holding row i and its position in that processor's local vector.
    [[nodiscard]] std::pair<int, std::int64_t> locate(std::int64_t i) const;

    // The Distribution concept (<llc/distribution.hpp>) over the row indices 0 … n−1, which are also the indices of x
    // and y: a processor's entries are its rows, block by block in increasing row order. The standard mapping places
    // them as BlockDistribution(n, P) does; the reflection mapping does not (for P ≥ 2).
    [[nodiscard]] std::int64_t global_size() const noexcept { return n_; }
    [[nodiscard]] int processors() const noexcept { return P_; }
    [[nodiscard]] int owner(std::int64_t i) const noexcept { return block_owner(block_of_row(i)); }
    [[nodiscard]] std::int64_t local_index(std::int64_t i) const noexcept {
        const int b = block_of_row(i);
        const int q = block_owner(b);  // q's first block is block q, in both mappings
        return (b == q ? 0 : block_size(q)) + (i - block_begin(b));
    }
    [[nodiscard]] std::int64_t local_size(int q) const { return local_rows(q); }
    [[nodiscard]] std::int64_t global_index(int q, std::int64_t l) const noexcept {
        const std::int64_t first = block_size(q);
        return l < first ? block_begin(q) + l : block_begin(blocks() - 1 - q) + (l - first);
    }
    friend bool operator==(const SymvLayout&, const SymvLayout&) = default;

  private:
    /// The non-empty block holding row i (binary search over the block starts).
    [[nodiscard]] int block_of_row(std::int64_t i) const noexcept {
        int lo = 0;
        int hi = blocks();
        while (hi - lo > 1) {
            const int mid = (lo + hi) / 2;
            (block_begin(mid) <= i ? lo : hi) = mid;
        }
        return lo;
    }

    std::int64_t n_ = 0;
    int P_ = 1;
    SymvMapping mapping_ = SymvMapping::reflection;
};

/// One processor's share of a distributed symmetric matrix (see SymvLayout). Reflection: each of its rows i holds
/// a_{i,0…i} (row-major lower triangle, packed). Standard: each of its rows holds a_{i,0…n−1}. Every constructor is
/// collective over the group (it checks that n and the mapping agree across ranks) and throws llc::Error on every rank
/// for n < 1, arguments that differ across ranks, or input of the wrong size.
template <class T>
class SymmetricMatrix {
  public:
    SymmetricMatrix() = default;

    /// a_ij from `generator(i, j)`, called with i ≥ j only (a_ji = a_ij for the upper triangle the standard mapping
    /// also stores).
    template <class Generator>
    requires std::is_invocable_v<Generator&, std::int64_t, std::int64_t> SymmetricMatrix(
        Group& g, std::int64_t n, Generator&& generator, SymvMapping mapping = SymvMapping::reflection)
        : SymmetricMatrix(g, n, mapping, "llc::SymmetricMatrix", {}, true) {
        fill(generator);
    }

    /// From a full n × n row-major matrix, replicated on every rank; only `triangle` is read.
    [[nodiscard]] static SymmetricMatrix from_full(Group& g,
                                                   std::int64_t n,
                                                   std::span<const T> full,
                                                   Triangle triangle = Triangle::lower,
                                                   SymvMapping mapping = SymvMapping::reflection);
    /// From the packed lower triangle, replicated on every rank: a_ij (i ≥ j) at i(i+1)/2 + j — BLAS's row-major lower
    /// packed storage (cblas_dspmv(CblasRowMajor, CblasLower, …)), n(n+1)/2 entries.
    [[nodiscard]] static SymmetricMatrix from_packed(Group& g,
                                                     std::int64_t n,
                                                     std::span<const T> packed,
                                                     SymvMapping mapping = SymvMapping::reflection);
    /// From this rank's rows, laid out as the class stores them (local_entries() values, rows in the order of
    /// local_row_indices()); moved in, nothing is communicated but the agreement check.
    [[nodiscard]] static SymmetricMatrix from_local(Group& g,
                                                    std::int64_t n,
                                                    std::vector<T> local,
                                                    SymvMapping mapping = SymvMapping::reflection);

    [[nodiscard]] const SymvLayout& layout() const noexcept { return layout_; }
    [[nodiscard]] std::int64_t n() const noexcept { return layout_.n(); }
    [[nodiscard]] SymvMapping mapping() const noexcept { return layout_.mapping(); }
    [[nodiscard]] int rank() const noexcept { return rank_; }
    [[nodiscard]] int P() const noexcept { return layout_.P(); }
    /// Rows this rank holds (the length of its x and y).
    [[nodiscard]] std::int64_t local_rows() const noexcept { return static_cast<std::int64_t>(rows_.size()); }
    /// The global index of each local row, increasing.
    [[nodiscard]] std::span<const std::int64_t> local_row_indices() const noexcept { return rows_; }
    /// Entries stored on this rank (the matrix memory is local_entries() · sizeof(T) bytes).
    [[nodiscard]] std::int64_t local_entries() const noexcept { return static_cast<std::int64_t>(data_.size()); }
    /// Local row k (global row i = local_row_indices()[k]): a_{i,0…i} (reflection) or a_{i,0…n−1} (standard).
    [[nodiscard]] std::span<const T> row(std::int64_t k) const noexcept {
        const auto u = static_cast<std::size_t>(k);
        return std::span<const T>(data_).subspan(offsets_[u], offsets_[u + 1] - offsets_[u]);
    }
    [[nodiscard]] std::span<const T> local_data() const noexcept { return data_; }

    /// The CCM cost of one product with this matrix, x and y in its layout (symv(g, α, A, A.layout(), x, β, y,
    /// {.overlap = overlap})): cost::symv(P, n, mapping, profile, overlap). The matrix is symv's plan: built once,
    /// reused over many products. @throws llc::Error (cost::symv's) for a profile without the mapping's kernel table.
    [[nodiscard]] cost::Expr cost(const cost::Profile& profile, bool overlap = true) const;

  private:
    /// Checks n, the mapping and `local_error` across the group (llc::Error on every rank), then lays out this rank's
    /// rows, allocating their entries when `allocate`.
    SymmetricMatrix(Group& g,
                    std::int64_t n,
                    SymvMapping mapping,
                    const char* function,
                    const std::string& local_error,
                    bool allocate);

    /// Writes every stored entry from generator(i, j), i ≥ j (the upper part of a standard row from a_ji).
    template <class Generator>
    void fill(Generator& generator) {
        const bool full = layout_.mapping() == SymvMapping::standard;
        const std::int64_t n = layout_.n();
        for (std::size_t k = 0; k < rows_.size(); ++k) {
            const std::int64_t i = rows_[k];
            T* row = data_.data() + offsets_[k];  // row k is [offsets_[k], offsets_[k+1]) of data_
            for (std::int64_t j = 0; j <= i; ++j) {
                row[j] = static_cast<T>(generator(i, j));
            }
            for (std::int64_t j = i + 1; full && j < n; ++j) {
                row[j] = static_cast<T>(generator(j, i));
            }
        }
    }

    SymvLayout layout_;
    int rank_ = 0;
    std::vector<std::int64_t> rows_;
    std::vector<std::size_t> offsets_;  ///< local_rows() + 1 entries: row k is [offsets_[k], offsets_[k+1])
    std::vector<T> data_;
};

/// How the ring product runs (the matrix's mapping selects the algorithm).
struct SymvOptions {
    /// Split-phase shifts (Group::shift_start): the next step's block products run while the partial sums travel,
    /// article [3] §4.2.2. Off: blocking shifts, as the article's experiments (§4.2.1).
    bool overlap = true;
};

namespace detail {
/// Whether `vectors` places x and y as `layout` does. A SymvLayout equal to it does, which is settled in O(1): the
/// generic same_placement walks all n indices (two local_size calls each), which cost a Krylov loop's product with
/// vectors kept in A's layout about 40 ns a row, 2.6× the product itself at n = 256 (10 of 16 µs at P = 1).
template <Distribution D>
[[nodiscard]] bool places_as(const D& vectors, const SymvLayout& layout) {
    if constexpr (std::is_same_v<D, SymvLayout>) {
        if (vectors == layout) {
            return true;
        }
    }
    return same_placement(vectors, layout);
}
}  // namespace detail

namespace detail {
/// y = αAx + βy with x and y in A's layout (A.local_rows() entries each): the ring product of article [3] itself.
template <class T>
void symv_in_layout(Group& g,
                    T alpha,
                    const SymmetricMatrix<T>& A,
                    std::span<const T> x,
                    T beta,
                    std::span<T> y,
                    const SymvOptions& options);
}  // namespace detail

/// y = αAx + βy, x and y in the distribution `vectors` (any llc::Distribution over the n rows: BlockDistribution(n, P)
/// for contiguous blocks, A.layout() for A's own layout, …): this rank holds vectors.local_size(rank) entries of each,
/// in increasing index order. When `vectors` places the entries as A.layout() does (A.layout() itself; the block
/// distribution with the standard mapping or at P = 1), the product runs on them directly; otherwise x (and y when
/// β ≠ 0) are first redistributed to A's layout and y back afterwards (llc::redistribute, one all-to-all each).
///
/// The product: T is the matrix's; α, β, x and y convert to it. The mapping of A selects the algorithm.
/// Reflection (article [3] §3.2): x is first replicated (one allgatherv: the article's "each processor receives a copy
/// of x before the algorithm begins"), then P − 1 shifts P_q → P_{q−1} carry the partial sums (U1, U2) of one block
/// pair towards their owner. At step s, P_q adds the column contributions (A_{b,c})ᵀX_b of its row blocks b to the
/// partial sums of processor d = (q + s) mod P's blocks c < b, and the same pass over A_{b,c} adds the row contribution
/// A_{b,c}X_c to its own y' — each stored entry is read once per product. The article's §3.3 alternative, x travelling
/// with the partial sums, moves the same words but would have to read every block twice (its x arrives one step after
/// the block's partial sum leaves), so it is not used.
/// Standard (§2): x's blocks rotate around the ring in P − 1 shifts P_q → P_{q−1}, each step multiplying one block of
/// full rows.
///
/// As BLAS: β = 0 overwrites y (NaN in y does not propagate), α = 0 reads neither A nor x; otherwise NaN and Inf
/// propagate.
/// Cost: cost::symv(P, n, mapping, vectors, profile, overlap, β ≠ 0, sizeof(T)): cost::symv(P, n, mapping, profile,
/// overlap) with, when `vectors` places the entries otherwise than A's layout, cost::redistribute for x, for y when
/// β ≠ 0, and for y back.
/// @throws llc::Error on every rank when x.size() or y.size() differs from vectors.local_size(rank), when `vectors` is
///         not over A.n() indices on this group's P processors, or when α, β, n, the mapping, the options or the
///         vectors' distribution differ across ranks.
template <class T, Distribution D>
void symv(Group& g,
          std::type_identity_t<T> alpha,
          const SymmetricMatrix<T>& A,
          const D& vectors,
          std::type_identity_t<std::span<const T>> x,
          std::type_identity_t<T> beta,
          std::type_identity_t<std::span<T>> y,
          const SymvOptions& options = {}) {
    constexpr const char* name = "llc::symv";
    if (A.n() < 1 || A.P() != g.size() || A.rank() != g.rank() || detail::places_as(vectors, A.layout())) {
        detail::symv_in_layout<T>(g, alpha, A, x, beta, y, options);  // also reports a matrix not of this group
        return;
    }
    std::string error;
    const std::int64_t mine = vectors.local_size(g.rank());
    if (vectors.global_size() != A.n() || vectors.processors() != g.size()) {
        error = argument_message(
            name,
            "vectors",
            "over " + std::to_string(vectors.global_size()) + " indices on " + std::to_string(vectors.processors()) +
                " processors",
            "must be over A.n() = " + std::to_string(A.n()) + " indices on the group's " + std::to_string(g.size()));
    } else if (static_cast<std::int64_t>(x.size()) != mine || static_cast<std::int64_t>(y.size()) != mine) {
        const bool bad_x = static_cast<std::int64_t>(x.size()) != mine;
        error =
            argument_message(name,
                             bad_x ? "x.size()" : "y.size()",
                             std::to_string(bad_x ? x.size() : y.size()),
                             "must be vectors.local_size(" + std::to_string(g.rank()) + ") = " + std::to_string(mine));
    }
    Agreement(g, name)
        .same("A.n()", A.n())
        .same("A.mapping()", static_cast<long long>(A.mapping()), to_string(A.mapping()))
        .same("vectors.global_size()", static_cast<long long>(vectors.global_size()))
        .same_real("alpha", static_cast<double>(alpha))
        .same_real("beta", static_cast<double>(beta))
        .same("options.overlap", options.overlap ? 1 : 0)
        .error(error)
        .check();
    if (alpha == T{}) {  // as BLAS and the product in A's layout: y = βy, neither A nor x read, nothing sent
        std::transform(y.begin(), y.end(), y.begin(), [beta](T old) { return beta == T{} ? T{} : beta * old; });
        return;
    }
    const std::vector<T> xl = redistribute(g, vectors, A.layout(), x);
    std::vector<T> yl = beta == T{} ? std::vector<T>(static_cast<std::size_t>(A.local_rows()))
                                    : redistribute(g, vectors, A.layout(), std::span<const T>(y));
    detail::symv_in_layout<T>(g, alpha, A, xl, beta, yl, options);
    const std::vector<T> back = redistribute(g, A.layout(), vectors, std::span<const T>(yl));
    std::copy(back.begin(), back.end(), y.begin());
}

/// y = αAx + βy with x and y in contiguous balanced blocks, BlockDistribution(A.n(), P) — as a user's code holds them:
/// rank r holds entries [start(r), start(r) + local_size(r)), ⌊n/P⌋ and one more on the first n mod P ranks. The
/// same as symv(g, α, A, BlockDistribution(A.n(), g.size()), x, β, y, options): with the reflection mapping x and y are
/// redistributed to A's layout and back; pass A.layout() as the distribution to keep vectors in A's layout
/// (distribute_vector, gather_vector) and redistribute nothing, e.g. over the iterations of a Krylov solver.
/// @throws llc::Error as above (x.size() or y.size() not this rank's block size, …).
template <class T>
void symv(Group& g,
          std::type_identity_t<T> alpha,
          const SymmetricMatrix<T>& A,
          std::type_identity_t<std::span<const T>> x,
          std::type_identity_t<T> beta,
          std::type_identity_t<std::span<T>> y,
          const SymvOptions& options = {}) {
    symv<T>(g, alpha, A, BlockDistribution(std::max<std::int64_t>(A.n(), 0), g.size()), x, beta, y, options);
}

/// This rank's entries of a vector replicated on every rank (length n), in A's layout. Local, no communication.
/// @throws llc::Error (on this rank) when full.size() != layout.n().
template <class T>
[[nodiscard]] std::vector<T> distribute_vector(const SymvLayout& layout, int rank, std::span<const T> full);

/// The whole vector from every rank's entries (A's layout), on every rank (root < 0) or on `root` only (empty
/// elsewhere). Collective over g. @throws llc::Error on every rank when local.size() is not this rank's row count.
template <class T>
[[nodiscard]] std::vector<T> gather_vector(Group& g, const SymvLayout& layout, std::span<const T> local, int root = -1);

/// distribute_vector and gather_vector of a contiguous range (a std::vector, a std::array).
template <detail::InputRange R>
[[nodiscard]] std::vector<std::ranges::range_value_t<R>> distribute_vector(const SymvLayout& layout,
                                                                           int rank,
                                                                           const R& full) {
    return distribute_vector(layout, rank, detail::input_span(full));
}
template <detail::InputRange R>
[[nodiscard]] std::vector<std::ranges::range_value_t<R>> gather_vector(Group& g,
                                                                       const SymvLayout& layout,
                                                                       const R& local,
                                                                       int root = -1) {
    return gather_vector(g, layout, detail::input_span(local), root);
}

/// Sequential references.
namespace sequential {
/// y = αAx + βy with A full n × n row-major, only `triangle` read, one plain loop per entry (a reference; the tests
/// hold it against their own loop and CBLAS).
template <class T>
void symv_full(
    std::int64_t n, T alpha, std::span<const T> A, Triangle triangle, std::span<const T> x, T beta, std::span<T> y);
}  // namespace sequential

namespace cost {

/// The CCM cost of symv on P processors, order n, with `mapping` (article [3] §4.2), the same supersteps as the run:
/// reflection: an allgatherv "symv.x" of x, then P − 1 overlapped (or normal) shifts "symv.ring" of the busiest
/// processor's block pair of partial sums, each hiding the next step's block products (V: entries × τ("symv.entry",
/// seconds per packed entry, read at the block whose footprint is the busiest rank's entries)), and a final compute of
/// the remaining blocks. Standard: P − 1 shifts of x blocks with one block of full rows per step, τ("symv.row").
/// Summed, the work is the article's T_a = n²τ_a/P and the messages its T_c = (P−1)(β + (n/P)τ_c).
/// The labels and kernel keys are those of <llc/algorithms/symv_names.hpp>.
/// @throws llc::Error for P < 1, n < 1, or a profile without the mapping's kernel table ("symv.entry.2^e" or
///         "symv.row.2^e"): the message names the key and the llc-probe that writes it; there is no fallback.
[[nodiscard]] Expr symv(int P, std::int64_t n, SymvMapping mapping, const Profile& profile, bool overlap = true);

/// Where a split-phase shift (Group::shift_start … wait) moves its data: in the background, while the work between its
/// start and its wait runs (article [3]'s machine; symv above prices the overlapped ring so, T_f hidden by that work
/// up to its length), or only inside MPI calls: at its start (the agreement on the ring, the posting) and at its wait,
/// so that the whole of T_f comes after the work. The second is what llc runs over an MPI without a progress thread,
/// as Open MPI's shared-memory transport: on the 2-core VM (2026-11-27, loaded, 400 shifts a point, p10) a
/// split-phase shift took the same time beyond the work with 0, 5, 20 or 100 µs of work between start and wait, at 1,
/// 2, 4, 8, 16 and 64 KiB each way (1.9 / 2.0–2.3 / 3.0 / 3.3 / 3.6–3.7 / 5.5 µs).
enum class ShiftProgress { background, in_calls };

/// symv(P, n, mapping, profile, overlap) with the overlapped shifts' data moving as `progress` says: `background` is
/// that function; `in_calls` prices each overlapped step as its work followed by the whole split-phase shift
/// ("shift.overlap", measured from start to wait), the same supersteps and labels.
[[nodiscard]] Expr symv(
    int P, std::int64_t n, SymvMapping mapping, const Profile& profile, bool overlap, ShiftProgress progress);

/// Article [3]'s closed forms: no overlap T = n²τ_a/p + (p−1)(β + (n/p)τ_c) (§4.2.1; distributed x: 2n/p words), and
/// the smallest n for which the overlap hides the communication, n ≥ p(τ_c + √(τ_c² + 2βτ_a))/τ_a (§4.2.2, (*)).
[[nodiscard]] double grigg_symv_time(
    double n, double p, double beta, double tau_c, double tau_a, bool distributed_x = false);
[[nodiscard]] double grigg_symv_overlap_threshold(double p, double beta, double tau_c, double tau_a);

}  // namespace cost

namespace cost {
/// The CCM cost of symv(g, α, A, vectors, x, β, y, {.overlap = overlap}) with entries of `element_bytes`: when
/// `vectors` places the entries as A's layout, symv(P, n, mapping, profile, overlap); otherwise the sequence
/// names::symv::redistributed of redistribute(vectors, layout) for x, the same for y when `beta_nonzero`, the product,
/// and redistribute(layout, vectors) for y — the supersteps the call runs (α ≠ 0). The plain call's vectors are
/// BlockDistribution(n, P). @throws llc::Error as symv and redistribute.
template <Distribution D>
[[nodiscard]] Expr symv(int P,
                        std::int64_t n,
                        SymvMapping mapping,
                        const D& vectors,
                        const Profile& profile,
                        bool overlap,
                        bool beta_nonzero,
                        std::size_t element_bytes = sizeof(double)) {
    const SymvLayout layout(n, P, mapping);
    Expr product = symv(P, n, mapping, profile, overlap);
    if (::llc::detail::places_as(vectors, layout)) {
        return product;
    }
    std::vector<Expr> items{redistribute(vectors, layout, element_bytes)};
    if (beta_nonzero) {
        items.push_back(redistribute(vectors, layout, element_bytes));
    }
    items.push_back(std::move(product));
    items.push_back(redistribute(layout, vectors, element_bytes));
    return Expr::sequence(names::symv::redistributed, std::move(items));
}
}  // namespace cost

template <class T>
cost::Expr SymmetricMatrix<T>::cost(const cost::Profile& profile, bool overlap) const {
    return cost::symv(P(), n(), mapping(), profile, overlap);
}

}  // namespace llc

namespace llc::detail::symv {
/// The kernel probes whose constants cost::symv reads (llc-probe runs them through symv's card):
/// "symv.entry_share.2^e" and "symv.row_share.2^e" (and their "_solo" variants), e = probe_min_e … probe_max_e
/// (… probe_max_e_smpi under SimGrid SMPI, where every simulated rank's share lives in the one simulating process).
[[nodiscard]] std::vector<cost::KernelProbe> kernel_probes();
inline constexpr int probe_min_e = 3;
inline constexpr int probe_max_e = 12;
inline constexpr int probe_max_e_smpi = 11;
/// The rows n of the product whose rank's share the probe at 2^e runs on P processors (P = 1: alone): never a
/// validated size (tests/symv/symv_probe_sizes_test.cpp).
[[nodiscard]] std::int64_t probe_rows(int e, int P, SymvMapping mapping);
}  // namespace llc::detail::symv
