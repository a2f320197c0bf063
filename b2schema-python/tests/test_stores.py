"""Stores as mappings (keys, members, vlmeta) and CTables' columns, against python-blosc2."""

import pickle

import blosc2
import numpy as np
import pytest

import b2schema
from conftest import STORES, TABLES


@pytest.mark.parametrize("name", ["tree.b2z", "dict.b2z", "dict.b2d", "embed.b2e", "small.b2z"])
def test_stores_read_as_python_blosc2_reads_them(name):
    p = str(STORES / name)
    s = b2schema.open(p)
    assert isinstance(s, b2schema.Store)
    ref = blosc2.open(p, mode="r")
    arrays = sorted(k for k in ref.keys() if isinstance(ref[k], blosc2.NDArray))
    assert arrays and set(arrays) <= set(s.keys())
    assert set(s.keys()) <= set(ref.keys())  # python-blosc2 lists groups (TreeStore) too
    for k in arrays:
        r = ref[k]
        if True:
            got = s[k]
            assert np.asarray(got[...]).tobytes() == np.asarray(r[...]).tobytes(), k
    if hasattr(ref, "vlmeta"):
        assert s.vlmeta == dict(ref.vlmeta.items())
    with pytest.raises(KeyError):
        s["/no/such/key"]


def test_ctable_columns_with_masks():
    t = b2schema.open(str(TABLES / "table.b2d"))
    assert isinstance(t, b2schema.CTable)
    ref = blosc2.CTable.open(str(TABLES / "table.b2d"))
    assert t.columns == ["id", "x", "ok", "name", "raw", "s", "n32"]
    ids = t.column("id")
    assert isinstance(ids, np.ma.MaskedArray)
    np.testing.assert_array_equal(ids.data, np.asarray(ref["id"][:]))
    n32 = t.column("n32")
    assert n32.mask[1] and not n32.mask[0]
    assert len(t.rows()) == len(ids) == t.nrows
    arrow = t.to_arrow()
    assert arrow.num_rows == t.nrows and arrow.column_names == t.columns


def test_a_tree_store_python_blosc2_writes_with_vlmeta(tmp_path):
    p = str(tmp_path / "t.b2z")
    with blosc2.TreeStore(p, mode="w") as ts:
        ts["/a/x"] = np.arange(50, dtype="<i8").reshape(5, 10)
        ts["/b"] = np.linspace(0, 1, 7)
        ts.vlmeta["title"] = "a tree"
        ts.vlmeta["n"] = [1, 2, 3]
    s = b2schema.open(p)
    assert set(s.keys()) == {"/a/x", "/b"} and "/a" in s.groups
    np.testing.assert_array_equal(s["/a/x"][1:3, ::2], np.arange(50).reshape(5, 10)[1:3, ::2])
    assert s.vlmeta == {"title": "a tree", "n": [1, 2, 3]}
    assert pickle.loads(pickle.dumps(s["/b"]))[...].tolist() == np.linspace(0, 1, 7).tolist()


def _random_ctable(path, seed, n):
    """A CTable python-blosc2 writes: numbers with nulls (mask and sentinel), strings fixed and
    variable, a dictionary, timestamps, an ndarray column; rows appended then some deleted."""
    from dataclasses import make_dataclass

    rng = np.random.default_rng(seed)
    specs = {
        "i": blosc2.int64(nullable=True),
        "x": blosc2.float64(),
        "ok": blosc2.bool(),
        "s": blosc2.string(max_length=5),
        "u": blosc2.utf8(nullable=True, null_storage="sentinel"),
        "d": blosc2.dictionary(),
        "t": blosc2.timestamp(unit="ms"),
        "v": blosc2.ndarray((2,), np.dtype("float32")),
    }
    Row = make_dataclass(
        "Row",
        [(k, np.ndarray if k == "v" else s.python_type, blosc2.field(s)) for k, s in specs.items()],
    )
    t = blosc2.CTable(Row, urlpath=path, mode="w")
    words = ["red", "", "\u00e9t\u00e9", "a,b"]
    for r in range(n):
        t.append((
            None if r % 5 == 1 else int(rng.integers(-(2**40), 2**40)),
            float(rng.standard_normal()),
            bool(r % 2),
            "".join(rng.choice(list("ab\u00e9z"), size=int(rng.integers(0, 6)))),
            None if r % 4 == 2 else "\u4e2d" * int(rng.integers(0, 4)),
            None if r % 6 == 3 else words[int(rng.integers(0, len(words)))],
            np.datetime64(int(rng.integers(0, 2**40)), "ms"),
            rng.standard_normal(2).astype("float32"),
        ))
    if n > 3:
        t.delete(sorted({int(d) % n for d in rng.integers(0, n, size=3)}))
    t.close()


@pytest.mark.parametrize("form,n", [("b2d", 0), ("b2d", 1), ("b2z", 37), ("b2d", 300)])
def test_ctable_arrow_through_the_c_stream_equals_python_blosc2_to_arrow(tmp_path, form, n):
    import pyarrow as pa

    p = str(tmp_path / f"t.{form}")
    _random_ctable(p, 11 + n, n)
    ref = blosc2.CTable.open(p).to_arrow()
    t = b2schema.open(p)
    assert isinstance(t, b2schema.CTable)
    got = t.to_arrow()
    assert got.schema.equals(ref.schema), (got.schema, ref.schema)
    assert got.equals(ref)
    # The Arrow PyCapsule interface: pyarrow reads the object itself.
    assert pa.table(t).equals(ref)
    # Batches of the size asked for, of the columns asked for, in the order asked for.
    batches = list(t.iter_arrow_batches(columns=["u", "i"], batch_size=7))
    assert all(0 < b.num_rows <= 7 for b in batches)
    assert sum(b.num_rows for b in batches) == ref.num_rows
    if batches:
        assert pa.Table.from_batches(batches).equals(ref.select(["u", "i"]))
    assert t.to_arrow(columns=["x"]).equals(ref.select(["x"]))
    with pytest.raises(b2schema.Error):
        t.to_arrow(columns=["no such column"])
    with pytest.raises(TypeError):
        t.to_arrow(columns="x")
