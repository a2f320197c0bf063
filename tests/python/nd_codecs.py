"""c-blosc2's plugin codecs and filters that python-blosc2 writes out of the box (NDLZ, ZFP in
its three modes, ndcell, ndmean, int_trunc), both ways.

Run by tests/nd_codecs_python.rs with the pinned environment of scripts/pyenv.sh:
    python nd_codecs.py MANIFEST.json
For every entry: python-blosc2 writes the entry's data (raw little-endian items in `data`) as an
NDArray with the entry's shapes, codec and filters ("theirs"), writes what c-blosc2 decodes of
every chunk, whole, to `theirs_chunks`, and what it reads back, `arr[()]`, to `expected` (the
lossy codecs' output as c-blosc2 decodes it). c-blosc2 3.3.5 cannot give `arr[()]` of some 4-D
zfp_rate arrays (its one-cell shortcut for items of a block, `zfp_getcell`, fails: "Error while
getting the buffer"); then `expected` is not written and its error goes to `expected.err`. When
b2schema wrote the same array ("ours"), python-blosc2 reads it: its chunks must decode as b2schema decodes them (`ours_chunks`) and `arr[()]`, where
c-blosc2 gives it, must equal what b2schema's reader gave (`ours_read`). Prints one line per
failure and a summary.
"""
import os

for k in [k for k in os.environ if k.startswith("BLOSC")]:
    del os.environ[k]

import blosc2  # noqa: E402
import numpy as np  # noqa: E402

import manifest  # noqa: E402  (tests/python/manifest.py, beside this script)

blosc2.set_nthreads(1)


def check(e):
    dtype = np.dtype(e["dtype"])
    shape = tuple(e["shape"])
    data = np.frombuffer(open(e["data"], "rb").read(), dtype=dtype).reshape(shape)
    arr = blosc2.asarray(
        data,
        chunks=tuple(e["chunks"]),
        blocks=tuple(e["blocks"]),
        urlpath=e["theirs"],
        mode="w",
        cparams=blosc2.CParams(
            codec=e["codec"],
            codec_meta=e["codec_meta"],
            clevel=e["clevel"],
            filters=e["filters"],
            filters_meta=e["filters_meta"],
            nthreads=1,
        ),
    )
    del arr
    with open(e["theirs_chunks"], "wb") as f:
        f.write(chunks(e["theirs"]))
    whole = read(e["theirs"])
    if isinstance(whole, Exception):
        with open(e["expected"] + ".err", "w") as f:
            f.write(str(whole))
    else:
        with open(e["expected"], "wb") as f:
            f.write(whole)
    # b2schema wrote the same array ("ours")
    got = chunks(e["ours"])
    assert got == open(e["ours_chunks"], "rb").read(), "c-blosc2 decodes b2schema's chunks as other data"
    got = read(e["ours"])
    if not isinstance(got, Exception):
        want = open(e["ours_read"], "rb").read()
        assert got == want, "python-blosc2 reads b2schema's array as other data than b2schema does"
    elif not isinstance(whole, Exception):
        raise got


def chunks(path):
    """What c-blosc2 decodes of every chunk of the array at `path`, whole, end to end."""
    arr = blosc2.open(path, mode="r")  # kept: its SChunk lives as long as it does
    s = arr.schunk
    return b"".join(bytes(s.decompress_chunk(i)) for i in range(s.nchunks))


def read(path):
    """`arr[()]` of the array at `path` as bytes, or c-blosc2's error."""
    try:
        return np.ascontiguousarray(blosc2.open(path, mode="r")[()]).tobytes()
    except RuntimeError as ex:
        return ex


manifest.run(check)
