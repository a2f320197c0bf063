"""Random BatchArrays and CTables written by python-blosc2, for tests/table_python.rs.

Run by tests/table_python.rs with the pinned environment of scripts/pyenv.sh:
    python write_tables.py MANIFEST.json
An entry is a BatchArray (`kind` "batch": `path`, `seed`, `batches`, `items_per_block`, `codec`,
`clevel`) or a CTable (`kind` "table": `path` (.b2d or .b2z), `seed`, `columns` [{name, kind,
nullable?, null_value?, null_storage?, max_length?, unit? (timestamp), item_shape? and dtype?
(ndarray), item? and storage? (list)}], `rows`, `deletes`). Items and rows are drawn from `seed`
here, written with python-blosc2, read back through python-blosc2 and written as JSON to
`path` + ".json" (bytes as {"__bytes__": hex}, tuples as {"__tuple__": [...]}, a NaN as "NaN",
a complex as {"__complex__": [re, im]}, an ndarray row as nested lists, a timestamp as its
int64 epoch offset, nulls as null), which the Rust side compares with what b2schema reads.

Where python-blosc2 4.14.1 reads a null back as something else (a `float64` sentinel as NaN, a
`timestamp` sentinel as NaT, a `utf8` sentinel as the sentinel text itself), the expected value
is null where the column's own `is_null()` says so, which is what b2schema reads.
"""
import json
import os
import shutil
from dataclasses import make_dataclass

import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script
from plain import plain  # tests/python/plain.py


def text(rng, n):
    alphabet = list("abcxyz ,\"\n") + ["\u00e9", "\u4e2d", "\U0001f600", "\x00"]
    return "".join(alphabet[i] for i in rng.integers(0, len(alphabet), n))


def item(rng, depth=0):
    k = int(rng.integers(0, 11 if depth < 2 else 8))
    if k == 0:
        return int(rng.integers(-(2**31), 2**31))
    if k == 1:
        return [2**63 - 1, -(2**63), 2**64 - 1, 0, -1, 127, 128, 255, 256, 65536][int(rng.integers(0, 10))]
    if k == 2:
        return float(rng.standard_normal())
    if k == 3:
        return text(rng, int(rng.integers(0, 40)))
    if k == 4:
        return rng.bytes(int(rng.integers(0, 40)))
    if k == 5:
        return None
    if k == 6:
        return bool(rng.integers(0, 2))
    if k == 7:
        return text(rng, int(rng.integers(0, 300)))
    if k == 8:
        return [item(rng, depth + 1) for _ in range(int(rng.integers(0, 4)))]
    if k == 9:
        return {text(rng, 3): item(rng, depth + 1) for _ in range(int(rng.integers(0, 4)))}
    return tuple(item(rng, depth + 1) for _ in range(int(rng.integers(1, 4))))


def write_batch(e):
    rng = np.random.default_rng(e["seed"])
    cparams = blosc2.CParams(codec=getattr(blosc2.Codec, e["codec"].upper()), clevel=e["clevel"])
    b = blosc2.BatchArray(urlpath=e["path"], mode="w", items_per_block=e["items_per_block"], cparams=cparams)
    for _ in range(e["batches"]):
        b.append([item(rng) for _ in range(int(rng.integers(1, 30)))])
    b = blosc2.open(e["path"], mode="r")
    return [plain(x) for x in b.items[:]]


NUMERIC = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"}


def spec(c):
    kind = c["kind"]
    kw = {}
    if c.get("nullable"):
        kw["nullable"] = True
    if "null_value" in c:
        kw["null_value"] = c["null_value"]
    if "null_storage" in c:
        kw["null_storage"] = c["null_storage"]
    if kind in ("string", "bytes"):
        kw["max_length"] = c["max_length"]
    if kind == "object":
        kw["nullable"] = True  # its items may be None
    if kind == "timestamp":
        kw["unit"] = c["unit"]
    if kind == "ndarray":
        return blosc2.ndarray(tuple(c["item_shape"]), np.dtype(c["dtype"]), **kw)
    if kind == "list":
        item = c["item"]
        item_spec = blosc2.string(max_length=6) if item == "string" else getattr(blosc2, item)()
        return blosc2.list(item_spec, storage=c["storage"], **kw)
    if kind == "struct":
        return blosc2.struct({"a": blosc2.int32(), "b": blosc2.vlstring(), "c": blosc2.float64()}, **kw)
    return getattr(blosc2, kind)(**kw)


def annotation(s):
    if isinstance(s, blosc2.schema.ListSpec):
        return list[s.item_spec.python_type]
    if isinstance(s, blosc2.schema.NDArraySpec):
        return np.ndarray
    return s.python_type


WORDS = ["red", "green", "blue", "", "\u00e9t\u00e9", "a,b", "x\ny"]


def scalar(rng, kind, max_length=6):
    if kind.startswith("int") or kind.startswith("uint"):
        info = np.iinfo(np.dtype(kind))
        return int(rng.integers(info.min, info.max, endpoint=True, dtype=np.int64 if kind != "uint64" else np.uint64))
    if kind.startswith("float"):
        return float(np.dtype(kind).type(rng.standard_normal() * 100))
    if kind.startswith("complex"):
        return complex(rng.standard_normal() * 10, rng.standard_normal() * 10)
    if kind == "bool":
        return bool(rng.integers(0, 2))
    if kind == "string":
        return text(rng, int(rng.integers(0, max_length + 1))).replace("\x00", "_")
    if kind == "vlstring":
        return text(rng, int(rng.integers(0, 50)))
    raise ValueError(kind)


def value(rng, c):
    kind = c["kind"]
    if (c.get("nullable") or kind == "dictionary") and rng.integers(0, 4) == 0:
        return None
    if kind.startswith("int") or kind.startswith("uint"):
        v = scalar(rng, kind)
        return v if v != c.get("null_value") else v // 2
    if kind in ("string",):
        return scalar(rng, kind, c["max_length"])
    if kind.startswith("float") or kind.startswith("complex") or kind in ("bool", "vlstring"):
        return scalar(rng, kind)
    if kind == "bytes":
        return rng.bytes(int(rng.integers(0, c["max_length"] + 1))).rstrip(b"\x00")
    if kind == "vlbytes":
        return rng.bytes(int(rng.integers(0, 50)))
    if kind == "utf8":
        return text(rng, int(rng.integers(0, 60))).replace("\x00", "_")
    if kind == "dictionary":
        return WORDS[int(rng.integers(0, len(WORDS)))]
    if kind == "timestamp":
        return np.datetime64(int(rng.integers(-(2**40), 2**40)), c["unit"])
    if kind == "ndarray":
        shape = tuple(c["item_shape"])
        n = int(np.prod(shape))
        return np.array([scalar(rng, c["dtype"]) for _ in range(n)], dtype=c["dtype"]).reshape(shape)
    if kind == "list":
        return [scalar(rng, c["item"]) for _ in range(int(rng.integers(0, 5)))]
    if kind == "struct":
        return {"a": scalar(rng, "int32"), "b": scalar(rng, "vlstring"), "c": scalar(rng, "float64")}
    return item(rng)


def null_rows(col):
    """The column's null flags by python-blosc2's own `is_null()` (None where it has none)."""
    try:
        return np.asarray(col.is_null()[:], dtype=bool)
    except Exception:
        return None


def write_table(e):
    rng = np.random.default_rng(e["seed"])
    if os.path.isdir(e["path"]):
        shutil.rmtree(e["path"])
    specs = [spec(c) for c in e["columns"]]
    Row = make_dataclass("Row", [(c["name"], annotation(s), blosc2.field(s)) for c, s in zip(e["columns"], specs)])
    t = blosc2.CTable(Row, urlpath=e["path"], mode="w")
    rows = [tuple(value(rng, c) for c in e["columns"]) for _ in range(e["rows"])]
    if rows:
        half = len(rows) // 2
        t.extend(rows[:half])
        for r in rows[half:]:
            t.append(r)
    dels = sorted({int(d) % len(rows) for d in e["deletes"]}) if rows else []
    if dels:
        t.delete(dels)
    t.close()
    t = blosc2.CTable.open(e["path"])
    names = list(t.col_names)
    nulls = {n: null_rows(t[n]) for n in names}
    out = []
    for r in range(len(t)):
        row = {}
        for n in names:
            col = t[n]
            v = col[r]
            row[n] = None if nulls[n] is not None and nulls[n][r] else plain(v)
        out.append(row)
    return {"columns": names, "n_rows": len(t), "rows": out}


def check(e):
    got = write_batch(e) if e["kind"] == "batch" else write_table(e)
    with open(e["path"] + ".json", "w") as f:
        json.dump(got, f)


manifest.run(check)
