"""The zarr-python 3 codecs (b2schema.zarr): Zarr v3 arrays in a LocalStore written and read
with them, reopened by name from the metadata, their chunks read by python-blosc2 (Blosc2) and
numcodecs (Blosc1), zarr's own "blosc" chunks read through b2schema, the configuration round
trip and the typesize filled from the data type."""

import json
import subprocess
import sys

import blosc2
import numcodecs
import numpy as np
import pytest
import zarr
from zarr.codecs import BloscCodec as ZarrBloscCodec
from zarr.storage import LocalStore, MemoryStore

import b2schema
from b2schema.zarr import Blosc2Codec, BloscCodec

SHAPE, CHUNKS = (50, 70), (20, 30)


def data(dtype):
    a = (np.arange(SHAPE[0] * SHAPE[1]) % 97 * 3).astype(dtype).reshape(SHAPE)
    a[:10] = 7
    return a


def chunk_keys(root):
    return sorted(p for p in (root / "c").rglob("*") if p.is_file())


def raw_chunk(a, path, root):
    i, j = (int(x) for x in path.relative_to(root / "c").parts)
    block = np.zeros(CHUNKS, a.dtype)  # edge chunks are stored whole, filled with fill_value 0
    part = a[i * CHUNKS[0]:(i + 1) * CHUNKS[0], j * CHUNKS[1]:(j + 1) * CHUNKS[1]]
    block[:part.shape[0], :part.shape[1]] = part
    return block.tobytes()


CODECS = [Blosc2Codec(cname="lz4", filters=["shuffle"]), Blosc2Codec(cname="zstd", clevel=9, filters=[3, 1]),
          BloscCodec(cname="lz4"), BloscCodec(cname="zstd", shuffle="bitshuffle", clevel=3)]


@pytest.mark.parametrize("codec", CODECS, ids=["blosc2-lz4", "blosc2-zstd-delta", "blosc-lz4", "blosc-zstd"])
@pytest.mark.parametrize("dtype", ["<f8", "<i2"])
def test_zarr_v3_array_written_and_read(tmp_path, codec, dtype):
    a = data(dtype)
    root = tmp_path / "a.zarr"
    z = zarr.create_array(store=LocalStore(root), shape=SHAPE, chunks=CHUNKS, dtype=a.dtype, zarr_format=3,
                          compressors=codec, filters=None, fill_value=0)
    z[...] = a
    np.testing.assert_array_equal(z[...], a)
    # The metadata names the codec, with the typesize filled from the data type.
    meta = json.loads((root / "zarr.json").read_text())
    named = [c for c in meta["codecs"] if c["name"] == codec.to_dict()["name"]]
    assert len(named) == 1 and named[0]["configuration"]["typesize"] == a.itemsize
    # A second array opened from the store resolves the codec by that name.
    back = zarr.open_array(store=LocalStore(root, read_only=True), mode="r")
    assert type(back.compressors[0]) is type(codec)
    assert back.compressors[0].typesize == a.itemsize
    np.testing.assert_array_equal(back[...], a)
    np.testing.assert_array_equal(back[13:41, 5:66], a[13:41, 5:66])
    # Every chunk is the codec's: python-blosc2 (Blosc2) or numcodecs (Blosc1) decodes it.
    keys = chunk_keys(root)
    assert len(keys) == 3 * 3
    for path in keys:
        chunk = path.read_bytes()
        if isinstance(codec, Blosc2Codec):
            assert blosc2.decompress2(chunk) == raw_chunk(a, path, root)
            assert chunk[3] == a.itemsize  # the header's typesize
        else:
            assert chunk[0] == 2  # a Blosc1 chunk
            assert numcodecs.Blosc().decode(chunk) == raw_chunk(a, path, root)
            assert chunk[3] == a.itemsize


@pytest.mark.parametrize("dtype", ["u1", "<i2", "<f8", "<c16"])
@pytest.mark.parametrize("kw", [{}, {"shuffle": "noshuffle"}, {"typesize": 4}], ids=["tunable", "noshuffle", "ts4"])
def test_evolve_fills_as_zarrs_blosc_codec(dtype, kw):
    def evolved(codec):
        z = zarr.create_array(store=MemoryStore(), shape=(4,), dtype=dtype, compressors=codec, filters=None)
        return z.compressors[0].to_dict()["configuration"]
    ours = evolved(BloscCodec(cname="lz4", **kw))
    assert ours == evolved(ZarrBloscCodec(cname="lz4", **kw))
    assert ours["typesize"] == kw.get("typesize", np.dtype(dtype).itemsize)
    blosc2_kw = {"typesize": kw["typesize"]} if "typesize" in kw else {}
    assert evolved(Blosc2Codec(**blosc2_kw))["typesize"] == ours["typesize"]


def test_config_round_trips():
    for codec in [Blosc2Codec(), Blosc2Codec(typesize=4, cname="zlib", clevel=1, filters=["bitshuffle", "trunc_prec"],
                                             filters_meta=[0, 10], blocksize=4096, splitmode=2, use_dict=False),
                  BloscCodec(), BloscCodec(typesize=8, cname="blosclz", clevel=9, shuffle="noshuffle", blocksize=8192)]:
        d = codec.to_dict()
        assert json.loads(json.dumps(d)) == d
        back = type(codec).from_dict(d)
        assert back == codec and back.to_dict() == d
    assert Blosc2Codec(typesize=4, filters=["delta", "shuffle"]).to_dict() == {
        "name": "b2schema.blosc2",
        "configuration": {"typesize": 4, "cname": "zstd", "clevel": 5, "filters": [3, 1], "filters_meta": [0, 0],
                          "blocksize": 0, "splitmode": 4, "codec_meta": 0, "use_dict": False}}
    # The Blosc1 codec's configuration is zarr's BloscCodec's, under its own name.
    ours = BloscCodec(typesize=2, cname="lz4", clevel=7, shuffle="shuffle", blocksize=0).to_dict()
    theirs = ZarrBloscCodec(typesize=2, cname="lz4", clevel=7, shuffle="shuffle", blocksize=0).to_dict()
    assert ours == {**theirs, "name": "b2schema.blosc"}
    with pytest.raises(ValueError):
        Blosc2Codec.from_dict({"name": "blosc", "configuration": {}})
    for bad in [dict(typesize=0), dict(clevel=10), dict(filters=["nope"]), dict(typesize="4")]:
        with pytest.raises(b2schema.Error):
            Blosc2Codec(**bad)
    for bad in [dict(shuffle="sideways"), dict(cname="snappy"), dict(typesize=0), dict(clevel=-1)]:
        with pytest.raises(b2schema.Error):
            BloscCodec(**bad)


def test_encoded_size_is_not_known_in_advance():
    for codec in (Blosc2Codec(), BloscCodec()):
        assert codec.is_fixed_size is False
        with pytest.raises(NotImplementedError):
            codec.compute_encoded_size(100, None)


def test_zarr_blosc_chunks_read_through_b2schema(tmp_path):
    a = data("<i4")
    root = tmp_path / "z.zarr"
    z = zarr.create_array(store=LocalStore(root), shape=SHAPE, chunks=CHUNKS, dtype=a.dtype,
                          compressors=ZarrBloscCodec(cname="lz4"), filters=None, fill_value=0)
    z[...] = a
    # The same array with the codec's name changed: b2schema's Blosc1 codec reads zarr's chunks.
    meta = (root / "zarr.json").read_text()
    assert meta.count('"name": "blosc"') == 1
    (root / "zarr.json").write_text(meta.replace('"name": "blosc"', '"name": "b2schema.blosc"'))
    back = zarr.open_array(store=LocalStore(root, read_only=True), mode="r")
    assert isinstance(back.compressors[0], BloscCodec)
    np.testing.assert_array_equal(back[...], a)


def test_entry_points_name_the_codecs():
    # A fresh interpreter that never imports b2schema.zarr: zarr finds the codecs through the
    # installed package's entry points (group "zarr.codecs") by the names the metadata uses.
    code = ("import sys, zarr.registry as r\n"
            "assert 'b2schema.zarr' not in sys.modules\n"
            "print(r.get_codec_class('b2schema.blosc2').__qualname__, r.get_codec_class('b2schema.blosc').__qualname__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["Blosc2Codec", "BloscCodec"]
