"""Hostile input: header-only "bombs" for every format the tools read, run under a 512 MB address-space limit
(RLIMIT_AS, inherited by mpiexec's processes). Each must be refused with exit status 2 and a message naming the file
and what is wrong — not std::bad_alloc, which a reader that allocates what the header claims would hit first — and a
small legitimate input must still run under the same limit. The limit LLC_MAX_INPUT_ELEMENTS can be lowered or raised.

Run by CTest as `/usr/bin/python3 input_bombs_test.py LLC_RUN MPIEXEC WORKDIR`.
"""
import os
import resource
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
from llc_cli_test import CliTest  # noqa: E402

cli = CliTest("")
workdir = cli.workdir
LIMIT_BYTES = 512 << 20
P = 2


def limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT_BYTES, LIMIT_BYTES))


def run(*args, env=None):
    cmd = [cli.mpiexec, "--oversubscribe", "--bind-to", "none", "-np", str(P), cli.llc_run, *args, "--repeat", "1"]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, preexec_fn=limited,
                          env=dict(os.environ, **(env or {})))


def path(name):
    return os.path.join(workdir, name)


def write(name, data):
    with open(path(name), "wb") as f:
        f.write(data)
    return path(name)


def png(width, height, idat):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)  # 8-bit greyscale
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


def refused(what, result, *needles):
    """Exit 2, every needle in stderr, and no allocation failure."""
    cli.check(result.returncode == 2, f"{what}: exit {result.returncode} (expected 2): {result.stderr[-400:]!r}")
    for needle in needles:
        cli.check(needle in result.stderr, f"{what}: stderr does not say '{needle}': {result.stderr[-400:]!r}")
    cli.check("bad_alloc" not in result.stderr, f"{what}: allocated what the header claimed: {result.stderr[-300:]!r}")


# Under the same limit a small input runs: the limit alone does not make the runs below fail.
ok = run("distance-transform", "--n", "64")
cli.check(ok.returncode == 0, f"distance-transform --n 64 under {LIMIT_BYTES >> 20} MB: exit {ok.returncode}: {ok.stderr!r}")

# PNG: a 74-byte file claiming 100000 × 100000 pixels (over the element limit) and 30000 × 30000 (under it, but more
# than a deflate stream of 74 bytes can expand to); read by distance-transform and by contour-ranking --input.
huge = write("huge.png", png(100000, 100000, zlib.compress(b"\0" * 1000)))
dense = write("dense.png", png(30000, 30000, zlib.compress(b"\0" * 1000)))
for command in ("distance-transform", "contour-ranking"):
    refused(f"{command} huge.png", run(command, "--input", huge), "huge.png", "100000 × 100000", "LLC_MAX_INPUT_ELEMENTS")
    refused(f"{command} dense.png", run(command, "--input", dense), "dense.png", "30000 × 30000", "file can hold")

# PGM: header-only, over the limit; sides whose product overflows 64 bits; under the limit with one byte of data.
refused("PGM 100000²", run("distance-transform", "--input", write("huge.pgm", b"P5\n100000 100000\n255\n")),
        "huge.pgm", "LLC_MAX_INPUT_ELEMENTS")
refused("PGM 2^32²", run("distance-transform", "--input", write("wrap.pgm", b"P5\n4294967296 4294967296\n255\n")),
        "wrap.pgm", "LLC_MAX_INPUT_ELEMENTS")
refused("PGM 20000² truncated", run("distance-transform", "--input", write("short.pgm", b"P5\n20000 20000\n255\n\0")),
        "short.pgm", "truncated")

# The limit is the user's: a legitimate 64 × 64 PNG is refused under LLC_MAX_INPUT_ELEMENTS=1000, read by default.
small = write("small.png", png(64, 64, zlib.compress(b"".join(b"\0" + bytes([x % 2 for x in range(64)]) for _ in range(64)))))
refused("LLC_MAX_INPUT_ELEMENTS=1000", run("distance-transform", "--input", small, env={"LLC_MAX_INPUT_ELEMENTS": "1000"}),
        "small.png", "64 × 64", "limit of 1000")
r = run("distance-transform", "--input", small)
cli.check(r.returncode == 0, f"small.png by default: exit {r.returncode}: {r.stderr!r}")

# Raw with --width/--height: a 2-byte successor map and a 16-byte cost map claiming more, over and under the limit.
succ = write("succ.raw", b"\0\0")
for side in ("100000", "4294967296"):
    refused(f"--succ {side}²", run("contour-ranking", "--succ", succ, "--width", side, "--height", side),
            "succ.raw", "LLC_MAX_INPUT_ELEMENTS")
refused("--succ 30000²", run("contour-ranking", "--succ", succ, "--width", "30000", "--height", "30000"),
        "succ.raw", "2 bytes")
costs = write("costs.raw", b"\0" * 16)
refused("path-planning 100000²", run("path-planning", "--input", costs, "--width", "100000", "--height", "100000",
                                     "--source", "0,0"), "LLC_MAX_INPUT_ELEMENTS")
refused("path-planning 30000²", run("path-planning", "--input", costs, "--width", "30000", "--height", "30000",
                                    "--source", "0,0"), "costs.raw", "16 bytes")

# Matrices and vectors: symv's n comes from the vector file (n² over the limit, or a matrix file of the wrong size);
# fft's from a 32 GiB sparse file (2^31 complex128 values, over the limit).
matrix = write("a.raw", b"\0" * 64)
refused("symv n = 100000", run("symv", "--matrix", matrix, "--vector", write("x100k.raw", b"\0" * 800000)),
        "a.raw", "LLC_MAX_INPUT_ELEMENTS")
refused("symv n = 10000", run("symv", "--matrix", matrix, "--vector", write("x10k.raw", b"\0" * 80000)),
        "a.raw", "64 bytes")
sparse = path("sparse.bin")
with open(sparse, "wb") as f:
    f.truncate(32 << 30)
refused("fft 2^31 values", run("fft", "--input", sparse), "--input", "sparse.bin", "LLC_MAX_INPUT_ELEMENTS")
os.remove(sparse)

cli.finish()
