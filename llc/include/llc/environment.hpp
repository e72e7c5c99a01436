#pragma once
/// @file
/// llc::Environment — MPI's lifetime (INITIALIZE … EXIT).

#include <memory>
#include <optional>

#include <boost/mpi/environment.hpp>

namespace llc {

class Group;

/// Initialises MPI (through Boost.MPI) and the world group; finalises both. MPI errors become exceptions
/// (llc::MpiError / boost::mpi::exception) instead of aborting silently. Reads the environment:
/// - LLC_TRACE=path: tracing on; at exit the merged trace goes to `path` and the Chrome/Perfetto view beside it;
/// - LLC_CHECKS=0: drop the agreement checks of the collectives (for timing runs);
/// - LLC_BACKTRACE=1: an exception that escapes main() ends the job through the C++ runtime's std::terminate (its
///   report and the MPI library's backtrace); by default it prints "llc: error on rank R: message" once per rank and
///   the job exits with status 1;
/// - LLC_KEEP_FREED_MEMORY=0: let glibc's malloc give freed memory back to the kernel. By default the Environment tells
///   it to keep freed memory for the next allocations (no mmap for large blocks, no trimming of the heap): returned
///   memory comes back as fresh pages, whose first touch costs microseconds a page, and every call that allocates a
///   large result would pay it again. The process's resident size then stays at its peak. The cost functions and the
///   kernel constants llc-probe measures assume this reuse.
/// Exactly one may exist at a time. Construct it first in main(), before any other llc object.
class Environment {
  public:
    Environment(int& argc, char**& argv);
    Environment();
    ~Environment();
    Environment(const Environment&) = delete;
    Environment& operator=(const Environment&) = delete;

    /// The group of all processors (also Group::world()).
    [[nodiscard]] Group& world() noexcept { return *world_; }

    /// Whether an Environment is alive in this process.
    [[nodiscard]] static bool active() noexcept;

  private:
    void start();
    std::optional<boost::mpi::environment> mpi_;
    std::unique_ptr<Group> world_;  // destroyed before mpi_, so every communicator is freed before MPI_Finalize
};

}  // namespace llc
