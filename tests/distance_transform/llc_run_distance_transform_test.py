"""llc-run distance-transform end to end: outputs against scipy.ndimage (an independent oracle: cdt taxicab and
chessboard, exact edt), PGM and PNG input, 16-bit PGM and int32 raw output, --json fields, exit codes and messages.

Usage: llc_run_distance_transform_test.py LLC_RUN MPIEXEC WORKDIR   (run by CTest with Debian's /usr/bin/python3)
"""
import json
import os
import struct
import sys
import zlib

import numpy as np
from scipy import ndimage

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("distance-transform")
llc_run, mpiexec, workdir = cli.llc_run, cli.mpiexec, cli.workdir
run, check, failures = cli.run, cli.check, cli.failures


def write_pgm(path, image, maxval=255):
    with open(path, "wb") as f:
        f.write(b"P5\n# made by the test\n%d %d\n%d\n" % (image.shape[1], image.shape[0], maxval))
        f.write(image.astype(">u2" if maxval > 255 else "u1").tobytes())


def write_png(path, image):
    """A greyscale 8-bit PNG, by hand (zlib and struct): no imaging library needed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    raw = b"".join(b"\x00" + row.astype("u1").tobytes() for row in image)
    header = struct.pack(">IIBBBBB", image.shape[1], image.shape[0], 8, 0, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def expected(image, metric):
    figure = image != 0
    if not (~figure).any():
        return np.full(image.shape, -1, dtype=np.int64)
    if metric == "d4":
        return ndimage.distance_transform_cdt(figure, metric="taxicab").astype(np.int64)
    if metric == "d8":
        return ndimage.distance_transform_cdt(figure, metric="chessboard").astype(np.int64)
    d = ndimage.distance_transform_edt(figure)
    return np.rint(d * d).astype(np.int64)


rng = np.random.default_rng(11)
images = {
    "random": (rng.random((37, 53)) < 0.8).astype(np.uint8) * rng.integers(1, 255, (37, 53)),
    "one-row": np.array([[3, 3, 0, 3, 3, 3, 3]], dtype=np.uint8),
    "one-column": np.array([[3], [0], [3], [3]], dtype=np.uint8),
    "single": np.array([[0]], dtype=np.uint8),
    "no-feature": np.full((5, 6), 9, dtype=np.uint8),
}
for name, image in images.items():
    pgm = os.path.join(workdir, f"{name}.pgm")
    write_pgm(pgm, image)
    for metric in ("d4", "d8", "euclidean"):
        want = expected(image, metric)
        for P in ((1, 2, 3) if name == "random" else (1, 3)):
            out = os.path.join(workdir, f"{name}-{metric}-{P}.raw")
            r = run(P, "--input", pgm, "--metric", metric, "--r", "2", "--output", out, "--repeat", "1", "--json")
            what = f"{name} {metric} P={P}"
            check(r.returncode == 0, f"{what}: exit {r.returncode}: {r.stderr}")
            if r.returncode != 0:
                continue
            report = json.loads(r.stdout.strip().splitlines()[-1])
            check(report["width"] == image.shape[1] and report["height"] == image.shape[0] and report["P"] == P,
                  f"{what}: {report}")
            got = np.fromfile(out, dtype="<i4").reshape(image.shape)
            check(np.array_equal(got, want), f"{what}: differs from scipy at {np.argwhere(got != want)[:3].tolist()}")
            check(report["unreachable"] == int((want == -1).sum()), f"{what}: unreachable {report['unreachable']}")

# PNG and 16-bit PGM input give what the 8-bit PGM gives; a 16-bit PGM output holds the same distances.
image = images["random"]
png = os.path.join(workdir, "random.png")
write_png(png, image)
pgm16 = os.path.join(workdir, "random16.pgm")
write_pgm(pgm16, image.astype(np.uint16) * 200, maxval=65535)
for source in (png, pgm16):
    out = os.path.join(workdir, os.path.basename(source) + ".pgm")
    r = run(2, "--input", source, "--metric", "d8", "--output", out, "--repeat", "1")
    check(r.returncode == 0, f"{source}: exit {r.returncode}: {r.stderr}")
    if r.returncode == 0:
        with open(out, "rb") as f:
            data = f.read()
        header = b"P5\n%d %d\n65535\n" % (image.shape[1], image.shape[0])
        check(data.startswith(header), f"{source}: PGM header {data[:20]!r}")
        got = np.frombuffer(data[len(header):], dtype=">u2").reshape(image.shape)
        check(np.array_equal(got, expected(image, "d8")), f"{source}: 16-bit PGM output differs from scipy")

# A generated image: the same at every P (and every metric runs).
outs = []
for P in (1, 2):
    out = os.path.join(workdir, f"gen-{P}.raw")
    r = run(P, "--n", "64", "--seed", "5", "--metric", "chamfer5711", "--output", out, "--repeat", "1")
    check(r.returncode == 0, f"generated P={P}: {r.stderr}")
    outs.append(np.fromfile(out, dtype="<i4") if r.returncode == 0 else None)
check(outs[0] is not None and outs[1] is not None and np.array_equal(outs[0], outs[1]), "generated: P=1 and P=2 differ")

# Bad input: exit status 2, a message naming the argument or the file, nothing written.
truncated = os.path.join(workdir, "truncated.pgm")
with open(truncated, "wb") as f:
    f.write(b"P5\n10 10\n255\n" + b"\x01" * 50)
corrupt = os.path.join(workdir, "corrupt.png")
with open(png, "rb") as f:
    good = f.read()
with open(corrupt, "wb") as f:
    f.write(good[:40])
text = os.path.join(workdir, "text.txt")
with open(text, "w") as f:
    f.write("not an image\n")
missing_dir_out = os.path.join(workdir, "no-such-dir", "out.raw")
for args, fragment in ((["--input", truncated], "truncated.pgm"),
                       (["--input", corrupt], "corrupt.png"),
                       (["--input", text], "text.txt"),
                       (["--input", os.path.join(workdir, "missing.pgm")], "missing.pgm"),
                       (["--n", "16", "--metric", "d6"], "--metric"),
                       (["--n", "0"], "--n"),
                       (["--n", "16", "--r", "0"], "--r"),
                       (["--n", "16", "--k", "0"], "--k"),
                       (["--n", "16", "--output", os.path.join(workdir, "out.png")], "--output"),
                       (["--n", "16", "--output", missing_dir_out], "--output"),
                       ([], "--input")):
    for P in (2,):  # every rank must agree: two of them
        r = run(P, *args)
        check(r.returncode == 2, f"{args} P={P}: exit {r.returncode}, expected 2: {r.stderr}")
        check(fragment in r.stderr, f"{args} P={P}: message does not name {fragment}: {r.stderr}")

cli.finish()
