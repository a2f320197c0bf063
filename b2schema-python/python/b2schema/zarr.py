"""zarr-python 3 (Zarr v3) codecs over b2schema's pure-Rust chunk codec (no C library), the
bytes-to-bytes counterparts of ``b2schema.numcodecs``:

* ``Blosc2Codec`` (name ``"b2schema.blosc2"``): Blosc2 chunks, as ``blosc2.compress2`` writes
  them; configuration ``typesize``, ``cname``, ``clevel``, ``filters`` and ``filters_meta`` (ids,
  up to six, as python-blosc2's cparams), ``blocksize``, ``splitmode``, ``codec_meta``,
  ``use_dict``.
* ``BloscCodec`` (name ``"b2schema.blosc"``): Blosc1 chunks, with zarr's own ``BloscCodec``
  configuration (``typesize``, ``cname``, ``clevel``, ``shuffle`` as ``"noshuffle"``,
  ``"shuffle"`` or ``"bitshuffle"``, ``blocksize``), so its chunks and zarr's ``"blosc"`` ones
  are read by either.

A ``typesize`` left out (``None``) is filled from the array's data type when zarr makes the array
(``evolve_from_array_spec``), as zarr's ``BloscCodec`` does (and so is ``BloscCodec``'s
``shuffle``: bit shuffle for one-byte items, byte shuffle otherwise). The encoded size is not
known in advance: ``compute_encoded_size`` raises ``NotImplementedError``, as zarr expects of a
variable-size codec. Importing this module registers both with zarr; the package's entry points
(group ``zarr.codecs``) do too, so an array whose metadata names them opens without the import.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from functools import cached_property

from zarr.abc.codec import BytesBytesCodec
from zarr.core.buffer.cpu import as_numpy_array_wrapper
from zarr.core.common import parse_named_configuration
from zarr.core.dtype.common import HasItemSize
from zarr.registry import register_codec

from . import numcodecs as _nc
from .errors import ArgumentError

BLOSC2_NAME = "b2schema.blosc2"
BLOSC_NAME = "b2schema.blosc"
_SHUFFLES = ("noshuffle", "shuffle", "bitshuffle")


def _int(name, value, low=None):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"{name} {value!r}: an integer expected")
    if low is not None and value < low:
        raise ArgumentError(f"{name} {value}: at least {low} expected")
    return value


def _item_size(array_spec):
    dtype = array_spec.dtype
    return dtype.item_size if isinstance(dtype, HasItemSize) else 1


class _Chunks:
    """The chunk work shared by both codecs: ``self._numcodec`` encodes and decodes, off the
    event loop (the native codec releases the interpreter)."""

    is_fixed_size = False

    def compute_encoded_size(self, _input_byte_length, _chunk_spec):
        raise NotImplementedError

    def _decode_sync(self, chunk_bytes, chunk_spec):
        return as_numpy_array_wrapper(self._numcodec.decode, chunk_bytes, chunk_spec.prototype)

    async def _decode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._decode_sync, chunk_bytes, chunk_spec)

    def _encode_sync(self, chunk_bytes, chunk_spec):
        return chunk_spec.prototype.buffer.from_bytes(self._numcodec.encode(chunk_bytes.as_numpy_array()))

    async def _encode_single(self, chunk_bytes, chunk_spec):
        return await asyncio.to_thread(self._encode_sync, chunk_bytes, chunk_spec)


@dataclass(frozen=True)
class Blosc2Codec(_Chunks, BytesBytesCodec):
    """Blosc2 chunks (c-blosc2's 32-byte header), every built-in codec and filter."""

    _tunable_attrs: frozenset = field(init=False, compare=False, repr=False)
    typesize: int
    cname: str
    clevel: int
    filters: tuple
    filters_meta: tuple
    blocksize: int
    splitmode: int
    codec_meta: int
    use_dict: bool

    def __init__(self, *, typesize=None, cname="zstd", clevel=5, filters=None, filters_meta=None,
                 blocksize=0, splitmode=4, codec_meta=0, use_dict=False):
        object.__setattr__(self, "_tunable_attrs", frozenset() if typesize is not None else frozenset({"typesize"}))
        typesize = 1 if typesize is None else _int("typesize", typesize, 1)
        # The numcodecs codec checks and normalises the rest (filter names to ids, ...).
        nc = _nc.Blosc2(cname=cname, clevel=_int("clevel", clevel), filters=filters, filters_meta=filters_meta,
                        blocksize=_int("blocksize", blocksize, 0), splitmode=_int("splitmode", splitmode),
                        codec_meta=_int("codec_meta", codec_meta), use_dict=use_dict, typesize=typesize)
        for name, value in (("typesize", typesize), ("cname", nc.cname), ("clevel", nc.clevel),
                            ("filters", tuple(nc.filters)), ("filters_meta", tuple(nc.filters_meta)),
                            ("blocksize", nc.blocksize), ("splitmode", nc.splitmode),
                            ("codec_meta", nc.codec_meta), ("use_dict", nc.use_dict)):
            object.__setattr__(self, name, value)

    @classmethod
    def from_dict(cls, data):
        _, configuration = parse_named_configuration(data, BLOSC2_NAME)
        return cls(**configuration)

    def to_dict(self):
        return {"name": BLOSC2_NAME, "configuration": {
            "typesize": self.typesize, "cname": self.cname, "clevel": self.clevel,
            "filters": list(self.filters), "filters_meta": list(self.filters_meta),
            "blocksize": self.blocksize, "splitmode": self.splitmode,
            "codec_meta": self.codec_meta, "use_dict": self.use_dict}}

    def evolve_from_array_spec(self, array_spec):
        if "typesize" in self._tunable_attrs:
            return replace(self, typesize=_item_size(array_spec))
        return self

    @cached_property
    def _numcodec(self):
        return _nc.Blosc2(cname=self.cname, clevel=self.clevel, filters=list(self.filters),
                          filters_meta=list(self.filters_meta), blocksize=self.blocksize,
                          splitmode=self.splitmode, codec_meta=self.codec_meta, use_dict=self.use_dict,
                          typesize=self.typesize)


@dataclass(frozen=True)
class BloscCodec(_Chunks, BytesBytesCodec):
    """Blosc1 chunks as c-blosc 1.x writes them, with zarr's ``BloscCodec`` configuration."""

    _tunable_attrs: frozenset = field(init=False, compare=False, repr=False)
    typesize: int
    cname: str
    clevel: int
    shuffle: str
    blocksize: int

    def __init__(self, *, typesize=None, cname="zstd", clevel=5, shuffle=None, blocksize=0):
        tunable = set()
        if typesize is None:
            typesize = 1
            tunable.add("typesize")
        if shuffle is None:
            shuffle = "bitshuffle"
            tunable.add("shuffle")
        shuffle = getattr(shuffle, "value", shuffle)  # zarr's BloscShuffle members too
        if shuffle not in _SHUFFLES:
            raise ArgumentError(f"shuffle {shuffle!r}: one of {', '.join(_SHUFFLES)} expected")
        cname = getattr(cname, "value", cname)
        typesize = _int("typesize", typesize, 1)
        # The numcodecs codec checks cname, clevel and blocksize.
        _nc.Blosc(cname=cname, clevel=_int("clevel", clevel), shuffle=_SHUFFLES.index(shuffle),
                  blocksize=_int("blocksize", blocksize, 0), typesize=typesize)
        object.__setattr__(self, "_tunable_attrs", frozenset(tunable))
        for name, value in (("typesize", typesize), ("cname", cname), ("clevel", clevel),
                            ("shuffle", shuffle), ("blocksize", blocksize)):
            object.__setattr__(self, name, value)

    @classmethod
    def from_dict(cls, data):
        _, configuration = parse_named_configuration(data, BLOSC_NAME)
        return cls(**configuration)

    def to_dict(self):
        return {"name": BLOSC_NAME, "configuration": {
            "typesize": self.typesize, "cname": self.cname, "clevel": self.clevel,
            "shuffle": self.shuffle, "blocksize": self.blocksize}}

    def evolve_from_array_spec(self, array_spec):
        item_size = _item_size(array_spec)
        new = self
        if "typesize" in self._tunable_attrs:
            new = replace(new, typesize=item_size)
        if "shuffle" in self._tunable_attrs:
            new = replace(new, shuffle="bitshuffle" if item_size == 1 else "shuffle")
        return new

    @cached_property
    def _numcodec(self):
        return _nc.Blosc(cname=self.cname, clevel=self.clevel, shuffle=_SHUFFLES.index(self.shuffle),
                         blocksize=self.blocksize, typesize=self.typesize)


def register():
    """Registers the codecs with zarr under their names (done on import)."""
    register_codec(BLOSC2_NAME, Blosc2Codec)
    register_codec(BLOSC_NAME, BloscCodec)


register()
