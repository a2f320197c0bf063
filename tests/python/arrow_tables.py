"""CTables read through b2schema's Arrow reader against python-blosc2's `to_arrow()`, for
tests/table_arrow_python.rs.

    python arrow_tables.py MANIFEST.json
An entry `kind` "big" writes a CTable of `rows` rows at `path` (int64 with a sentinel null,
float64 and bool and uint32 columns, every 7th row deleted). An entry `kind` "check" reads the
Arrow IPC stream b2schema wrote at `path` + ".ours.arrows" (the columns `columns`, or all) and
compares it with python-blosc2's `CTable.open(path).to_arrow()` of those columns: the same
names and types, the same values and nulls (dictionaries compared by their values, NaN equal to
NaN; the schema metadata, which python-blosc2 leaves empty, set aside). With `stream`, the
stream read is that file; with `loose` (a table b2schema wrote from that Arrow stream), each
type is compared by its family (string and large_string alike, binary and large_binary, list
and large_list, a dictionary by its values' type, nested fields' nullability set aside) and the
metadata is not looked for. An entry `kind` "from_arrow" writes the Arrow IPC stream `stream`
as a CTable at `path` with python-blosc2's own `CTable.from_arrow`. A struct python-blosc2 wrote as its leaves is compared whole, as
`to_arrow()` gives it.
"""
import math

import blosc2
import numpy as np
import pyarrow as pa
import pyarrow.ipc

import manifest  # tests/python/manifest.py, beside this script


def write_big(e):
    n = e["rows"]
    rng = np.random.default_rng(e["seed"])
    from dataclasses import make_dataclass

    Row = make_dataclass(
        "Row",
        [
            ("i", int, blosc2.field(blosc2.int64(null_value=-1))),
            ("x", float, blosc2.field(blosc2.float64())),
            ("b", bool, blosc2.field(blosc2.bool())),
            ("u", int, blosc2.field(blosc2.uint32())),
        ],
    )
    t = blosc2.CTable(Row, urlpath=e["path"], mode="w", expected_size=max(n, 1))
    a = np.zeros(n, dtype=[("i", "<i8"), ("x", "<f8"), ("b", "?"), ("u", "<u4")])
    a["i"] = rng.integers(0, 1000, n)
    a["i"][::13] = -1
    a["x"] = rng.standard_normal(n)
    a["b"] = rng.random(n) < 0.5
    a["u"] = rng.integers(0, 2**32, n)
    t.extend(a)
    t.delete(np.arange(0, n, 7))
    t.close()


def plain(v):
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    return v


def decoded(table):
    cols = []
    for c in table.columns:
        if pa.types.is_dictionary(c.type):
            c = c.cast(c.type.value_type)
        if pa.types.is_timestamp(c.type):
            c = c.cast(pa.int64())  # epoch offsets: out of Python's datetime range too
        cols.append([plain(v) for v in c.to_pylist()])
    return cols


def family(t):
    if pa.types.is_dictionary(t):
        return pa.dictionary(pa.int32(), family(t.value_type))  # any index width
    if pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return pa.string()
    if pa.types.is_large_binary(t) or pa.types.is_binary_view(t):
        return pa.binary()
    if pa.types.is_fixed_size_list(t):
        return pa.list_(family(t.value_type), t.list_size)
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        return pa.list_(family(t.value_type))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, family(f.type)) for f in t])
    return t


def check(e):
    ours = pa.ipc.open_stream(e.get("stream") or e["path"] + ".ours.arrows").read_all()
    t = blosc2.CTable.open(e["path"])
    theirs = t.to_arrow()
    cols = e.get("columns") or theirs.column_names
    theirs = theirs.select(cols)
    loose = e.get("loose", False)
    want = [(f.name, family(f.type) if loose else f.type) for f in theirs.schema]
    got = [(f.name, family(f.type) if loose else f.type) for f in ours.schema]
    assert got == want, f"schema {got} != {want}"
    assert ours.num_rows == theirs.num_rows, f"{ours.num_rows} rows, {theirs.num_rows} expected"
    for name, g, w in zip(cols, decoded(ours), decoded(theirs)):
        for i, (a, b) in enumerate(zip(g, w)):
            assert a == b, f"column {name} row {i}: {a!r} != {b!r}"
    # The CTable's schema JSON travels in the schema's metadata.
    if not loose:
        assert b"b2schema.ctable.schema" in (ours.schema.metadata or {}), ours.schema.metadata


def from_arrow(e):
    table = pa.ipc.open_stream(e["stream"]).read_all()
    blosc2.CTable.from_arrow(table, urlpath=e["path"], mode="w").close()


def run(e):
    if e["kind"] == "big":
        write_big(e)
    elif e["kind"] == "from_arrow":
        from_arrow(e)
    else:
        check(e)


manifest.run(run)
