#pragma once
/// @file
/// Division supersteps: llc::par and llc::weighted_par (La Laguna C's PAR and WEIGHTEDPAR; CCM paper §2.1).
///
/// Stages, as in the CCM: processor assignment (llc::split_sizes, or llc::assign_tasks when P < r), task execution in
/// the subgroup, result exchange between partners (llc::partners), rejoin. Afterwards every processor of the group
/// holds every task's result ("common-common"). Results are returned by value:
/// - a trivially copyable value, or a contiguous resizable container of trivially copyable values (std::vector,
///   std::string, …): the fast path, one MPI message per partner, no serialisation;
/// - any other Boost-serialisable type (include the Boost.Serialization header for its members): serialised into a
///   binary archive, sent as one message of bytes.
/// An exception that escapes a task, when the group has more than one processor, ends the job through
/// llc::abort_job with the rank, the subgroup's path and the message: the other processors could not know, and would
/// wait forever for the result. With a single processor the exception propagates.

#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <optional>
#include <ranges>
#include <span>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/detail/comm.hpp>
#include <llc/group.hpp>
#include <llc/partners.hpp>
#include <llc/trace.hpp>

namespace llc {

namespace detail {

constexpr int result_tag = 7400;

/// The pending sends of a result exchange.
struct PendingSends {
    std::vector<MPI_Request> raw;
    /// The archives of serialised results, kept until their sends complete (a deque: its elements never move).
    std::deque<std::string> serialised;
    std::uint64_t bytes = 0;
    void wait_all();
};

template <class R>
void post_send(MPI_Comm comm, const R& value, int dest, PendingSends& pending) {
    MPI_Request request = MPI_REQUEST_NULL;
    if constexpr (Trivial<R>) {
        check_mpi(MPI_Isend(&value, 1, mpi_type<R>(), dest, result_tag, comm, &request), "llc::par (result exchange)");
        pending.raw.push_back(request);
        pending.bytes += sizeof(R);
    } else if constexpr (TrivialContainer<R>) {
        using T = std::ranges::range_value_t<R>;
        const int count = to_count("llc::par", "result size", std::ranges::size(value));
        check_mpi(MPI_Isend(std::ranges::data(value), count, mpi_type<T>(), dest, result_tag, comm, &request),
                  "llc::par (result exchange)");
        pending.raw.push_back(request);
        pending.bytes += static_cast<std::uint64_t>(count) * sizeof(T);
    } else {
        // One message of the archive's bytes; like Boost.MPI's serialised send before, not counted in h.
        const std::string& archive = pending.serialised.emplace_back(serialize(value));
        const int count = to_count("llc::par", "serialised result size", archive.size());
        check_mpi(MPI_Isend(archive.data(), count, MPI_BYTE, dest, result_tag, comm, &request),
                  "llc::par (result exchange)");
        pending.raw.push_back(request);
    }
}

template <class R>
R receive(MPI_Comm comm, int source, std::uint64_t& bytes) {
    if constexpr (Trivial<R>) {
        R value;
        check_mpi(MPI_Recv(&value, 1, mpi_type<R>(), source, result_tag, comm, MPI_STATUS_IGNORE),
                  "llc::par (result exchange)");
        bytes += sizeof(R);
        return value;
    } else if constexpr (TrivialContainer<R>) {
        using T = std::ranges::range_value_t<R>;
        // The sender alone knows the result's length: probe the message, size the container, receive it.
        R value;
        std::size_t count = 0;
        probe_receive(comm, source, result_tag, mpi_type<T>(), "llc::par (result exchange)", [&](std::size_t n) {
            count = n;
            value.resize(n);
            return static_cast<void*>(std::ranges::data(value));
        });
        bytes += static_cast<std::uint64_t>(count) * sizeof(T);
        return value;
    } else {
        std::string archive;
        probe_receive(comm, source, result_tag, MPI_BYTE, "llc::par (result exchange)", [&](std::size_t n) {
            archive.resize(n);
            return static_cast<void*>(archive.data());
        });
        R value;
        deserialize(archive, value);
        return value;
    }
}

/// Agreement on the weights (count and bit pattern) across the group: one allreduce, skipped with checks off.
void check_weights_agree(Group& g, const char* function, std::span<const double> weights);

/// The skeleton shared by par and weighted_par. `run(sub, t)` runs task t in subgroup `sub` and stores its result;
/// `send(t, dest, pending)` posts task t's stored result to `dest`; `recv(t, source, bytes)` receives and stores it.
template <class Run, class Send, class Recv>
void run_division(Group& g, const char* op, std::span<const double> weights, Run&& run, Send&& send, Recv&& recv) {
    auto& recorder = Recorder::instance();
    const bool tracing = recorder.on();
    const double begin = tracing ? g.take_check_start(recorder.now()) : 0.0;
    const int P = g.size();
    const int r = static_cast<int>(weights.size());

    // 1. Processor assignment.
    std::vector<int> my_tasks;
    std::vector<int> sizes;
    std::vector<int> owners;
    Group* sub = nullptr;
    if (P >= r) {
        sizes = split_sizes(P, weights);
        sub = &g.subgroup(sizes);
        int start = 0;
        for (int t = 0; t < r; ++t) {
            if (g.rank() >= start && g.rank() < start + sizes[static_cast<std::size_t>(t)]) {
                my_tasks.push_back(t);
            }
            start += sizes[static_cast<std::size_t>(t)];
        }
    } else {
        sizes.assign(weights.size(), 1);
        owners = assign_tasks(P, weights);
        for (int t = 0; t < r; ++t) {
            if (owners[static_cast<std::size_t>(t)] == g.rank()) {
                my_tasks.push_back(t);
            }
        }
        sub = &g.self();
    }
    if (tracing) {
        // The local work since the group's previous superstep (e.g. the divide step) is this superstep's W.
        const double previous = std::min(begin, g.superstep_clock());
        recorder.begin_division(op, P, sizes, previous, begin - previous);
    }
    const double assigned = tracing ? recorder.now() : 0.0;

    // 2. Task execution.
    for (const int t : my_tasks) {
        const double task_start = tracing ? recorder.now() : 0.0;
        if (tracing) {
            recorder.begin_task(t, sub->size(), task_start);
        }
        sub->restart_superstep_clock();
        try {
            run(*sub, t);
        } catch (const std::exception& e) {
            if (P > 1) {
                abort_job(sub->path(),
                          std::string(op) + ": exception escaped task " + std::to_string(t) + ": " + e.what());
            }
            if (tracing) {
                recorder.end_task(recorder.now() - task_start);
                recorder.end_division(assigned - begin, recorder.now() - assigned, 0.0, 0.0, 0);
            }
            throw;
        } catch (...) {
            if (P > 1) {
                abort_job(sub->path(), std::string(op) + ": exception escaped task " + std::to_string(t));
            }
            throw;
        }
        if (tracing) {
            // The task's local work after its last collective (all of it, for a leaf) is a compute node.
            recorder.trailing_compute(sub->size(), std::max(task_start, sub->superstep_clock()));
            recorder.end_task(recorder.now() - task_start);
        }
    }

    // 3. Result exchange between partners.
    const double exchange_start = tracing ? recorder.now() : 0.0;
    std::uint64_t bytes = 0;
    if (P > 1) {
        const ExchangeRole role = P >= r ? exchange_role(sizes, g.rank()) : exchange_role_owned(P, owners, g.rank());
        PendingSends pending;
        for (const Transfer& transfer : role.sends) {
            send(transfer.task, transfer.to, pending);
        }
        for (const Transfer& transfer : role.receives) {
            recv(transfer.task, transfer.from, bytes);
        }
        pending.wait_all();
        bytes += pending.bytes;
    }

    // 4. Rejoin: the group's next superstep starts now.
    if (tracing) {
        const double exchanged = recorder.now();
        g.set_superstep_clock(exchanged);
        recorder.end_division(assigned - begin, exchange_start - assigned, exchanged - exchange_start, 0.0, bytes);
    }
}

template <std::size_t N, class F>
void with_index(std::size_t i, F&& f) {
    [&]<std::size_t... I>(std::index_sequence<I...>) {
        ((i == I ? (f(std::integral_constant<std::size_t, I>{}), true) : false) || ...);
    }
    (std::make_index_sequence<N>{});
}

}  // namespace detail

/// WEIGHTEDPAR: r = weights.size() tasks, task(sub, t) for t = 0 … r-1, on subgroups whose sizes are proportional to
/// the weights (llc::split_sizes; when P < r a processor runs several tasks in turn, llc::assign_tasks). Returns every
/// task's result, in task order, on every processor of `g`.
///
/// Collective over `g`. Every processor must pass the same weights (checked: llc::Error on every rank otherwise).
/// Cost (CCM): T_g(P, sizes, h) + max_t Φ(task t), where h is the bytes of the result exchange.
/// @throws llc::Error for no weights, a negative or non-finite weight, all-zero weights, or weights that differ
/// across ranks.
template <class F>
requires std::invocable<F&, Group&, int>
auto weighted_par(Group& g, std::span<const double> weights, F&& task) {
    using R = std::remove_cvref_t<std::invoke_result_t<F&, Group&, int>>;
    static_assert(!std::is_void_v<R>, "llc::weighted_par: a task must return its result (common-common division)");
    detail::check_weights_agree(g, "llc::weighted_par", weights);
    std::vector<std::optional<R>> results(weights.size());
    detail::run_division(
        g,
        "weighted_par",
        weights,
        [&](Group& sub, int t) { results[static_cast<std::size_t>(t)].emplace(std::invoke(task, sub, t)); },
        [&](int t, int dest, detail::PendingSends& pending) {
            detail::post_send(g.native(), *results[static_cast<std::size_t>(t)], dest, pending);
        },
        [&](int t, int source, std::uint64_t& bytes) {
            results[static_cast<std::size_t>(t)].emplace(detail::receive<R>(g.native(), source, bytes));
        });
    std::vector<R> values;
    values.reserve(results.size());
    for (auto& result : results) {
        values.push_back(std::move(*result));
    }
    return values;
}

template <class F>
requires std::invocable<F&, Group&, int>
auto weighted_par(Group& g, std::initializer_list<double> weights, F&& task) {
    return weighted_par(g, std::span<const double>(weights.begin(), weights.size()), std::forward<F>(task));
}

/// PAR: the tasks run in parallel on (nearly) equal subgroups of `g` (sizes differ by at most one, the larger
/// first); when P < number of tasks a processor runs several in turn. Returns a tuple of the results, every
/// processor holding all of them:
/// @code
///   auto [even, odd] = llc::par(g, [&](llc::Group& s) { return fft(s, a_even); },
///                                  [&](llc::Group& s) { return fft(s, a_odd); });
/// @endcode
/// Collective over `g`. Cost (CCM): T_PAR(P, h) + max_t Φ(task t).
template <class... F>
requires(sizeof...(F) > 0 && (std::invocable<F&, Group&> && ...)) auto par(Group& g, F&&... tasks) {
    using Results = std::tuple<std::remove_cvref_t<std::invoke_result_t<F&, Group&>>...>;
    static_assert((!std::is_void_v<std::invoke_result_t<F&, Group&>> && ...),
                  "llc::par: every task must return its result (common-common division)");
    constexpr std::size_t r = sizeof...(F);
    std::array<double, r> weights;
    weights.fill(1.0);
    std::tuple<std::optional<std::remove_cvref_t<std::invoke_result_t<F&, Group&>>>...> results;
    auto functions = std::forward_as_tuple(tasks...);
    detail::run_division(
        g,
        "par",
        weights,
        [&](Group& sub, int t) {
            detail::with_index<r>(static_cast<std::size_t>(t), [&](auto I) {
                std::get<I>(results).emplace(std::invoke(std::get<I>(functions), sub));
            });
        },
        [&](int t, int dest, detail::PendingSends& pending) {
            detail::with_index<r>(static_cast<std::size_t>(t),
                                  [&](auto I) { detail::post_send(g.native(), *std::get<I>(results), dest, pending); });
        },
        [&](int t, int source, std::uint64_t& bytes) {
            detail::with_index<r>(static_cast<std::size_t>(t), [&](auto I) {
                using R = std::tuple_element_t<I, Results>;
                std::get<I>(results).emplace(detail::receive<R>(g.native(), source, bytes));
            });
        });
    return std::apply([](auto&... result) { return Results(std::move(*result)...); }, results);
}

}  // namespace llc
