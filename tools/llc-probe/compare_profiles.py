#!/usr/bin/env python3
"""Key-by-key ratios of two llc-probe profiles (B / A): did a change of the probe move what it measures?

    tools/llc-probe/compare_profiles.py A.json B.json [--group PREFIX ...] [--list]

Kernel constants are compared by key ("lockstep.excess.*" apart: a dimensionless excess near 0, not a time); the
collectives by the median of each cell's samples (op, p, bytes) in the samples CSV beside each profile
(profile.samples.csv), when both have one. Keys are grouped by their family (the key without its ".2^k" size, and
"collective <op> p=<p>"), or by the --group prefixes given (the rest in one group "other"); per group it prints the
number of keys, the median and P90 of |B/A - 1| and the median B/A. Two calibrations of one build made back to back
give the noise to judge a change by: compare old/new pairs against old/old or new/new pairs.
"""
import argparse
import collections
import csv
import json
import math
import os
import re
import statistics
import sys


def kernels(path):
    with open(path) as f:
        k = json.load(f)["kernels"]
    return {key: v["seconds_per_unit"] for key, v in k.items() if not key.startswith("lockstep.")}


def cell_medians(profile_path):
    samples = re.sub(r"\.json$", "", profile_path) + ".samples.csv"
    if not os.path.exists(samples):
        return {}
    cells = collections.defaultdict(list)
    with open(samples) as f:
        for row in csv.DictReader(f):
            if row["kind"] != "kernel":
                cells[f"{row['kind']} {row['op']} p={row['p']} {row['bytes']} B"].append(float(row["seconds"]))
    return {key: statistics.median(v) for key, v in cells.items()}


def family(key):
    if " B" in key:  # a cell: "kind op p=P bytes B"
        return " ".join(key.split(" ")[:3])
    return re.sub(r"\.2\^\d+$", "", key)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--group", action="append", default=[], help="a key prefix to group by (repeatable)")
    parser.add_argument("--list", action="store_true", help="print every key's ratio too")
    args = parser.parse_args()
    try:
        a = {**kernels(args.a), **cell_medians(args.a)}
        b = {**kernels(args.b), **cell_medians(args.b)}
    except (OSError, ValueError, KeyError) as e:
        print(f"compare_profiles.py: cannot read a profile: {e}", file=sys.stderr)
        return 2
    groups = collections.defaultdict(list)
    for key in sorted(set(a) & set(b)):
        if a[key] > 0 and b[key] > 0:
            name = next((g for g in args.group if key.startswith(g)), "other" if args.group else family(key))
            groups[name].append((key, b[key] / a[key]))
    print(f"{'group':44s} {'keys':>5s} {'median |B/A-1|':>15s} {'P90':>7s} {'median B/A':>10s}")
    for name, rows in sorted(groups.items()):
        dev = sorted(abs(math.log(r)) for _, r in rows)
        p90 = dev[min(len(dev) - 1, int(0.9 * len(dev)))]
        print(f"{name:44s} {len(rows):5d} {100 * (math.exp(statistics.median(dev)) - 1):14.1f}% "
              f"{100 * (math.exp(p90) - 1):6.1f}% {statistics.median(r for _, r in rows):10.3f}")
        if args.list:
            for key, r in rows:
                print(f"    {key:60s} {r:.3f}")
    only = sorted(set(a) ^ set(b))
    if only:
        print(f"in one profile only ({len(only)}): {', '.join(only[:20])}{' …' if len(only) > 20 else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
