#include <algorithm>

#include <mpi.h>

#include "comparison.hpp"

namespace llc::compare {

double median(std::vector<double> samples) {
    if (samples.empty()) {
        return 0.0;
    }
    const auto middle = samples.begin() + static_cast<std::ptrdiff_t>(samples.size() / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    if (samples.size() % 2 == 1) {
        return *middle;
    }
    return (*middle + *std::max_element(samples.begin(), middle)) / 2.0;
}

namespace {
double time_once(Group& g, const std::function<void()>& body) {
    MPI_Barrier(g.native());
    const double start = MPI_Wtime();
    body();
    double elapsed = MPI_Wtime() - start;
    MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, g.native());
    return elapsed;
}
}  // namespace

double time_median(Group& g, int repeat, const std::function<void()>& body) {
    return time_medians_interleaved(g, repeat, {body}).front();
}

std::vector<double> time_medians_interleaved(Group& g, int repeat, const std::vector<std::function<void()>>& bodies) {
    std::vector<std::vector<double>> samples(bodies.size());
    for (const auto& body : bodies) {
        (void)time_once(g, body);  // warm-up: first-touch page faults, lazy MPI connections
    }
    // The starting body rotates from one round to the next, so that no body always runs right after the same other
    // one (a body that frees communicators or touches much memory slows whichever comes next).
    for (int i = 0; i < repeat; ++i) {
        for (std::size_t k = 0; k < bodies.size(); ++k) {
            const std::size_t b = (static_cast<std::size_t>(i) + k) % bodies.size();
            samples[b].push_back(time_once(g, bodies[b]));
        }
    }
    std::vector<double> medians;
    for (auto& s : samples) {
        medians.push_back(median(std::move(s)));
    }
    return medians;
}

const std::vector<Comparison>& comparisons() {
    static const std::vector<Comparison> all{par_comparison(), fft_comparison()};
    return all;
}

}  // namespace llc::compare
