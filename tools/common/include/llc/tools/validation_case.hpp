#pragma once
/// @file
/// llc-validate's unit of work: a validation case is one algorithm (or collective) that can be run on a group of any
/// size p at a problem size n, and priced by a cost Expr built from the same (p, n). Each card
/// (llc/tools/card.hpp) lists its cases.

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>
#include <llc/tools/buffers.hpp>

namespace llc::validate {

enum class SizeClass { small, medium, large };

/// One prepared run: the input is made once (not timed), run() executes the algorithm once. Collective over the
/// group it was prepared on.
class Instance {
  public:
    virtual ~Instance() = default;
    virtual void run() = 0;
    /// What a timed sample calls: run() by default. A case whose run is a few nanoseconds (a collective on one
    /// processor) returns its resolved call, so that the validator's harness costs what llc-probe's does — one
    /// std::function call.
    [[nodiscard]] virtual std::function<void()> action() {
        return [this] { run(); };
    }
};

/// The bound of a case under the verdict rule (docs/validation.md, "The verdict rule"): the CCM's median |error| over
/// the case's points, p = 1 and p > 1 judged apart. The rule's other terms (P90 ≤ 25 %, no other model closer, the
/// floor at most half the bound) are the same for every case and live in llc-validate's report.hpp.
struct AccuracyGoal {
    double median = 0.10;
};

struct Case {
    std::string algorithm;  ///< row name, e.g. "fft-block", "bcast.st", "allreduce"
    std::string family;     ///< plot group: "fft", "broadcast", "collective"
    std::string size_unit;  ///< what n counts, e.g. "bytes", "complex values"
    /// The problem sizes of a sweep.
    std::function<std::vector<std::int64_t>(SizeClass)> sizes;
    /// Makes the input on `g` (collective over g).
    std::function<std::unique_ptr<Instance>(Group& g, std::int64_t n)> prepare;
    /// The predicted supersteps of one run() on p processors.
    std::function<cost::Expr(int p, std::int64_t n, const cost::Profile& profile)> expr;
    /// Whether the case runs at (p, n) (default: always).
    std::function<bool(int p, std::int64_t n)> applies;
    /// What the CCM's prediction of this case must achieve (the algorithm's issue states the bound).
    AccuracyGoal goal{};
    /// The seed of the case's random input (0: its input is not random). Never a probe's seed: the calibration does
    /// not see a validated input (tests/tools/calibration_disjoint_test.cpp).
    std::uint64_t seed = 0;
    /// The one-processor price rests on a probe that times a whole run of this algorithm (not a kernel of it): the
    /// report marks its p = 1 verdict. Such probes run at sizes none of the card's cases validates (same test).
    bool p1_priced_by_whole_run = false;
};

/// Inputs and outputs of the cases: in one allocation, not aliasing modulo 4 KiB (llc/tools/buffers.hpp), like
/// llc-probe's, so that both tools measure the same thing.
using tools::TwoBuffers;

/// Log-uniform sizes from `low` to `high` (both included), `count` of them, rounded to multiples of `multiple`.
[[nodiscard]] std::vector<std::int64_t> log_sizes(std::int64_t low,
                                                  std::int64_t high,
                                                  int count,
                                                  std::int64_t multiple = 1);

}  // namespace llc::validate
