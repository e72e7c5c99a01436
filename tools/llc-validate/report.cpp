#include "report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <sstream>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <llc/error.hpp>
#include <llc/file.hpp>
#include <llc/tools/timing.hpp>

namespace llc::validate {
namespace {

std::string format_percent(double value) {
    if (!std::isfinite(value)) {
        return "n/a";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f %%", 100.0 * value);
    return text;
}

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

std::string csv(const Report& report) {
    std::ostringstream out;
    out << "algorithm,family,size_unit,n,p,oversubscribed,repetitions,measured_median_s,measured_p10_s,measured_p90_s,"
           "disturbed_samples,raw_median_s,model,predicted_s,relative_error,extrapolated,round_spread,inside_band,link_"
           "canary_s\n";
    out.precision(9);
    for (const auto& m : report.measurements) {
        for (const auto& model : report.models) {
            const auto it = m.predictions.find(model);
            const Prediction none{
                std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(), false, "not run"};
            const Prediction& prediction = it == m.predictions.end() ? none : it->second;
            out << m.algorithm << ',' << m.family << ',' << '"' << m.size_unit << '"' << ',' << m.n << ',' << m.p << ','
                << (m.oversubscribed ? 1 : 0) << ',' << m.repetitions << ',' << m.median_s << ',' << m.p10_s << ','
                << m.p90_s << ',' << m.disturbed << ',' << m.raw_median_s << ',' << model << ',';
            if (std::isfinite(prediction.seconds)) {
                out << prediction.seconds << ',' << prediction.relative_error;
            } else {
                out << ',';
            }
            out << ',' << (prediction.extrapolated ? 1 : 0) << ',';
            if (std::isfinite(m.round_spread)) {
                out << m.round_spread;
            }
            out << ',' << (prediction.inside_band ? 1 : 0) << ',' << m.link_canary_s << '\n';
        }
    }
    return out.str();
}

/// The goal of `algorithm`'s case (the default goal if the report has none for it).
AccuracyGoal goal_of(const Report& report, const std::string& algorithm) {
    const auto it = report.goals.find(algorithm);
    return it == report.goals.end() ? AccuracyGoal{} : it->second;
}

std::string json(const Report& report) {
    nlohmann::json root{{"profile", report.profile_path},
                        {"profile_date", report.profile_date},
                        {"world_size", report.world_size},
                        {"cores", report.cores},
                        {"sizes", report.size_class},
                        {"models", report.models},
                        {"canary_cpu_s", report.canary_cpu_s},
                        {"canary_link_s", report.canary_link_s},
                        {"profile_canary_cpu_s", report.profile_canary_cpu_s},
                        {"profile_canary_link_s", report.profile_canary_link_s},
                        {"canary_link_median_s", report.canary_link_median_s},
                        {"profile_canary_link_median_s", report.profile_canary_link_median_s}};
    auto& measurements = root["measurements"] = nlohmann::json::array();
    for (const auto& m : report.measurements) {
        nlohmann::json predictions = nlohmann::json::object();
        for (const auto& [model, p] : m.predictions) {
            predictions[model] = {{"predicted_s", number_or_null(p.seconds)},
                                  {"relative_error", number_or_null(p.relative_error)},
                                  {"extrapolated", p.extrapolated},
                                  {"inside_band", p.inside_band}};
            if (!p.why_not.empty()) {
                predictions[model]["why_not"] = p.why_not;
            }
        }
        measurements.push_back({{"algorithm", m.algorithm},
                                {"family", m.family},
                                {"size_unit", m.size_unit},
                                {"n", m.n},
                                {"p", m.p},
                                {"oversubscribed", m.oversubscribed},
                                {"repetitions", m.repetitions},
                                {"measured_median_s", m.median_s},
                                {"measured_p10_s", m.p10_s},
                                {"measured_p90_s", m.p90_s},
                                {"disturbed_samples", m.disturbed},
                                {"raw_median_s", m.raw_median_s},
                                {"round_spread", number_or_null(m.round_spread)},
                                {"link_canary_s", m.link_canary_s},
                                {"predictions", predictions}});
    }
    auto& supersteps = root["supersteps"] = nlohmann::json::array();
    for (const auto& s : report.supersteps) {
        supersteps.push_back(
            {{"algorithm", s.algorithm},
             {"n", s.n},
             {"p", s.p},
             {"predicted",
              {{"compute", s.predicted_compute}, {"comm", s.predicted_comm}, {"division", s.predicted_division}}},
             {"measured",
              {{"compute", s.measured_compute}, {"comm", s.measured_comm}, {"division", s.measured_division}}},
             {"comparison", nlohmann::json::parse(s.comparison_json)}});
    }
    auto& summary = root["accuracy"] = nlohmann::json::object();
    for (const auto& [algorithm, by_model] : accuracy(report)) {
        for (const auto& [model, a] : by_model) {
            summary[algorithm][model] = {{"count", a.count},
                                         {"median_abs_error", number_or_null(a.median_abs)},
                                         {"p90_abs_error", number_or_null(a.p90_abs)},
                                         {"max_abs_error", number_or_null(a.max_abs)},
                                         {"inside_band", number_or_null(a.inside_band)}};
        }
    }
    auto& floor = root["noise_floor"] = nlohmann::json::object();
    for (const auto& [algorithm, f] : noise_floor(report)) {
        floor[algorithm] = {{"count", f.count}, {"median", number_or_null(f.median)}, {"p90", number_or_null(f.p90)}};
    }
    auto& verdict = root["verdict"] = nlohmann::json::object();
    for (const auto& [algorithm, v] : verdicts(report)) {
        const AccuracyGoal goal = goal_of(report, algorithm);
        verdict[algorithm] = {{"meets", v.meets},
                              {"why", v.why},
                              {"bound_median", goal.median},
                              {"bound_p90", goal.p90 ? nlohmann::json(*goal.p90) : nlohmann::json(nullptr)},
                              {"floor_factor", goal.floor_factor}};
    }
    return root.dump(1);
}

std::string summary(const Report& report) {
    std::ostringstream out;
    out << "# llc-validate: predicted against measured\n\n";
    out << "Profile `" << report.profile_path << "` (" << report.profile_date << "); " << report.world_size
        << " processors, " << report.cores << " cores; sizes `" << report.size_class
        << "`. Errors are |predicted − measured| / measured over the runs with p ≤ cores ("
        << "oversubscribed runs are in results.csv but not here). Measured is the median of the samples taken at the "
        << "machine's full speed (the canaries of llc/tools/timing.hpp; the samples left out are counted in "
        << "results.csv).\n\n";
    const auto state = [&](const char* what, double then, double now) {
        if (then > 0.0 && now > 0.0) {
            out << "Machine state: " << what << " canary " << std::setprecision(3) << 1e6 * now << " µs in this run, "
                << 1e6 * then << " µs when the profile was calibrated (×" << now / then << ").\n";
        }
    };
    state("CPU", report.profile_canary_cpu_s, report.canary_cpu_s);
    state("link", report.profile_canary_link_s, report.canary_link_s);
    if (report.profile_canary_link_median_s > 0.0 && report.canary_link_median_s > 0.0) {
        out << "Machine state: median link canary on two processors " << std::setprecision(3)
            << 1e6 * report.canary_link_median_s << " µs in this run, " << 1e6 * report.profile_canary_link_median_s
            << " µs during the calibration (×" << report.canary_link_median_s / report.profile_canary_link_median_s
            << "): the host's placement of the processors, which moves small messages at p = 2 most "
            << "(docs/validation.md).\n";
    }
    out << "\n| algorithm | model | runs | median |error| | P90 |error| | max |error| | in band | best |\n";
    out << "|---|---|---|---|---|---|---|---|\n";
    for (const auto& [algorithm, by_model] : accuracy(report)) {
        std::string best;
        double best_median = std::numeric_limits<double>::infinity();
        for (const auto& [model, a] : by_model) {
            if (a.count > 0 && a.median_abs < best_median) {
                best_median = a.median_abs;
                best = model;
            }
        }
        for (const auto& model : report.models) {
            const auto it = by_model.find(model);
            if (it == by_model.end() || it->second.count == 0) {
                continue;
            }
            const Accuracy& a = it->second;
            out << "| " << algorithm << " | " << model << " | " << a.count << " | " << format_percent(a.median_abs)
                << " | " << format_percent(a.p90_abs) << " | " << format_percent(a.max_abs) << " | "
                << format_percent(a.inside_band) << " | " << (model == best ? "best" : "") << " |\n";
        }
    }
    out << "\nIn band: the share of predictions inside the measured 10th–90th percentile band.\n";
    out << "\n## Goal: the CCM within each case's bound (or 1.5 × its noise floor), at least as accurate as BSP and "
           "Hockney\n\n";
    out << "The noise floor is the measurement's own repeatability: each point is measured in rounds seconds apart, "
        << "and the floor is the median (and P90) over the points of |one round's median − another's| / median. No "
        << "model can be judged closer than the machine repeats itself: where a case's floor median is above its "
        << "bound, the CCM's median |error| is held to 1.5 times the floor instead. BSP or Hockney is closer when its "
        << "median |error| is below the CCM's over the points where the two predictions differ by more than the "
        << "point's round spread (where no point does, the machine cannot tell them apart).\n\n";
    out << "| algorithm | bound (median / P90) | CCM median | CCM P90 | BSP median | Hockney median | "
           "noise floor median / P90 | verdict |\n"
        << "|---|---|---|---|---|---|---|---|\n";
    const auto floors = noise_floor(report);
    const auto judged = verdicts(report);
    const auto accuracies = accuracy(report);
    for (std::size_t i = 0; i < accuracies.size(); ++i) {
        const auto& [algorithm, by_model] = accuracies[i];
        const auto get = [&](const std::string& model) {
            const auto it = by_model.find(model);
            return it == by_model.end() || it->second.count == 0 ? Accuracy{0, NAN, NAN, NAN} : it->second;
        };
        const AccuracyGoal goal = goal_of(report, algorithm);
        out << "| " << algorithm << " | " << format_percent(goal.median) << " / "
            << (goal.p90 ? format_percent(*goal.p90) : std::string("–")) << " | "
            << format_percent(get("ccm").median_abs) << " | " << format_percent(get("ccm").p90_abs) << " | "
            << format_percent(get("bsp").median_abs) << " | " << format_percent(get("hockney").median_abs) << " | ";
        if (floors[i].second.count > 0) {
            out << format_percent(floors[i].second.median) << " / " << format_percent(floors[i].second.p90);
        }
        out << " | " << judged[i].second.why << " |\n";
    }
    for (const auto& s : report.supersteps) {
        out << "\n## Supersteps of " << s.algorithm << " (n = " << s.n << ", p = " << s.p << "), CCM\n\n```\n"
            << s.comparison_text << "```\n";
    }
    return out.str();
}

/// How far the rounds' medians lie apart, relative to the pooled `median` (Measurement::round_spread). Each round's
/// median by the pooled rule: its undisturbed samples, or all of them where the pooled median had to keep them all.
double round_spread_of(const std::vector<std::vector<tools::Sample>>& rounds,
                       const tools::SpeedReference& speed,
                       bool all_kept,
                       double median) {
    std::vector<double> round_medians;
    for (const auto& round : rounds) {
        const std::vector<double> kept =
            all_kept ? tools::all_seconds(round) : tools::undisturbed_seconds(round, speed, 1);
        if (!kept.empty()) {
            round_medians.push_back(tools::quantile(kept, 0.5));
        }
    }
    return pairwise_spread(round_medians, median);
}

}  // namespace

std::vector<std::pair<std::string, std::map<std::string, Accuracy>>> accuracy(const Report& report) {
    std::vector<std::pair<std::string, std::map<std::string, Accuracy>>> result;
    for (const auto& m : report.measurements) {
        if (result.empty() || result.back().first != m.algorithm) {
            const bool seen =
                std::any_of(result.begin(), result.end(), [&](const auto& r) { return r.first == m.algorithm; });
            if (!seen) {
                result.push_back({m.algorithm, {}});
            }
        }
    }
    for (auto& [algorithm, by_model] : result) {
        for (const auto& model : report.models) {
            std::vector<double> errors;
            int inside = 0;
            for (const auto& m : report.measurements) {
                if (m.algorithm != algorithm || m.oversubscribed) {
                    continue;
                }
                const auto it = m.predictions.find(model);
                if (it != m.predictions.end() && std::isfinite(it->second.relative_error)) {
                    errors.push_back(std::abs(it->second.relative_error));
                    inside += it->second.inside_band ? 1 : 0;
                }
            }
            Accuracy a;
            a.count = static_cast<int>(errors.size());
            a.inside_band = errors.empty() ? std::numeric_limits<double>::quiet_NaN()
                                           : static_cast<double>(inside) / static_cast<double>(errors.size());
            a.median_abs = quantile(errors, 0.5);
            a.p90_abs = quantile(errors, 0.9);
            a.max_abs = quantile(errors, 1.0);
            by_model[model] = a;
        }
    }
    return result;
}

Verdict judge(const AccuracyGoal& goal,
              const Accuracy& ccm,
              const Accuracy& bsp,
              const Accuracy& hockney,
              const NoiseFloor& floor) {
    return judge(goal, ccm, {Rival{"BSP", ccm, bsp}, Rival{"Hockney", ccm, hockney}}, floor);
}

Verdict judge(const AccuracyGoal& goal,
              const Accuracy& ccm,
              const std::vector<Rival>& rivals,
              const NoiseFloor& floor) {
    if (ccm.count == 0) {
        return {false, "no runs"};
    }
    // "Closer" by a difference the report shows (its medians to 0.1 %), over the points where the two predictions
    // differ by more than the measurement repeats itself (head_to_head): where the run is all local work (P ≤ 2 for
    // most algorithms) every model prices it alike, and differences in the fourth digit of the communication priced
    // by each would otherwise decide a verdict whose table prints the same median for both.
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
            return {false, why.str()};
        }
    }
    if (goal.p90 && !(ccm.p90_abs <= *goal.p90)) {
        return {false, "misses: P90 " + format_percent(ccm.p90_abs) + " > " + format_percent(*goal.p90)};
    }
    if (ccm.median_abs <= goal.median) {
        return {true, "meets"};
    }
    const bool floor_above = floor.count > 0 && floor.median > goal.median;
    std::ostringstream why;
    if (floor_above && ccm.median_abs <= goal.floor_factor * floor.median) {
        why << "meets (within " << goal.floor_factor << " × floor " << format_percent(floor.median) << ")";
        return {true, why.str()};
    }
    why << "misses: median " << format_percent(ccm.median_abs) << " > ";
    if (floor_above) {
        why << goal.floor_factor << " × floor " << format_percent(floor.median);
    } else {
        why << format_percent(goal.median);
    }
    return {false, why.str()};
}

Rival head_to_head(const Report& report, const std::string& algorithm, const std::string& model) {
    Rival r{model == "bsp" ? "BSP" : model == "hockney" ? "Hockney" : model, {}, {}};
    std::vector<double> ccm_errors;
    std::vector<double> rival_errors;
    for (const auto& m : report.measurements) {
        if (m.algorithm != algorithm || m.oversubscribed) {
            continue;
        }
        const auto ccm = m.predictions.find("ccm");
        const auto rival = m.predictions.find(model);
        if (ccm == m.predictions.end() || rival == m.predictions.end() || !std::isfinite(ccm->second.relative_error) ||
            !std::isfinite(rival->second.relative_error)) {
            continue;
        }
        // Both errors are relative to the same measured median: their difference is the predictions' difference.
        const double apart = std::abs(rival->second.relative_error - ccm->second.relative_error);
        const double noise = std::isfinite(m.round_spread) ? m.round_spread : 0.0;
        if (apart > noise) {
            ccm_errors.push_back(std::abs(ccm->second.relative_error));
            rival_errors.push_back(std::abs(rival->second.relative_error));
        }
    }
    for (auto& [errors, into] : {std::pair{&ccm_errors, &r.ccm}, std::pair{&rival_errors, &r.rival}}) {
        into->count = static_cast<int>(errors->size());
        into->median_abs = quantile(*errors, 0.5);
        into->p90_abs = quantile(*errors, 0.9);
        into->max_abs = quantile(*errors, 1.0);
    }
    return r;
}

std::vector<std::pair<std::string, Verdict>> verdicts(const Report& report) {
    const auto floors = noise_floor(report);
    const auto accuracies = accuracy(report);
    std::vector<std::pair<std::string, Verdict>> result;
    for (std::size_t i = 0; i < accuracies.size(); ++i) {
        const auto& [algorithm, by_model] = accuracies[i];
        const auto get = [&](const std::string& model) {
            const auto it = by_model.find(model);
            return it == by_model.end() ? Accuracy{} : it->second;
        };
        const std::vector<Rival> rivals{head_to_head(report, algorithm, "bsp"),
                                        head_to_head(report, algorithm, "hockney")};
        result.emplace_back(algorithm, judge(goal_of(report, algorithm), get("ccm"), rivals, floors[i].second));
    }
    return result;
}

std::vector<std::pair<std::string, NoiseFloor>> noise_floor(const Report& report) {
    std::vector<std::pair<std::string, NoiseFloor>> result;
    for (const auto& [algorithm, by_model] : accuracy(report)) {
        std::vector<double> spreads;
        for (const auto& m : report.measurements) {
            if (m.algorithm == algorithm && !m.oversubscribed && std::isfinite(m.round_spread)) {
                spreads.push_back(m.round_spread);
            }
        }
        NoiseFloor f;
        f.count = static_cast<int>(spreads.size());
        f.median = quantile(spreads, 0.5);
        f.p90 = quantile(spreads, 0.9);
        result.emplace_back(algorithm, f);
    }
    return result;
}

double pairwise_spread(const std::vector<double>& round_medians, double reference) {
    std::vector<double> differences;
    for (std::size_t i = 0; i < round_medians.size(); ++i) {
        for (std::size_t j = i + 1; j < round_medians.size(); ++j) {
            differences.push_back(std::abs(round_medians[i] - round_medians[j]) / reference);
        }
    }
    return differences.empty() || !(reference > 0.0) ? std::numeric_limits<double>::quiet_NaN()
                                                     : quantile(differences, 0.5);
}

double median_link_canary(const std::vector<tools::Sample>& samples) {
    std::vector<double> links;
    for (const tools::Sample& sample : samples) {
        if (sample.canary.link > 0.0) {
            links.push_back(sample.canary.link);
        }
    }
    return links.empty() ? 0.0 : tools::quantile(links, 0.5);
}

Measurement measurement_of(const Case& c,
                           std::int64_t n,
                           int p,
                           bool oversubscribed,
                           const std::vector<std::vector<tools::Sample>>& rounds,
                           const tools::SpeedReference& speed,
                           std::size_t at_least) {
    Measurement m;
    m.algorithm = c.algorithm;
    m.family = c.family;
    m.size_unit = c.size_unit;
    m.n = n;
    m.p = p;
    m.oversubscribed = oversubscribed;
    std::vector<tools::Sample> taken;
    for (const auto& round : rounds) {
        taken.insert(taken.end(), round.begin(), round.end());
    }
    bool all_kept = false;
    const std::vector<double> samples = tools::undisturbed_seconds(taken, speed, at_least, &all_kept);
    m.repetitions = static_cast<int>(taken.size());
    m.disturbed = static_cast<int>(taken.size() - samples.size());
    m.raw_median_s = tools::median(tools::all_seconds(taken));
    m.median_s = tools::quantile(samples, 0.5);
    m.p10_s = tools::quantile(samples, 0.1);
    m.p90_s = tools::quantile(samples, 0.9);
    m.round_spread = round_spread_of(rounds, speed, all_kept, m.median_s);
    m.link_canary_s = median_link_canary(taken);
    return m;
}

std::string write_report(const Report& report, const std::string& dir) {
    std::filesystem::create_directories(dir);
    write_file_atomically(dir + "/results.csv", csv(report), "llc-validate");
    write_file_atomically(dir + "/results.json", json(report), "llc-validate");
    const std::string text = summary(report);
    write_file_atomically(dir + "/summary.md", text, "llc-validate");
    return text;
}

}  // namespace llc::validate
