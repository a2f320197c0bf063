"""A user codec and a user filter, registered in python-blosc2 as its users do, both ways.

Run by tests/plugins_python.rs with the pinned environment of scripts/pyenv.sh:
    python plugins.py MANIFEST.json
The codec (id 160, "trim_zeros") stores a stream without its trailing zero bytes; the filter
(id 161, "rotate_bits") rotates every byte left by `meta % 7 + 1` bits. b2schema implements the
same two in Rust (the test's `TrimZeros` and `RotateBits`). For every entry: python-blosc2 opens
the SChunk b2schema wrote ("ours") and compares its data; then it writes the same data with the
same parameters ("theirs") for the Rust side to read. Prints one line per failure and a summary.
"""
import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script

# User codecs and filters written in Python run on one thread only.
blosc2.set_nthreads(1)


def encode(src, dst, meta, schunk):
    nonzero = np.flatnonzero(src)
    n = int(nonzero[-1]) + 1 if nonzero.size else 0
    if n >= src.size or n > dst.size:
        return 0  # does not fit: c-blosc2 stores the stream as it is
    dst[:n] = src[:n]
    return n


def decode(src, dst, meta, schunk):
    dst[: src.size] = src
    dst[src.size :] = 0
    return dst.size


def forward(src, dst, meta, schunk):
    k = meta % 7 + 1
    dst[:] = (src << k) | (src >> (8 - k))


def backward(src, dst, meta, schunk):
    k = meta % 7 + 1
    dst[:] = (src >> k) | (src << (8 - k))


blosc2.register_codec("trim_zeros", 160, encode, decode)
blosc2.register_filter(161, forward, backward, "rotate_bits")


def check(e):
    data = open(e["data"], "rb").read()
    ours = blosc2.open(e["ours"])
    assert ours.nchunks == e["nchunks"], f"{ours.nchunks} chunks"
    assert bytes(ours[:]) == data, "python-blosc2 reads b2schema's frame as other data"
    cparams = blosc2.CParams(
        codec=e["codec"],
        codec_meta=e["codec_meta"],
        clevel=e["clevel"],
        typesize=e["typesize"],
        nthreads=1,
        filters=e["filters"],
        filters_meta=e["filters_meta"],
    )
    blosc2.SChunk(
        chunksize=e["chunksize"],
        data=data,
        cparams=cparams,
        dparams=blosc2.DParams(nthreads=1),
        urlpath=e["theirs"],
        mode="w",
    )


manifest.run(check)
