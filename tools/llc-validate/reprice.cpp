// Reading a report directory back (llc-validate --reprice): its measurements, to be priced again by today's cost
// functions, and the verdicts it recorded, for the accuracy gate (tests/validate: a case that met when the data were
// recorded must still meet).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <llc/error.hpp>

#include "report.hpp"

namespace llc::validate {
namespace {

/// The fields of one CSV line (double quotes around a field protect its commas; no quotes inside quotes).
std::vector<std::string> fields_of(const std::string& line) {
    std::vector<std::string> fields(1);
    bool quoted = false;
    for (const char c : line) {
        if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            fields.emplace_back();
        } else {
            fields.back() += c;
        }
    }
    return fields;
}

/// The rows of `path` as (column → value) maps, with the header's columns `required` checked.
std::vector<std::map<std::string, std::string>> read_csv(const std::string& path,
                                                         const std::vector<std::string>& required) {
    std::ifstream in(path);
    if (!in) {
        throw Error("llc-validate --reprice: cannot read '" + path + "'");
    }
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = fields_of(line);
    for (const auto& column : required) {
        if (std::find(header.begin(), header.end(), column) == header.end()) {
            throw Error("llc-validate --reprice: '" + path + "' has no column '" + column + "'");
        }
    }
    std::vector<std::map<std::string, std::string>> rows;
    for (int number = 2; std::getline(in, line); ++number) {
        const std::vector<std::string> fields = fields_of(line);
        if (fields.size() != header.size()) {
            throw Error("llc-validate --reprice: '" + path + "' line " + std::to_string(number) + " has " +
                        std::to_string(fields.size()) + " fields, the header " + std::to_string(header.size()));
        }
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < header.size(); ++i) {
            row[header[i]] = fields[i];
        }
        rows.push_back(std::move(row));
    }
    return rows;
}

double number(const std::map<std::string, std::string>& row, const std::string& column) {
    const std::string& text = row.at(column);
    if (text.empty()) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    try {
        return std::stod(text);
    } catch (const std::exception&) {
        throw Error("llc-validate --reprice: column '" + column + "' holds '" + text + "', not a number");
    }
}

}  // namespace

std::vector<Measurement> read_measurements(const std::string& results_csv) {
    const auto rows = read_csv(results_csv,
                               {"algorithm",
                                "family",
                                "size_unit",
                                "n",
                                "p",
                                "oversubscribed",
                                "repetitions",
                                "measured_median_s",
                                "measured_p10_s",
                                "measured_p90_s",
                                "disturbed_samples",
                                "raw_median_s",
                                "round_spread",
                                "link_canary_s"});
    std::vector<Measurement> measurements;
    std::set<std::tuple<std::string, std::int64_t, int>> seen;  // results.csv has a row per model of each point
    for (const auto& row : rows) {
        Measurement m;
        m.algorithm = row.at("algorithm");
        m.n = static_cast<std::int64_t>(number(row, "n"));
        m.p = static_cast<int>(number(row, "p"));
        if (!seen.insert({m.algorithm, m.n, m.p}).second) {
            continue;
        }
        m.family = row.at("family");
        m.size_unit = row.at("size_unit");
        m.oversubscribed = row.at("oversubscribed") == "1";
        m.repetitions = static_cast<int>(number(row, "repetitions"));
        m.median_s = number(row, "measured_median_s");
        m.p10_s = number(row, "measured_p10_s");
        m.p90_s = number(row, "measured_p90_s");
        m.disturbed = static_cast<int>(number(row, "disturbed_samples"));
        m.raw_median_s = number(row, "raw_median_s");
        m.round_spread = number(row, "round_spread");
        m.link_canary_s = number(row, "link_canary_s");
        if (!(m.median_s > 0.0)) {
            throw Error("llc-validate --reprice: '" + results_csv + "': " + m.algorithm +
                        " n = " + std::to_string(m.n) + " p = " + std::to_string(m.p) + " has no measured median");
        }
        measurements.push_back(std::move(m));
    }
    return measurements;
}

std::map<std::pair<std::string, std::string>, std::string> read_verdicts(const std::string& verdicts_csv) {
    std::map<std::pair<std::string, std::string>, std::string> verdicts;
    for (const auto& row : read_csv(verdicts_csv, {"algorithm", "processors", "verdict"})) {
        verdicts[{row.at("algorithm"), row.at("processors")}] = row.at("verdict");
    }
    return verdicts;
}

/// The case named `algorithm` among `cases`. @throws llc::Error when there is none.
const Case& case_named(const std::vector<Case>& cases, const std::string& algorithm, const std::string& where) {
    for (const Case& c : cases) {
        if (c.algorithm == algorithm) {
            return c;
        }
    }
    throw Error("llc-validate --reprice: '" + where + "' holds case '" + algorithm + "', which no card has");
}

void supplement_profile(cost::Profile& profile, const cost::Profile& from) {
    for (const auto& [name, constant] : from.kernels()) {
        if (!profile.has_kernel(name)) {
            profile.set_kernel(name, constant);
        }
    }
    if (!(profile.meta().llc_bytes > 0.0)) {
        profile.meta().llc_bytes = from.meta().llc_bytes;
        profile.meta().effective_llc_bytes = from.meta().effective_llc_bytes;
    }
}

/// --gate: the groups that met in the recorded verdicts and do not meet now, one line each; 3 when there is one.
int gate(const std::vector<Judged>& now, const std::string& recorded_csv) {
    int broken = 0;
    for (const auto& [key, recorded] : read_verdicts(recorded_csv)) {
        if (recorded != "meets") {
            continue;
        }
        const auto it = std::find_if(now.begin(), now.end(), [&](const Judged& j) {
            return j.algorithm == key.first && to_string(j.processors) == key.second;
        });
        const std::string today = it == now.end() ? "not judged" : it->verdict.why;
        if (it == now.end() || it->verdict.outcome != Outcome::meets) {
            std::cerr << "llc-validate --gate: " << key.first << " (" << key.second
                      << ") met when the data were recorded; today: " << today << '\n';
            ++broken;
        }
    }
    std::cout << "llc-validate --gate: " << broken << " case(s) that met at recording no longer meet\n";
    return broken > 0 ? 3 : 0;
}

}  // namespace llc::validate
