#!/usr/bin/env bash
# scripts/scale-validate.sh PLATFORM.xml [HOSTFILE] (default: made from the platform's cluster, a node's name once
# per core): the CCM's, BSP's and Hockney's error at P = 4, 8, 16, 32, 64 on
# a simulated cluster (SimGrid SMPI), twice (docs/scaling.md, "Validation at scale"):
#   (a) every P with a profile probed on the platform at that P: llc-probe and llc-validate --p P, both at -np P;
#   (b) the same measurements priced again (llc-validate --reprice) by the profile probed at P = BASE (default 4),
#       which the CCM extrapolates linearly in log P beyond BASE (flagged "extrapolated" in the results).
# Writes OUT/scale.md (one table per case × P for (a) and (b), the extrapolated share, the wall and CPU time of each
# simulation), OUT/scale.csv and OUT/strong_scaling.png (predicted and simulated time against P at one size).
#
# Environment (all optional):
#   LLC_SCALE_PS       the P to run (default "4 8 16 32 64"); LLC_SCALE_BASE the P of profile (b) (default 4)
#   LLC_SCALE_OUT      report directory (default build-smpi/scale-report)
#   LLC_SCALE_BIN      where llc-probe and llc-validate are (default build-smpi/bin: the -DLLC_MPI=smpi build)
#   LLC_SCALE_SIZES    llc-validate --sizes (default small); LLC_SCALE_ALGORITHMS llc-validate --algorithms
#   LLC_SCALE_PROBE_LARGE, LLC_SCALE_LARGE_P  llc-probe options of the probes at P ≥ LLC_SCALE_LARGE_P (default 32)
#                      instead of LLC_SCALE_PROBE, when set: a smaller message ladder for the large P, whose probe's
#                      wall time grows with P (docs/scaling.md says which ladder the results used)
#   LLC_SCALE_RESUME   1: keep OUT's profiles (OUT/profile-P<P>.json, OUT/profile-kernels.json) and validations
#                      (OUT/a-P<P>/results.csv) that exist, and OUT/wall-times.csv, and run only the missing steps (a
#                      run stopped early, or probes run by hand with the same options)
#   LLC_SCALE_PROBE    extra llc-probe options of the probes at P (default --quick); LLC_SCALE_VALIDATE (default
#                      --quick). The probes at P measure the collectives only (--no-kernels is added): the kernel
#                      constants, host-timed bursts that SMPI charges as they ran here, come from one profile:
#   LLC_SCALE_KERNELS  a profile whose kernel constants (and meta.llc_bytes) go into every profile at P where it has
#                      none (e.g. one probed natively: mpirun -np 1 build/bin/llc-probe --quick --out k.json); default:
#                      probed once under the launcher at P = 1 (LLC_SCALE_KERNEL_PROBE, default --quick --quiet) into
#                      OUT/profile-kernels.json; "none", or --no-kernels in LLC_SCALE_PROBE: no kernel constants
#                      (collectives and broadcasts only, the runs before the algorithms were validated at scale)
#   LLC_SCALE_KERNELS_AT_P  llc-probe --kernels patterns (e.g. 'symv.*'): these kernel probes run in each probe at P,
#                      side by side on the P simulated ranks, and their constants are the profile's own (the merge
#                      above fills in only the rest). Under SMPI the ranks' bursts take turns on one host core, each
#                      finding the caches the other ranks left: a kernel whose bursts the simulation charges so is
#                      priced at P by a probe at P (docs/scaling.md, "How compute time is taken"). Default: 'symv.*'
#                      when simulated (no LLC_SCALE_RUN) with kernels, else none; set and empty: none.
#   LLC_SCALE_LARGEST  1: llc-validate --largest, one size a case (the largest of LLC_SCALE_SIZES: under SMPI every
#                      rank's compute runs on this machine in turn); 0: every size. Default 1 with kernels, else 0.
#   SMPI_COLL_SELECTOR smpi/coll-selector (default ompi: Open MPI's collective algorithms, as the SMPI tests run)
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
    # Open MPI's choices of collective algorithm, as the SMPI tests and the default build run them; SMPI's own
    # default (linear, P² messages) took 779 s to probe and 1131 s to validate the collectives at P = 64.
    cfg+=(--cfg=smpi/coll-selector:"${SMPI_COLL_SELECTOR:-ompi}")
    # Two of SMPI 3.32's ompi choices abort llc-probe: reduce's pipeline ("Actor pid=-1 is gone??" at 1 MiB, P = 4)
    # and alltoall's pair (powers of two only, picked at p = 3). Binomial reduce and ring (pairwise) alltoall are
    # Open MPI's algorithms for those cases too; SMPI_COLL_OVERRIDES replaces the pair (empty: none).
    if [ "${SMPI_COLL_SELECTOR:-ompi}" = ompi ]; then
        # shellcheck disable=SC2206  # a word list on purpose
        cfg+=(${SMPI_COLL_OVERRIDES---cfg=smpi/reduce:binomial --cfg=smpi/alltoall:ring})
    fi
    # smpi_colls: the ompi allreduce logs a line per call where it falls back to its default (megabytes a run).
    run="smpirun -platform $platform -hostfile $hostfile ${cfg[*]} --cfg=smpi/display-timing:yes"
    run="$run --log=smpi_colls.thres:warning -np"
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
kernels=${LLC_SCALE_KERNELS:-probe}
# Simulated, with kernels, symv's kernels are probed at P unless LLC_SCALE_KERNELS_AT_P says otherwise (set and empty:
# none): its ring steps' passes run on data the other ranks' bursts evicted from the host's caches (44-90 us first in
# a burst at P = 16, 11-21 us run again at once), which the kernel probe at P = 1 cannot see (docs/scaling/results.md,
# "What a short compute burst costs under SMPI").
if [ -n "${LLC_SCALE_KERNELS_AT_P+set}" ]; then
    kernels_at_p=$LLC_SCALE_KERNELS_AT_P
elif [ -z "${LLC_SCALE_RUN:-}" ] && [ "$kernels" != none ] && [[ " $probe_opts " != *" --no-kernels "* ]]; then
    kernels_at_p='symv.*'
else
    kernels_at_p=
fi
# The probes at P measure no kernel but LLC_SCALE_KERNELS_AT_P's (an array: its patterns reach llc-probe unglobbed).
kernel_opts=(--no-kernels)
[ -n "$kernels_at_p" ] && kernel_opts=(--kernels "$kernels_at_p")
case " $probe_opts " in
    *" --no-kernels "*)
        kernels=none
        if [ -n "$kernels_at_p" ]; then
            echo "scale-validate.sh: LLC_SCALE_KERNELS_AT_P '$kernels_at_p': not with LLC_SCALE_PROBE's --no-kernels" >&2
            exit 2
        fi
        probe_opts=${probe_opts//--no-kernels/}
        ;;
esac
large_p=${LLC_SCALE_LARGE_P:-32}
probe_large=${LLC_SCALE_PROBE_LARGE:-}
probe_large=${probe_large//--no-kernels/}
largest=1
[ "$kernels" = none ] && largest=0
[ "${LLC_SCALE_LARGEST:-$largest}" = 1 ] && algorithms+=(--largest)
if [ "$kernels" != probe ] && [ "$kernels" != none ] && [ ! -f "$kernels" ]; then
    echo "scale-validate.sh: LLC_SCALE_KERNELS '$kernels': no such profile (a profile file, 'probe' or 'none')" >&2
    exit 2
fi
for tool in llc-probe llc-validate; do
    if [ ! -x "$bin/$tool" ]; then
        echo "scale-validate.sh: LLC_SCALE_BIN '$bin': no $tool there (build with -DLLC_MPI=smpi first)" >&2
        exit 2
    fi
done
mkdir -p "$out"
timings="$out/wall-times.csv"
resume=${LLC_SCALE_RESUME:-0}
[ "$resume" = 1 ] && [ -f "$timings" ] || echo "step,P,wall_s,cpu_s" >"$timings"

# children_cpu: sets cpu_now to the CPU seconds (user + system) of every child this shell has waited for, from bash's
# `times` (its second line), run in this shell (a subshell would count its own children only).
children_cpu() {
    times >"$out/.times"
    cpu_now=$(awk 'NR == 2 { s = 0; for (i = 1; i <= NF; ++i) { split($i, t, "m"); s += t[1] * 60 + t[2] }
                             printf "%.3f", s }' "$out/.times")
}

# step NAME P COMMAND…: runs COMMAND with its output in OUT/NAME-P.log, records its wall time and its CPU time. The
# wall time counts the time the run was stopped (SIGSTOP … SIGCONT, which the run tolerates: SMPI charges a burst its
# thread's CPU time, so a stop changes no simulated time) or waited for the host's cores; the CPU time does not.
step() {
    local name=$1 p=$2
    shift 2
    local start end cpu_start
    children_cpu
    cpu_start=$cpu_now
    start=$(date +%s.%N)
    # smpirun exits 0 when a rank called MPI_Abort (llc's fatal errors do): its log says so.
    if ! "$@" >"$out/$name-P$p.log" 2>&1 || grep -q "MPI_Abort was called" "$out/$name-P$p.log"; then
        echo "scale-validate.sh: $name at P = $p failed; see $out/$name-P$p.log" >&2
        tail -20 "$out/$name-P$p.log" >&2
        exit 1
    fi
    end=$(date +%s.%N)
    children_cpu
    local wall cpu
    wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
    cpu=$(awk -v a="$cpu_start" -v b="$cpu_now" 'BEGIN { printf "%.1f", b - a }')
    echo "$name,$p,$wall,$cpu" >>"$timings"
    echo "== $name at P = $p: $wall s wall, $cpu s CPU"
}

echo "== scale-validate: P = $ps, base profile P = $base, host speed $speed, kernels $kernels," \
    "kernels probed at P: ${kernels_at_p:-none}, load: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$kernels" = probe ]; then
    if [ "$resume" = 1 ] && [ -f "$out/profile-kernels.json" ]; then
        echo "== kernel probe at P = 1: kept $out/profile-kernels.json (LLC_SCALE_RESUME)"
    else
        # shellcheck disable=SC2086  # $run and the option strings are word lists on purpose
        step kernels 1 $run 1 "$bin/llc-probe" ${LLC_SCALE_KERNEL_PROBE:---quick --quiet} \
            --out "$out/profile-kernels.json"
    fi
    kernels=$out/profile-kernels.json
fi
# probe P: the profile at P (collectives, and the kernels of LLC_SCALE_KERNELS_AT_P), then the kernel constants merged
# into it where it has none (its lockstep tables, measured with the collectives at its own p, and its own kernel
# constants stay), as llc-validate --reprice-supplement fills a profile in.
probe() {
    local p=$1 opts=$probe_opts
    [ -n "$probe_large" ] && [ "$p" -ge "$large_p" ] && opts=$probe_large
    if [ "$resume" = 1 ] && [ -f "$out/profile-P$p.json" ]; then
        echo "== probe at P = $p: kept $out/profile-P$p.json (LLC_SCALE_RESUME)"
    else
        # shellcheck disable=SC2086  # $run and the option strings are word lists on purpose
        step probe "$p" $run "$p" "$bin/llc-probe" $opts "${kernel_opts[@]}" --out "$out/profile-P$p.json"
    fi
    [ "$kernels" = none ] && return 0
    /usr/bin/python3 - "$out/profile-P$p.json" "$kernels" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    profile = json.load(f)
with open(sys.argv[2]) as f:
    source = json.load(f)
added = {k: v for k, v in source.get("kernels", {}).items() if k not in profile.setdefault("kernels", {})}
profile["kernels"].update(added)
if not profile.setdefault("meta", {}).get("llc_bytes", 0) > 0 and "llc_bytes" in source.get("meta", {}):
    profile["meta"]["llc_bytes"] = source["meta"]["llc_bytes"]
with open(sys.argv[1], "w") as f:
    json.dump(profile, f, indent=1, sort_keys=True)
print(f"== {sys.argv[1]}: {len(added)} kernel constants from {sys.argv[2]}")
PY
}

# The base profile first, then each P in turn (probe, validate, reprice), so that a run stopped early has every
# step of the P it finished (scale_report.py reports the P whose results exist).
probe "$base"
# shellcheck disable=SC2086
for p in $ps; do
    [ "$p" = "$base" ] || probe "$p"
    if [ "$resume" = 1 ] && [ -f "$out/a-P$p/results.csv" ]; then
        echo "== validate at P = $p: kept $out/a-P$p (LLC_SCALE_RESUME)"
    else
        step validate "$p" $run "$p" "$bin/llc-validate" $validate_opts --no-plots --sizes "$sizes" "${algorithms[@]}" \
        --p "$p" --profile "$out/profile-P$p.json" --out "$out/a-P$p"
    fi
    # (b): the same measurements, priced by the base profile; no simulation, but the SMPI binary needs smpirun.
    step reprice "$p" $run 1 "$bin/llc-validate" --no-plots --reprice "$out/a-P$p" \
        --profile "$out/profile-P$base.json" --out "$out/b-P$p"
done
# shellcheck disable=SC2086
/usr/bin/python3 scripts/scale_report.py "$out" "$base" $ps
echo "Report: $out/scale.md  $out/scale.csv  $out/strong_scaling.png  $out/wall-times.csv"
