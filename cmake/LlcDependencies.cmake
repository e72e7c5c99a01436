# Finds every library llc needs. scripts/install-deps.sh installs them on Debian.
if(LLC_MPI STREQUAL "smpi")
    include(LlcSmpi)
else()
    find_package(MPI REQUIRED COMPONENTS C CXX)
endif()
find_package(Boost 1.74 REQUIRED COMPONENTS serialization program_options)
find_package(nlohmann_json 3.9 REQUIRED)
find_package(PkgConfig REQUIRED)
# FFTW's own CMake config is broken on Debian (it points at a missing FFTW3LibraryDepends.cmake), so use pkg-config.
pkg_check_modules(FFTW3 REQUIRED IMPORTED_TARGET fftw3)
if(NOT LLC_MPI STREQUAL "smpi")  # fftw3-mpi is built on Open MPI
    find_library(LLC_FFTW3_MPI_LIBRARY NAMES fftw3_mpi)
endif()
find_package(Threads REQUIRED)
# OpenBLAS (CBLAS dsymv, dspmv): the symmetric matrix–vector product's test oracle and benchmark peer. Optional: without
# it those comparisons are left out of the build.
pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)
if(OPENBLAS_FOUND)
    set(LLC_HAVE_OPENBLAS ON)
else()
    set(LLC_HAVE_OPENBLAS OFF)
    message(STATUS "llc: OpenBLAS not found (libopenblas-dev): symv's tests and llc-compare leave out CBLAS dsymv")
endif()
# libpng: the tools read PNG images (tools/common/image_io).
find_package(PNG REQUIRED)
# OpenCV (C++ API): the distance transforms' benchmark peer (llc-compare). Optional: without it those comparisons are
# left out of the build.
find_package(OpenCV QUIET COMPONENTS core imgproc)
if(OpenCV_FOUND)
    set(LLC_HAVE_OPENCV ON)
else()
    set(LLC_HAVE_OPENCV OFF)
    message(STATUS "llc: OpenCV not found (libopencv-dev): llc-compare leaves out its comparisons with OpenCV")
endif()
