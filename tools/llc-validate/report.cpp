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
#include <llc/trace.hpp>

namespace llc::validate {
namespace {

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
}

std::string csv(const Report& report) {
    std::ostringstream out;
    out << "algorithm,family,size_unit,n,p,oversubscribed,repetitions,measured_median_s,measured_p10_s,measured_p90_s,"
           "disturbed_samples,raw_median_s,model,predicted_s,relative_error,extrapolated,round_spread,inside_band,link_"
           "canary_s\n";
    out.precision(std::numeric_limits<double>::max_digits10);  // read back exactly by --reprice
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
                        {"profile_canary_link_median_s", report.profile_canary_link_median_s},
                        {"canary_throughput_s", report.canary_throughput_s},
                        {"profile_canary_throughput_s", report.profile_canary_throughput_s},
                        {"throughput_slowed_share", report.throughput_slowed_share},
                        {"profile_kernel_rank_ratio", report.profile_kernel_rank_ratio}};
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
    const auto accuracy_json = [](const Accuracy& a) {
        return nlohmann::json{{"count", a.count},
                              {"median_abs_error", number_or_null(a.median_abs)},
                              {"p90_abs_error", number_or_null(a.p90_abs)},
                              {"max_abs_error", number_or_null(a.max_abs)},
                              {"inside_band", number_or_null(a.inside_band)}};
    };
    auto& verdict = root["verdicts"] = nlohmann::json::array();
    for (const Judged& j : verdicts(report)) {
        nlohmann::json models = nlohmann::json::object();
        for (const auto& model : report.models) {
            models[model] = accuracy_json(accuracy(report, j.algorithm, model, j.processors));
        }
        verdict.push_back({{"algorithm", j.algorithm},
                           {"processors", to_string(j.processors)},
                           {"verdict", to_string(j.verdict.outcome)},
                           {"why", j.verdict.why},
                           {"bound_median", j.bound},
                           {"bound_p90", p90_bound},
                           {"noise_floor",
                            {{"count", j.floor.count},
                             {"median", number_or_null(j.floor.median)},
                             {"p90", number_or_null(j.floor.p90)}}},
                           {"whole_run_price", j.whole_run_price},
                           {"accuracy", models}});
    }
    const Counts c = count(verdicts(report));
    root["counts"] = {{"meets", c.meets}, {"misses", c.misses}, {"inconclusive", c.inconclusive}};
    return root.dump(1);
}

/// The per-superstep comparisons of the traced runs (supersteps.json): large, so apart from results.json.
std::string supersteps_json(const Report& report) {
    nlohmann::json supersteps = nlohmann::json::array();
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
    return nlohmann::json{{"supersteps", supersteps}}.dump(1);
}

std::string supersteps_md(const Report& report) {
    std::ostringstream out;
    out << "# llc-validate: the traced runs, superstep by superstep (CCM)\n\n"
        << "For the largest size of each case, at p = min(P, cores), one more run was traced and held against the "
        << "case's cost Expr node by node.\n";
    for (const auto& s : report.supersteps) {
        out << "\n## Supersteps of " << s.algorithm << " (n = " << s.n << ", p = " << s.p << "), CCM\n\n```\n"
            << s.comparison_text << "```\n";
    }
    return out.str();
}

std::string verdicts_csv(const std::vector<Judged>& judged) {
    std::ostringstream out;
    out.precision(6);
    out << "algorithm,processors,verdict,points,bound_median,ccm_median_abs,ccm_p90_abs,bsp_median_abs,"
           "hockney_median_abs,floor_median,floor_p90,whole_run_price\n";
    const auto number = [](double v) { return std::isfinite(v) ? std::to_string(v) : std::string(); };
    for (const Judged& j : judged) {
        out << j.algorithm << ',' << to_string(j.processors) << ',' << to_string(j.verdict.outcome) << ','
            << j.ccm.count << ',' << j.bound << ',' << number(j.ccm.median_abs) << ',' << number(j.ccm.p90_abs) << ','
            << number(j.bsp.median_abs) << ',' << number(j.hockney.median_abs) << ',' << number(j.floor.median) << ','
            << number(j.floor.p90) << ',' << (j.whole_run_price ? 1 : 0) << '\n';
    }
    return out.str();
}

void machine_state(std::ostream& out, const Report& report) {
    const auto state = [&](const char* what, double then, double now) {
        if (then > 0.0 && now > 0.0) {
            out << "Machine state: " << what << " canary " << std::setprecision(3) << 1e6 * now << " µs in this run, "
                << 1e6 * then << " µs when the profile was calibrated (×" << now / then << ").\n";
        }
    };
    state("CPU", report.profile_canary_cpu_s, report.canary_cpu_s);
    state("link", report.profile_canary_link_s, report.canary_link_s);
    state("throughput", report.profile_canary_throughput_s, report.canary_throughput_s);
    if (report.canary_throughput_s > 0.0) {
        out << "Machine state: " << std::setprecision(3) << 100.0 * report.throughput_slowed_share
            << " % of the samples this run kept were taken while a processor ran more than "
            << 100.0 * (tools::throughput_canary_tolerance - 1.0)
            << " % below its fastest issue rate (throughput canary: a busy sibling hyperthread); a median leaves them "
               "out where its point has enough others.\n";
    }
    if (const double ratio = report.profile_kernel_rank_ratio; ratio > 0.0) {
        const bool even = std::max(ratio, 1.0 / ratio) <= tools::processors_even_tolerance;
        out << "Machine state: the profile's processors ran its kernel probes side by side at ×" << std::setprecision(3)
            << ratio << " of rank 0's (the farthest rank)"
            << (even ? ", even.\n"
                     : ": uneven, one ran slowed through much of the calibration and p > 1 is priced at its speed "
                       "(calibrate again; llc-probe --inspect exits 4).\n");
    }
    if (report.profile_canary_link_median_s > 0.0 && report.canary_link_median_s > 0.0) {
        out << "Machine state: median link canary on two processors " << std::setprecision(3)
            << 1e6 * report.canary_link_median_s << " µs in this run, " << 1e6 * report.profile_canary_link_median_s
            << " µs during the calibration (×" << report.canary_link_median_s / report.profile_canary_link_median_s
            << ").\n";
    }
}

/// One cell group of the first screen's table: "meets 4.1 / 9.0 % (floor 2.0 %)", or "–" where the group was not run.
std::string verdict_cell(const Judged* j) {
    if (j == nullptr) {
        return "– | – | –";
    }
    return std::string(to_string(j->verdict.outcome)) + (j->whole_run_price ? " †" : "") + " | " +
           format_percent(j->ccm.median_abs) + " / " + format_percent(j->ccm.p90_abs) + " | " +
           format_percent(j->floor.median);
}

/// The first screen: one line per case, its p = 1 and p > 1 verdicts side by side.
void verdict_table(std::ostream& out, const std::vector<Judged>& judged) {
    out << "| case | bound | p = 1 | CCM median / P90 | floor | p > 1 | CCM median / P90 | floor |\n"
        << "|---|---|---|---|---|---|---|---|\n";
    for (std::size_t i = 0; i < judged.size();) {
        const Judged* one = judged[i].processors == Processors::one ? &judged[i] : nullptr;
        const std::size_t next = i + (one != nullptr ? 1 : 0);
        const Judged* several = next < judged.size() && judged[next].algorithm == judged[i].algorithm &&
                                        judged[next].processors == Processors::several
                                    ? &judged[next]
                                    : nullptr;
        out << "| " << judged[i].algorithm << " | " << format_percent(judged[i].bound) << " | " << verdict_cell(one)
            << " | " << verdict_cell(several) << " |\n";
        i = next + (several != nullptr ? 1 : 0);
    }
}

/// Why each group that did not meet did not, with the other models' medians.
void reasons(std::ostream& out, const std::vector<Judged>& judged) {
    for (const Judged& j : judged) {
        if (j.verdict.outcome != Outcome::meets) {
            out << "- " << j.algorithm << " (" << to_string(j.processors) << ", " << j.ccm.count
                << " points): " << j.verdict.why << "; BSP " << format_percent(j.bsp.median_abs) << ", Hockney "
                << format_percent(j.hockney.median_abs) << "; floor P90 " << format_percent(j.floor.p90) << "\n";
        }
    }
}

/// Every model's median (P90) |error| per case and group: below the verdicts, for the comparison of the models.
void model_table(std::ostream& out, const Report& report, const std::vector<Judged>& judged) {
    out << "| case | p |";
    for (const auto& model : report.models) {
        out << ' ' << model << " |";
    }
    out << "\n|---|---|";
    for (std::size_t i = 0; i < report.models.size(); ++i) {
        out << "---|";
    }
    out << '\n';
    for (const Judged& j : judged) {
        out << "| " << j.algorithm << " | " << to_string(j.processors) << " |";
        for (const auto& model : report.models) {
            const Accuracy a = accuracy(report, j.algorithm, model, j.processors);
            out << ' ' << (a.count > 0 ? format_percent(a.median_abs) + " (" + format_percent(a.p90_abs) + ")" : "–")
                << " |";
        }
        out << '\n';
    }
}

std::string summary(const Report& report) {
    const std::vector<Judged> judged = verdicts(report);
    std::ostringstream out;
    out << "# llc-validate: " << counts_line(judged) << "\n\n";
    out << report.world_size << " processors, " << report.cores << " cores; profile `" << report.profile_path << "` ("
        << report.profile_date << "); sizes `" << report.size_class << "`.\n";
    machine_state(out, report);
    out << "\nVerdict rule (docs/validation.md, frozen): p = 1 and p > 1 judged apart; **inconclusive** when the "
        << "floor median > half the bound; else **meets** when CCM median ≤ bound, P90 ≤ " << format_percent(p90_bound)
        << " and neither BSP nor Hockney is closer head to head; else **misses**. "
        << "† p = 1 priced from a probe timing a whole run (at other sizes and seeds).\n\n";
    verdict_table(out, judged);
    out << "\n## Why the others did not meet\n\n";
    reasons(out, judged);
    out << "\n## Every model: median (P90) |error| per case and group\n\n";
    model_table(out, report, judged);
    out << "\nErrors are |predicted − measured| / measured over the runs with p ≤ cores (oversubscribed runs are in "
        << "results.csv only). Measured: the median of the samples taken at the machine's full speed (the canaries "
        << "of llc/tools/timing.hpp). The floor: per point, how far the medians of its three measuring rounds lie "
        << "apart. The traced runs, superstep by superstep: supersteps.md.\n";
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

/// Critical-path parts of a merged trace: along a division, the slowest task.
void measured_parts(const TraceNode& node, double& compute, double& comm, double& division) {
    switch (node.kind) {
        case StepKind::normal:
            compute += node.compute;
            comm += node.comm;
            return;
        case StepKind::compute:
            compute += node.compute;
            return;
        case StepKind::division: {
            compute += node.compute;
            division += node.split + node.exchange + node.rejoin;
            const TraceNode* slowest = nullptr;
            for (const auto& task : node.children) {
                if (slowest == nullptr || task.total() > slowest->total()) {
                    slowest = &task;
                }
            }
            if (slowest != nullptr) {
                measured_parts(*slowest, compute, comm, division);
            }
            return;
        }
        case StepKind::task:
        case StepKind::root:
            for (const auto& child : node.children) {
                measured_parts(child, compute, comm, division);
            }
            return;
    }
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
    write_file_atomically(dir + "/verdicts.csv", verdicts_csv(verdicts(report)), "llc-validate");
    write_file_atomically(dir + "/supersteps.json", supersteps_json(report), "llc-validate");
    write_file_atomically(dir + "/supersteps.md", supersteps_md(report), "llc-validate");
    const std::string text = summary(report);
    write_file_atomically(dir + "/summary.md", text, "llc-validate");
    return text;
}

}  // namespace llc::validate
