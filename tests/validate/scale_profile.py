#!/usr/bin/python3
"""Writes a copy of a machine profile whose every price is FACTOR times the original: each kernel constant and each
collective's and division's piecewise intercept and slope. The accuracy gate's own test uses it to show that the
gate fails when the cost functions' prices move.

Usage: scale_profile.py IN OUT FACTOR
"""
import json
import sys


def scale_segments(node, factor):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("intercept", "slope") and isinstance(value, float):
                node[key] = value * factor
            else:
                scale_segments(value, factor)
    elif isinstance(node, list):
        for value in node:
            scale_segments(value, factor)


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: scale_profile.py IN OUT FACTOR")
    with open(sys.argv[1]) as f:
        profile = json.load(f)
    factor = float(sys.argv[3])
    kernels = profile.get("kernels", {})
    for name, value in kernels.items():
        if isinstance(value, (int, float)):
            kernels[name] = value * factor
    for part in ("collectives", "division", "point_to_point"):
        scale_segments(profile.get(part, {}), factor)
    with open(sys.argv[2], "w") as f:
        json.dump(profile, f)


if __name__ == "__main__":
    main()
