"""Checks that python-blosc2 opens the files b2schema wrote, as they were meant.

Run by tests/python_accepts.rs with the pinned environment of scripts/pyenv.sh:
    python check_written.py MANIFEST.json
For every entry: blosc2.open succeeds; an NDArray has the shape, dtype and data written (arr[()]);
metalayers and vlmetalayers read back as the msgpack written; then python-blosc2 changes the
file (resize and write for arrays, append for SChunks, a new vlmeta) and the result reopens.
Prints one line per file; exits 1 if any check failed.
"""
import blosc2
import msgpack
import numpy as np

import manifest  # tests/python/manifest.py, beside this script


def unpack(raw):
    return msgpack.unpackb(raw, raw=False, strict_map_key=False)


def check(entry):
    path = entry["path"]
    obj = blosc2.open(path, mode="r")
    schunk = obj.schunk if isinstance(obj, blosc2.NDArray) else obj
    if entry["kind"] == "ndarray":
        assert isinstance(obj, blosc2.NDArray), f"opened as {type(obj).__name__}"
        assert list(obj.shape) == entry["shape"], (obj.shape, entry["shape"])
        assert list(obj.chunks) == entry["chunks"], (obj.chunks, entry["chunks"])
        assert list(obj.blocks) == entry["blocks"], (obj.blocks, entry["blocks"])
        dtype = np.dtype(entry["dtype"]) if not entry["dtype"].startswith("[") else np.dtype(eval(entry["dtype"]))
        assert obj.dtype == dtype, (obj.dtype, dtype)
        got = np.ascontiguousarray(obj[()])
        fill = entry["fill"]
        if fill == "data":
            want = bytes.fromhex(entry["data_hex"])
            assert got.tobytes() == want, "data differs"
        elif fill == "zeros":
            assert not got.tobytes().strip(b"\0"), "not all zeros"
        elif fill == "nan":
            assert np.isnan(got).all(), "not all NaN"
        elif fill == "value":
            item = np.frombuffer(bytes.fromhex(entry["value_hex"]), dtype=dtype)[0]
            assert (got == item).all(), "not all the fill value"
    else:
        assert isinstance(obj, blosc2.SChunk), f"opened as {type(obj).__name__}"
        data = b"".join(schunk.decompress_chunk(i) for i in range(schunk.nchunks))
        assert data == bytes.fromhex(entry["data_hex"]), "data differs"
    names = list(schunk.meta.keys())
    want_names = [m[0] for m in entry["meta"]]
    assert names == want_names, (names, want_names)
    for name, hexval in entry["meta"]:
        if name != "b2nd":
            assert schunk.meta[name] == unpack(bytes.fromhex(hexval)), name
    assert list(schunk.vlmeta.keys()) == [v[0] for v in entry["vlmeta"]]
    for name, hexval in entry["vlmeta"]:
        assert schunk.vlmeta[name] == unpack(bytes.fromhex(hexval)), name

    # python-blosc2 keeps working on the file.
    obj = blosc2.open(path, mode="a")
    if entry["kind"] == "ndarray" and entry["shape"] and 0 not in entry["shape"]:
        old = np.ascontiguousarray(obj[()]).copy()
        grown = (entry["shape"][0] + 1,) + tuple(entry["shape"][1:])
        obj.resize(grown)
        obj[entry["shape"][0]:] = old[:1]
        obj.vlmeta["added"] = "by python"
        again = blosc2.open(path, mode="r")
        assert tuple(again.shape) == grown
        after = np.ascontiguousarray(again[()])
        if entry["fill"] not in ("nan", "uninit"):
            assert after[: entry["shape"][0]].tobytes() == old.tobytes(), "resize changed old data"
            assert after[entry["shape"][0]:].tobytes() == old[:1].tobytes(), "new row differs"
        assert again.schunk.vlmeta["added"] == "by python"
    elif entry["kind"] == "schunk":
        n = obj.nchunks
        piece = b"\x05" * (obj.chunksize if obj.chunksize > 0 else 16)
        obj.append_data(piece)
        obj.vlmeta["added"] = "by python"
        again = blosc2.open(path, mode="r")
        assert again.nchunks == n + 1
        assert again.decompress_chunk(n) == piece
        assert again.vlmeta["added"] == "by python"


manifest.run(check, verbose=True)
