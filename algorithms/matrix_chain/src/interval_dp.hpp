#pragma once
// The interval-DP engine of article [1] and its min-plus kernel (private to llc_algorithms).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/group.hpp>

namespace llc::detail::interval_dp {

template <class T>
struct Best {
    T value;
    std::int64_t m;  ///< the smallest optimal k (min_plus: its offset in the range)
};

/// 64-byte vectors (GCC vector extensions: AVX-512 registers where the build targets them, pairs of AVX2 otherwise).
template <class T>
struct Simd;
template <>
struct Simd<std::int64_t> {
    using V = std::int64_t __attribute__((vector_size(64)));
};
template <>
struct Simd<double> {
    using V = double __attribute__((vector_size(64)));
};
using Lanes = std::int64_t __attribute__((vector_size(64)));

/// min over m in [0, len) of row[m] + col[m] (+ a·g[m] when Weighted), and the smallest m reaching it. Both operands
/// contiguous, so the loop runs 64 bytes at a time (AVX-512 where the build targets it); each lane keeps its first
/// minimum (strict <), and the lanes' minima are merged smallest m first, so the tie rule is exactly the scalar one.
template <class T, bool Weighted>
Best<T> min_plus(const T* row, const T* col, const T* g, T a, std::int64_t len) {
    constexpr int lanes = 64 / sizeof(T);
    using V = typename Simd<T>::V;
    using I = Lanes;
    static_assert(sizeof(T) == 8, "min_plus: 64-bit values");
    T best = std::numeric_limits<T>::max();
    std::int64_t best_m = 0;
    std::int64_t m = 0;
    if (len >= 2 * lanes) {
        V vbest;
        I vm;
        I vidx;
        for (int l = 0; l < lanes; ++l) {
            vbest[l] = std::numeric_limits<T>::max();
            vm[l] = l;
            vidx[l] = l;
        }
        for (; m + lanes <= len; m += lanes) {
            V x;
            V y;
            std::memcpy(&x, row + m, sizeof(V));
            std::memcpy(&y, col + m, sizeof(V));
            V c = x + y;
            if constexpr (Weighted) {
                V z;
                std::memcpy(&z, g + m, sizeof(V));
                c += a * z;
            }
            const I less = c < vbest;
            vbest = less ? c : vbest;
            vm = less ? vidx : vm;
            vidx += lanes;
        }
        for (int l = 0; l < lanes; ++l) {
            if (vbest[l] < best || (vbest[l] == best && vm[l] < best_m)) {
                best = vbest[l];
                best_m = vm[l];
            }
        }
    }
    for (; m < len; ++m) {
        T c = row[m] + col[m];
        if constexpr (Weighted) {
            c += a * g[m];
        }
        if (c < best) {
            best = c;
            best_m = m;
        }
    }
    return {best, best_m};
}

/// The same with int64 arithmetic that saturates at INT64_MAX instead of wrapping: exact wherever the true value
/// fits, and INT64_MAX (≥ every representable cost) where it does not.
inline Best<std::int64_t> min_plus_saturating(
    const std::int64_t* row, const std::int64_t* col, const std::int64_t* g, std::int64_t a, std::int64_t len) {
    constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max();
    Best<std::int64_t> best{top, 0};
    for (std::int64_t m = 0; m < len; ++m) {
        std::int64_t c = 0;
        std::int64_t f = 0;
        if (__builtin_add_overflow(row[m], col[m], &c) || __builtin_mul_overflow(a, g[m], &f) ||
            __builtin_add_overflow(c, f, &c)) {
            c = top;
        }
        if (c < best.value) {
            best = {c, m};
        }
    }
    return best;
}

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

/// The k range of one pass over the middle of a block: long enough to pay for the call, short enough that the rows and
/// columns of a whole r × r block stay in the core's cache (2·r·K values of 8 bytes ≈ 512 KiB).
inline std::int64_t chunk_length(std::int64_t r) {
    return std::max<std::int64_t>(256, ((std::int64_t{1} << 15) / std::max<std::int64_t>(r, 1)) / 8 * 8);
}

/// Computes block (a, b): rows i of row block a, columns j of column block b. `in` holds the received trapezoid
/// c(i, i..b·r−1) (nothing when a = b); the rows extended by the new entries go to `out` when not null (the trapezoid
/// passed on at the next macro-step), else through a scratch row.
///
/// For a < b the k of c(i,j) fall in three ranges: [i, a_end−1) needs c(k+1, j) of this block's rows below i;
/// [b_begin, j) needs c(i, k) of this block's columns left of j; the middle [a_end−1, b_begin) needs only entries of
/// earlier macro-steps. The middle, nearly all the work, runs first for the whole block in chunks of k, so that each
/// chunk of the block's rows and columns is read from cache r times; the edges then run in dependency order (rows
/// bottom up, columns left to right). Merging by (value, k) keeps the smallest optimal k, as the sequential loop does.
template <class T, class Policy>
void compute_block(const Geometry<T>& geo,
                   IntervalTable<T>& table,
                   const Policy& policy,
                   std::int64_t a,
                   std::int64_t b,
                   const T* in,
                   T* out,
                   std::vector<T>& scratch,
                   std::vector<Best<T>>& middle) {
    const std::int64_t a0 = geo.begin(a);
    const std::int64_t a1 = geo.end(a);
    const std::int64_t b0 = geo.begin(b);
    const std::int64_t b1 = geo.end(b);
    const std::int64_t width = b1 - b0;
    const bool diagonal = a == b;
    // Row i of the received trapezoid starts at in_row[i − a0] (entry k at + (k − i)).
    std::vector<std::int64_t> in_row(static_cast<std::size_t>(a1 - a0), 0);
    for (std::int64_t i = a0 + 1; i < a1 && !diagonal; ++i) {
        in_row[static_cast<std::size_t>(i - a0)] = in_row[static_cast<std::size_t>(i - a0 - 1)] + (b0 - (i - 1));
    }
    if (!diagonal) {
        middle.assign(static_cast<std::size_t>((a1 - a0) * width), Best<T>{std::numeric_limits<T>::max(), 0});
        const std::int64_t K = chunk_length(geo.r);
        for (std::int64_t k0 = a1 - 1; k0 < b0; k0 += K) {
            const std::int64_t k1 = std::min(b0, k0 + K);
            for (std::int64_t i = a0; i < a1; ++i) {
                const T* row = in + in_row[static_cast<std::size_t>(i - a0)] + (k0 - i);
                Best<T>* acc = middle.data() + (i - a0) * width;
                for (std::int64_t j = b0; j < b1; ++j) {
                    acc[j - b0] = better(acc[j - b0], policy.range(i, j, k0, k1, row, table.column(j) + k0 + 1));
                }
            }
        }
    }
    std::int64_t out_pos = out != nullptr ? trapezoid_size(a0, a1, b1) : 0;
    for (std::int64_t i = a1 - 1; i >= a0; --i) {
        T* row = scratch.data();
        if (out != nullptr) {
            out_pos -= b1 - i;
            row = out + out_pos;
        }
        std::int64_t j = b0;
        if (diagonal) {
            row[0] = T{0};
            table.column(i)[i] = T{0};
            table.split_column(i)[i] = static_cast<std::int32_t>(i);
            j = i + 1;
        } else {
            std::copy_n(in + in_row[static_cast<std::size_t>(i - a0)], b0 - i, row);
        }
        for (; j < b1; ++j) {
            T* col = table.column(j);
            const std::int64_t lower_end = diagonal ? j : a1 - 1;
            Best<T> best = policy.range(i, j, i, lower_end, row, col + i + 1);
            if (!diagonal) {
                best = better(best, middle[static_cast<std::size_t>((i - a0) * width + (j - b0))]);
                best = better(best, policy.range(i, j, b0, j, row + (b0 - i), col + b0 + 1));
            }
            const T value = policy.finish(i, j, best.value);
            row[j - i] = value;
            col[i] = value;
            table.split_column(j)[i] = static_cast<std::int32_t>(best.m);
        }
    }
}

/// A message buffer that grows without initialising what it adds (every entry is written before it is read) and keeps
/// its memory across macro-steps, so that the trapezoids cost neither a memset nor fresh pages each step.
template <class T>
class Buffer {
  public:
    void resize(std::size_t n) {
        if (n > capacity_) {
            capacity_ = std::max(n, capacity_ + capacity_ / 2);
            data_ = std::make_unique_for_overwrite<T[]>(capacity_);
        }
        size_ = n;
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
    std::unique_ptr<T[]> data_;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
};

/// Runs the ring algorithm of article [1] on g: macro-step 0 computes each processor's diagonal blocks; macro-step
/// d ≥ 1 rotates the trapezoids one place along the ring (Group::shift, label "mc.rotate") and computes the blocks
/// (b − d, b) of the processor's column blocks b ≥ d. Returns this processor's columns.
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
    // The trapezoids this processor computes at macro-step d for its blocks b ≥ d, and passes on if b ≤ B − 2.
    const auto step = [&](std::int64_t d) {
        std::int64_t out_size = 0;
        for (std::int64_t b = d; b <= B - 2; ++b) {
            if (geo.mine(b)) {
                out_size += trapezoid_size(geo.begin(b - d), geo.end(b - d), geo.end(b));
            }
        }
        send.resize(static_cast<std::size_t>(out_size));
        std::int64_t in_pos = 0;
        std::int64_t out_pos = 0;
        for (std::int64_t b = d; b < B; ++b) {
            if (!geo.mine(b)) {
                continue;
            }
            const std::int64_t a = b - d;
            T* out = b <= B - 2 ? send.data() + out_pos : nullptr;
            compute_block(geo, table, policy, a, b, recv.data() + in_pos, out, scratch, middle);
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
        std::int64_t in_size = 0;
        for (std::int64_t b = d; b < B; ++b) {
            if (geo.mine(b)) {
                in_size += trapezoid_size(geo.begin(b - d), geo.end(b - d), geo.begin(b));
            }
        }
        if (g.size() == 1) {
            recv.swap(send);  // the ring of one: what it would send to itself
        } else {
            recv.resize(static_cast<std::size_t>(in_size));
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
