// llc-compare matrix-chain: llc::matrix_chain at the world's P (default block size) against the textbook O(n³) loop
// (CLRS, strided column access; llc::sequential::matrix_chain_textbook) and against our own P = 1 (the ring engine on
// one processor, one block: contiguous rows and columns), both on rank 0 while the other ranks wait, on the same random
// chain (dimensions uniform in 1 … 100), timed interleaved. Default n: 1000, 2000, 4000 matrices; repeat 3.
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

std::vector<Row> run(Group& world, const Options& options) {
    const int P = world.size();
    const int repeat = options.repeat > 0 ? options.repeat : 3;
    std::vector<std::int64_t> sizes = options.sizes;
    if (sizes.empty()) {
        sizes = {1000, 2000, 4000};
    }
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        std::mt19937_64 rng(static_cast<std::uint64_t>(n));
        std::uniform_int_distribution<std::int64_t> dist(1, 100);
        std::vector<std::int64_t> dims(static_cast<std::size_t>(n) + 1);
        for (auto& d : dims) {
            d = dist(rng);
        }
        std::int64_t ours = 0;
        std::int64_t textbook = 0;
        std::int64_t serial = 0;
        const std::vector<std::function<void()>> bodies{
            [&] { ours = matrix_chain(world, dims).cost; },
            [&] {
                if (world.rank() == 0) {
                    textbook = sequential::matrix_chain_textbook(dims);
                }
            },
            [&] {
                if (world.rank() == 0) {
                    serial = matrix_chain(world.self(), dims).cost;
                }
            },
        };
        const std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        if (world.rank() == 0 && (ours != textbook || serial != textbook)) {
            throw Error("llc-compare matrix-chain: costs differ at n = " + std::to_string(n) + " (ours " +
                        std::to_string(ours) + ", textbook " + std::to_string(textbook) + ", P = 1 " +
                        std::to_string(serial) + ")");
        }
        rows.push_back({"matrix-chain", P, n, t[0], "textbook-clrs-loop", t[1]});
        rows.push_back({"matrix-chain", P, n, t[0], "ours-P1", t[2]});
    }
    return rows;
}

}  // namespace

Comparison matrix_chain_comparison() {
    return {"matrix-chain", "llc::matrix_chain at P vs the textbook O(n³) loop and our own P = 1", run};
}

}  // namespace llc::cards
