#!/usr/bin/env python3
"""One float64 column of a CTable into Arrow: b2schema's `CTable::arrow_reader` (the bench
tool `arrow_column`, timed in its own process) beside python-blosc2's `CTable.to_arrow()` (timed
here), at 1 and 2 threads, for tables of 1 M and 10 M rows that python-blosc2 writes with its
default chunks (a random walk, zstd 5 + shuffle). Run from the repository root:

    PY=$(scripts/pyenv.sh) && BENCH_DIR=/some/disk "$PY" scripts/bench_arrow.py --reps 9

Prints, per cell, each side's minimum and median (seconds: open + the whole column) and the
ratio of the medians (ours / python-blosc2; <= 1.0 is the target).
"""
import argparse
import os
import shutil
import subprocess
import time
from dataclasses import dataclass

from bench_tool import bench_exe

import blosc2
import numpy as np


@dataclass
class Row:
    x: float = blosc2.field(blosc2.float64())


def table(d, n):
    p = os.path.join(d, f"f64_{n}.b2d")
    if not os.path.exists(p):
        t = blosc2.CTable(Row, urlpath=p + ".tmp", mode="w", expected_size=n)
        t.extend({"x": np.random.default_rng(0).standard_normal(n).cumsum()})
        del t
        shutil.move(p + ".tmp", p)
    return p


def python(path, threads, reps):
    blosc2.set_nthreads(threads)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        a = blosc2.CTable.open(path).to_arrow()
        times.append(time.perf_counter() - t0)
        assert a.num_rows > 0
    times.sort()
    return times[0], times[len(times) // 2]


def ours(path, threads, reps):
    exe = bench_exe("b2schema", "arrow_column", features=["arrow"])
    out = subprocess.run([exe, path, str(threads), str(reps)], check=True, capture_output=True, text=True).stdout
    f = dict(kv.split("=") for kv in out.split() if "=" in kv)
    return float(f["min"]), float(f["median"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=9)
    args = ap.parse_args()
    d = os.environ.get("BENCH_DIR", "/tmp")
    print(f"load {os.getloadavg()[0]:.1f}")
    for n in (1_000_000, 10_000_000):
        p = table(d, n)
        for threads in (1, 2):
            o, y = ours(p, threads, args.reps), python(p, threads, args.reps)
            print(
                f"{n:>10} rows, {threads} thread(s): ours {o[0]:.4f}/{o[1]:.4f} s, "
                f"python-blosc2 {y[0]:.4f}/{y[1]:.4f} s (min/median), ratio {o[1] / y[1]:.2f}"
            )


if __name__ == "__main__":
    main()
