#!/usr/bin/env bash
# The main job: installs what is missing, builds (Release), calibrates a quick machine profile if there is none (or
# if the one there lacks a measurement of this build), runs llc-validate --quick on every algorithm at P = the number
# of cores, and prints the predicted-vs-measured summary and where the report and plots are; its last line is the
# count of cases that meet, miss and are inconclusive under the verdict rule (docs/validation.md). Exit status
# non-zero if anything failed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

scripts/install-deps.sh

echo "== Build (Release, build/)"
# LLC_NATIVE=ON: the demo measures and predicts this machine, so it builds for this machine's CPU (an installed llc is
# portable unless asked; docs/embedding.md). test.sh configures build/ the same way, so the two share one build.
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DLLC_NATIVE=ON >/dev/null
cmake --build build -j "$LLC_JOBS" --target llc-probe llc-validate llc-run

P=$(nproc)
profile=${LLC_PROFILE:-build/profile-quick.json}
out=${LLC_REPORT:-build/validate-report}

# A profile is reused if this build can price everything from it and its processors ran at one speed; one made by an
# older build that lacks a measurement added since (llc-probe --inspect exits 3), or whose processors ran the kernel
# probes unevenly (exit 4: one was slowed by another guest through much of the calibration, and p > 1 would be priced
# at its speed; tools/common/include/llc/tools/timing.hpp, processors_even_tolerance), is calibrated again. A fresh
# profile that comes out uneven is calibrated once more; the second is kept whatever it says (its line says so).
if [ -f "$profile" ] && build/bin/llc-probe --inspect "$profile"; then
    echo "== Using the machine profile $profile (delete it to calibrate again)"
else
    echo "== Calibrating a quick profile of this machine ($profile, P = $P)"
    mpirun --oversubscribe -np "$P" build/bin/llc-probe --quick --out "$profile"
    status=0
    build/bin/llc-probe --inspect "$profile" > /dev/null || status=$?
    if [ "$status" = 4 ]; then
        echo "== The processors ran unevenly through that calibration: calibrating once more"
        mpirun --oversubscribe -np "$P" build/bin/llc-probe --quick --out "$profile"
    fi
fi

echo "== Predicted vs measured: llc-validate --quick at P = $P"
mkdir -p "$out"
mpirun --oversubscribe -np "$P" build/bin/llc-validate --quick --profile "$profile" --out "$out" | tee "$out/run.log"

echo
echo "Report: $out/summary.md (verdicts)  $out/verdicts.csv  $out/results.csv  $out/supersteps.md"
echo "Plots:  $out/predicted_vs_measured.png  $out/error_heatmap.png  $out/superstep_breakdown.png"
echo "Verdict rule: docs/validation.md. Judge timings at p <= $P only; a noisy machine gives 'inconclusive'."
# The last line: the counts of meets / misses / inconclusive (llc-validate's own last line).
grep '^llc-validate: .* meet, ' "$out/run.log" | tail -n 1
