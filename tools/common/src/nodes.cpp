// Which ranks share a node (see nodes.hpp).
#include <algorithm>
#include <numeric>

#include <llc/tools/nodes.hpp>

namespace llc::tools {

std::vector<int> node_of_rank(MPI_Comm comm) {
    int rank = 0;
    int size = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
    // A node is named by its lowest rank: the node communicator's rank 0 (key = world rank keeps the order).
    int leader = rank;
    MPI_Bcast(&leader, 1, MPI_INT, 0, node);
    MPI_Comm_free(&node);
    std::vector<int> leaders(static_cast<std::size_t>(size));
    MPI_Allgather(&leader, 1, MPI_INT, leaders.data(), 1, MPI_INT, comm);
    std::vector<int> seen;  // the nodes' leaders, in the order of their lowest rank
    std::vector<int> of(leaders.size());
    for (std::size_t r = 0; r < leaders.size(); ++r) {
        auto it = std::find(seen.begin(), seen.end(), leaders[r]);
        if (it == seen.end()) {
            it = seen.insert(seen.end(), leaders[r]);
        }
        of[r] = static_cast<int>(it - seen.begin());
    }
    return of;
}

std::vector<int> ranks_per_node(MPI_Comm comm) {
    return ranks_per_node_of(node_of_rank(comm));
}

std::vector<int> ranks_per_node_of(std::span<const int> placement) {
    std::vector<int> counts;
    for (const int node : placement) {
        counts.resize(std::max(counts.size(), static_cast<std::size_t>(node) + 1), 0);
        ++counts[static_cast<std::size_t>(node)];
    }
    return counts;
}

std::string describe_layout(const std::vector<int>& nodes) {
    if (nodes.empty()) {
        return "not recorded";
    }
    if (std::all_of(nodes.begin(), nodes.end(), [&](int n) { return n == nodes.front(); })) {
        return std::to_string(nodes.size()) + (nodes.size() == 1 ? " node of " : " nodes of ") +
               std::to_string(nodes.front()) + (nodes.front() == 1 ? " rank" : " ranks");
    }
    std::string text = "ranks per node ";
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(nodes[i]);
    }
    return text;
}

std::string node_layout_note(const std::vector<int>& profile, const std::vector<int>& run) {
    if (profile.empty()) {
        return {};  // a profile from before the record: nothing to compare (one machine needs none)
    }
    // The run's first ranks must fill the profile's nodes in the same way, as far as the run reaches.
    const int run_ranks = std::accumulate(run.begin(), run.end(), 0);
    std::vector<int> cut;
    int left = run_ranks;
    for (const int n : profile) {
        if (left <= 0) {
            break;
        }
        cut.push_back(std::min(n, left));
        left -= cut.back();
    }
    if (left <= 0 && cut == run) {
        return {};
    }
    return "the profile was calibrated on " + describe_layout(profile) + ", this run is on " + describe_layout(run) +
           ": its exchanges cross nodes where the profile's did not (or the other way round), so prices at the "
           "profile's P may not hold";
}

}  // namespace llc::tools
