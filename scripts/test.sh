#!/usr/bin/env bash
# Installs what is missing, builds into build/ (Release) and build-asan/ (AddressSanitizer + UBSan), runs ctest in both;
# then the SimGrid SMPI build (build-smpi/, -DLLC_MPI=smpi: only the MPI tests of tests/smpi, at P = 16, 32, 64 under
# smpirun; docs/scaling.md). LLC_SKIP_SMPI=1 leaves it out.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

if [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
    LLC_WITH_SMPI=1 scripts/install-deps.sh
else
    scripts/install-deps.sh
fi

echo "== Release build (build/)"
# LLC_NATIVE=ON as demo.sh configures build/ (one build for both); the sanitizer build below is portable.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLLC_WARNINGS_AS_ERRORS=ON -DLLC_NATIVE=ON
cmake --build build -j "$LLC_JOBS"
(cd build && ctest --output-on-failure -j "$LLC_JOBS")

if [ "${LLC_SKIP_SANITIZERS:-0}" != "1" ]; then
    echo "== Sanitizer build (build-asan/): AddressSanitizer + UndefinedBehaviorSanitizer"
    # -O1 -g1: what ASan recommends, and a faster build than -O2 -g.
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DLLC_SANITIZE=ON -DLLC_NATIVE=OFF \
        -DLLC_BUILD_BENCHMARKS=OFF -DLLC_BUILD_EXAMPLES=OFF -DLLC_WARNINGS_AS_ERRORS=ON
    cmake --build build-asan -j "$LLC_JOBS"
    # Open MPI leaks at finalize by design: leak detection off, every other ASan check on. The MPI tests at P = 8 (four
    # ranks a core, the slowest entries under ASan) run in the Release build only; 1, 2, 3, 4, 5 run here.
    (cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j "$LLC_JOBS" -LE nosan -E '\.np8$')
fi

if [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
    echo "== SimGrid SMPI build (build-smpi/): the MPI tests at P = 16, 32, 64 on platforms/cluster-16x4.xml"
    # Only the tests' targets (ctest runs nothing else here): no tools, examples or benchmarks.
    cmake -S . -B build-smpi -DLLC_MPI=smpi -DCMAKE_BUILD_TYPE=Release -DLLC_WARNINGS_AS_ERRORS=ON \
        -DLLC_BUILD_TOOLS=OFF -DLLC_BUILD_EXAMPLES=OFF -DLLC_BUILD_BENCHMARKS=OFF
    cmake --build build-smpi -j "$LLC_JOBS"
    (cd build-smpi && ctest --output-on-failure -j "$LLC_JOBS")
fi
