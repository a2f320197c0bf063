"""Both directions of the compression matrix, in one python process.

Run by tests/compress_python.rs with the pinned environment of scripts/pyenv.sh:
    python compress_matrix.py MANIFEST.json
For every entry: python-blosc2 opens the file b2schema wrote ("ours") and reads back the
expected bytes (arr[()] for arrays, every chunk for SChunks); then it writes the same data with
the same parameters ("theirs") for the Rust side to decode and compare. Prints one line per
failure and a summary; exits 1 if any check failed.
"""
import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script


def cparams(e):
    return blosc2.CParams(
        codec=blosc2.Codec(e["codec"]),
        clevel=e["clevel"],
        typesize=e["typesize"],
        nthreads=1,
        blocksize=e.get("blocksize", 0),
        splitmode=blosc2.SplitMode(e["splitmode"]),
        filters=[blosc2.Filter(f) for f in e["filters"]],
        filters_meta=e["filters_meta"],
    )


def check(e):
    data = open(e["data"], "rb").read()
    expect = open(e["expect"], "rb").read()
    if e["kind"] == "ndarray":
        dtype = np.dtype(e["dtype"])
        arr = blosc2.open(e["ours"], mode="r")
        got = np.ascontiguousarray(arr[()]).tobytes()
        assert got == expect, "python-blosc2 reads other data from b2schema's file"
        src = np.frombuffer(data, dtype=dtype).reshape(e["shape"])
        blosc2.asarray(src, chunks=tuple(e["chunks"]), blocks=tuple(e["blocks"]), cparams=cparams(e),
                       urlpath=e["theirs"], mode="w")
    else:
        sc = blosc2.open(e["ours"], mode="r")
        got = b"".join(sc.decompress_chunk(i) for i in range(sc.nchunks))
        assert got == expect, "python-blosc2 reads other data from b2schema's SChunk"
        blosc2.SChunk(chunksize=e["chunksize"], data=data, cparams=cparams(e), urlpath=e["theirs"], mode="w")


manifest.run(check)
