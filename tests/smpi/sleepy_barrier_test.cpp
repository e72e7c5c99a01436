// tools::sleepy_barrier waits with std::this_thread::sleep_for(0.5 ms) between polls. Under SimGrid SMPI that sleep
// must be simulated, not slept on the host (timing.hpp documents it): SMPI interposes the nanosleep that sleep_for
// calls. Without the interposition a sleeping rank would stall the whole simulator, whose ranks take turns in one host
// process. Checked here on sleep_for itself: 300 ms of it advance the simulated clock by 300 ms and take (far) less
// than 100 ms of host time.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <mpi.h>

namespace {

TEST(SleepUnderSmpi, SleepForIsSimulatedNotSleptOnTheHost) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    const double simulated_start = MPI_Wtime();
    const auto host_start = std::chrono::steady_clock::now();  // the host's clock: SMPI does not simulate it
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
    const double simulated = MPI_Wtime() - simulated_start;
    EXPECT_GE(simulated, 0.3) << "rank " << rank << ": sleep_for did not advance the simulated clock";
    EXPECT_LT(host, 0.1) << "rank " << rank << ": sleep_for slept on the host";
    MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
