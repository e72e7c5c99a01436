// llc-validate's measuring rounds (see rounds.hpp).
#include "rounds.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <deque>
#include <iostream>
#include <numeric>
#include <random>
#include <thread>

namespace llc::validate {
namespace {

/// Whether the canaries mark the visit `samples` slow (see max_visit_retries).
bool slow_visit(const std::vector<tools::Sample>& samples,
                const tools::SpeedReference& speed,
                const tools::SamplingRule& rule) {
    const auto kept = static_cast<int>(std::count_if(
        samples.begin(), samples.end(), [&](const tools::Sample& s) { return speed.undisturbed(s.canary); }));
    return kept < rule.min_samples || 2 * kept < static_cast<int>(samples.size());
}

/// The end of a visit, one world-wide step: the ranks outside the point's group have slept meanwhile (as the other
/// processors of a p-processor run would be idle) and every rank leaves with the same full-speed reference and the
/// group's decision `again` (the same on every rank of the group: its samples are agreed). One reduction, polled with
/// the sleeps of tools::sleepy_barrier, where a barrier, a reduction of the reference and a broadcast of the decision
/// took three world-wide steps. Returns whether the visit is measured again. Collective over `world`.
bool end_visit(MPI_Comm world, tools::SpeedReference& speed, bool again) {
    // Minima: the fastest canaries over the ranks; -1 when the group says "again" (the other ranks give 0).
    std::array<double, 4> values{
        speed.fastest().cpu, speed.fastest().link, speed.fastest().throughput, again ? -1.0 : 0.0};
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Iallreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MIN, world, &request);
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    while (done == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(500));  // as tools::sleepy_barrier: no spinning
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
    speed.see({values[0], values[1], values[2]});
    return values[3] < 0.0;
}

/// Runs `instance` once traced and holds the trace against the case's Expr under the CCM; fills `steps` on the
/// group's rank 0 and returns whether it did. Collective over `g`.
bool trace_and_compare(Group& g,
                       Instance& instance,
                       const Case& c,
                       std::int64_t n,
                       const cost::Profile& profile,
                       const cost::Model& ccm,
                       SuperstepReport& steps) {
    Trace::enable(true);
    g.barrier();
    Trace::clear();
    g.restart_superstep_clock();
    instance.run();
    const Trace trace = Trace::gather(g);
    Trace::enable(false);
    if (g.rank() != 0) {
        return false;
    }
    // Rank 0 alone prices: nothing here may throw past this point, or the others would wait.
    try {
        const cost::Expr expr = c.expr(g.size(), n, profile);
        const cost::Comparison comparison = cost::compare(trace.merged(), expr, ccm);
        const cost::Breakdown predicted = cost::evaluate(expr, ccm);
        steps = SuperstepReport{c.algorithm,
                                n,
                                g.size(),
                                comparison.to_text(),
                                comparison.to_json(),
                                predicted.compute,
                                predicted.comm,
                                predicted.division,
                                0.0,
                                0.0,
                                0.0};
        measured_parts(trace.merged(), steps.measured_compute, steps.measured_comm, steps.measured_division);
        return true;
    } catch (const Error& e) {
        std::cerr << "\nllc-validate: no superstep comparison for " << c.algorithm << ": " << e.what() << '\n';
        return false;
    }
}

}  // namespace

/// Measures every point in measuring_rounds rounds of r.slices slices (see rounds.hpp). Collective over the world.
Taken measure_in_rounds(const Rounds& r,
                        const std::vector<Point>& points,
                        tools::SpeedReference& speed,
                        const std::function<void(const std::string&)>& step) {
    Group& world = r.world;
    const int P = world.size();
    const tools::SamplingRule rule = slice_rule(r.rule, r.slices);
    const int passes = measuring_rounds * r.slices;
    Taken taken(points.size());
    std::vector<std::size_t> order(points.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::mt19937_64 rng(20240601);  // the same order on every rank: the sub-groups are made collectively
    for (int pass = 0; pass < passes; ++pass) {
        const int round = round_of_pass(pass, measuring_rounds);
        std::shuffle(order.begin(), order.end(), rng);
        std::deque<std::size_t> todo(order.begin(), order.end());
        std::vector<int> retries(points.size(), 0);
        while (!todo.empty()) {
            const std::size_t i = todo.front();
            todo.pop_front();
            const Point& point = points[i];
            const Case& c = r.cases[point.case_index];
            step(c.algorithm + " n=" + std::to_string(point.n) + " p=" + std::to_string(point.p));
            Group& sub = point.p == P ? world : world.subgroup({point.p, P - point.p});
            int again = 0;  // the visit fell in a slow phase: measured again at the end of the pass (on the group)
            if (world.rank() < point.p) {
                const auto instance = c.prepare(sub, point.n);
                std::vector<tools::Sample> samples = tools::sample(
                    sub.native(), [&] { instance->run(); }, rule, speed);
                again = retries[i] < max_visit_retries && slow_visit(samples, speed, rule) ? 1 : 0;
                if (again == 0) {
                    auto& pooled = taken.samples[i][static_cast<std::size_t>(round)];
                    pooled.insert(pooled.end(), samples.begin(), samples.end());
                    if (pass + 1 == passes && point.largest && point.p == r.trace_p && r.ccm != nullptr) {
                        taken.traced[i] =
                            trace_and_compare(sub, *instance, c, point.n, r.profile, *r.ccm, taken.steps[i]);
                    }
                }
            }
            if (end_visit(world.native(), speed, again != 0)) {
                ++retries[i];
                todo.push_back(i);
            }
        }
    }
    return taken;
}

}  // namespace llc::validate
