// The interval-DP engine's reuse of its large arrays (detail/interval_table.hpp: FreeDeleter, interval_dp.hpp:
// fresh_array). A table's arrays freed by its owner are kept, up to a bound, and handed to the next engine run that
// asks for the same size: on the para-virtualised 2-core VM a first touch of a fresh page cost ≈ 16 µs per 4 KiB (the
// kernel's clear_page was up to a quarter of a one-processor run at n = 1000 in perf when transparent huge pages were
// not granted), and a loop that calls matrix_chain again and again (a user's, llc-compare's, the probes') otherwise
// faults in the whole table each call, which a sequential DP that keeps its tables does not.
#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <mutex>
#include <vector>

#include <llc/algorithms/detail/interval_table.hpp>

namespace llc::detail {

namespace {

struct Block {
    void* p;
    std::size_t bytes;
    std::size_t alignment;
};

/// Kept blocks at most this many bytes in all: the freed arrays of a table at n = 4000 on one processor (96 MiB) and
/// a few message buffers; older blocks are freed first.
constexpr std::size_t kept_limit = std::size_t{256} << 20;
/// And at most this many blocks (each run asks for a handful: values, splits, two message buffers as they grow).
constexpr std::size_t kept_count = 16;

struct Cache {
    std::mutex mutex;
    std::vector<Block> live;  ///< handed out by take_block, not yet given back
    std::vector<Block> kept;  ///< given back, oldest first
    std::size_t kept_bytes = 0;
};

Cache& cache() {
    static Cache* c = new Cache;  // never destroyed: blocks may be freed during static destruction
    return *c;
}

/// Records b as handed out (c.mutex held) and returns its address; frees it and returns nullptr when even that
/// record cannot be allocated.
void* remember(Cache& c, const Block& b) noexcept {
    try {
        c.live.push_back(b);
    } catch (...) {
        std::free(b.p);
        return nullptr;
    }
    return b.p;
}

}  // namespace

void* take_block(std::size_t bytes, std::size_t alignment) {
    Cache& c = cache();
    {
        const std::lock_guard lock(c.mutex);
        const auto it = std::find_if(
            c.kept.begin(), c.kept.end(), [&](const Block& b) { return b.bytes == bytes && b.alignment == alignment; });
        if (it != c.kept.end()) {
            const Block b = *it;
            c.kept.erase(it);
            c.kept_bytes -= b.bytes;
            return remember(c, b);
        }
    }
    void* p = std::aligned_alloc(alignment, bytes);
    if (p == nullptr) {  // out of memory: the kept blocks go first, then one more try
        std::vector<Block> kept;
        {
            const std::lock_guard lock(c.mutex);
            kept.swap(c.kept);
            c.kept_bytes = 0;
        }
        for (const Block& b : kept) {
            std::free(b.p);
        }
        p = std::aligned_alloc(alignment, bytes);
    }
    if (p == nullptr) {
        return nullptr;
    }
    const std::lock_guard lock(c.mutex);
    return remember(c, {p, bytes, alignment});
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
        if (b.bytes > kept_limit) {
            std::free(p);
            return;
        }
        try {
            c.kept.push_back(b);
        } catch (...) {
            std::free(p);
            return;
        }
        c.kept_bytes += b.bytes;
        while (c.kept_bytes > kept_limit || c.kept.size() > kept_count) {
            c.kept_bytes -= c.kept.front().bytes;
            std::free(c.kept.front().p);
            c.kept.erase(c.kept.begin());
        }
    }
}

}  // namespace llc::detail
