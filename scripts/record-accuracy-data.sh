#!/usr/bin/env bash
# Records the data of the accuracy gate (tests/data/accuracy, the ctest `accuracy_gate`): a quick profile of this
# machine and one `llc-validate --sizes SIZES` run on it, at P = the number of cores. The gate prices those recorded
# measurements again with today's cost functions and fails when a case that met at recording time would miss
# (docs/validation.md, "The accuracy gate").
#
#   scripts/record-accuracy-data.sh [SIZES]      (SIZES: small | medium | large; default large)
#
# Run it on a quiet machine (nothing else running: a noisy run records "inconclusive" verdicts, which the gate
# cannot hold), from a Release build (scripts/test.sh or demo.sh made one), and re-record when an algorithm or its
# cost function changes on purpose; commit the four files it writes. It takes about 2 minutes of calibration and
# 5–15 minutes of validation on a 2-core VM. With LLC_REPORT=DIR set, the whole report (and the profile) is kept in
# DIR as well, to compare with other runs (tools/llc-validate/compare_runs.py).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

sizes=${1:-large}
P=$(nproc)
dir=tests/data/accuracy
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --build build -j "$LLC_JOBS" --target llc-probe llc-validate
echo "== Calibrating a quick profile (P = $P)"
# The collectives' ladder up to 96 MiB (a quick profile stops them at 4 MiB): the medium and large sizes (16, 11 and
# 64 MiB) then lie between measured sizes, not beyond them.
ladder=()
if [ "$sizes" != small ]; then
    ladder=(--collective-max-bytes 100663296)
fi
mpirun --oversubscribe -np "$P" build/bin/llc-probe --quick "${ladder[@]}" --quiet --out "$work/profile.json"
# As scripts/demo.sh: a profile whose processors ran the kernel probes unevenly (--inspect exits 4) is made once more.
status=0
build/bin/llc-probe --inspect "$work/profile.json" > /dev/null || status=$?
if [ "$status" = 4 ]; then
    echo "== The processors ran unevenly through that calibration: calibrating once more"
    mpirun --oversubscribe -np "$P" build/bin/llc-probe --quick "${ladder[@]}" --quiet --out "$work/profile.json"
fi
build/bin/llc-probe --inspect "$work/profile.json" | grep '^processors:' || true
echo "== llc-validate --sizes $sizes (P = $P)"
mpirun --oversubscribe -np "$P" build/bin/llc-validate --profile "$work/profile.json" --sizes "$sizes" \
    --out "$work/report" --no-plots | tail -n 1

mkdir -p "$dir"
cp "$work/profile.json" "$dir/profile.json"
cp "$work/report/results.csv" "$work/report/verdicts.csv" "$work/report/summary.md" "$dir/"
{
    echo "Recorded by scripts/record-accuracy-data.sh $sizes on $(date -u +%Y-%m-%dT%H:%MZ), P = $P,"
    echo "llc $(git describe --always --dirty 2>/dev/null || echo '?'), host $(uname -n), $(nproc) cores."
} >"$dir/RECORDED"
if [ -n "${LLC_REPORT:-}" ]; then
    mkdir -p "$LLC_REPORT"
    cp -r "$work/report/." "$LLC_REPORT/"
    cp "$work/profile.json" "$LLC_REPORT/profile.json"
fi
echo "== Recorded in $dir: $(head -n 1 "$dir/summary.md")"
