// llc-compare symv: llc::symv at the world's P (reflection mapping, overlapped shifts, the matrix built once and
// reused) against OpenBLAS on rank 0 while the other ranks wait: dsymv on the full n × n array (one triangle read) and
// dspmv on the packed triangle, both with one OpenBLAS thread (the ranks own the cores), timed interleaved with ours;
// and at P > 1 dsymv with P OpenBLAS threads, timed on rank 0 around the dsymv call alone: the thread count is set
// once before its samples and back after them, and the other ranks sleep (tools::sleepy_barrier: they give their cores
// to OpenBLAS's threads) through all its samples, so neither the setting nor a barrier is in the timed region. Same
// generated matrix and x (input.hpp: those of `llc-run symv --n N`). Before timing, rank 0 checks our y and every
// peer's against dsymv's (one thread) with the bound 4nε(|A||x|)_i. Default n: 2048, 4096, 8192, 16384; repeat 5.
#include <cblas.h>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include <llc/algorithms/symv.hpp>
#include <llc/clock.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/tools/comparison.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

#include "card.hpp"
#include "input.hpp"

namespace llc::cards {

namespace {

/// Every rank generates its own rows, rank 0 the same full matrix for the peers.
constexpr SymvInput input{};

/// Rank 0's peers' input: the full symmetric array and its packed lower triangle (row-major).
struct Peer {
    std::vector<double> full;
    std::vector<double> packed;
    std::vector<double> x;
    std::vector<double> y;
};

Peer make_peer(std::int64_t n) {
    const auto un = static_cast<std::size_t>(n);
    Peer p{std::vector<double>(un * un), {}, std::vector<double>(un), std::vector<double>(un, 0.0)};
    p.packed.reserve(un * (un + 1) / 2);
    for (std::size_t i = 0; i < un; ++i) {
        for (std::size_t j = 0; j <= i; ++j) {
            const double a = input(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
            p.full[i * un + j] = p.full[j * un + i] = a;
            p.packed.push_back(a);
        }
        p.x[i] = input.x(static_cast<std::int64_t>(i));
    }
    return p;
}

/// Throws unless |y − dsymv|_i ≤ 4nε(|A||x|)_i for every i (p.y holds dsymv's one-thread result).
void check(std::int64_t n, const Peer& p, const std::vector<double>& y, const std::string& who) {
    const auto un = static_cast<std::size_t>(n);
    for (std::size_t i = 0; i < un; ++i) {
        double abs = 0.0;
        for (std::size_t j = 0; j < un; ++j) {
            abs += std::abs(p.full[i * un + j] * p.x[j]);
        }
        const double bound = 4.0 * static_cast<double>(n) * std::numeric_limits<double>::epsilon() * abs;
        if (!(std::abs(y[i] - p.y[i]) <= bound)) {
            throw Error("llc-compare symv: " + who + "'s y differs from dsymv's at n = " + std::to_string(n) +
                        ", i = " + std::to_string(i) + " beyond 4nε(|A||x|)_i");
        }
    }
}

/// Rank 0's dsymv with P OpenBLAS threads: the median over `repeat` calls (after one untimed) of the call alone. The
/// other ranks sleep in tools::sleepy_barrier until it is done. Collective over world.
double time_threaded_dsymv(Group& world, int repeat, const std::function<void()>& dsymv) {
    double median = 0.0;
    if (world.rank() == 0) {
        openblas_set_num_threads(world.size());
        dsymv();
        std::vector<double> samples;
        for (int i = 0; i < repeat; ++i) {
            const double start = clock_seconds();
            dsymv();
            samples.push_back(clock_seconds() - start);
        }
        openblas_set_num_threads(1);
        median = tools::median(std::move(samples));
    }
    tools::sleepy_barrier(world.native());
    // A pause for OpenBLAS's threads, which spin a while after a call, to go to sleep before anything else is timed.
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    world.barrier();
    return median;
}

/// Rank 0: our y (gathered), dspmv's and, at P > 1, dsymv's with P threads, each against dsymv's with one thread.
void check_all(Group& world,
               std::int64_t n,
               Peer& peer,
               const std::vector<double>& ours,
               const std::function<void()>& dsymv,
               const std::function<void()>& dspmv) {
    if (world.rank() != 0) {
        return;
    }
    dspmv();
    const std::vector<double> packed = peer.y;
    std::vector<double> threaded;
    if (world.size() > 1) {
        openblas_set_num_threads(world.size());
        dsymv();
        openblas_set_num_threads(1);
        threaded = peer.y;
    }
    dsymv();  // peer.y: the reference
    check(n, peer, ours, "llc::symv");
    check(n, peer, packed, "dspmv");
    if (!threaded.empty()) {
        check(n, peer, threaded, "dsymv with " + std::to_string(world.size()) + " threads");
    }
}

std::vector<Row> run(Group& world, const Options& options) {
    const int P = world.size();
    const int repeat = options.repeat > 0 ? options.repeat : 5;
    std::vector<std::int64_t> sizes = options.sizes;
    if (sizes.empty()) {
        sizes = {2048, 4096, 8192, 16384};
    }
    openblas_set_num_threads(1);
    std::vector<Row> rows;
    for (const std::int64_t n : sizes) {
        const SymmetricMatrix<double> A(world, n, input);
        std::vector<double> x;
        for (const std::int64_t i : A.local_row_indices()) {
            x.push_back(input.x(i));
        }
        std::vector<double> y(x.size(), 0.0);
        Peer peer = world.rank() == 0 ? make_peer(n) : Peer{};
        const int ni = static_cast<int>(n);
        const auto dsymv = [&] {
            cblas_dsymv(
                CblasRowMajor, CblasLower, ni, 1.0, peer.full.data(), ni, peer.x.data(), 1, 0.0, peer.y.data(), 1);
        };
        const auto dspmv = [&] {
            cblas_dspmv(
                CblasRowMajor, CblasLower, ni, 1.0, peer.packed.data(), peer.x.data(), 1, 0.0, peer.y.data(), 1);
        };
        symv<double>(world, 1.0, A, x, 0.0, y);
        check_all(world, n, peer, gather_vector<double>(world, A.layout(), y, 0), dsymv, dspmv);
        const std::vector<std::function<void()>> bodies{
            [&] { symv<double>(world, 1.0, A, x, 0.0, y); },
            [&] {
                if (world.rank() == 0) {
                    dsymv();
                }
            },
            [&] {
                if (world.rank() == 0) {
                    dspmv();
                }
            },
        };
        std::vector<double> t = time_medians_interleaved(world, repeat, bodies);
        if (P > 1) {
            // After the others, not interleaved with them: OpenBLAS's threads spin a while after each call, which
            // would slow whatever ran next.
            t.push_back(time_threaded_dsymv(world, repeat, dsymv));
        }
        rows.push_back({"symv", P, n, t[0], "openblas-dsymv-1thread", t[1]});
        rows.push_back({"symv", P, n, t[0], "openblas-dspmv-1thread", t[2]});
        if (P > 1) {
            rows.push_back({"symv", P, n, t[0], "openblas-dsymv-" + std::to_string(P) + "threads", t[3]});
        }
    }
    return rows;
}

}  // namespace

Comparison symv_comparison() {
    return {"symv",
            "llc::symv (reflection, packed) at P vs OpenBLAS dsymv and dspmv (one thread), and dsymv with P threads, "
            "on rank 0",
            run};
}

}  // namespace llc::cards
