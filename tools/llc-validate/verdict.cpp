// The verdict rule of docs/validation.md ("The verdict rule", frozen on 2026-11-26): each case judged on its p = 1
// points and, apart, on its 1 < p ≤ cores points; meets / misses / inconclusive.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

#include "report.hpp"

namespace llc::validate {
namespace {

Accuracy accuracy_of(const std::vector<double>& abs_errors, int inside_band) {
    Accuracy a;
    a.count = static_cast<int>(abs_errors.size());
    a.median_abs = quantile(abs_errors, 0.5);
    a.p90_abs = quantile(abs_errors, 0.9);
    a.max_abs = quantile(abs_errors, 1.0);
    a.inside_band = abs_errors.empty() ? std::numeric_limits<double>::quiet_NaN()
                                       : static_cast<double>(inside_band) / static_cast<double>(abs_errors.size());
    return a;
}

/// The relative error of `model` at `m`, NaN when it did not price the point.
double error_of(const Measurement& m, const std::string& model) {
    const auto it = m.predictions.find(model);
    return it == m.predictions.end() ? std::numeric_limits<double>::quiet_NaN() : it->second.relative_error;
}

/// "misses: …" when the CCM's own errors break a bound, empty when they do not.
std::string bound_broken(const AccuracyGoal& goal, const Accuracy& ccm) {
    if (!(ccm.median_abs <= goal.median)) {
        return "misses: median " + format_percent(ccm.median_abs) + " > " + format_percent(goal.median);
    }
    if (!(ccm.p90_abs <= p90_bound)) {
        return "misses: P90 " + format_percent(ccm.p90_abs) + " > " + format_percent(p90_bound);
    }
    return {};
}

/// "misses: BSP closer (…)" when another model is closer head to head, empty when none is.
std::string rival_closer(const Accuracy& ccm, const std::vector<Rival>& rivals) {
    // "Closer" by a difference the report shows (its medians to 0.1 %), over the points where the two predictions
    // differ by more than the measurement repeats itself (head_to_head): where the run is all local work every model
    // prices it alike, and differences in the fourth digit of the communication priced by each would otherwise decide
    // a verdict whose table prints the same median for both.
    for (const Rival& r : rivals) {
        if (r.rival.count > 0 && r.ccm.count > 0 && r.rival.median_abs < r.ccm.median_abs &&
            format_percent(r.rival.median_abs) != format_percent(r.ccm.median_abs)) {
            std::ostringstream why;
            why << "misses: " << r.name << " closer (" << format_percent(r.rival.median_abs) << " < "
                << format_percent(r.ccm.median_abs);
            if (r.rival.count < ccm.count) {
                why << " over the " << r.rival.count << " of " << ccm.count << " points that tell them apart";
            }
            why << ")";
            return why.str();
        }
    }
    return {};
}

}  // namespace

std::string format_percent(double value) {
    if (!std::isfinite(value)) {
        return "n/a";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100.0 * value);
    return text;
}

const char* to_string(Processors processors) {
    return processors == Processors::one ? "p = 1" : "p > 1";
}

const char* to_string(Outcome outcome) {
    switch (outcome) {
        case Outcome::meets:
            return "meets";
        case Outcome::misses:
            return "misses";
        case Outcome::inconclusive:
            return "inconclusive";
    }
    return "?";
}

bool in_group(const Measurement& m, Processors processors) {
    return !m.oversubscribed && (processors == Processors::one ? m.p == 1 : m.p > 1);
}

std::vector<std::string> algorithms(const Report& report) {
    std::vector<std::string> names;
    for (const auto& m : report.measurements) {
        if (std::find(names.begin(), names.end(), m.algorithm) == names.end()) {
            names.push_back(m.algorithm);
        }
    }
    return names;
}

Accuracy accuracy(const Report& report, const std::string& algorithm, const std::string& model, Processors processors) {
    std::vector<double> errors;
    int inside = 0;
    for (const auto& m : report.measurements) {
        if (m.algorithm != algorithm || !in_group(m, processors)) {
            continue;
        }
        const auto it = m.predictions.find(model);
        if (it != m.predictions.end() && std::isfinite(it->second.relative_error)) {
            errors.push_back(std::abs(it->second.relative_error));
            inside += it->second.inside_band ? 1 : 0;
        }
    }
    return accuracy_of(errors, inside);
}

NoiseFloor noise_floor(const Report& report, const std::string& algorithm, Processors processors) {
    std::vector<double> spreads;
    for (const auto& m : report.measurements) {
        if (m.algorithm == algorithm && in_group(m, processors) && std::isfinite(m.round_spread)) {
            spreads.push_back(m.round_spread);
        }
    }
    return {static_cast<int>(spreads.size()), quantile(spreads, 0.5), quantile(spreads, 0.9)};
}

Rival head_to_head(const Report& report,
                   const std::string& algorithm,
                   const std::string& model,
                   Processors processors) {
    Rival r{model == "bsp" ? "BSP" : model == "hockney" ? "Hockney" : model, {}, {}};
    std::vector<double> ccm_errors;
    std::vector<double> rival_errors;
    for (const auto& m : report.measurements) {
        if (m.algorithm != algorithm || !in_group(m, processors)) {
            continue;
        }
        const double ccm = error_of(m, "ccm");
        const double rival = error_of(m, model);
        if (!std::isfinite(ccm) || !std::isfinite(rival)) {
            continue;
        }
        // Both errors are relative to the same measured median: their difference is the predictions' difference.
        const double noise = std::isfinite(m.round_spread) ? m.round_spread : 0.0;
        if (std::abs(rival - ccm) > noise) {
            ccm_errors.push_back(std::abs(ccm));
            rival_errors.push_back(std::abs(rival));
        }
    }
    r.ccm = accuracy_of(ccm_errors, 0);
    r.rival = accuracy_of(rival_errors, 0);
    return r;
}

Verdict judge(const AccuracyGoal& goal,
              const Accuracy& ccm,
              const std::vector<Rival>& rivals,
              const NoiseFloor& floor) {
    const std::string errors = "CCM median " + format_percent(ccm.median_abs) + ", P90 " + format_percent(ccm.p90_abs);
    if (floor.count == 0) {
        return {Outcome::inconclusive, "inconclusive: floor not measured (" + errors + ")"};
    }
    const double floor_limit = floor_share_of_bound * goal.median;
    if (!(floor.median <= floor_limit)) {
        return {Outcome::inconclusive,
                "inconclusive: floor " + format_percent(floor.median) + " > " + format_percent(floor_limit) + " (" +
                    errors + ")"};
    }
    if (ccm.count == 0) {
        return {Outcome::misses, "misses: the CCM priced no point"};
    }
    if (std::string why = bound_broken(goal, ccm); !why.empty()) {
        return {Outcome::misses, why};
    }
    if (std::string why = rival_closer(ccm, rivals); !why.empty()) {
        return {Outcome::misses, why};
    }
    return {Outcome::meets, "meets"};
}

std::vector<Judged> verdicts(const Report& report) {
    std::vector<Judged> result;
    for (const std::string& algorithm : algorithms(report)) {
        const auto goal = report.goals.find(algorithm);
        const AccuracyGoal bound = goal == report.goals.end() ? AccuracyGoal{} : goal->second;
        const auto whole = report.p1_priced_by_whole_run.find(algorithm);
        for (const Processors processors : {Processors::one, Processors::several}) {
            const bool any = std::any_of(report.measurements.begin(), report.measurements.end(), [&](const auto& m) {
                return m.algorithm == algorithm && in_group(m, processors);
            });
            if (!any) {
                continue;  // not run: counts in no total
            }
            Judged j{algorithm,
                     processors,
                     bound.median,
                     accuracy(report, algorithm, "ccm", processors),
                     accuracy(report, algorithm, "bsp", processors),
                     accuracy(report, algorithm, "hockney", processors),
                     noise_floor(report, algorithm, processors),
                     {},
                     processors == Processors::one && whole != report.p1_priced_by_whole_run.end() && whole->second};
            const std::vector<Rival> rivals{head_to_head(report, algorithm, "bsp", processors),
                                            head_to_head(report, algorithm, "hockney", processors)};
            j.verdict = judge(bound, j.ccm, rivals, j.floor);
            result.push_back(std::move(j));
        }
    }
    return result;
}

Counts count(const std::vector<Judged>& judged, Processors processors) {
    Counts c;
    for (const Judged& j : judged) {
        if (j.processors != processors) {
            continue;
        }
        switch (j.verdict.outcome) {
            case Outcome::meets:
                ++c.meets;
                break;
            case Outcome::misses:
                ++c.misses;
                break;
            case Outcome::inconclusive:
                ++c.inconclusive;
                break;
        }
    }
    return c;
}

Counts count(const std::vector<Judged>& judged) {
    const Counts one = count(judged, Processors::one);
    const Counts several = count(judged, Processors::several);
    return {one.meets + several.meets, one.misses + several.misses, one.inconclusive + several.inconclusive};
}

std::string counts_line(const std::vector<Judged>& judged) {
    const auto text = [](const Counts& c) {
        return std::to_string(c.meets) + " meet, " + std::to_string(c.misses) + " miss, " +
               std::to_string(c.inconclusive) + " inconclusive";
    };
    return text(count(judged)) + " (p = 1: " + text(count(judged, Processors::one)) +
           "; p > 1: " + text(count(judged, Processors::several)) + ")";
}

}  // namespace llc::validate
