#pragma once
/// @file
/// What each processor records while tracing is on: the tree of its supersteps (TraceNode), the labels that name them
/// (llc::Label) and the recorder that Group's collectives and the divisions write to. Nothing here knows a Group, so
/// that <llc/group.hpp> can include it; the trace of a whole group (Trace::gather) is in <llc/trace.hpp>.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace llc {

/// What a node of the trace stands for.
enum class StepKind {
    normal,    ///< local computation W followed by one collective f (CCM normal superstep)
    division,  ///< par / weighted_par: split, tasks, result exchange, rejoin (CCM division superstep)
    task,      ///< one task of a division, run by one subgroup; its children are the task's supersteps
    root,      ///< the top of a processor's record
    compute,   ///< local work that no collective of its own ends: at the end of a task, or before Trace::gather
};

[[nodiscard]] std::string_view to_string(StepKind kind);

/// One superstep. Times in seconds; `start` is measured from the moment tracing was switched on.
struct TraceNode {
    std::string label;  ///< the innermost llc::Label in force, else the operation's name
    StepKind kind = StepKind::root;
    std::string op;           ///< the collective ("allreduce", "swap", …) or the division ("par", "weighted_par")
    int P = 0;                ///< processors of the group that ran it
    std::uint64_t bytes = 0;  ///< h: bytes this processor sent plus received (max over processors when merged)
    double start = 0.0;       ///< when the superstep began (min over processors when merged)
    double compute = 0.0;     ///< W: local computation since the previous superstep of the group ended
    double comm = 0.0;        ///< time inside the collective (normal; merged: see merge_into) or the task (task)
    // Division supersteps only.
    std::vector<int> sizes;  ///< subgroup sizes (ones when P < r)
    double split = 0.0;      ///< processor assignment and communicator lookup / creation
    double tasks = 0.0;      ///< this processor's task execution: all its tasks in turn when P < r
    double exchange = 0.0;   ///< result exchange between partners
    double rejoin = 0.0;     ///< from the end of the exchange to the return of the division
    int task = -1;           ///< task index (task nodes)
    int ranks = 1;           ///< how many processors' records were merged into this node
    std::vector<TraceNode> children;

    /// Wall time the node covers: compute + comm for a normal superstep; compute + split + tasks + exchange + rejoin
    /// for a division (compute: the local work since the group's previous superstep, e.g. the divide step); the
    /// task's measured duration (comm) for a task; the sum over children for the root.
    [[nodiscard]] double total() const;
};

/// Merges `other` into `into`, node by node (task children of a division by task index, others by position):
/// times and bytes take the maximum, `start` the minimum, `ranks` adds up — except a normal superstep's
/// communication, which becomes the slowest processor's whole step (compute + comm) less the merged W, so that the
/// merged total is that slowest step and an imbalance is not counted twice.
void merge_into(TraceNode& into, const TraceNode& other);

/// Names the supersteps recorded while it lives (innermost wins). Purely local; costs nothing when tracing is off.
class Label {
  public:
    explicit Label(std::string name);
    ~Label();
    Label(const Label&) = delete;
    Label& operator=(const Label&) = delete;
};

namespace detail {
/// The per-processor recorder behind Trace; used by Group and the division supersteps.
class Recorder {
  public:
    static Recorder& instance();
    [[nodiscard]] bool on() const noexcept { return on_; }
    [[nodiscard]] double now() const;                               ///< seconds since tracing was switched on
    [[nodiscard]] double epoch() const noexcept { return epoch_; }  ///< MPI_Wtime() when tracing was switched on
    void enable(bool on);
    void clear();
    void normal(std::string_view op, int P, std::uint64_t bytes, double start, double compute, double comm);
    /// Local work from `start` to now that no collective ends (skipped when it lasted no time).
    void trailing_compute(int P, double start);
    void begin_division(std::string_view op, int P, std::vector<int> sizes, double start, double compute);
    void begin_task(int task, int P, double start);
    void end_task(double duration);
    void end_division(double split, double tasks, double exchange, double rejoin, std::uint64_t bytes);
    void push_label(std::string name);
    void pop_label();
    [[nodiscard]] const TraceNode& root() const noexcept { return root_; }

  private:
    [[nodiscard]] std::string current_label(std::string_view op) const;
    bool on_ = false;
    double epoch_ = 0.0;
    TraceNode root_;
    std::vector<TraceNode*> open_{&root_};
    std::vector<std::string> labels_;
};
}  // namespace detail

}  // namespace llc
