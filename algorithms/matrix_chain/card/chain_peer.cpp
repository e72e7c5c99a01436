// The headline peer of llc-compare matrix-chain: a one-processor matrix-chain DP written to be fast, not textbook.
//
// - Tables allocated and touched once (the constructor): a timed solve() writes every entry it reads, so nothing is
//   zeroed or faulted in per call.
// - Two layouts of the same upper triangle: c(i, k) row-major and c(k, j) transposed, so that the min-plus over k of
//   c(i, k) + c(k+1, j) reads two contiguous runs.
// - Register tiles: the middle k range runs four rows against four columns at once (min_plus_tile), so a vector of a
//   row, a column or the dimensions is loaded once for up to sixteen candidate vectors (9 loads for 16). On the 2-core
//   Zen 5 VM (2026-11-28, n = 4000, llc-compare's peer median) one row at a time ran 1.0-1.2 s, four rows against one
//   column 0.91 s, against two 0.72-0.77 s, three 0.66 s, four 0.63-0.64 s: near three vector operations (an add, a
//   fused multiply-add, a min) per candidate vector, which no tile removes. The odd columns' sums x + y taken as fused
//   multiply-adds by one (exact): 630-635 → 606-614 ms, the trick of llc's own tile (min_plus_tile.hpp), so that each
//   side has it.
// - Blocked: 64 × 64 tiles taken tile diagonal by tile diagonal. In a tile of rows [a0, a1) and columns [b0, b1) the
//   middle k range [a1 − 1, b0) needs only earlier tiles; it runs for the whole tile in chunks of k short enough that
//   the tile's rows and columns of a chunk stay in L2 (each is then read 64 times from cache, not from memory): 1024
//   k (tiles of 48, 64, 80, 96, 128 and chunks of 256 … 2048 tried, 2026-11-28 at n = 4000: 64 × 1024 and 64 × 1536
//   the fastest, 590-629 ms, 512 592-612, 256 639-642, 64 × 2048 617-629). The
//   two edge ranges (k in the tile's own rows or columns) follow, rows bottom up and columns left to right.
// - Values only in the inner loop (no argmin: a compare and a blend fewer per vector); the splits of the O(n) nodes
//   of the optimal tree are recovered afterwards by one O(n) scan each, smallest optimal k first — the tie rule of
//   llc::matrix_chain, so the parenthesisations are equal.
// - In double when every candidate is below 2^53 (n·max(d)³ < 2^53): the values are integers that double holds
//   exactly and every operation on them is exact, so the minimum (and the recovered splits) are the int64 ones; the
//   product then costs a multiply instead of vpmullq's three µops. int64 otherwise.
// - 64-byte GCC vectors (AVX-512 with -march=native), two accumulators to cover the latency.
#include "chain_peer.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#if defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <llc/error.hpp>

namespace llc::cards {

namespace {

constexpr std::int64_t tile = 64;
constexpr std::int64_t chunk = 1024;

template <class T>
struct Vec;
template <>
struct Vec<double> {
    using V = double __attribute__((vector_size(64)));
};
template <>
struct Vec<std::int64_t> {
    using V = std::int64_t __attribute__((vector_size(64)));
};

/// min over m in [0, len) of row[m] + col[m] + a·g[m] (the maximum of T when len = 0).
template <class T>
T min_plus(const T* row, const T* col, const T* g, T a, std::int64_t len) {
    using V = typename Vec<T>::V;
    constexpr std::int64_t lanes = 64 / sizeof(T);
    constexpr T top = std::numeric_limits<T>::max();
    T best = top;
    std::int64_t m = 0;
    if (len >= 2 * lanes) {
        V b0 = V{} + top;
        V b1 = b0;
        const V av = V{} + a;
        for (; m + 2 * lanes <= len; m += 2 * lanes) {
            V x0;
            V y0;
            V z0;
            V x1;
            V y1;
            V z1;
            std::memcpy(&x0, row + m, sizeof(V));
            std::memcpy(&y0, col + m, sizeof(V));
            std::memcpy(&z0, g + m, sizeof(V));
            std::memcpy(&x1, row + m + lanes, sizeof(V));
            std::memcpy(&y1, col + m + lanes, sizeof(V));
            std::memcpy(&z1, g + m + lanes, sizeof(V));
            const V c0 = x0 + y0 + av * z0;
            const V c1 = x1 + y1 + av * z1;
            b0 = c0 < b0 ? c0 : b0;
            b1 = c1 < b1 ? c1 : b1;
        }
        b0 = b1 < b0 ? b1 : b0;
        for (std::int64_t l = 0; l < lanes; ++l) {
            best = std::min(best, b0[l]);
        }
    }
    for (; m < len; ++m) {
        best = std::min(best, row[m] + col[m] + a * g[m]);
    }
    return best;
}

/// The min-plus of four rows against C columns at once (C = 1 … 4): out[c][t] = min over m in [0, len) of
/// rows[t][m] + cols[c][m] + a[c][t]·g[m]. Each vector of a column and of g is loaded once for the four rows and each
/// vector of a row once for the C columns: with C = 2, 7 loads for 8 vectors of candidates instead of 3 each in
/// min_plus. The empty asm statements keep those vectors in registers: without them GCC 12 folds a load into every
/// operation that uses it, which undoes the sharing. Values only; len ≥ 0.
template <class T, std::size_t C>
void min_plus_tile(const std::array<const T*, 4>& rows,
                   const std::array<const T*, C>& cols,
                   const T* g,
                   const std::array<std::array<T, 4>, C>& a,
                   std::int64_t len,
                   std::array<std::array<T, 4>, C>& out) {
    using V = typename Vec<T>::V;
    constexpr std::int64_t lanes = 64 / sizeof(T);
    constexpr T top = std::numeric_limits<T>::max();
    std::int64_t m = 0;
    for (auto& o : out) {
        o.fill(top);
    }
    if (len >= lanes) {
        std::array<std::array<V, 4>, C> acc;
        std::array<std::array<V, 4>, C> av;
        for (std::size_t c = 0; c < C; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                acc[c][t] = V{} + top;
                av[c][t] = V{} + a[c][t];
            }
        }
#if defined(__AVX512F__)
        V one = V{} + T{1};
        asm("" : "+v"(one));
#endif
        const auto load = [](const T* p) {
            V v;
            std::memcpy(&v, p, sizeof(V));
#if defined(__AVX512F__)
            asm("" : "+v"(v));
#endif
            return v;
        };
        for (; m + lanes <= len; m += lanes) {
            std::array<V, C> y;
            for (std::size_t c = 0; c < C; ++c) {
                y[c] = load(cols[c] + m);
            }
            const V z = load(g + m);
            for (std::size_t t = 0; t < 4; ++t) {
                const V x = load(rows[t] + m);
                for (std::size_t c = 0; c < C; ++c) {
                    V s = x + y[c];
#if defined(__AVX512F__)
                    if constexpr (std::is_same_v<T, double>) {
                        if (c % 2 == 1) {
                            // The odd columns' sums as fused multiply-adds by one (exact, as the add): the adds
                            // and minima otherwise crowd the pipes the multiply-adds leave idle.
                            s = reinterpret_cast<V>(_mm512_fmadd_pd(reinterpret_cast<__m512d>(x),
                                                                    reinterpret_cast<__m512d>(one),
                                                                    reinterpret_cast<__m512d>(y[c])));
                        }
                    }
#endif
                    const V v = s + av[c][t] * z;
                    acc[c][t] = v < acc[c][t] ? v : acc[c][t];
                }
            }
        }
        for (std::size_t c = 0; c < C; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                for (std::int64_t l = 0; l < lanes; ++l) {
                    out[c][t] = std::min(out[c][t], acc[c][t][l]);
                }
            }
        }
    }
    for (; m < len; ++m) {
        for (std::size_t c = 0; c < C; ++c) {
            for (std::size_t t = 0; t < 4; ++t) {
                out[c][t] = std::min(out[c][t], rows[t][m] + cols[c][m] + a[c][t] * g[m]);
            }
        }
    }
}

/// The DP on tables of capacity `cap` (row i of `rows` at i·cap, column j of `cols` at j·cap), dims as T in `g`.
template <class T>
void solve_tables(std::int64_t n, std::int64_t cap, const T* g, T* rows, T* cols) {
    const auto R = [&](std::int64_t i) { return rows + i * cap; };
    const auto C = [&](std::int64_t j) { return cols + j * cap; };
    const auto put = [&](std::int64_t i, std::int64_t j, T v) {
        R(i)[j] = v;
        C(j)[i] = v;
    };
    const std::int64_t blocks = (n + tile - 1) / tile;
    std::vector<T> acc(static_cast<std::size_t>(tile * tile));
    for (std::int64_t d = 0; d < blocks; ++d) {
        for (std::int64_t A = 0; A + d < blocks; ++A) {
            const std::int64_t a0 = A * tile;
            const std::int64_t a1 = std::min(n, a0 + tile);
            const std::int64_t b0 = (A + d) * tile;
            const std::int64_t b1 = std::min(n, b0 + tile);
            const std::int64_t w = b1 - b0;
            if (d == 0) {
                for (std::int64_t i = a1 - 1; i >= a0; --i) {
                    put(i, i, T{0});
                    for (std::int64_t j = i + 1; j < b1; ++j) {
                        put(i, j, min_plus(R(i) + i, C(j) + i + 1, g + i + 1, g[i] * g[j + 1], j - i));
                    }
                }
                continue;
            }
            std::fill(acc.begin(), acc.end(), std::numeric_limits<T>::max());
            for (std::int64_t k0 = a1 - 1; k0 < b0; k0 += chunk) {
                const std::int64_t len = std::min(b0, k0 + chunk) - k0;
                // Tiles of four rows and two columns (one column left when the width is odd), then the rows left
                // one at a time.
                const auto four_rows_against = [&]<std::size_t W>(std::int64_t i, std::int64_t j) {
                    const std::array<const T*, 4> four{R(i) + k0, R(i + 1) + k0, R(i + 2) + k0, R(i + 3) + k0};
                    std::array<const T*, W> cs;
                    std::array<std::array<T, 4>, W> a;
                    for (std::size_t c = 0; c < W; ++c) {
                        cs[c] = C(j + static_cast<std::int64_t>(c)) + k0 + 1;
                        for (std::size_t t = 0; t < 4; ++t) {
                            a[c][t] = g[i + static_cast<std::int64_t>(t)] * g[j + static_cast<std::int64_t>(c) + 1];
                        }
                    }
                    std::array<std::array<T, 4>, W> v;
                    min_plus_tile<T, W>(four, cs, g + k0 + 1, a, len, v);
                    for (std::size_t c = 0; c < W; ++c) {
                        for (std::size_t t = 0; t < 4; ++t) {
                            T& o = acc[static_cast<std::size_t>((i + static_cast<std::int64_t>(t) - a0) * tile +
                                                                (j + static_cast<std::int64_t>(c) - b0))];
                            o = std::min(o, v[c][t]);
                        }
                    }
                };
                std::int64_t i = a0;
                for (; i + 3 < a1; i += 4) {
                    std::int64_t j = b0;
                    for (; j + 3 < b1; j += 4) {
                        four_rows_against.template operator()<4>(i, j);
                    }
                    switch (b1 - j) {  // the last 1 … 3 columns of an odd-sized tile
                        case 3:
                            four_rows_against.template operator()<3>(i, j);
                            break;
                        case 2:
                            four_rows_against.template operator()<2>(i, j);
                            break;
                        case 1:
                            four_rows_against.template operator()<1>(i, j);
                            break;
                        default:
                            break;
                    }
                }
                for (; i < a1; ++i) {
                    T* out = acc.data() + (i - a0) * tile;
                    for (std::int64_t j = b0; j < b1; ++j) {
                        const T v = min_plus(R(i) + k0, C(j) + k0 + 1, g + k0 + 1, g[i] * g[j + 1], len);
                        out[j - b0] = std::min(out[j - b0], v);
                    }
                }
            }
            for (std::int64_t i = a1 - 1; i >= a0; --i) {
                for (std::int64_t j = b0; j < b0 + w; ++j) {
                    const T a = g[i] * g[j + 1];
                    const T lower = min_plus(R(i) + i, C(j) + i + 1, g + i + 1, a, a1 - 1 - i);
                    const T upper = min_plus(R(i) + b0, C(j) + b0 + 1, g + b0 + 1, a, j - b0);
                    put(i, j, std::min({acc[static_cast<std::size_t>((i - a0) * tile + (j - b0))], lower, upper}));
                }
            }
        }
    }
}

/// The smallest k in [i, j) with c(i,k) + c(k+1,j) + f(i,j,k) = c(i,j).
template <class T>
std::int64_t split_of(std::int64_t i, std::int64_t j, std::int64_t cap, const T* g, const T* rows, const T* cols) {
    const T target = rows[i * cap + j];
    const T a = g[i] * g[j + 1];
    for (std::int64_t k = i; k < j; ++k) {
        if (rows[i * cap + k] + cols[j * cap + k + 1] + a * g[k + 1] == target) {
            return k;
        }
    }
    throw Error("llc-compare matrix-chain: the peer's table has no split for c(" + std::to_string(i) + ", " +
                std::to_string(j) + ")");
}

template <class T>
void print(std::int64_t i, std::int64_t j, std::int64_t cap, const T* g, const T* rows, const T* cols, std::string& s) {
    if (i == j) {
        s += 'A';
        s += std::to_string(i + 1);
        return;
    }
    const std::int64_t k = split_of(i, j, cap, g, rows, cols);
    s += '(';
    print(i, k, cap, g, rows, cols, s);
    print(k + 1, j, cap, g, rows, cols, s);
    s += ')';
}

void* table(std::int64_t n) {
    const std::size_t bytes = std::max<std::size_t>(static_cast<std::size_t>(n * n) * 8, 64);
    void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    std::memset(p, 0, bytes);  // first touch here, not in a timed solve
    return p;
}

}  // namespace

BlockedChainDp::BlockedChainDp(std::int64_t n) : capacity_(n), rows_(table(n)), cols_(table(n)) {}

std::int64_t BlockedChainDp::solve(std::span<const std::int64_t> dims) {
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    if (n < 1 || n > capacity_) {
        throw Error("llc-compare matrix-chain: the peer holds chains of 1 … " + std::to_string(capacity_) +
                    " matrices, not " + std::to_string(n));
    }
    const std::int64_t top = *std::max_element(dims.begin(), dims.end());
    if (*std::min_element(dims.begin(), dims.end()) <= 0) {
        throw Error("llc-compare matrix-chain: the peer needs positive dimensions");
    }
    // n·max(d)³ bounds every candidate: below 2^53 double is exact, below 2^62 int64 does not overflow.
    const double bound =
        static_cast<double>(n) * static_cast<double>(top) * static_cast<double>(top) * static_cast<double>(top);
    if (bound >= 0x1p62) {
        throw Error("llc-compare matrix-chain: the peer's int64 arithmetic needs n·max(d)³ < 2^62");
    }
    n_ = n;
    dims_.assign(dims.begin(), dims.end());
    use_double_ = bound < 0x1p53;
    if (use_double_) {
        std::vector<double> g(dims.begin(), dims.end());
        auto* rows = static_cast<double*>(rows_.get());
        solve_tables<double>(n, capacity_, g.data(), rows, static_cast<double*>(cols_.get()));
        return static_cast<std::int64_t>(rows[n - 1]);
    }
    auto* rows = static_cast<std::int64_t*>(rows_.get());
    solve_tables<std::int64_t>(n, capacity_, dims_.data(), rows, static_cast<std::int64_t*>(cols_.get()));
    return rows[n - 1];
}

std::string BlockedChainDp::parenthesization() const {
    std::string s;
    if (n_ < 1) {
        return s;
    }
    if (use_double_) {
        const std::vector<double> g(dims_.begin(), dims_.end());
        print<double>(0,
                      n_ - 1,
                      capacity_,
                      g.data(),
                      static_cast<const double*>(rows_.get()),
                      static_cast<const double*>(cols_.get()),
                      s);
    } else {
        print<std::int64_t>(0,
                            n_ - 1,
                            capacity_,
                            dims_.data(),
                            static_cast<const std::int64_t*>(rows_.get()),
                            static_cast<const std::int64_t*>(cols_.get()),
                            s);
    }
    return s;
}

}  // namespace llc::cards
