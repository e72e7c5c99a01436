#!/usr/bin/python3
"""Draws llc-validate's plots from DIR/results.json into DIR:

  predicted_vs_measured.png  per algorithm: time against size (log-log) at the largest p that is not
                             oversubscribed; the measured median with its 10-90 % band, one line per model
  error_heatmap.png          CCM median |relative error| over (algorithm, p); oversubscribed p marked
  superstep_breakdown.png    predicted beside measured, stacked: compute, communication, division

Usage: validate_plots.py DIR   (Debian's /usr/bin/python3, which has matplotlib)
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MODEL_STYLE = {"ccm": "-", "bsp": "--", "loggp": "-.", "hockney": ":", "p3pc": (0, (3, 1, 1, 1)), "c3": (0, (1, 2))}


def finite(x):
    return x is not None and isinstance(x, (int, float)) and math.isfinite(x)


def same_lines(models, points, n):
    """The models' prediction lines, those that draw the same line (within 1 % at every size) merged into one:
    where the run is local work every model prices it alike, and six stacked curves would hide that."""
    lines = []
    for model in models:
        ys = [r["predictions"].get(model, {}).get("predicted_s") for r in points]
        xs = [x for x, y in zip(n, ys) if finite(y) and y > 0]
        ys = [y for y in ys if finite(y) and y > 0]
        if not xs:
            continue
        for line in lines:
            if line[1] == xs and all(abs(a - b) <= 0.01 * b for a, b in zip(ys, line[2])):
                line[0].append(model)
                break
        else:
            lines.append(([model], xs, ys))
    return lines


def predicted_vs_measured(data, out):
    rows = data["measurements"]
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    cols = min(4, len(algorithms)) or 1
    lines = math.ceil(len(algorithms) / cols) or 1
    fig, axes = plt.subplots(lines, cols, figsize=(3.2 * cols, 2.6 * lines), squeeze=False)
    for ax in axes.flat[len(algorithms):]:
        ax.axis("off")
    for ax, algorithm in zip(axes.flat, algorithms):
        mine = [r for r in rows if r["algorithm"] == algorithm]
        honest = [r for r in mine if not r["oversubscribed"]] or mine
        p = max(r["p"] for r in honest)
        points = sorted((r for r in honest if r["p"] == p), key=lambda r: r["n"])
        n = [r["n"] for r in points]
        ax.fill_between(n, [r["measured_p10_s"] for r in points], [r["measured_p90_s"] for r in points],
                        color="0.85", label="measured 10-90 %")
        ax.plot(n, [r["measured_median_s"] for r in points], "k.-", label="measured median")
        for models, xs, ys in same_lines(data["models"], points, n):
            label = models[0] if len(models) == 1 else " = ".join(models) + " (same line)"
            ax.plot(xs, ys, linestyle=MODEL_STYLE.get(models[0], "-"), label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"{algorithm} (p = {p})", fontsize=9)
        ax.set_xlabel(points[0]["size_unit"] if points else "n", fontsize=7)
        ax.set_ylabel("seconds", fontsize=7)
        ax.tick_params(labelsize=7)
    # One legend for the figure, with every panel's entries (merged lines differ from panel to panel).
    legend = {}
    for ax in axes.flat[:len(algorithms)]:
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    fig.legend(list(legend.values()), list(legend.keys()), loc="lower center", ncol=min(4, len(legend)), fontsize=7)
    fig.tight_layout(rect=(0, 0.04 + 0.025 * math.ceil(len(legend) / 4), 1, 1))
    fig.savefig(f"{out}/predicted_vs_measured.png", dpi=80)
    plt.close(fig)


def error_heatmap(data, out):
    rows = data["measurements"]
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    ps = sorted({r["p"] for r in rows})
    grid = []
    for algorithm in algorithms:
        line = []
        for p in ps:
            errors = sorted(abs(r["predictions"]["ccm"]["relative_error"]) for r in rows
                            if r["algorithm"] == algorithm and r["p"] == p and "ccm" in r["predictions"]
                            and finite(r["predictions"]["ccm"]["relative_error"]))
            line.append(100 * errors[len(errors) // 2] if errors else float("nan"))
        grid.append(line)
    fig, ax = plt.subplots(figsize=(1.2 + 0.7 * len(ps), 0.8 + 0.3 * len(algorithms)))
    image = ax.imshow(grid, cmap="viridis_r", vmin=0, vmax=50, aspect="auto")
    ax.set_xticks(range(len(ps)))
    cores = data.get("cores", 0)
    ax.set_xticklabels([f"{p}*" if p > cores else str(p) for p in ps], fontsize=7)
    ax.set_yticks(range(len(algorithms)))
    ax.set_yticklabels(algorithms, fontsize=7)
    ax.set_xlabel("p  (* = oversubscribed)", fontsize=7)
    for i, line in enumerate(grid):
        for j, value in enumerate(line):
            if finite(value):
                ax.text(j, i, f"{value:.0f}", ha="center", va="center", fontsize=6,
                        color="white" if value > 25 else "black")
    fig.colorbar(image, ax=ax, label="CCM median |error| %")
    ax.set_title("CCM prediction error", fontsize=9)
    fig.tight_layout()
    fig.savefig(f"{out}/error_heatmap.png", dpi=80)
    plt.close(fig)


def superstep_breakdown(data, out):
    steps = data.get("supersteps", [])
    if not steps:
        return
    fig, ax = plt.subplots(figsize=(1.0 + 0.9 * len(steps), 3.2))
    width = 0.38
    parts = [("compute", "tab:blue"), ("comm", "tab:orange"), ("division", "tab:green")]
    for i, step in enumerate(steps):
        for offset, side, hatch in ((-width / 2, "predicted", ""), (width / 2, "measured", "//")):
            bottom = 0.0
            for part, color in parts:
                value = step[side][part]
                ax.bar(i + offset, value, width, bottom=bottom, color=color, hatch=hatch, edgecolor="black",
                       linewidth=0.3, label=f"{part} ({side})" if i == 0 else None)
                bottom += value
    ax.set_xticks(range(len(steps)))
    ax.set_xticklabels([f"{s['algorithm']}\nn={s['n']} p={s['p']}" for s in steps], fontsize=6, rotation=30)
    ax.set_ylabel("seconds (critical path)", fontsize=7)
    ax.set_title("Superstep breakdown: predicted (plain) beside measured (hatched)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(f"{out}/superstep_breakdown.png", dpi=80)
    plt.close(fig)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: validate_plots.py DIR")
    out = sys.argv[1]
    with open(f"{out}/results.json") as f:
        data = json.load(f)
    try:
        with open(f"{out}/supersteps.json") as f:
            data["supersteps"] = json.load(f)["supersteps"]
    except FileNotFoundError:
        data["supersteps"] = []
    predicted_vs_measured(data, out)
    error_heatmap(data, out)
    superstep_breakdown(data, out)
    print(f"plots: {out}/predicted_vs_measured.png, {out}/error_heatmap.png, {out}/superstep_breakdown.png")


if __name__ == "__main__":
    main()
