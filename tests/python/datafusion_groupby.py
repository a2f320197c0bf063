"""Random CTables written by python-blosc2 and grouped by pandas, for
b2schema-datafusion/tests/pandas.rs (DataFusion's SQL over them must agree).

    python datafusion_groupby.py MANIFEST.json

Each entry writes at `path` (a `.b2z`) a CTable of `rows` rows: `station` (of the kind
`station`, nullable where the kind allows, a few names), `temp` (float64, nulls in a mask or,
with `sentinel`, as NaN), `n` (int64, null as the sentinel -1) and `ok` (bool); then deletes
`deletes` random rows. From the rows it wrote (the deleted ones left out, not read back through
python-blosc2) pandas computes, per station (null a group of its own):
count(*), count(temp), mean(temp), min(temp), max(temp), sum(n) (null when every n is null),
written as JSON at `path` + ".pandas.json", with the live rows in all.
"""
import json
import os
from dataclasses import make_dataclass

import blosc2
import numpy as np
import pandas as pd

import manifest  # tests/python/manifest.py, beside this script

NAMES = ["north", "south", "east", "west", "\u00e9t\u00e9", ""]


def station_spec(kind):
    if kind == "string":
        return blosc2.string(max_length=8, nullable=True)
    if kind == "vlstring":
        return blosc2.vlstring(nullable=True)
    if kind == "utf8":
        return blosc2.utf8(nullable=True)
    return blosc2.dictionary()


def write(e):
    rng = np.random.default_rng(e["seed"])
    n = e["rows"]
    temp = blosc2.float64(nullable=True, null_storage="sentinel") if e["sentinel"] else blosc2.float64(nullable=True)
    Row = make_dataclass(
        "Row",
        [
            ("station", str, blosc2.field(station_spec(e["station"]))),
            ("temp", float, blosc2.field(temp)),
            ("n", int, blosc2.field(blosc2.int64(null_value=-1))),
            ("ok", bool, blosc2.field(blosc2.bool())),
        ],
    )
    rows = []
    for _ in range(n):
        s = None if rng.integers(0, 8) == 0 else NAMES[int(rng.integers(0, len(NAMES)))]
        x = None if rng.integers(0, 5) == 0 else round(float(rng.standard_normal() * 10), 3)
        k = None if rng.integers(0, 6) == 0 else int(rng.integers(0, 1000))
        rows.append((s, x, k, bool(rng.integers(0, 2))))
    if os.path.exists(e["path"]):
        os.remove(e["path"])
    t = blosc2.CTable(Row, urlpath=e["path"], mode="w", expected_size=max(e["expected_size"], 1))
    if rows:
        t.extend([(s, x, -1 if k is None else k, ok) for s, x, k, ok in rows])
    dels = sorted({int(d) % n for d in rng.integers(0, 2**31, e["deletes"])}) if n else []
    if dels:
        t.delete(dels)
    t.close()
    gone = set(dels)
    live = [r for i, r in enumerate(rows) if i not in gone]
    df = pd.DataFrame(live, columns=["station", "temp", "n", "ok"])
    df["temp"] = df["temp"].astype("float64")
    df["n"] = df["n"].astype("Int64")
    groups = []
    for station, g in df.groupby("station", dropna=False, sort=False):
        station = None if pd.isna(station) else station
        temps = g["temp"].dropna()
        ns = g["n"].dropna()
        groups.append(
            {
                "station": station,
                "rows": len(g),
                "temps": len(temps),
                "avg": float(temps.mean()) if len(temps) else None,
                "min": float(temps.min()) if len(temps) else None,
                "max": float(temps.max()) if len(temps) else None,
                "sum_n": int(ns.sum()) if len(ns) else None,
            }
        )
    with open(e["path"] + ".pandas.json", "w") as f:
        json.dump({"n_rows": len(df), "groups": groups}, f)


manifest.run(write)
