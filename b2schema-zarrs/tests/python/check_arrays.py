"""zarr-python reads the arrays zarrs with b2schema-zarrs' codec wrote (tests/zarr_python.rs).

    python check_arrays.py DIR MANIFEST.json
For every entry: zarr.open_array(DIR, path=NAME) (v2 or v3, as the store says) must give the
little-endian C-order bytes of DIR/NAME.raw and the entry's dtype; and the codec must be
numcodecs' Blosc (v2) or zarr's BloscCodec (v3). Prints one line per failure and the summary
`N passed, M failed`; exits 1 if anything failed.
"""
import json
import sys

import numpy as np
import zarr

root, manifest = sys.argv[1], sys.argv[2]
failed = 0
entries = json.load(open(manifest))
for e in entries:
    try:
        a = zarr.open_array(store=root, path=e["name"], mode="r")
        assert a.metadata.zarr_format == e["format"], a.metadata.zarr_format
        assert "blosc" in type(a.compressors[0]).__name__.lower(), a.compressors
        got = a[...]
        assert got.dtype == np.dtype(e["dtype"]), got.dtype
        want = open(f"{root}/{e['name']}.raw", "rb").read()
        assert got.astype(e["dtype"]).tobytes() == want, "zarr-python reads other data"
    except Exception as ex:  # report every entry
        failed += 1
        print(f"FAILED {e['name']}: {type(ex).__name__}: {ex}")
print(f"{len(entries) - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
