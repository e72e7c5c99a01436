#pragma once
/// @file
/// Engine internals of llc::IntervalTable (<llc/algorithms/matrix_chain.hpp>): the storage of a processor's columns
/// and the raw column access the interval-DP engine and its probes write through (interval_table_storage(table)). Not
/// part of the API: IntervalTable holds the storage as a private member, and a user reads a table through
/// IntervalTable::value, split, owner, owns and columns.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace llc::detail {

/// A block of `bytes` (whole huge pages) on transparent huge pages: a block of that size given back earlier where one
/// is kept (its pages already touched), else a fresh mapping of its own (llc::map_huge_pages: zeros, advised before
/// its first touch, so its page kind does not depend on what the process allocated before); nullptr when out of
/// memory. For the interval-DP engine's large arrays (interval_dp::fresh_array); src/block_cache.cpp.
[[nodiscard]] void* take_block(std::size_t bytes);
/// Gives back a block of take_block, kept for a later take_block of the same size (at most 16 blocks and
/// set_matrix_chain_cache_limit's bytes, by default 256 MiB, kept in all, older blocks unmapped first); any other
/// pointer, of std::aligned_alloc, is freed.
void give_back_block(void* p) noexcept;

/// Gives back memory of take_block or frees memory of std::aligned_alloc (the interval-DP table's arrays, see
/// interval_dp::fresh_array).
struct FreeDeleter {
    void operator()(void* p) const noexcept { give_back_block(p); }
};

/// The columns one processor owns of an interval-DP table, each contiguous: column j holds c(0..j, j) and the splits
/// k(0..j, j) at offset_[j] (−1: not owned). IntervalTable holds one privately; the engine reaches it through
/// interval_table_storage.
template <class T>
struct IntervalTableStorage {
    /// Column j's costs c(0..j, j) (contiguous), for the engine.
    [[nodiscard]] T* column(std::int64_t j) noexcept { return values_.get() + offset_[static_cast<std::size_t>(j)]; }
    /// Column j's smallest optimal splits k(0..j, j), for the engine.
    [[nodiscard]] std::int32_t* split_column(std::int64_t j) noexcept {
        return splits_.get() + offset_[static_cast<std::size_t>(j)];
    }
    [[nodiscard]] std::size_t at(std::int64_t i, std::int64_t j) const {
        return static_cast<std::size_t>(offset_[static_cast<std::size_t>(j)] + i);
    }

    std::vector<std::int64_t> offset_;  ///< start of column j in values_ (−1: not owned)
    std::size_t entries_ = 0;
    // Not initialised: the engine writes every entry before any is read, and a zeroing pass over n²/(2P) entries
    // would cost as much as a sizeable share of a small problem. On transparent huge pages where the kernel offers
    // them (interval_dp::fresh_array). Move-only therefore.
    std::unique_ptr<T[], FreeDeleter> values_;
    std::unique_ptr<std::int32_t[], FreeDeleter> splits_;
};

/// The engine's way in to an IntervalTable's storage (IntervalTable befriends it).
struct IntervalTableAccess {
    template <class Table>
    [[nodiscard]] static auto& of(Table& table) noexcept {
        return table.storage_;
    }
    /// `from` (an IntervalTable<T>, given up) as an IntervalTable of another value type of the same size, `To`: each
    /// value converted in place by `convert`, the arrays handed over (no second array, no fresh pages). For
    /// matrix_chain, whose engine runs in double where every cost is an integer below 2^53.
    template <class To, class From, class Convert>
    [[nodiscard]] static To converted(From&& from, const Convert& convert) {
        using T = std::remove_reference_t<decltype(from.storage_.values_[0])>;
        To to;
        using U = std::remove_reference_t<decltype(to.storage_.values_[0])>;
        static_assert(sizeof(T) == sizeof(U), "converted: values of one size");
        to.n_ = from.n_;
        to.r_ = from.r_;
        to.P_ = from.P_;
        to.rank_ = from.rank_;
        auto& storage = from.storage_;
        T* values = storage.values_.release();
        for (std::size_t e = 0; e < storage.entries_; ++e) {
            T v;
            std::memcpy(&v, values + e, sizeof(T));
            const U u = convert(v);
            std::memcpy(values + e, &u, sizeof(U));
        }
        to.storage_.values_.reset(reinterpret_cast<U*>(values));
        to.storage_.offset_ = std::move(storage.offset_);
        to.storage_.entries_ = storage.entries_;
        to.storage_.splits_ = std::move(storage.splits_);
        return to;
    }
};

/// The storage of `table` (an llc::IntervalTable<T>), for the engine and its probes: column(j), split_column(j).
template <class Table>
[[nodiscard]] auto& interval_table_storage(Table& table) noexcept {
    return IntervalTableAccess::of(table);
}

}  // namespace llc::detail
