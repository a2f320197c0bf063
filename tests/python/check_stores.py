"""Stores written by b2schema (`StoreWriter`), opened by python-blosc2, for tests/store_write_python.rs.

Run by tests/store_write_python.rs with the pinned environment of scripts/pyenv.sh:
    python check_stores.py MANIFEST.json
Each entry names a store (`path`, .b2d or .b2z; `flavour` dict or tree) and its members (`key`,
`schunk`, `dtype`, `shape`, `raw`: the file of the data b2schema wrote). python-blosc2 opens the
store read-only with DictStore or TreeStore and must list exactly those keys, each read equal
to its raw data (an NDArray's items in C order with its dtype and shape; an SChunk's bytes).
"""
import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script


def check(e):
    cls = blosc2.TreeStore if e["flavour"] == "tree" else blosc2.DictStore
    with cls(e["path"], mode="r") as s:
        keys = set(s.keys())
        want = {m["key"] for m in e["members"]}
        assert want <= keys, f"missing {sorted(want - keys)}"
        # A TreeStore also lists the groups of its keys; nothing else may appear.
        extra = {k for k in keys - want if not any(w.startswith(k + "/") for w in want)}
        assert not extra, f"unexpected keys {sorted(extra)}"
        for m in e["members"]:
            raw = open(m["raw"], "rb").read()
            v = s[m["key"]]
            if m["schunk"]:
                got = v[:]
                assert got == raw, f"{m['key']}: SChunk bytes differ"
                continue
            a = v[()]
            assert a.dtype == np.dtype(m["dtype"]), f"{m['key']}: dtype {a.dtype} != {m['dtype']}"
            assert list(a.shape) == m["shape"], f"{m['key']}: shape {a.shape} != {m['shape']}"
            assert np.ascontiguousarray(a).tobytes() == raw, f"{m['key']}: data differs"


manifest.run(check)
