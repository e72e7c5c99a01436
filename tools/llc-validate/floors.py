#!/usr/bin/python3
"""The noise floor of llc-validate runs, as the verdict rule defines it (docs/validation.md), over whole runs.

    /usr/bin/python3 tools/llc-validate/floors.py DIR [DIR ...]

Each DIR is an llc-validate report directory. Its verdicts.csv holds per case and group (p = 1, p > 1) the floor:
the median of the points' round spreads. Printed per DIR and group: the median of the floors over the cases, their
range, and how many cases have a floor of at most 5 % (issue #32's goal: every case); then the cases above 5 %,
worst first. With two or more DIRs (say a run with --slices 1 and one with --slices 3, made one after the other), the
last lines hold each case's floors side by side. Exit status 0; 2 on bad arguments or a DIR without verdicts.csv.
"""
import csv
import statistics
import sys

GOAL = 0.05  # issue #32: a floor of at most 5 % for every case


def load(directory):
    """{(case, group): floor} from DIR/verdicts.csv; groups not run (no floor) left out."""
    floors = {}
    with open(f"{directory}/verdicts.csv") as f:
        for row in csv.DictReader(f):
            text = row.get("floor_median", "")
            try:
                value = float(text)
            except ValueError:
                continue
            if value == value:  # not NaN
                floors[(row["algorithm"], row["processors"])] = value
    return floors


def group_lines(directory, floors):
    lines = []
    for group in ("p = 1", "p > 1"):
        values = sorted(((v, c) for (c, g), v in floors.items() if g == group), reverse=True)
        if not values:
            continue
        numbers = [v for v, _ in values]
        lines.append(f"{directory}  {group}: floor median over {len(numbers)} cases "
                     f"{100 * statistics.median(numbers):.1f} % (range {100 * min(numbers):.1f}–"
                     f"{100 * max(numbers):.1f} %; {sum(v <= GOAL for v in numbers)} of {len(numbers)} ≤ 5 %)")
        above = [f"{c} {100 * v:.1f}" for v, c in values if v > GOAL]
        if above:
            lines.append("    above 5 %: " + ", ".join(above))
    return lines


def main(argv):
    if len(argv) < 2 or any(a.startswith("-") for a in argv[1:]):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    runs = []
    for directory in argv[1:]:
        try:
            runs.append((directory, load(directory)))
        except OSError as e:
            print(f"floors.py: {directory}: {e}", file=sys.stderr)
            return 2
    for directory, floors in runs:
        print("\n".join(group_lines(directory, floors)))
    if len(runs) > 1:
        keys = sorted(set().union(*(f.keys() for _, f in runs)))
        print("\ncase | group | " + " | ".join(d for d, _ in runs))
        for key in keys:
            cells = [f"{100 * f[key]:.1f} %" if key in f else "-" for _, f in runs]
            print(f"{key[0]} | {key[1]} | " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
