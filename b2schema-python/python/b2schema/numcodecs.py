"""numcodecs codecs over b2schema's pure-Rust chunk codec (no C library):

* ``Blosc``: a drop-in for ``numcodecs.Blosc`` (id ``"b2schema.blosc"``): the same config keys
  (``cname``, ``clevel``, ``shuffle``, ``blocksize``, ``typesize``), c-blosc 1.x's Blosc1 chunks
  out (byte for byte c-blosc 1.21's for blosclz, lz4 and lz4hc), Blosc1 and Blosc2 chunks in.
* ``Blosc2``: Blosc2 chunks (id ``"b2schema.blosc2"``), every codec and filter c-blosc2 builds
  in: ``cname`` (blosclz, lz4, lz4hc, zlib, zstd, ndlz, zfp_acc, zfp_prec, zfp_rate, ...),
  ``clevel``, ``filters`` and ``filters_meta`` (six slots, as python-blosc2's cparams),
  ``blocksize``, ``splitmode``, ``codec_meta``, ``use_dict``, ``typesize``.

Both compress and decompress with the interpreter released, on ``nthreads`` threads. Importing
this module registers them with numcodecs (the package's entry points do too, so
``numcodecs.get_codec({"id": "b2schema.blosc"})`` works without importing it);
``register(as_blosc=True)`` also puts ``Blosc`` under numcodecs' own id ``"blosc"``, so
existing Zarr arrays written with ``numcodecs.Blosc`` are read and written through b2schema.
"""

import numpy as np
from numcodecs.abc import Codec
from numcodecs.compat import ensure_contiguous_ndarray, ndarray_copy
from numcodecs.registry import register_codec

from . import _b2schema as _native
from .errors import ArgumentError

NOSHUFFLE = 0
SHUFFLE = 1
BITSHUFFLE = 2
AUTOSHUFFLE = -1
AUTOBLOCKS = 0

_BLOSC1_CODECS = ("blosclz", "lz4", "lz4hc", "zlib", "zstd")
_FILTER_IDS = {"nofilter": 0, "shuffle": 1, "bitshuffle": 2, "delta": 3, "trunc_prec": 4,
               "ndcell": 32, "ndmean": 33, "bytedelta": 35, "int_trunc": 36}


def _typesize(buf, typesize):
    if typesize is not None:
        return int(typesize)
    return max(1, buf.dtype.itemsize)


def _filter_id(f):
    """A filter's id from its name, its id or an enum member (``blosc2.Filter.SHUFFLE``)."""
    if isinstance(f, str):
        if f.lower() not in _FILTER_IDS:
            raise ArgumentError(f"filter {f!r}: one of {', '.join(_FILTER_IDS)} expected")
        return _FILTER_IDS[f.lower()]
    return int(getattr(f, "value", f))


def _bytes_of(buf):
    """A contiguous array's bytes as a 1-D uint8 array (no copy)."""
    return buf.reshape(-1).view(np.uint8)


def _decode(buf, out, nthreads):
    buf = ensure_contiguous_ndarray(buf, flatten=True)
    data = _native.decompress(buf.view(np.uint8).reshape(-1), nthreads)
    if out is not None:
        return ndarray_copy(data, out)
    return data.tobytes()


class Blosc(Codec):
    """``numcodecs.Blosc``'s codec in memory-safe Rust: Blosc1 chunks as c-blosc 1.x writes
    them. ``cname`` snappy is refused (c-blosc 1.x's own wheels build it rarely; it has no Rust
    encoder here)."""

    codec_id = "b2schema.blosc"
    NOSHUFFLE = NOSHUFFLE
    SHUFFLE = SHUFFLE
    BITSHUFFLE = BITSHUFFLE
    AUTOSHUFFLE = AUTOSHUFFLE
    max_buffer_size = 2**31 - 1

    def __init__(self, cname="lz4", clevel=5, shuffle=SHUFFLE, blocksize=AUTOBLOCKS, typesize=None, nthreads=1):
        if isinstance(cname, bytes):
            cname = cname.decode("ascii")
        if cname not in _BLOSC1_CODECS:
            raise ArgumentError(f"cname {cname!r}: one of {', '.join(_BLOSC1_CODECS)} expected")
        if not 0 <= int(clevel) <= 9:
            raise ArgumentError(f"clevel {clevel}: 0 to 9 expected")
        if shuffle not in (NOSHUFFLE, SHUFFLE, BITSHUFFLE, AUTOSHUFFLE):
            raise ArgumentError(f"shuffle {shuffle}: 0, 1, 2 or -1 expected")
        if typesize is not None and int(typesize) < 1:
            raise ArgumentError(f"typesize {typesize}: at least 1 expected")
        self.cname = cname
        self.clevel = int(clevel)
        self.shuffle = int(shuffle)
        self.blocksize = int(blocksize)
        self.typesize = typesize
        self.nthreads = int(nthreads)

    def get_config(self):
        # numcodecs.Blosc's keys, nothing else, so configs stay interchangeable.
        return {"id": self.codec_id, "cname": self.cname, "clevel": self.clevel,
                "shuffle": self.shuffle, "blocksize": self.blocksize}

    def encode(self, buf):
        buf = ensure_contiguous_ndarray(buf, self.max_buffer_size)
        typesize = _typesize(buf, self.typesize)
        shuffle = self.shuffle
        if shuffle == AUTOSHUFFLE:
            shuffle = BITSHUFFLE if typesize == 1 else SHUFFLE
        filters = [0, 0, 0, 0, 0, shuffle]
        return _native.compress(_bytes_of(buf), typesize, self.cname, self.clevel,
                                filters, [0] * 6, self.blocksize, 4, self.nthreads, "blosc1")

    def decode(self, buf, out=None):
        return _decode(buf, out, self.nthreads)

    def __repr__(self):
        return (f"Blosc(cname={self.cname!r}, clevel={self.clevel}, shuffle={self.shuffle}, "
                f"blocksize={self.blocksize})")


class Blosc2(Codec):
    """Blosc2 chunks (c-blosc2's 32-byte header), every built-in codec and filter, as
    ``blosc2.compress2``/``decompress2`` write and read them."""

    codec_id = "b2schema.blosc2"
    max_buffer_size = 2**31 - 1 - 32

    def __init__(self, cname="zstd", clevel=5, filters=None, filters_meta=None, blocksize=0,
                 splitmode=4, codec_meta=0, use_dict=False, typesize=None, nthreads=1):
        if filters is None:
            filters = ["shuffle"]
        filters = [_filter_id(f) for f in filters]
        if len(filters) > 6:
            raise ArgumentError(f"filters: at most 6, found {len(filters)}")
        if filters_meta is None:
            filters_meta = [0] * len(filters)
        filters_meta = [int(m) for m in filters_meta]
        if len(filters_meta) != len(filters):
            raise ArgumentError("filters_meta: one per filter expected")
        if not 0 <= int(clevel) <= 9:
            raise ArgumentError(f"clevel {clevel}: 0 to 9 expected")
        self.cname = cname.name.lower() if hasattr(cname, "name") else str(cname)
        self.clevel = int(clevel)
        self.filters = filters
        self.filters_meta = filters_meta
        self.blocksize = int(blocksize)
        self.splitmode = int(splitmode)
        self.codec_meta = int(codec_meta)
        self.use_dict = bool(use_dict)
        self.typesize = typesize
        self.nthreads = int(nthreads)

    def get_config(self):
        config = {"id": self.codec_id, "cname": self.cname, "clevel": self.clevel,
                  "filters": list(self.filters), "filters_meta": list(self.filters_meta),
                  "blocksize": self.blocksize, "splitmode": self.splitmode,
                  "codec_meta": self.codec_meta, "use_dict": self.use_dict}
        if self.typesize is not None:
            config["typesize"] = self.typesize
        return config

    def encode(self, buf):
        buf = ensure_contiguous_ndarray(buf, self.max_buffer_size)
        typesize = _typesize(buf, self.typesize)
        # The given filters in the first slots, as python-blosc2 places them.
        filters = (self.filters + [0] * 6)[:6]
        metas = [m & 0xFF for m in (self.filters_meta + [0] * 6)[:6]]
        # A byte delta of meta 0 works on the items' bytes, as python-blosc2's CParams sets it.
        metas = [typesize if f == 35 and m == 0 else m for f, m in zip(filters, metas)]
        return _native.compress(_bytes_of(buf), typesize, self.cname, self.clevel,
                                filters, metas, self.blocksize, self.splitmode, self.nthreads, "blosc2",
                                self.codec_meta, self.use_dict)

    def decode(self, buf, out=None):
        return _decode(buf, out, self.nthreads)

    def __repr__(self):
        return (f"Blosc2(cname={self.cname!r}, clevel={self.clevel}, filters={self.filters}, "
                f"filters_meta={self.filters_meta})")


def register(as_blosc=False):
    """Registers the codecs with numcodecs (done on import); ``as_blosc=True`` also registers
    ``Blosc`` under numcodecs' own id ``"blosc"``."""
    register_codec(Blosc)
    register_codec(Blosc2)
    if as_blosc:
        register_codec(Blosc, "blosc")


register()
