#pragma once
// Oracles of the interval-DP tests, written here and sharing no code with the library: brute force over every
// parenthesisation and every tree, the textbook O(n³) matrix-chain DP (CLRS §15.2) and the textbook O(n³)
// optimal-BST DP (CLRS §15.5, frequencies only, no Knuth window), both with ties to the smallest split / root.
// textbook_table hands the chain DP of rank 0 to every rank.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

namespace llc::test::interval_dp {

/// The least cost of multiplying matrices i … j by trying every split.
inline std::int64_t brute_chain(const std::vector<std::int64_t>& d, int i, int j) {
    if (i == j) {
        return 0;
    }
    std::int64_t best = std::numeric_limits<std::int64_t>::max();
    for (int k = i; k < j; ++k) {
        best = std::min(best, brute_chain(d, i, k) + brute_chain(d, k + 1, j) + d[i] * d[k + 1] * d[j + 1]);
    }
    return best;
}

/// The least Σ f·(depth + 1) over every tree of keys i … j−1.
inline double brute_bst(const std::vector<double>& f, int i, int j) {  // keys i … j−1
    if (i >= j) {
        return 0.0;
    }
    double w = 0.0;
    for (int m = i; m < j; ++m) {
        w += f[m];
    }
    double best = std::numeric_limits<double>::max();
    for (int k = i; k < j; ++k) {
        best = std::min(best, brute_bst(f, i, k) + brute_bst(f, k + 1, j));
    }
    return best + w;
}

/// The textbook chain DP (CLRS §15.2), written here: m[i][j] over chain lengths, ties to the smallest split k. Returns
/// the cost of A1 … An and fills the n × n row-major split table.
inline std::int64_t textbook_chain(const std::vector<std::int64_t>& d, std::vector<std::int32_t>& split) {
    const int n = static_cast<int>(d.size()) - 1;
    std::vector<std::vector<std::int64_t>> m(n, std::vector<std::int64_t>(n, 0));
    split.assign(static_cast<std::size_t>(n * n), 0);
    for (int len = 1; len < n; ++len) {
        for (int i = 0; i + len < n; ++i) {
            const int j = i + len;
            m[i][j] = std::numeric_limits<std::int64_t>::max();
            for (int k = i; k < j; ++k) {
                const std::int64_t q = m[i][k] + m[k + 1][j] + d[i] * d[k + 1] * d[j + 1];
                if (q < m[i][j]) {
                    m[i][j] = q;
                    split[static_cast<std::size_t>(i * n + j)] = k;
                }
            }
        }
    }
    return m[0][n - 1];
}

/// The textbook table of a chain: its cost and n × n row-major split table.
struct TextbookTable {
    std::int64_t cost = 0;
    std::vector<std::int32_t> split;
};

/// The textbook table of `dims`, collective over MPI_COMM_WORLD (every rank calls it with the same dims in the same
/// order): rank 0 runs the O(n³) DP and a plain MPI_Bcast, not llc's, hands the table to the others; memoised, since
/// the tests check each chain at several r or run after run. With every rank computing it, a test's P ranks did P
/// times the work on CI's two cores (under SMPI, one rank after another). Static, not inline: an inline function's
/// local static is one GNU unique object, which SMPI's per-rank copies of the program share (the ranks then read one
/// another's tables).
static const TextbookTable& textbook_table(const std::vector<std::int64_t>& dims) {
    static std::map<std::vector<std::int64_t>, TextbookTable> tables;
    if (const auto it = tables.find(dims); it != tables.end()) {
        return it->second;
    }
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    TextbookTable t{0, std::vector<std::int32_t>(static_cast<std::size_t>(n * n), 0)};
    if (rank == 0) {
        t.cost = textbook_chain(dims, t.split);
    }
    MPI_Bcast(&t.cost, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    MPI_Bcast(t.split.data(), static_cast<int>(n * n), MPI_INT32_T, 0, MPI_COMM_WORLD);
    return tables.emplace(dims, std::move(t)).first->second;
}

/// "((A1A2)A3)" of matrices i … j from a split table, written here.
inline std::string parens(const std::vector<std::int32_t>& split, int n, int i, int j) {
    if (i == j) {
        return "A" + std::to_string(i + 1);
    }
    const int k = split[static_cast<std::size_t>(i * n + j)];
    return "(" + parens(split, n, i, k) + parens(split, n, k + 1, j) + ")";
}

/// The textbook optimal-BST DP (CLRS §15.5 with frequencies only, no dummy keys), written here, O(n³), no Knuth
/// window: keys 1 … n, e[i][i−1] = 0, e[i][j] = min over roots r = i … j of e[i][r−1] + e[r+1][j] + w(i, j), w(i, j) =
/// f_i + … + f_j, ties to the smallest r. root[i][j] is that r.
struct BstTables {
    std::vector<std::vector<double>> e;
    std::vector<std::vector<int>> root;
    [[nodiscard]] double cost() const { return e[1][e.size() - 2]; }
};

inline BstTables textbook_bst(const std::vector<double>& f) {
    const int n = static_cast<int>(f.size());
    BstTables t{std::vector<std::vector<double>>(n + 2, std::vector<double>(n + 1, 0.0)),
                std::vector<std::vector<int>>(n + 2, std::vector<int>(n + 1, 0))};
    for (int len = 1; len <= n; ++len) {
        for (int i = 1; i + len - 1 <= n; ++i) {
            const int j = i + len - 1;
            double w = 0.0;
            for (int m = i; m <= j; ++m) {
                w += f[m - 1];
            }
            t.e[i][j] = std::numeric_limits<double>::max();
            for (int r = i; r <= j; ++r) {
                const double q = t.e[i][r - 1] + t.e[r + 1][j] + w;
                if (q < t.e[i][j]) {
                    t.e[i][j] = q;
                    t.root[i][j] = r;
                }
            }
        }
    }
    return t;
}

/// The parent of each key (0-based, −1 for the root) in the tree of root table `root`, keys i … j (1-based).
inline void bst_parents(const BstTables& t, int i, int j, int parent, std::vector<int>& out) {
    if (i > j) {
        return;
    }
    const int r = t.root[i][j];
    out[static_cast<std::size_t>(r - 1)] = parent;
    bst_parents(t, i, r - 1, r - 1, out);
    bst_parents(t, r + 1, j, r - 1, out);
}

inline std::vector<int> bst_parents(const BstTables& t) {
    const int n = static_cast<int>(t.e.size()) - 2;
    std::vector<int> out(static_cast<std::size_t>(n), -2);
    bst_parents(t, 1, n, -1, out);
    return out;
}

}  // namespace llc::test::interval_dp
