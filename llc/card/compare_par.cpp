// llc-compare par: the overhead of llc::par. A recursive binary division of depth log2 P whose tasks return n doubles
// and whose combine adds the two halves, against the same recursion written by hand with MPI_Comm_split and
// MPI_Sendrecv. Two hand-written peers: communicators split once and reused (the best one can write), and split on
// every call (what a straightforward recursion does).
#include <functional>
#include <memory>
#include <vector>

#include <mpi.h>

#include <llc/llc.hpp>
#include <llc/tools/comparison.hpp>

#include "card.hpp"

namespace llc::cards {
namespace {

std::vector<double> leaf(std::size_t n, int salt) {
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) {
        values[i] = static_cast<double>(i % 97) + salt;
    }
    return values;
}

// ---- ours -------------------------------------------------------------------------------------------------------
std::vector<double> ours(Group& g, std::size_t n, int salt) {
    if (g.size() == 1) {
        return leaf(n, salt);
    }
    auto [a, b] = par(
        g, [&](Group& sub) { return ours(sub, n, 2 * salt); }, [&](Group& sub) { return ours(sub, n, 2 * salt + 1); });
    for (std::size_t i = 0; i < n; ++i) {
        a[i] += b[i];
    }
    return std::move(a);
}

// ---- by hand ----------------------------------------------------------------------------------------------------
/// The halves of each level, split once. Level k holds this rank's communicator at depth k.
struct HandComms {
    std::vector<MPI_Comm> levels;
    explicit HandComms(MPI_Comm comm) {
        MPI_Comm current = comm;
        int size = 0;
        MPI_Comm_size(current, &size);
        while (size > 1) {
            int rank = 0;
            MPI_Comm_rank(current, &rank);
            const int half = (size + 1) / 2;
            MPI_Comm next = MPI_COMM_NULL;
            MPI_Comm_split(current, rank < half ? 0 : 1, rank, &next);
            levels.push_back(current);
            current = next;
            MPI_Comm_size(current, &size);
        }
        levels.push_back(current);
    }
    ~HandComms() {
        for (std::size_t k = 1; k < levels.size(); ++k) {
            MPI_Comm_free(&levels[k]);
        }
    }
    HandComms(const HandComms&) = delete;
    HandComms& operator=(const HandComms&) = delete;
};

/// One level of the hand-written recursion: recurse in my half, swap results with my partner, add.
std::vector<double> by_hand(
    MPI_Comm comm, MPI_Comm sub, const std::function<MPI_Comm(MPI_Comm)>& next, std::size_t n, int salt) {
    int size = 0;
    int rank = 0;
    MPI_Comm_size(comm, &size);
    MPI_Comm_rank(comm, &rank);
    if (size == 1) {
        return leaf(n, salt);
    }
    const int half = (size + 1) / 2;
    const bool low = rank < half;
    std::vector<double> mine = by_hand(sub, next(sub), next, n, 2 * salt + (low ? 0 : 1));
    std::vector<double> theirs(n);
    // Partner relation of llc::partners: processor b of the other half receives from b mod (my half's size).
    const int my_size = low ? half : size - half;
    const int other_size = size - my_size;
    const int local = low ? rank : rank - half;
    const int other_start = low ? half : 0;
    std::vector<MPI_Request> sends;
    for (int b = local; b < other_size; b += my_size) {
        sends.emplace_back();
        MPI_Isend(mine.data(), static_cast<int>(n), MPI_DOUBLE, other_start + b, 1, comm, &sends.back());
    }
    MPI_Recv(
        theirs.data(), static_cast<int>(n), MPI_DOUBLE, other_start + local % other_size, 1, comm, MPI_STATUS_IGNORE);
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
    std::vector<double>& a = low ? mine : theirs;
    const std::vector<double>& b = low ? theirs : mine;
    for (std::size_t i = 0; i < n; ++i) {
        a[i] += b[i];
    }
    return std::move(a);
}

std::vector<Row> run(Group& world, const Options& options) {
    const std::vector<std::int64_t> sizes =
        options.sizes.empty() ? std::vector<std::int64_t>{1024, 4096, 65536, 1 << 20} : options.sizes;
    const int repeat = options.repeat > 0 ? options.repeat : 51;
    const HandComms comms(world.native());
    std::vector<Row> rows;
    for (const std::int64_t n64 : sizes) {
        const auto n = static_cast<std::size_t>(n64);
        // Reused communicators: level k+1 is the split of level k.
        std::size_t level = 0;
        const std::function<MPI_Comm(MPI_Comm)> cached = [&](MPI_Comm c) {
            for (level = 0; level + 1 < comms.levels.size(); ++level) {
                if (comms.levels[level] == c) {
                    return comms.levels[level + 1];
                }
            }
            return c;
        };
        std::vector<MPI_Comm> created;
        const std::function<MPI_Comm(MPI_Comm)> fresh = [&](MPI_Comm c) {
            int size = 0;
            int rank = 0;
            MPI_Comm_size(c, &size);
            MPI_Comm_rank(c, &rank);
            if (size == 1) {
                return c;
            }
            MPI_Comm next = MPI_COMM_NULL;
            MPI_Comm_split(c, rank < (size + 1) / 2 ? 0 : 1, rank, &next);
            created.push_back(next);
            return next;
        };
        // Same answer from all three, checked once before timing.
        const auto expected = by_hand(comms.levels[0], cached(comms.levels[0]), cached, n, 1);
        if (ours(world, n, 1) != expected) {
            throw Error("llc-compare par: llc::par and the hand-written recursion disagree");
        }
        const auto t =
            time_medians_interleaved(world,
                                     repeat,
                                     {[&] { (void)ours(world, n, 1); },
                                      [&] { (void)by_hand(comms.levels[0], cached(comms.levels[0]), cached, n, 1); },
                                      [&] {
                                          (void)by_hand(comms.levels[0], fresh(comms.levels[0]), fresh, n, 1);
                                          for (auto& c : created) {
                                              MPI_Comm_free(&c);
                                          }
                                          created.clear();
                                      }});
        const double t_ours = t[0];
        const double t_cached = t[1];
        const double t_fresh = t[2];
        // The same division with tracing on: what recording every superstep costs.
        Trace::enable(true);
        const double t_traced = time_median(world, repeat, [&] {
            (void)ours(world, n, 1);
            Trace::clear();
        });
        Trace::enable(false);
        rows.push_back({"par", world.size(), n64, t_ours, "MPI_Comm_split once + MPI_Sendrecv", t_cached});
        rows.push_back({"par", world.size(), n64, t_ours, "MPI_Comm_split per call + MPI_Sendrecv", t_fresh});
        rows.push_back({"par (traced)", world.size(), n64, t_traced, "MPI_Comm_split once + MPI_Sendrecv", t_cached});
    }
    return rows;
}

}  // namespace

Comparison par_comparison() {
    return {"par", "recursive binary llc::par exchanging n doubles per level vs the same recursion by hand", run};
}

}  // namespace llc::cards
