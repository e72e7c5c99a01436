// llc-probe's lockstep probe (see lockstep.hpp).
#include "lockstep.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <llc/tools/statistics.hpp>

namespace llc::probe {

namespace {

/// A cache-resident read-modify-write pass over `data` (32 KiB: in L1/L2, like a pipeline segment's rows): the kind of
/// work a sweep step does, with no memory traffic that would make the processors' speeds depend on each other.
std::uint32_t work_pass(std::span<std::uint32_t> data, std::uint32_t seed) {
    std::uint32_t x = seed;
    for (std::uint32_t& v : data) {
        x = x * 1664525U + v;
        v = x ^ (x >> 7);
    }
    return x;
}

/// Seconds of `elements` elements of work passes: whole passes over `data`, then the first elements of one more (a
/// pass over all 32 KiB takes ~9 µs here, longer than the shortest steps measured).
double timed_work(std::vector<std::uint32_t>& data, std::size_t elements, std::uint32_t& sink) {
    const double start = MPI_Wtime();
    for (std::size_t done = 0; done < elements; done += data.size()) {
        const std::size_t n = std::min(data.size(), elements - done);
        sink += work_pass(std::span(data).first(n), sink);
    }
    return MPI_Wtime() - start;
}

/// Adds the excess samples of `steps` lockstep steps of `passes` passes to `max_sum` / `mean_sum`, over the steps
/// whose mean is within 1.3 × the median mean.
void run_steps(MPI_Comm comm,
               std::vector<std::uint32_t>& data,
               std::size_t elements,
               int steps,
               std::uint32_t& sink,
               double& max_sum,
               double& mean_sum) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    std::vector<double> mine(static_cast<std::size_t>(steps));
    (void)timed_work(data, elements, sink);  // warm-up
    for (double& t : mine) {
        MPI_Barrier(comm);
        t = timed_work(data, elements, sink);
    }
    std::vector<double> slowest(mine.size());
    std::vector<double> total(mine.size());
    MPI_Allreduce(mine.data(), slowest.data(), steps, MPI_DOUBLE, MPI_MAX, comm);
    MPI_Allreduce(mine.data(), total.data(), steps, MPI_DOUBLE, MPI_SUM, comm);
    std::vector<double> means(total.size());
    std::transform(total.begin(), total.end(), means.begin(), [&](double t) { return t / size; });
    const double typical = tools::quantile(means, 0.5);
    for (std::size_t s = 0; s < means.size(); ++s) {
        if (means[s] <= 1.3 * typical) {
            max_sum += slowest[s];
            mean_sum += means[s];
        }
    }
}

}  // namespace

std::map<int, double> measure_lockstep(MPI_Comm comm, bool quick) {
    std::vector<std::uint32_t> data(8192);
    std::iota(data.begin(), data.end(), 1U);
    std::uint32_t sink = 0;
    // Seconds a pass: the fastest of a few timed passes, agreed (the minimum over the ranks: the same work everywhere).
    double pass_seconds = 1e300;
    for (int i = 0; i < 20; ++i) {
        pass_seconds = std::min(pass_seconds, timed_work(data, data.size(), sink));
    }
    MPI_Allreduce(MPI_IN_PLACE, &pass_seconds, 1, MPI_DOUBLE, MPI_MIN, comm);
    pass_seconds = std::max(pass_seconds, 1e-9);
    // Per step length and round: ~10 ms of steps (quick: 5 ms), at least 16 and at most 600 steps.
    const double round_seconds = quick ? 5e-3 : 10e-3;
    std::map<int, double> max_sums;
    std::map<int, double> mean_sums;
    for (int round = 0; round < 3; ++round) {
        for (int e = lockstep_min_exponent; e <= lockstep_max_exponent; e += 2) {
            const double step_seconds = static_cast<double>(std::int64_t{1} << e) * 1e-9;
            const auto elements = std::max<std::size_t>(
                1, static_cast<std::size_t>(step_seconds / pass_seconds * static_cast<double>(data.size()) + 0.5));
            const int steps = std::clamp(static_cast<int>(round_seconds / step_seconds), 16, 600);
            run_steps(comm, data, elements, steps, sink, max_sums[e], mean_sums[e]);
        }
    }
    std::map<int, double> excess;
    for (const auto& [e, slowest] : max_sums) {
        excess[e] = mean_sums[e] > 0.0 ? std::max(0.0, slowest / mean_sums[e] - 1.0) : 0.0;
    }
    volatile std::uint32_t keep = sink;  // the work must not be optimised away
    (void)keep;
    return excess;
}

}  // namespace llc::probe
