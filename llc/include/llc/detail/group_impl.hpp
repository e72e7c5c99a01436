#pragma once
/// @file
/// The bodies of llc::Group's collective templates, declared and documented in <llc/group.hpp>, which includes this
/// file at its end. Including this file first also works: it includes <llc/group.hpp> for the declarations (#pragma
/// once keeps the cycle to one pass).

#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/detail/comm.hpp>
#include <llc/detail/mpi_type.hpp>
#include <llc/error.hpp>
#include <llc/group.hpp>
#include <llc/trace_record.hpp>

namespace llc {

template <class F>
void Group::superstep(const char* op, const std::uint64_t& bytes, F&& body) {
    auto& recorder = detail::Recorder::instance();
    if (!recorder.on()) {
        body();
        return;
    }
    const double start = take_check_start(recorder.now());
    const double previous = superstep_clock();
    const double begin = previous < start ? previous : start;
    body();
    const double end = recorder.now();
    recorder.normal(op, size_, bytes, begin, start - begin, end - start);
    set_superstep_clock(end);
}

template <Trivial T>
void Group::bcast(std::span<T> data, int root) {
    check_same("llc::Group::bcast",
               {{"data.size()", static_cast<long long>(data.size())}, {"root", root}},
               root_error("llc::Group::bcast", root));
    const int count = detail::to_count("llc::Group::bcast", "data.size()", data.size());
    superstep("bcast", data.size_bytes(), [&] {
        detail::check_mpi(MPI_Bcast(data.data(), count, detail::mpi_type<T>(), root, native()), "llc::Group::bcast");
    });
}

template <TrivialContainer C>
void Group::bcast(C& container, int root) {
    check_same("llc::Group::bcast", {{"root", root}}, root_error("llc::Group::bcast", root));
    using T = std::ranges::range_value_t<C>;
    unsigned long long n = std::ranges::size(container);
    std::uint64_t bytes = 0;
    superstep("bcast", bytes, [&] {
        detail::check_mpi(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, native()), "llc::Group::bcast");
        container.resize(static_cast<std::size_t>(n));
        bytes = n * sizeof(T);
        const int count = detail::to_count("llc::Group::bcast", "container.size()", static_cast<std::size_t>(n));
        detail::check_mpi(MPI_Bcast(std::ranges::data(container), count, detail::mpi_type<T>(), root, native()),
                          "llc::Group::bcast");
    });
}

template <class T>
requires(!Trivial<T> && !TrivialContainer<T>) void Group::bcast(T& value, int root) {
    check_same("llc::Group::bcast", {{"root", root}}, root_error("llc::Group::bcast", root));
    // The root's value as the bytes of a binary archive: their count, then the bytes, then every other rank reads it.
    superstep("bcast", 0, [&] {
        std::string bytes = rank_ == root ? detail::serialize(value) : std::string();
        unsigned long long n = bytes.size();
        detail::check_mpi(MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, native()), "llc::Group::bcast");
        bytes.resize(static_cast<std::size_t>(n));
        const int count = detail::to_count("llc::Group::bcast", "serialised value", bytes.size());
        detail::check_mpi(MPI_Bcast(bytes.data(), count, MPI_BYTE, root, native()), "llc::Group::bcast");
        if (rank_ != root) {
            detail::deserialize(bytes, value);
        }
    });
}

template <Reducible T>
void Group::reduce(std::span<const T> in, std::span<T> out, Op op, int root) {
    std::string error = root_error("llc::Group::reduce", root);
    if (error.empty() && rank_ == root && out.size() != in.size()) {
        error = argument_message("llc::Group::reduce",
                                 "out.size()",
                                 std::to_string(out.size()),
                                 "must equal in.size() = " + std::to_string(in.size()) + " on the root");
    }
    check_same("llc::Group::reduce",
               {{"in.size()", static_cast<long long>(in.size())}, {"root", root}, {"op", static_cast<long long>(op)}},
               error);
    const int count = detail::to_count("llc::Group::reduce", "in.size()", in.size());
    superstep("reduce", in.size_bytes(), [&] {
        const void* send = in.data();
        if (rank_ == root && static_cast<const void*>(out.data()) == send) {
            send = MPI_IN_PLACE;
        }
        detail::check_mpi(MPI_Reduce(send,
                                     rank_ == root ? out.data() : nullptr,
                                     count,
                                     detail::mpi_type<T>(),
                                     detail::mpi_op(op),
                                     root,
                                     native()),
                          "llc::Group::reduce");
    });
}

template <Reducible T>
void Group::allreduce(std::span<const T> in, std::span<T> out, Op op) {
    check_same("llc::Group::allreduce",
               {{"in.size()", static_cast<long long>(in.size())}, {"op", static_cast<long long>(op)}},
               out.size() == in.size() ? std::string()
                                       : argument_message("llc::Group::allreduce",
                                                          "out.size()",
                                                          std::to_string(out.size()),
                                                          "must equal in.size() = " + std::to_string(in.size())));
    const int count = detail::to_count("llc::Group::allreduce", "in.size()", in.size());
    superstep("allreduce", in.size_bytes(), [&] {
        const void* send =
            static_cast<const void*>(in.data()) == static_cast<const void*>(out.data()) ? MPI_IN_PLACE : in.data();
        detail::check_mpi(MPI_Allreduce(send, out.data(), count, detail::mpi_type<T>(), detail::mpi_op(op), native()),
                          "llc::Group::allreduce");
    });
}

template <Reducible T>
T Group::allreduce(T value, Op op) {
    // The same agreement as the span overload (one small allreduce, which llc-probe's "allreduce" includes): ranks
    // that reduce with different operations would each get a different, wrong result.
    check_same("llc::Group::allreduce", {{"in.size()", 1}, {"op", static_cast<long long>(op)}});
    T result{};
    superstep("allreduce", sizeof(T), [&] {
        detail::check_mpi(MPI_Allreduce(&value, &result, 1, detail::mpi_type<T>(), detail::mpi_op(op), native()),
                          "llc::Group::allreduce");
    });
    return result;
}

template <Trivial T>
std::vector<T> Group::gather(std::span<const T> send, int root) {
    check_same("llc::Group::gather",
               {{"send.size()", static_cast<long long>(send.size())}, {"root", root}},
               root_error("llc::Group::gather", root));
    const int count = detail::to_count("llc::Group::gather", "send.size()", send.size());
    std::vector<T> result(rank_ == root ? send.size() * static_cast<std::size_t>(size_) : 0);
    superstep("gather", send.size_bytes(), [&] {
        detail::check_mpi(
            MPI_Gather(
                send.data(), count, detail::mpi_type<T>(), result.data(), count, detail::mpi_type<T>(), root, native()),
            "llc::Group::gather");
    });
    return result;
}

template <Trivial T>
std::vector<T> Group::gatherv(std::span<const T> send, int root, std::vector<int>* counts) {
    check_same("llc::Group::gatherv", {{"root", root}}, root_error("llc::Group::gatherv", root));
    const int count = detail::to_count("llc::Group::gatherv", "send.size()", send.size());
    std::vector<int> sizes(rank_ == root ? static_cast<std::size_t>(size_) : 0);
    std::vector<T> result;
    superstep("gatherv", send.size_bytes(), [&] {
        detail::check_mpi(MPI_Gather(&count, 1, MPI_INT, sizes.data(), 1, MPI_INT, root, native()),
                          "llc::Group::gatherv");
        std::vector<int> displs;
        if (rank_ == root) {
            displs = detail::displacements("llc::Group::gatherv", sizes);
            result.resize(static_cast<std::size_t>(displs.back()));
        }
        detail::check_mpi(MPI_Gatherv(send.data(),
                                      count,
                                      detail::mpi_type<T>(),
                                      result.data(),
                                      sizes.data(),
                                      displs.data(),
                                      detail::mpi_type<T>(),
                                      root,
                                      native()),
                          "llc::Group::gatherv");
    });
    if (counts != nullptr) {
        *counts = std::move(sizes);
    }
    return result;
}

template <Trivial T>
std::vector<T> Group::allgather(std::span<const T> send) {
    check_same("llc::Group::allgather", {{"send.size()", static_cast<long long>(send.size())}});
    const int count = detail::to_count("llc::Group::allgather", "send.size()", send.size());
    std::vector<T> result(send.size() * static_cast<std::size_t>(size_));
    superstep("allgather", send.size_bytes() * static_cast<std::uint64_t>(size_), [&] {
        detail::check_mpi(
            MPI_Allgather(
                send.data(), count, detail::mpi_type<T>(), result.data(), count, detail::mpi_type<T>(), native()),
            "llc::Group::allgather");
    });
    return result;
}

template <Trivial T>
std::vector<T> Group::allgatherv(std::span<const T> send, std::vector<int>* counts) {
    const int count = detail::to_count("llc::Group::allgatherv", "send.size()", send.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_));
    std::vector<T> result;
    std::uint64_t bytes = 0;
    superstep("allgatherv", bytes, [&] {
        detail::check_mpi(MPI_Allgather(&count, 1, MPI_INT, sizes.data(), 1, MPI_INT, native()),
                          "llc::Group::allgatherv");
        const std::vector<int> displs = detail::displacements("llc::Group::allgatherv", sizes);
        result.resize(static_cast<std::size_t>(displs.back()));
        bytes = result.size() * sizeof(T);
        detail::check_mpi(MPI_Allgatherv(send.data(),
                                         count,
                                         detail::mpi_type<T>(),
                                         result.data(),
                                         sizes.data(),
                                         displs.data(),
                                         detail::mpi_type<T>(),
                                         native()),
                          "llc::Group::allgatherv");
    });
    if (counts != nullptr) {
        *counts = std::move(sizes);
    }
    return result;
}

template <Trivial T>
void Group::scatter(std::span<const T> send, std::span<T> recv, int root) {
    std::string error = root_error("llc::Group::scatter", root);
    if (error.empty() && rank_ == root && send.size() != recv.size() * static_cast<std::size_t>(size_)) {
        error = argument_message("llc::Group::scatter",
                                 "send.size()",
                                 std::to_string(send.size()),
                                 "must be size() * recv.size() = " +
                                     std::to_string(recv.size() * static_cast<std::size_t>(size_)) + " on the root");
    }
    check_same("llc::Group::scatter", {{"recv.size()", static_cast<long long>(recv.size())}, {"root", root}}, error);
    const int count = detail::to_count("llc::Group::scatter", "recv.size()", recv.size());
    superstep("scatter", recv.size_bytes(), [&] {
        detail::check_mpi(
            MPI_Scatter(
                send.data(), count, detail::mpi_type<T>(), recv.data(), count, detail::mpi_type<T>(), root, native()),
            "llc::Group::scatter");
    });
}

template <Trivial T>
std::vector<T> Group::scatterv(std::span<const T> send, std::span<const int> counts, int root) {
    std::vector<int> displs;
    std::string error = root_error("llc::Group::scatterv", root);
    if (error.empty() && rank_ == root) {
        if (counts.size() != static_cast<std::size_t>(size_)) {
            error = argument_message("llc::Group::scatterv",
                                     "counts.size()",
                                     std::to_string(counts.size()),
                                     "must equal the group size " + std::to_string(size_) + " on the root");
        } else {
            try {
                displs = detail::displacements("llc::Group::scatterv", counts);
                if (static_cast<std::size_t>(displs.back()) != send.size()) {
                    error = argument_message("llc::Group::scatterv",
                                             "send.size()",
                                             std::to_string(send.size()),
                                             "must equal sum(counts) = " + std::to_string(displs.back()));
                }
            } catch (const Error& e) {
                error = e.what();
            }
        }
    }
    check_same("llc::Group::scatterv", {{"root", root}}, error);
    int mine = 0;
    std::vector<T> result;
    std::uint64_t bytes = 0;
    superstep("scatterv", bytes, [&] {
        detail::check_mpi(MPI_Scatter(counts.data(), 1, MPI_INT, &mine, 1, MPI_INT, root, native()),
                          "llc::Group::scatterv");
        result.resize(static_cast<std::size_t>(mine));
        bytes = static_cast<std::uint64_t>(mine) * sizeof(T);
        detail::check_mpi(MPI_Scatterv(send.data(),
                                       counts.data(),
                                       displs.data(),
                                       detail::mpi_type<T>(),
                                       result.data(),
                                       mine,
                                       detail::mpi_type<T>(),
                                       root,
                                       native()),
                          "llc::Group::scatterv");
    });
    return result;
}

template <Trivial T>
void Group::alltoall(std::span<const T> send, std::span<T> recv) {
    check_same("llc::Group::alltoall",
               {{"send.size()", static_cast<long long>(send.size())}},
               send.size() == recv.size() && send.size() % static_cast<std::size_t>(size_) == 0
                   ? std::string()
                   : argument_message("llc::Group::alltoall",
                                      "send.size()",
                                      std::to_string(send.size()),
                                      "must equal recv.size() = " + std::to_string(recv.size()) +
                                          " and be divisible by the group size " + std::to_string(size_)));
    const int block = detail::to_count("llc::Group::alltoall", "send.size()", send.size() / size_);
    superstep("alltoall", send.size_bytes(), [&] {
        detail::check_mpi(
            MPI_Alltoall(
                send.data(), block, detail::mpi_type<T>(), recv.data(), block, detail::mpi_type<T>(), native()),
            "llc::Group::alltoall");
    });
}

template <Trivial T>
std::vector<T> Group::alltoallv(std::span<const T> send,
                                std::span<const int> send_counts,
                                std::vector<int>* recv_counts) {
    std::vector<int> send_displs;
    std::string error;
    if (send_counts.size() != static_cast<std::size_t>(size_)) {
        error = argument_message("llc::Group::alltoallv",
                                 "send_counts.size()",
                                 std::to_string(send_counts.size()),
                                 "must equal the group size " + std::to_string(size_));
    } else {
        try {
            send_displs = detail::displacements("llc::Group::alltoallv", send_counts);
            if (static_cast<std::size_t>(send_displs.back()) != send.size()) {
                error = argument_message("llc::Group::alltoallv",
                                         "send.size()",
                                         std::to_string(send.size()),
                                         "must equal sum(send_counts) = " + std::to_string(send_displs.back()));
            }
        } catch (const Error& e) {
            error = e.what();
        }
    }
    check_same("llc::Group::alltoallv", {}, error);
    std::vector<int> sizes(static_cast<std::size_t>(size_));
    std::vector<T> result;
    superstep("alltoallv", send.size_bytes(), [&] {
        detail::check_mpi(MPI_Alltoall(send_counts.data(), 1, MPI_INT, sizes.data(), 1, MPI_INT, native()),
                          "llc::Group::alltoallv");
        const std::vector<int> recv_displs = detail::displacements("llc::Group::alltoallv", sizes);
        result.resize(static_cast<std::size_t>(recv_displs.back()));
        detail::check_mpi(MPI_Alltoallv(send.data(),
                                        send_counts.data(),
                                        send_displs.data(),
                                        detail::mpi_type<T>(),
                                        result.data(),
                                        sizes.data(),
                                        recv_displs.data(),
                                        detail::mpi_type<T>(),
                                        native()),
                          "llc::Group::alltoallv");
    });
    if (recv_counts != nullptr) {
        *recv_counts = std::move(sizes);
    }
    return result;
}

template <Trivial T>
void Group::swap(int partner, std::span<const T> send, std::span<T> recv) {
    detail::swap_agree(*this, partner, send.size(), recv.size());
    superstep("swap", send.size_bytes() + recv.size_bytes(), [&] {
        detail::swap_elements(
            *this, partner, send.data(), send.size(), recv.data(), recv.size(), detail::mpi_type<T>());
    });
}

template <Trivial T>
void Group::shift(std::span<const T> send, std::span<T> recv, int offset) {
    superstep("shift", send.size_bytes() + recv.size_bytes(), [&] {
        detail::shift_elements(
            *this, offset, send.data(), send.size(), recv.data(), recv.size(), detail::mpi_type<T>());
    });
}

template <Trivial T>
ShiftInFlight Group::shift_start(std::span<const T> send, std::span<T> recv, int offset) {
    ShiftInFlight flight(*this, send.size_bytes() + recv.size_bytes());
    auto& recorder = detail::Recorder::instance();
    flight.traced_ = recorder.on();
    if (flight.traced_) {
        flight.start_ = recorder.now();
        const double previous = superstep_clock();
        flight.begin_ = previous < flight.start_ ? previous : flight.start_;
    }
    detail::shift_start_elements(
        *this, flight.requests_, offset, send.data(), send.size(), recv.data(), recv.size(), detail::mpi_type<T>());
    if (flight.traced_) {
        flight.posted_ = recorder.now();
    }
    return flight;
}

template <ContiguousRange R, WritableRange Out>
requires detail::RangePair<R, Out> && Trivial<std::ranges::range_value_t<R>> ShiftInFlight
Group::shift_start(const R& send, Out&& recv, int offset) {
    return shift_start(detail::input_span(send), detail::output_span(recv), offset);
}

}  // namespace llc
