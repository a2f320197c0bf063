#!/usr/bin/env python3
"""Write the python-blosc2 store fixtures of tests/stores.rs (tests/data/stores/).

Run from the repository root:

    PY=$(scripts/pyenv.sh) && "$PY" tests/data/stores/generate.py

Deletes and rewrites the stores below and stores.json, which lists for every store each key
with its shape, dtype and data (as a flat list) as python-blosc2 reads them back.
ZIP members carry a timestamp, so a rerun differs in those bytes only.
"""

from __future__ import annotations

import json
import os
import shutil
import sys

import blosc2
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


# The lying maps of lie-*.b2e (the one true member, /x, is 293 bytes at offset 0).
LIES = {
    "dotdot": {"/a/../x": {"offset": 0, "length": 293}},
    "control": {"/x\x1b[2J": {"offset": 0, "length": 293}},
    "past-end": {"/x": {"offset": 200, "length": 293}},
    "huge": {"/x": {"offset": 2**63 - 1, "length": 2**63 - 1}},
    "negative": {"/x": {"offset": -1, "length": 293}},
    "not-a-frame": {"/x": {"offset": 10, "length": 200}},
    "no-length": {"/x": {"offset": 0}},
}


def arrays():
    return {
        "/x": np.arange(10, dtype="<i4"),
        "/big": np.arange(600, dtype="<f8").reshape(12, 50),
        "/g/x": np.arange(5, dtype="<u2"),
        "/g/h/deep": np.linspace(0, 1, 7).astype("<f4"),
    }


def describe(store):
    out = {}
    for key in sorted(store.keys()):
        v = store[key]
        if not hasattr(v, "shape") or not hasattr(v, "dtype"):
            continue
        a = v[()] if v.ndim else v[()]
        out[key] = {"shape": list(v.shape), "dtype": v.dtype.str, "data": np.asarray(a).ravel().tolist()}
    return out


def main() -> None:
    blosc2.set_nthreads(1)
    os.chdir(HERE)
    for name in ["dict.b2z", "tree.b2z", "dict.b2d", "embed.b2e", "small.b2z", "kinds.b2z"] + [f"lie-{k}.b2e" for k in LIES]:
        if os.path.isdir(name):
            shutil.rmtree(name)
        elif os.path.exists(name):
            os.remove(name)
    # A DictStore whose small arrays go to embed.b2e (threshold) and big ones to members.
    with blosc2.DictStore("dict.b2z", mode="w", threshold=1000) as ds:
        for k, v in arrays().items():
            ds[k] = v
    with blosc2.TreeStore("tree.b2z", mode="w") as ts:
        for k, v in arrays().items():
            ts[k] = v
    with blosc2.DictStore("dict.b2d", mode="w") as ds:
        for k, v in arrays().items():
            ds[k] = v
    es = blosc2.EmbedStore("embed.b2e", mode="w")
    for k, v in arrays().items():
        es[k] = v
    del es
    # The smallest: one member and an empty embed store (the hostile tests start from it).
    with blosc2.DictStore("small.b2z", mode="w") as ds:
        ds["/a"] = np.arange(4, dtype="<i2")
    # One member of each kind python-blosc2 keeps in a store (listed by kind; only arrays and
    # SChunks are read so far).
    batch = blosc2.BatchArray()
    batch.append([1, 2, "x"])
    batch.append([{"a": 1}])
    objects = blosc2.ObjectArray()
    objects.append({"k": 1})
    schunk = blosc2.SChunk(chunksize=64, data=bytes(range(200)), cparams=blosc2.CParams(typesize=1))
    with blosc2.DictStore("kinds.b2z", mode="w") as ds:
        ds["/batch"] = batch
        ds["/objects"] = objects
        ds["/schunk"] = schunk
        ds["/array"] = np.arange(3, dtype="<i8")
    kinds = {}
    with blosc2.DictStore("kinds.b2z", mode="r") as ds:
        for key in sorted(ds.keys()):
            kinds[key] = type(ds[key]).__name__
    # EmbedStores whose map lies, written through the SChunk's vlmeta (python-blosc2 checks
    # keys and offsets only when it writes them itself).
    for name, embed_map in LIES.items():
        es = blosc2.EmbedStore(f"lie-{name}.b2e", mode="w")
        es["/x"] = np.arange(10, dtype="<i4")
        del es
        sc = blosc2.blosc2_ext.open(f"lie-{name}.b2e", mode="a", offset=0)
        sc.vlmeta["estore_metadata"] = {"embed_map": embed_map, "current_offset": 293}
        del sc
    manifest = {"python-blosc2": blosc2.__version__, "numpy": np.__version__, "stores": {}}
    for name, cls in [("dict.b2z", blosc2.DictStore), ("tree.b2z", blosc2.TreeStore),
                      ("dict.b2d", blosc2.DictStore), ("small.b2z", blosc2.DictStore)]:
        with cls(name, mode="r") as s:
            manifest["stores"][name] = describe(s)
    manifest["stores"]["embed.b2e"] = describe(blosc2.EmbedStore("embed.b2e", mode="r"))
    manifest["kinds"] = kinds
    with open("stores.json", "w") as f:
        json.dump(manifest, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    sys.exit(main())
