// A processor's trace record: the superstep tree, the labels, and the recorder Group and the divisions write to.
#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/trace_record.hpp>

namespace llc {

std::string_view to_string(StepKind kind) {
    switch (kind) {
        case StepKind::normal:
            return "normal";
        case StepKind::division:
            return "division";
        case StepKind::task:
            return "task";
        case StepKind::root:
            return "root";
        case StepKind::compute:
            return "compute";
    }
    return "unknown";
}

namespace {

void merge_times(TraceNode& into, const TraceNode& other) {
    into.bytes = std::max(into.bytes, other.bytes);
    into.start = std::min(into.start, other.start);
    if (into.kind == StepKind::normal) {
        // W is the busiest processor's computation; the collective's part is what the slowest processor's step
        // (its computation plus its wait and transfer) adds to it. The maximum of each part apart would count an
        // imbalance twice: the lighter processor's wait for the busiest one shows as its communication.
        const double whole = std::max(into.compute + into.comm, other.compute + other.comm);
        into.compute = std::max(into.compute, other.compute);
        into.comm = whole - into.compute;
    } else {
        into.compute = std::max(into.compute, other.compute);
        into.comm = std::max(into.comm, other.comm);
    }
    into.split = std::max(into.split, other.split);
    into.tasks = std::max(into.tasks, other.tasks);
    into.exchange = std::max(into.exchange, other.exchange);
    into.rejoin = std::max(into.rejoin, other.rejoin);
    into.P = std::max(into.P, other.P);
    into.ranks += other.ranks;
}

}  // namespace

double TraceNode::total() const {
    switch (kind) {
        case StepKind::normal:
            return compute + comm;
        case StepKind::compute:
            return compute;
        case StepKind::division:
            return compute + split + tasks + exchange + rejoin;
        case StepKind::task:
        case StepKind::root: {
            double sum = 0.0;
            for (const auto& child : children) {
                sum += child.total();
            }
            return kind == StepKind::task ? comm : sum;
        }
    }
    return 0.0;
}

void merge_into(TraceNode& into, const TraceNode& other) {
    merge_times(into, other);
    if (into.kind == StepKind::division) {
        // A processor holds only the tasks it ran: match task nodes by task index.
        for (const auto& child : other.children) {
            const auto it = std::find_if(
                into.children.begin(), into.children.end(), [&](const TraceNode& c) { return c.task == child.task; });
            if (it == into.children.end()) {
                into.children.push_back(child);
            } else {
                merge_into(*it, child);
            }
        }
        std::sort(into.children.begin(), into.children.end(), [](const TraceNode& a, const TraceNode& b) {
            return a.task < b.task;
        });
        return;
    }
    for (std::size_t i = 0; i < other.children.size(); ++i) {
        if (i < into.children.size()) {
            merge_into(into.children[i], other.children[i]);
        } else {
            into.children.push_back(other.children[i]);
        }
    }
}

// ---- Label ----------------------------------------------------------------------------------------------------------

Label::Label(std::string name) {
    detail::Recorder::instance().push_label(std::move(name));
}
Label::~Label() {
    detail::Recorder::instance().pop_label();
}

// ---- Recorder -------------------------------------------------------------------------------------------------------

namespace detail {

Recorder& Recorder::instance() {
    static Recorder recorder;
    return recorder;
}

double Recorder::now() const {
    return MPI_Wtime() - epoch_;
}

void Recorder::enable(bool on) {
    if (on && !on_) {
        clear();
        epoch_ = MPI_Wtime();
    }
    on_ = on;
}

void Recorder::clear() {
    root_ = TraceNode{};
    root_.label = "root";
    open_.assign(1, &root_);
}

std::string Recorder::current_label(std::string_view op) const {
    return labels_.empty() ? std::string(op) : labels_.back();
}

void Recorder::normal(std::string_view op, int P, std::uint64_t bytes, double start, double compute, double comm) {
    TraceNode node;
    node.label = current_label(op);
    node.kind = StepKind::normal;
    node.op = op;
    node.P = P;
    node.bytes = bytes;
    node.start = start;
    node.compute = compute;
    node.comm = comm;
    open_.back()->children.push_back(std::move(node));
}

void Recorder::trailing_compute(int P, double start) {
    const double end = now();
    if (end <= start) {
        return;
    }
    TraceNode node;
    node.label = current_label("compute");
    node.kind = StepKind::compute;
    node.op = "compute";
    node.P = P;
    node.start = start;
    node.compute = end - start;
    open_.back()->children.push_back(std::move(node));
}

void Recorder::begin_division(std::string_view op, int P, std::vector<int> sizes, double start, double compute) {
    TraceNode node;
    node.label = current_label(op);
    node.kind = StepKind::division;
    node.op = op;
    node.P = P;
    node.start = start;
    node.compute = compute;
    node.sizes = std::move(sizes);
    auto& children = open_.back()->children;
    children.push_back(std::move(node));
    open_.push_back(&children.back());
}

void Recorder::begin_task(int task, int P, double start) {
    TraceNode node;
    node.label = open_.back()->label;
    node.kind = StepKind::task;
    node.op = "task";
    node.task = task;
    node.P = P;
    node.start = start;
    auto& children = open_.back()->children;
    children.push_back(std::move(node));
    open_.push_back(&children.back());
}

void Recorder::end_task(double duration) {
    open_.back()->comm = duration;
    open_.pop_back();
}

void Recorder::end_division(double split, double tasks, double exchange, double rejoin, std::uint64_t bytes) {
    TraceNode& node = *open_.back();
    node.split = split;
    node.tasks = tasks;
    node.exchange = exchange;
    node.rejoin = rejoin;
    node.bytes = bytes;
    open_.pop_back();
}

void Recorder::push_label(std::string name) {
    labels_.push_back(std::move(name));
}
void Recorder::pop_label() {
    if (!labels_.empty()) {
        labels_.pop_back();
    }
}

}  // namespace detail
}  // namespace llc
