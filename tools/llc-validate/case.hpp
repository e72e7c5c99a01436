#pragma once
/// @file
/// llc-validate's unit of work: a validation case is one algorithm (or collective) that can be run on a group of any
/// size p at a problem size n, and priced by a cost Expr built from the same (p, n). Each algorithm family adds its
/// cases in a file of its own (cases_*.cpp) and lists them in all_cases().

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <llc/cost/expr.hpp>
#include <llc/cost/profile.hpp>
#include <llc/group.hpp>

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
};

/// Two buffers of `a` and `b` values in one allocation, the second starting 2 KiB past a 4 KiB boundary of the first.
/// Two same-sized vectors allocated one after the other sit 16 bytes apart modulo 4 KiB when their size is a multiple
/// of 4 KiB, and a copy, reduction or out-of-place transform from one into the other then runs 3–20× slower on this
/// machine (4K aliasing: each store looks like it may feed the next loads). llc-probe's buffers and the kernel probes'
/// never alias, so the validator's inputs and outputs must not either, or it measures the allocator's luck.
template <typename T>
class TwoBuffers {
  public:
    TwoBuffers(std::size_t a, std::size_t b, T a_value, T b_value) : a_(a), b_(b) {
        static_assert(4096 % sizeof(T) == 0, "a value must divide a page");
        constexpr std::size_t page = 4096 / sizeof(T);
        constexpr std::size_t half_page = page / 2;
        offset_ = a + (half_page + page - a % page) % page;  // offset ≡ 2 KiB (mod 4 KiB), ≥ a
        storage_.assign(offset_ + b + 1, b_value);
        std::fill_n(storage_.begin(), a, a_value);
    }
    [[nodiscard]] std::span<T> a() noexcept { return {storage_.data(), a_}; }
    [[nodiscard]] std::span<T> b() noexcept { return {storage_.data() + offset_, b_}; }

  private:
    std::vector<T> storage_;
    std::size_t a_ = 0;
    std::size_t b_ = 0;
    std::size_t offset_ = 0;
};

/// Every case, in report order.
[[nodiscard]] std::vector<Case> all_cases();

// The families, one file each.
[[nodiscard]] std::vector<Case> collective_cases();
[[nodiscard]] std::vector<Case> broadcast_cases();
[[nodiscard]] std::vector<Case> fft_cases();

/// Log-uniform sizes from `low` to `high` (both included), `count` of them, rounded to multiples of `multiple`.
[[nodiscard]] std::vector<std::int64_t> log_sizes(std::int64_t low,
                                                  std::int64_t high,
                                                  int count,
                                                  std::int64_t multiple = 1);

}  // namespace llc::validate
