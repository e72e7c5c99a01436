#!/usr/bin/env bash
# scripts/cluster-validate.sh P: calibrate and validate llc on a real cluster (docs/scaling.md, "The cluster path"):
#   1. LLC_LAUNCHER P llc-probe    --out OUT/profile.json    (the profile of this cluster at P, its node layout in
#                                                             meta.machine: ranks per node, from MPI's shared-memory
#                                                             split)
#   2. LLC_LAUNCHER P llc-validate --profile OUT/profile.json --out OUT/validate   (predicted against measured)
# LLC_LAUNCHER is the launcher up to where the process count goes, with "-np"/"-n" included, e.g.
#   LLC_LAUNCHER="srun --mpi=pmix -n"                          (Slurm: in an allocation of enough nodes)
#   LLC_LAUNCHER="mpirun --hostfile hosts.txt -np"             (Open MPI: hosts.txt lists the nodes and their slots)
# (default "mpirun -np"). Placement is the launcher's: llc-probe records which ranks share a node, and the profile's
# T_f(P) are measured in that placement, so run step 2 in the same placement as step 1.
#
# Environment (optional): LLC_CLUSTER_OUT (default build/cluster-report), LLC_CLUSTER_BIN (default build/bin),
# LLC_CLUSTER_PROBE (extra llc-probe options, e.g. --quick), LLC_CLUSTER_VALIDATE (extra llc-validate options, e.g.
# "--quick --sizes medium --algorithms fft --p 4,16,64").
# Exit status: 0 done, 2 bad arguments, otherwise the failing step's status.
set -euo pipefail
cd "$(dirname "$0")/.."

p=${1:-}
if ! [[ "$p" =~ ^[1-9][0-9]*$ ]]; then
    echo "cluster-validate.sh: P '$p': give the number of processes, an integer >= 1" >&2
    exit 2
fi
launcher=${LLC_LAUNCHER:-mpirun -np}
out=${LLC_CLUSTER_OUT:-build/cluster-report}
bin=${LLC_CLUSTER_BIN:-build/bin}
for tool in llc-probe llc-validate; do
    if [ ! -x "$bin/$tool" ]; then
        echo "cluster-validate.sh: LLC_CLUSTER_BIN '$bin': no $tool there (build first)" >&2
        exit 2
    fi
done
mkdir -p "$out"
echo "== llc-probe at P = $p under '$launcher'"
# shellcheck disable=SC2086  # the launcher and the option strings are word lists on purpose
$launcher "$p" "$bin/llc-probe" ${LLC_CLUSTER_PROBE:-} --out "$out/profile.json"
python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["meta"]
print("   ranks per node (meta.nodes):", m.get("nodes", "not recorded"), "-", m["machine"])' "$out/profile.json"
echo "== llc-validate at P = $p under '$launcher'"
# shellcheck disable=SC2086
$launcher "$p" "$bin/llc-validate" ${LLC_CLUSTER_VALIDATE:-} --profile "$out/profile.json" --out "$out/validate"
echo "Report: $out/validate/summary.md  profile: $out/profile.json"
