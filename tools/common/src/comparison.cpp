#include <algorithm>

#include <llc/tools/comparison.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

namespace llc::compare {

double time_median(Group& g, int repeat, const std::function<void()>& body) {
    return time_medians_interleaved(g, repeat, {body}).front();
}

std::vector<double> time_medians_interleaved(Group& g, int repeat, const std::vector<std::function<void()>>& bodies) {
    std::vector<std::vector<double>> samples(bodies.size());
    for (const auto& body : bodies) {
        (void)tools::time_sample(g.native(), 1, body);  // warm-up: first-touch page faults, lazy MPI connections
    }
    // The starting body rotates from one round to the next, so that no body always runs right after the same other
    // one (a body that frees communicators or touches much memory slows whichever comes next).
    for (int i = 0; i < repeat; ++i) {
        for (std::size_t k = 0; k < bodies.size(); ++k) {
            const std::size_t b = (static_cast<std::size_t>(i) + k) % bodies.size();
            samples[b].push_back(tools::time_sample(g.native(), 1, bodies[b]).seconds);
        }
    }
    std::vector<double> medians;
    for (auto& s : samples) {
        medians.push_back(tools::median(std::move(s)));
    }
    return medians;
}

}  // namespace llc::compare
