"""Random stores written by python-blosc2, for tests/store_python.rs.

Run by tests/store_python.rs with the pinned environment of scripts/pyenv.sh:
    python write_stores.py MANIFEST.json
Each entry names a store (`form`: dict.b2z, tree.b2z, dict.b2d, tree.b2d or embed.b2e; `path`;
`threshold` for Dict/TreeStores; `zip64` for a .b2z) and its members (`key`, `dtype`, `shape`,
`seed`, `raw`). The store is written with python-blosc2, every member's data (C order) to its
`raw` file, and the store is read back through python-blosc2 and compared before the Rust side
reads it.

A `.b2z` with `zip64` is rewritten member by member by Python's own `zipfile` with its zip64
thresholds lowered to 0 (what it does past 65,535 members or 4 GiB, on a small file): every
member written `force_zip64=True` (a zip64 extra field in its local header), the central
directory's sizes and offsets as 0xffffffff with their zip64 extra field, and the zip64
end-of-central-directory record and locator.
"""
import zipfile

import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script


def data(m):
    rng = np.random.default_rng(m["seed"])
    if m.get("schunk"):
        # An SChunk of bytes (a .b2f member when it is not embedded).
        n = int(np.prod(m["shape"])) if m["shape"] else 1
        raw = rng.integers(0, 4, n * np.dtype(m["dtype"]).itemsize, dtype=np.uint8).tobytes()
        return blosc2.SChunk(chunksize=max(64, len(raw) // 3 // 8 * 8), data=raw,
                             cparams=blosc2.CParams(typesize=1))
    dt = np.dtype(m["dtype"])
    shape = tuple(m["shape"])
    n = int(np.prod(shape)) if shape else 1
    if dt.kind == "f":
        a = rng.standard_normal(n).astype(dt)
    elif dt.kind == "b":
        a = rng.integers(0, 2, n).astype(dt)
    else:
        info = np.iinfo(dt)
        a = rng.integers(max(info.min, -(2**40)), min(info.max, 2**40), n, dtype=np.int64).astype(dt)
    return a.reshape(shape)


def rezip64(path):
    with zipfile.ZipFile(path) as src:
        items = [(i, src.read(i.filename)) for i in src.infolist()]
    saved = zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT
    zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = 0, 0
    try:
        with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED, allowZip64=True) as dst:
            for info, raw in items:
                zi = zipfile.ZipInfo(info.filename, info.date_time)
                zi.compress_type = zipfile.ZIP_STORED
                with dst.open(zi, "w", force_zip64=True) as w:
                    w.write(raw)
    finally:
        zipfile.ZIP64_LIMIT, zipfile.ZIP_FILECOUNT_LIMIT = saved
    with open(path, "rb") as f:
        assert b"PK\x06\x06" in f.read(), "no zip64 end record"


def check(e):
    arrays = {m["key"]: data(m) for m in e["members"]}
    form = e["form"]
    if form == "embed.b2e":
        es = blosc2.EmbedStore(e["path"], mode="w")
        for k, a in arrays.items():
            es[k] = a
        del es
        back = blosc2.EmbedStore(e["path"], mode="r")
    else:
        cls = blosc2.TreeStore if form.startswith("tree") else blosc2.DictStore
        with cls(e["path"], mode="w", threshold=e["threshold"]) as s:
            for k, a in arrays.items():
                s[k] = a
        if e.get("zip64"):
            rezip64(e["path"])
        back = cls(e["path"], mode="r")
    for m in e["members"]:
        a = arrays[m["key"]]
        if m.get("schunk"):
            raw = a[:]
            assert back[m["key"]][:] == raw, m["key"]
            open(m["raw"], "wb").write(raw)
            continue
        assert np.array_equal(back[m["key"]][()], a), m["key"]
        open(m["raw"], "wb").write(np.ascontiguousarray(a).tobytes())
    if hasattr(back, "close"):
        back.close()


manifest.run(check)
