"""Writes random NDArrays with python-blosc2 and reports what it reads for random slices.

Usage: slices.py CASES.json OUT_DIR  (run by tests/array_python.rs)

CASES.json is a list of {name, shape, chunks, blocks, dtype, codec, clevel, filters, seed,
slices: [[[start, stop], ...], ...]}. Each array is written to OUT_DIR/<name>.b2nd with
blosc2.asarray from deterministic data, then reopened; for every slice the script prints one
JSON line {name, slice, sha256, truth}: the SHA-256 of what python-blosc2 reads for arr[slices]
and of the same slice of the data written, in C order (numpy's tobytes()). The two differ where
c-blosc2 3.3.5 decodes a block with a delta filter without its reference block (a slice that
leaves out a chunk's first block): see tests/array_python.rs.
"""

import hashlib
import json
import os
import sys

for k in [k for k in os.environ if k.startswith("BLOSC")]:
    del os.environ[k]

import blosc2  # noqa: E402
import numpy as np  # noqa: E402

F = blosc2.Filter
FILTERS = {"shuffle": F.SHUFFLE, "bitshuffle": F.BITSHUFFLE, "delta": F.DELTA, "bytedelta": F.BYTEDELTA}


def data(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    n = int(np.prod(shape, dtype=np.int64))
    if dt.kind == "f":
        # Smooth values with repeats: compressible, and no NaN to compare.
        base = np.arange(n, dtype=np.float64) % 97 + rng.integers(0, 4, n)
        return (base / 8).astype(dt).reshape(shape)
    info = np.iinfo(dt)
    lo, hi = max(info.min, -1000), min(info.max, 1000)
    return rng.integers(lo, hi, n, endpoint=True).astype(dt).reshape(shape)


def main():
    cases = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    blosc2.set_nthreads(1)
    for c in cases:
        filters = [FILTERS[f] for f in c["filters"]]
        meta = [np.dtype(c["dtype"]).itemsize if f == "bytedelta" else 0 for f in c["filters"]]
        path = os.path.join(out, c["name"] + ".b2nd")
        written = data(tuple(c["shape"]), c["dtype"], c["seed"])
        arr = blosc2.asarray(
            written,
            chunks=tuple(c["chunks"]),
            blocks=tuple(c["blocks"]),
            urlpath=path,
            mode="w",
            cparams={
                "codec": blosc2.Codec[c["codec"].upper()],
                "clevel": c["clevel"],
                "filters": filters,
                "filters_meta": meta,
                "nthreads": 1,
            },
        )
        del arr
        arr = blosc2.open(path, mode="r")
        for s in c["slices"]:
            index = tuple(slice(a, b) for a, b in s)
            got = np.ascontiguousarray(arr[index])
            # A 0-d array indexed with () gives a native-order scalar: keep the array instead.
            truth = np.ascontiguousarray(written[index] if index else written)
            print(json.dumps({
                "name": c["name"],
                "slice": s,
                "sha256": hashlib.sha256(got.tobytes()).hexdigest(),
                "truth": hashlib.sha256(truth.tobytes()).hexdigest(),
            }))


main()
