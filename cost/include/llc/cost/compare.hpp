#pragma once
/// @file
/// Predicted against measured, superstep by superstep: a measured llc::TraceNode (merged over processors, max as the
/// CCM charges) held against the predicted Expr of the same run.
///
/// Matching. A sequence (or the trace's root and task nodes) is matched item by item in order (nested sequences are
/// flattened); a normal superstep with a normal node (compute with W, comm with T_f); a division with a division node
/// (comm with T_g = split + exchange + rejoin), task t of the Expr with the trace's task node whose `task` is t. Expr
/// compute nodes have no trace node of their own: the trace charges local work to the W of the group's next superstep
/// (TraceNode::compute of the next normal or division node), so a compute node directly followed by a normal or a
/// division superstep is added to that superstep's predicted W; any other compute node (at the end of a task or of the
/// run) is reported as `unrecorded` and counts in the predicted totals of the enclosing task (whose measured time is
/// its duration) but not in the root's measured total (the sum of its recorded supersteps). Nodes without a
/// counterpart are reported as only_predicted or only_measured; a kind, P or collective that differs is reported as
/// mismatch. Nothing is dropped silently.
///
/// Signed relative error: (predicted − measured) / measured; NaN when measured is 0 or a side is missing.

#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/trace.hpp>

namespace llc::cost {

class Model;

enum class MatchStatus { matched, mismatch, only_predicted, only_measured, unrecorded };
[[nodiscard]] std::string_view to_string(MatchStatus status);

/// (predicted − measured) / measured, NaN if measured == 0 or either is NaN.
[[nodiscard]] double relative_error(double predicted, double measured) noexcept;

/// One node of the comparison. Times in seconds; NaN where a side is missing.
struct ComparisonNode {
    std::string label;
    std::string kind;  ///< "normal", "division", "task", "sequence", "compute", "root"
    std::string op;
    int P = 0;
    double bytes_predicted = 0.0;
    double bytes_measured = 0.0;
    double predicted = 0.0;
    double measured = 0.0;
    double relative_error = 0.0;
    double predicted_compute = 0.0;  ///< the superstep's own W (for a division: the local work just before it)
    double measured_compute = 0.0;
    double predicted_comm = 0.0;  ///< T_f (normal) or T_g (division)
    double measured_comm = 0.0;   ///< comm (normal) or split + exchange + rejoin (division)
    bool extrapolated = false;
    MatchStatus status = MatchStatus::matched;
    std::string note;
    std::vector<ComparisonNode> children;
};

struct Comparison {
    std::string model;
    ComparisonNode root;
    double predicted = 0.0;         ///< predicted total
    double measured = 0.0;          ///< measured total
    double relative_error = 0.0;    ///< of the totals
    bool structure_matches = true;  ///< every node matched (no mismatch / only_* anywhere)

    /// A table: one line per node (indented label, kind, P, predicted, measured, error %, status).
    [[nodiscard]] std::string to_text() const;
    [[nodiscard]] std::string to_json() const;
};

/// Holds the measured `trace` against the predicted `expr`, priced under `model`. `trace` is usually
/// Trace::merged() (a root node) or one of its sub-trees; `expr` is matched against the root's children as a
/// sequence (a non-sequence Expr is a sequence of one).
/// @throws llc::Error from the model.
[[nodiscard]] Comparison compare(const llc::TraceNode& trace, const Expr& expr, const Model& model);

}  // namespace llc::cost
