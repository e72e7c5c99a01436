#!/usr/bin/env bash
# Installs what is missing, builds into build/ (Release) and build-asan/ (AddressSanitizer + UBSan), runs ctest in both;
# then the SimGrid SMPI build (build-smpi/, -DLLC_MPI=smpi: only the MPI tests of tests/smpi, at P = 16, 32, 64 under
# smpirun; docs/scaling.md). LLC_SKIP_SMPI=1 leaves it out. Each phase (install, each build, each ctest) ends with a
# line "== time: PHASE: wall W s, cpu C s" (CPU: user + sys of everything it ran), and the run with the total: CI must
# stay well under 30 minutes. The builds use precompiled headers (-DLLC_PRECOMPILED_HEADERS, default ON).
#
# The phases, in order: install; Release build; Release ctest (every test, alone on the machine: the timing-sensitive
# ones run here only); ASan build (-O1, the tools' own code at -O0); ASan ctest, with the SMPI build alongside at nice
# 19 (on the core the tests leave idle); the rest of the SMPI build; SMPI ctest. What the ASan ctest leaves to the
# Release build is listed at asan_ctest below. A fresh clone on the 2-core development machine took 1890 s before the
# SMPI build ran alongside the ASan ctest, before the tools' -O0 and the ASan ctest's shorter list, and before the
# quick kernel probes ran at P = 2 only: Release build 398 s (CPU 777 s), Release ctest 346 s, ASan build 648 s (CPU
# 1265 s), ASan ctest 241 s, SMPI build 147 s, SMPI ctest 110 s. A fresh CI machine has an empty ccache: every
# compile counts.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

# phase NAME COMMAND…: runs the command and prints its wall and CPU time (bash's `times`: the children's user + sys,
# which counts every process the command waited for: compilers, mpirun and the ranks).
# `times` runs in this shell: in a $(…) subshell it would see none of this shell's children.
times_file=$(mktemp)
trap 'rm -f "$times_file"' EXIT
cpu_so_far() {  # reads the children's user + sys that `times > "$times_file"` wrote, in seconds
    tail -n 1 "$times_file" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
                                     printf "%.0f", t }'
}
run_start=$SECONDS
phase() {
    local name=$1 start=$SECONDS cpu0
    shift
    times > "$times_file"
    cpu0=$(cpu_so_far)
    "$@"
    times > "$times_file"
    echo "== time: $name: wall $((SECONDS - start)) s, cpu $(($(cpu_so_far) - cpu0)) s"
}

if [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
    phase install env LLC_WITH_SMPI=1 scripts/install-deps.sh
else
    phase install scripts/install-deps.sh
fi

echo "== Release build (build/)"
# LLC_NATIVE=ON as demo.sh configures build/ (one build for both); the sanitizer build below is portable.
release_build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLLC_WARNINGS_AS_ERRORS=ON -DLLC_NATIVE=ON
    cmake --build build -j "$LLC_JOBS"
}
phase "Release build" release_build
phase "Release ctest" ctest --test-dir build --output-on-failure -j "$LLC_JOBS"

if [ "${LLC_SKIP_SANITIZERS:-0}" != "1" ]; then
    echo "== Sanitizer build (build-asan/): AddressSanitizer + UndefinedBehaviorSanitizer"
    # -O1 -g1: what ASan recommends, and a faster build than -O2 -g. The tools' own code at -O0 (LLC_TOOLS_CXX_FLAGS:
    # llc-run, llc-probe, llc-validate, llc-compare and tools/common, 25 of the 174 compiles; not the cards, libraries
    # or tests): a third less CPU each (ccache off: llc-probe's main.cpp 18.8 -> 13.2 s, llc-validate's report.cpp
    # 21.1 -> 12.6 s), and the ASan tests run little of that code (options, reports). The tests stay at -O1: at -O0
    # their compiles take a third less CPU too, but they run the llc layer's templates at -O0 (under ASan,
    # mpi_fft_test.np4 took 37 s of CPU instead of 22 s, mpi_matrix_chain_test.np5 40 s instead of 17 s).
    asan_build() {
        cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DLLC_TOOLS_CXX_FLAGS=-O0 \
            -DLLC_SANITIZE=ON -DLLC_NATIVE=OFF \
            -DLLC_BUILD_BENCHMARKS=OFF -DLLC_BUILD_EXAMPLES=OFF -DLLC_WARNINGS_AS_ERRORS=ON
        cmake --build build-asan -j "$LLC_JOBS"
    }
    phase "ASan build" asan_build
    # Open MPI leaks at finalize by design: leak detection off, every other ASan check on. Left to the Release build
    # (every one of them runs there): the tests labelled nosan (timing, calibration, address-space limits, the install);
    # the MPI tests at P = 8 (four ranks a core, the slowest entries under ASan; 1, 2, 3, 4, 5 run here); and the bad
    # arguments of the tools and of llc-probe at P = 3 (the same parsing and error paths as at P = 1 and 2, which run
    # here: some 18 s of ASan time). Under the sanitizers mpi_tools_cards_test runs the two of its tests that price
    # every case (tests/tools/CMakeLists.txt: its absence tests, 60 % of its 93 s there, re-price the same cases).
    asan_ctest() {
        (cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j "$LLC_JOBS" -LE nosan \
            -E '\.np8$|^mpi_tools_bad_arguments\.np3$|^mpi_llc_probe_bad_arguments\.np3$')
    }
fi

# Only the tests' targets (ctest runs nothing else here): no tools, examples or benchmarks.
smpi_build() {
    echo "== SimGrid SMPI build (build-smpi/): the MPI tests at P = 16, 32, 64 on platforms/cluster-16x4.xml"
    cmake -S . -B build-smpi -DLLC_MPI=smpi -DCMAKE_BUILD_TYPE=Release -DLLC_WARNINGS_AS_ERRORS=ON \
        -DLLC_BUILD_TOOLS=OFF -DLLC_BUILD_EXAMPLES=OFF -DLLC_BUILD_BENCHMARKS=OFF
    cmake --build build-smpi -j "$LLC_JOBS"
}

if [ "${LLC_SKIP_SANITIZERS:-0}" != "1" ] && [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
    # The ASan ctest leaves a core idle much of its time (mpirun's launches; P = 1 tests with nothing beside them): the
    # SMPI build runs alongside it at nice 19, on what the tests leave. The ASan tests time nothing (the ones that
    # measure, llc-probe's and llc-validate's runs, are labelled nosan and run in the Release ctest, which runs alone).
    # The build's output is printed when it is done; if it fails, the run fails there.
    smpi_log=$(mktemp)
    # kill_tree PID: ends PID and every process under it (cmake, the build tool, the compilers).
    kill_tree() {
        local child
        for child in $(ps -o pid= --ppid "$1" 2> /dev/null); do kill_tree "$child"; done
        kill "$1" 2> /dev/null || true
    }
    # If the ASan ctest fails, `set -e` ends the run there: the build alongside must not outlive it.
    trap 'kill_tree "$smpi_pid"; rm -f "$times_file" "$smpi_log"' EXIT
    (renice -n 19 -p "$BASHPID" > /dev/null && smpi_build) > "$smpi_log" 2>&1 &
    smpi_pid=$!
    phase "ASan ctest (the SMPI build alongside at nice 19)" asan_ctest
    smpi_wait() {
        local status=0
        wait "$smpi_pid" || status=$?
        cat "$smpi_log"
        return "$status"
    }
    # The build's whole CPU time counts here (`times` counts a child when it has been waited for); the wall time is
    # the part of the build that outlasted the ASan ctest.
    phase "SMPI build (the rest of it)" smpi_wait
else
    if [ "${LLC_SKIP_SANITIZERS:-0}" != "1" ]; then
        phase "ASan ctest" asan_ctest
    fi
    if [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
        phase "SMPI build" smpi_build
    fi
fi
if [ "${LLC_SKIP_SMPI:-0}" != "1" ]; then
    phase "SMPI ctest" ctest --test-dir build-smpi --output-on-failure -j "$LLC_JOBS"
fi
times > "$times_file"
echo "== time: total: wall $((SECONDS - run_start)) s, cpu $(cpu_so_far) s"
