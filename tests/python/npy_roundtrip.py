"""The .npy side of b2schema-cli/tests/pack.rs, in one python process.

    python npy_roundtrip.py make DIR      # writes the .npy inputs and cases.json
    python npy_roundtrip.py check DIR     # checks the .b2nd files and the unpacked .npy files

`make` writes arrays of many dtypes and shapes (C and Fortran order, a scalar, 0 to 16 dims);
`check` opens every DIR/NAME.b2nd that `b2schema pack` wrote with python-blosc2 (equal data,
arr[()], and the chunk/block shapes asked or python-blosc2's defaults), loads every
DIR/NAME.back.npy that `b2schema unpack` wrote with numpy (equal array, same dtype and shape),
and every DIR/NAME.sliceI.npy that `b2schema cat --npy --slice S` wrote (what arr[S] gives, with
S from DIR/slices.json).
"""
import json
import os
import sys

import blosc2
import numpy as np

rng = np.random.default_rng(7)
CASES = {
    "f8-1d": np.linspace(0, 1, 100_000),
    "i4-2d": np.arange(300 * 700, dtype="<i4").reshape(300, 700),
    "i4-2d-fortran": np.asfortranarray(np.arange(30 * 70, dtype="<i4").reshape(30, 70)),
    "f4-3d-fortran": np.asfortranarray(rng.standard_normal((9, 10, 11)).astype("<f4")),
    "u1-3d": rng.integers(0, 4, (40, 50, 60), dtype="u1"),
    ">i2-1d": np.arange(1000, dtype=">i2"),
    "c16-2d": (np.arange(200) + 1j).reshape(20, 10),
    "bool": rng.integers(0, 2, 5000).astype("?"),
    "S7": np.array([b"abc", b"blosc2", b"x" * 7] * 100, dtype="S7"),
    "U5": np.array(["ab", "cdefg"] * 50, dtype="<U5"),
    "M8": np.arange(100).astype("datetime64[ms]"),
    "struct": np.zeros(64, dtype=[("a", "<i4"), ("b", "<f8", (2,))]),
    "scalar": np.array(2.5),
    "16d": np.arange(2 ** 16, dtype="<u2").reshape((2,) * 16),
    "zero-len": np.zeros((0, 5), dtype="<f8"),
    # One chunk of a few MiB, written out in pieces as its blocks compress (pack.rs gives the
    # shapes): a random walk, and noise whose chunk ends as a memcpy chunk.
    "walk-one-chunk": np.cumsum(rng.standard_normal((400, 1000)), axis=1),
    "noise-one-chunk": rng.integers(0, 256, (2048, 1024), dtype="u1"),
}


def main():
    mode, d = sys.argv[1], sys.argv[2]
    if mode == "make":
        for name, a in CASES.items():
            np.save(os.path.join(d, name + ".npy"), a)
        json.dump(sorted(CASES), open(os.path.join(d, "cases.json"), "w"))
        return
    opts = json.load(open(os.path.join(d, "options.json")))
    failed = 0
    for name, a in CASES.items():
        try:
            b = blosc2.open(os.path.join(d, name + ".b2nd"), mode="r")
            assert b.shape == a.shape and b.dtype == a.dtype, (b.shape, b.dtype)
            got = b[()]
            assert np.array_equal(np.ascontiguousarray(got), np.ascontiguousarray(a)), "data differs"
            o = opts.get(name, {})
            if "chunks" in o:
                assert list(b.chunks) == o["chunks"] and list(b.blocks) == o["blocks"], (b.chunks, b.blocks)
            elif a.size:
                want = blosc2.compute_chunks_blocks(a.shape, dtype=a.dtype)
                assert (tuple(b.chunks), tuple(b.blocks)) == tuple(map(tuple, want)), (b.chunks, b.blocks, want)
            back = np.load(os.path.join(d, name + ".back.npy"))
            assert back.dtype == a.dtype and back.shape == a.shape, (back.dtype, back.shape)
            assert np.array_equal(back, a), "unpacked data differs"
        except Exception as ex:  # report every case, then fail
            failed += 1
            print(f"FAILED {name}: {type(ex).__name__}: {ex}")
    # `b2schema cat --npy [--slice S]` of some arrays: what python-blosc2's arr[S] gives.
    slices = json.load(open(os.path.join(d, "slices.json")))
    ncut = 0
    for name, texts in slices.items():
        b = blosc2.open(os.path.join(d, name + ".b2nd"), mode="r")
        for i, text in enumerate(texts):
            ncut += 1
            try:
                want = CASES[name][eval(f"np.s_[{text}]")] if text else CASES[name][()]
                got = np.load(os.path.join(d, f"{name}.slice{i}.npy"))
                assert got.dtype == want.dtype and got.shape == np.shape(want), (text, got.dtype, got.shape, np.shape(want))
                assert np.array_equal(got, want), f"{text}: data differs"
                # python-blosc2's whole array, sliced by NumPy (its own b[S] decodes a delta
                # block without its reference block in c-blosc2 3.3.5: f8-1d is packed with delta).
                assert np.array_equal(got, b[()][eval(f"np.s_[{text}]")] if text else b[()]), f"{text}: differs from python-blosc2"
            except Exception as ex:
                failed += 1
                print(f"FAILED {name}[{text}]: {type(ex).__name__}: {ex}")
    print(f"{len(CASES) + ncut - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
