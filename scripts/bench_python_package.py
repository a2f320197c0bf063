#!/usr/bin/env python3
"""The Python package against python-blosc2 on the same files: whole reads and slices, 1 and 2
threads, zstd and lz4, float64 and int32 (BENCHMARKS.md, "The Python package").

    PY=$(scripts/pyenv.sh) && "$PY" -m pip install "$(scripts/python_wheel.sh)" --no-deps
    "$PY" scripts/bench_python_package.py [--repeat 7]

Writes its arrays once with python-blosc2 (its default chunks and blocks) in /tmp, never in the
repository; each cell is the median wall time of ``--repeat`` reads, python-blosc2's
``arr[key]`` (``blosc2.set_nthreads(n)``) and b2schema's ``arr[key]`` (``open(p, nthreads=n)``),
both giving a NumPy array; the ratio is b2schema's time over python-blosc2's (below 1: faster).
"""

import argparse
import os
import statistics
import time

import blosc2
import numpy as np

import b2schema

SHAPE = (4000, 4000)  # 128 MB as float64, 64 MB as int32
KEYS = {
    "whole": (),
    "rows 1000:1100": (slice(1000, 1100),),
    "box 500:2500,1000:3000": (slice(500, 2500), slice(1000, 3000)),
    "column 7": (slice(None), 7),
}


def data(dtype):
    i = np.arange(SHAPE[0] * SHAPE[1], dtype=np.int64).reshape(SHAPE)
    if dtype == "float64":
        return np.sin(i / 1000.0) * 100 + (i % 17)
    return ((i // 7) % 100_000 - 50_000).astype(np.int32)


def median(f, repeat):
    f()  # warm: page cache, thread pools
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    print(f"b2schema {b2schema.__version__}, python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version.split()[0]}), "
          f"numpy {np.__version__}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print("| file | read | threads | python-blosc2 ms | b2schema ms | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for codec in ("zstd", "lz4"):
        for dtype in ("float64", "int32"):
            p = f"/tmp/b2bench-py-{codec}-{dtype}.b2nd"
            if not os.path.exists(p):
                blosc2.asarray(data(dtype), urlpath=p, mode="w",
                               cparams=blosc2.CParams(codec=getattr(blosc2.Codec, codec.upper()), clevel=5))
            for threads in (1, 2):
                blosc2.set_nthreads(threads)
                ref = blosc2.open(p, mode="r")
                ours = b2schema.open(p, nthreads=threads)
                for name, key in KEYS.items():
                    want = ref[key] if key else ref[()]
                    got = ours[key] if key else ours[...]
                    assert np.array_equal(want, got), (p, name)
                    t_ref = median(lambda: ref[key] if key else ref[()], args.repeat)
                    t_ours = median(lambda: ours[key] if key else ours[...], args.repeat)
                    print(f"| {codec} {dtype} | {name} | {threads} | {t_ref * 1e3:.1f} | {t_ours * 1e3:.1f} | "
                          f"{t_ours / t_ref:.2f} |", flush=True)


if __name__ == "__main__":
    main()
