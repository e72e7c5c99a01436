// Seidel's broadcasts executed over point-to-point MPI: each rank's part of the schedule (bcast_schedule.cpp), run
// round by round with non-blocking sends and receives.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include <mpi.h>

#include <llc/broadcast.hpp>
#include <llc/error.hpp>
#include <llc/trace_record.hpp>

namespace llc {
namespace detail {
namespace {

/// One processor's part of a round: messages to and from peers, each a list of contiguous packet runs in schedule
/// order (both ends walk the schedule in the same order, so their lists agree).
struct Message {
    int peer = 0;
    std::vector<std::pair<int, int>> runs;  // (first packet, count)
};
struct RankRound {
    std::vector<Message> sends;
    std::vector<Message> recvs;
};
struct Plan {
    int packets = 1;
    std::vector<RankRound> rounds;
};

void add_runs(std::vector<Message>& messages, int peer, const BcastSend& send) {
    auto it = std::find_if(messages.begin(), messages.end(), [&](const Message& m) { return m.peer == peer; });
    if (it == messages.end()) {
        messages.push_back({peer, {}});
        it = messages.end() - 1;
    }
    if (send.stride == 1 || send.count == 1) {
        it->runs.emplace_back(send.first, send.count);
        return;
    }
    for (int i = 0; i < send.count; ++i) {
        it->runs.emplace_back(send.first + i * send.stride, 1);
    }
}

std::shared_ptr<const Plan> plan_for(Bcast algorithm, int P, int root, int me) {
    static std::mutex mutex;
    static std::map<std::tuple<int, int, int, int>, std::shared_ptr<const Plan>> cache;
    const auto key = std::make_tuple(static_cast<int>(algorithm), P, root, me);
    {
        const std::lock_guard<std::mutex> lock(mutex);
        const auto it = cache.find(key);
        if (it != cache.end()) {
            return it->second;
        }
    }
    const BcastSchedule schedule = bcast_schedule(algorithm, P, root);
    auto plan = std::make_shared<Plan>();
    plan->packets = schedule.packets;
    for (const auto& round : schedule.rounds) {
        RankRound mine;
        for (const BcastSend& send : round) {
            if (send.from == me) {
                add_runs(mine.sends, send.to, send);
            }
            if (send.to == me) {
                add_runs(mine.recvs, send.from, send);
            }
        }
        plan->rounds.push_back(std::move(mine));
    }
    const std::lock_guard<std::mutex> lock(mutex);
    if (cache.size() >= 256) {
        cache.clear();
    }
    cache.emplace(key, plan);
    return plan;
}

/// Byte segments (offset, length) of a message's packet runs, adjacent ones merged; empty segments left out.
std::vector<std::pair<std::size_t, std::size_t>> segments(const Message& message,
                                                          std::size_t n,
                                                          std::size_t elem_size,
                                                          int packets) {
    std::vector<std::pair<std::size_t, std::size_t>> result;
    for (const auto& [first, count] : message.runs) {
        const std::size_t begin = packet_bounds(n, packets, first).first * elem_size;
        const std::size_t end = packet_bounds(n, packets, first + count - 1).second * elem_size;
        if (end == begin) {
            continue;
        }
        if (!result.empty() && result.back().first + result.back().second == begin) {
            result.back().second += end - begin;
        } else {
            result.emplace_back(begin, end - begin);
        }
    }
    return result;
}

std::size_t total(const std::vector<std::pair<std::size_t, std::size_t>>& parts) {
    std::size_t sum = 0;
    for (const auto& part : parts) {
        sum += part.second;
    }
    return sum;
}

void run_plan(const Plan& plan, std::byte* data, std::size_t n, std::size_t elem_size, MPI_Comm comm) {
    constexpr int tag_base = 7400;
    const char* function = "llc::bcast";
    for (std::size_t r = 0; r < plan.rounds.size(); ++r) {
        const RankRound& round = plan.rounds[r];
        const int tag = tag_base + static_cast<int>(r % 1000);
        std::vector<MPI_Request> requests;
        std::vector<std::vector<std::byte>> staging;
        staging.reserve(round.sends.size() + round.recvs.size());
        // Receives that need unpacking: (staging index, segments).
        std::vector<std::pair<std::size_t, std::vector<std::pair<std::size_t, std::size_t>>>> unpack;
        for (const Message& message : round.recvs) {
            auto parts = segments(message, n, elem_size, plan.packets);
            const std::size_t bytes = total(parts);
            if (bytes == 0) {
                continue;
            }
            const int count = to_count(function, "message bytes", bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (parts.size() == 1) {
                check_mpi(MPI_Irecv(data + parts[0].first, count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            } else {
                staging.emplace_back(bytes);
                check_mpi(MPI_Irecv(staging.back().data(), count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
                unpack.emplace_back(staging.size() - 1, std::move(parts));
            }
            requests.push_back(request);
        }
        for (const Message& message : round.sends) {
            const auto parts = segments(message, n, elem_size, plan.packets);
            const std::size_t bytes = total(parts);
            if (bytes == 0) {
                continue;
            }
            const int count = to_count(function, "message bytes", bytes);
            MPI_Request request = MPI_REQUEST_NULL;
            if (parts.size() == 1) {
                check_mpi(MPI_Isend(data + parts[0].first, count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            } else {
                staging.emplace_back(bytes);
                std::byte* out = staging.back().data();
                for (const auto& [offset, length] : parts) {  // the permutation cost mρ of the paper
                    std::memcpy(out, data + offset, length);
                    out += length;
                }
                check_mpi(MPI_Isend(staging.back().data(), count, MPI_BYTE, message.peer, tag, comm, &request),
                          function);
            }
            requests.push_back(request);
        }
        if (!requests.empty()) {
            check_mpi(MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE), function);
        }
        for (const auto& [index, parts] : unpack) {
            const std::byte* in = staging[index].data();
            for (const auto& [offset, length] : parts) {
                std::memcpy(data + offset, in, length);
                in += length;
            }
        }
    }
}

bool known(Bcast algorithm) {
    switch (algorithm) {
        case Bcast::mpi:
        case Bcast::binomial:
        case Bcast::bidirectional:
        case Bcast::recursive_halving:
        case Bcast::automatic:
            return true;
    }
    return false;
}

}  // namespace

void bcast_elements(
    Group& g, void* data, std::size_t n, std::size_t elem_size, MPI_Datatype type, int root, Bcast algorithm) {
    const char* function = "llc::bcast";
    const std::size_t bytes = n * elem_size;
    // Agreement first (one allreduce, or nothing when checks are off), so that a bad argument on some ranks only is
    // an error on all of them, never a hang; then the checks every rank now makes the same way.
    Bcast resolved = algorithm;
    if (algorithm == Bcast::automatic) {
        resolved = choose_bcast(g.size(), bytes);
    }
    g.check_same(function,
                 {{"data.size()", static_cast<long long>(n)},
                  {"root", root},
                  {"algorithm", static_cast<long long>(algorithm)},
                  {"algorithm chosen by the installed chooser", static_cast<long long>(resolved)}});
    g.check_root(function, root);
    if (!known(algorithm)) {
        throw_argument_error(
            function, "algorithm", std::to_string(static_cast<int>(algorithm)), "is not a value of llc::Bcast");
    }
    if (resolved == Bcast::automatic || !known(resolved)) {
        throw_argument_error(function,
                             "algorithm",
                             "automatic",
                             "the installed chooser returned " + std::to_string(static_cast<int>(resolved)) +
                                 ", not one of mpi, binomial, bidirectional, recursive_halving");
    }
    const int count = to_count(function, "data.size()", n);
    if (resolved != Bcast::mpi) {
        (void)to_count(function, "data.size_bytes()", bytes);
    }
    const auto body = [&] {
        if (resolved == Bcast::mpi) {
            check_mpi(MPI_Bcast(data, count, type, root, g.native()), function);
        } else if (g.size() > 1) {
            const auto plan = plan_for(resolved, g.size(), root, g.rank());
            run_plan(*plan, static_cast<std::byte*>(data), n, elem_size, g.native());
        }
    };
    auto& recorder = Recorder::instance();
    if (!recorder.on()) {
        body();
        return;
    }
    // The same bookkeeping as Group's collectives: W since the group's previous superstep, then the communication.
    const double start = recorder.now();
    const double last = g.superstep_clock();
    const double begin = last < start ? last : start;
    body();
    const double end = recorder.now();
    recorder.normal(bcast_superstep_name(resolved), g.size(), bytes, begin, start - begin, end - start);
    g.set_superstep_clock(end);
}

}  // namespace detail
}  // namespace llc
