#pragma once
// The interval-DP engine of article [1] and its min-plus kernel (private to llc_algorithms).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/algorithms/matrix_chain_names.hpp>
#include <llc/group.hpp>
#include <llc/huge_pages.hpp>
#include <llc/trace.hpp>

#include "chain_policy.hpp"
#include "min_plus.hpp"
#include "min_plus_tile.hpp"

namespace llc::detail::interval_dp {

/// An uninitialised array of `count` values for the table and the trapezoid buffers. Arrays of 256 KiB or more are
/// rounded up to whole transparent huge pages (2 MiB on x86-64) on a mapping of their own (llc::map_huge_pages): the
/// engine writes every entry of a fresh table once, and on the para-virtualised 2-core VM a first touch of a 4 KiB page
/// cost ≈ 16 µs (64 MiB touched: 0.26 s with 4 KiB pages, 4.5 ms on huge pages once the VM had backed them) — at n =
/// 500, P = 1 the 384 pages of the table were about 6 ms of a 14 ms run. Where the kernel offers no huge pages the
/// advice is ignored; and such arrays given back by a finished run are reused (take_block, src/block_cache.cpp), so
/// that a loop of runs does not fault its tables in again each time.
template <class T>
std::unique_ptr<T[], FreeDeleter> fresh_array(std::size_t count) {
    const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
    // Large: a block of this size given back by an earlier run, if kept (its pages touched already), else a mapping
    // of its own on huge pages; small ones from the allocator, which keeps those itself.
    void* p = bytes >= huge_page_bytes / 8
                  ? take_block(whole_huge_pages(bytes))
                  : std::aligned_alloc(64, (bytes + 63) / 64 * 64);  // aligned_alloc's contract
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    return std::unique_ptr<T[], FreeDeleter>(static_cast<T*>(p));
}

/// compute_edges' buffers for the push form of an off-diagonal block's edges (kept across blocks).
template <class T>
struct EdgeWork {
    std::vector<T> val;             ///< the best value of c(i, j) so far, j in the column block
    std::vector<std::int64_t> arg;  ///< its k
    std::vector<T> fresh;           ///< c(i, j) of the block, row-major (rows below i, for the lower edge)
    std::vector<T> diag;            ///< c(k, j) of the column block's diagonal block, row-major (the upper edge)
    LowerEdgeGroup lower;           ///< the lower edges' group of rows, for a policy's push_rows_grouped
};

/// How the engine computes one entry. Policy: `Best<T> range(i, j, k0, k1, row, col)`, the min-plus over k in
/// [k0, k1) with row = &c(i, k0) and col = &c(k0 + 1, j), its m the absolute k (a value above every cost when the
/// range is empty); and `T finish(i, j, T min)`, the k-independent part.
template <class T>
struct Geometry {
    std::int64_t n;
    std::int64_t r;
    int P;
    int rank;
    [[nodiscard]] std::int64_t blocks() const { return (n + r - 1) / r; }
    [[nodiscard]] std::int64_t begin(std::int64_t b) const { return b * r; }
    [[nodiscard]] std::int64_t end(std::int64_t b) const { return std::min(n, (b + 1) * r); }
    [[nodiscard]] bool mine(std::int64_t b) const { return b % P == rank; }
};

/// Entries of the trapezoid of row block a whose rows run to column `last` (exclusive): Σ_i (last − i).
inline std::int64_t trapezoid_size(std::int64_t a_begin, std::int64_t a_end, std::int64_t last) {
    std::int64_t s = 0;
    for (std::int64_t i = a_begin; i < a_end; ++i) {
        s += last - i;
    }
    return s;
}

/// The better of two candidates: the smaller value, and on a tie the smaller k (the sequential DP's rule).
template <class T>
Best<T> better(const Best<T>& x, const Best<T>& y) {
    return (y.value < x.value || (y.value == x.value && y.m < x.m)) ? y : x;
}

/// The k range of one pass over the middle of a block: long enough to pay for the call (each min_plus_pair call ends
/// in two lane merges and two scans for the first k), short enough that the rows and columns of a whole r × r block
/// stay in the core's L2 (2·r·K values of 8 bytes ≈ 1 MiB: half of the 2 MiB L2 the VM of 2026-11-26 reported, all of
/// the 1 MiB L2 of 2026-11-27's, where chunks of 0.5, 1.5 and 2 times this length made no difference the noise let
/// through at n = 4000, P = 2; with 512 KiB a range of 512 ran 0.205 ns an update against 0.182 for 1024,
/// micro-benchmark of min_plus_pair, CPU time, best of 5), and a whole
/// number of min_plus's groups (4 vectors of 8 values), so that only a range's last chunk has a tail: at r = 103 (the
/// default r at P = 2, n = 4000) chunks of 312 ran the middle at 0.34 ns an update against 0.22 ns with chunks of 288.
inline std::int64_t chunk_length(std::int64_t r) {
    constexpr std::int64_t group = 32;
    return std::max<std::int64_t>(256, ((std::int64_t{1} << 16) / std::max<std::int64_t>(r, 1)) / group * group);
}

/// The rows and columns of one block: rows i in [a0, a1), columns j in [b0, b1); diagonal when they are the same
/// indices. The received trapezoid `in` holds c(i, i..b0−1) row after row (nothing when diagonal).
struct BlockSpan {
    std::int64_t a0;
    std::int64_t a1;
    std::int64_t b0;
    std::int64_t b1;
    [[nodiscard]] bool diagonal() const { return a0 == b0; }
    /// Where row i of the received trapezoid starts in `in` (entry k at + (k − i)).
    [[nodiscard]] std::int64_t in_row(std::int64_t i) const { return trapezoid_size(a0, i, b0); }
};

/// The exact k of the middle's entries in rows [s.a0, four_row_end), whose k compute_middle's four-row pass left as
/// group starts (policy.range4_coarse): one scan of 32 k per entry, over the middle range [s.a1 − 1, s.b0).
template <class T, class Policy>
void resolve_middle(IntervalTable<T>& table,
                    const Policy& policy,
                    const BlockSpan& s,
                    const T* in,
                    std::int64_t four_row_end,
                    std::vector<Best<T>>& middle) {
    const std::int64_t width = s.b1 - s.b0;
    const std::int64_t kb = s.a1 - 1;
    const T* row = in + (kb - s.a0);  // c(i, kb) of row i = s.a0; each next row of the trapezoid is one shorter
    for (std::int64_t i = s.a0; i < four_row_end; ++i) {
        Best<T>* acc = middle.data() + (i - s.a0) * width;
        for (std::int64_t j = s.b0; j < s.b1; ++j) {
            Best<T>& x = acc[j - s.b0];
            const T* col = detail::interval_table_storage(table).column(j) + kb + 1;
            x.m = policy.first_in_group(i, j, kb, s.b0, row, col, x);
        }
        row += s.b0 - i - 1;
    }
}

/// compute_middle by the tagged tile (min_plus_tile.hpp; a policy with `k_in_fraction`, a block of four rows or more):
/// per chunk of at most 1024 k, each pass copies four rows with m·2^−10 added to entry m, then runs them against the
/// block's columns two at a time. The last 1 … 3 rows ride on one more pass over the block's last four, of which only
/// the rows not done yet are merged. Each result is exact (no group start to resolve): the chunks' minima are merged
/// by value, k ascending.
template <class T, class Policy>
void compute_middle_tagged(IntervalTable<T>& table,
                           const Policy& policy,
                           const BlockSpan& s,
                           std::int64_t K,
                           const T* in,
                           std::vector<Best<T>>& middle) {
    const std::int64_t width = s.b1 - s.b0;
    K = std::min(K, k_fraction_span);
    alignas(64) std::array<T, 4 * k_fraction_span> tagged;
    alignas(64) std::array<T, k_fraction_span> ramp;
    for (std::int64_t m = 0; m < K; ++m) {
        ramp[static_cast<std::size_t>(m)] = static_cast<T>(m) * k_fraction;
    }
    const auto column = [&](std::int64_t j, std::int64_t k0) {
        return detail::interval_table_storage(table).column(j) + k0 + 1;
    };
    for (std::int64_t k0 = s.a1 - 1; k0 < s.b0; k0 += K) {
        const std::int64_t len = std::min(s.b0, k0 + K) - k0;
        const auto pass = [&](std::int64_t i4, std::int64_t from) {
            std::array<const T*, 4> rows;
            const T* src = in + s.in_row(i4) + (k0 - i4);  // c(i4, k0); each next row of the trapezoid one shorter
            for (std::size_t t = 0; t < 4; ++t) {
                if (t > 0) {
                    src += s.b0 - i4 - static_cast<std::int64_t>(t);
                }
                T* dst = tagged.data() + t * k_fraction_span;
                for (std::int64_t m = 0; m < len; ++m) {
                    dst[m] = src[m] + ramp[static_cast<std::size_t>(m)];
                }
                rows[t] = dst;
            }
            const auto merge = [&](std::int64_t j, const auto& minima) {
                for (std::size_t c = 0; c < minima.size(); ++c) {
                    for (std::int64_t t = from; t < 4; ++t) {
                        const T v = minima[c][static_cast<std::size_t>(t)];
                        const T value = std::floor(v);
                        Best<T>& x = middle[static_cast<std::size_t>((i4 + t - s.a0) * width + (j - s.b0)) + c];
                        if (value < x.value) {  // a later chunk's k are larger: a tie keeps x
                            x = {value, k0 + static_cast<std::int64_t>((v - value) * k_fraction_span)};
                        }
                    }
                }
            };
            std::int64_t j = s.b0;
            for (; j + 1 < s.b1; j += 2) {
                merge(j, policy.template tile<2>(i4, j, k0, len, rows, {column(j, k0), column(j + 1, k0)}));
            }
            if (j < s.b1) {
                merge(j, policy.template tile<1>(i4, j, k0, len, rows, {column(j, k0)}));
            }
        };
        std::int64_t i = s.a0;
        for (; i + 3 < s.a1; i += 4) {
            pass(i, 0);
        }
        if (i < s.a1) {
            pass(s.a1 - 4, i - (s.a1 - 4));
        }
    }
}

/// The middle k range [a1−1, b0) of an off-diagonal block, which needs only entries of earlier macro-steps: for the
/// whole block, in chunks of K values of k, so that each chunk of the block's rows and columns is read from cache
/// (b1 − b0) and (a1 − a0) times. middle[(i − a0)·width + (j − b0)] receives the best (value, k) of c(i, j) there.
template <class T, class Policy>
void compute_middle(IntervalTable<T>& table,
                    const Policy& policy,
                    const BlockSpan& s,
                    std::int64_t K,
                    const T* in,
                    std::vector<Best<T>>& middle) {
    const std::int64_t width = s.b1 - s.b0;
    middle.assign(static_cast<std::size_t>((s.a1 - s.a0) * width), Best<T>{std::numeric_limits<T>::max(), 0});
    if constexpr (requires { policy.k_in_fraction; }) {
        if (policy.k_in_fraction && s.a1 - s.a0 >= 4) {
            compute_middle_tagged(table, policy, s, K, in, middle);
            return;
        }
    }
    // Coarse: the four-row pass keeps, per entry, the start of the first group of 32 k holding its minimum (no scan
    // for the exact k at the end of every chunk: 8–10 % of the kernel at a 608-long chunk), made exact once per entry
    // after the last chunk (resolve_middle).
    constexpr bool coarse = requires {
        policy.range4_coarse(0, 0, 0, 0, std::array<const T*, 4>{}, in);
    };
    std::int64_t four_row_end = s.a0;
    for (std::int64_t k0 = s.a1 - 1; k0 < s.b0; k0 += K) {
        const std::int64_t k1 = std::min(s.b0, k0 + K);
        const T* row = in + (k0 - s.a0);
        std::int64_t i = s.a0;
        if constexpr (requires { policy.range4(i, i, k0, k1, std::array<const T*, 4>{}, row); }) {
            // Rows i4 … i4 + 3 (rows[t] = &c(i4 + t, k0)) against every column of the block; rows i4 + from … merged.
            const auto four_rows = [&](std::int64_t i4, const std::array<const T*, 4>& rows, std::int64_t from) {
                Best<T>* acc = middle.data() + (i4 - s.a0) * width;
                for (std::int64_t j = s.b0; j < s.b1; ++j) {
                    const T* col = detail::interval_table_storage(table).column(j) + k0 + 1;
                    std::array<Best<T>, 4> b;
                    if constexpr (coarse) {
                        b = policy.range4_coarse(i4, j, k0, k1, rows, col);
                    } else {
                        b = policy.range4(i4, j, k0, k1, rows, col);
                    }
                    for (std::int64_t t = from; t < 4; ++t) {
                        Best<T>& x = acc[t * width + (j - s.b0)];
                        x = better(x, b[static_cast<std::size_t>(t)]);
                    }
                }
            };
            for (; i + 3 < s.a1; i += 4) {  // four rows a pass: each column is read once for the four
                std::array<const T*, 4> rows{row, nullptr, nullptr, nullptr};
                for (std::size_t t = 1; t < 4; ++t) {
                    rows[t] = rows[t - 1] + (s.b0 - i - static_cast<std::int64_t>(t));
                }
                four_rows(i, rows, 0);
                row = rows[3] + (s.b0 - i - 4);
            }
            if (i < s.a1 && s.a1 - s.a0 >= 4) {
                // The last 1 … 3 rows by one more four-row pass over the block's last four rows, of which only the
                // rows not done yet are merged: a pass of two rows or one (below, with a scan for the exact k in
                // every chunk) cost about twice as much an update (3 % of a P = 2 run at n = 4000, r = 103, in perf).
                const std::int64_t last = s.a1 - 4;
                std::array<const T*, 4> rows{};
                for (std::size_t t = 0; t < 4; ++t) {
                    const std::int64_t it = last + static_cast<std::int64_t>(t);
                    rows[t] = in + s.in_row(it) + (k0 - it);
                }
                four_rows(last, rows, i - last);
                i = s.a1;
            }
            four_row_end = i;
        }
        if constexpr (requires { policy.range2(i, i, k0, k1, row, row, row); }) {
            for (; i + 1 < s.a1; i += 2) {  // two rows a pass: each column is read once for both
                const T* next = row + (s.b0 - i - 1);
                Best<T>* acc0 = middle.data() + (i - s.a0) * width;
                Best<T>* acc1 = acc0 + width;
                for (std::int64_t j = s.b0; j < s.b1; ++j) {
                    const std::array<Best<T>, 2> b = policy.range2(
                        i, j, k0, k1, row, next, detail::interval_table_storage(table).column(j) + k0 + 1);
                    acc0[j - s.b0] = better(acc0[j - s.b0], b[0]);
                    acc1[j - s.b0] = better(acc1[j - s.b0], b[1]);
                }
                row = next + (s.b0 - i - 2);
            }
        }
        for (; i < s.a1; ++i) {
            Best<T>* acc = middle.data() + (i - s.a0) * width;
            for (std::int64_t j = s.b0; j < s.b1; ++j) {
                acc[j - s.b0] =
                    better(acc[j - s.b0],
                           policy.range(i, j, k0, k1, row, detail::interval_table_storage(table).column(j) + k0 + 1));
            }
            row += s.b0 - i - 1;  // the next row of the trapezoid, at the same k0
        }
    }
    if constexpr (coarse) {
        resolve_middle(table, policy, s, in, four_row_end, middle);
    }
}

/// compute_edges for an off-diagonal block in push form: row by row bottom up, the lower edge k in [i, a1−1) ascending
/// pushes c(i,k) + c(k+1, j) to every j of the block at once (c(k+1, ·) a row of `fresh`), the middle's best is merged,
/// then for j left to right c(i, j) is final and pushed, as k = j, to the j' > j (c(j+1, ·) a row of the column block's
/// diagonal block). Every loop runs along j over contiguous values, without the per-entry horizontal minimum of
/// range. The candidates are the same values, and taking them k ascending with strict < (the middle merged by (value,
/// k) between the two edges, whose k lie below and above it) keeps the smallest optimal k: bit-identical to range.
template <class T, class Policy>
void push_edges(IntervalTable<T>& table,
                const Policy& policy,
                const BlockSpan& s,
                const T* in,
                T* out,
                std::vector<T>& scratch,
                const std::vector<Best<T>>& middle,
                EdgeWork<T>& work) {
    const std::int64_t width = s.b1 - s.b0;
    const auto w = static_cast<std::size_t>(width);
    work.val.resize(w);
    work.arg.resize(w);
    work.fresh.resize(static_cast<std::size_t>(s.a1 - s.a0) * w);
    work.diag.resize(w * w);
    for (std::int64_t j = s.b0; j < s.b1; ++j) {
        const T* col = detail::interval_table_storage(table).column(j);
        for (std::int64_t k = s.b0; k <= j; ++k) {
            work.diag[static_cast<std::size_t>((k - s.b0) * width + (j - s.b0))] = col[k];
        }
    }
    T* val = work.val.data();
    std::int64_t* arg = work.arg.data();
    std::int64_t out_pos = out != nullptr ? trapezoid_size(s.a0, s.a1, s.b1) : 0;
    for (std::int64_t i = s.a1 - 1; i >= s.a0; --i) {
        T* row = scratch.data();
        if (out != nullptr) {
            out_pos -= s.b1 - i;
            row = out + out_pos;
        }
        std::copy_n(in + s.in_row(i), s.b0 - i, row);
        std::fill_n(val, width, std::numeric_limits<T>::max());
        std::fill_n(arg, width, std::int64_t{0});
        if constexpr (requires { policy.push_rows_grouped(i, i, i, i, i, row, row, val, arg, work.lower); }) {
            if (!policy.push_rows_grouped(
                    i, s.a0, s.a1, s.b0, width, in + s.in_row(i), work.fresh.data(), val, arg, work.lower)) {
                policy.push_rows(
                    i, i, s.a1 - 1, row, work.fresh.data() + (i + 1 - s.a0) * width, width, s.b0, val, arg);
            }
        } else if constexpr (requires { policy.push_rows(i, i, i, row, row, i, i, val, arg); }) {
            policy.push_rows(i, i, s.a1 - 1, row, work.fresh.data() + (i + 1 - s.a0) * width, width, s.b0, val, arg);
        } else {
            for (std::int64_t k = i; k < s.a1 - 1; ++k) {
                policy.push(i, k, row[k - i], work.fresh.data() + (k + 1 - s.a0) * width, s.b0, width, val, arg);
            }
        }
        const Best<T>* mid = middle.data() + (i - s.a0) * width;
        for (std::int64_t j = 0; j < width; ++j) {
            const Best<T> b = better(Best<T>{val[j], arg[j]}, mid[j]);
            val[j] = b.value;
            arg[j] = b.m;
        }
        T* fresh = work.fresh.data() + (i - s.a0) * width;
        const auto finish = [&](std::int64_t j, T value, std::int64_t k) {
            row[j - i] = value;
            fresh[j - s.b0] = value;
            detail::interval_table_storage(table).column(j)[i] = value;
            detail::interval_table_storage(table).split_column(j)[i] = static_cast<std::int32_t>(k);
        };
        if constexpr (requires { policy.upper_edge(i, i, i, row, row, val, arg, finish); }) {
            if (policy.upper_edge(i, s.b0, s.b1, row, work.diag.data(), val, arg, finish)) {
                continue;
            }
        }
        for (std::int64_t j = s.b0; j < s.b1; ++j) {
            const T value = policy.finish(i, j, val[j - s.b0]);
            finish(j, value, arg[j - s.b0]);
            if (j + 1 < s.b1) {
                policy.push(i,
                            j,
                            value,
                            work.diag.data() + (j + 1 - s.b0) * width + (j + 1 - s.b0),
                            j + 1,
                            s.b1 - j - 1,
                            val + (j + 1 - s.b0),
                            arg + (j + 1 - s.b0));
            }
        }
    }
}

/// The rest of the block, in dependency order (rows bottom up, columns left to right): for an off-diagonal block the
/// two edge k ranges [i, a1−1) (c(k+1, j) of this block's rows below i) and [b0, j) (c(i, k) of this block's columns
/// left of j), merged with `middle`; for a diagonal block the whole range [i, j). Merging by (value, k) keeps the
/// smallest optimal k, as the sequential loop does. Writes c(i, j) and its k to the table, and the rows extended by
/// the new entries to `out` when not null (the trapezoid passed on at the next macro-step), else through `scratch`.
template <class T, class Policy>
void compute_edges(IntervalTable<T>& table,
                   const Policy& policy,
                   const BlockSpan& s,
                   const T* in,
                   T* out,
                   std::vector<T>& scratch,
                   const std::vector<Best<T>>& middle,
                   EdgeWork<T>& work) {
    const std::int64_t width = s.b1 - s.b0;
    const bool diagonal = s.diagonal();
    if (!diagonal && policy.pushes()) {
        push_edges(table, policy, s, in, out, scratch, middle, work);
        return;
    }
    std::int64_t out_pos = out != nullptr ? trapezoid_size(s.a0, s.a1, s.b1) : 0;
    for (std::int64_t i = s.a1 - 1; i >= s.a0; --i) {
        T* row = scratch.data();
        if (out != nullptr) {
            out_pos -= s.b1 - i;
            row = out + out_pos;
        }
        std::int64_t j = s.b0;
        if (diagonal) {
            row[0] = T{0};
            detail::interval_table_storage(table).column(i)[i] = T{0};
            detail::interval_table_storage(table).split_column(i)[i] = static_cast<std::int32_t>(i);
            j = i + 1;
        } else {
            std::copy_n(in + s.in_row(i), s.b0 - i, row);
        }
        for (; j < s.b1; ++j) {
            T* col = detail::interval_table_storage(table).column(j);
            const std::int64_t lower_end = diagonal ? j : s.a1 - 1;
            Best<T> best = policy.range(i, j, i, lower_end, row, col + i + 1);
            if (!diagonal) {
                best = better(best, middle[static_cast<std::size_t>((i - s.a0) * width + (j - s.b0))]);
                best = better(best, policy.range(i, j, s.b0, j, row + (s.b0 - i), col + s.b0 + 1));
            }
            const T value = policy.finish(i, j, best.value);
            row[j - i] = value;
            col[i] = value;
            detail::interval_table_storage(table).split_column(j)[i] = static_cast<std::int32_t>(best.m);
        }
    }
}

/// Computes block (a, b): rows i of row block a, columns j of column block b. `in` holds the received trapezoid
/// c(i, i..b·r−1) (nothing when a = b); the rows extended by the new entries go to `out` when not null (the trapezoid
/// passed on at the next macro-step), else through a scratch row.
///
/// For a < b the k of c(i,j) fall in three ranges: [i, a_end−1) needs c(k+1, j) of this block's rows below i;
/// [b_begin, j) needs c(i, k) of this block's columns left of j; the middle [a_end−1, b_begin) needs only entries of
/// earlier macro-steps. The middle, nearly all the work, runs first for the whole block (compute_middle); the edges
/// then run in dependency order (compute_edges). llc-probe times these two functions ("mc.update", "mc.edge",
/// "mc.diag"), so the cost model's constants are the engine's own code.
template <class T, class Policy>
void compute_block(const Geometry<T>& geo,
                   IntervalTable<T>& table,
                   const Policy& policy,
                   std::int64_t a,
                   std::int64_t b,
                   const T* in,
                   T* out,
                   std::vector<T>& scratch,
                   std::vector<Best<T>>& middle,
                   EdgeWork<T>& work) {
    const BlockSpan s{geo.begin(a), geo.end(a), geo.begin(b), geo.end(b)};
    if (!s.diagonal()) {
        compute_middle(table, policy, s, chunk_length(geo.r), in, middle);
    }
    compute_edges(table, policy, s, in, out, scratch, middle, work);
}

/// A message buffer that grows without initialising what it adds (every entry is written before it is read) and keeps
/// its memory across macro-steps, so that the trapezoids cost neither a memset nor fresh pages each step.
template <class T>
class Buffer {
  public:
    void resize(std::size_t n) {
        if (n > capacity_) {
            capacity_ = std::max(n, capacity_ + capacity_ / 2);
            data_ = fresh_array<T>(capacity_);
        }
        size_ = n;
    }
    /// Capacity for n values at least, without changing the size.
    void reserve(std::size_t n) {
        const std::size_t size = size_;
        resize(n);
        size_ = size;
    }
    [[nodiscard]] T* data() noexcept { return data_.get(); }
    [[nodiscard]] std::span<const T> view() const noexcept { return {data_.get(), size_}; }
    [[nodiscard]] std::span<T> view() noexcept { return {data_.get(), size_}; }
    void swap(Buffer& other) noexcept {
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
    }

  private:
    std::unique_ptr<T[], FreeDeleter> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

/// Runs the ring algorithm of article [1] on g: macro-step 0 computes each processor's diagonal blocks; macro-step
/// d ≥ 1 rotates the trapezoids one place along the ring (Group::shift, label names::matrix_chain::rotate, the
/// superstep cost::matrix_chain prices under that name) and computes the blocks (b − d, b) of the processor's column
/// blocks b ≥ d. Returns this processor's columns.
template <class T, class Policy>
IntervalTable<T> run(
    Group& g, std::int64_t n, std::int64_t r, const Policy& policy, std::vector<ReceivedEntries>* received) {
    const Geometry<T> geo{n, r, g.size(), g.rank()};
    IntervalTable<T> table(n, r, g.size(), g.rank());
    const std::int64_t B = geo.blocks();
    Buffer<T> send;
    Buffer<T> recv;
    std::vector<T> scratch(static_cast<std::size_t>(std::min(n, r * B)) + 1);
    std::vector<Best<T>> middle;
    EdgeWork<T> work;
    // The trapezoids this processor computes at macro-step d for its blocks b ≥ d, and passes on if b ≤ B − 2.
    const auto out_size_at = [&](std::int64_t d) {
        std::int64_t size = 0;
        for (std::int64_t b = d; b <= B - 2; ++b) {
            if (geo.mine(b)) {
                size += trapezoid_size(geo.begin(b - d), geo.end(b - d), geo.end(b));
            }
        }
        return size;
    };
    // The trapezoids it receives at macro-step d ≥ 1.
    const auto in_size_at = [&](std::int64_t d) {
        std::int64_t size = 0;
        for (std::int64_t b = d; b < B; ++b) {
            if (geo.mine(b)) {
                size += trapezoid_size(geo.begin(b - d), geo.end(b - d), geo.begin(b));
            }
        }
        return size;
    };
    // Both buffers at their largest size before the first step (the ring of one swaps them): grown step by step,
    // each growth took a new array and gave the last one to the engine's cache (block_cache.cpp), so that a run left
    // its outgrown buffer arrays there too, and the cache's 16 arrays no longer held the tables of the run before — a
    // loop alternating two sizes or processor counts (llc-compare matrix-chain: P = 2 and P = 1 at n = 4000) faulted
    // its tables in afresh each time (the kernel's clear_page 6 % of rank 0's cycles).
    std::int64_t largest = 0;
    for (std::int64_t d = 0; d < B; ++d) {
        largest = std::max({largest, out_size_at(d), d > 0 ? in_size_at(d) : 0});
    }
    send.reserve(static_cast<std::size_t>(largest));
    recv.reserve(static_cast<std::size_t>(largest));
    const auto step = [&](std::int64_t d) {
        const std::int64_t out_size = out_size_at(d);
        send.resize(static_cast<std::size_t>(out_size));
        std::int64_t in_pos = 0;
        std::int64_t out_pos = 0;
        for (std::int64_t b = d; b < B; ++b) {
            if (!geo.mine(b)) {
                continue;
            }
            const std::int64_t a = b - d;
            T* out = b <= B - 2 ? send.data() + out_pos : nullptr;
            compute_block(geo, table, policy, a, b, recv.data() + in_pos, out, scratch, middle, work);
            if (d > 0) {
                in_pos += trapezoid_size(geo.begin(a), geo.end(a), geo.begin(b));
            }
            if (out != nullptr) {
                out_pos += trapezoid_size(geo.begin(a), geo.end(a), geo.end(b));
            }
        }
    };
    step(0);
    for (std::int64_t d = 1; d < B; ++d) {
        const std::int64_t in_size = in_size_at(d);
        if (g.size() == 1) {
            recv.swap(send);  // the ring of one: what it would send to itself
        } else {
            recv.resize(static_cast<std::size_t>(in_size));
            const Label label(names::matrix_chain::rotate);
            g.shift(std::as_const(send).view(), recv.view());
        }
        if (received != nullptr) {
            ReceivedEntries& log = received->emplace_back();
            for (std::int64_t b = d; b < B; ++b) {
                if (geo.mine(b)) {
                    for (std::int64_t i = geo.begin(b - d); i < geo.end(b - d); ++i) {
                        for (std::int64_t k = i; k < geo.begin(b); ++k) {
                            log.push_back({i, k});
                        }
                    }
                }
            }
        }
        step(d);
    }
    return table;
}

}  // namespace llc::detail::interval_dp
