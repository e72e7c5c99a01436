// The interval-DP engine's reuse of its large arrays (detail/interval_table.hpp: FreeDeleter, interval_dp.hpp:
// fresh_array). A table's arrays freed by its owner are kept, up to a bound, and handed to the next engine run that
// asks for the same size: on the para-virtualised 2-core VM a first touch of a fresh page cost ≈ 16 µs per 4 KiB (the
// kernel's clear_page was up to a quarter of a one-processor run at n = 1000 in perf when transparent huge pages were
// not granted), and a loop that calls matrix_chain again and again (a user's, llc-compare's, the probes') otherwise
// faults in the whole table each call, which a sequential DP that keeps its tables does not. A program that wants the
// memory back (or a smaller bound) says so: llc::release_matrix_chain_cache, set_matrix_chain_cache_limit
// (<llc/algorithms/matrix_chain.hpp>).
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <llc/algorithms/detail/interval_table.hpp>
#include <llc/algorithms/matrix_chain.hpp>
#include <llc/huge_pages.hpp>

namespace llc::detail {

namespace {

struct Block {
    void* p;
    std::size_t bytes;  ///< of its mapping (llc::map_huge_pages)
};

/// And at most this many blocks (each run asks for a handful: values, splits, two message buffers as they grow).
constexpr std::size_t kept_count = 16;

struct Cache {
    std::mutex mutex;
    std::vector<Block> live;  ///< handed out by take_block, not yet given back
    std::vector<Block> kept;  ///< given back, oldest first
    std::size_t kept_bytes = 0;
    /// Kept blocks at most this many bytes in all (set_matrix_chain_cache_limit): by default the freed arrays of a
    /// table at n = 4000 on one processor (96 MiB) and a few message buffers; older blocks are freed first.
    std::size_t limit = matrix_chain_cache_default_limit;
};

/// The one cache of the process. A documented exception to "no raw new": it is never destroyed, on purpose. A
/// function-local `static Cache c` would be destroyed at exit in the reverse order of construction, and a table that
/// outlives it — a user's static or global MatrixChainResult built before the first run (its empty table holds no
/// block, so constructing it does not construct the cache), or one still alive in a static destructor around
/// MPI_Finalize — would give its blocks back to a destroyed mutex and vectors. Never destroyed, the cache stays
/// valid to the very end; what it keeps then is returned by the process's exit (release_matrix_chain_cache frees it
/// earlier), and the pointer keeps it reachable, so leak checkers do not report it.
Cache& cache() {
    static Cache* const c = new Cache;
    return *c;
}

/// Frees the oldest kept blocks until at most `limit` bytes and kept_count blocks remain (c.mutex held).
void trim(Cache& c, std::size_t limit) noexcept {
    while (!c.kept.empty() && (c.kept_bytes > limit || c.kept.size() > kept_count)) {
        c.kept_bytes -= c.kept.front().bytes;
        unmap_huge_pages(c.kept.front().p, c.kept.front().bytes);
        c.kept.erase(c.kept.begin());
    }
}

/// Records b as handed out (c.mutex held) and returns its address; frees it and returns nullptr when even that
/// record cannot be allocated.
void* remember(Cache& c, const Block& b) noexcept {
    try {
        c.live.push_back(b);
    } catch (...) {
        unmap_huge_pages(b.p, b.bytes);
        return nullptr;
    }
    return b.p;
}

}  // namespace

void* take_block(std::size_t bytes) {
    Cache& c = cache();
    {
        const std::lock_guard lock(c.mutex);
        const auto it = std::find_if(c.kept.begin(), c.kept.end(), [&](const Block& b) { return b.bytes == bytes; });
        if (it != c.kept.end()) {
            const Block b = *it;
            c.kept.erase(it);
            c.kept_bytes -= b.bytes;
            return remember(c, b);
        }
    }
    void* p = nullptr;
    try {
        p = map_huge_pages(bytes);
    } catch (const std::bad_alloc&) {  // out of memory: the kept blocks go first, then one more try
        release_matrix_chain_cache();
        try {
            p = map_huge_pages(bytes);
        } catch (const std::bad_alloc&) {
            return nullptr;
        }
    }
    const std::lock_guard lock(c.mutex);
    return remember(c, {p, bytes});
}

void give_back_block(void* p) noexcept {
    if (p == nullptr) {
        return;
    }
    Cache& c = cache();
    {
        const std::lock_guard lock(c.mutex);
        const auto it = std::find_if(c.live.begin(), c.live.end(), [&](const Block& b) { return b.p == p; });
        if (it == c.live.end()) {
            std::free(p);  // not from take_block
            return;
        }
        const Block b = *it;
        c.live.erase(it);
        if (b.bytes > c.limit) {
            unmap_huge_pages(p, b.bytes);
            return;
        }
        try {
            c.kept.push_back(b);
        } catch (...) {
            unmap_huge_pages(p, b.bytes);
            return;
        }
        c.kept_bytes += b.bytes;
        trim(c, c.limit);
    }
}

}  // namespace llc::detail

namespace llc {

MatrixChainCacheUsage matrix_chain_cache_usage() noexcept {
    detail::Cache& c = detail::cache();
    const std::lock_guard lock(c.mutex);
    return {c.kept_bytes, c.kept.size(), c.limit};
}

void release_matrix_chain_cache() noexcept {
    detail::Cache& c = detail::cache();
    std::vector<detail::Block> kept;
    {
        const std::lock_guard lock(c.mutex);
        kept.swap(c.kept);
        c.kept_bytes = 0;
    }
    for (const detail::Block& b : kept) {  // unmapped outside the lock
        unmap_huge_pages(b.p, b.bytes);
    }
}

std::size_t set_matrix_chain_cache_limit(std::size_t bytes) noexcept {
    detail::Cache& c = detail::cache();
    const std::lock_guard lock(c.mutex);
    const std::size_t previous = c.limit;
    c.limit = bytes;
    detail::trim(c, bytes);
    return previous;
}

}  // namespace llc
