"""Frames whose vlmetalayers b2schema changed (some of them interrupted), opened by python-blosc2,
for b2schema-cli/tests/torn_writes.rs.

Run with the pinned environment of scripts/pyenv.sh:
    python check_vlmeta.py MANIFEST.json
Each entry names a frame file (`path`), the vlmetalayers it must hold with their values
(`present`: key -> JSON value) and the ones it must not have (`absent`). python-blosc2 opens the
file read-only (bytes after the frame, a torn tail, are its to ignore) and reads its vlmeta.
"""
import blosc2

import manifest  # tests/python/manifest.py, beside this script


def check(e):
    frame = blosc2.open(e["path"], mode="r")
    vlmeta = frame.vlmeta  # holds only a weak reference to the frame: keep it alive
    for key, want in e["present"].items():
        got = vlmeta[key]
        assert got == want, f"vlmeta[{key!r}] = {got!r}, not {want!r}"
    for key in e["absent"]:
        assert key not in vlmeta, f"vlmeta has {key!r}"


manifest.run(check)
