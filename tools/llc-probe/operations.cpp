// The operations llc-probe times (see operations.hpp).
#include "operations.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <span>
#include <tuple>

#include <llc/broadcast.hpp>
#include <llc/cost/operation_names.hpp>
#include <llc/cost/partners.hpp>
#include <llc/par.hpp>
#include <llc/partners.hpp>
#include <llc/tools/timing.hpp>

#include "measure.hpp"

namespace llc::probe {

namespace {
constexpr int p2p_tag = 7600;
constexpr double gather_budget = 256.0 * 1024 * 1024;
const std::array<double, 2> two_equal{1.0, 1.0};

std::size_t as_size(double bytes) {
    return static_cast<std::size_t>(std::llround(std::max(bytes, 0.0)));
}

/// Rank r's partner in a swap `op` on p processors: r xor 1 (swap, swap.cold, swap.cold.heap), r xor
/// cost::far_distance(p) (swap.far); r itself when that rank is not in the group (an odd p's last rank).
int partner(std::string_view op, int r, int p) {
    const int mate = r ^ (op == names::op::swap_far ? cost::far_distance(p) : 1);
    return mate < p ? mate : r;
}
}  // namespace

const std::vector<std::string>& measured_collectives() {
    // The set F, swap and shift, plus Seidel's broadcasts (llc::bcast), so that the CCM prices them by measurement too,
    // the swap of data out of cache (cost::cold_suffix), which the FFT's block exchanges are, and the split-phase shift
    // (cost::overlap_suffix) of the ring pipelines that overlap their messages with work.
    static const std::vector<std::string> measured = [] {
        std::vector<std::string> all = cost::standard_collectives();
        all.insert(all.end(), names::op::measured_beyond_f.begin(), names::op::measured_beyond_f.end());
        return all;
    }();
    return measured;
}

bool measured_at(std::string_view op, int p) {
    if (op == names::op::swap_far) {
        return cost::far_distance(p) > 0;  // p ≥ 3: at p = 2 its pairs are swap's
    }
    return p >= 2 || op != names::op::shift_written;
}

double feasible_bytes(std::string_view op, int p, double bytes) {
    const double b = std::max(std::round(bytes), 1.0);
    auto multiple = [&](double unit) { return std::max(unit, std::round(b / unit) * unit); };
    if (op == names::op::barrier) {
        return 0.0;
    }
    if (op == names::op::reduce || op == names::op::allreduce) {
        return multiple(8.0);
    }
    if (op == names::op::allgather || op == names::op::alltoall) {
        return multiple(static_cast<double>(p));
    }
    if (const std::string base = cost::base_collective(op); base == names::op::swap || base == names::op::shift) {
        return multiple(2.0);  // h = sent + received, two equal halves
    }
    return b;
}

double largest_bytes(std::string_view op, int p, const SizeLimits& limits) {
    const double max_bytes = std::max(limits.max_bytes, limits.ladder_max_bytes);
    if (op == names::op::gather || op == names::op::scatter) {
        return std::min(max_bytes, std::max(max_bytes, gather_budget) / p);
    }
    if (cost::base_collective(op) == names::op::swap) {
        return std::max(max_bytes, limits.swap_max_bytes);
    }
    if (cost::base_collective(op) == names::op::shift && limits.ladder_max_bytes > limits.max_bytes) {
        // h = sent + received: a case's shift of n bytes a processor is h = 2n, and the recorded large run's 64 MiB
        // shift and shift.overlap (h = 128 MiB) lay past a 96 MiB ladder, extrapolated 107 % and 134 % high.
        return std::max(max_bytes, 2.0 * limits.ladder_max_bytes);
    }
    return max_bytes;
}

double largest_bytes_of_all(int p, const SizeLimits& limits) {
    return std::max({limits.max_bytes, limits.ladder_max_bytes, largest_bytes(names::op::swap, p, limits)});
}

// ---- collectives --------------------------------------------------------------------------------------------------

namespace {

/// The largest h the shared buffers serve: every h under SMPI; outside it only h < own_buffers_from (the larger ones
/// run on their own buffers), which spares filling 2 × 256 MiB and more at the start of every group's phase.
double shared_top(double h) {
#if defined(LLC_SMPI)
    return h;
#else
    return std::min(h, own_buffers_from);
#endif
}

std::size_t byte_buffer_size(int p, const SizeLimits& limits) {
    const std::size_t top = as_size(shared_top(largest_bytes_of_all(p, limits))) + static_cast<std::size_t>(p) * 8;
    const std::size_t scatter_root =
        as_size(shared_top(largest_bytes(names::op::scatter, p, limits))) * static_cast<std::size_t>(p);
    // The cold swap of a half larger than its rotation takes its one slot from the shared buffers.
    const std::size_t cold_half = as_size(largest_bytes(names::op::swap_cold, p, limits)) / 2;
    const std::size_t cold = cold_half > tools::ColdRotation::capacity ? cold_half : 0;
    return std::max({top, scatter_root + 8, cold});
}

std::size_t double_buffer_size(int p, const SizeLimits& limits) {
    return (as_size(shared_top(largest_bytes(names::op::reduce, p, limits))) + static_cast<std::size_t>(p) * 8) / 8 + 1;
}

}  // namespace

CollectiveBench::CollectiveBench(Group& g, const SizeLimits& limits)
    : g_(g),
      // Payloads: under SMPI shared by the simulated ranks (tools::Contents), P·(2 × 256 MiB) at P = 64 otherwise.
      bytes_(byte_buffer_size(g.size(), limits), byte_buffer_size(g.size(), limits), 1, 2, tools::Contents::payload),
      doubles_(double_buffer_size(g.size(), limits),
               double_buffer_size(g.size(), limits),
               1.0,
               0.0,
               tools::Contents::payload) {}

bool CollectiveBench::uses_own_buffers([[maybe_unused]] std::size_t h) noexcept {
#if defined(LLC_SMPI)
    return false;
#else
    return static_cast<double>(h) >= own_buffers_from;
#endif
}

tools::TwoBuffers<double>& CollectiveBench::own_buffers(std::size_t a_bytes, std::size_t b_bytes) {
    const auto key = std::make_pair(a_bytes, b_bytes);
    ++calls_;
    if (const auto it = own_.find(key); it != own_.end()) {
        it->second.used = calls_;
        return *it->second.buffers;
    }
    const std::size_t bytes = a_bytes + b_bytes;
    while (!own_.empty() && own_bytes_ + bytes > own_buffers_budget) {
        const auto oldest = std::min_element(
            own_.begin(), own_.end(), [](const auto& x, const auto& y) { return x.second.used < y.second.used; });
        own_bytes_ -= oldest->second.bytes;
        own_.erase(oldest);
    }
    auto to_doubles = [](std::size_t n) { return (n + sizeof(double) - 1) / sizeof(double); };
    Own fresh{std::make_unique<tools::TwoBuffers<double>>(
                  to_doubles(a_bytes), to_doubles(b_bytes), 1.0, 0.0, tools::Contents::payload),
              bytes,
              calls_};
    own_bytes_ += bytes;
    return *own_.emplace(key, std::move(fresh)).first->second.buffers;
}

std::function<void()> CollectiveBench::call_on_own_buffers(std::string_view op, std::size_t h) {
    const int p = g_.size();
    const auto pu = static_cast<std::size_t>(p);
    Group* g = &g_;
    // Each op's input (a) and output (b) bytes, as llc-validate's collective case sizes its instance.
    const auto bytes_of = [](std::span<double> x) {
        return std::span<unsigned char>(reinterpret_cast<unsigned char*>(x.data()), x.size_bytes());
    };
    const auto on = [this, bytes_of](std::size_t a, std::size_t b) {
        tools::TwoBuffers<double>& own = own_buffers(a, b);
        return std::pair{bytes_of(own.a()).first(a), bytes_of(own.b()).first(b)};
    };
    if (op == names::op::bcast) {
        return [g, on, h] { g->bcast(on(h, 0).first, 0); };
    }
    for (const auto& [name, algorithm] : {std::pair{names::op::bcast_st, Bcast::binomial},
                                          std::pair{names::op::bcast_bst, Bcast::bidirectional},
                                          std::pair{names::op::bcast_rh, Bcast::recursive_halving}}) {
        if (op == name) {
            return [g, on, h, a = algorithm] { llc::bcast(*g, on(h, 0).first, 0, a); };
        }
    }
    if (op == names::op::reduce || op == names::op::allreduce) {
        const bool all = op == names::op::allreduce;
        return [this, g, h, all] {
            tools::TwoBuffers<double>& own = own_buffers(h, h);
            const std::span<const double> in = own.a().first(h / 8);
            const std::span<double> out = own.b().first(h / 8);
            if (all) {
                g->allreduce(in, out, Op::sum);
            } else {
                g->reduce(in, out, Op::sum, 0);
            }
        };
    }
    if (op == names::op::gather) {
        return [this, g, on, h] { gathered_ = g->gather(std::span<const unsigned char>(on(h, 0).first), 0); };
    }
    if (op == names::op::allgather) {
        return [this, g, on, part = h / pu] {
            gathered_ = g->allgather(std::span<const unsigned char>(on(part, 0).first));
        };
    }
    if (op == names::op::scatter) {
        return [g, on, h, pu] {
            const auto [all, mine] = on(h * pu, h);
            g->scatter(std::span<const unsigned char>(all), mine, 0);
        };
    }
    if (op == names::op::alltoall) {
        return [g, on, h] {
            const auto [send, recv] = on(h, h);
            g->alltoall(std::span<const unsigned char>(send), recv);
        };
    }
    const int mate = partner(op, g_.rank(), p);
    const std::size_t half = h / 2;
    if (op == names::op::swap || op == names::op::swap_far) {
        return [g, on, half, mate] {
            const auto [out, in] = on(half, half);
            g->swap(mate, std::span<const unsigned char>(out), in);
        };
    }
    if (op == names::op::shift || op == names::op::shift_written) {  // the written message: prepare()'s
        return [g, on, half] {
            const auto [out, in] = on(half, half);
            g->shift(std::span<const unsigned char>(out), in);
        };
    }
    if (op == names::op::shift_overlap) {
        return [g, on, half] {
            const auto [out, in] = on(half, half);
            g->shift_start(std::span<const unsigned char>(out), in).wait();
        };
    }
    throw Error("llc-probe: no benchmark on own buffers for collective '" + std::string(op) + "'");
}

std::function<void()> CollectiveBench::call(std::string_view op, double bytes) {
    const std::size_t h = as_size(bytes);
    const bool cold = op == names::op::swap_cold || op == names::op::swap_cold_heap;
    if (uses_own_buffers(h) && op != names::op::barrier && !cold) {
        return call_on_own_buffers(op, h);  // the cold swaps have their rotation (tools::ColdRotation)
    }
    const int p = g_.size();
    const auto pu = static_cast<std::size_t>(p);
    Group* g = &g_;
    const std::span<unsigned char> send = bytes_.a().first(h);
    const std::span<double> dsend = doubles_.a().first(h / 8);
    const std::span<double> drecv = doubles_.b().first(h / 8);
    if (op == names::op::bcast) {
        return [g, send] { g->bcast(send, 0); };
    }
    for (const auto& [name, algorithm] : {std::pair{names::op::bcast_st, Bcast::binomial},
                                          std::pair{names::op::bcast_bst, Bcast::bidirectional},
                                          std::pair{names::op::bcast_rh, Bcast::recursive_halving}}) {
        if (op == name) {
            return [g, send, a = algorithm] { llc::bcast(*g, send, 0, a); };
        }
    }
    if (op == names::op::reduce) {
        return [g, dsend, drecv] { g->reduce(std::span<const double>(dsend), drecv, Op::sum, 0); };
    }
    if (op == names::op::allreduce) {
        return [g, dsend, drecv] { g->allreduce(std::span<const double>(dsend), drecv, Op::sum); };
    }
    if (op == names::op::gather) {
        return [this, g, send] { gathered_ = g->gather(std::span<const unsigned char>(send), 0); };
    }
    if (op == names::op::allgather) {
        const std::span<const unsigned char> part = bytes_.a().first(h / pu);
        return [this, g, part] { gathered_ = g->allgather(part); };
    }
    if (op == names::op::scatter) {
        const std::span<const unsigned char> all = bytes_.a().first(h * pu);
        const std::span<unsigned char> mine = bytes_.b().first(h);
        return [g, all, mine] { g->scatter(all, mine, 0); };
    }
    if (op == names::op::alltoall) {
        const std::span<unsigned char> recv = bytes_.b().first(h);
        return [g, send, recv] { g->alltoall(std::span<const unsigned char>(send), recv); };
    }
    if (op == names::op::barrier) {
        return [g] { g->barrier(); };
    }
    if (op == names::op::swap || op == names::op::swap_far) {
        const int mate = partner(op, g_.rank(), p);
        const std::span<const unsigned char> out = bytes_.a().first(h / 2);
        const std::span<unsigned char> in = bytes_.b().first(h / 2);
        return [g, mate, out, in] { g->swap(mate, out, in); };
    }
    if (cold) {
        // Each call swaps the next page-aligned slot of the process's cold rotation (tools::ColdRotation: huge pages,
        // the position shared by every size, as llc-validate's cold-swap cases run it), so its data has left the
        // caches since the slot's last call; swap.cold.heap sends from the rotation's slots on the allocator's pages.
        const int mate = partner(op, g_.rank(), p);
        const std::size_t half = h / 2;
#if !defined(LLC_SMPI)
        if (half <= tools::ColdRotation::capacity) {
            tools::ColdRotation* rotation = &tools::cold_rotation();
            const tools::ColdSlots slots = tools::cold_slots(half, tools::cold_rotation_bytes);
            const std::span<const unsigned char> sender =
                op == names::op::swap_cold_heap ? rotation->heap_send() : rotation->send();
            return [g, mate, rotation, sender, half, slots] {
                const std::size_t at = rotation->advance(slots);
                g->swap(mate, sender.subspan(at, half), rotation->receive().subspan(at, half));
            };
        }
#endif
        // Under SMPI (every simulated rank in one process, payloads shared: tools::Contents) and past the rotation:
        // slots of the shared byte buffers.
        const std::size_t room = std::min({bytes_.a().size(), bytes_.b().size(), tools::cold_rotation_bytes});
        const tools::ColdSlots slots = tools::cold_slots(half, room);
        const std::span<const unsigned char> all_out = bytes_.a();
        const std::span<unsigned char> all_in = bytes_.b();
        return [g, mate, all_out, all_in, half, slots, slot = std::size_t{0}]() mutable {
            const std::size_t at = slot * slots.stride;
            g->swap(mate, all_out.subspan(at, half), all_in.subspan(at, half));
            slot = slot + 1 == slots.count ? 0 : slot + 1;
        };
    }
    if (op == names::op::shift) {
        // One step of a ring pipeline: h/2 to the next processor, h/2 from the previous one.
        const std::span<const unsigned char> out = bytes_.a().first(h / 2);
        const std::span<unsigned char> in = bytes_.b().first(h / 2);
        return [g, out, in] { g->shift(out, in); };
    }
    if (op == names::op::shift_written) {
        // The shift itself; the message's writing is prepare()'s, before the canary and the barrier.
        const std::span<const unsigned char> out = bytes_.a().first(h / 2);
        const std::span<unsigned char> in = bytes_.b().first(h / 2);
        return [g, out, in] { g->shift(out, in); };
    }
    if (op == names::op::shift_overlap) {
        // The split-phase shift with nothing in between: posting and completing the messages.
        const std::span<const unsigned char> out = bytes_.a().first(h / 2);
        const std::span<unsigned char> in = bytes_.b().first(h / 2);
        return [g, out, in] { g->shift_start(out, in).wait(); };
    }
    throw Error("llc-probe: no benchmark for collective '" + std::string(op) + "'");
}

std::function<void()> CollectiveBench::prepare(std::string_view op, double bytes) {
    if (op != names::op::shift_written) {
        return {};
    }
    // A new value each call: every line of the message is stored to, as a pipeline's step writes what it sends.
    const std::size_t half = as_size(bytes) / 2;
    if (uses_own_buffers(as_size(bytes))) {  // the message call_on_own_buffers then sends: its (half, half) pair
        return [this, half, value = static_cast<unsigned char>(0)]() mutable {
            value = static_cast<unsigned char>(value + 1);
            std::memset(own_buffers(half, half).a().data(), value, half);
        };
    }
    const std::span<unsigned char> out = bytes_.a().first(half);
    return [out, value = static_cast<unsigned char>(0)]() mutable {
        value = static_cast<unsigned char>(value + 1);
        std::memset(out.data(), value, out.size());
    };
}

void CollectiveBench::run(std::string_view op, double bytes) {
    call(op, bytes)();
}

// ---- division -----------------------------------------------------------------------------------------------------

DivisionBench::DivisionBench(Group& g, double max_bytes) : g_(g), results_(2) {
    (void)max_bytes;
    // The first division of a shape splits the communicator (collective); every later one finds it in the cache,
    // which is what a steady-state division pays and what is measured.
    if (g.size() >= 2) {
        (void)g.subgroup(split_sizes(g.size(), two_equal));
    } else {
        (void)g.self();
    }
}

tools::Sample DivisionBench::time_split() {
    return tools::time_sample(g_.native(), 1, [&] {
        if (g_.size() >= 2) {
            Group& sub = g_.subgroup(split_sizes(g_.size(), two_equal));
            (void)sub;
        } else {
            (void)g_.self();
        }
    });
}

tools::Sample DivisionBench::time_par(std::size_t m) {
    for (auto& r : results_) {
        r.resize(m, 3);
    }
    using V = std::vector<unsigned char>;
    std::optional<std::tuple<V, V>> out;
    const tools::Sample t = tools::time_sample(g_.native(), 1, [&] {
        out.emplace(llc::par(
            g_, [&](Group&) { return std::move(results_[0]); }, [&](Group&) { return std::move(results_[1]); }));
    });
    results_[0] = std::move(std::get<0>(*out));
    results_[1] = std::move(std::get<1>(*out));
    return t;
}

double DivisionBench::exchange_bytes(std::size_t m) const {
    const int p = g_.size();
    if (p < 2) {
        return 0.0;
    }
    std::vector<double> moved(static_cast<std::size_t>(p), 0.0);
    for (const Transfer& t : exchange_plan(p, two_equal)) {
        moved[static_cast<std::size_t>(t.from)] += static_cast<double>(m);
        moved[static_cast<std::size_t>(t.to)] += static_cast<double>(m);
    }
    return *std::max_element(moved.begin(), moved.end());
}

// ---- point-to-point -----------------------------------------------------------------------------------------------

PointToPointBench::PointToPointBench(Group& pair, double max_bytes) : pair_(pair), self_(pair.size() == 1) {
    const std::size_t n = 2 * as_size(max_bytes) + 64;
    a_.assign(n, 4);
    b_.assign(n, 5);
}

PointToPointBench::~PointToPointBench() {
    for (auto& [key, type] : types_) {
        MPI_Type_free(&type);
    }
}

double PointToPointBench::payload(double bytes) {
    const long long b = std::max(1LL, std::llround(bytes));
    const long long blocks = std::clamp(b / 8, 1LL, 100LL);
    return static_cast<double>(blocks * (b / blocks));
}

MPI_Datatype PointToPointBench::type(bool contiguous, double bytes) {
    const long long b = std::llround(bytes);
    const auto key = std::make_pair(contiguous, b);
    if (const auto it = types_.find(key); it != types_.end()) {
        return it->second;
    }
    MPI_Datatype t = MPI_DATATYPE_NULL;
    if (contiguous || b == 0) {
        MPI_Type_contiguous(static_cast<int>(b), MPI_BYTE, &t);
    } else {
        const long long blocks = std::clamp(b / 8, 1LL, 100LL);
        const long long length = b / blocks;
        MPI_Type_vector(static_cast<int>(blocks), static_cast<int>(length), static_cast<int>(2 * length), MPI_BYTE, &t);
    }
    MPI_Type_commit(&t);
    types_.emplace(key, t);
    return t;
}

tools::Sample PointToPointBench::time_path(cost::Path path, cost::Layout layout, double bytes, int batch) {
    const bool send_contiguous = layout == cost::Layout::cc || layout == cost::Layout::cn;
    const bool recv_contiguous = layout == cost::Layout::cc || layout == cost::Layout::nc;
    MPI_Datatype st = type(send_contiguous, bytes);
    MPI_Datatype rt = type(recv_contiguous, bytes);
    MPI_Datatype empty = type(true, 0);
    const MPI_Comm comm = pair_.native();
    if (self_) {
        return tools::time_sample_on_rank(comm, 0, batch, [&] {
            MPI_Request r = MPI_REQUEST_NULL;
            MPI_Isend(a_.data(), 1, st, 0, p2p_tag, comm, &r);
            MPI_Recv(b_.data(), 1, rt, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
            MPI_Wait(&r, MPI_STATUS_IGNORE);
            if (path == cost::Path::full) {
                MPI_Isend(a_.data(), 1, empty, 0, p2p_tag, comm, &r);
                MPI_Recv(b_.data(), 1, empty, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            }
        });
    }
    const int rank = pair_.rank();
    switch (path) {
        case cost::Path::send:
            return tools::time_sample_on_rank(comm, 0, batch, [&] {
                if (rank == 0) {
                    MPI_Send(a_.data(), 1, st, 1, p2p_tag, comm);
                } else {
                    MPI_Recv(b_.data(), 1, rt, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
                }
            });
        case cost::Path::recv:
            return tools::time_sample_on_rank(comm, 0, batch, [&] {
                if (rank == 0) {
                    MPI_Recv(b_.data(), 1, rt, 1, p2p_tag, comm, MPI_STATUS_IGNORE);
                } else {
                    MPI_Send(a_.data(), 1, st, 0, p2p_tag, comm);
                }
            });
        case cost::Path::full:
            return tools::time_sample_on_rank(comm, 0, batch, [&] {
                if (rank == 0) {
                    MPI_Send(a_.data(), 1, st, 1, p2p_tag, comm);
                    MPI_Recv(b_.data(), 1, empty, 1, p2p_tag, comm, MPI_STATUS_IGNORE);
                } else {
                    MPI_Recv(b_.data(), 1, rt, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
                    MPI_Send(a_.data(), 1, empty, 0, p2p_tag, comm);
                }
            });
    }
    return {};
}

tools::Sample PointToPointBench::time_pingpong(double bytes) {
    const int n = static_cast<int>(std::llround(bytes));
    const MPI_Comm comm = pair_.native();
    if (self_) {
        return tools::time_sample_on_rank(comm, 0, 1, [&] {
            for (int i = 0; i < 2; ++i) {
                MPI_Request r = MPI_REQUEST_NULL;
                MPI_Isend(a_.data(), n, MPI_BYTE, 0, p2p_tag, comm, &r);
                MPI_Recv(b_.data(), n, MPI_BYTE, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
                MPI_Wait(&r, MPI_STATUS_IGNORE);
            }
        });
    }
    const int rank = pair_.rank();
    return tools::time_sample_on_rank(comm, 0, 1, [&] {
        if (rank == 0) {
            MPI_Send(a_.data(), n, MPI_BYTE, 1, p2p_tag, comm);
            MPI_Recv(b_.data(), n, MPI_BYTE, 1, p2p_tag, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(b_.data(), n, MPI_BYTE, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
            MPI_Send(a_.data(), n, MPI_BYTE, 0, p2p_tag, comm);
        }
    });
}

tools::Sample PointToPointBench::time_back_to_back(int k, double bytes) {
    const int n = static_cast<int>(std::llround(bytes));
    const MPI_Comm comm = pair_.native();
    const auto ku = static_cast<std::size_t>(k);
    std::vector<MPI_Request> requests(ku, MPI_REQUEST_NULL);
    if (self_) {
        return tools::time_sample_on_rank(comm, 0, 1, [&] {
            for (std::size_t i = 0; i < ku; ++i) {
                MPI_Isend(a_.data(), n, MPI_BYTE, 0, p2p_tag, comm, &requests[i]);
            }
            for (std::size_t i = 0; i < ku; ++i) {
                MPI_Recv(b_.data(), n, MPI_BYTE, 0, p2p_tag, comm, MPI_STATUS_IGNORE);
            }
            MPI_Waitall(k, requests.data(), MPI_STATUSES_IGNORE);
        });
    }
    const int rank = pair_.rank();
    if (rank == 1) {  // receives posted before the barrier: the sends never wait for a matching receive
        for (std::size_t i = 0; i < ku; ++i) {
            MPI_Irecv(b_.data() + i * static_cast<std::size_t>(n), n, MPI_BYTE, 0, p2p_tag, comm, &requests[i]);
        }
    }
    return tools::time_sample_on_rank(comm, 0, 1, [&] {
        if (rank == 0) {
            for (int i = 0; i < k; ++i) {
                MPI_Send(a_.data(), n, MPI_BYTE, 1, p2p_tag, comm);
            }
            MPI_Recv(b_.data(), 0, MPI_BYTE, 1, p2p_tag + 1, comm, MPI_STATUS_IGNORE);
        } else {
            MPI_Waitall(k, requests.data(), MPI_STATUSES_IGNORE);
            MPI_Send(a_.data(), 0, MPI_BYTE, 0, p2p_tag + 1, comm);
        }
    });
}

}  // namespace llc::probe
