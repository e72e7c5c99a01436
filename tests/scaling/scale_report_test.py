#!/usr/bin/python3
"""scripts/scale_report.py (the tables and the strong-scaling plot of scripts/scale-validate.sh) on a hand-made run:
the medians, the plotted points (OUT/strong_scaling.csv), the picture's existence, a run made in two directories
(--also) and the bad arguments. Every expected number is worked out below from the fixture, not by the script's code.

    scale_report_test.py SOURCE_DIR
"""
import csv
import os
import subprocess
import sys
import tempfile

source = sys.argv[1]
script = os.path.join(source, "scripts/scale_report.py")
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)


def run(*args):
    done = subprocess.run(["/usr/bin/python3", script, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


HEADER = ("algorithm,family,size_unit,n,p,oversubscribed,repetitions,measured_median_s,measured_p10_s,measured_p90_s,"
          "disturbed_samples,raw_median_s,model,predicted_s,relative_error,extrapolated,round_spread,inside_band,"
          "link_canary_s\n")


def write_results(path, rows):
    """rows: (algorithm, n, p, measured, {model: predicted}, extrapolated)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(HEADER)
        for algorithm, n, p, measured, predicted, extrapolated in rows:
            for model, value in predicted.items():
                error = (value - measured) / measured
                f.write(f"{algorithm},fam,n,{n},{p},0,5,{measured},{measured},{measured},0,{measured},{model},{value},"
                        f"{error},{1 if extrapolated else 0},0,1,0\n")


def models(ccm, bsp, hockney):
    return {"ccm": ccm, "bsp": bsp, "hockney": hockney}


with tempfile.TemporaryDirectory() as tmp:
    out, more = os.path.join(tmp, "out"), os.path.join(tmp, "more")
    # Case "ring": sizes 100 and 200 at P = 4 and 16, only 200 at P = 64 (in the second directory): the plot takes
    # n = 200 (measured at the most P: 3) and its three points. At P = 4 its CCM errors are +10 % (n = 100) and
    # -30 % (n = 200): median |error| 20 %. Case "tree": one size, P = 4 and 16.
    write_results(os.path.join(out, "a-P4", "results.csv"), [
        ("ring", 100, 4, 1.0, models(1.1, 2.0, 0.5), False),
        ("ring", 200, 4, 2.0, models(1.4, 4.0, 1.0), False),
        ("tree", 50, 4, 0.5, models(0.5, 0.75, 0.25), False),
        ("tie", 10, 4, 0.1, models(0.1, 0.1, 0.1), False),
        ("tie", 20, 4, 0.2, models(0.2, 0.2, 0.2), False)])
    write_results(os.path.join(out, "b-P4", "results.csv"), [
        ("ring", 100, 4, 1.0, models(1.1, 2.0, 0.5), False),
        ("ring", 200, 4, 2.0, models(1.4, 4.0, 1.0), False),
        ("tree", 50, 4, 0.5, models(0.5, 0.75, 0.25), False)])
    write_results(os.path.join(out, "a-P16", "results.csv"), [
        ("ring", 100, 16, 0.5, models(0.55, 1.0, 0.25), False),
        ("ring", 200, 16, 1.0, models(0.9, 2.0, 0.5), False),
        ("tree", 50, 16, 0.25, models(0.3, 0.5, 0.125), False)])
    write_results(os.path.join(out, "b-P16", "results.csv"), [
        ("ring", 100, 16, 0.5, models(0.25, 1.0, 0.25), True),
        ("ring", 200, 16, 1.0, models(0.5, 2.0, 0.5), True),
        ("tree", 50, 16, 0.25, models(0.2, 0.5, 0.125), True)])
    write_results(os.path.join(more, "a-P64", "results.csv"), [("ring", 200, 64, 0.4, models(0.3, 0.8, 0.2), False)])
    write_results(os.path.join(more, "b-P64", "results.csv"), [("ring", 200, 64, 0.4, models(0.1, 0.8, 0.2), True)])
    with open(os.path.join(out, "wall-times.csv"), "w") as f:
        f.write("step,P,wall_s,cpu_s\nprobe,4,1.5,1.25\nvalidate,4,2.0,1.0\n")
    with open(os.path.join(more, "wall-times.csv"), "w") as f:
        f.write("step,P,wall_s\nvalidate,64,3.25\n")

    status, stdout, stderr = run("--also", more, out, "4", "4", "16", "64")
    expect(status == 0, f"exit {status} on the fixture: {stderr}")
    md = open(os.path.join(out, "scale.md")).read() if status == 0 else ""
    # (a) ring: P = 4 CCM |errors| 10 %, 30 % → 20; BSP 100 %, 100 % → 100; Hockney 50 %, 50 % → 50. P = 16: CCM
    # 10 %, 10 % → 10. P = 64 (from --also): CCM 25 %, BSP 100 %, Hockney 50 %.
    expect("| ring | 20 / 100 / 50 | 10 / 100 / 50 | 25 / 100 / 50 |" in md, "(a) row of ring")
    # (b) ring at 16: CCM 50 %, 50 % → 50, all extrapolated (100); at 64: 75 %.
    expect("| ring | 20 / 100 / 50 (0) | 50 / 100 / 50 (100) | 75 / 100 / 50 (100) |" in md, "(b) row of ring")
    # tie: two sizes at P = 4 only, both exact: the plot takes the larger.
    expect("| tie | 0 / 0 / 0 |  |  |" in md, "(a) row of tie")
    # tree: (a) P = 4 0 / 50 / 50, P = 16 20 / 100 / 50; not at 64 (empty cell).
    expect("| tree | 0 / 50 / 50 | 20 / 100 / 50 |  |" in md, "(a) row of tree")
    # Median over cases of the CCM at each P: P = 4 median(20, 0, 0) = 0, P = 16 median(10, 20) = 15, P = 64 25.
    expect("| **median over cases (CCM)** | 0 | 15 | 25 |" in md, "(a) median over cases")
    expect("Goal (b), CCM median ≤ 20 % at P = 64: 1 cases miss: ring." in md, "goal (b) at the last P")
    # A run that recorded CPU time (out) and one of the runs before it (more, wall time only).
    expect("| probe | 4 | 1.5 | 1.2 |" in md or "| probe | 4 | 1.5 | 1.3 |" in md, "wall and CPU time of a step")
    expect("| validate | 64 | 3.2 | — |" in md or "| validate | 64 | 3.3 | — |" in md, "wall times of --also")

    points = {}
    path = os.path.join(out, "strong_scaling.csv")
    if os.path.exists(path):
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                points[(r["case"], int(r["p"]))] = r
    expect(sorted(points) == [("ring", 4), ("ring", 16), ("ring", 64), ("tie", 4), ("tree", 4), ("tree", 16)],
           f"plotted points {sorted(points)}")
    expect(points.get(("tie", 4), {}).get("n") == "20", "a tie in P is broken by the larger size")
    ring64 = points.get(("ring", 64), {})
    expect(ring64.get("n") == "200", "ring plotted at n = 200, the size measured at the most P")
    expect([float(ring64.get(k, "nan")) for k in ("simulated_s", "ccm_a_s", "ccm_b_s", "bsp_s", "hockney_s")]
           == [0.4, 0.3, 0.1, 0.8, 0.2], f"ring's point at P = 64: {ring64}")
    ring4 = points.get(("ring", 4), {})
    expect(float(ring4.get("simulated_s", "nan")) == 2.0 and float(ring4.get("ccm_a_s", "nan")) == 1.4,
           f"ring's point at P = 4 is n = 200's: {ring4}")
    png = os.path.join(out, "strong_scaling.png")
    expect(os.path.exists(png) and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", "strong_scaling.png is a PNG")
    if os.path.exists(png):
        # The curves are drawn: pixels of matplotlib's first cycle colour (CCM (a), #1f77b4) are there, which no
        # axis, label or title uses.
        import matplotlib.image
        image = matplotlib.image.imread(png)
        rgb = image[:, :, :3]
        c0 = (rgb[:, :, 0] - 0x1f / 255) ** 2 + (rgb[:, :, 1] - 0x77 / 255) ** 2 + (rgb[:, :, 2] - 0xb4 / 255) ** 2
        expect(int((c0 < 0.01).sum()) > 100, f"CCM (a)'s curves drawn: {int((c0 < 0.01).sum())} pixels of its colour")

    # Without --also, P = 64 has no data: ring is plotted at n = 200 still (2 points) and no row has P = 64.
    status, _, _ = run(out, "4", "4", "16", "64")
    with open(path, newline="") as f:
        ps = [int(r["p"]) for r in csv.DictReader(f) if r["case"] == "ring"]
    expect(status == 0 and ps == [4, 16], f"without --also: exit {status}, ring at P = {ps}")

    for args, what in ((["--also", os.path.join(tmp, "missing"), out, "4", "4"], "--also"),
                       ([os.path.join(tmp, "missing"), "4", "4"], "OUT"), ([out, "four", "4"], "BASE"),
                       ([out, "4", "0"], "P"), ([out], "OUT and BASE")):
        status, _, stderr = run(*args)
        expect(status == 2 and what in stderr, f"bad {what}: exit {status}, stderr {stderr!r}")

for f in failures:
    print("FAILED:", f)
print(f"scale_report_test: {len(failures)} failures")
sys.exit(1 if failures else 0)
