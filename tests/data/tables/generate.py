#!/usr/bin/env python3
"""Write the python-blosc2 BatchArray and CTable fixtures of tests/tables.rs (tests/data/tables/).

Run from the repository root:

    PY=$(scripts/pyenv.sh) && "$PY" tests/data/tables/generate.py

Deletes and rewrites batch.b2b, blocks.b2b, table.b2d and tables.json, which holds what
python-blosc2 reads back: each BatchArray's items (bytes as {"__bytes__": hex}) and the
table's schema, row count, columns and rows.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass

import blosc2

HERE = os.path.dirname(os.path.abspath(__file__))


def plain(v):
    """An item as JSON, as b2schema's command line writes msgpack values."""
    if isinstance(v, bytes):
        return {"__bytes__": v.hex()}
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


@dataclass
class Row:
    id: int = blosc2.field(blosc2.int64())
    x: float = blosc2.field(blosc2.float64())
    ok: bool = blosc2.field(blosc2.bool())
    name: str = blosc2.field(blosc2.vlstring())
    raw: bytes = blosc2.field(blosc2.vlbytes(nullable=True))
    s: str = blosc2.field(blosc2.string(max_length=5))
    n32: int = blosc2.field(blosc2.int32(nullable=True))


def main() -> None:
    for name in ("batch.b2b", "blocks.b2b", "table.b2d"):
        p = os.path.join(HERE, name)
        if os.path.isdir(p):
            shutil.rmtree(p)
        elif os.path.exists(p):
            os.remove(p)
    out = {}

    # One batch of mixed items, one short batch; the default layout (one block per batch).
    ba = blosc2.BatchArray(urlpath=os.path.join(HERE, "batch.b2b"), mode="w")
    ba.append([1, "two", b"three", [4, 5], {"six": 6.0}, None, True])
    ba.append([7, -8, 2.5, "\u00e9t\u00e9"])
    out["batch.b2b"] = [plain(x) for x in ba.items[:]]

    # Two items per VL block: batches of 5 and 3 items in 3 and 2 blocks.
    bb = blosc2.BatchArray(urlpath=os.path.join(HERE, "blocks.b2b"), mode="w", items_per_block=2)
    bb.append([f"s{i}" * i for i in range(5)])
    bb.append([b"\x00" * i for i in range(1, 4)])
    out["blocks.b2b"] = [plain(x) for x in bb.items[:]]

    # A table of every common column kind, a deleted row and nulls in a nullable column.
    t = blosc2.CTable(Row, urlpath=os.path.join(HERE, "table.b2d"), mode="w")
    for i in range(7):
        t.append((i, i * 0.5, i % 2 == 0, "n" * i, None if i == 3 else bytes([i] * i), "ab"[: i % 3],
                  None if i == 2 else i))
    t.delete([1])
    rows = [
        {c: plain(t[c][r]) if not hasattr(t[c][r], "item") else t[c][r].item() for c in t.col_names}
        for r in range(len(t))
    ]
    out["table.b2d"] = {"n_rows": len(t), "columns": t.col_names, "rows": rows}
    t.close()

    with open(os.path.join(HERE, "tables.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
