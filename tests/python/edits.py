"""Edits applied by python-blosc2 next to b2schema's (tests/edits_python.rs).

Each entry: `theirs` (a copy of the starting array), `ours` (the same array after b2schema
applied `ops`), the dtype, the `ops` and a `final` op. python-blosc2 applies `ops` to `theirs`
(`resize`, `arr[sel] = data`, append as `resize` + `__setitem__`), checks that it reads `ours`
item by item equal to its own result, then applies `final` to both files (it edits b2schema's
result) and checks them equal again. Entries with `states` instead (the kill tests) list the
files left by a change stopped at each step: each must open as the old or the new array.
"""
import numpy as np
import blosc2

from manifest import run


def data(op, dtype, shape):
    return np.fromfile(op["data"], dtype=dtype).reshape(shape)


def apply(arr, op, dtype):
    if op["op"] == "resize":
        arr.resize(tuple(op["shape"]))
    elif op["op"] == "write":
        sel = tuple(slice(a, b) for a, b in op["sel"])
        arr[sel] = data(op, dtype, tuple(b - a for a, b in op["sel"]))
    elif op["op"] == "append":
        rows = data(op, dtype, (-1,) + tuple(arr.shape[1:]))
        n = arr.shape[0]
        arr.resize((n + rows.shape[0],) + tuple(arr.shape[1:]))
        arr[n:] = rows
    else:
        raise ValueError(op["op"])


def same(a, b, what):
    if a.shape != b.shape:
        raise AssertionError(f"{what}: shapes {a.shape} and {b.shape}")
    if a.tobytes() != b.tobytes():
        bad = np.argwhere(a != b)
        raise AssertionError(f"{what}: {len(bad)} items differ, first at {bad[:3].tolist()}")


def check_schunk(e):
    """`ops` of chunk updates, inserts, deletes and appends (compressed chunks b2schema made)
    applied to `theirs`; then every chunk, nbytes and nchunks equal to `ours`."""
    theirs = blosc2.open(e["theirs"], mode="a")
    for op in e["ops"]:
        chunk = open(op["chunk"], "rb").read() if "chunk" in op else None
        if op["op"] == "update":
            theirs.update_chunk(op["n"], chunk)
        elif op["op"] == "insert":
            theirs.insert_chunk(op["n"], chunk)
        elif op["op"] == "delete":
            theirs.delete_chunk(op["n"])
        else:
            theirs.append_chunk(chunk)
    theirs = blosc2.open(e["theirs"])
    ours = blosc2.open(e["ours"])
    if (ours.nchunks, ours.nbytes) != (theirs.nchunks, theirs.nbytes):
        raise AssertionError(f"nchunks, nbytes: ours {(ours.nchunks, ours.nbytes)}, theirs {(theirs.nchunks, theirs.nbytes)}")
    for i in range(ours.nchunks):
        if ours.decompress_chunk(i) != theirs.decompress_chunk(i):
            raise AssertionError(f"chunk {i} differs")


def check(e):
    if "schunk" in e:
        return check_schunk(e)
    dtype = np.dtype(e["dtype"])
    if "states" in e:
        old = data({"data": e["old"]}, dtype, tuple(e["old_shape"]))
        new = data({"data": e["new"]}, dtype, tuple(e["new_shape"]))
        for path in e["states"]:
            got = blosc2.open(path)[...]
            if not (got.shape == old.shape and got.tobytes() == old.tobytes()) and not (
                got.shape == new.shape and got.tobytes() == new.tobytes()
            ):
                raise AssertionError(f"{path}: neither the old nor the new array (shape {got.shape})")
        return
    theirs = blosc2.open(e["theirs"], mode="a")
    for op in e["ops"]:
        apply(theirs, op, dtype)
    ours = blosc2.open(e["ours"], mode="a")
    same(ours[...], theirs[...], "after the edits")
    apply(ours, e["final"], dtype)
    apply(theirs, e["final"], dtype)
    same(blosc2.open(e["ours"])[...], blosc2.open(e["theirs"])[...], "after python's final edit")


run(check)
