#!/usr/bin/env python3
"""Throughput reference for b2schema/benches/chunk_throughput.rs (both are run in one go by
scripts/bench_decompress.py).

    "$(scripts/pyenv.sh)" tests/data/chunks/ref/bench_python.py /tmp/b2chunk-bench
    cargo bench -p b2schema --bench chunk_throughput -- /tmp/b2chunk-bench

Builds one SChunk per configuration (4 chunks of 4 MiB: smooth float64 data
plus an int32 ramp), writes every chunk to DIR/<config>-<i>.chunk, then times
``schunk.decompress_chunk(i, dst)`` with dparams nthreads=1 and with nthreads=2
(the Rust example times one and two threads too).  Results go to DIR/python.json, which
the Rust example reads to print the ratio.
"""

import json
import os
import sys
import time

import numpy as np
import blosc2

C, F = blosc2.Codec, blosc2.Filter
CONFIGS = [
    ("blosclz-shuffle", C.BLOSCLZ, [F.SHUFFLE]),
    ("lz4-shuffle", C.LZ4, [F.SHUFFLE]),
    ("lz4hc-shuffle", C.LZ4HC, [F.SHUFFLE]),
    ("zlib-shuffle", C.ZLIB, [F.SHUFFLE]),
    ("zstd-shuffle", C.ZSTD, [F.SHUFFLE]),
    ("lz4-bitshuffle", C.LZ4, [F.BITSHUFFLE]),
    ("blosclz-nofilter", C.BLOSCLZ, [F.NOFILTER]),
]
CHUNK = 4 << 20
# The zstd rows of issue 29: a smooth float64 field and int32 counters (scripts/bench_compress.py's
# data), shuffle (python-blosc2's default), clevels 1, 5 and 9: (name, dataset, typesize, clevel).
ZSTD_ROWS = [(f"zstd-{d}-c{cl}", d, ts, cl) for d, ts in (("smooth", 8), ("counters", 4)) for cl in (1, 5, 9)]
# zstd + bytedelta (issues 29 and 33): shuffle then bytedelta, clevel 1, on both datasets.
BYTEDELTA_ROWS = [(f"zstd-bytedelta-{d}", d, ts, 1) for d, ts in (("smooth", 8), ("counters", 4))]
# Byte shuffle of 2- and 16-byte items (issue 33's AVX2 kernels): the same data as CONFIGS,
# typesize 2 or 16, lz4 clevel 5.
SHUFFLE_SIZE_ROWS = [(f"lz4-shuffle-ts{ts}", ts) for ts in (2, 16)]
# B2_BENCH_ONLY=zstd runs only the configurations whose name starts with it.
ONLY = os.environ.get("B2_BENCH_ONLY", "")


def data(i):
    """4 MiB that keeps the codecs busy: rounded smooth float64 values
    (chunks 0, 2) and small Poisson counts stored as int64 (chunks 1, 3)."""
    rng = np.random.default_rng(i)
    n = CHUNK // 8
    if i % 2 == 0:
        t = np.arange(n) / 2000.0
        x = np.round(np.sin(t) * 100.0 + rng.normal(scale=0.05, size=n), 2)
        return x.astype("<f8")
    return rng.poisson(20, size=n).astype("<i8")


def dataset(name, i):
    """Chunk i of a 64 MiB array (scripts/bench_compress.py's smooth field or counters)."""
    rng = np.random.default_rng(42 + i)
    if name == "smooth":
        n8 = CHUNK // 8
        x = np.linspace(0, 20, 16 * n8)[i * n8:(i + 1) * n8]
        return (np.sin(x) * np.cos(x / 3) * 1000 + x).astype("<f8")
    n4 = CHUNK // 4
    return (np.arange(i * n4, (i + 1) * n4) // 7 + rng.integers(0, 3, n4)).astype("<i4")


def timeit(fn, nbytes, min_time=0.5):
    fn()
    best = float("inf")
    total, reps = 0.0, 0
    while total < min_time or reps < 5:
        t = time.perf_counter()
        fn()
        dt = time.perf_counter() - t
        best = min(best, dt)
        total += dt
        reps += 1
    return nbytes / best / 1e6


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/b2chunk-bench"
    os.makedirs(out, exist_ok=True)
    results = {}
    rows = [(name, codec, filters, 8, 5, data) for name, codec, filters in CONFIGS]
    rows += [(name, C.ZSTD, [F.SHUFFLE], ts, cl, lambda i, d=d: dataset(d, i)) for name, d, ts, cl in ZSTD_ROWS]
    rows += [(name, C.ZSTD, [F.SHUFFLE, F.BYTEDELTA], ts, cl, lambda i, d=d: dataset(d, i))
             for name, d, ts, cl in BYTEDELTA_ROWS]
    rows += [(name, C.LZ4, [F.SHUFFLE], ts, 5, data) for name, ts in SHUFFLE_SIZE_ROWS]
    for name, codec, filters, typesize, clevel, make in rows:
        if not name.startswith(ONLY):
            continue
        cp = blosc2.CParams(codec=codec, clevel=clevel, typesize=typesize, filters=filters,
                            filters_meta=[0] * len(filters), nthreads=1)
        s = blosc2.SChunk(chunksize=CHUNK, cparams=cp)
        for i in range(4):
            s.append_data(make(i))
        cbytes = 0
        for i in range(s.nchunks):
            ch = s.get_chunk(i)
            cbytes += len(ch)
            with open(os.path.join(out, f"{name}-{i}.chunk"), "wb") as f:
                f.write(ch)
        dst = bytearray(CHUNK)
        r = {}
        for nt in (1, 2):
            s.dparams = blosc2.DParams(nthreads=nt)
            assert s.dparams.nthreads == nt
            speeds = [timeit(lambda i=i: s.decompress_chunk(i, dst), CHUNK) for i in range(s.nchunks)]
            r[f"nthreads{nt}_MBps"] = round(sum(speeds) / len(speeds), 1)
        r["ratio"] = round(s.nchunks * CHUNK / cbytes, 2)
        results[name] = r
        print(f"{name:18} cratio {r['ratio']:6.2f}  python-blosc2 nthreads=1 {r['nthreads1_MBps']:8.1f} MB/s"
              f"  nthreads=2 {r['nthreads2_MBps']:8.1f} MB/s")
    with open(os.path.join(out, "python.json"), "w") as f:
        json.dump(dict(version=f"python-blosc2 {blosc2.__version__} / c-blosc2 {blosc2.blosclib_version}",
                       results=results), f, indent=1)


if __name__ == "__main__":
    main()
