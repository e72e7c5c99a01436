#!/usr/bin/python3
"""How far llc-validate's measurements move from one run to the next: the run-to-run noise floor.

    /usr/bin/python3 tools/llc-validate/compare_runs.py DIR1 DIR2 [DIR3 ...]

Each DIR is an llc-validate report directory (its results.json). For every algorithm, over the points (n, p) that
every run measured and that are not oversubscribed, and over every pair of runs:
|median of run b - median of run a| / median of run a. Printed per algorithm as the median and 90th percentile of
those differences, beside each run's CCM median |error|. A model's error cannot be judged finer than this spread:
with the same binary, profile and machine, a perfect prediction of one run misses the next by as much.
"""
import itertools
import json
import statistics
import sys


def quantile(values, q):
    """Linear interpolation between order statistics (as llc::tools::quantile)."""
    values = sorted(values)
    if not values:
        return float("nan")
    position = q * (len(values) - 1)
    below = int(position)
    above = min(below + 1, len(values) - 1)
    return values[below] + (position - below) * (values[above] - values[below])


def load(directory):
    with open(f"{directory}/results.json") as f:
        data = json.load(f)
    measured, errors = {}, {}
    for r in data["measurements"]:
        if r["oversubscribed"]:
            continue
        key = (r["algorithm"], r["n"], r["p"])
        measured[key] = r["measured_median_s"]
        ccm = r["predictions"].get("ccm", {}).get("relative_error")
        if ccm is not None:
            errors[key] = abs(ccm)
    return measured, errors


def main(directories):
    if len(directories) < 2:
        sys.exit("compare_runs.py: give at least two llc-validate report directories")
    runs = [load(d) for d in directories]
    algorithms = list(dict.fromkeys(key[0] for key in runs[0][0]))
    print(f"{'algorithm':22s} {'points':>6s} {'run-to-run median':>18s} {'P90':>7s}   CCM median |error| per run")
    everything = []
    for algorithm in algorithms:
        common = [k for k in runs[0][0] if k[0] == algorithm and all(k in m for m, _ in runs)]
        differences = [abs(b[k] - a[k]) / a[k] for (a, _), (b, _) in itertools.combinations(runs, 2) for k in common]
        everything += differences
        per_run = [statistics.median([e[k] for k in common if k in e]) if any(k in e for k in common) else float("nan")
                   for _, e in runs]
        print(f"{algorithm:22s} {len(common):6d} {100 * quantile(differences, 0.5):17.1f}% "
              f"{100 * quantile(differences, 0.9):6.1f}%   " + "  ".join(f"{100 * x:5.1f}%" for x in per_run))
    print(f"{'all':22s} {'':6s} {100 * quantile(everything, 0.5):17.1f}% {100 * quantile(everything, 0.9):6.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
