"""llc-run symv on input files: a matrix whose upper triangle is garbage (only the lower one may be read) and x,
against numpy's product of the symmetric matrix the lower triangle defines (an independent oracle), at P = 1, 2, 3
and both mappings; --output as raw float64; and the size errors naming the file.

Usage: llc_run_symv_files_test.py LLC_RUN MPIEXEC WORKDIR   (run by CTest with Debian's /usr/bin/python3)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("symv")
llc_run, mpiexec, workdir = cli.llc_run, cli.mpiexec, cli.workdir
run, check, failures = cli.run, cli.check, cli.failures


rng = np.random.default_rng(7)
for n in (1, 2, 7, 40):
    lower = np.tril(rng.uniform(-1.0, 1.0, (n, n)))
    symmetric = lower + np.tril(lower, -1).T
    stored = lower + np.triu(np.full((n, n), 1e300), 1)  # the upper triangle must not be read
    x = rng.uniform(-1.0, 1.0, n)
    a_path = os.path.join(workdir, f"a{n}.raw")
    x_path = os.path.join(workdir, f"x{n}.raw")
    y_path = os.path.join(workdir, f"y{n}.raw")
    stored.astype("<f8").tofile(a_path)
    x.astype("<f8").tofile(x_path)
    expected = 2.5 * symmetric @ x
    for P in (1, 2, 3):
        for mapping in ("reflection", "standard"):
            if os.path.exists(y_path):
                os.remove(y_path)
            r = run(P, "--matrix", a_path, "--vector", x_path, "--alpha", "2.5", "--beta", "3", "--mapping", mapping,
                    "--repeat", "1", "--check", "--output", y_path)
            what = f"n = {n}, P = {P}, {mapping}"
            check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr.strip()}")
            check("(ok)" in r.stdout, f"{what}: --check did not pass: {r.stdout.strip()}")
            if os.path.exists(y_path):
                y = np.fromfile(y_path, dtype="<f8")
                check(y.shape == (n,), f"{what}: output has {y.shape[0]} values")
                if y.shape == (n,):
                    bound = 4 * n * np.finfo(float).eps * (2.5 * np.abs(symmetric) @ np.abs(x)) + 1e-300
                    check(np.all(np.abs(y - expected) <= bound), f"{what}: y differs from numpy beyond 4nε|A||x|")
            else:
                check(False, f"{what}: no output file")

# Sizes that do not fit: a vector of 3 values with a 4 × 4 matrix, a vector of 5 bytes, a missing file.
x3 = os.path.join(workdir, "x3.raw")
np.zeros(3).astype("<f8").tofile(x3)
a4 = os.path.join(workdir, "a4.raw")
np.zeros((4, 4)).astype("<f8").tofile(a4)
odd = os.path.join(workdir, "odd.raw")
with open(odd, "wb") as f:
    f.write(b"12345")
for args, fragment in (((a4, x3), "a4.raw"), ((a4, odd), "odd.raw"), ((a4, os.path.join(workdir, "none.raw")), "none.raw")):
    r = run(2, "--matrix", args[0], "--vector", args[1])
    check(r.returncode == 2, f"bad input {args}: exit {r.returncode}, expected 2")
    check(fragment in r.stderr, f"bad input {args}: the message does not name {fragment}: {r.stderr.strip()}")
r = run(2, "--matrix", a4)
check(r.returncode == 2 and "--vector" in r.stderr, f"--matrix alone: exit {r.returncode}: {r.stderr.strip()}")

cli.finish()
