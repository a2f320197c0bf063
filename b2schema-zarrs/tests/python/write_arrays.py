"""zarr-python writes the arrays b2schema-zarrs must read (tests/zarr_python.rs).

    python write_arrays.py DIR MANIFEST.json
For every Zarr format (2, 3), every cname numcodecs' Blosc has (blosclz, lz4, lz4hc, zlib, zstd)
and every shuffle (noshuffle, shuffle, bitshuffle): one array under DIR/NAME with `blosc` as its
compressor (v2: numcodecs.Blosc; v3: zarr.codecs.BloscCodec), edge chunks included, and its data
as little-endian C-order bytes in DIR/NAME.raw; plus a large array per format whose chunks hold
several blocks. Writes the list of arrays to MANIFEST.json and prints a summary.
"""
import json
import sys

import numcodecs
import numpy as np
import zarr
from zarr.codecs import BloscCodec

CNAMES = ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]
SHUFFLES = {"noshuffle": 0, "shuffle": 1, "bitshuffle": 2}
DTYPES = ["<f4", "<u2", "<i8", "|u1", "<f8"]


def data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    ramp = np.arange(n) / 3 + rng.integers(0, 4, n)
    return (ramp % 250 if dtype == "|u1" else ramp).astype(dtype).reshape(shape)


def write(root, name, fmt, cname, shuffle, dtype, shape, chunks, clevel, seed):
    if fmt == 3:
        compressor = BloscCodec(cname=cname, clevel=clevel, shuffle=shuffle)
    else:
        compressor = numcodecs.Blosc(cname=cname, clevel=clevel, shuffle=SHUFFLES[shuffle])
    a = zarr.create_array(
        store=root, name=name, shape=shape, chunks=chunks, dtype=dtype, compressors=compressor,
        zarr_format=fmt, fill_value=0,
    )
    d = data(dtype, shape, seed)
    a[...] = d
    open(f"{root}/{name}.raw", "wb").write(d.tobytes())
    return {"name": name, "format": fmt, "cname": cname, "shuffle": shuffle, "dtype": dtype}


root, manifest = sys.argv[1], sys.argv[2]
entries = []
for fmt in (2, 3):
    for i, cname in enumerate(CNAMES):
        for j, shuffle in enumerate(SHUFFLES):
            dtype = DTYPES[(i + j) % len(DTYPES)]
            name = f"v{fmt}_{cname}_{shuffle}"
            entries.append(write(root, name, fmt, cname, shuffle, dtype, (130, 90), (64, 50), 1 + (i + j) % 9, i * 10 + j))
    entries.append(write(root, f"v{fmt}_large_lz4", fmt, "lz4", "shuffle", "<f8", (600, 700), (300, 700), 5, 99))
    entries.append(write(root, f"v{fmt}_large_zstd", fmt, "zstd", "bitshuffle", "<i8", (600, 700), (300, 700), 3, 98))
json.dump(entries, open(manifest, "w"))
print(f"zarr {zarr.__version__}, numcodecs {numcodecs.__version__}: wrote {len(entries)} arrays")
