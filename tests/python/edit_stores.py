"""Stores changed by b2schema (`StoreMut`) and by python-blosc2 in turn, for tests/store_edits_python.rs.

Run with the pinned environment of scripts/pyenv.sh:
    python edit_stores.py MANIFEST.json
Each entry names a store (`path`; `form`: dict.b2z, tree.b2z, dict.b2d, tree.b2d or embed.b2e),
the changes python-blosc2 makes to it first (`ops`, applied with mode "w" when `create`, else
"a", with `threshold` (default 0): members smaller are embedded; none: only read), then what the store must hold: exactly the members `members` (key ->
`raw` file of its items, `dtype`, `shape`) and the store vlmeta `vlmeta` (name -> JSON value;
`tstore.vlmeta`, or the vlmetalayers of the member /__vlmeta__ where the class has no vlmeta).
Ops: {"op": "set", "key", "raw", "dtype", "shape"}, {"op": "del", "key"}, {"op": "vset", "name",
"value"}, {"op": "vdel", "name"} (TreeStores only).
"""
import blosc2
import numpy as np

import manifest  # tests/python/manifest.py, beside this script

VLMETA = "/__vlmeta__"


def data(m):
    raw = open(m["raw"], "rb").read()
    return np.frombuffer(raw, dtype=m["dtype"]).reshape(m["shape"]).copy()


def opened(e, mode):
    if e["form"] == "embed.b2e":
        return blosc2.EmbedStore(e["path"], mode=mode)
    cls = blosc2.TreeStore if e["form"].startswith("tree") else blosc2.DictStore
    if mode == "r":
        return cls(e["path"], mode=mode)
    return cls(e["path"], mode=mode, threshold=e.get("threshold", 0))


def close(s):
    if hasattr(s, "close"):
        s.close()


def edit(e):
    s = opened(e, "w" if e.get("create") else "a")
    for op in e["ops"]:
        if op["op"] == "set":
            if e["form"] == "embed.b2e" and op["key"] in s:
                del s[op["key"]]  # an EmbedStore refuses a key it has
            s[op["key"]] = data(op)
        elif op["op"] == "del":
            del s[op["key"]]
        elif op["op"] == "vset":
            s.vlmeta[op["name"]] = op["value"]
        elif op["op"] == "vdel":
            del s.vlmeta[op["name"]]
        else:
            raise ValueError(op)
    close(s)


def check(e):
    if e["ops"] or e.get("create"):
        edit(e)
    s = opened(e, "r")
    want = set(e["members"])
    keys = set(s.keys()) - {VLMETA}
    if e["form"].startswith("tree"):
        # A TreeStore also lists the groups of its keys.
        keys = {k for k in keys if not any(w.startswith(k + "/") for w in want)}
    assert keys == want, f"keys {sorted(keys)} != {sorted(want)}"
    for key, m in e["members"].items():
        a = s[key][()]
        b = data(m)
        assert a.dtype == b.dtype and a.shape == b.shape, f"{key}: {a.dtype}{a.shape} != {b.dtype}{b.shape}"
        assert np.ascontiguousarray(a).tobytes() == b.tobytes(), f"{key}: data differs"
    if e["form"].startswith("tree"):
        got = dict(s.vlmeta[:])
    elif VLMETA in s:
        holder = s[VLMETA]  # its vlmeta holds only a weak reference to it: keep it alive
        got = holder.vlmeta.getall()
    else:
        got = {}
    assert got == e["vlmeta"], f"vlmeta {got} != {e['vlmeta']}"
    close(s)


manifest.run(check)
