#!/usr/bin/env python3
"""Decompression and slice reading, b2schema next to python-blosc2 (c-blosc2), in one run.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_decompress.py [--skip-chunks] [--skip-slices]

1. Chunk throughput: ``tests/data/chunks/ref/bench_python.py`` writes 4 chunks of 4 MiB per
   configuration to /tmp/b2chunk-bench and times c-blosc2 (``decompress_chunk``, dparams
   nthreads 1 and 2); then ``benches/chunk_throughput`` times b2schema on the same chunks with
   one thread (``chunk::decompress_into``) and two (``chunk::decompress_into_threaded``) and
   prints the ratios.
2. Slices: builds (once, in /tmp, never in the repository) a 1 GiB float64 array with 16 MiB
   chunks and 256 KiB blocks, and a 2-D float64 array with python-blosc2's default chunks and
   blocks; times one item of the first and one row of the second with python-blosc2
   (``arr[i]``, ``arr[i, :]``) before and after b2schema's ``benches/slice_bench`` (one
   thread; bytes decoded counted), and prints medians and ratios.
3. Whole reads: the 2-D arrays and a 313 MB float32 climate field of shape (1200, 181, 360)
   (python-blosc2's default chunks and blocks: few large chunks) whole, python-blosc2's ``arr[()]``
   against ``benches/slice_bench`` reading bytes (``ArrayReader::read``) and typed values
   (``read_as::<f64>`` or ``read_as::<f32>``, into a new ``Vec``; ``f64e``/``f32e``: by
   ``read_elements``, a new result advised for huge pages as numpy's) and bytes into a kept buffer (``into``: no page
   faults of a new result), at 1 and 2 threads on both sides, the typed read once more with
   glibc's huge pages (``GLIBC_TUNABLES=glibc.malloc.hugetlb=1``); and python-blosc2 once more with
   numpy's huge pages off (numpy madvises its large arrays: their first writes fault 2 MiB pages).
"""

import json
import os
import statistics
import subprocess
import sys
import time

os.environ.setdefault("BLOSC_NTHREADS", "1")  # python-blosc2's slices on one thread, as b2schema's

import numpy as np  # noqa: E402
from bench_tool import bench_exe  # noqa: E402
import blosc2  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHUNK_DIR = "/tmp/b2chunk-bench"
BIG = "/tmp/b2bench-1gib.b2nd"
ROWS = "/tmp/b2bench-2d.b2nd"
ROWS_LZ4 = "/tmp/b2bench-2d-lz4.b2nd"
BIG_N = 1 << 27  # 1 GiB of float64
BIG_CHUNK = 2 << 20  # 16 MiB
BIG_BLOCK = 32 << 10  # 256 KiB
ROWS_SHAPE = (8000, 4000)  # 256 MB of float64
# Issue 51's climate field: 313 MB of float32 in few large chunks of many blocks each, written
# with python-blosc2's default chunks and blocks, which it picks from the host's caches (the
# issue's host: (30, 181, 360) and (1, 181, 360); this one in 2026-11-30: (300, 181, 360) and
# (1, 136, 360)); and again with the issue's (CLIMATE_ISSUE), so both shapes are timed anywhere.
CLIMATE = "/tmp/b2bench-climate.b2nd"
CLIMATE_ISSUE = "/tmp/b2bench-climate-issue.b2nd"
CLIMATE_SHAPE = (1200, 181, 360)


EXES = {}


def run_tool(name, *args, env=None):
    out = subprocess.run([EXES[name], *args], check=True, capture_output=True, text=True,
                         env=None if env is None else {**os.environ, **env})
    return out.stdout


def build():
    for name in ["chunk_throughput", "slice_bench"]:
        EXES[name] = bench_exe("b2schema", name)


def chunks():
    subprocess.run([sys.executable, os.path.join(ROOT, "tests/data/chunks/ref/bench_python.py"), CHUNK_DIR],
                   check=True)
    print(run_tool("chunk_throughput", CHUNK_DIR))


def make_arrays():
    if not os.path.exists(BIG):
        t = time.perf_counter()
        blosc2.arange(0, BIG_N, dtype=np.float64, chunks=(BIG_CHUNK,), blocks=(BIG_BLOCK,),
                      urlpath=BIG, mode="w")
        print(f"built {BIG} in {time.perf_counter() - t:.1f} s")
    if not os.path.exists(ROWS):
        t = time.perf_counter()
        rng = np.random.default_rng(0)
        data = np.round(rng.normal(size=ROWS_SHAPE), 3)
        blosc2.asarray(data, urlpath=ROWS, mode="w")
        print(f"built {ROWS} in {time.perf_counter() - t:.1f} s")
    if not os.path.exists(ROWS_LZ4):
        data = np.round(np.random.default_rng(0).normal(size=ROWS_SHAPE), 3)
        blosc2.asarray(data, urlpath=ROWS_LZ4, mode="w", cparams=blosc2.CParams(codec=blosc2.Codec.LZ4, clevel=5))
    if not os.path.exists(CLIMATE):
        t, lat, lon = np.meshgrid(np.arange(CLIMATE_SHAPE[0]), np.linspace(-90, 90, CLIMATE_SHAPE[1]),
                                  np.linspace(0, 359, CLIMATE_SHAPE[2]), indexing="ij", sparse=True)
        field = (288 - 30 * np.sin(np.radians(lat)) ** 2 + 5 * np.sin(2 * np.pi * t / 365)
                 + 2 * np.cos(np.radians(lon) * 3) + np.random.default_rng(1).normal(0, 0.5, CLIMATE_SHAPE))
        blosc2.asarray(np.round(field, 2).astype(np.float32), urlpath=CLIMATE, mode="w")
    if not os.path.exists(CLIMATE_ISSUE):
        blosc2.asarray(blosc2.open(CLIMATE)[()], urlpath=CLIMATE_ISSUE, mode="w",
                       chunks=(30, 181, 360), blocks=(1, 181, 360))


def py_time(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def slices(reps):
    make_arrays()
    big = blosc2.open(BIG, mode="r")
    rows = blosc2.open(ROWS, mode="r")
    item = BIG_N // 2 + 12345
    row = ROWS_SHAPE[0] // 2 + 7
    print(f"1 GiB array: shape {big.shape}, chunks {big.chunks}, blocks {big.blocks}, {big.cparams.codec.name}")
    print(f"2-D array: shape {rows.shape}, chunks {rows.chunks}, blocks {rows.blocks}, {rows.cparams.codec.name}")
    assert big[item] == item
    cases = [
        ("one item of the 1 GiB array", BIG, str(item), lambda: big[item]),
        ("one row of the 2-D array", ROWS, f"{row},:", lambda: rows[row, :]),
    ]
    for name, path, sel, fn in cases:
        before = py_time(fn, reps)
        ours = json.loads(run_tool("slice_bench", path, sel, str(reps), "1"))
        after = py_time(fn, reps)
        py = statistics.median([before, after])
        print(f"{name}: b2schema {ours['median_ms']:.3f} ms (1 thread; {ours['blocks']} block(s), "
              f"{ours['bytes_decoded']} bytes decoded, {ours['bytes_read']} bytes read), "
              f"python-blosc2 {py:.3f} ms ({before:.3f} before, {after:.3f} after), "
              f"ratio {ours['median_ms'] / py:.2f}")


def whole(reps):
    make_arrays()
    for path in (ROWS, ROWS_LZ4, CLIMATE, CLIMATE_ISSUE):
        for nthreads in (1, 2):
            blosc2.set_nthreads(nthreads)
            rows = blosc2.open(path, mode="r")
            mb = rows.size * rows.dtype.itemsize / 1e6
            codec = f"{rows.cparams.codec.name.lower()} {rows.cparams.clevel}"
            fn = lambda: rows[()]  # noqa: E731
            before = py_time(fn, reps)
            typed = "f32" if rows.dtype == np.float32 else "f64"
            ours = {m: json.loads(run_tool("slice_bench", path, "", str(reps), str(nthreads), m))
                    for m in ("bytes", typed, typed + "e", "into")}
            # The typed read again with glibc's malloc asking for huge pages for its large blocks
            # (glibc >= 2.35; docs/reading.md), as numpy asks for its arrays.
            ours[f"{typed}, GLIBC_TUNABLES=glibc.malloc.hugetlb=1"] = json.loads(
                run_tool("slice_bench", path, "", str(reps), str(nthreads), typed,
                         env={"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}))
            after = py_time(fn, reps)
            py = statistics.median([before, after])
            # numpy asks the kernel for huge pages (madvise) for its arrays of 4 MiB and more, which
            # makes the first writes of a new result cheaper (2 MiB pages, not 4 KiB ones); a Rust
            # `Vec` gets what the system gives. The same read with numpy's huge pages off, for
            # context (the ratios are against python-blosc2 as users run it).
            huge = getattr(np._core.multiarray, "_set_madvise_hugepage", None)
            small_pages = None
            if huge is not None:
                was = huge(False)
                small_pages = py_time(fn, reps)
                huge(was)
            for mode, r in ours.items():
                print(f"whole {mb:.0f} MB {rows.dtype} array {rows.shape}, chunks {rows.chunks}, blocks {rows.blocks}, "
                      f"{codec} + shuffle, {nthreads} thread(s), {mode}: "
                      f"b2schema {r['median_ms']:.1f} ms ({mb / r['median_ms'] * 1e3:.0f} MB/s), "
                      f"python-blosc2 arr[()] {py:.1f} ms ({before:.1f} before, {after:.1f} after), "
                      f"ratio {r['median_ms'] / py:.2f}"
                      + (f", against arr[()] without numpy's huge pages ({small_pages:.1f} ms) "
                         f"{r['median_ms'] / small_pages:.2f}" if small_pages else "")
                      + f"; load {os.getloadavg()[0]:.1f}")


def main():
    print(f"python-blosc2 {blosc2.__version__} / c-blosc2 {blosc2.blosclib_version}")
    build()
    if "--skip-chunks" not in sys.argv:
        chunks()
    if "--skip-slices" not in sys.argv:
        slices(reps=51)
    if "--skip-whole" not in sys.argv:
        whole(reps=9)


if __name__ == "__main__":
    main()
