#!/usr/bin/env bash
# scripts/scale-validate.sh PLATFORM.xml [HOSTFILE] (default: made from the platform's cluster, a node's name once
# per core): the CCM's, BSP's and Hockney's error at P = 4, 8, 16, 32, 64 on
# a simulated cluster (SimGrid SMPI), twice (docs/scaling.md, "Validation at scale"):
#   (a) every P with a profile probed on the platform at that P: llc-probe and llc-validate --p P, both at -np P;
#   (b) the same measurements priced again (llc-validate --reprice) by the profile probed at P = BASE (default 4),
#       which the CCM extrapolates linearly in log P beyond BASE (flagged "extrapolated" in the results).
# Writes OUT/scale.md (one table per case × P for (a) and (b), the extrapolated share, the wall time of each
# simulation), OUT/scale.csv and OUT/strong_scaling.png (predicted and simulated time against P at one size).
#
# Environment (all optional):
#   LLC_SCALE_PS       the P to run (default "4 8 16 32 64"); LLC_SCALE_BASE the P of profile (b) (default 4)
#   LLC_SCALE_OUT      report directory (default build-smpi/scale-report)
#   LLC_SCALE_BIN      where llc-probe and llc-validate are (default build-smpi/bin: the -DLLC_MPI=smpi build)
#   LLC_SCALE_SIZES    llc-validate --sizes (default small); LLC_SCALE_ALGORITHMS llc-validate --algorithms
#   LLC_SCALE_PROBE    extra llc-probe options (default --quick); LLC_SCALE_VALIDATE (default --quick)
#   SMPI_HOST_SPEED    smpi/host-speed in flop/s (default: the platform's first host speed, so that a compute burst
#                      timed on this machine lasts as long in the simulation); SMPI_CPU_THRESHOLD smpi/cpu-threshold
#   LLC_SCALE_RUN      the launcher up to and including "-np" (default: smpirun on PLATFORM and HOSTFILE); e.g.
#                      "mpirun --oversubscribe -np" runs the same steps on the Open MPI build (the ctest does so).
# Exit status: 0 done, 2 bad arguments, 1 a step failed (its log is in OUT/).
set -euo pipefail
cd "$(dirname "$0")/.."

platform=${1:-}
if [ -z "${LLC_SCALE_RUN:-}" ]; then
    if [ -z "$platform" ] || [ ! -f "$platform" ]; then
        echo "scale-validate.sh: PLATFORM '$platform': no such platform file (e.g. platforms/cluster-16x4.xml)" >&2
        exit 2
    fi
    hostfile=${2:-}
    if [ -z "$hostfile" ]; then
        # From the platform's <cluster>: each node's name as many times as it has cores, nodes in order (ranks
        # 4k … 4k+3 share node k on cluster-16x4), as the SMPI tests place their ranks (docs/scaling.md).
        hostfile=${LLC_SCALE_OUT:-build-smpi/scale-report}/hosts.txt
        mkdir -p "$(dirname "$hostfile")"
        if ! /usr/bin/python3 - "$platform" >"$hostfile" <<'PY'; then
import re, sys
text = open(sys.argv[1]).read()
c = re.search(r"<cluster\b[^>]*>", text)
attr = dict(re.findall(r'(\w+)="([^"]*)"', c.group(0)))
lo, hi = (int(x) for x in attr["radical"].split("-"))
for n in range(lo, hi + 1):
    print("\n".join([attr.get("prefix", "") + str(n) + attr.get("suffix", "")] * int(attr.get("core", "1"))))
PY
            echo "scale-validate.sh: PLATFORM '$platform': no <cluster> to place ranks on; give a HOSTFILE" >&2
            exit 2
        fi
    elif [ ! -f "$hostfile" ]; then
        echo "scale-validate.sh: HOSTFILE '$hostfile': no such file (one host name a line, one line a rank)" >&2
        exit 2
    fi
    # The first speed="…" of the platform: a burst timed on the host then lasts as long in the simulation.
    speed=${SMPI_HOST_SPEED:-$(grep -o 'speed="[^"]*"' "$platform" | head -1 | sed 's/speed="\(.*\)"/\1/')}
    cfg=(--cfg=smpi/host-speed:"${speed:-1Gf}")
    [ -n "${SMPI_CPU_THRESHOLD:-}" ] && cfg+=(--cfg=smpi/cpu-threshold:"$SMPI_CPU_THRESHOLD")
    run="smpirun -platform $platform -hostfile $hostfile ${cfg[*]} --cfg=smpi/display-timing:yes -np"
else
    run=$LLC_SCALE_RUN
    speed="(not simulated)"
fi
ps=${LLC_SCALE_PS:-4 8 16 32 64}
base=${LLC_SCALE_BASE:-4}
out=${LLC_SCALE_OUT:-build-smpi/scale-report}
bin=${LLC_SCALE_BIN:-build-smpi/bin}
sizes=${LLC_SCALE_SIZES:-small}
probe_opts=${LLC_SCALE_PROBE:---quick}
validate_opts=${LLC_SCALE_VALIDATE:---quick}
algorithms=()
[ -n "${LLC_SCALE_ALGORITHMS:-}" ] && algorithms=(--algorithms "$LLC_SCALE_ALGORITHMS")
for tool in llc-probe llc-validate; do
    if [ ! -x "$bin/$tool" ]; then
        echo "scale-validate.sh: LLC_SCALE_BIN '$bin': no $tool there (build with -DLLC_MPI=smpi first)" >&2
        exit 2
    fi
done
mkdir -p "$out"
timings="$out/wall-times.csv"
echo "step,P,wall_s" >"$timings"

# step NAME P COMMAND…: runs COMMAND with its output in OUT/NAME-P.log, records its wall time.
step() {
    local name=$1 p=$2
    shift 2
    local start end
    start=$(date +%s.%N)
    if ! "$@" >"$out/$name-P$p.log" 2>&1; then
        echo "scale-validate.sh: $name at P = $p failed; see $out/$name-P$p.log" >&2
        tail -20 "$out/$name-P$p.log" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    local wall
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    echo "$name,$p,$wall" >>"$timings"
    echo "== $name at P = $p: $wall s wall"
}

echo "== scale-validate: P = $ps, base profile P = $base, host speed $speed, load: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086  # $run and the option strings are word lists on purpose
for p in $(echo "$base $ps" | tr ' ' '\n' | sort -n -u); do
    step probe "$p" $run "$p" "$bin/llc-probe" $probe_opts --out "$out/profile-P$p.json"
done
# shellcheck disable=SC2086
for p in $ps; do
    step validate "$p" $run "$p" "$bin/llc-validate" $validate_opts --no-plots --sizes "$sizes" "${algorithms[@]}" \
        --p "$p" --profile "$out/profile-P$p.json" --out "$out/a-P$p"
    # (b): the same measurements, priced by the base profile; no simulation, but the SMPI binary needs smpirun.
    step reprice "$p" $run 1 "$bin/llc-validate" --no-plots --reprice "$out/a-P$p" \
        --profile "$out/profile-P$base.json" --out "$out/b-P$p"
done
# shellcheck disable=SC2086
/usr/bin/python3 scripts/scale_report.py "$out" "$base" $ps
echo "Report: $out/scale.md  $out/scale.csv  $out/strong_scaling.png  $out/wall-times.csv"
