// tools::sleepy_barrier under SimGrid SMPI: while rank 0 computes for 2 simulated seconds (smpi_execute: no host time),
// the other ranks wait in the barrier without sleeping in host time. The polling barrier of the default build slept
// 0.5 ms of host time per poll, each poll a simulated MPI_Test of 0.1 ms: some 20 000 polls, 10 s of host time for
// these 2 simulated seconds. Also: every rank leaves the barrier after rank 0 entered it (simulated clock).
#include <chrono>
#include <smpi/smpi.h>

#include <gtest/gtest.h>
#include <mpi.h>

#include <llc/tools/timing.hpp>

namespace {

TEST(SleepyBarrierSmpi, NoHostSleepWhileOthersComputeInSimulatedTime) {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    const double simulated_start = MPI_Wtime();
    const auto host_start = std::chrono::steady_clock::now();  // the host's clock: SMPI does not simulate it
    if (rank == 0) {
        smpi_execute(2.0);
    }
    llc::tools::sleepy_barrier(MPI_COMM_WORLD);
    const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - host_start).count();
    const double simulated = MPI_Wtime() - simulated_start;
    EXPECT_GE(simulated, 2.0) << "rank " << rank << " left the barrier before rank 0 entered it";
    // 2 s is 5 times what a host sleep per poll would stay under, and some 100 times what a blocking barrier takes.
    EXPECT_LT(host, 2.0) << "rank " << rank
                         << ": the barrier slept in host time while rank 0 computed in simulated time";
}

}  // namespace
