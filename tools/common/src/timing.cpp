#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>

#include <llc/clock.hpp>
#include <llc/tools/statistics.hpp>
#include <llc/tools/timing.hpp>

namespace llc::tools {

namespace {

int size_of(MPI_Comm comm) {
    int size = 1;
    MPI_Comm_size(comm, &size);
    return size;
}

constexpr int canary_tag = 32700;

/// {mine, canaries} → each the max over ranks.
Sample agreed(MPI_Comm comm, double seconds, const Canary& canary) {
    std::array<double, 4> values{seconds, canary.cpu, canary.link, canary.throughput};
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MAX, comm);
    return {values[0], {values[1], values[2], values[3]}};
}

/// The test hook of the tools' failure handling (docs/tools.md, "Testing a failure on one rank"): with
/// LLC_TEST_FAIL_RANK=R in the environment, rank R of MPI_COMM_WORLD throws on its LLC_TEST_FAIL_AFTER-th sample
/// (default 2: after the warm-up, in the middle of the measurements) while the other ranks go on into the sample's
/// barrier, as a real failure on one rank would leave them. Deliberately not a command-line option: no user needs it.
void injected_failure() {
    static const char* const rank_text = std::getenv("LLC_TEST_FAIL_RANK");
    if (rank_text == nullptr) {
        return;
    }
    static int samples = 0;
    const char* const after_text = std::getenv("LLC_TEST_FAIL_AFTER");
    const int after = after_text != nullptr ? std::atoi(after_text) : 2;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == std::atoi(rank_text) && ++samples == after) {
        throw std::runtime_error("LLC_TEST_FAIL_RANK: injected failure on rank " + std::to_string(rank) +
                                 " at sample " + std::to_string(after));
    }
}

}  // namespace

double canary_seconds() {
    // A dependent chain (each step needs the last): neither the compiler nor the core can shorten it, and it touches
    // no memory, so it measures the processor's speed alone.
    const double start = llc::clock_seconds();
    std::uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < 2000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    const double stop = llc::clock_seconds();
    volatile std::uint64_t sink = x;
    (void)sink;
    return stop - start;
}

double throughput_canary_seconds() {
    // Eight independent chains, four of multiply-adds and four of xorshifts: the loop is bound by how many operations
    // the core issues a cycle, not by any one chain's latency. The empty asm statements keep every chain in a general
    // register each step, so that the compiler cannot turn the chains into one vector operation (a vectorised pass took
    // 0.15 µs, near the clock's resolution: its fastest reading, 0.10 µs, put every other one above 1.15×). About
    // 2 µs a pass here; the fastest of two is the processor's rate now.
    double fastest = 1e300;
    for (int pass = 0; pass < 2; ++pass) {
        std::uint64_t a = 1;
        std::uint64_t b = 2;
        std::uint64_t c = 3;
        std::uint64_t d = 4;
        std::uint64_t e = 5;
        std::uint64_t f = 6;
        std::uint64_t g = 7;
        std::uint64_t h = 8;
        const double start = llc::clock_seconds();
        for (int i = 0; i < 500; ++i) {
            a = a * 0x9E3779B97F4A7C15ULL + 1;
            b = b * 0x9E3779B97F4A7C15ULL + 3;
            c = c * 0x9E3779B97F4A7C15ULL + 5;
            d = d * 0x9E3779B97F4A7C15ULL + 7;
            e ^= e << 13;
            e ^= e >> 7;
            f ^= f << 13;
            f ^= f >> 9;
            g ^= g << 17;
            g ^= g >> 9;
            h ^= h << 5;
            h ^= h >> 3;
            asm volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
        }
        const double stop = llc::clock_seconds();
        volatile std::uint64_t sink = a ^ b ^ c ^ d ^ e ^ f ^ g ^ h;
        (void)sink;
        fastest = std::min(fastest, stop - start);
    }
    return fastest;
}

Canary measure_canary(MPI_Comm comm) {
#if defined(LLC_SMPI)
    // Not taken under SimGrid SMPI: there no visit is measured again (llc-validate's rounds.hpp: the simulation has
    // no phases of its own to wait out), and each of the canary's six clock reads is a call into the simulator.
    Canary canary{canary_seconds(), 0.0, 0.0};
#else
    Canary canary{canary_seconds(), 0.0, throughput_canary_seconds()};
#endif
    const int size = size_of(comm);
    if (size > 1) {
        int rank = 0;
        MPI_Comm_rank(comm, &rank);
        const int right = (rank + 1) % size;
        const int left = (rank + size - 1) % size;
        std::array<char, 8> out{};
        std::array<char, 8> in{};
        for (int round = 0; round < 2; ++round) {
            const double start = MPI_Wtime();
            MPI_Sendrecv(out.data(),
                         8,
                         MPI_CHAR,
                         right,
                         canary_tag,
                         in.data(),
                         8,
                         MPI_CHAR,
                         left,
                         canary_tag,
                         comm,
                         MPI_STATUS_IGNORE);
            canary.link = MPI_Wtime() - start;
        }
    }
    return canary;
}

void SpeedReference::calibrate(MPI_Comm comm, int count) {
    for (int i = 0; i < count; ++i) {
        see(agreed(comm, 0.0, measure_canary(comm)).canary);
    }
}

void SpeedReference::see(const Canary& canary) noexcept {
    if (canary.cpu > 0.0) {
        fastest_.cpu = std::min(fastest_.cpu, canary.cpu);
    }
    if (canary.link > 0.0) {
        fastest_.link = std::min(fastest_.link, canary.link);
    }
    if (canary.throughput > 0.0) {
        fastest_.throughput = std::min(fastest_.throughput, canary.throughput);
    }
}

void SpeedReference::agree(MPI_Comm comm) {
    std::array<double, 3> values{fastest_.cpu, fastest_.link, fastest_.throughput};
    MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_DOUBLE, MPI_MIN, comm);
    fastest_ = {values[0], values[1], values[2]};
}

bool SpeedReference::undisturbed(const Canary& canary) const noexcept {
    // A canary not taken (0) or a reference never set (1e300) does not judge.
    const bool cpu = canary.cpu <= 0.0 || canary.cpu <= cpu_tolerance_ * fastest_.cpu;
    const bool link = canary.link <= 0.0 || fastest_.link >= 1e300 || canary.link <= link_tolerance_ * fastest_.link;
    const bool throughput = canary.throughput <= 0.0 || fastest_.throughput >= 1e300 ||
                            canary.throughput <= throughput_tolerance_ * fastest_.throughput;
    return cpu && link && throughput;
}

std::vector<double> undisturbed_seconds(const std::vector<Sample>& samples,
                                        const SpeedReference& reference,
                                        std::size_t at_least,
                                        bool* all_kept) {
    std::vector<double> kept;
    for (const Sample& s : samples) {
        if (reference.undisturbed(s.canary)) {
            kept.push_back(s.seconds);
        }
    }
    const bool too_few = kept.size() < std::max<std::size_t>(at_least, 1);
    if (all_kept != nullptr) {
        *all_kept = too_few;
    }
    return too_few ? all_seconds(samples) : kept;
}

std::vector<double> all_seconds(const std::vector<Sample>& samples) {
    std::vector<double> out;
    out.reserve(samples.size());
    for (const Sample& s : samples) {
        out.push_back(s.seconds);
    }
    return out;
}

Sample time_sample(MPI_Comm comm, int batch, const std::function<void()>& body) {
    injected_failure();
    const int calls = std::max(batch, 1);
    const Canary canary = measure_canary(comm);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i) {
        body();
    }
    return agreed(comm, (MPI_Wtime() - start) / calls, canary);
}

Sample time_sample_on_rank(MPI_Comm comm, int who, int batch, const std::function<void()>& body) {
    injected_failure();
    const int calls = std::max(batch, 1);
    int rank = 0;
    MPI_Comm_rank(comm, &rank);
    const Canary canary = measure_canary(comm);
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < calls; ++i) {
        body();
    }
    return agreed(comm, rank == who ? (MPI_Wtime() - start) / calls : 0.0, canary);
}

int warm_up_and_choose_batch(MPI_Comm comm, const std::function<void()>& body, double* seconds) {
    double spent = 0.0;  // agreed: every sample's time is
    int batch = 1;
    if (size_of(comm) > 1) {
        spent = time_sample(comm, 1, body).seconds;
    } else {
        batch = choose_batch_by_doubling([&](int calls) {
            const Sample s = time_sample(comm, calls, body);
            spent += s.seconds * calls;
            return s;
        });
    }
    if (seconds != nullptr) {
        *seconds = spent;
    }
    return batch;
}

int choose_batch_by_doubling(const std::function<Sample(int batch)>& take) {
    int batch = 1;
    while (batch < max_batch && take(batch).seconds * batch < min_sample_seconds) {
        batch = std::min(2 * batch, max_batch);
    }
    return batch;
}

void sleepy_barrier(MPI_Comm comm) {
    MPI_Request request = MPI_REQUEST_NULL;
    MPI_Ibarrier(comm, &request);
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    while (done == 0) {
        std::this_thread::sleep_for(std::chrono::microseconds(500));
        MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    }
}

std::vector<Sample> sample(MPI_Comm comm,
                           const std::function<void()>& body,
                           const SamplingRule& rule,
                           SpeedReference& reference) {
    double warm_up = 0.0;
    const int batch = warm_up_and_choose_batch(comm, body, &warm_up);
    if (warm_up < rule.second_warm_up_below) {  // agreed, so every rank takes the same branch
        warm_up += time_sample(comm, batch, body).seconds * batch;
    }
    const double budget_offset = rule.budget_counts_warm_up ? warm_up : 0.0;
    std::vector<Sample> samples;
    double spent = 0.0;
    while (true) {
        const Sample s = time_sample(comm, batch, body);
        reference.see(s.canary);
        samples.push_back(s);
        spent += s.seconds * batch;
        const auto taken = static_cast<int>(samples.size());
        bool too_few = false;
        const std::vector<double> counted =
            undisturbed_seconds(samples, reference, static_cast<std::size_t>(rule.min_samples), &too_few);
        const int count = too_few ? 0 : static_cast<int>(counted.size());
        const bool long_enough = spent >= rule.min_seconds;
        const int cap = long_enough ? rule.max_samples : std::max(rule.max_samples, rule.max_short_samples);
        if (count >= cap || (count >= rule.min_samples && long_enough &&
                             (budget_offset + spent >= rule.budget_seconds ||
                              (rule.target_rse > 0.0 && median_rse(counted) <= rule.target_rse)))) {
            break;
        }
        // Out of patience: a machine slow for this long is the machine, and the disturbed samples count too.
        if (taken >= 4 * cap || (taken >= rule.min_samples && spent >= 4.0 * rule.budget_seconds)) {
            break;
        }
    }
    return samples;
}

}  // namespace llc::tools
