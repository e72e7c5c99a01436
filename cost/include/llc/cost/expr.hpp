#pragma once
/// @file
/// Cost expressions: a tree that mirrors an algorithm's supersteps (CCM paper §2), built by the algorithm's cost
/// function from the same parameters as the call, and evaluated under any Model for any P without running anything.
///
///   normal(label, W, f, P, h)                 Φ = W + T_f(P, h)
///   overlapped(label, W, V, f, P, h)          Φ = W + max(V, T_f(P, h))   (V: work done while f is in flight)
///   division(label, P, sizes, tasks, h)       Φ = T_g(P, sizes, h) + max_t Φ(task t)      (P ≥ r)
///                                             Φ = T_g + max over processors of Σ Φ(its tasks)   (P < r)
///   sequence(label, items)                    Φ = Σ Φ(item)
///   compute(label, W)                         Φ = W (local work not followed by a collective of its own)
///
/// Expr is an immutable value with shared sub-trees: passing the same child for every task of a division costs one
/// node, so the tree of a recursive algorithm on P = 2^20 processors stays O(log P) in memory.

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace llc::cost {

class Model;

enum class ExprKind { normal, division, sequence, compute };
[[nodiscard]] std::string_view to_string(ExprKind kind);

/// A cost expression. Build with the static functions; every argument is checked (llc::Error naming the function,
/// the argument and the value).
class Expr {
  public:
    /// A normal superstep: W seconds of local computation (max over processors), then collective f (an llc operation
    /// name, see model.hpp for what h means for each f) of h bytes on P processors.
    [[nodiscard]] static Expr normal(std::string label, double W, std::string f, int P, double bytes);
    /// A normal superstep whose collective overlaps local work (a split-phase exchange, Group::shift_start): W seconds
    /// of computation, then f is started, V seconds of computation run while it is in flight, and the superstep ends
    /// when f completes. Φ = W + max(V, T_f(P, h)); its breakdown counts W + V as compute and the part of T_f that V
    /// does not hide, max(0, T_f − V), as communication, which is what the trace of the run measures.
    [[nodiscard]] static Expr overlapped(std::string label, double W, double V, std::string f, int P, double bytes);
    /// Local computation of W seconds that no collective of its own ends (e.g. the divide step before a division).
    [[nodiscard]] static Expr compute(std::string label, double W);
    /// A division superstep of P processors into subgroups of `sizes` (Σ sizes = P), task t running `tasks[t]` on
    /// sizes[t] processors; h = result bytes sent + received by one processor in the exchange (the trace's bytes).
    /// When P < r pass r ones: the tasks are then placed on processors as llc::assign_tasks does for equal weights.
    [[nodiscard]] static Expr division(
        std::string label, int P, std::vector<int> sizes, std::vector<Expr> tasks, double bytes);
    /// A division as llc::weighted_par makes it: sizes from llc::split_sizes(P, weights) and, when P < r, processors
    /// from llc::assign_tasks(P, weights).
    [[nodiscard]] static Expr weighted_division(
        std::string label, int P, std::span<const double> weights, std::vector<Expr> tasks, double bytes);
    /// Items one after the other.
    [[nodiscard]] static Expr sequence(std::string label, std::vector<Expr> items);

    [[nodiscard]] ExprKind kind() const noexcept;
    [[nodiscard]] const std::string& label() const noexcept;
    /// W (normal, compute), else 0.
    [[nodiscard]] double work() const noexcept;
    /// V, the work that overlaps the collective (normal made by overlapped()), else 0.
    [[nodiscard]] double overlap() const noexcept;
    /// f (normal), "par" (division), else "".
    [[nodiscard]] const std::string& op() const noexcept;
    /// Processors (normal, division), else 0.
    [[nodiscard]] int processors() const noexcept;
    /// h (normal, division), else 0.
    [[nodiscard]] double bytes() const noexcept;
    /// Subgroup sizes (division).
    [[nodiscard]] const std::vector<int>& sizes() const noexcept;
    /// Processor of each task when P < r (division), else empty.
    [[nodiscard]] const std::vector<int>& owners() const noexcept;
    /// Tasks (division) or items (sequence).
    [[nodiscard]] const std::vector<Expr>& children() const noexcept;

    /// Nodes of the tree counted as a tree (shared sub-trees counted each time they appear).
    [[nodiscard]] double tree_size() const;

    /// Indented text, one node a line.
    [[nodiscard]] std::string to_text() const;
    /// JSON: {"kind","label",…,"children":[…]}.
    [[nodiscard]] std::string to_json() const;
    /// Inverse of to_json. @throws llc::Error naming the field for malformed text.
    [[nodiscard]] static Expr from_json(std::string_view text);

  private:
    struct Node;
    explicit Expr(std::shared_ptr<const Node> node);
    std::shared_ptr<const Node> node_;
};

/// The priced tree: one node per Expr node. At every node total = compute + comm + division, where for a division
/// or a sequence the three parts add up along the critical path (the slowest task, or the busiest processor).
struct Breakdown {
    std::string label;
    ExprKind kind = ExprKind::sequence;
    std::string op;
    int P = 0;
    double bytes = 0.0;
    double compute = 0.0;       ///< local computation W
    double comm = 0.0;          ///< collectives T_f
    double division = 0.0;      ///< division overhead T_g (split + exchange + rejoin)
    double split = 0.0;         ///< this division's own split (division nodes)
    double exchange = 0.0;      ///< this division's own result exchange (division nodes)
    double rejoin = 0.0;        ///< this division's own rejoin (division nodes)
    double total = 0.0;         ///< seconds
    int critical = -1;          ///< division: the task (P ≥ r) or processor (P < r) on the critical path
    bool extrapolated = false;  ///< some price in this sub-tree rests on extrapolated measurements
    std::vector<Breakdown> children;

    /// Indented text: label, kind, P, h, total and its parts.
    [[nodiscard]] std::string to_text() const;
    [[nodiscard]] std::string to_json() const;
};

/// Prices `expr` under `model`. @throws llc::Error from the model (unknown collective, missing profile field).
[[nodiscard]] Breakdown evaluate(const Expr& expr, const Model& model);
/// evaluate(expr, model).total, without building the breakdown.
[[nodiscard]] double predict(const Expr& expr, const Model& model);

/// "1.23 ms", "456 us", "7.8 s": seconds for people.
[[nodiscard]] std::string format_seconds(double seconds);
/// "512 B", "1.5 KiB", "2.0 MiB".
[[nodiscard]] std::string format_bytes(double bytes);

}  // namespace llc::cost
