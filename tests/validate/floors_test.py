#!/usr/bin/python3
"""tools/llc-validate/floors.py on hand-made verdicts (answers worked out below) and on the recorded accuracy data
(the figures the 2026-11-26 closing note quotes for that run: 7.1 % at p = 1, 15.5 % at p > 1).

    floors_test.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

source = sys.argv[1]
script = os.path.join(source, "tools/llc-validate/floors.py")
failures = []


def run(*args):
    done = subprocess.run(["/usr/bin/python3", script, *args], capture_output=True, text=True)
    return done.returncode, done.stdout


def expect(condition, what):
    if not condition:
        failures.append(what)


header = ("algorithm,processors,verdict,points,bound_median,ccm_median_abs,ccm_p90_abs,bsp_median_abs,"
          "hockney_median_abs,floor_median,floor_p90,whole_run_price\n")
with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
    os.makedirs(a)
    os.makedirs(b)
    # p = 1: floors 2 %, 4 %, 8 % → median 4.0 %, 2 of 3 ≤ 5 %, x above; p > 1: one case at 5 % exactly (≤ 5 %); a
    # group without a floor (not run) counts nowhere.
    with open(os.path.join(a, "verdicts.csv"), "w") as f:
        f.write(header)
        f.write("x,p = 1,inconclusive,3,0.1,0.1,0.2,1,1,0.08,0.1,0\n")
        f.write("y,p = 1,meets,3,0.1,0.01,0.02,1,1,0.02,0.03,0\n")
        f.write("z,p = 1,meets,3,0.1,0.01,0.02,1,1,0.04,0.05,0\n")
        f.write("y,p > 1,meets,3,0.1,0.01,0.02,1,1,0.05,0.06,0\n")
        f.write("z,p > 1,not run,0,0.1,nan,nan,nan,nan,nan,nan,0\n")
    with open(os.path.join(b, "verdicts.csv"), "w") as f:
        f.write(header)
        f.write("x,p = 1,meets,3,0.1,0.01,0.02,1,1,0.03,0.04,0\n")
    status, out = run(a, b)
    expect(status == 0, f"exit {status} on two good directories")
    expect(f"{a}  p = 1: floor median over 3 cases 4.0 % (range 2.0–8.0 %; 2 of 3 ≤ 5 %)" in out, "p = 1 line of a")
    expect("above 5 %: x 8.0\n" in out, "x listed above 5 %")
    expect(f"{a}  p > 1: floor median over 1 cases 5.0 % (range 5.0–5.0 %; 1 of 1 ≤ 5 %)" in out, "p > 1 line of a")
    expect("x | p = 1 | 8.0 % | 3.0 %" in out, "x side by side")
    expect("y | p > 1 | 5.0 % | -" in out, "y side by side, missing in b")
    expect("z | p > 1" not in out, "a group not run has no floor")
    status, _ = run(os.path.join(tmp, "missing"))
    expect(status == 2, f"exit {status} on a directory without verdicts.csv")
    status, _ = run()
    expect(status == 2, f"exit {status} without arguments")

status, out = run(os.path.join(source, "tests/data/accuracy"))
expect(status == 0, f"exit {status} on the recorded data")
recorded = open(os.path.join(source, "tests/data/accuracy/RECORDED")).read()
if "2026-11-26T14:42Z" in recorded:  # the run the note quotes; a re-recording changes the figures
    expect("p = 1: floor median over 37 cases 7.1 % (range 1.2–19.2 %; 12 of 37 ≤ 5 %)" in out, "recorded p = 1")
    expect("p > 1: floor median over 39 cases 15.5 % (range 4.2–31.8 %; 1 of 39 ≤ 5 %)" in out, "recorded p > 1")

for failure in failures:
    print("FAILED:", failure)
print(out)
sys.exit(1 if failures else 0)
