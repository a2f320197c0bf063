"""The numcodecs codecs both ways: b2schema.numcodecs.Blosc against numcodecs.Blosc (c-blosc
1.21), byte for byte where c-blosc 1.x's output is reproduced (blosclz, lz4, lz4hc);
b2schema.numcodecs.Blosc2 against blosc2.compress2/decompress2; registered with numcodecs;
Zarr v2 arrays written and read with them."""

import blosc2
import numcodecs
import numpy as np
import pytest
import zarr

import b2schema
import b2schema.numcodecs as b2nc

IDENTICAL = ("blosclz", "lz4", "lz4hc")


def data(seed, dtype, n):
    rng = np.random.default_rng(seed)
    a = (rng.integers(0, 50, size=n) * 3).astype(dtype)
    a[: n // 4] = 7
    return a


CASES = [(cname, shuffle, clevel, dtype, n)
         for cname in ("blosclz", "lz4", "lz4hc", "zlib", "zstd")
         for shuffle in (0, 1, 2, -1)
         for clevel, dtype, n in ((0, "u1", 1000), (5, "<i4", 70_000), (9, "<f8", 3_333))]


@pytest.mark.parametrize("cname,shuffle,clevel,dtype,n", CASES)
def test_blosc_against_numcodecs(cname, shuffle, clevel, dtype, n):
    a = data(n, dtype, n)
    ours = b2nc.Blosc(cname=cname, clevel=clevel, shuffle=shuffle)
    theirs = numcodecs.Blosc(cname=cname, clevel=clevel, shuffle=shuffle)
    mine = ours.encode(a)
    ref = theirs.encode(a)
    assert mine[0] == 2  # a Blosc1 chunk
    assert theirs.decode(mine) == a.tobytes()
    assert ours.decode(ref) == a.tobytes()
    out = np.empty_like(a)
    ours.decode(ref, out=out)
    np.testing.assert_array_equal(out, a)
    if cname in IDENTICAL:
        assert mine == ref
    assert ours.get_config() == {**theirs.get_config(), "id": "b2schema.blosc"}


BLOSC2_CODECS = [blosc2.Codec.BLOSCLZ, blosc2.Codec.LZ4, blosc2.Codec.LZ4HC, blosc2.Codec.ZLIB, blosc2.Codec.ZSTD]
BLOSC2_FILTERS = [[blosc2.Filter.NOFILTER], [blosc2.Filter.SHUFFLE], [blosc2.Filter.BITSHUFFLE],
                  [blosc2.Filter.DELTA, blosc2.Filter.SHUFFLE], [blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA],
                  [blosc2.Filter.TRUNC_PREC]]


@pytest.mark.parametrize("codec", BLOSC2_CODECS)
@pytest.mark.parametrize("filters", BLOSC2_FILTERS, ids=lambda f: "+".join(x.name for x in f))
def test_blosc2_against_compress2(codec, filters):
    a = data(len(filters), "<f8" if blosc2.Filter.TRUNC_PREC in filters else "<i4", 50_000)
    metas = [20 if f == blosc2.Filter.TRUNC_PREC else 0 for f in filters]
    ours = b2nc.Blosc2(cname=codec.name.lower(), clevel=5, filters=[f.value for f in filters], filters_meta=metas)
    mine = ours.encode(a)
    ref = blosc2.compress2(a, codec=codec, clevel=5, filters=filters, filters_meta=metas, typesize=a.itemsize)
    # Each decodes the other's chunk to the same bytes as the other's own decoder.
    assert blosc2.decompress2(mine) == ours.decode(mine)
    assert ours.decode(ref) == blosc2.decompress2(ref)
    if blosc2.Filter.TRUNC_PREC not in filters:
        assert ours.decode(ref) == a.tobytes()


def test_registered_with_numcodecs():
    c = numcodecs.get_codec({"id": "b2schema.blosc", "cname": "zstd", "clevel": 3, "shuffle": 2, "blocksize": 0})
    assert isinstance(c, b2nc.Blosc) and c.cname == "zstd" and c.shuffle == 2
    c2 = numcodecs.get_codec({"id": "b2schema.blosc2", "cname": "lz4", "clevel": 9, "filters": [2]})
    assert isinstance(c2, b2nc.Blosc2) and c2.filters == [2]
    assert numcodecs.get_codec(c2.get_config()).get_config() == c2.get_config()


def test_bad_chunks_raise_chunk_errors():
    good = b2nc.Blosc2().encode(np.arange(1000, dtype="i4"))
    for bad in [b"", good[:20], good[:-3], good[:12] + (10**6).to_bytes(4, "little") + good[16:], good[:16] + b"\xff" * 16 + good[32:]]:
        with pytest.raises(b2schema.Error):
            b2nc.Blosc2().decode(bad)
    with pytest.raises(b2schema.Error):
        b2nc.Blosc(cname="snappy")


@pytest.mark.parametrize("codec", [b2nc.Blosc(cname="zstd", shuffle=2), b2nc.Blosc2(cname="lz4", filters=[1])],
                         ids=["blosc", "blosc2"])
def test_zarr_v2_arrays_with_the_codecs(tmp_path, codec):
    a = np.arange(10_000, dtype="<f8").reshape(100, 100) / 7
    z = zarr.create_array(store=str(tmp_path / "z.zarr"), shape=a.shape, chunks=(30, 40), dtype=a.dtype,
                          zarr_format=2, compressors=codec, filters=None)
    z[...] = a
    back = zarr.open_array(str(tmp_path / "z.zarr"), mode="r")
    np.testing.assert_array_equal(back[...], a)
    assert back.metadata.compressor.get_config()["id"] == codec.codec_id
    # The chunks on disk are the codec's: python-blosc2 (Blosc2) or numcodecs (Blosc1) reads one.
    chunk = (tmp_path / "z.zarr" / "0.0").read_bytes()
    decoded = blosc2.decompress2(chunk) if isinstance(codec, b2nc.Blosc2) else numcodecs.Blosc().decode(chunk)
    np.testing.assert_array_equal(np.frombuffer(decoded, "<f8").reshape(30, 40), a[:30, :40])


def test_zarr_v2_arrays_of_numcodecs_blosc_read_through_b2schema(tmp_path):
    a = np.arange(5000, dtype="<i4")
    z = zarr.create_array(store=str(tmp_path / "n.zarr"), shape=a.shape, chunks=(1000,), dtype=a.dtype,
                          zarr_format=2, compressors=numcodecs.Blosc(cname="lz4"), filters=None)
    z[...] = a
    ours = b2nc.Blosc()
    for i in range(5):
        chunk = (tmp_path / "n.zarr" / str(i)).read_bytes()
        assert ours.decode(chunk) == a[i * 1000:(i + 1) * 1000].tobytes()
