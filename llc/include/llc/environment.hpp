#pragma once
/// @file
/// llc::Environment — MPI's lifetime (INITIALIZE … EXIT) for a program that lets llc own MPI — and, for a program that
/// initialises MPI itself, the same settings one by one (configure_from_environment, write_trace_from_environment,
/// keep_freed_memory). docs/embedding.md says who owns what.

#include <memory>
#include <string>

namespace llc {

class Group;

/// What an llc::Environment changes beyond MPI itself. Every field is off by default: an Environment changes no
/// process-wide setting unless asked.
struct EnvironmentOptions {
    /// Calls llc::keep_freed_memory(): glibc's malloc keeps freed memory for the next allocations, for the whole
    /// process (mallopt). llc's tools and benchmarks set it, because the cost functions and the kernel constants
    /// llc-probe measures assume that reuse; LLC_KEEP_FREED_MEMORY=0 in the environment still vetoes it.
    bool keep_freed_memory = false;
};

/// Initialises MPI (MPI_Init_thread with MPI_THREAD_SINGLE, unless MPI is already initialised) and the world group;
/// finalises both (MPI only if it initialised it; MPI_Abort instead of MPI_Finalize when an exception is unwinding
/// past it, so that the other ranks do not wait forever). MPI errors on MPI_COMM_WORLD, which the Environment owns,
/// become exceptions (llc::MpiError) instead of aborting silently; every llc::Group returns MPI errors as llc::MpiError
/// anyway. Reads the environment (configure_from_environment):
/// - LLC_TRACE=path: tracing on; at exit the merged trace goes to `path` and the Chrome/Perfetto view beside it
///   (write_trace_from_environment over the world group);
/// - LLC_CHECKS=0: drop the agreement checks of the collectives (for timing runs);
/// - LLC_BACKTRACE=1: an exception that escapes main() ends the job through the C++ runtime's std::terminate (its
///   report and the MPI library's backtrace); by default it prints "llc: error on rank R: message" once per rank and
///   the job exits with status 1.
/// With EnvironmentOptions::keep_freed_memory it also sets glibc's malloc to keep freed memory (keep_freed_memory()).
/// Exactly one may exist at a time. Construct it first in main(), before any other llc object.
class Environment {
  public:
    Environment(int& argc, char**& argv, EnvironmentOptions options = {});
    explicit Environment(EnvironmentOptions options = {});
    ~Environment();
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

    /// The group of all processors (also Group::world()).
    [[nodiscard]] Group& world() noexcept { return *world_; }

    /// Whether an Environment is alive in this process.
    [[nodiscard]] static bool active() noexcept;

  private:
    void start(int* argc, char*** argv);
    bool owns_mpi_ = false;         ///< this Environment initialised MPI, and finalises it
    std::unique_ptr<Group> world_;  // destroyed before mpi_, so every communicator is freed before MPI_Finalize
};

/// Reads LLC_CHECKS and LLC_TRACE as llc::Environment does, for a program that initialises MPI itself. Local (no
/// communication); call it on every rank after MPI_Init, before the work to trace. LLC_CHECKS set: Group::set_checks
/// (on unless 0, off, OFF or false) — without this call LLC_CHECKS is still read, at the first agreement check, unless
/// Group::set_checks was called before. LLC_TRACE non-empty: tracing on (Trace::enable, which clears what was
/// recorded). Returns LLC_TRACE's path, or an empty string when tracing was not asked for.
std::string configure_from_environment();

/// When LLC_TRACE names a file: collective over `g` — closes g's open superstep, gathers the trace of g's processors
/// and writes it to that path on g's rank 0, with the Chrome/Perfetto view beside it (`path` with its extension
/// replaced by `.chrome.json`). Call it before MPI_Finalize, over a group that holds every processor that recorded
/// (e.g. an llc::Group of MPI_COMM_WORLD). Without LLC_TRACE it does nothing and communicates nothing.
/// @throws llc::Error on g's rank 0 when a file cannot be written.
void write_trace_from_environment(Group& g);

/// Makes glibc's malloc keep the memory a process frees for its next allocations instead of giving it back to the
/// kernel (mallopt: no mmap for large blocks, no trimming of the heap), for the whole process, unless
/// LLC_KEEP_FREED_MEMORY=0. Memory given back comes back as fresh pages, whose first touch costs microseconds a page,
/// and every call that allocates a large result would pay it again; the price is that the resident size stays at its
/// peak. Returns whether the setting was applied (false without glibc or when vetoed).
bool keep_freed_memory();

}  // namespace llc
