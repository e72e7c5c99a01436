#!/usr/bin/python3
"""How far llc-validate's measurements move from one run to the next: the run-to-run noise floor.

    /usr/bin/python3 tools/llc-validate/compare_runs.py DIR1 DIR2 [DIR3 ...]

Each DIR is an llc-validate report directory (its results.json, or its results.csv where there is no results.json:
the accuracy gate's recorded data in tests/data/accuracy keeps only the CSV files). For every algorithm, over the points (n, p) that
every run measured and that are not oversubscribed, and over every pair of runs:
|median of run b - median of run a| / median of run a. Printed per algorithm as the median and 90th percentile of
those differences, beside each run's CCM median |error|. A model's error cannot be judged finer than this spread:
with the same binary, profile and machine, a perfect prediction of one run misses the next by as much.

Then whether the verdicts travel (each DIR's verdicts.csv: two machines, or two times on one): per case and group
(p = 1, p > 1), each run's verdict and CCM median |error|; the runs agree on a group when every verdict is the same
and the CCM medians lie within 5 points of each other (issue #32). Exit status 0; 2 on bad arguments.
"""
import csv
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
    """(measured medians, CCM |errors|) keyed by (algorithm, n, p), from results.json or else results.csv."""
    try:
        with open(f"{directory}/results.json") as f:
            data = json.load(f)
    except FileNotFoundError:
        return load_csv(directory)
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


def load_csv(directory):
    """As load, from results.csv: one row per point and model."""
    measured, errors = {}, {}
    with open(f"{directory}/results.csv", newline="") as f:
        for r in csv.DictReader(f):
            if r["oversubscribed"] != "0":
                continue
            key = (r["algorithm"], int(r["n"]), int(r["p"]))
            measured[key] = float(r["measured_median_s"])
            if r["model"] == "ccm" and r["relative_error"] != "":
                errors[key] = abs(float(r["relative_error"]))
    return measured, errors


def load_verdicts(directory):
    """(algorithm, processors) -> (verdict, CCM median |error|) from DIR/verdicts.csv ({} for an older report)."""
    try:
        with open(f"{directory}/verdicts.csv", newline="") as f:
            rows = list(csv.DictReader(f))
    except FileNotFoundError:
        return {}
    return {(r["algorithm"], r["processors"]): (r["verdict"], float(r["ccm_median_abs"] or "nan")) for r in rows}


def verdicts_travel(directories):
    """Prints, per case and group, whether the runs' verdicts agree and their CCM medians lie within 5 points."""
    runs = [load_verdicts(d) for d in directories]
    if not all(runs):
        print("\n(no verdicts.csv in every directory: reports older than the verdict rule)")
        return
    groups = [k for k in runs[0] if all(k in r for r in runs)]
    print(f"\n{'case':22s} {'p':6s} {'agree':6s}   verdict and CCM median |error| per run")
    agreeing = 0
    for key in groups:
        verdicts = [r[key][0] for r in runs]
        medians = [r[key][1] for r in runs]
        close = all(m == m for m in medians) and max(medians) - min(medians) <= 0.05
        agree = len(set(verdicts)) == 1 and close
        agreeing += agree
        cells = "  ".join(f"{v:12s} {100 * m:5.1f}%" for v, m in zip(verdicts, medians))
        print(f"{key[0]:22s} {key[1]:6s} {'yes' if agree else 'NO':6s}   {cells}")
    print(f"{agreeing} of {len(groups)} groups agree (same verdict, CCM medians within 5 points)")


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
    verdicts_travel(directories)


if __name__ == "__main__":
    main(sys.argv[1:])
