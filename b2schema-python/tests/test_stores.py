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
