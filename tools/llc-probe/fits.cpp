// llc-probe's per-model parameter fits (see fits.hpp).
#include "fits.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <llc/cost/model.hpp>

#include "measure.hpp"

namespace llc::probe {

namespace {

/// Sum of squared relative residuals of a line.
double relative_sse(const Line& line, std::span<const cost::Sample> samples) {
    double sse = 0.0;
    for (const auto& s : samples) {
        if (s.seconds > 0.0) {
            const double r = (line.intercept + line.slope * s.bytes - s.seconds) / s.seconds;
            sse += r * r;
        }
    }
    return sse;
}

}  // namespace

Line relative_line_fit(std::span<const cost::Sample> samples) {
    // Weighted normal equations with w = 1/y².
    double sw = 0.0;
    double swx = 0.0;
    double swxx = 0.0;
    double swy = 0.0;
    double swxy = 0.0;
    for (const auto& s : samples) {
        if (!(s.seconds > 0.0)) {
            continue;
        }
        const double w = 1.0 / (s.seconds * s.seconds);
        sw += w;
        swx += w * s.bytes;
        swxx += w * s.bytes * s.bytes;
        swy += w * s.seconds;
        swxy += w * s.bytes * s.seconds;
    }
    if (sw == 0.0) {
        return {};
    }
    std::vector<Line> candidates;
    const double det = sw * swxx - swx * swx;
    if (det > 0.0) {
        const Line full{(swxx * swy - swx * swxy) / det, (sw * swxy - swx * swy) / det};
        if (full.intercept >= 0.0 && full.slope >= 0.0) {
            candidates.push_back(full);
        }
    }
    candidates.push_back({std::max(swy / sw, 0.0), 0.0});                        // constant
    candidates.push_back({0.0, swxx > 0.0 ? std::max(swxy / swxx, 0.0) : 0.0});  // through the origin
    Line best = candidates.front();
    double best_sse = std::numeric_limits<double>::infinity();
    for (const Line& c : candidates) {
        const double sse = relative_sse(c, samples);
        if (sse < best_sse) {
            best_sse = sse;
            best = c;
        }
    }
    return best;
}

cost::Piecewise fit_piecewise(std::vector<cost::Sample> medians) {
    for (auto& s : medians) {
        s.seconds = std::max(s.seconds, 1e-9);
    }
    std::sort(medians.begin(), medians.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
    // A piece is added when it removes more than (1.4 %)² of mean squared relative residual. BIC (the default) keeps
    // one piece for 14 noisy medians spanning six decades (median residual 20 % on this machine).
    cost::FitOptions options;
    options.max_segments = 8;
    options.min_points_per_segment = 3;
    options.segment_penalty = 2e-4 * static_cast<double>(medians.size());
    return cost::Piecewise::fit(medians, options);
}

cost::HockneyParams fit_hockney(std::span<const cost::Sample> one_way) {
    const Line line = relative_line_fit(one_way);
    return {line.intercept, line.slope};
}

cost::LogGPParams fit_loggp(
    std::span<const cost::Sample> one_way, double send_overhead, double back_to_back_1, double back_to_back_k, int k) {
    cost::LogGPParams p;
    p.G = relative_line_fit(one_way).slope;
    p.o = std::max(send_overhead, 0.0);
    p.g = k > 1 ? std::max((back_to_back_k - back_to_back_1) / (k - 1), 0.0) : 0.0;
    if (!one_way.empty()) {
        const auto smallest = *std::min_element(
            one_way.begin(), one_way.end(), [](const auto& a, const auto& b) { return a.bytes < b.bytes; });
        p.L = std::max(smallest.seconds - 2.0 * p.o - std::max(smallest.bytes - 1.0, 0.0) * p.G, 0.0);
    }
    return p;
}

cost::BSPParams fit_bsp(int p, std::span<const cost::Sample> alltoall, double barrier) {
    cost::BSPParams params;
    params.l = std::max(barrier, 0.0);
    if (p < 2) {
        return params;
    }
    std::vector<cost::Sample> relation;
    for (const auto& s : alltoall) {
        relation.push_back({s.bytes * (p - 1) / p, s.seconds});
    }
    params.g = relative_line_fit(relation).slope;
    return params;
}

cost::C3Params fit_c3(int p, std::span<const cost::Sample> one_way) {
    cost::C3Params best;
    best.topology = cost::C3Topology::complete;
    double best_residual = std::numeric_limits<double>::infinity();
    const int procs = std::max(p, 2);
    for (const double l : {64.0, 256.0, 1024.0, 4096.0, 16384.0, 65536.0}) {
        cost::C3Machine machine;
        machine.p = procs;
        machine.h = cost::c3_latency(cost::C3Topology::complete, procs);
        machine.b = cost::c3_bisection(cost::C3Topology::complete, procs);
        machine.l = l;
        machine.s = 0.0;
        std::vector<cost::Sample> in_units;
        for (const auto& s : one_way) {
            in_units.push_back({cost::c3_pattern(machine, cost::C3Pattern::one_to_one, s.bytes).total(), s.seconds});
        }
        const Line line = relative_line_fit(in_units);
        if (!(line.slope > 0.0)) {
            continue;
        }
        std::vector<double> residuals;
        for (const auto& s : in_units) {
            if (s.seconds > 0.0) {
                residuals.push_back(std::abs(line.intercept + line.slope * s.bytes - s.seconds) / s.seconds);
            }
        }
        const double r = median(residuals);
        if (r < best_residual) {
            best_residual = r;
            best.setup = line.intercept;
            best.packet_time = line.slope;
            best.packet_bytes = l;
        }
    }
    return best;
}

}  // namespace llc::probe
