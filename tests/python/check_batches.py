"""BatchArrays written by b2schema (`BatchArrayWriter`), read by python-blosc2, for
tests/batch_write_python.rs.

Run by tests/batch_write_python.rs with the pinned environment of scripts/pyenv.sh:
    python check_batches.py MANIFEST.json
Each entry names a `.b2b` (`path`) and the items b2schema wrote (`batches`: one list per batch,
each item as JSON: bytes as {"__bytes__": hex}, tuples as {"__tuple__": [...]}, complex numbers
as {"__complex__": [re, im]}, a NaN as "NaN"). python-blosc2 opens it with `blosc2.open` and
must read the same batches (`b[i][:]`), the same items (`b.items[:]`) and each item alone.
"""
import json

import blosc2

import manifest  # tests/python/manifest.py, beside this script
from plain import plain  # tests/python/plain.py


def same(a, b):
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check(e):
    b = blosc2.open(e["path"], mode="r")
    assert isinstance(b, blosc2.BatchArray), type(b)
    want = e["batches"]
    assert len(b) == len(want), f"{len(b)} batches, not {len(want)}"
    for i, batch in enumerate(want):
        got = [plain(x) for x in b[i][:]]
        assert same(got, batch), f"batch {i}: {json.dumps(got)[:300]} != {json.dumps(batch)[:300]}"
    flat = [x for batch in want for x in batch]
    items = [plain(x) for x in b.items[:]]
    assert same(items, flat), "items differ"
    for k in range(0, len(flat), max(1, len(flat) // 7)):
        assert same(plain(b.items[k]), flat[k]), f"item {k} alone"


manifest.run(check)
