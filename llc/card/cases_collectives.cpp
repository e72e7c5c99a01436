// Validation cases of the collectives card: the set F on a Group (without the barrier), swap and shift, the cold swap
// and the split-phase shift, each priced as one normal superstep of the profile's T_f.
#include <algorithm>
#include <cmath>
#include <functional>
#include <span>
#include <vector>

#include <llc/cost/operation_names.hpp>
#include <llc/cost/partners.hpp>
#include <llc/llc.hpp>
#include <llc/tools/validation_case.hpp>

#include "card.hpp"

namespace llc::cards {

namespace {

/// The process's cold rotation (tools::cold_rotation(): huge pages, prepared once per process and shared by every
/// cold-swap instance and by llc-probe's swap.cold, the position going on from call to call) if `slots` fit in it
/// (every size up to half the rotation: cold_slots' slots end within a page past it), else null (the instance keeps
/// its own). Why shared: made per instance, it filled 2 × 128 MiB on every visit of every size. Under SimGrid SMPI
/// always null: every simulated rank runs in one process, and the payloads are already shared there (tools::Contents).
tools::ColdRotation* shared_cold_rotation([[maybe_unused]] const tools::ColdSlots& slots) {
#if defined(LLC_SMPI)
    return nullptr;
#else
    if (slots.stride * slots.count > tools::ColdRotation::capacity) {
        return nullptr;
    }
    return &tools::cold_rotation();
#endif
}

/// Whether `op` is one of the cold swaps (swap.cold, swap.cold.heap): a rotation of slots, not one buffer.
bool is_cold_swap(const std::string& op) {
    return op == names::op::swap_cold || op == names::op::swap_cold_heap;
}

/// A collective on doubles; n is the bytes the trace records for it (h).
class CollectiveInstance final : public Instance {
  public:
    CollectiveInstance(Group& g, std::string op, std::int64_t bytes)
        : g_(g),
          op_(std::move(op)),
          count_(counts(g.size(), op_, bytes)),
          slots_(slots_for(op_, count_)),
          rotation_(is_cold_swap(op_) ? shared_cold_rotation(slots_) : nullptr),
          buffers_(sizes(g.size(), op_, own_doubles())),
          call_(resolve()) {}
    void run() override { call_(); }
    [[nodiscard]] std::function<void()> action() override { return call_; }

  private:
    /// The call, its arguments found once (as llc-probe times it: a 20 ns collective on one processor would otherwise
    /// pay as much again for finding its name).
    std::function<void()> resolve() {
        Group* g = &g_;
        const std::span<double> a = buffers_.a();
        const std::span<double> b = buffers_.b();
        const std::span<const double> in(a);
        if (op_ == names::op::bcast) {
            return [g, a] { g->bcast(a, 0); };
        }
        if (op_ == names::op::reduce) {
            return [g, in, b] { g->reduce(in, b, Op::sum, 0); };
        }
        if (op_ == names::op::allreduce) {
            return [g, in, b] { g->allreduce(in, b, Op::sum); };
        }
        if (op_ == names::op::gather) {
            return [this, g, part = in.first(count_)] { gathered_ = g->gather(part, 0); };
        }
        if (op_ == names::op::allgather) {
            return [this, g, part = in.first(count_)] { gathered_ = g->allgather(part); };
        }
        if (op_ == names::op::scatter) {
            return [g, in, mine = b.first(count_)] { g->scatter(in, mine, 0); };
        }
        if (op_ == names::op::alltoall) {
            return [g, in, b] { g->alltoall(in, b); };
        }
        if (op_ == names::op::swap || op_ == names::op::swap_far) {
            // As llc-probe pairs them: r xor 1, or r xor the largest power of two below p (swap.far).
            const int partner = g_.rank() ^ (op_ == names::op::swap_far ? cost::far_distance(g_.size()) : 1);
            return [g, mate = partner < g_.size() ? partner : g_.rank(), in, b] { g->swap(mate, in, b); };
        }
        if (op_ == names::op::shift) {
            return [g, in, b] { g->shift(in, b); };
        }
        if (op_ == names::op::shift_overlap) {
            return [g, in, b] { g->shift_start(in, b).wait(); };
        }
        if (is_cold_swap(op_)) {
            // As llc-probe times it: each call swaps the next page-aligned slot, so its data has left the caches; the
            // rotation goes on where the last call (of any visit, size or tool) left it. swap.cold.heap sends from the
            // rotation's slots on the allocator's ordinary pages.
            const int partner = g_.rank() ^ 1;
            const int mate = partner < g_.size() ? partner : g_.rank();
            const std::size_t half = count_ * sizeof(double);
            if (rotation_ != nullptr) {
                const std::span<const unsigned char> send =
                    op_ == names::op::swap_cold_heap ? rotation_->heap_send() : rotation_->send();
                return [g, mate, rotation = rotation_, send, half, slots = slots_] {
                    const std::size_t at = rotation->advance(slots);
                    g->swap(mate, send.subspan(at, half), rotation->receive().subspan(at, half));
                };
            }
            return [g,
                    mate,
                    in,
                    b,
                    count = count_,
                    stride = std::max<std::size_t>(slots_.stride, 1),
                    slots = slots_.count,
                    next = &own_next_byte_] {
                const std::size_t slot = *next / stride % slots;
                const std::size_t at = slot * stride / sizeof(double);
                g->swap(mate, in.subspan(at, count), b.subspan(at, count));
                *next = (slot + 1) % slots * stride;
            };
        }
        throw Error("llc-validate: no collective case '" + op_ + "'");
    }

    /// Doubles per processor's contribution: h / 8, whole blocks of P for allgather and alltoall.
    static std::size_t counts(int p, const std::string& op, std::int64_t bytes) {
        const auto P = static_cast<std::size_t>(p);
        std::size_t count = static_cast<std::size_t>(bytes) / sizeof(double);
        if (op == names::op::allgather) {
            count = std::max<std::size_t>(1, count / P);  // h = contribution × P
        }
        if (op == names::op::alltoall) {
            count = std::max<std::size_t>(P, count / P * P);
        }
        return count;
    }
    /// The cold swap's blocks: page-aligned slots through tools::cold_rotation_bytes (as llc-probe rotates them), at
    /// least two; one slot of count_ doubles for every other collective.
    static tools::ColdSlots slots_for(const std::string& op, std::size_t count) {
        const std::size_t bytes = count * sizeof(double);
        if (!is_cold_swap(op) || count == 0) {
            return {bytes, 1};
        }
        tools::ColdSlots slots = tools::cold_slots(bytes, tools::cold_rotation_bytes);
        slots.count = std::max<std::size_t>(2, slots.count);
        return slots;
    }
    /// Doubles of this instance's own buffers: none past one call's for a cold swap on the shared rotation.
    [[nodiscard]] std::size_t own_doubles() const {
        if (!is_cold_swap(op_)) {
            return count_;
        }
        return rotation_ != nullptr ? 0 : slots_.stride / sizeof(double) * slots_.count;
    }
    static TwoBuffers<double> sizes(int p, const std::string& op, std::size_t count) {
        const auto P = static_cast<std::size_t>(p);
        return {count * (op == names::op::scatter ? P : 1),
                count * (op == names::op::gather || op == names::op::allgather ? P : 1),
                1.0,
                0.0,
                tools::Contents::payload};  // values nobody reads: shared by the ranks under SMPI
    }

    Group& g_;
    std::string op_;
    std::size_t count_ = 0;
    tools::ColdSlots slots_;
    tools::ColdRotation* rotation_;  // the cold swap's shared rotation (null: its own, in buffers_)
    std::size_t own_next_byte_ = 0;  // where its own rotation goes on
    TwoBuffers<double> buffers_;
    std::vector<double> gathered_;
    std::function<void()> call_;
};

/// The h the trace records for one call of `op` whose per-processor buffer is `bytes`.
double recorded_bytes(const std::string& op, std::int64_t bytes, int p) {
    const double per_double = sizeof(double);
    auto count = static_cast<double>(static_cast<std::size_t>(bytes) / sizeof(double));
    if (op == names::op::allgather) {
        count = std::max(1.0, std::floor(count / p)) * p;
    }
    if (op == names::op::alltoall) {
        count = std::max<double>(p, std::floor(count / p) * p);
    }
    if (const std::string base = cost::base_collective(op); base == names::op::swap || base == names::op::shift) {
        return 2.0 * count * per_double;  // sent + received
    }
    return count * per_double;
}

/// The set F without the barrier (a size-free superstep the probe checks), swap, shift, the cold swaps, the
/// split-phase shift and the swap between far partners.
const std::vector<std::string>& validated_collectives() {
    namespace op = names::op;
    static const std::vector<std::string> validated{op::bcast,
                                                    op::reduce,
                                                    op::allreduce,
                                                    op::gather,
                                                    op::allgather,
                                                    op::scatter,
                                                    op::alltoall,
                                                    op::swap,
                                                    op::shift,
                                                    op::swap_cold,
                                                    op::swap_cold_heap,
                                                    op::shift_overlap,
                                                    op::swap_far};
    return validated;
}

}  // namespace

std::vector<std::int64_t> byte_sizes(SizeClass size_class) {
    switch (size_class) {
        case SizeClass::small:
            return validate::log_sizes(64, 1 << 20, 5, 8);
        case SizeClass::medium:
            return validate::log_sizes(64, 16 << 20, 7, 8);
        case SizeClass::large:
            return validate::log_sizes(64, 64 << 20, 9, 8);
    }
    return {};
}

std::vector<Case> collective_cases() {
    std::vector<Case> cases;
    for (const std::string& op : validated_collectives()) {
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
            .applies =
                [op](int p, std::int64_t) {
                    const bool pairs = cost::base_collective(op) != names::op::swap || p % 2 == 0;
                    return pairs && (op != names::op::swap_far || cost::far_distance(p) > 0);  // swap.far: p >= 4
                },
            .goal = {.median = 0.10},
        });
    }
    return cases;
}

}  // namespace llc::cards
