#pragma once
/// @file
/// Parallel 1-D complex FFT by division over processor groups (CCM paper §3, Figures 4–6).
///
/// Two layouts:
/// - FftLayout::replicated ("common-common", the paper's Figure 4): every processor passes the whole input and gets
///   the whole output. The group is divided with a division superstep into two halves (llc-style PAR: the even
///   terms to the first subgroup, the odd terms to the second), each half transforms its terms recursively, partners
///   swap their halves of the result and every processor combines them (radix-2 decimation in time). A group of one
///   processor transforms its terms with FFTW (the leaf).
/// - FftLayout::block: processor r holds the n/P contiguous entries [r·n/P, (r+1)·n/P) of the input in natural order.
///   log2 P radix-2 decimation-in-frequency stages, each a partner swap (Group::swap) followed by a butterfly, leave
///   every processor with an independent transform of n/P entries, done locally with FFTW. The output is then either
///   in the algorithm's own order (FftOrder::scrambled, see below) or, after one all-to-all and a local interleave,
///   in natural order (FftOrder::natural, the default): processor r holds X[r·n/P … (r+1)·n/P).
///
/// The scrambled order, exactly: with P = 2^s and L = n/P, processor r holds X[k·P + bitrev_s(r)] at local position
/// k, for k = 0 … L−1, where bitrev_s reverses the s low bits of r (a cyclic distribution of the frequencies over
/// the processors taken in bit-reversed order). FftPlan::output_index(i) returns the frequency of local entry i in
/// every case, so a caller need not reproduce the rule.
///
/// Conventions are FFTW's: forward X[k] = Σ_j x[j]·e^{−2πi·jk/n}, inverse with e^{+2πi·jk/n}, both unnormalised
/// (inverse(forward(x)) = n·x). NaN and infinities propagate as they do through FFTW (no check, no crash).
///
/// When the parallel split does not apply the plan takes a documented fallback path, never a wrong answer
/// (FftPlan::method() says which):
/// - P = 1: FFTW on the whole input, any n ≥ 1 (FftMethod::serial).
/// - replicated, n odd: every processor transforms the whole input with FFTW (no communication). n even but not a
///   power of two: the even/odd division applies while the length is even, leaves of any length go to FFTW.
///   P not a power of two: the halves get ⌈P/2⌉ and ⌊P/2⌋ processors (llc::par's sizes), partners from
///   llc::partners (a processor of the smaller half serves several of the larger one).
/// - block, when P is not a power of two or P does not divide n (FftMethod::gathered): the blocks are
///   [start(r), start(r)+size(r)) with fft_block_size / fft_block_start (the first n mod P processors get one entry
///   more); the input is all-gathered, transformed with the replicated algorithm, and each processor keeps its block
///   of the output in natural order (FftOrder::scrambled is then natural too: output_index(i) = start(r) + i).
/// - block, natural order, P² not dividing n: the all-to-all has unequal pieces (alltoallv), still exact.
///
/// Cost (CCM, paper §3): llc::cost::fft(P, n, layout, order) in <llc/algorithms/fft_cost.hpp> gives the cost
/// expression of exactly the supersteps a plan performs.

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include <llc/distribution.hpp>
#include <llc/group.hpp>

namespace llc {

namespace cost {
class Expr;
class Profile;
}  // namespace cost

/// FFTW's sign convention: forward uses e^{−2πi jk/n}, inverse e^{+2πi jk/n}; both unnormalised.
enum class FftDirection : int { forward = -1, inverse = +1 };

/// Where the input and the output live (see the file comment).
enum class FftLayout { replicated, block };

/// Output order of the block layout (ignored by the replicated layout, whose output is always natural).
enum class FftOrder { natural, scrambled };

/// FFTW planner rigour for the sequential leaves. `estimate` (default) plans in microseconds; `measure` and
/// `patient` time candidate plans (seconds to minutes for n ≥ 2^20) and give faster leaves; plans are made once per
/// FftPlan. FFTW wisdom loaded by the caller (fftw_import_wisdom_from_filename) is used by every flag.
enum class FftPlanner { estimate, measure, patient, exhaustive };

/// Which path a plan takes (see the file comment).
enum class FftMethod {
    serial,    ///< one processor, or the replicated layout with n odd: FFTW on the whole input
    split,     ///< the parallel even/odd (replicated) or decimation-in-frequency (block) algorithm
    gathered,  ///< block layout that cannot split: all-gather, replicated algorithm, keep the own block
};

[[nodiscard]] std::string_view to_string(FftDirection direction);
[[nodiscard]] std::string_view to_string(FftLayout layout);
[[nodiscard]] std::string_view to_string(FftOrder order);
[[nodiscard]] std::string_view to_string(FftMethod method);
[[nodiscard]] std::string_view to_string(FftPlanner planner);

/// Options of a plan; designated initialisers read like named parameters:
/// `llc::FftPlan plan(g, n, {.direction = llc::FftDirection::inverse, .layout = llc::FftLayout::block})`.
struct FftOptions {
    FftDirection direction = FftDirection::forward;
    FftLayout layout = FftLayout::block;
    FftOrder order = FftOrder::natural;
    FftPlanner planner = FftPlanner::estimate;
};

/// The block layout's distribution of the n entries of the input and of the natural-order output: contiguous balanced
/// blocks, a user's own (fft_block_size and fft_block_start are its local_size and start).
[[nodiscard]] inline BlockDistribution fft_block_distribution(std::int64_t n, int P) {
    return BlockDistribution(n, P);
}
/// Entries processor `rank` of `P` holds in the block layout: n/P, plus one for the first n mod P processors.
[[nodiscard]] std::int64_t fft_block_size(std::int64_t n, int P, int rank);
/// Global index of the first entry processor `rank` holds in the block layout.
[[nodiscard]] std::int64_t fft_block_start(std::int64_t n, int P, int rank);

/// A parallel FFT of length n over a group, planned once and executed many times. Holds the FFTW plans of its
/// leaves, the twiddle tables and the work buffers, so an execution allocates nothing.
///
/// Move-only. The group must outlive the plan.
class FftPlan {
  public:
    /// Plans a transform of length `n` over `g`.
    /// Collective over `g`: every processor must pass the same n and options (checked with one small allreduce;
    /// llc::Error on every processor otherwise).
    /// @throws llc::Error for n < 1, or n / options that differ across the processors.
    FftPlan(Group& g, std::int64_t n, FftOptions options = {});
    ~FftPlan();
    FftPlan(FftPlan&&) noexcept;
    FftPlan& operator=(FftPlan&&) noexcept;
    FftPlan(const FftPlan&) = delete;
    FftPlan& operator=(const FftPlan&) = delete;

    /// Transforms this processor's `in` (input_size() entries) into `out` (output_size() entries). `in` and `out`
    /// may be the same buffer (in place); otherwise they must not overlap.
    /// Collective over the plan's group.
    /// Cost: llc::cost::fft(P, n, layout, order) (CCM paper §3, the recursion for Φ).
    /// @throws llc::Error (on every processor) when a processor's in.size() or out.size() does not match the layout.
    void execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out);

    /// As execute(in, out), returning a new output vector.
    [[nodiscard]] std::vector<std::complex<double>> execute(std::span<const std::complex<double>> in);

    [[nodiscard]] std::int64_t n() const noexcept;
    [[nodiscard]] const FftOptions& options() const noexcept;
    [[nodiscard]] FftMethod method() const noexcept;
    [[nodiscard]] Group& group() const noexcept;
    /// Entries of `in` on this processor: n (replicated) or fft_block_size(n, P, rank) (block).
    [[nodiscard]] std::int64_t input_size() const noexcept;
    /// Global index of this processor's first input entry (0 for replicated).
    [[nodiscard]] std::int64_t input_start() const noexcept;
    /// Entries of `out` on this processor (equal to input_size()).
    [[nodiscard]] std::int64_t output_size() const noexcept;
    /// The frequency k of X[k] held at local output position i, 0 ≤ i < output_size().
    [[nodiscard]] std::int64_t output_index(std::int64_t i) const;
    /// Where the input of the block layout lives: fft_block_distribution(n, P), a user's contiguous blocks, taken
    /// directly; the natural-order output lives the same way. @throws llc::Error for the replicated layout, whose
    /// every rank holds the whole input (not a distribution of it).
    [[nodiscard]] BlockDistribution input_distribution() const;

    /// The CCM cost of execute() on this plan: cost::fft(P, n, layout, order, profile) (<llc/algorithms/fft_cost.hpp>,
    /// which a caller includes to use the Expr). @throws llc::Error (cost::fft's) naming a kernel table the profile
    /// lacks.
    [[nodiscard]] cost::Expr cost(const cost::Profile& profile) const;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

/// One-shot transform: plans (FftPlanner::estimate) and executes. For the block layout n is the sum of the
/// processors' in.size(), which must match fft_block_size(n, P, rank).
/// Collective over `g`. Cost: llc::cost::fft(P, n, layout, order) plus planning.
/// @throws llc::Error as FftPlan and FftPlan::execute.
[[nodiscard]] std::vector<std::complex<double>> fft(Group& g,
                                                    std::span<const std::complex<double>> in,
                                                    FftOptions options = {});

}  // namespace llc
