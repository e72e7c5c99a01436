#pragma once
/// @file
/// The trace: every normal and division superstep as a node of a tree (the nodes and the per-processor recorder are in
/// <llc/trace_record.hpp>, which this header includes).
///
/// Each processor records its own tree while tracing is on; Trace::gather merges the trees of a group's processors
/// into one, charging each node the maximum over processors (as the CCM does) and keeping the per-rank trees for the
/// Chrome/Perfetto view (one track per rank). Off by default; when off, a superstep costs one branch.
/// LLC_TRACE=path in the environment switches tracing on for the whole run and makes llc::Environment write `path`
/// (the merged tree, JSON) and `path` with its extension replaced by `.chrome.json` (Chrome/Perfetto trace) at exit.

#include <string>
#include <string_view>
#include <vector>

#include <llc/trace_record.hpp>

namespace llc {

class Group;

/// The merged trace of a group, and the per-rank trees it came from. Only the group's rank 0 holds data.
class Trace {
  public:
    /// Switches recording on or off on this processor. Switching on clears what was recorded.
    static void enable(bool on = true);
    [[nodiscard]] static bool enabled() noexcept;
    /// This processor's record so far.
    [[nodiscard]] static const TraceNode& local();
    /// Forgets this processor's record (tracing stays as it is).
    static void clear();

    /// Collective over `g`: gathers every processor's record to g's rank 0 and merges them (max over processors).
    /// First it closes g's open superstep: the local work since g's previous superstep is recorded as a compute node,
    /// so that the record accounts for all the time up to the call.
    [[nodiscard]] static Trace gather(Group& g);

    [[nodiscard]] const TraceNode& merged() const noexcept { return merged_; }
    [[nodiscard]] const std::vector<TraceNode>& per_rank() const noexcept { return per_rank_; }
    [[nodiscard]] bool empty() const noexcept { return per_rank_.empty(); }

    /// The merged tree as JSON text.
    [[nodiscard]] std::string json() const;
    /// Chrome/Perfetto trace events: one track (tid) per rank, compute and communication as separate slices.
    [[nodiscard]] std::string chrome_json() const;
    /// Write json() / chrome_json() to `path`, whole or not at all (temporary file, then rename).
    void write_json(const std::string& path) const;
    void write_chrome(const std::string& path) const;

  private:
    TraceNode merged_;
    std::vector<TraceNode> per_rank_;
};

/// Serialisation of a node tree, used by gather and by tools that read a trace back.
[[nodiscard]] std::string to_json(const TraceNode& node);
[[nodiscard]] TraceNode trace_from_json(std::string_view text);

}  // namespace llc
