"""llc-run's output convention, its warnings and the tools' --help layout:
- the extension of --output names the format written: symv .txt/.csv text, .raw/.bin float64 (the same y), the
  deprecated --out text; contour-ranking .raw binary pairs, tracing .txt text;
- a path-planning source on an obstacle is warned about on stderr (and counted in --json), a free one is not;
- `llc-run --help` and `llc-compare --help` list names and descriptions in two columns, wrapped within 80 columns, no
  description running into the names.

Run by CTest as `/usr/bin/python3 output_and_help_test.py LLC_RUN MPIEXEC WORKDIR LLC_COMPARE`.
"""
import json
import math
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
llc_compare = sys.argv.pop()  # the last argument; CliTest reads the three before it
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("")
check = cli.check
workdir = cli.workdir


def run(P, *args):
    cmd = [cli.mpiexec, "--oversubscribe", "--bind-to", "none", "-np", str(P), cli.llc_run, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def path(name):
    return os.path.join(workdir, name)


# symv: one y, four files, the format each extension names.
n = 9
for P in (1, 2, 3):
    outputs = {ext: path(f"y{P}.{ext}") for ext in ("raw", "bin", "txt", "csv")}
    ys = {}
    for ext, out in outputs.items():
        r = run(P, "symv", "--n", str(n), "--seed", "4", "--repeat", "1", "--output", out)
        check(r.returncode == 0, f"symv --output .{ext} at P = {P}: exit {r.returncode}: {r.stderr!r}")
        data = open(out, "rb").read()
        if ext in ("raw", "bin"):
            check(len(data) == 8 * n, f"symv .{ext}: {len(data)} bytes, expected {8 * n} (float64)")
            ys[ext] = list(struct.unpack(f"<{n}d", data)) if len(data) == 8 * n else []
        else:
            try:
                ys[ext] = [float(x) for x in data.decode().split()]
            except ValueError:  # UnicodeDecodeError included: binary where text was asked for
                ys[ext] = []
            check(len(ys[ext]) == n, f"symv .{ext}: not {n} values as text: {data[:40]!r}")
    old = path(f"y{P}.dat")
    r = run(P, "symv", "--n", str(n), "--seed", "4", "--repeat", "1", "--out", old)  # the deprecated spelling
    check(r.returncode == 0, f"symv --out at P = {P}: exit {r.returncode}")
    ys["--out"] = [float(x) for x in open(old).read().split()]
    check(all(v == ys["raw"] for v in ys.values()), f"symv at P = {P}: the outputs differ: {ys}")

# contour-ranking: a ranking as .raw (int32 pairs), a tracing as .txt.
r = run(2, "contour-ranking", "--n", "8", "--density", "1", "--repeat", "1", "--output", path("cr.raw"))
check(r.returncode == 0 and os.path.getsize(path("cr.raw")) == 8 * 8 * 8, "contour-ranking .raw: 64 int32 pairs")
with open(path("ring.pgm"), "wb") as f:
    f.write(b"P5\n4 4\n255\n" + bytes([0, 0, 0, 0, 0, 9, 9, 0, 0, 9, 9, 0, 0, 0, 0, 0]))
r = run(2, "contour-ranking", "--input", path("ring.pgm"), "--repeat", "1", "--output", path("ring.txt"))
check(r.returncode == 0, f"contour-ranking --input --output .txt: exit {r.returncode}: {r.stderr!r}")
text = open(path("ring.txt"), "rb").read() if os.path.exists(path("ring.txt")) else b"\0"
check(text.strip() != b"" and b"\0" not in text, f"contour-ranking tracing .txt is not text: {text[:80]!r}")

# path-planning: 3 × 3 costs 1 with an obstacle at (1, 1); a source there is warned about, one at (0, 0) is not.
with open(path("map.raw"), "wb") as f:
    f.write(struct.pack("<9d", *[math.inf if i == 4 else 1.0 for i in range(9)]))
for P in (1, 2, 3):
    common = ["path-planning", "--input", path("map.raw"), "--width", "3", "--height", "3", "--r", "1", "--repeat", "1",
              "--json"]
    r = run(P, *common, "--source", "1,1", "--source", "0,0")
    check(r.returncode == 0, f"path-planning P = {P}: exit {r.returncode}: {r.stderr!r}")
    check("warning: --source 1,1 lies on an obstacle" in r.stderr, f"P = {P}: no warning for 1,1: {r.stderr!r}")
    check(r.stderr.count("warning") == 1, f"P = {P}: one warning expected: {r.stderr!r}")
    if r.returncode == 0:
        check(json.loads(r.stdout.strip().splitlines()[-1])["sources_on_obstacles"] == 1, f"P = {P}: json count")
    r = run(P, *common, "--source", "0,0")
    check(r.returncode == 0 and "warning" not in r.stderr, f"P = {P}: a free source warned: {r.stderr!r}")


def columns_ok(tool, lines):
    """Every line within 80 columns; each listed name and its description's continuation lines start at one column."""
    listed = [l for l in lines if l.startswith("  ") and not l.startswith("  -")]
    check(listed != [], f"{tool} --help: no list")
    starts = set()
    for line in listed:
        check(len(line) <= 80, f"{tool} --help: line over 80 columns: {line!r}")
        if line.startswith("   "):
            starts.add(len(line) - len(line.lstrip(" ")))  # a continuation line
        else:
            name_end = line.index(" ", 2)
            gap = len(line) - len(line[name_end:].lstrip(" "))
            check(gap - name_end >= 2, f"{tool} --help: description runs into the name: {line!r}")
            starts.add(gap)
    check(len(starts) == 1, f"{tool} --help: descriptions start at columns {sorted(starts)}")


r = run(1, "--help")
check(r.returncode == 0, "llc-run --help: exit 0")
columns_ok("llc-run", r.stdout.split("algorithms:\n", 1)[-1].splitlines())
r = subprocess.run([cli.mpiexec, "-np", "1", llc_compare, "--help"], capture_output=True, text=True, timeout=60)
check(r.returncode == 0, "llc-compare --help: exit 0")
columns_ok("llc-compare", r.stdout.split("comparisons:\n", 1)[-1].splitlines())

cli.finish()
