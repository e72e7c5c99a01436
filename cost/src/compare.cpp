#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <llc/cost/compare.hpp>
#include <llc/cost/model.hpp>

#include "json_util.hpp"

namespace llc::cost {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

// The items of a sequence with nested sequences flattened (the trace has no sequence nodes).
void flatten(const Breakdown& b, std::vector<const Breakdown*>& out) {
    if (b.kind == ExprKind::sequence) {
        for (const Breakdown& c : b.children) {
            flatten(c, out);
        }
    } else {
        out.push_back(&b);
    }
}

ComparisonNode predicted_only(const Breakdown& b, MatchStatus status, std::string note) {
    ComparisonNode n;
    n.label = b.label;
    n.kind = std::string(to_string(b.kind));
    n.op = b.op;
    n.P = b.P;
    n.bytes_predicted = b.bytes;
    n.bytes_measured = nan;
    n.predicted = b.total;
    n.measured = nan;
    n.relative_error = nan;
    n.predicted_compute = b.kind == ExprKind::division ? 0.0 : b.compute;  // a division's own W comes from before it
    n.measured_compute = nan;
    n.predicted_comm = b.kind == ExprKind::division ? b.split + b.exchange + b.rejoin : b.comm;
    n.measured_comm = nan;
    n.extrapolated = b.extrapolated;
    n.status = status;
    n.note = std::move(note);
    return n;
}

ComparisonNode measured_only(const llc::TraceNode& t) {
    ComparisonNode n;
    n.label = t.label;
    n.kind = std::string(llc::to_string(t.kind));
    n.op = t.op;
    n.P = t.P;
    n.bytes_predicted = nan;
    n.bytes_measured = static_cast<double>(t.bytes);
    n.predicted = nan;
    n.measured = t.total();
    n.relative_error = nan;
    n.predicted_compute = nan;
    n.measured_compute = t.compute;
    n.predicted_comm = nan;
    n.measured_comm = t.kind == llc::StepKind::division ? t.split + t.exchange + t.rejoin : t.comm;
    n.status = MatchStatus::only_measured;
    n.note = "measured superstep with no predicted counterpart";
    return n;
}

std::vector<ComparisonNode> match_list(const Breakdown& predicted, const std::vector<llc::TraceNode>& measured);

ComparisonNode match_task(const Breakdown& b, const llc::TraceNode& t, int task) {
    ComparisonNode n;
    n.label = "task " + std::to_string(task);
    n.kind = "task";
    n.P = t.P;
    n.bytes_predicted = 0.0;
    n.bytes_measured = 0.0;
    n.predicted = b.total;
    n.measured = t.total();
    n.relative_error = relative_error(n.predicted, n.measured);
    n.predicted_compute = b.compute;
    n.measured_compute = nan;
    n.predicted_comm = b.comm;
    n.measured_comm = nan;
    n.extrapolated = b.extrapolated;
    n.children = match_list(b, t.children);
    return n;
}

ComparisonNode match_node(const Breakdown& b, const llc::TraceNode& t, double extra_compute) {
    ComparisonNode n = predicted_only(b, MatchStatus::matched, "");
    n.predicted += extra_compute;
    n.predicted_compute += extra_compute;
    n.measured = t.total();
    n.bytes_measured = static_cast<double>(t.bytes);
    n.measured_compute = t.compute;
    n.measured_comm = t.kind == llc::StepKind::division ? t.split + t.exchange + t.rejoin : t.comm;
    n.relative_error = relative_error(n.predicted, n.measured);
    const bool kinds_agree = (b.kind == ExprKind::normal && t.kind == llc::StepKind::normal) ||
                             (b.kind == ExprKind::division && t.kind == llc::StepKind::division);
    if (!kinds_agree) {
        n.status = MatchStatus::mismatch;
        n.note = "predicted a " + std::string(to_string(b.kind)) + " superstep, measured a " +
                 std::string(llc::to_string(t.kind)) + " ('" + t.label + "', " + t.op + ")";
        return n;
    }
    std::string note;
    if (b.P != t.P) {
        note += "P predicted " + std::to_string(b.P) + ", measured " + std::to_string(t.P) + "; ";
    }
    if (b.kind == ExprKind::normal && base_collective(b.op) != base_collective(t.op)) {
        note += "collective predicted " + b.op + ", measured " + t.op + "; ";
    }
    if (!note.empty()) {
        n.status = MatchStatus::mismatch;
        n.note = note.substr(0, note.size() - 2);
    }
    if (b.kind == ExprKind::division) {
        // Task t of the prediction against the trace's task node with task == t.
        std::vector<bool> used(t.children.size(), false);
        for (std::size_t i = 0; i < b.children.size(); ++i) {
            const auto it = std::find_if(t.children.begin(), t.children.end(), [&](const llc::TraceNode& c) {
                return c.kind == llc::StepKind::task && c.task == static_cast<int>(i);
            });
            if (it == t.children.end()) {
                ComparisonNode missing = predicted_only(
                    b.children[i], MatchStatus::only_predicted, "task " + std::to_string(i) + " not in the trace");
                missing.label = "task " + std::to_string(i);
                missing.kind = "task";
                n.children.push_back(std::move(missing));
            } else {
                used[static_cast<std::size_t>(it - t.children.begin())] = true;
                n.children.push_back(match_task(b.children[i], *it, static_cast<int>(i)));
            }
        }
        for (std::size_t k = 0; k < t.children.size(); ++k) {
            if (!used[k]) {
                n.children.push_back(measured_only(t.children[k]));
            }
        }
    }
    return n;
}

/// A run of consecutive predicted compute nodes held against the trace's compute node (local work that no collective
/// ends: the end of a task, or before Trace::gather).
ComparisonNode match_compute(const std::string& label, double predicted, const llc::TraceNode& t) {
    ComparisonNode n;
    n.label = label;
    n.kind = "compute";
    n.op = "compute";
    n.P = t.P;
    n.predicted = predicted;
    n.measured = t.compute;
    n.relative_error = relative_error(n.predicted, n.measured);
    n.predicted_compute = predicted;
    n.measured_compute = t.compute;
    n.predicted_comm = 0.0;
    n.measured_comm = 0.0;
    return n;
}

std::vector<ComparisonNode> match_list(const Breakdown& predicted, const std::vector<llc::TraceNode>& measured) {
    std::vector<const Breakdown*> items;
    flatten(predicted, items);
    std::vector<ComparisonNode> out;
    std::size_t k = 0;
    double pending = 0.0;
    std::vector<const Breakdown*> pending_items;
    // Consecutive compute nodes are local work: charged to the W of the next superstep (as the trace does), or, at
    // the end of a list, held against the trace's trailing compute node.
    const auto flush_trailing = [&] {
        if (pending_items.empty()) {
            return;
        }
        if (k < measured.size() && measured[k].kind == llc::StepKind::compute) {
            std::string label;
            for (const Breakdown* b : pending_items) {
                label += (label.empty() ? "" : " + ") + b->label;
            }
            out.push_back(match_compute(label, pending, measured[k]));
            ++k;
        } else {
            for (const Breakdown* b : pending_items) {
                out.push_back(predicted_only(
                    *b, MatchStatus::unrecorded, "local work after the last superstep of its group: not in the trace"));
            }
        }
        pending = 0.0;
        pending_items.clear();
    };
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Breakdown& b = *items[i];
        if (b.kind == ExprKind::compute) {
            pending += b.total;
            pending_items.push_back(&b);
            continue;
        }
        if (k < measured.size() && measured[k].kind == llc::StepKind::compute) {
            // Measured local work that the prediction has no compute node for: predicted as zero.
            out.push_back(match_compute("local work (not predicted)", 0.0, measured[k]));
            ++k;
        }
        if (k < measured.size()) {
            out.push_back(match_node(b, measured[k], pending));
            ++k;
        } else {
            ComparisonNode n = predicted_only(b, MatchStatus::only_predicted, "predicted superstep not in the trace");
            n.predicted += pending;
            n.predicted_compute += pending;
            out.push_back(std::move(n));
        }
        pending = 0.0;
        pending_items.clear();
    }
    flush_trailing();
    for (; k < measured.size(); ++k) {
        out.push_back(measured[k].kind == llc::StepKind::compute
                          ? match_compute("local work (not predicted)", 0.0, measured[k])
                          : measured_only(measured[k]));
    }
    return out;
}

bool all_matched(const ComparisonNode& n) {
    if (n.status != MatchStatus::matched && n.status != MatchStatus::unrecorded) {
        return false;
    }
    return std::all_of(n.children.begin(), n.children.end(), all_matched);
}

std::string percent(double e) {
    if (!std::isfinite(e)) {
        return "n/a";
    }
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%+.1f%%", 100.0 * e);
    return buffer;
}

void node_text(const ComparisonNode& n, int depth, std::string& out) {
    std::string name = std::string(static_cast<std::size_t>(depth) * 2, ' ') + n.label;
    std::string what = n.kind;
    if (!n.op.empty() && n.kind != "task") {
        what += " " + n.op;
    }
    if (n.P > 0) {
        what += " P=" + std::to_string(n.P);
    }
    char line[512];
    std::snprintf(line,
                  sizeof line,
                  "%-36s %-24s %12s %12s %9s",
                  name.c_str(),
                  what.c_str(),
                  format_seconds(n.predicted).c_str(),
                  format_seconds(n.measured).c_str(),
                  percent(n.relative_error).c_str());
    out += line;
    if (n.status != MatchStatus::matched) {
        out += "  " + std::string(to_string(n.status));
    }
    if (n.extrapolated) {
        out += "  (extrapolated)";
    }
    if (!n.note.empty()) {
        out += "  — " + n.note;
    }
    out += '\n';
    for (const ComparisonNode& c : n.children) {
        node_text(c, depth + 1, out);
    }
}

detail::Json node_json(const ComparisonNode& n) {
    detail::Json j{{"label", n.label},
                   {"kind", n.kind},
                   {"op", n.op},
                   {"P", n.P},
                   {"bytes_predicted", n.bytes_predicted},
                   {"bytes_measured", n.bytes_measured},
                   {"predicted", n.predicted},
                   {"measured", n.measured},
                   {"relative_error", n.relative_error},
                   {"predicted_compute", n.predicted_compute},
                   {"measured_compute", n.measured_compute},
                   {"predicted_comm", n.predicted_comm},
                   {"measured_comm", n.measured_comm},
                   {"extrapolated", n.extrapolated},
                   {"status", std::string(to_string(n.status))},
                   {"note", n.note}};
    if (!n.children.empty()) {
        detail::Json children = detail::Json::array();
        for (const ComparisonNode& c : n.children) {
            children.push_back(node_json(c));
        }
        j["children"] = children;
    }
    return j;
}

}  // namespace

std::string_view to_string(MatchStatus status) {
    switch (status) {
        case MatchStatus::matched:
            return "matched";
        case MatchStatus::mismatch:
            return "mismatch";
        case MatchStatus::only_predicted:
            return "only_predicted";
        case MatchStatus::only_measured:
            return "only_measured";
        case MatchStatus::unrecorded:
            return "unrecorded";
    }
    return "?";
}

double relative_error(double predicted, double measured) noexcept {
    if (!std::isfinite(predicted) || !std::isfinite(measured) || measured == 0.0) {
        return nan;
    }
    return (predicted - measured) / measured;
}

Comparison compare(const llc::TraceNode& trace, const Expr& expr, const Model& model) {
    const Breakdown predicted = evaluate(expr, model);
    Comparison result;
    result.model = model.name();
    if (trace.kind == llc::StepKind::root || trace.kind == llc::StepKind::task) {
        ComparisonNode& root = result.root;
        root.label = trace.kind == llc::StepKind::root ? "total" : "task " + std::to_string(trace.task);
        root.kind = std::string(llc::to_string(trace.kind));
        root.P = trace.P;
        root.predicted = predicted.total;
        root.measured = trace.total();
        root.relative_error = relative_error(root.predicted, root.measured);
        root.predicted_compute = predicted.compute;
        root.measured_compute = nan;
        root.predicted_comm = predicted.comm;
        root.measured_comm = nan;
        root.extrapolated = predicted.extrapolated;
        root.children = match_list(predicted, trace.children);
    } else {
        std::vector<const Breakdown*> items;
        flatten(predicted, items);
        if (items.size() == 1) {
            result.root = match_node(*items.front(), trace, 0.0);
        } else {
            result.root = predicted_only(predicted,
                                         MatchStatus::mismatch,
                                         "a sequence of " + std::to_string(items.size()) +
                                             " predicted supersteps held against one measured superstep");
            result.root.measured = trace.total();
            result.root.relative_error = relative_error(result.root.predicted, result.root.measured);
        }
    }
    result.predicted = result.root.predicted;
    result.measured = result.root.measured;
    result.relative_error = result.root.relative_error;
    result.structure_matches = all_matched(result.root);
    return result;
}

std::string Comparison::to_text() const {
    char header[512];
    std::snprintf(header,
                  sizeof header,
                  "%-36s %-24s %12s %12s %9s\n",
                  ("model: " + model).c_str(),
                  "superstep",
                  "predicted",
                  "measured",
                  "error");
    std::string out = header;
    node_text(root, 0, out);
    if (!structure_matches) {
        out += "note: the predicted and measured trees differ in shape; see the statuses above\n";
    }
    return out;
}

std::string Comparison::to_json() const {
    return detail::Json{{"model", model},
                        {"predicted", predicted},
                        {"measured", measured},
                        {"relative_error", relative_error},
                        {"structure_matches", structure_matches},
                        {"root", node_json(root)}}
        .dump();
}

}  // namespace llc::cost
