#pragma once
// The row layout of llc::symv written out in the tests (article [3]), so that they scatter and gather vectors and
// matrix rows without the library's layout code (SymvLayout, distribute_vector, gather_vector).
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include <gtest/gtest.h>

#include <llc/algorithms/symv.hpp>
#include <llc/group.hpp>

namespace llc::test::symv_rows {

using llc::Group;
using llc::SymvMapping;

/// The rows processor q holds, in its local order, from the article's layout written here (not SymvLayout).
/// Reflection: the ⌊n/2⌋ row pairs (i, n−1−i) dealt in P contiguous runs, the first ⌊n/2⌋ mod P processors taking one
/// pair more; q holds block q = the first rows [s_q, s_{q+1}) of its pairs and block 2P−1−q = their partners
/// [n − s_{q+1}, n − s_q); an odd n's middle row joins block P−1. Standard: q holds rows [q⌊n/P⌋ + min(q, n mod P), …),
/// the first n mod P processors taking one row more.
inline std::vector<std::int64_t> rows_of(std::int64_t n, int P, SymvMapping mapping, int q) {
    std::vector<std::int64_t> rows;
    const auto push = [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) {
            rows.push_back(i);
        }
    };
    if (mapping == SymvMapping::standard) {
        const auto start = [&](std::int64_t p) { return p * (n / P) + std::min<std::int64_t>(p, n % P); };
        push(start(q), start(q + 1));
        return rows;
    }
    const std::int64_t pairs = n / 2;
    const auto s = [&](std::int64_t p) { return p * (pairs / P) + std::min<std::int64_t>(p, pairs % P); };
    push(s(q), s(q + 1));
    if (q == P - 1 && n % 2 == 1) {
        rows.push_back(pairs);
    }
    push(n - s(q + 1), n - s(q));
    return rows;
}

/// Processor q's entries of a whole vector, by rows_of.
template <class T>
std::vector<T> scatter(const std::vector<T>& whole, SymvMapping mapping, int P, int q) {
    std::vector<T> out;
    for (const std::int64_t i : rows_of(static_cast<std::int64_t>(whole.size()), P, mapping, q)) {
        out.push_back(whole[static_cast<std::size_t>(i)]);
    }
    return out;
}

/// The whole vector on every rank from each rank's entries, placed by rows_of.
template <class T>
std::vector<T> gather(Group& g, std::int64_t n, SymvMapping mapping, const std::vector<T>& local) {
    const std::vector<T> all = g.allgatherv(std::span<const T>(local));
    EXPECT_EQ(all.size(), static_cast<std::size_t>(n));
    std::vector<T> whole(static_cast<std::size_t>(n));
    std::size_t next = 0;
    for (int q = 0; q < g.size(); ++q) {
        for (const std::int64_t i : rows_of(n, g.size(), mapping, q)) {
            whole[static_cast<std::size_t>(i)] = all.at(next++);
        }
    }
    return whole;
}

}  // namespace llc::test::symv_rows
