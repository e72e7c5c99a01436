#pragma once
/// @file
/// llc's one clock: every timing that feeds a prediction or a report reads it (the tools' timers, the kernel probes'
/// median_seconds_per_call, the FFT planner's choice of leaf, llc-probe, llc-compare's peers).
///
/// Why one clock: under SimGrid SMPI (-DLLC_MPI=smpi) the ranks run on a simulated platform, and only the simulated
/// clock tells how long they took there. SMPI simulates MPI_Wtime (and clock_gettime in the code smpicxx compiles),
/// but not std::chrono::steady_clock, whose now() runs inside libstdc++ and reads the host's clock: a timing on
/// steady_clock would measure the host running the simulator, not the simulated cluster. So under SMPI the clock is
/// MPI_Wtime, which also hands SMPI the computation done since the last MPI call (its host-timed burst) before it
/// answers. In the default build it is std::chrono::steady_clock, as it always was: monotonic, usable before MPI_Init
/// and after MPI_Finalize.

#include <chrono>

#if defined(LLC_SMPI)
#include <mpi.h>
#endif

namespace llc {

/// Seconds since an arbitrary origin (fixed for the process), on llc's one clock. Only differences mean anything.
[[nodiscard]] inline double clock_seconds() noexcept {
#if defined(LLC_SMPI)
    return MPI_Wtime();
#else
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
#endif
}

}  // namespace llc
