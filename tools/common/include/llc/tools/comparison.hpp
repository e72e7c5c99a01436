#pragma once
/// @file
/// llc-compare: runs one of ours against a peer on the same input, in one run, and prints a table (or JSON lines).
/// Each card (llc/tools/card.hpp) lists its comparisons; one is collective over the world group and returns its rows
/// on rank 0 (other ranks may return an empty vector).

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <llc/group.hpp>

namespace llc::compare {

struct Options {
    std::vector<std::int64_t> sizes;  ///< problem sizes n to run (empty: the comparison's defaults)
    int repeat = 0;                   ///< repetitions per measurement (0: the comparison's default)
};

/// One line of the result: our median time against the peer's on the same input.
struct Row {
    std::string algorithm;  ///< e.g. "par", "fft-block-scrambled"
    int P = 1;
    std::int64_t n = 0;
    double ours_median_s = 0.0;
    std::string peer;  ///< e.g. "MPI_Comm_split+MPI_Sendrecv", "fftw-serial"
    double peer_median_s = 0.0;
    [[nodiscard]] double speedup_vs_peer() const { return ours_median_s > 0.0 ? peer_median_s / ours_median_s : 0.0; }
};

struct Comparison {
    std::string name;         ///< the command-line name: `llc-compare NAME`
    std::string description;  ///< one line for --help
    std::function<std::vector<Row>(Group& world, const Options& options)> run;
};

/// Times `body` `repeat` times on every rank of `g` (llc::tools::time_sample: after a barrier each time, the maximum
/// over ranks) after a warm-up call, and returns the median.
[[nodiscard]] double time_median(Group& g, int repeat, const std::function<void()>& body);

/// Times several bodies interleaved (A B C, B C A, C A B, …) so that drift in the machine's load hits all alike;
/// returns each body's median over repetitions of the maximum over ranks.
[[nodiscard]] std::vector<double> time_medians_interleaved(Group& g,
                                                           int repeat,
                                                           const std::vector<std::function<void()>>& bodies);

}  // namespace llc::compare
