"""llc-run fft end to end: output files against numpy.fft (an independent oracle), --json fields, exit codes.

Usage: llc_run_fft_test.py LLC_RUN MPIEXEC WORKDIR   (run by CTest with Debian's /usr/bin/python3)
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("fft")
llc_run, mpiexec, workdir = cli.llc_run, cli.mpiexec, cli.workdir
run, check, failures = cli.run, cli.check, cli.failures


rng = np.random.default_rng(7)
for n in (1, 1024, 3000):
    x = rng.uniform(-1, 1, n) + 1j * rng.uniform(-1, 1, n)
    path = os.path.join(workdir, f"in-{n}.bin")
    x.astype("<c16").tofile(path)
    for P in (1, 2, 3):
        for layout, order in (("block", "natural"), ("block", "scrambled"), ("replicated", "natural")):
            for inverse in ((False, True) if n == 3000 else (False,)):
                out = os.path.join(workdir, f"out-{n}-{P}-{layout}-{order}-{inverse}.bin")
                args = ["--input", path, "--layout", layout, "--order", order, "--output", out, "--repeat", "2",
                        "--json"]
                if inverse:
                    args.append("--inverse")
                r = run(P, *args)
                what = f"n={n} P={P} {layout}/{order} inverse={inverse}"
                check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")
                if r.returncode != 0:
                    continue
                report = json.loads(r.stdout.strip().splitlines()[-1])
                check(report["algorithm"] == "fft" and report["P"] == P and report["n"] == n, f"{what}: {report}")
                check(report["predicted_s"] is None and report["measured_s"] > 0, f"{what}: {report}")
                check(report["output"] == out, f"{what}: output {report['output']}")
                y = np.fromfile(out, dtype="<c16")
                expected = np.fft.ifft(x) * n if inverse else np.fft.fft(x)
                error = np.linalg.norm(y - expected) / max(np.linalg.norm(expected), 1e-300)
                check(y.size == n and error <= 1e-12, f"{what}: size {y.size}, relative error {error}")

# Generated input: the same signal at every P (counter-based generator), so outputs agree across P.
outs = []
for P in (1, 2, 4):
    out = os.path.join(workdir, f"gen-{P}.bin")
    r = run(P, "--n", "4096", "--seed", "3", "--output", out, "--repeat", "1")
    check(r.returncode == 0, f"generated P={P}: {r.stderr}")
    outs.append(np.fromfile(out, dtype="<c16"))
check(all(np.allclose(o, outs[0], rtol=0, atol=1e-9) for o in outs), "generated input differs across P")

# Bad arguments and bad input: exit 2, message naming the argument or file.
bad_file = os.path.join(workdir, "bad-17.bin")
with open(bad_file, "wb") as f:
    f.write(b"\0" * 17)
cases = [
    (["--n", "0"], "--n"),
    (["--n", "16", "--input", bad_file], "exactly one"),
    ([], "exactly one"),
    (["--input", os.path.join(workdir, "missing.bin")], "missing.bin"),
    (["--input", bad_file], "bad-17.bin"),
    (["--n", "16", "--layout", "diagonal"], "--layout"),
    (["--n", "16", "--order", "random"], "--order"),
    (["--n", "16", "--repeat", "0"], "--repeat"),
    (["--n", "16", "--output", "/nonexistent-dir/x.bin"], "--output"),
    (["--n", "16", "--profile", os.path.join(workdir, "missing-profile.json")], "--profile"),
    (["--n", "16", "--frobnicate"], "frobnicate"),
]
for args, needle in cases:
    r = run(2, *args)
    check(r.returncode == 2, f"{args}: exit {r.returncode} (expected 2)")
    check(needle in r.stderr, f"{args}: stderr does not name '{needle}': {r.stderr!r}")
check(not os.path.exists("/nonexistent-dir/x.bin"), "output written despite the error")

cli.finish()
