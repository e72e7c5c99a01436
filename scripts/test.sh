#!/usr/bin/env bash
# Installs what is missing, builds into build/ (Release) and build-asan/ (AddressSanitizer + UBSan), runs ctest in both;
# then the SimGrid SMPI build (build-smpi-tests/, -DLLC_MPI=smpi: the MPI tests of tests/smpi at P = 16, 32, 64 under
# smpirun, and llc-probe with llc-validate on the simulated cluster at P = 4 and 8; docs/scaling.md). LLC_SKIP_SMPI=1 leaves it out, LLC_SKIP_SANITIZERS=1 the sanitizer build. Each phase
# (install, each build, each ctest) ends with a line "== time: PHASE: wall W s, cpu C s" (CPU: user + sys of
# everything it ran and waited for), and the run with the total: CI must stay well under 30 minutes on 2 cores. The
# builds use precompiled headers (-DLLC_PRECOMPILED_HEADERS, default ON). A fresh CI machine has an empty ccache:
# every compile counts.
#
# The phases, in order: install; Release build; the Release ctest of the tests that measure (label `measures`: the
# tools' calibrations and validations), alone; the rest of the Release ctest, with the sanitizer build (nice 10) and
# the SMPI build (nice 19) started beside it in the background, on the CPU the tests leave idle (1.4 of the 2 cores busy
# on average: mpirun's launches, P = 1 tests); the rest of the sanitizer build; ASan ctest (the SMPI build still beside
# it); the rest of the SMPI build; SMPI ctest. No test that runs beside the background builds asserts on a time.
#
# The sanitizer build covers the library (llc, cost, the algorithms) and its tests, not the tools (llc-run, llc-probe,
# llc-validate, llc-compare and their cards), whose tests run in the Release build (with the tools, the sanitizer build
# and its ctest were 48 % of the run's CPU). Its ctest's list is at asan_ctest below.
#
# CI on a fresh clone of the 2-core development machine, before this arrangement (2026-11-27, df3aac7): 2768 s in all
# (CPU 5079 s) — Release build 607 s (CPU 1189 s), Release ctest 513 s (CPU 722 s), ASan build with the tools 881 s
# (CPU 1718 s), ASan ctest 494 s (CPU 729 s, 232 s of its tests' wall time the tools'), the SMPI build's rest 131 s
# (CPU 453 s), SMPI ctest 141 s (CPU 267 s). The sanitizer build without the tools, alone: 549 s (CPU 1005 s). With
# the sanitizer build beside the whole Release ctest and nothing else of this arrangement (c47b4ac): 2175 s (CPU
# 4199 s), the Release ctest 1001 s of it (the tests that measure, 2-18 times as long). The whole arrangement (98a9337):
# 1928 s (CPU 3682 s); CI's own machine took 2040 s. With the fft and matrix-chain oracles broadcast from rank 0 and the
# sanitizer build's tests at -O0 (071c6ea): 2049 s (CPU 3769 s), on a host that ran slower than in the run before: the
# unchanged Release build took 1133 s of CPU (1038 before), the unchanged SMPI tests mpi_symv_test.np64 and
# mpi_chamfer_test.np64 51 and 37 s (33 and 21 s alone, minutes after the run). Measured alone, the changes saved CPU:
# the sanitizer build's tests 435 -> 288 s to compile and their ctest 248 -> 316 s to run; mpi_fft_test under SMPI at
# 32 and 64 ranks 28 -> 5 s and 30 -> 15 s; mpi_tools_fail_mid_run.np3, now among the tests that measure, 68 -> 8 s.
# With unity builds for the Release and sanitizer builds (32d0259, 2026-11-28): 1601 s (CPU 3014 s) — Release build
# 470 s (CPU 916 s), the sanitizer build's rest 46 s (it was 248 s), SMPI ctest 105 s. The sanitizer ctest then left
# out P = 3 (35 of its 160 s of test wall time): 1593 s (CPU 3009 s) at 85b458e, the sanitizer ctest 192 -> 144 s.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

# phase NAME COMMAND…: runs the command and prints its wall and CPU time (bash's `times`: the children's user + sys,
# which counts every process the command waited for: compilers, mpirun and the ranks).
# `times` runs in this shell: in a $(…) subshell it would see none of this shell's children.
times_file=$(mktemp)
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
# LLC_NATIVE=ON as demo.sh configures build/ (one build for both); the sanitizer build below is portable. The tests'
# own programs at -O1 (LLC_TESTS_CXX_FLAGS, the top CMakeLists.txt): a quarter to a third less CPU a compile, while the
# libraries, tools, examples and benchmarks they run keep -O3. A unity build (CMAKE_UNITY_BUILD: each target's sources
# compiled in batches of 8 per translation unit, the cards excepted, tools/cards/CMakeLists.txt), as in the sanitizer
# build: the headers are parsed once a batch, not once a source. 2026-11-28, alone, the compiles' CPU: 1145 -> 728 s
# (the three libraries 297 -> 102 s). The SMPI build below stays one source a translation unit: CI's build that shows
# a source's missing #include, which a unity batch hides when an earlier source of the batch includes the header.
release_build() {
    cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLLC_WARNINGS_AS_ERRORS=ON -DLLC_NATIVE=ON -DLLC_TESTS_CXX_FLAGS=-O1 \
        -DCMAKE_UNITY_BUILD=ON
    cmake --build build -j "$LLC_JOBS"
}
phase "Release build" release_build

# The sanitizer build: -O1 -g1 (what ASan recommends, and a faster build than -O2 -g), portable (the Release build
# runs the -march=native kernels), without the tools, examples and benchmarks. UBSan without its null and alignment
# checks: they were 35-45 % of this build's compile time (user time of one compile, all of UBSan / without the two /
# ASan alone: llc/src/trace.cpp 19.2 / 12.8 / 14.4 s, matrix_chain.cpp 16.0 / 9.7 / 7.4 s, swap_pairing_test.cpp 12.0
# / 9.1 s; UBSan alone doubles a compile). A null pointer dereferenced still faults, and ASan reports the fault with
# its stack; a misaligned access is no longer reported unless it faults (an aligned vector load of a misaligned
# address does; x86-64's scalar and unaligned vector loads give the right value). The tests' own programs at -O0
# (LLC_TESTS_CXX_FLAGS; the library they check keeps -O1): instrumented code is costly to optimise, and they compiled
# in 288 instead of 435 s of CPU, while their ctest took 68 s of CPU more (316 against 248 s alone, 2026-11-27: the
# oracles run unoptimised). A unity build, as the Release build: the libraries compiled in 154 instead of 345 s of CPU.
asan_build() {
    echo "== Sanitizer build (build-asan/): AddressSanitizer + UndefinedBehaviorSanitizer, the library and its tests"
    cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -g1" -DLLC_SANITIZE=ON \
        -DLLC_SANITIZE_OPTIONS=-fno-sanitize=null,alignment -DLLC_NATIVE=OFF -DLLC_TESTS_CXX_FLAGS=-O0 \
        -DLLC_BUILD_TOOLS=OFF -DLLC_BUILD_BENCHMARKS=OFF -DLLC_BUILD_EXAMPLES=OFF -DLLC_WARNINGS_AS_ERRORS=ON \
        -DCMAKE_UNITY_BUILD=ON
    cmake --build build-asan -j "$LLC_JOBS"
}
# Open MPI leaks at finalize by design: leak detection off, every other ASan check on. Left to the Release build
# (every one of them runs there): the tests labelled nosan (timing, calibration, address-space limits, the install);
# the MPI tests at P = 3, 4 and 8 (P = 1, 2, 5 run here: one and two processors, and an odd, prime count with uneven
# splits; P = 8 is four ranks a core, the slowest entries under ASan; P = 4 was 87 s of the 318 s of this ctest's
# library tests, P = 3 35 of the 160 s of its tests' wall times in the unity build, 2026-11-28).
asan_ctest() {
    (cd build-asan && ASAN_OPTIONS=detect_leaks=0 ctest --output-on-failure -j "$LLC_JOBS" -LE nosan -E '\.np[348]$')
}

# The tests' targets and the tools (llc-probe and llc-validate run under smpirun in llc_scale_validate_smpi: the code
# only the SMPI build compiles, `#if defined(LLC_SMPI)` in tools/common, llc-probe, llc-validate and two cards, is
# compiled and run in CI), no examples or benchmarks; at -O1, which compiles in two thirds of -O3's CPU time (316
# against about 460 s) while the SMPI ctest takes as long (149 against 148 s): it asserts no time. A directory of its
# own: build-smpi/ stays for scale runs (docs/scaling.md), whose simulated compute times are the host's timings of -O3
# code.
smpi_build() {
    echo "== SimGrid SMPI build (build-smpi-tests/): the MPI tests at P = 16, 32, 64 and the tools (cluster-16x4)"
    cmake -S . -B build-smpi-tests -DLLC_MPI=smpi -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" \
        -DLLC_WARNINGS_AS_ERRORS=ON -DLLC_BUILD_TOOLS=ON -DLLC_BUILD_EXAMPLES=OFF -DLLC_BUILD_BENCHMARKS=OFF
    cmake --build build-smpi-tests -j "$LLC_JOBS"
}

# Background builds: each in a process group of its own at a nice level, its output kept in a log that is printed when
# it is waited for. If the run fails (`set -e`), the trap ends them: no build outlives the run.
background_pids=()
background_logs=()
trap 'for pid in "${background_pids[@]}"; do kill -- "-$pid" 2> /dev/null || true; done
      rm -f "$times_file" "${background_logs[@]}"' EXIT
# start_background NICE FUNCTION: starts FUNCTION at nice NICE; its pid and log are the arrays' last entries.
start_background() {
    local log
    log=$(mktemp)
    background_logs+=("$log")
    set -m  # a process group of its own, so that the trap can end the compilers under it
    (renice -n "$1" -p "$BASHPID" > /dev/null && "$2") > "$log" 2>&1 &
    set +m
    background_pids+=("$!")
}
# wait_background INDEX: waits for that build, prints its output, fails if it failed.
wait_background() {
    local status=0
    wait "${background_pids[$1]}" || status=$?
    cat "${background_logs[$1]}"
    return "$status"
}

# The tests labelled `measures` (the tools' calibrations and validations, which measure until the noise allows) first,
# alone: beside the background builds they took 2-18 times as long (2026-11-27, mpi_llc_probe_minimal.np3 4 -> 73 s,
# mpi_llc_validate_quick.np3 18 -> 111 s), the whole Release ctest 513 -> 1001 s.
phase "Release ctest: the tests that measure, alone" ctest --test-dir build --output-on-failure -j "$LLC_JOBS" \
    -L measures

asan=$([ "${LLC_SKIP_SANITIZERS:-0}" != "1" ] && echo 1 || echo 0)
smpi=$([ "${LLC_SKIP_SMPI:-0}" != "1" ] && echo 1 || echo 0)
asan_index=-1
smpi_index=-1
if [ "$asan" = 1 ]; then
    start_background 10 asan_build
    asan_index=$((${#background_pids[@]} - 1))
fi
if [ "$smpi" = 1 ]; then
    start_background 19 smpi_build
    smpi_index=$((${#background_pids[@]} - 1))
fi
phase "Release ctest: the others, the background builds beside them" ctest --test-dir build --output-on-failure \
    -j "$LLC_JOBS" -LE measures
# A phase's CPU counts a background build's whole CPU time when it is waited for; its wall time is the part of the build
# that outlasted what ran before.
if [ "$asan" = 1 ]; then
    phase "ASan build (the rest of it)" wait_background "$asan_index"
    phase "ASan ctest" asan_ctest
fi
if [ "$smpi" = 1 ]; then
    phase "SMPI build (the rest of it)" wait_background "$smpi_index"
    phase "SMPI ctest" ctest --test-dir build-smpi-tests --output-on-failure -j "$LLC_JOBS"
fi
times > "$times_file"
echo "== time: total: wall $((SECONDS - run_start)) s, cpu $(cpu_so_far) s"
