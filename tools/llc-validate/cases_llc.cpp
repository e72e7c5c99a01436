// Validation cases of the llc layer itself: the collectives of the set F and Seidel's broadcasts. Divisions are
// validated through the algorithms that use them (the FFT's replicated layout).
#include <algorithm>
#include <cmath>
#include <span>
#include <vector>

#include <llc/broadcast.hpp>
#include <llc/llc.hpp>

#include "case.hpp"

namespace llc::validate {

std::vector<std::int64_t> log_sizes(std::int64_t low, std::int64_t high, int count, std::int64_t multiple) {
    std::vector<std::int64_t> sizes;
    for (int i = 0; i < count; ++i) {
        const double t = count == 1 ? 0.0 : static_cast<double>(i) / (count - 1);
        const double value =
            std::exp(std::log(static_cast<double>(low)) * (1.0 - t) + std::log(static_cast<double>(high)) * t);
        std::int64_t rounded =
            std::max<std::int64_t>(multiple, static_cast<std::int64_t>(std::llround(value / multiple)) * multiple);
        if (sizes.empty() || rounded > sizes.back()) {
            sizes.push_back(rounded);
        }
    }
    return sizes;
}

namespace {

std::vector<std::int64_t> byte_sizes(SizeClass size_class) {
    switch (size_class) {
        case SizeClass::small:
            return log_sizes(64, 1 << 20, 5, 8);
        case SizeClass::medium:
            return log_sizes(64, 16 << 20, 7, 8);
        case SizeClass::large:
            return log_sizes(64, 64 << 20, 9, 8);
    }
    return {};
}

/// Two buffers of `a` and `b` doubles in one allocation, the second starting 2 KiB past a 4 KiB boundary of the
/// first. Two same-sized vectors allocated one after the other sit 16 bytes apart modulo 4 KiB when their size is a
/// multiple of 4 KiB, and a reduction or copy from one into the other then runs 3–20× slower on this machine (4K
/// aliasing: each store looks like it may feed the next loads); llc-probe's buffers never do, so the validator must
/// not either, or it measures the allocator's luck instead of the collective.
class TwoBuffers {
  public:
    TwoBuffers(std::size_t a, std::size_t b, double a_value, double b_value) : a_(a) {
        constexpr std::size_t page = 4096 / sizeof(double);
        constexpr std::size_t half_page = page / 2;
        offset_ = a + (half_page + page - a % page) % page;  // offset ≡ 2 KiB (mod 4 KiB), ≥ a
        storage_.assign(offset_ + b + 1, b_value);
        std::fill_n(storage_.begin(), a, a_value);
        b_ = b;
    }
    [[nodiscard]] std::span<double> a() noexcept { return {storage_.data(), a_}; }
    [[nodiscard]] std::span<double> b() noexcept { return {storage_.data() + offset_, b_}; }

  private:
    std::vector<double> storage_;
    std::size_t a_ = 0;
    std::size_t b_ = 0;
    std::size_t offset_ = 0;
};

/// A collective on doubles; n is the bytes the trace records for it (h).
class CollectiveInstance final : public Instance {
  public:
    CollectiveInstance(Group& g, std::string op, std::int64_t bytes)
        : g_(g), op_(std::move(op)), count_(counts(g.size(), op_, bytes)), buffers_(sizes(g.size(), op_, count_)) {}
    void run() override {
        const std::span<double> a = buffers_.a();
        const std::span<double> b = buffers_.b();
        if (op_ == "bcast") {
            g_.bcast(a, 0);
        } else if (op_ == "reduce") {
            g_.reduce(std::span<const double>(a), b, Op::sum, 0);
        } else if (op_ == "allreduce") {
            g_.allreduce(std::span<const double>(a), b, Op::sum);
        } else if (op_ == "gather") {
            gathered_ = g_.gather(std::span<const double>(a.data(), count_), 0);
        } else if (op_ == "allgather") {
            gathered_ = g_.allgather(std::span<const double>(a.data(), count_));
        } else if (op_ == "scatter") {
            g_.scatter(std::span<const double>(a), b.first(count_), 0);
        } else if (op_ == "alltoall") {
            g_.alltoall(std::span<const double>(a), b);
        } else if (op_ == "swap") {
            const int partner = g_.rank() ^ 1;
            g_.swap(partner < g_.size() ? partner : g_.rank(), std::span<const double>(a), b);
        }
    }

  private:
    /// Doubles per processor's contribution: h / 8, whole blocks of P for allgather and alltoall.
    static std::size_t counts(int p, const std::string& op, std::int64_t bytes) {
        const auto P = static_cast<std::size_t>(p);
        std::size_t count = static_cast<std::size_t>(bytes) / sizeof(double);
        if (op == "allgather") {
            count = std::max<std::size_t>(1, count / P);  // h = contribution × P
        }
        if (op == "alltoall") {
            count = std::max<std::size_t>(P, count / P * P);
        }
        return count;
    }
    static TwoBuffers sizes(int p, const std::string& op, std::size_t count) {
        const auto P = static_cast<std::size_t>(p);
        return {count * (op == "scatter" ? P : 1), count * (op == "gather" || op == "allgather" ? P : 1), 1.0, 0.0};
    }

    Group& g_;
    std::string op_;
    std::size_t count_ = 0;
    TwoBuffers buffers_;
    std::vector<double> gathered_;
};

/// The h the trace records for one call of `op` whose per-processor buffer is `bytes`.
double recorded_bytes(const std::string& op, std::int64_t bytes, int p) {
    const double per_double = sizeof(double);
    auto count = static_cast<double>(static_cast<std::size_t>(bytes) / sizeof(double));
    if (op == "allgather") {
        count = std::max(1.0, std::floor(count / p)) * p;
    }
    if (op == "alltoall") {
        count = std::max<double>(p, std::floor(count / p) * p);
    }
    if (op == "swap") {
        return 2.0 * count * per_double;  // sent + received
    }
    return count * per_double;
}

class BroadcastInstance final : public Instance {
  public:
    BroadcastInstance(Group& g, Bcast algorithm, std::int64_t bytes)
        : g_(g), algorithm_(algorithm), data_(static_cast<std::size_t>(bytes)) {}
    void run() override { llc::bcast(g_, std::span<unsigned char>(data_), 0, algorithm_); }

  private:
    Group& g_;
    Bcast algorithm_;
    std::vector<unsigned char> data_;
};

}  // namespace

std::vector<Case> collective_cases() {
    std::vector<Case> cases;
    for (const std::string op :
         {"bcast", "reduce", "allreduce", "gather", "allgather", "scatter", "alltoall", "swap"}) {
        cases.push_back(Case{
            .algorithm = op,
            .family = "collective",
            .size_unit = "bytes per processor",
            .sizes = byte_sizes,
            .prepare = [op](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
                return std::make_unique<CollectiveInstance>(g, op, n);
            },
            .expr = [op](int p,
                         std::int64_t n,
                         const cost::Profile&) { return cost::Expr::normal(op, 0.0, op, p, recorded_bytes(op, n, p)); },
            .applies = [op](int p, std::int64_t) { return op != "swap" || p % 2 == 0; },
        });
    }
    return cases;
}

std::vector<Case> broadcast_cases() {
    std::vector<Case> cases;
    const std::vector<std::pair<Bcast, std::string>> algorithms{
        {Bcast::binomial, "bcast.st"}, {Bcast::bidirectional, "bcast.bst"}, {Bcast::recursive_halving, "bcast.rh"}};
    for (const auto& [algorithm, name] : algorithms) {
        cases.push_back(Case{
            .algorithm = name,
            .family = "broadcast",
            .size_unit = "bytes",
            .sizes = byte_sizes,
            .prepare = [algorithm](Group& g, std::int64_t n) -> std::unique_ptr<Instance> {
                return std::make_unique<BroadcastInstance>(g, algorithm, n);
            },
            .expr =
                [name](int p, std::int64_t n, const cost::Profile&) {
                    return cost::Expr::normal(name, 0.0, name, p, static_cast<double>(n));
                },
            .applies = {},
        });
    }
    return cases;
}

std::vector<Case> all_cases() {
    std::vector<Case> cases;
    for (auto&& family : {fft_cases(), collective_cases(), broadcast_cases()}) {
        cases.insert(cases.end(), family.begin(), family.end());
    }
    return cases;
}

}  // namespace llc::validate
