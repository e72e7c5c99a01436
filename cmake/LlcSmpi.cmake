# -DLLC_MPI=smpi: llc on SimGrid SMPI (Debian libsimgrid-dev; docs/scaling.md, "Building and testing under SMPI").
# The compilers are smpicc/smpicxx (set in the top CMakeLists.txt before project()); they add SMPI's mpi.h and build
# every program as a shared object that smpirun loads once per simulated rank. Included by LlcDependencies.cmake in
# place of find_package(MPI).

# SMPI's headers turn malloc/free into macros (for its shared-malloc tricks), which breaks std::free and every
# library header that names free; llc allocates nothing SMPI must share. LLC_SMPI selects the simulated clock
# (<llc/clock.hpp>) and the platform's core count (llc/smpi.hpp).
add_compile_definitions(SMPI_NO_OVERRIDE_MALLOC LLC_SMPI)
# smpicxx links every program as a shared object (-shared), where nothing asks for main: a main() that lives in a
# static library (the MPI tests' llc_mpi_gtest_main) would be left out, and smpirun finds no entry point.
add_link_options(LINKER:-u,main)

# smpicxx brings MPI itself: the targets llc links against are empty.
if(NOT TARGET MPI::MPI_CXX)
    add_library(MPI::MPI_CXX INTERFACE IMPORTED)
    add_library(MPI::MPI_C INTERFACE IMPORTED)
endif()
find_program(LLC_SMPIRUN smpirun REQUIRED)
set(MPIEXEC_EXECUTABLE ${LLC_SMPIRUN})
set(MPIEXEC_NUMPROC_FLAG -np)
find_path(LLC_SIMGRID_INCLUDE_DIR simgrid/s4u.hpp REQUIRED)
find_library(LLC_SIMGRID_LIBRARY simgrid REQUIRED)

# The platform the MPI tests run on, and the processor counts. A hostfile fills each node's cores in turn (a node of
# 4 cores takes ranks 4k … 4k+3), so every P above 4 has ranks on one node and on different nodes.
set(LLC_SMPI_PLATFORM ${PROJECT_SOURCE_DIR}/platforms/cluster-16x4.xml CACHE FILEPATH
    "SimGrid platform the SMPI tests run on")
set(LLC_SMPI_TEST_RANKS 16 32 64 CACHE STRING "Processor counts at which the SMPI tests run")
