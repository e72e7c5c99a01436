#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/agreement.hpp>
#include <llc/algorithms/fft.hpp>
#include <llc/algorithms/fft_names.hpp>
#include <llc/clock.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/log2.hpp>
#include <llc/par.hpp>
#include <llc/partners.hpp>
#include <llc/trace.hpp>

#include "fft_kernels.hpp"

namespace llc {

using detail::fft::bit_reverse;
using detail::fft::Buffer;
using detail::fft::Complex;
using detail::fft::Leaf;
using detail::fft::Twiddles;

std::string_view to_string(FftDirection direction) {
    return direction == FftDirection::forward ? "forward" : "inverse";
}
std::string_view to_string(FftLayout layout) {
    return layout == FftLayout::replicated ? "replicated" : "block";
}
std::string_view to_string(FftOrder order) {
    return order == FftOrder::natural ? "natural" : "scrambled";
}
std::string_view to_string(FftMethod method) {
    switch (method) {
        case FftMethod::serial:
            return "serial";
        case FftMethod::split:
            return "split";
        case FftMethod::gathered:
            return "gathered";
    }
    return "unknown";
}

std::string_view to_string(FftPlanner planner) {
    switch (planner) {
        case FftPlanner::estimate:
            return "estimate";
        case FftPlanner::measure:
            return "measure";
        case FftPlanner::patient:
            return "patient";
        case FftPlanner::exhaustive:
            return "exhaustive";
    }
    return "unknown";
}

std::int64_t fft_block_size(std::int64_t n, int P, int rank) {
    return n / P + (rank < n % P ? 1 : 0);
}

std::int64_t fft_block_start(std::int64_t n, int P, int rank) {
    return static_cast<std::int64_t>(rank) * (n / P) + std::min<std::int64_t>(rank, n % P);
}

namespace {

constexpr const char* execute_name = "llc::FftPlan::execute";

/// An agreement on every field of `options`, shown by name; the caller adds its own arguments and checks.
Agreement agree_on_options(Group& g, const char* function, const FftOptions& options) {
    Agreement agreement(g, function);
    agreement.same("options.direction", static_cast<long long>(options.direction), to_string(options.direction))
        .same("options.layout", static_cast<long long>(options.layout), to_string(options.layout))
        .same("options.order", static_cast<long long>(options.order), to_string(options.order))
        .same("options.planner", static_cast<long long>(options.planner), to_string(options.planner));
    return agreement;
}

int sign_of(FftDirection direction) {
    return direction == FftDirection::forward ? -1 : 1;
}

/// The replicated (common-common) algorithm of the paper's Figure 4 on one group: even/odd division with a division
/// superstep while the group has more than one processor and the length is even, FFTW leaves, DIT combine.
class Replicated {
  public:
    Replicated(Group& g, std::int64_t n, FftDirection direction, FftPlanner planner) : group_(&g) {
        int P = g.size();
        int r = g.rank();
        auto len = static_cast<std::uint64_t>(n);
        std::size_t stride = 1;
        while (P > 1 && len % 2 == 0) {
            const std::array<double, 2> weights{1.0, 1.0};
            const std::vector<int> sizes = split_sizes(P, weights);
            const int task = r < sizes[0] ? 0 : 1;
            levels_.push_back(Level{task, len / 2, Twiddles(len, sign_of(direction), 0, len / 2)});
            r -= task == 0 ? 0 : sizes[0];
            P = sizes[static_cast<std::size_t>(task)];
            len /= 2;
            stride *= 2;
        }
        leaf_ = Leaf(len, stride, false, direction, planner);
    }

    [[nodiscard]] bool splits() const noexcept { return !levels_.empty(); }

    /// out (n entries) = DFT of in (n entries); in and out must not overlap.
    void run(const Complex* in, Complex* out) { level(*group_, 0, in, 1, out); }

  private:
    struct Level {
        int task;            // the half this processor works on: 0 = even terms, 1 = odd terms
        std::uint64_t half;  // n/2 at this level
        Twiddles combine;    // ω_n^k, k < n/2
    };

    void level(Group& g, std::size_t d, const Complex* x, std::size_t stride, Complex* out) {
        if (d == levels_.size()) {
            leaf_.execute(x, out);
            return;
        }
        const Level& lv = levels_[d];
        const std::size_t h = lv.half;
        const int count = detail::to_count("llc::FftPlan (replicated)", "n/2", h);
        const std::array<double, 2> weights{1.0, 1.0};
        {
            const Label label(names::fft::split);
            detail::run_division(
                g,
                "par",
                weights,
                [&](Group& sub, int t) {
                    level(sub,
                          d + 1,
                          x + static_cast<std::size_t>(t) * stride,
                          2 * stride,
                          out + static_cast<std::size_t>(t) * h);
                },
                [&](int t, int dest, detail::PendingSends& pending) {
                    MPI_Request request = MPI_REQUEST_NULL;
                    detail::check_mpi(MPI_Isend(out + static_cast<std::size_t>(t) * h,
                                                count,
                                                detail::mpi_type<Complex>(),
                                                dest,
                                                detail::result_tag,
                                                g.native(),
                                                &request),
                                      "llc::FftPlan (replicated exchange)");
                    pending.raw.push_back(request);
                    pending.bytes += h * sizeof(Complex);
                },
                [&](int t, int source, std::uint64_t& bytes) {
                    detail::check_mpi(MPI_Recv(out + static_cast<std::size_t>(t) * h,
                                               count,
                                               detail::mpi_type<Complex>(),
                                               source,
                                               detail::result_tag,
                                               g.native(),
                                               MPI_STATUS_IGNORE),
                                      "llc::FftPlan (replicated exchange)");
                    bytes += h * sizeof(Complex);
                });
        }
        detail::fft::dit_combine(out, lv.combine);
    }

    Group* group_;
    std::vector<Level> levels_;
    Leaf leaf_;
};

/// The block-distributed algorithm: log2 P decimation-in-frequency stages (partner swap + butterfly), a local FFTW
/// leaf, and for natural order a redistribution (swap at P = 2, all-to-all otherwise) and an interleave.
class Block {
  public:
    Block(Group& g, std::int64_t n, const FftOptions& options)
        : group_(&g), natural_(options.order == FftOrder::natural) {
        const int P = g.size();
        const int r = g.rank();
        s_ = ceil_log2(P);  // P is a power of two (fft picks this layout only then)
        L_ = static_cast<std::size_t>(n / P);
        const int sign = sign_of(options.direction);
        for (int t = 0; t < s_; ++t) {
            const int Pt = P >> t;  // size of the sub-problem's processor set at stage t
            const int half = Pt / 2;
            const int local = r & (Pt - 1);
            const bool upper = local >= half;
            stages_.push_back(Stage{
                r ^ half,
                upper,
                upper ? Twiddles(
                            static_cast<std::uint64_t>(n >> t), sign, static_cast<std::uint64_t>(local - half) * L_, L_)
                      : Twiddles()});
        }
        R_ = Buffer(L_);
        c_ = static_cast<std::size_t>(bit_reverse(static_cast<std::uint64_t>(r), s_));
        // The last stage's butterfly is folded into the leaf when the leaf is a four-step (Leaf::fuses_dif): with
        // the estimate planner always; with a measuring planner when, timed here, that beats FFTW's own plan of the
        // whole length after a separate butterfly.
        const bool last_upper = stages_.back().upper;
        leaf_ = Leaf(L_, 1, !natural_, options.direction, options.planner, last_upper);
        if (options.planner != FftPlanner::estimate && detail::fft::four_step_applies(L_)) {
            Leaf four_step(L_, 1, !natural_, options.direction, options.planner, last_upper, true);
            if (folded_is_faster(four_step)) {
                leaf_ = std::move(four_step);
            }
        }
        if (!natural_) {
            return;
        }
        const auto Pu = static_cast<std::size_t>(P);
        if (P == 2 && L_ % 2 == 0) {
            mode_ = Redistribution::swap;
            recv_ = Buffer(L_ / 2);
        } else if (L_ % Pu == 0) {
            mode_ = Redistribution::alltoall;
            recv_ = Buffer(L_);
        } else {
            mode_ = Redistribution::alltoallv;
            // Local k goes to processor ⌊(k·P + c)/L⌋: contiguous runs of k, one per destination.
            send_counts_.resize(Pu);
            for (std::size_t q = 0; q < Pu; ++q) {
                send_counts_[q] = static_cast<int>(k_begin(q + 1, c_) - k_begin(q, c_));
            }
        }
    }

    void run(const Complex* in, Complex* out) {
        Group& g = *group_;
        const Complex* src = in;
        bool folded = false;  // the last butterfly done by the leaf
        for (std::size_t t = 0; t < stages_.size(); ++t) {
            const Stage& stage = stages_[t];
            {
                const Label label(names::fft::dif);
                g.swap(stage.partner, std::span<const Complex>(src, L_), R_.span());
            }
            if (t + 1 == stages_.size() && leaf_.fuses_dif()) {
                // a = the lower partner's entries, b = the upper's; the leaf reads both before writing.
                const Complex* a = stage.upper ? R_.data() : src;
                const Complex* b = stage.upper ? src : R_.data();
                leaf_.execute_dif(a, b, stage.upper, natural_ ? R_.data() : out);
                folded = true;
                break;
            }
            if (stage.upper) {
                detail::fft::dif_upper(R_.data(), src, out, stage.twiddles);
            } else {
                detail::fft::dif_lower(src, R_.data(), out, L_);
            }
            src = out;
        }
        if (!natural_) {
            if (!folded) {
                leaf_.execute(out, out);
            }
            return;
        }
        if (!folded) {
            leaf_.execute(out, R_.data());
        }
        const Label label(names::fft::redistribute);
        const int P = g.size();
        const auto Pu = static_cast<std::size_t>(P);
        switch (mode_) {
            case Redistribution::swap: {
                const std::size_t m = L_ / 2;
                const auto r = static_cast<std::size_t>(g.rank());
                g.swap(g.rank() ^ 1, std::span<const Complex>(R_.data() + (1 - r) * m, m), recv_.span());
                detail::fft::interleave2(R_.data() + r * m, recv_.data(), out, m, c_);
                break;
            }
            case Redistribution::alltoall: {
                g.alltoall(std::span<const Complex>(R_.data(), L_), recv_.span());
                const std::size_t m = L_ / Pu;
                for (std::size_t q = 0; q < Pu; ++q) {
                    const auto cq = static_cast<std::size_t>(bit_reverse(q, s_));
                    detail::fft::scatter_strided(recv_.data() + q * m, out, m, Pu, cq);
                }
                break;
            }
            case Redistribution::alltoallv: {
                std::vector<int> recv_counts;
                const std::vector<Complex> received =
                    g.alltoallv(std::span<const Complex>(R_.data(), L_), send_counts_, &recv_counts);
                const auto r = static_cast<std::size_t>(g.rank());
                std::size_t offset = 0;
                for (std::size_t q = 0; q < Pu; ++q) {
                    const auto cq = static_cast<std::size_t>(bit_reverse(q, s_));
                    const std::size_t k0 = k_begin(r, cq);
                    const std::size_t count = static_cast<std::size_t>(recv_counts[q]);
                    if (count > 0) {
                        detail::fft::scatter_strided(
                            received.data() + offset, out + (k0 * Pu + cq - r * L_), count, Pu, 0);
                    }
                    offset += count;
                }
                break;
            }
        }
    }

  private:
    enum class Redistribution { swap, alltoall, alltoallv };
    struct Stage {
        int partner;
        bool upper;
        Twiddles twiddles;  // upper partner only: ω_{n/2^t}^{j0 + i}
    };

    /// Whether the last stage's butterfly folded into `four_step` runs faster than the butterfly and leaf_ apart, on
    /// scratch blocks (best of three runs each, alternated). Local: each processor chooses its own leaf.
    [[nodiscard]] bool folded_is_faster(Leaf& four_step) {
        const Stage& stage = stages_.back();
        const Buffer a(L_);
        const Buffer b(L_);
        const Buffer y(L_);
        const auto seconds = [](auto&& body) {
            const double start = clock_seconds();  // llc's one clock: the simulated one under SMPI
            body();
            return clock_seconds() - start;
        };
        double folded = std::numeric_limits<double>::infinity();
        double apart = folded;
        for (int i = 0; i < 3; ++i) {
            folded =
                std::min(folded, seconds([&] {
                             four_step.execute_dif(a.data(), b.data(), stage.upper, natural_ ? b.data() : y.data());
                         }));
            apart = std::min(apart, seconds([&] {
                                 if (stage.upper) {
                                     detail::fft::dif_upper(a.data(), b.data(), y.data(), stage.twiddles);
                                 } else {
                                     detail::fft::dif_lower(b.data(), a.data(), y.data(), L_);
                                 }
                                 leaf_.execute(y.data(), natural_ ? b.data() : y.data());
                             }));
        }
        return folded < apart;
    }

    /// First k with k·P + c ≥ q·L (clipped to [0, L]): where the run of local entries for destination q starts.
    [[nodiscard]] std::size_t k_begin(std::size_t q, std::size_t c) const {
        const std::size_t P = std::size_t{1} << s_;
        const std::size_t target = q * L_;
        if (target <= c) {
            return 0;
        }
        return std::min(L_, (target - c + P - 1) / P);
    }

    Group* group_;
    bool natural_;
    int s_ = 0;
    std::size_t L_ = 0;
    std::size_t c_ = 0;
    std::vector<Stage> stages_;
    Leaf leaf_;
    Buffer R_;
    Buffer recv_;
    Redistribution mode_ = Redistribution::swap;
    std::vector<int> send_counts_;
};

}  // namespace

struct FftPlan::Impl {
    Group* group = nullptr;
    std::int64_t n = 0;
    FftOptions options;
    FftMethod method = FftMethod::serial;
    std::int64_t in_size = 0;
    std::int64_t in_start = 0;
    int s = 0;  // log2 P for the block split

    std::optional<Leaf> serial;            // FftMethod::serial
    std::optional<Replicated> replicated;  // replicated split, and the gathered fallback
    std::optional<Block> block;            // block split
    Buffer work;                           // serial / replicated in-place copy; gathered: input
    Buffer work_out;                       // gathered: whole output

    void run(const Complex* in, Complex* out);
};

FftPlan::FftPlan(Group& g, std::int64_t n, FftOptions options) : impl_(std::make_unique<Impl>()) {
    constexpr const char* name = "llc::FftPlan";
    agree_on_options(g, name, options).same("n", n).check();
    if (n < 1) {
        throw_argument_error(name, "n", std::to_string(n), "must be at least 1");
    }
    if (n > std::numeric_limits<int>::max()) {
        throw_argument_error(name, "n", std::to_string(n), "exceeds the supported length 2^31 - 1");
    }
    Impl& impl = *impl_;
    impl.group = &g;
    impl.n = n;
    impl.options = options;
    const int P = g.size();
    const int r = g.rank();
    if (options.layout == FftLayout::replicated) {
        impl.in_size = n;
        impl.in_start = 0;
        if (P == 1 || n % 2 != 0) {
            impl.method = FftMethod::serial;
            impl.serial.emplace(static_cast<std::size_t>(n), 1, false, options.direction, options.planner);
        } else {
            impl.method = FftMethod::split;
            impl.replicated.emplace(g, n, options.direction, options.planner);
        }
        return;
    }
    impl.in_size = fft_block_size(n, P, r);
    impl.in_start = fft_block_start(n, P, r);
    if (P == 1) {
        impl.method = FftMethod::serial;
        impl.serial.emplace(static_cast<std::size_t>(n), 1, false, options.direction, options.planner);
    } else if (is_power_of_two(P) && n % P == 0) {
        impl.method = FftMethod::split;
        impl.s = ceil_log2(P);
        impl.block.emplace(g, n, options);
    } else {
        impl.method = FftMethod::gathered;
        impl.work_out = Buffer(static_cast<std::size_t>(n));
        if (n % 2 == 0) {
            impl.replicated.emplace(g, n, options.direction, options.planner);
        } else {
            impl.serial.emplace(static_cast<std::size_t>(n), 1, false, options.direction, options.planner);
        }
    }
}

FftPlan::~FftPlan() = default;
FftPlan::FftPlan(FftPlan&&) noexcept = default;
FftPlan& FftPlan::operator=(FftPlan&&) noexcept = default;

std::int64_t FftPlan::n() const noexcept {
    return impl_->n;
}
const FftOptions& FftPlan::options() const noexcept {
    return impl_->options;
}
FftMethod FftPlan::method() const noexcept {
    return impl_->method;
}
Group& FftPlan::group() const noexcept {
    return *impl_->group;
}
std::int64_t FftPlan::input_size() const noexcept {
    return impl_->in_size;
}
std::int64_t FftPlan::input_start() const noexcept {
    return impl_->in_start;
}
std::int64_t FftPlan::output_size() const noexcept {
    return impl_->in_size;
}

std::int64_t FftPlan::output_index(std::int64_t i) const {
    if (i < 0 || i >= impl_->in_size) {
        throw_argument_error("llc::FftPlan::output_index",
                             "i",
                             std::to_string(i),
                             "must be in [0, output_size() = " + std::to_string(impl_->in_size) + ")");
    }
    if (impl_->method == FftMethod::split && impl_->options.layout == FftLayout::block &&
        impl_->options.order == FftOrder::scrambled) {
        const auto c =
            static_cast<std::int64_t>(bit_reverse(static_cast<std::uint64_t>(impl_->group->rank()), impl_->s));
        return i * impl_->group->size() + c;
    }
    return impl_->in_start + i;
}

void FftPlan::Impl::run(const Complex* in, Complex* out) {
    const auto size = static_cast<std::size_t>(in_size);
    switch (method) {
        case FftMethod::serial: {
            if (in == out) {
                if (work.size() != size) {
                    work = Buffer(size);
                }
                std::memcpy(static_cast<void*>(work.data()), in, size * sizeof(Complex));
                in = work.data();
            }
            serial->execute(in, out);
            return;
        }
        case FftMethod::split: {
            if (block) {
                block->run(in, out);
                return;
            }
            if (in == out) {
                if (work.size() != size) {
                    work = Buffer(size);
                }
                std::memcpy(static_cast<void*>(work.data()), in, size * sizeof(Complex));
                in = work.data();
            }
            replicated->run(in, out);
            return;
        }
        case FftMethod::gathered: {
            Group& g = *group;
            std::vector<Complex> whole;
            {
                const Label label(names::fft::gather);
                whole = g.allgatherv(std::span<const Complex>(in, size));
            }
            if (replicated) {
                replicated->run(whole.data(), work_out.data());
            } else {
                serial->execute(whole.data(), work_out.data());
            }
            if (size > 0) {  // a processor may hold no entry (n < P); memcpy must not see its null pointer
                std::memcpy(static_cast<void*>(out), work_out.data() + in_start, size * sizeof(Complex));
            }
            return;
        }
    }
}

void FftPlan::execute(std::span<const std::complex<double>> in, std::span<std::complex<double>> out) {
    Impl& impl = *impl_;
    const auto expected = static_cast<std::size_t>(impl.in_size);
    const bool in_ok = in.size() == expected;
    const bool out_ok = out.size() == expected;
    // Partial overlap (not the same buffer) would corrupt the input while it is read.
    const auto* ib = reinterpret_cast<const char*>(in.data());
    const auto* ob = reinterpret_cast<const char*>(out.data());
    const bool overlap = ib != ob && ib < ob + out.size_bytes() && ob < ib + in.size_bytes();
    // This rank's verdict, with the sizes it got and the ones the plan expects here; the agreement check makes it an
    // error on every rank, each showing the messages of the ranks at fault.
    const std::string where = " on rank " + std::to_string(impl.group->rank()) + " (layout " +
                              std::string(to_string(impl.options.layout)) + ", n = " + std::to_string(impl.n) +
                              ", P = " + std::to_string(impl.group->size()) + ")";
    std::string error;
    if (!in_ok) {
        error = argument_message(execute_name,
                                 "in.size()",
                                 std::to_string(in.size()),
                                 "must equal this processor's input_size() = " + std::to_string(expected) + where);
    } else if (!out_ok) {
        error = argument_message(execute_name,
                                 "out.size()",
                                 std::to_string(out.size()),
                                 "must equal this processor's output_size() = " + std::to_string(expected) + where);
    } else if (overlap) {
        error = argument_message(
            execute_name, "out", "a buffer overlapping in", "in and out must be the same buffer or not overlap at all");
    }
    impl.group->check_same(execute_name, {}, error);
    impl.run(in.data(), out.data());
}

std::vector<std::complex<double>> FftPlan::execute(std::span<const std::complex<double>> in) {
    std::vector<std::complex<double>> out(static_cast<std::size_t>(impl_->in_size));
    execute(in, out);
    return out;
}

std::vector<std::complex<double>> fft(Group& g, std::span<const std::complex<double>> in, FftOptions options) {
    auto n = static_cast<std::int64_t>(in.size());
    // The layout decides whether n is this rank's size or the sum of all: agreed before the sum is taken.
    agree_on_options(g, "llc::fft", options)
        .same("in.size() (replicated: the whole input, n)", options.layout == FftLayout::replicated ? n : 0)
        .check();
    if (options.layout == FftLayout::block) {
        n = g.allreduce(static_cast<long long>(in.size()), Op::sum);
    }
    FftPlan plan(g, n, options);
    return plan.execute(in);
}

}  // namespace llc
