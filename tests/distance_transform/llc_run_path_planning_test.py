"""llc-run path-planning end to end: outputs against a Dijkstra written here (an independent oracle), --json fields,
exit codes and messages.

Usage: llc_run_path_planning_test.py LLC_RUN MPIEXEC WORKDIR   (run by CTest with Debian's /usr/bin/python3)
"""
import heapq
import json
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("path-planning")
llc_run, mpiexec, workdir = cli.llc_run, cli.mpiexec, cli.workdir
run, check, failures = cli.run, cli.check, cli.failures


def dijkstra(tc, sources):
    h, w = tc.shape
    f = np.full(tc.shape, math.inf)
    queue = []
    for r, c in sources:
        f[r, c] = 0.0
        heapq.heappush(queue, (0.0, r, c))
    while queue:
        d, r, c = heapq.heappop(queue)
        if d > f[r, c]:
            continue
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                y, x = r + dr, c + dc
                if (dr, dc) == (0, 0) or not (0 <= y < h and 0 <= x < w):
                    continue
                step = (tc[r, c] + tc[y, x]) / 2 * (math.sqrt(2) if dr and dc else 1)
                if d + step < f[y, x]:
                    f[y, x] = d + step
                    heapq.heappush(queue, (f[y, x], y, x))
    return f


rng = np.random.default_rng(5)
tc = rng.integers(0, 9, (23, 17)).astype(np.float64)
tc[rng.random(tc.shape) < 0.1] = math.inf
tc[0, 0] = 1.0
path = os.path.join(workdir, "costs.raw")
tc.astype("<f8").tofile(path)
want = dijkstra(tc, [(0, 0), (22, 8)])
for P in (1, 2, 3):
    out = os.path.join(workdir, f"out-{P}.raw")
    r = run(P, "--input", path, "--width", "17", "--height", "23", "--source", "0,0", "--source", "22,8", "--r", "2",
            "--k", "5", "--output", out, "--repeat", "1", "--json")
    check(r.returncode == 0, f"P={P}: exit {r.returncode}: {r.stderr}")
    if r.returncode != 0:
        continue
    report = json.loads(r.stdout.strip().splitlines()[-1])
    check(report["sweeps"] >= 2 and report["width"] == 17 and report["height"] == 23, f"P={P}: {report}")
    got = np.fromfile(out, dtype="<f8").reshape(tc.shape)
    same = np.isclose(got, want, rtol=1e-9, atol=0) | (np.isinf(got) & np.isinf(want))
    check(same.all(), f"P={P}: differs from Dijkstra at {np.argwhere(~same)[:3].tolist()}")
    check(report["unreachable"] == int(np.isinf(want).sum()), f"P={P}: unreachable {report['unreachable']}")

# Bad input: exit status 2, a message naming the argument, the file or the pixel.
bad = tc.copy()
bad[3, 4] = math.nan
bad_path = os.path.join(workdir, "nan.raw")
bad.astype("<f8").tofile(bad_path)
for args, fragment in ((["--input", path, "--width", "17", "--height", "22", "--source", "0,0"], "costs.raw"),
                       (["--input", bad_path, "--width", "17", "--height", "23", "--source", "0,0"], "(3, 4)"),
                       (["--input", path, "--width", "17", "--height", "23", "--source", "23,0"], "sources[0]"),
                       (["--input", path, "--width", "17", "--height", "23", "--source", "a,b"], "--source"),
                       (["--input", path, "--width", "17", "--height", "23"], "--source"),
                       (["--input", path, "--source", "0,0"], "--width"),
                       (["--n", "16", "--source", "0,0", "--r", "0"], "--r")):
    r = run(2, *args)
    check(r.returncode == 2, f"{args}: exit {r.returncode}, expected 2: {r.stderr}")
    check(fragment in r.stderr, f"{args}: message does not name {fragment}: {r.stderr}")

cli.finish()
