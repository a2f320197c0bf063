#!/usr/bin/env python3
"""c-blosc2's plugin codecs and filters (NDLZ, ZFP, ndcell, ndmean, int_trunc): b2schema next to
python-blosc2 (c-blosc2), in one run.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_plugins.py [--reps N]

For each case python-blosc2 writes an array (in /tmp/b2plugin-bench, never in the repository)
and is timed decoding every chunk (``schunk.decompress_chunk``, one thread) and writing the array
in memory (``blosc2.asarray``, one thread); then ``benches/plugin_bench`` times b2schema on the
same file and data (``FrameFile::chunk_data`` of every chunk, ``NdArray::to_frame``). Best of
REPS runs each; prints MB/s of uncompressed data and the ratios.
"""

import argparse
import json
import os
import subprocess
import time

from bench_tool import bench_exe

os.environ["BLOSC_NTHREADS"] = "1"

import numpy as np  # noqa: E402
import blosc2  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = "/tmp/b2plugin-bench"


def cases():
    r, c = np.indices((4000, 4000))
    image = (((r // 16) * 7 + (c // 16) * 3) % 32).astype(np.uint8)
    image.flat[::101] = 255  # some noise: not every cell repeats
    field = (np.sin(r[:2048, :2048] * 0.01) * np.cos(c[:2048, :2048] * 0.013) * 100).astype(np.float64)
    ints = ((r[:2048, :2048] * 31 + c[:2048, :2048]) % 100_000).astype(np.int32)
    two = dict(chunks=(512, 512), blocks=(128, 128))
    return [
        ("ndlz 4x4, u1 4000x4000", image, dict(chunks=(1000, 1000), blocks=(250, 250)), 32, 4, 5, []),
        ("ndlz 8x8, u1 4000x4000", image, dict(chunks=(1000, 1000), blocks=(250, 250)), 32, 8, 5, []),
        ("zfp_acc 1e-3, f8 2048^2", field, two, 33, 253, 5, []),
        ("zfp_prec 20, f8 2048^2", field, two, 34, 20, 5, []),
        ("zfp_rate 25 %, f8 2048^2", field, two, 35, 25, 5, []),
        ("zfp_acc 1e-3, f4 2048^2", field.astype(np.float32), two, 33, 253, 5, []),
        ("ndcell 4 + shuffle, lz4, i4", ints, two, 1, 0, 5, [(32, 4), (1, 0)]),
        ("ndmean 4 + shuffle, lz4, f8", field, two, 1, 0, 5, [(33, 4), (1, 0)]),
        ("int_trunc 28 + shuffle, lz4, i4", ints, two, 1, 0, 5, [(36, 28), (1, 0)]),
    ]


def best(fn, reps):
    t = float("inf")
    for _ in range(reps):
        s = time.perf_counter()
        fn()
        t = min(t, time.perf_counter() - s)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=5)
    reps = ap.parse_args().reps
    os.makedirs(DIR, exist_ok=True)
    blosc2.set_nthreads(1)
    entries, theirs_times = [], {}
    for i, (name, arr, shapes, codec, cmeta, clevel, filters) in enumerate(cases()):
        cparams = blosc2.CParams(codec=codec, codec_meta=cmeta, clevel=clevel, nthreads=1,
                                 filters=[f for f, _ in filters], filters_meta=[m for _, m in filters])
        path = os.path.join(DIR, f"case{i}.b2nd")
        data = os.path.join(DIR, f"case{i}.data")
        arr = np.ascontiguousarray(arr)
        arr.tofile(data)
        blosc2.asarray(arr, urlpath=path, mode="w", cparams=cparams, **shapes)
        enc = best(lambda: blosc2.asarray(arr, cparams=cparams, **shapes), reps)
        a = blosc2.open(path, mode="r")
        s = a.schunk
        dec = best(lambda: [s.decompress_chunk(k) for k in range(s.nchunks)], reps)
        theirs_times[name] = (enc, dec, s.cbytes)
        entries.append({"name": name, "theirs": path, "data": data, "dtype": arr.dtype.str,
                        "shape": arr.shape, "codec": codec, "codec_meta": cmeta, "clevel": clevel,
                        "filters": [f for f, _ in filters], "filters_meta": [m for _, m in filters], **shapes})
    spec = os.path.join(DIR, "cases.json")
    json.dump(entries, open(spec, "w"))
    out = subprocess.run([bench_exe("b2schema", "plugin_bench"), spec, str(reps)],
                         check=True, capture_output=True, text=True).stdout
    print(f"{'case':34} {'c-blosc2 dec':>12} {'b2schema dec':>12} {'ratio':>6} {'c-blosc2 enc':>12} {'b2schema enc':>12} {'ratio':>6}")
    for line in out.splitlines():
        r = json.loads(line)
        enc, dec, cbytes = theirs_times[r["name"]]
        mb = r["nbytes"] / 1e6
        print(f"{r['name']:34} {mb / dec:10.0f} MB/s {mb / r['decode']:8.0f} MB/s {dec / r['decode']:6.2f}"
              f" {mb / enc:10.0f} MB/s {mb / r['encode']:8.0f} MB/s {enc / r['encode']:6.2f}")


main()
