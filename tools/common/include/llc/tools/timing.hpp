#pragma once
/// @file
/// The one timing rule of the llc tools. llc-probe calibrates the profile with it (and re-measures with it in
/// --check); llc-validate, llc-run and llc-compare measure with it — so what the profile predicts is what the other
/// tools measure, taken the same way.
///
/// A *sample* of an operation that runs on every rank of a communicator: barrier, then `batch` back-to-back calls
/// timed on every rank; the sample is the largest time over the ranks divided by `batch` — the same value on every
/// rank, so every rank takes the same decisions from it without a word. A *run* of samples of one operation starts
/// with an untimed warm-up call (first touch of the buffers, lazy connections, a cache that holds the previous
/// operation's data) and takes its samples back to back: what a superstep pays when it repeats.

#include <functional>
#include <vector>

#include <mpi.h>

namespace llc::tools {

/// One processor batches calls until a sample lasts at least this long.
inline constexpr double min_sample_seconds = 10e-6;
/// The most calls one sample batches.
inline constexpr int max_batch = 1000;

/// One sample: barrier, `batch` calls of `body`, the largest time over the ranks / batch. Collective over `comm`.
[[nodiscard]] double time_sample(MPI_Comm comm, int batch, const std::function<void()>& body);

/// As time_sample, but only rank `who`'s clock counts (a point-to-point path timed at one end); the same value on
/// every rank. Collective over `comm`.
[[nodiscard]] double time_sample_on_rank(MPI_Comm comm, int who, int batch, const std::function<void()>& body);

/// The batch of an operation one call of which took `one_call` seconds on `comm`. On two or more processors 1: one
/// call after a barrier, the latency a superstep pays (back-to-back calls of a collective overlap, and their mean
/// would be its throughput instead). On one processor a collective is a local copy that can take less than 100 ns —
/// a few reads of the clock — so there the batch makes a sample last at least min_sample_seconds (at most max_batch
/// calls). Same value on every rank of `comm`.
[[nodiscard]] int batch_for(MPI_Comm comm, double one_call);

/// When a run of samples stops: after at least `min_samples`, once `budget_seconds` of samples are spent or the
/// relative standard error of the median is at most `target_rse` (0: no such stop), and at `max_samples` in any case.
struct SamplingRule {
    int min_samples = 5;
    int max_samples = 25;
    double budget_seconds = 0.15;
    double target_rse = 0.0;
};

/// A run of samples of `body` on `comm`: a warm-up call that also picks the batch (batch_for), then samples until
/// `rule` stops. Same values on every rank. Collective over `comm`.
[[nodiscard]] std::vector<double> sample(MPI_Comm comm, const std::function<void()>& body, const SamplingRule& rule);

}  // namespace llc::tools
