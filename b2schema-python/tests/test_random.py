"""Random arrays of every dtype family, 0 to 8 dimensions, every codec and filter: written by
python-blosc2 and read by b2schema equal; written by b2schema (asarray) and read by
python-blosc2 equal; slices (steps, negative steps, integers, None, Ellipsis) equal to NumPy's."""

import blosc2
import numpy as np
import pytest

import b2schema

DTYPES = ["i1", "u1", "<i2", "<u2", "<i4", ">i4", "<u4", "<i8", "<u8", "<f2", "<f4", "<f8", ">f8",
          "<c8", "<c16", "?", "S5", "<U3", "<M8[ms]", "<m8[s]", [("a", "<i4"), ("b", "<f8")]]
CODECS = [blosc2.Codec.BLOSCLZ, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC, blosc2.Codec.ZLIB, blosc2.Codec.ZSTD]
FILTERS = [[blosc2.Filter.NOFILTER], [blosc2.Filter.SHUFFLE], [blosc2.Filter.BITSHUFFLE],
           [blosc2.Filter.DELTA, blosc2.Filter.SHUFFLE], [blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA]]


def random_array(rng, dtype, shape):
    dtype = np.dtype(dtype)
    n = int(np.prod(shape)) if shape else 1
    raw = rng.integers(0, 256, size=n * dtype.itemsize, dtype=np.uint8)
    if dtype.kind == "c":
        a = rng.normal(size=2 * n).astype(f"<f{dtype.itemsize // 2}").view(dtype)
    elif dtype.kind == "f":
        a = rng.normal(size=n).astype(dtype)
    elif dtype.kind == "U":
        a = np.array(["".join(chr(rng.integers(32, 0x3000)) for _ in range(3)) for _ in range(n)], dtype=dtype)
    elif dtype.kind == "b":
        a = raw[:n] % 2 == 1
    else:
        a = raw.view(dtype)
    # Runs, so that the codecs have something to find.
    a = np.asarray(a).reshape(shape)
    if a.size > 4:
        a.reshape(-1)[: a.size // 3] = a.reshape(-1)[0]
    return a


def shapes(rng, ndim):
    return tuple(int(rng.integers(1, 7 if ndim > 3 else 40)) for _ in range(ndim))


CASES = [(i, DTYPES[i % len(DTYPES)], i % 9, CODECS[i % len(CODECS)], FILTERS[(i // 3) % len(FILTERS)])
         for i in range(60)]


@pytest.mark.parametrize("seed,dtype,ndim,codec,filters", CASES)
def test_python_blosc2_writes_b2schema_reads_equal(tmp_path, seed, dtype, ndim, codec, filters):
    rng = np.random.default_rng(seed)
    shape = shapes(rng, ndim)
    a = random_array(rng, dtype, shape)
    chunks = tuple(max(1, s // 2) for s in shape)
    blocks = tuple(max(1, c // 2) for c in chunks)
    p = str(tmp_path / "a.b2nd")
    cparams = blosc2.CParams(codec=codec, clevel=int(rng.integers(0, 10)), filters=filters,
                             filters_meta=[0] * len(filters))
    blosc2.asarray(a, urlpath=p, mode="w", chunks=chunks or None, blocks=blocks or None, cparams=cparams)
    b = b2schema.open(p)
    out = b[...]
    assert np.asarray(out).dtype == a.dtype and np.asarray(out).tobytes() == a.tobytes()
    ref = blosc2.open(p, mode="r")[...]
    assert np.asarray(ref).tobytes() == a.tobytes()
    # Slices against NumPy's on the same data.
    for _ in range(6):
        key = random_key(rng, shape)
        want = ref[key]
        got = b[key]
        assert np.asarray(got).shape == np.asarray(want).shape, key
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), key
        assert type(got) is type(want), key


def random_key(rng, shape):
    key = []
    for n in shape:
        r = rng.integers(0, 4)
        if r == 0:
            key.append(int(rng.integers(-n, n)))
        elif r == 1:
            start, stop = sorted(int(x) for x in rng.integers(-n - 2, n + 2, size=2))
            key.append(slice(start, stop, int(rng.integers(1, 4))))
        elif r == 2:
            key.append(slice(None, None, -int(rng.integers(1, 3))))
        else:
            key.append(slice(None))
    if shape and rng.integers(0, 3) == 0:
        key.insert(int(rng.integers(0, len(key) + 1)), None)
    if rng.integers(0, 3) == 0:
        at = int(rng.integers(0, len(key) + 1))
        key = key[:at] + [Ellipsis] + key[at + 1 :] if key else [Ellipsis]
    return tuple(key)


@pytest.mark.parametrize("seed,dtype,ndim,codec,filters", CASES[::3])
def test_b2schema_writes_python_blosc2_reads_equal(tmp_path, seed, dtype, ndim, codec, filters):
    rng = np.random.default_rng(1000 + seed)
    shape = shapes(rng, ndim)
    a = random_array(rng, dtype, shape)
    chunks = tuple(max(1, s // 2) for s in shape) or None
    p = tmp_path / "w.b2nd"
    meta = {"m": [1, 2, "three"]}
    vlmeta = {"title": "ré", "n": 7, "t": (1, 2.5), "d": {"k": b"\x00\x01"}, "x": None}
    out = b2schema.asarray(a, p, chunks=chunks, cparams={"codec": codec.name.lower(), "clevel": 5,
                           "filters": [f.value for f in filters]}, meta=meta, vlmeta=vlmeta)
    ref = blosc2.open(str(p), mode="r")
    assert ref.shape == a.shape and ref.dtype == a.dtype
    assert np.asarray(ref[...]).tobytes() == a.tobytes()
    assert ref.schunk.meta["m"] == [1, 2, "three"]
    assert {k: ref.schunk.vlmeta[k] for k in ref.schunk.vlmeta.getall()} == vlmeta
    assert out.vlmeta == vlmeta
    assert ref.cparams.codec == codec
    assert np.asarray(out[...]).tobytes() == a.tobytes()


def test_empty_and_zero_dimensional_arrays(tmp_path):
    for a in [np.zeros((3, 0, 2)), np.array(2.5), np.arange(0, dtype="i4")]:
        p = tmp_path / "e.b2nd"
        b2schema.asarray(a, p)
        b = b2schema.open(p)
        ref = blosc2.open(str(p), mode="r")
        assert b.shape == ref.shape
        assert np.asarray(b[...]).tobytes() == np.asarray(ref[...]).tobytes()
    zero_d = b2schema.asarray(np.array(1.0), tmp_path / "z.b2nd")
    assert zero_d.shape == () and zero_d[()] == 1.0 and zero_d[...].shape == ()
    with pytest.raises(TypeError):
        len(zero_d)


def test_out_of_range_indices_raise_index_errors(tmp_path):
    a = b2schema.asarray(np.arange(10), tmp_path / "r.b2nd")
    for key in [10, -11, (0, 0), (..., ...)]:
        with pytest.raises(IndexError):
            a[key]
        with pytest.raises(b2schema.SelectionError):
            a[key]
    np.testing.assert_array_equal(a[[1, 3]], [1, 3])  # advanced indexing: NumPy's, on the whole
