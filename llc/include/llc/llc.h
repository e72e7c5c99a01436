#pragma once
/// @file
/// La Laguna C–style macros over the C++ API, so that programs of the CCM paper can be written almost as printed
/// (compile them as C++20). The macros work on the *current group*: the world after INITIALIZE, the subgroup inside
/// a PAR / WEIGHTEDPAR branch.
///
///   INITIALIZE;                       start MPI (needs main's argc, argv in scope); EXIT; ends it
///   NUMPROCESSORS, NAME               size of the current group, this processor's index in it
///   PAR(call0, r0, bytes0, call1, r1, bytes1)
///                                     run call0 and call1 on the two halves of the current group; call_i leaves
///                                     bytes_i bytes of result at r_i; partners exchange them (SWAP), so that every
///                                     processor ends with both r0 and r1 filled
///   WEIGHTEDPAR(weights, r, i, call, results, bytes)
///                                     r tasks on subgroups sized by weights[0..r-1]; `call` runs with int i = the
///                                     task index and leaves bytes[i] bytes at results[i]; every processor ends with
///                                     all r results
///   GPRINTF(format, ...)              printf by processor 0 of the current group only

#include <cstdio>
#include <optional>
#include <span>

#include <llc/environment.hpp>
#include <llc/group.hpp>
#include <llc/par.hpp>

namespace llc {

/// The group the macros work on (top of a per-process stack; the world when empty).
Group& current_group();

namespace detail {

/// Makes `g` the current group while it lives.
class CurrentGroup {
public:
    explicit CurrentGroup(Group& g);
    ~CurrentGroup();
    CurrentGroup(const CurrentGroup&) = delete;
    CurrentGroup& operator=(const CurrentGroup&) = delete;
};

/// The environment behind INITIALIZE / EXIT.
class MacroEnvironment {
public:
    MacroEnvironment(int& argc, char**& argv) { environment_.emplace(argc, argv); }
    void exit() { environment_.reset(); }

private:
    std::optional<Environment> environment_;
};

/// A division whose results are raw buffers filled in place (the paper's SWAP of result buffers, no copies).
/// `run(t)` runs task t with the subgroup current; results[t] holds bytes[t] bytes afterwards on every processor.
template <class Run>
void buffer_division(const char* op,
                     std::span<const double> weights,
                     std::span<void* const> results,
                     std::span<const std::size_t> bytes,
                     Run&& run) {
    Group& g = current_group();
    check_weights_agree(g, op, weights);
    run_division(
        g, op, weights,
        [&](Group& sub, int t) {
            const CurrentGroup scope(sub);
            run(t);
        },
        [&](int t, int dest, PendingSends& pending) {
            MPI_Request request = MPI_REQUEST_NULL;
            const auto ti = static_cast<std::size_t>(t);
            check_mpi(MPI_Isend(results[ti], to_count(op, "bytes", bytes[ti]), MPI_BYTE, dest, result_tag, g.native(),
                                &request),
                      op);
            pending.raw.push_back(request);
            pending.bytes += bytes[ti];
        },
        [&](int t, int source, std::uint64_t& received) {
            const auto ti = static_cast<std::size_t>(t);
            check_mpi(MPI_Recv(results[ti], to_count(op, "bytes", bytes[ti]), MPI_BYTE, source, result_tag, g.native(),
                               MPI_STATUS_IGNORE),
                      op);
            received += bytes[ti];
        });
}

}  // namespace detail
}  // namespace llc

#define INITIALIZE ::llc::detail::MacroEnvironment llc_macro_environment_(argc, argv)
#define EXIT llc_macro_environment_.exit()
#define NUMPROCESSORS (::llc::current_group().size())
#define NAME (::llc::current_group().rank())

#define PAR(call0, result0, bytes0, call1, result1, bytes1)                                                  \
    do {                                                                                                     \
        const double llc_weights_[2] = {1.0, 1.0};                                                           \
        void* const llc_results_[2] = {static_cast<void*>(result0), static_cast<void*>(result1)};            \
        const std::size_t llc_bytes_[2] = {static_cast<std::size_t>(bytes0), static_cast<std::size_t>(bytes1)}; \
        ::llc::detail::buffer_division("PAR", llc_weights_, llc_results_, llc_bytes_, [&](int llc_task_) {  \
            if (llc_task_ == 0) {                                                                            \
                call0;                                                                                       \
            } else {                                                                                         \
                call1;                                                                                       \
            }                                                                                                \
        });                                                                                                  \
    } while (0)

#define WEIGHTEDPAR(weights, r, i, call, results, bytes)                                                     \
    do {                                                                                                     \
        const std::size_t llc_r_ = static_cast<std::size_t>(r);                                              \
        std::vector<double> llc_weights_((weights), (weights) + llc_r_);                                     \
        std::vector<void*> llc_results_(llc_r_);                                                             \
        std::vector<std::size_t> llc_bytes_(llc_r_);                                                         \
        for (std::size_t llc_t_ = 0; llc_t_ < llc_r_; ++llc_t_) {                                            \
            llc_results_[llc_t_] = static_cast<void*>((results)[llc_t_]);                                    \
            llc_bytes_[llc_t_] = static_cast<std::size_t>((bytes)[llc_t_]);                                  \
        }                                                                                                    \
        ::llc::detail::buffer_division("WEIGHTEDPAR", llc_weights_, llc_results_, llc_bytes_, [&](int i) { call; }); \
    } while (0)

#define GPRINTF(...)                              \
    do {                                          \
        if (::llc::current_group().rank() == 0) { \
            std::printf(__VA_ARGS__);             \
            std::fflush(stdout);                  \
        }                                         \
    } while (0)
