// llc-compare matrix-chain: llc::matrix_chain at the world's P (default block size) against, on rank 0 while the other
// ranks wait, on the same random chain (dimensions uniform in 1 … 100), timed interleaved:
//   blocked-dp-1core    the fastest one-processor DP we could write (chain_peer.hpp: tables allocated once, row-major
//                       and transposed so the min-plus is contiguous, 64 × 64 tiles, vectorised, values only and the
//                       tree's splits recovered afterwards, exact double arithmetic below 2^53) — the headline;
//                       timed with its parenthesisation, which ours returns too
//   textbook-clrs-loop  the textbook O(n³) loop (CLRS, strided column access, two n × n arrays allocated and zeroed
//                       per call; llc::sequential::matrix_chain_textbook), at n ≤ textbook_max_n only: beyond, one
//                       call takes over a minute (70.9 s at n = 4000 quiet) and the row would make the n = 4000 goal's
//                       run 7–8 minutes for a peer 20× behind the headline one
//   ours-P1             our own engine on one processor
// Before timing, rank 0 runs each once and stops the job (non-zero exit) unless all four give the same optimal cost
// and the same parenthesisation. "Same" is exact: every side takes the smallest optimal split k at every node, so
// with equal cost tables the trees are equal; a peer that found another, equally cheap tree would be reported as a
// difference, never passed. Default n: 1000, 2000, 4000 matrices; repeat 3.
#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <llc/algorithms/matrix_chain.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"
#include "chain_peer.hpp"

namespace llc::cards {

namespace {

/// The largest n at which the textbook loop is checked and timed.
constexpr std::int64_t textbook_max_n = 2000;

std::vector<std::int64_t> random_chain(std::int64_t n) {
    std::mt19937_64 rng(static_cast<std::uint64_t>(n));
    std::uniform_int_distribution<std::int64_t> dist(1, 100);
    std::vector<std::int64_t> dims(static_cast<std::size_t>(n) + 1);
    for (auto& d : dims) {
        d = dist(rng);
    }
    return dims;
}

/// Rank 0: throws unless the peer, the textbook loop and our P = 1 agree with `ours` on cost and parenthesisation.
void check_same(Group& world, std::span<const std::int64_t> dims, const MatrixChainResult& ours, BlockedChainDp& peer) {
    const auto n = static_cast<std::int64_t>(dims.size()) - 1;
    const auto differ = [&](const std::string& who, std::int64_t cost, const std::string& tree) {
        if (cost != ours.cost || tree != ours.parenthesization) {
            throw Error("llc-compare matrix-chain: " + who + " differs from llc::matrix_chain at n = " +
                        std::to_string(n) + " (cost " + std::to_string(cost) + " against " + std::to_string(ours.cost) +
                        (tree != ours.parenthesization ? ", another tree" : "") + ")");
        }
    };
    const std::int64_t blocked = peer.solve(dims);
    differ("blocked-dp-1core", blocked, peer.parenthesization());
    if (n <= textbook_max_n) {
        std::vector<std::int32_t> split;
        const std::int64_t textbook = sequential::matrix_chain_textbook(dims, &split);
        differ("textbook-clrs-loop", textbook, sequential::parenthesization(n, split));
    }
    const MatrixChainResult serial = matrix_chain(world.self(), dims);
    differ("ours-P1", serial.cost, serial.parenthesization);
}

std::vector<Row> run(Group& world, const Options& options) {
    const int P = world.size();
    const int repeat = options.repeat > 0 ? options.repeat : 3;
    std::vector<std::int64_t> sizes = options.sizes;
    if (sizes.empty()) {
        sizes = {1000, 2000, 4000};
    }
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const std::vector<std::int64_t> dims = random_chain(n);
        std::optional<BlockedChainDp> peer;
        if (world.rank() == 0) {
            peer.emplace(n);  // tables allocated and touched here, outside every timed call
        }
        {
            const MatrixChainResult ours = matrix_chain(world, dims);
            if (world.rank() == 0) {
                check_same(world, dims, ours, *peer);
            }
        }
        const auto on_root = [&](const std::function<void()>& body) {
            return [&world, body] {
                if (world.rank() == 0) {
                    body();
                }
            };
        };
        const bool textbook = n <= textbook_max_n;
        std::vector<std::function<void()>> bodies{
            [&] { (void)matrix_chain(world, dims); },
            // Both sides produce the cost and the parenthesisation (equal work): ours walks its tree inside the
            // timed call, so the peer's walk is timed too.
            on_root([&] {
                (void)peer->solve(dims);
                (void)peer->parenthesization();
            }),
            on_root([&] { (void)matrix_chain(world.self(), dims); }),
        };
        if (textbook) {
            bodies.push_back(on_root([&] { (void)sequential::matrix_chain_textbook(dims); }));
        }
        const std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        rows.push_back({"matrix-chain", P, n, t[0], "blocked-dp-1core", t[1]});
        if (textbook) {
            rows.push_back({"matrix-chain", P, n, t[0], "textbook-clrs-loop", t[3]});
        }
        rows.push_back({"matrix-chain", P, n, t[0], "ours-P1", t[2]});
    }
    return rows;
}

}  // namespace

Comparison matrix_chain_comparison() {
    return {"matrix-chain",
            "llc::matrix_chain at P vs the fastest one-core DP we could write, the textbook O(n³) loop and our P = 1",
            run};
}

}  // namespace llc::cards
