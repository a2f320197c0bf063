"""Every held fixture python-blosc2 wrote reads through b2schema equal to python-blosc2's read:
items, shape, dtype, chunks, blocks, metadata; SChunks' chunks as bytes."""

import blosc2
import numpy as np
import pytest

import b2schema
from conftest import FIXTURES

ARRAYS = sorted(p.name for p in FIXTURES.glob("*.b2nd"))
SCHUNKS = sorted(p.name for p in FIXTURES.glob("*.b2frame"))


def test_there_are_fixtures():
    assert len(ARRAYS) > 80 and len(SCHUNKS) > 15


# Chunks c-blosc2 leaves uninitialized: their items are whatever memory held.
UNINIT = {"special-uninit-f4.b2nd", "special-partial-uninit-i4.b2nd"}
# A delta after another filter: c-blosc2 decodes it against the filtered first block, which no
# writer's data gives back; b2schema decodes delta as its definition says (tests/chunk_data.rs
# leaves this fixture out for the same reason). Its geometry and metadata are still compared.
DELTA_AFTER = {"filter-shuffle-delta.b2nd"}


def equal(a, b):
    if np.ndim(a) == 0:  # a NumPy scalar (NumPy's a[i, j]); python-blosc2 gives a 0-d array
        a = np.asarray(a, dtype=np.asarray(b).dtype)
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.dtype == b.dtype, (a.shape, a.dtype, b.shape, b.dtype)
    assert a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", ARRAYS)
def test_arrays_read_as_python_blosc2_reads_them(name):
    p = FIXTURES / name
    ref = blosc2.open(str(p), mode="r")
    a = b2schema.open(p)
    assert isinstance(a, b2schema.NDArray)
    assert a.shape == ref.shape and a.chunks == ref.chunks and a.blocks == ref.blocks
    assert a.dtype == ref.dtype
    if name in UNINIT or name in DELTA_AFTER:
        return
    whole = ref[...]
    equal(a[...], whole)
    equal(np.asarray(a), whole)
    if a.ndim and a.shape[0]:
        # Against NumPy's slices of python-blosc2's whole read: c-blosc2's own reads of single
        # items are wrong for dictionary and delta chunks (dict-*.b2nd, filter-delta*.b2nd).
        assert len(a) == len(ref)
        equal(a[0], whole[0])
        equal(a[-1:], whole[-1:])
        equal(a[::3], whole[::3])
    assert a.vlmeta == {k: ref.schunk.vlmeta[k] for k in ref.schunk.vlmeta.getall()}
    try:
        want = {k: ref.schunk.meta[k] for k in ref.schunk.meta.keys()}
    except Exception:
        # python-blosc2 cannot decode it either (nd-16d-*: a b2nd metalayer with trailing bytes).
        with pytest.raises(b2schema.FormatError):
            a.meta
    else:
        meta = a.meta
        for k, v in want.items():
            assert meta[k] == v, k
    c = a.cparams
    assert c["clevel"] == ref.cparams.clevel
    assert c["codec"] == ref.cparams.codec.name.lower()
    assert c["typesize"] == ref.cparams.typesize
    assert "shape" in a.info and str(a.shape[0] if a.shape else "()") in a.info


@pytest.mark.parametrize("name", SCHUNKS)
def test_schunks_give_their_chunks_as_python_blosc2_does(name):
    p = FIXTURES / name
    ref = blosc2.open(str(p), mode="r")
    s = b2schema.open(p)
    assert isinstance(s, b2schema.SChunk)
    assert s.nchunks == ref.nchunks and s.typesize == ref.typesize
    for i in range(ref.nchunks):
        assert s.decompress_chunk(i) == ref.decompress_chunk(i), i
        assert s.get_chunk(i) == ref.get_chunk(i), i
    n = ref.nbytes // ref.typesize
    assert s[:] == ref[:n] if n else s[:] == b""
    assert s.vlmeta == {k: ref.vlmeta[k] for k in ref.vlmeta.getall()}


def test_the_done_when_command_prints_the_rows(repo):
    a = b2schema.open(str(repo / "tests/data/fixtures/nd-meta-vlmeta.b2nd"))
    ref = blosc2.open(str(repo / "tests/data/fixtures/nd-meta-vlmeta.b2nd"), mode="r")
    assert str(a[:2]) == str(ref[:2])


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.cframe")))
def test_cframes_open_from_bytes(name):
    data = (FIXTURES / name).read_bytes()
    ref = blosc2.ndarray_from_cframe(data) if name.startswith("tocframe-nd") else blosc2.schunk_from_cframe(data)
    c = b2schema.from_cframe(data)
    if isinstance(c, b2schema.NDArray):
        equal(c[...], ref[...])
    else:
        assert [c.decompress_chunk(i) for i in range(c.nchunks)] == [ref.decompress_chunk(i) for i in range(ref.nchunks)]
