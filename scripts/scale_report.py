#!/usr/bin/python3
"""Tables and the strong-scaling plot of scripts/scale-validate.sh.

Usage: scale_report.py [--also DIR]... OUT BASE P...   (Debian's /usr/bin/python3, which has matplotlib)

Reads OUT/a-P<P>/results.csv (measured at P, priced by the profile probed at P) and OUT/b-P<P>/results.csv (the same
measurements priced by the profile probed at BASE) and OUT/wall-times.csv; writes OUT/scale.md, OUT/scale.csv,
OUT/strong_scaling.png and OUT/strong_scaling.csv (the plotted points: per case, its size and P, the simulated time
and each model's prediction). The error of a case at P is the median over its sizes of |predicted - measured| /
measured (llc-validate's relative_error); a case's goal is not judged here (docs/validation.md has the verdict rule).

--also DIR (repeatable): DIR's a-P<P>, b-P<P>, supersteps and wall times are read too, as if they were OUT's: one run
made in parts (e.g. the algorithms of P = 64 validated in groups into separate directories with the same profiles).
OUT's own results come first; a point (case, P, n) already read is not read again. Exit status 2 on bad arguments.
"""
import csv
import json
import math
import os
import statistics
import sys

MODELS = ("ccm", "bsp", "hockney")


def read(path):
    """{(algorithm, p, n): {"measured": s, model: (predicted, relative_error, extrapolated)}} of one results.csv."""
    rows = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r["algorithm"], int(r["p"]), int(r["n"]))
            point = rows.setdefault(key, {"measured": float(r["measured_median_s"]), "family": r["family"]})
            if r["model"] in MODELS:
                # Empty where the model could not price the point (e.g. (b) without a lockstep table at P): NaN.
                number = lambda x: float(x) if x else float("nan")  # noqa: E731
                point[r["model"]] = (number(r["predicted_s"]), number(r["relative_error"]), r["extrapolated"] == "1")
    return rows


def errors(rows, algorithm, p, model):
    """The |relative errors| of one case at p under one model (NaN where the model cannot price it, left out)."""
    out = []
    for (a, pp, _), point in rows.items():
        if a == algorithm and pp == p and model in point and math.isfinite(point[model][1]):
            out.append(abs(point[model][1]))
    return out


def median_or_nan(xs):
    return statistics.median(xs) if xs else float("nan")


def pct(x):
    return "—" if not math.isfinite(x) else f"{100 * x:.0f}"


def table(title, data, algorithms, ps, extrapolated=None):
    lines = [f"### {title}", "", "CCM / BSP / Hockney median |error| in % over the case's sizes"
             + ("; in brackets the share of CCM prices extrapolated in P" if extrapolated else "") + ".", "",
             "| case | " + " | ".join(f"P = {p}" for p in ps) + " |", "|---|" + "---|" * len(ps)]
    for a in algorithms:
        cells = []
        for p in ps:
            if (a, p) not in data:
                cells.append("")
                continue
            c, b, h = data[(a, p)]
            cell = f"{pct(c)} / {pct(b)} / {pct(h)}"
            if extrapolated is not None:
                cell += f" ({pct(extrapolated[(a, p)])})"
            cells.append(cell)
        lines.append(f"| {a} | " + " | ".join(cells) + " |")
    # The median over cases of the CCM's medians: one number per P, against the goals of docs/scaling.md.
    overall = [median_or_nan([data[(a, p)][0] for a in algorithms if (a, p) in data and math.isfinite(data[(a, p)][0])])
               for p in ps]
    lines.append("| **median over cases (CCM)** | " + " | ".join(pct(x) for x in overall) + " |")
    return lines, overall


def arguments(argv):
    """(OUT, BASE, [P...], [DIR...]) from the command line; exits 2 naming the argument that is wrong."""
    also, rest = [], []
    i = 0
    while i < len(argv):
        if argv[i] == "--also":
            if i + 1 >= len(argv) or not os.path.isdir(argv[i + 1]):
                print(f"scale_report.py: --also '{argv[i + 1] if i + 1 < len(argv) else ''}': no such directory",
                      file=sys.stderr)
                sys.exit(2)
            also.append(argv[i + 1])
            i += 2
            continue
        rest.append(argv[i])
        i += 1
    usage = "usage: scale_report.py [--also DIR]... OUT BASE P..."
    if len(rest) < 2:
        print(f"scale_report.py: OUT and BASE are required\n{usage}", file=sys.stderr)
        sys.exit(2)
    if not os.path.isdir(rest[0]):
        print(f"scale_report.py: OUT '{rest[0]}': no such directory\n{usage}", file=sys.stderr)
        sys.exit(2)
    numbers = []
    for name, text in [("BASE", rest[1])] + [("P", t) for t in rest[2:]]:
        if not text.isdigit() or int(text) < 1:
            print(f"scale_report.py: {name} '{text}': must be a positive number of processors\n{usage}",
                  file=sys.stderr)
            sys.exit(2)
        numbers.append(int(text))
    return rest[0], numbers[0], numbers[1:], also


def main():
    out, base, ps, also = arguments(sys.argv[1:])
    dirs = [out] + also
    runs = {"a": {}, "b": {}}
    for which in runs:
        for p in ps:
            for d in dirs:
                path = os.path.join(d, f"{which}-P{p}", "results.csv")
                if os.path.exists(path):
                    for key, point in read(path).items():
                        runs[which].setdefault(key, point)
    algorithms = list(dict.fromkeys(a for (a, _, _) in runs["a"]))
    summary = {}
    extrapolated = {}
    csv_rows = []
    for which, rows in runs.items():
        for a in algorithms:
            for p in ps:
                errs = [median_or_nan(errors(rows, a, p, m)) for m in MODELS]
                if any(k[0] == a and k[1] == p for k in rows):
                    summary[(which, a, p)] = errs
                    flags = [pt["ccm"][2] for (aa, pp, _), pt in rows.items() if aa == a and pp == p and "ccm" in pt]
                    share = sum(flags) / len(flags) if flags else float("nan")
                    if which == "b":
                        extrapolated[(a, p)] = share
                    csv_rows.append([which, a, p] + errs + [share])
    with open(os.path.join(out, "scale.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["profile", "case", "p", "ccm_median_abs", "bsp_median_abs", "hockney_median_abs",
                    "ccm_extrapolated_share"])
        w.writerows(csv_rows)
    md = ["# Validation at scale", "",
          f"(a): the profile probed at the P predicted; (b): the profile probed at P = {base}, extrapolated in P (llc::cost::Growth).", ""]
    a_lines, a_overall = table("(a) profile probed at P", {k[1:]: v for k, v in summary.items() if k[0] == "a"},
                               algorithms, ps)
    b_lines, b_overall = table(f"(b) profile probed at P = {base}", {k[1:]: v for k, v in summary.items() if k[0] == "b"},
                               algorithms, ps, extrapolated)
    md += a_lines + [""] + b_lines + [""]
    a_miss = [(a, p) for (w, a, p), v in summary.items() if w == "a" and math.isfinite(v[0]) and v[0] > 0.10]
    md.append(f"Goal (a), CCM median ≤ 10 % for every case at every P: {len(a_miss)} case×P miss"
              + (": " + ", ".join(f"{a} at {p}" for a, p in a_miss) if a_miss else "") + ".")
    if ps:
        last = ps[-1]
        b_miss = [a for a in algorithms if ("b", a, last) in summary and math.isfinite(summary[("b", a, last)][0])
                  and summary[("b", a, last)][0] > 0.20]
        md.append(f"Goal (b), CCM median ≤ 20 % at P = {last}: {len(b_miss)} cases miss"
                  + (": " + ", ".join(b_miss) if b_miss else "") + ".")
    md += terms(out, base, ps[-1]) if ps and ps[-1] != base else []
    md += supersteps(dirs, ps, summary)
    md += ["", "## Wall time of each step", "",
           "CPU s: the step's processes' CPU time (user + system), which a stopped run (SIGSTOP … SIGCONT) or a loaded "
           "host does not stretch as it does the wall time; — in runs that did not record it.", "",
           "| step | P | wall s | CPU s |", "|---|---|---|---|"]
    for d in dirs:
        times = os.path.join(d, "wall-times.csv")
        if os.path.exists(times):
            with open(times, newline="") as f:
                for r in csv.DictReader(f):
                    cpu = r.get("cpu_s")
                    cpu = f"{float(cpu):.1f}" if cpu else "—"
                    md.append(f"| {r['step']} | {r['P']} | {float(r['wall_s']):.1f} | {cpu} |")
    with open(os.path.join(out, "scale.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    plot(out, runs, algorithms, ps)
    print("\n".join(md))


def piecewise(fit, h):
    """A Piecewise of the profile at h, as llc::cost::Piecewise::operator() evaluates it."""
    segs = fit["segments"]
    s = segs[0]
    for seg in segs:
        if h >= seg["from"]:
            s = seg
    x = min(h, s["to"]) if s is segs[-1] and h > s["to"] and s["slope"] < 0 else h
    return max(0.0, s["intercept"] + s["slope"] * x)


LINEAR_GROWTH = {"gather", "scatter", "allgather", "alltoall", "gatherv", "scatterv", "allgatherv", "alltoallv"}


def in_log_p(table, p, name=""):
    """llc::cost::interpolate_in_p: the value at p from {P: value}, linear in log P between measured P; beyond the
    largest, with two or more measured P >= 2, a + b g(P) by least squares over them (g = P - 1 for the collectives
    of LINEAR_GROWTH, log2 P otherwise; b < 0 read as 0: the mean), as llc::cost::Growth."""
    ps = sorted(table)
    if p in table:
        return table[p]
    fit = [q for q in ps if q >= 2]
    if p > ps[-1] and len(fit) >= 2:
        g = (lambda q: q - 1.0) if name in LINEAR_GROWTH else math.log2
        mx = sum(g(q) for q in fit) / len(fit)
        my = sum(table[q] for q in fit) / len(fit)
        sxx = sum((g(q) - mx) ** 2 for q in fit)
        slope = max(0.0, sum((g(q) - mx) * (table[q] - my) for q in fit) / sxx)
        return max(0.0, my + slope * (g(p) - mx))
    if len(ps) == 1:
        return table[ps[0]] if ps[0] == 1 else max(0.0, table[ps[0]] * math.log(p) / math.log(ps[0]))
    hi = next((i for i, q in enumerate(ps) if q > p), len(ps))
    hi = min(max(hi, 1), len(ps) - 1)
    x0, x1 = math.log(ps[hi - 1]), math.log(ps[hi])
    v0, v1 = table[ps[hi - 1]], table[ps[hi]]
    return max(0.0, v0 + (v1 - v0) * (math.log(p) - x0) / (x1 - x0))


def terms(out, base, p):
    """Which term of the model extrapolates badly: each measured term of the profile probed at p against the base
    profile's extrapolation of it to p (collectives and the division exchange at three sizes, BSP's g and l)."""
    try:
        with open(os.path.join(out, f"profile-P{p}.json")) as f:
            at_p = json.load(f)
        with open(os.path.join(out, f"profile-P{base}.json")) as f:
            at_base = json.load(f)
    except OSError:
        return []
    sizes = (8, 65536, 1048576)
    lines = ["", f"## Terms at P = {p}: extrapolated from P ≤ {base} against measured at P = {p}", "",
             "Ratio extrapolated / measured of each term (1.00 = exact); the profile of (b) prices every case by "
             "these.", "", "| term | " + " | ".join(f"h = {h} B" for h in sizes) + " |", "|---|" + "---|" * len(sizes)]

    def row(name, measured, table):
        cells = []
        for h in sizes:
            m = measured(h)
            e = in_log_p({int(q): v(h) for q, v in table.items()}, p, name)
            cells.append(f"{e / m:.2f}" if m > 0 else "—")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")

    for name, fits in sorted(at_p.get("collectives", {}).items()):
        if str(p) in fits and name in at_base.get("collectives", {}):
            base_fits = at_base["collectives"][name]
            row(name, lambda h, fit=fits[str(p)]: piecewise(fit, h),
                {q: (lambda h, fit=fit: piecewise(fit, h)) for q, fit in base_fits.items()})
    if str(p) in at_p.get("division", {}):
        d = at_p["division"][str(p)]
        row("division (split + exchange)", lambda h: d["split"] + piecewise(d["exchange"], h) + d["rejoin"],
            {q: (lambda h, c=c: c["split"] + piecewise(c["exchange"], h) + c["rejoin"])
             for q, c in at_base.get("division", {}).items()})
    for key in ("g", "l"):
        if str(p) in at_p.get("bsp", {}) and at_p["bsp"][str(p)][key] > 0:
            row(f"BSP {key}", lambda h, k=key: at_p["bsp"][str(p)][k],
                {q: (lambda h, v=v[key]: v) for q, v in at_base.get("bsp", {}).items()})
    return lines


def flatten(node, acc):
    """Sums of one traced comparison's matched nodes per (label, op): predicted and measured compute and comm."""
    if node.get("kind") in ("normal", "division") and node.get("status") == "matched":
        key = (node["label"] or node["kind"], node.get("op", ""))
        sums = acc.setdefault(key, [0.0, 0.0, 0.0, 0.0, 0])
        for i, field in enumerate(("predicted_compute", "measured_compute", "predicted_comm", "measured_comm")):
            value = node.get(field)
            sums[i] += value if isinstance(value, (int, float)) and math.isfinite(value) else 0.0
        sums[4] += 1
    for child in node.get("children", []):
        flatten(child, acc)
    return acc


def ms(x):
    return f"{1e3 * x:.3f}"


def supersteps(dirs, ps, summary):
    """The traced runs of (a) (llc-validate traces the largest size at p = P): per case and P the predicted and
    measured compute, communication and division time, and the superstep (label, operation) whose predicted minus
    measured time is largest in magnitude: where a case misses, the term that is off."""
    lines = ["", "## Where the time goes: the traced runs of (a), superstep by superstep", "",
             "Per case and P (the traced run at the case's size, p = P): predicted / measured milliseconds of compute "
             "(W, kernels × work), communication (T_f of the supersteps' collectives) and divisions (T_g); the "
             "superstep (label, operation, how many) with the largest |predicted − measured| and its two times "
             "(compute + comm). Rows for the collectives' cases are left out (one superstep each).", "",
             "| case | P | n | CCM (a) | compute | comm | division | largest |predicted − measured| |",
             "|---|---|---|---|---|---|---|---|"]
    any_row = False
    for p in ps:
        data = []
        for d in dirs:
            path = os.path.join(d, f"a-P{p}", "supersteps.json")
            if os.path.exists(path):
                with open(path) as f:
                    data += json.load(f).get("supersteps", [])
        for s in data:
            if s.get("p") != p:
                continue
            acc = flatten(s["comparison"]["root"], {})
            if sum(v[4] for v in acc.values()) <= 1:
                continue
            worst = max(acc.items(), key=lambda kv: abs(kv[1][0] + kv[1][2] - kv[1][1] - kv[1][3]))
            (label, op), v = worst
            pr, me = s["predicted"], s["measured"]
            err = summary.get(("a", s["algorithm"], p), [float("nan")])[0]
            lines.append(f"| {s['algorithm']} | {p} | {s['n']} | {pct(err)} % | {ms(pr['compute'])} / "
                         f"{ms(me['compute'])} | {ms(pr['comm'])} / {ms(me['comm'])} | {ms(pr['division'])} / "
                         f"{ms(me['division'])} | {label} {op} ×{v[4]}: {ms(v[0] + v[2])} / {ms(v[1] + v[3])} |")
            any_row = True
    return lines if any_row else []


def series(runs, algorithms, ps):
    """The strong-scaling points of each case: {case: (n, [(P, simulated, CCM (a), CCM (b), BSP, Hockney)])}, at the
    size measured at the most P (the largest such size), over the P where it was measured; NaN where a model has no
    price. A case measured at one P only has one point."""
    nan = float("nan")
    out = {}
    for a in algorithms:
        counts = {}
        for (aa, p, n) in runs["a"]:
            if aa == a and p in ps:
                counts[n] = counts.get(n, 0) + 1
        if not counts:
            continue
        n = max(counts, key=lambda k: (counts[k], k))
        points = []
        for p in ps:
            pt = runs["a"].get((a, p, n))
            if pt is None:
                continue
            b = runs["b"].get((a, p, n), {})
            points.append((p, pt["measured"], pt.get("ccm", (nan,))[0], b.get("ccm", (nan,))[0],
                           pt.get("bsp", (nan,))[0], pt.get("hockney", (nan,))[0]))
        out[a] = (n, points)
    return out


def plot(out, runs, algorithms, ps):
    """Per case, at one size (series()): simulated time and the predictions against P; the points also go to
    OUT/strong_scaling.csv, so that what the figure shows can be read (and tested) without looking at it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = series(runs, algorithms, ps)
    with open(os.path.join(out, "strong_scaling.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "n", "p", "simulated_s", "ccm_a_s", "ccm_b_s", "bsp_s", "hockney_s"])
        for a, (n, points) in data.items():
            for pt in points:
                w.writerow([a, n] + [pt[0]] + [f"{x:.9g}" for x in pt[1:]])
    cols = min(4, len(algorithms)) or 1
    lines = math.ceil(len(algorithms) / cols) or 1
    fig, axes = plt.subplots(lines, cols, figsize=(3.2 * cols, 2.6 * lines), squeeze=False)
    for ax in axes.flat[len(algorithms):]:
        ax.axis("off")
    # Markers on every series: a point between two P a model could not price (NaN) is drawn alone.
    styles = (("simulated", "ko-", 1.2), ("CCM (a)", ".-", 1.2), ("CCM (b)", ".--", 1.2), ("BSP", ".:", 0.8),
              ("Hockney", ".-.", 0.8))
    for ax, a in zip(axes.flat, algorithms):
        if a not in data:
            ax.set_title(f"{a}: not measured", fontsize=7)
            continue
        n, points = data[a]
        xs = [pt[0] for pt in points]
        for k, (label, style, width) in enumerate(styles):
            ax.plot(xs, [pt[k + 1] for pt in points], style, label=label, linewidth=width, markersize=3)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"{a}, n = {n}", fontsize=7)
        ax.tick_params(which="both", labelsize=6)
        ax.set_xlabel("P", fontsize=6)
    axes.flat[0].legend(fontsize=5)
    fig.suptitle("Strong scaling: simulated (SMPI) and predicted time [s] against P", fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "strong_scaling.png"), dpi=110)


if __name__ == "__main__":
    main()
