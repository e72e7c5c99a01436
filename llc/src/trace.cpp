// The trace of a group: Trace::gather (the records of a group's processors, merged) and the JSON and Chrome views.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include <mpi.h>
#include <nlohmann/json.hpp>

#include <llc/file.hpp>
#include <llc/group.hpp>
#include <llc/trace.hpp>

namespace llc {

namespace {

StepKind kind_from_string(std::string_view text) {
    for (const StepKind kind :
         {StepKind::normal, StepKind::division, StepKind::task, StepKind::root, StepKind::compute}) {
        if (to_string(kind) == text) {
            return kind;
        }
    }
    throw Error("llc::trace_from_json: unknown superstep kind '" + std::string(text) + "'");
}

nlohmann::json node_to_json(const TraceNode& node) {
    nlohmann::json j{{"label", node.label},
                     {"kind", to_string(node.kind)},
                     {"op", node.op},
                     {"P", node.P},
                     {"bytes", node.bytes},
                     {"start", node.start},
                     {"compute", node.compute},
                     {"comm", node.comm},
                     {"total", node.total()},
                     {"ranks", node.ranks}};
    if (node.kind == StepKind::division) {
        j["sizes"] = node.sizes;
        j["split"] = node.split;
        j["tasks"] = node.tasks;
        j["exchange"] = node.exchange;
        j["rejoin"] = node.rejoin;
    }
    if (node.kind == StepKind::task) {
        j["task"] = node.task;
    }
    if (!node.children.empty()) {
        auto& children = j["children"] = nlohmann::json::array();
        for (const auto& child : node.children) {
            children.push_back(node_to_json(child));
        }
    }
    return j;
}

TraceNode node_from_json(const nlohmann::json& j) {
    TraceNode node;
    node.label = j.at("label").get<std::string>();
    node.kind = kind_from_string(j.at("kind").get<std::string>());
    node.op = j.at("op").get<std::string>();
    node.P = j.at("P").get<int>();
    node.bytes = j.at("bytes").get<std::uint64_t>();
    node.start = j.at("start").get<double>();
    node.compute = j.at("compute").get<double>();
    node.comm = j.at("comm").get<double>();
    node.ranks = j.value("ranks", 1);
    node.sizes = j.value("sizes", std::vector<int>{});
    node.split = j.value("split", 0.0);
    node.tasks = j.value("tasks", 0.0);
    node.exchange = j.value("exchange", 0.0);
    node.rejoin = j.value("rejoin", 0.0);
    node.task = j.value("task", -1);
    if (const auto it = j.find("children"); it != j.end()) {
        for (const auto& child : *it) {
            node.children.push_back(node_from_json(child));
        }
    }
    return node;
}

void chrome_events(const TraceNode& node, int rank, nlohmann::json& events) {
    const auto slice = [&](const std::string& name, double start, double duration, const char* category) {
        if (duration <= 0.0) {
            return;
        }
        events.push_back({{"name", name},
                          {"cat", category},
                          {"ph", "X"},
                          {"pid", 0},
                          {"tid", rank},
                          {"ts", start * 1e6},
                          {"dur", duration * 1e6},
                          {"args", {{"P", node.P}, {"bytes", node.bytes}, {"op", node.op}}}});
    };
    switch (node.kind) {
        case StepKind::normal:
            slice(node.label + " (W)", node.start, node.compute, "compute");
            slice(node.label, node.start + node.compute, node.comm, "communication");
            break;
        case StepKind::division:
            slice(node.label + " (W)", node.start, node.compute, "compute");
            slice(node.label, node.start + node.compute, node.total() - node.compute, "division");
            slice("split", node.start + node.compute, node.split, "division");
            break;
        case StepKind::task:
            slice(node.label + " task " + std::to_string(node.task), node.start, node.comm, "task");
            break;
        case StepKind::compute:
            slice(node.label + " (W)", node.start, node.compute, "compute");
            break;
        case StepKind::root:
            break;
    }
    for (const auto& child : node.children) {
        chrome_events(child, rank, events);
    }
    if (node.kind == StepKind::division) {
        slice("exchange", node.start + node.compute + node.split + node.tasks, node.exchange, "communication");
    }
}

}  // namespace

std::string to_json(const TraceNode& node) {
    return node_to_json(node).dump();
}

TraceNode trace_from_json(std::string_view text) {
    try {
        return node_from_json(nlohmann::json::parse(text));
    } catch (const nlohmann::json::exception& e) {
        throw Error(std::string("llc::trace_from_json: not a trace: ") + e.what());
    }
}

// ---- Trace ----------------------------------------------------------------------------------------------------------

void Trace::enable(bool on) {
    detail::Recorder::instance().enable(on);
}
bool Trace::enabled() noexcept {
    return detail::Recorder::instance().on();
}
const TraceNode& Trace::local() {
    return detail::Recorder::instance().root();
}
void Trace::clear() {
    detail::Recorder::instance().clear();
}

Trace Trace::gather(Group& g) {
    auto& recorder = detail::Recorder::instance();
    if (recorder.on()) {
        recorder.trailing_compute(g.size(), g.superstep_clock());
        g.restart_superstep_clock();
    }
    // Not a superstep of its own: gathering the record must not add to it.
    const std::string mine = to_json(local());
    const int length = detail::to_count("llc::Trace::gather", "record", mine.size());
    std::vector<int> lengths(static_cast<std::size_t>(g.size()));
    detail::check_mpi(MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, g.native()), "llc::Trace::gather");
    std::vector<int> displs;
    std::string all;
    if (g.rank() == 0) {
        displs = detail::displacements("llc::Trace::gather", lengths);
        all.resize(static_cast<std::size_t>(displs.back()));
    }
    detail::check_mpi(
        MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), displs.data(), MPI_CHAR, 0, g.native()),
        "llc::Trace::gather");
    Trace trace;
    if (g.rank() != 0) {
        return trace;
    }
    for (int q = 0; q < g.size(); ++q) {
        const auto q_index = static_cast<std::size_t>(q);
        trace.per_rank_.push_back(trace_from_json(std::string_view(all).substr(
            static_cast<std::size_t>(displs[q_index]), static_cast<std::size_t>(lengths[q_index]))));
    }
    trace.merged_ = trace.per_rank_.front();
    for (std::size_t q = 1; q < trace.per_rank_.size(); ++q) {
        merge_into(trace.merged_, trace.per_rank_[q]);
    }
    return trace;
}

std::string Trace::json() const {
    return node_to_json(merged_).dump(1);
}

std::string Trace::chrome_json() const {
    nlohmann::json events = nlohmann::json::array();
    for (std::size_t q = 0; q < per_rank_.size(); ++q) {
        events.push_back({{"name", "thread_name"},
                          {"ph", "M"},
                          {"pid", 0},
                          {"tid", q},
                          {"args", {{"name", "rank " + std::to_string(q)}}}});
        chrome_events(per_rank_[q], static_cast<int>(q), events);
    }
    return nlohmann::json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump();
}

void Trace::write_json(const std::string& path) const {
    write_file_atomically(path, json(), "llc::Trace::write_json");
}
void Trace::write_chrome(const std::string& path) const {
    write_file_atomically(path, chrome_json(), "llc::Trace::write_chrome");
}

}  // namespace llc
