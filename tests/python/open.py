"""Files for `tests/open_python.rs` (issue 36: reading as easily as `blosc2.open`), written by the
pinned python-blosc2, with what python-blosc2 reads from them as JSON lines.

Usage: open.py DIR. Values are tagged so that JSON holds them exactly: a float as
{"f64": little-endian bits in hex}, bytes as {"bytes": hex}, a tuple as {"tuple": [...]}, a map as
{"map": [[k, v], ...]}, a complex number as {"complex": [re bits, im bits]}, a set as {"set": [...]}.
"""

import hashlib
import json
import struct
import sys

import blosc2
import numpy as np

out_dir = sys.argv[1]
rng = np.random.default_rng(36)


def tag(v):
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return {"f64": struct.pack("<d", v).hex()}
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, tuple):
        return {"tuple": [tag(x) for x in v]}
    if isinstance(v, list):
        return [tag(x) for x in v]
    if isinstance(v, dict):
        return {"map": [[tag(k), tag(x)] for k, x in v.items()]}
    if isinstance(v, complex):
        return {"complex": [struct.pack("<d", v.real).hex(), struct.pack("<d", v.imag).hex()]}
    if isinstance(v, (set, frozenset)):
        return {"set": [tag(x) for x in v]}
    raise TypeError(type(v))


def emit(**kw):
    print(json.dumps(kw), flush=True)


# 1. Metadata: vlmeta of every kind python-blosc2 writes passively, user metalayers, info.
meta = {"unit": "m", "scale": [1, 2], "origin": (0.5, -0.5)}
a = blosc2.asarray(
    np.arange(60 * 7, dtype="<f8").reshape(60, 7),
    urlpath=f"{out_dir}/meta.b2nd",
    mode="w",
    chunks=(25, 7),
    blocks=(5, 7),
    cparams=blosc2.CParams(codec=blosc2.Codec.LZ4, clevel=7, filters=[blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA], filters_meta=[0, 0]),
    meta=meta,
)
vlmeta = {
    "title": "a title \u2713",
    "t": (1, "two", 3.5),
    "nested": {"a": [1, 2, (3, 4)], "b": b"\x00\xff", "n": None, "f": True},
    "c": complex(1.5, -2.0),
    "s": {1, 2, 3},
    "big": 2**64 - 1,
    "neg": -(2**63),
    "fl": 0.1,
}
for k, v in vlmeta.items():
    a.vlmeta[k] = v
b = blosc2.open(f"{out_dir}/meta.b2nd")
cp = b.cparams
emit(
    what="meta",
    vlmeta=[[k, tag(v)] for k, v in b.vlmeta.getall().items()],
    meta=[[k, tag(b.schunk.meta[k])] for k in meta],
    shape=list(b.shape),
    chunks=list(b.chunks),
    blocks=list(b.blocks),
    dtype=b.dtype.str,
    codec=cp.codec.name.lower(),
    clevel=cp.clevel,
    filters=[f.name.lower() for f in cp.filters if f != blosc2.Filter.NOFILTER],
    typesize=cp.typesize,
    nbytes=b.schunk.nbytes,
    cbytes=b.schunk.cbytes,
    cratio=b.schunk.cratio,
)

# 2. An SChunk, with its data and a slice of its items.
data = rng.integers(0, 1000, 10_000, dtype="<i4")
s = blosc2.SChunk(chunksize=4000, data=data, urlpath=f"{out_dir}/schunk.b2frame", mode="w",
                  cparams=blosc2.CParams(typesize=4))
s.vlmeta["kind"] = "counts"
emit(what="schunk", nitems=int(data.size), typesize=4,
     sha=hashlib.sha256(data.tobytes()).hexdigest(),
     part=hashlib.sha256(data[1234:5678].tobytes()).hexdigest())

# 3. Typed reads: every dtype family python-blosc2 writes, values as little-endian bytes.
def typed(name, arr, chunks, blocks):
    x = blosc2.asarray(arr, urlpath=f"{out_dir}/{name}.b2nd", mode="w", chunks=chunks, blocks=blocks)
    y = blosc2.open(f"{out_dir}/{name}.b2nd")[()]
    le = np.ascontiguousarray(y.astype(y.dtype.newbyteorder("<")))
    row = dict(what="typed", name=name, dtype=x.dtype.str, le=le.tobytes().hex(), n=int(y.size))
    if y.dtype.kind in "US":
        row["values"] = [v.hex() if isinstance(v, bytes) else v for v in y.ravel().tolist()]
    emit(**row)


n = 1000
typed("f2", rng.normal(size=n).astype("<f2"), (300,), (70,))
typed("c8", (rng.normal(size=n) + 1j * rng.normal(size=n)).astype("<c8"), (300,), (70,))
typed("c16be", (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(">c16"), (300,), (70,))
dt = rng.integers(-(2**40), 2**40, n).astype("<M8[ms]")
dt[::97] = np.datetime64("NaT")
typed("m8ms", dt, (300,), (70,))
typed("td5s", rng.integers(-(2**31), 2**31, n).astype(">m8[5s]"), (300,), (70,))
words = np.array(["", "a", "\u00e9t\u00e9", "\U0001F600x", "abcde"] * 200, dtype="<U5")
typed("u5", words, (300,), (70,))
typed("s4", np.array([b"", b"a", b"ab\x00c", b"abcd"] * 250, dtype="|S4"), (300,), (70,))
rec = np.zeros(n, dtype=[("a", "<i4"), ("b", ">f8"), ("s", "<U3"), ("v", "<f4", (2,))])
rec["a"] = rng.integers(-1000, 1000, n)
rec["b"] = rng.normal(size=n)
rec["s"] = ["x", "yz", "\u00e9\u00e9\u00e9", ""] * 250
rec["v"] = rng.normal(size=(n, 2))
typed("rec", rec, (300,), (70,))
emit(what="records", items=[[int(r[0]), struct.pack("<d", float(r[1])).hex(), r[2],
                             [struct.pack("<f", float(v)).hex() for v in r[3]]] for r in rec[:50].tolist()])

# 4. Steps and NumPy's shapes: random selections with steps of a 3-D array.
g = blosc2.asarray(rng.normal(size=(37, 23, 11)), urlpath=f"{out_dir}/grid.b2nd", mode="w",
                   chunks=(10, 8, 5), blocks=(4, 3, 2))
full = g[()]


def item(n):
    k = rng.integers(0, 4)
    if k == 0:
        return str(int(rng.integers(-n, n)))
    a, b = sorted(int(v) for v in rng.integers(-n - 2, n + 2, 2))
    parts = [str(a) if rng.integers(0, 3) else "", str(b) if rng.integers(0, 3) else ""]
    if k >= 2:
        parts.append(str(int(rng.integers(1, 6))) if rng.integers(0, 4) else "")
    return ":".join(parts)


def parse(text, n):
    parts = text.split(":")
    if len(parts) == 1:
        return int(parts[0]) if parts[0] else slice(None)
    vals = [int(p) if p else None for p in parts]
    return slice(*vals)


for _ in range(120):
    items = [item(n) for n in full.shape[: rng.integers(0, 4)]]
    text = ", ".join(items)
    key = tuple(parse(t, n) for t, n in zip(items, full.shape))
    want = np.array(full[key] if key else full, order="C")
    emit(what="slice", text=text, shape=list(want.shape), sha=hashlib.sha256(want.tobytes()).hexdigest())
