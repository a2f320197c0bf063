"""Arrays and SChunks opened by b2schema, with NumPy's and python-blosc2's faces."""

import ast
import dataclasses
import operator
import os

import numpy as np

from . import _b2schema as _native
from .errors import ArgumentError, SelectionError


def _dtype(text, typesize):
    """NumPy's dtype for the text python-blosc2 stores (``'<f8'``, a structured dtype's list)."""
    if text is None:
        return np.dtype(f"V{typesize}")
    try:
        return np.dtype(text)
    except TypeError:
        # A structured dtype as python-blosc2 writes it: "[('t', '<f4'), ('p', '<f4')]".
        return np.dtype(ast.literal_eval(text))


def from_cframe(cframe, nthreads=None):
    """The container in a contiguous frame's bytes (python-blosc2's ``to_cframe()``)."""
    return _wrap(_native.from_cframe(np.frombuffer(bytes(cframe), dtype=np.uint8)), None, nthreads, None)


def _wrap(native, source, nthreads, max_bytes):
    if native.kind == "ndarray":
        return NDArray(native, source, nthreads, max_bytes)
    return SChunk(native, source, nthreads, max_bytes)


class _Container:
    def __init__(self, native, source, nthreads, max_bytes):
        self._native = native
        self._source = source
        self.nthreads = nthreads
        self._max_bytes = max_bytes

    @property
    def urlpath(self):
        """The path or URL it was opened from."""
        return self._source

    @property
    def typesize(self):
        return self._native.typesize

    @property
    def cparams(self):
        """The compression parameters, as python-blosc2's names them (``codec``, ``clevel``,
        ``filters``, ``filters_meta``, ``typesize``, ``blocksize``, ``splitmode``, ...)."""
        return self._native.cparams()

    @property
    def meta(self):
        """The metalayers, decoded (``b2nd`` included), as a dict."""
        return self._native.meta()

    @property
    def vlmeta(self):
        """The vlmetalayers, decoded as python-blosc2 gives them, as a dict."""
        return self._native.vlmeta()

    @property
    def info(self):
        """A summary as python-blosc2's ``info`` (``name : value`` lines)."""
        return _Info(self._native.info_text())

    @property
    def nbytes(self):
        return self._native.sizes()[0]

    @property
    def cbytes(self):
        return self._native.sizes()[1]

    @property
    def cratio(self):
        nbytes, cbytes, _ = self._native.sizes()
        return nbytes / cbytes if cbytes else 0.0

    @property
    def nchunks(self):
        return self._native.nchunks()

    def decompress_chunk(self, nchunk):
        """Chunk ``nchunk`` decompressed, as ``bytes``."""
        return self._native.decompress_chunk(self._chunk_index(nchunk))

    def get_chunk(self, nchunk):
        """Chunk ``nchunk`` as stored (compressed), as ``bytes``."""
        return self._native.get_chunk(self._chunk_index(nchunk))

    def iterchunks(self):
        """Every chunk decompressed, as ``bytes``, in order."""
        for i in range(self.nchunks):
            yield self.decompress_chunk(i)

    def _chunk_index(self, nchunk):
        i = operator.index(nchunk)
        n = self.nchunks
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise SelectionError(f"chunk {nchunk} of {n}")
        return i


class _Info(str):
    """The ``info`` text; shown as is."""

    def __repr__(self):
        return str(self)


def _plan(key, shape):
    """NumPy's basic indexing of ``shape`` by ``key``: the boxes to read (``(start, stop, step)``
    per dimension, steps positive) and the index that makes NumPy's result of what was read
    (dimensions dropped by integers, reversed by negative steps, added by ``None``). ``None``
    when the key is not basic (arrays, lists, booleans)."""
    if not isinstance(key, tuple):
        key = (key,)
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            continue
        if isinstance(k, (bool, np.bool_)):
            return None
        try:
            operator.index(k)
        except TypeError:
            return None
    n_ell = sum(k is Ellipsis for k in key)
    if n_ell > 1:
        raise SelectionError("an index can only have a single ellipsis ('...')")
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    if n_real > len(shape):
        raise SelectionError(
            f"too many indices for array: array is {len(shape)}-dimensional, but {n_real} were indexed"
        )
    expanded = []
    for k in key if n_ell else key + (Ellipsis,):
        if k is Ellipsis:
            expanded.extend([slice(None)] * (len(shape) - n_real))
        else:
            expanded.append(k)
    ranges, post, dim = [], [], 0
    for k in expanded:
        if k is None:
            post.append(None)
            continue
        n = shape[dim]
        if isinstance(k, slice):
            r = range(*k.indices(n))
            if len(r) == 0:
                ranges.append((0, 0, 1))
                post.append(slice(None))
            elif r.step > 0:
                ranges.append((r[0], r[-1] + 1, r.step))
                post.append(slice(None))
            else:
                ranges.append((r[-1], r[0] + 1, -r.step))
                post.append(slice(None, None, -1))
        else:
            i = operator.index(k)
            if i < -n or i >= n:
                raise SelectionError(f"index {i} is out of bounds for axis {dim} with size {n}")
            if i < 0:
                i += n
            ranges.append((i, i + 1, 1))
            post.append(0)
        dim += 1
    if n_ell:
        post.append(Ellipsis)
    return ranges, tuple(post)


class NDArray(_Container):
    """A Blosc2 NDArray opened for reading: ``shape``, ``dtype``, ``chunks``, ``blocks``,
    ``cparams``, ``meta``, ``vlmeta``, ``info``; ``a[...]`` with NumPy's basic indexing gives a
    ``numpy.ndarray``, decoded into its buffer with the interpreter released."""

    def __init__(self, native, source, nthreads, max_bytes):
        super().__init__(native, source, nthreads, max_bytes)
        self.shape = tuple(native.shape)
        self.chunks = tuple(native.chunks)
        self.blocks = tuple(native.blocks)
        self.dtype = _dtype(native.dtype_str, native.typesize)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __repr__(self):
        return f"<b2schema.NDArray shape={self.shape} dtype={self.dtype} chunks={self.chunks} source={self._source!r}>"

    def read(self, key=(), nthreads=None):
        """``self[key]`` on ``nthreads`` threads (default: the array's)."""
        plan = _plan(key, self.shape)
        if plan is None:
            # Advanced indexing (arrays, lists, booleans): NumPy's, on the whole array.
            return np.asarray(self.read((), nthreads))[key]
        ranges, post = plan
        counts = [-(-(stop - start) // step) for start, stop, step in ranges]
        if any(c == 0 for c in counts):
            out = np.empty(counts, self.dtype)
        else:
            raw = self._native.read(ranges, nthreads if nthreads is not None else self.nthreads)
            out = raw.view(self.dtype).reshape(counts)
        return out[post]

    def __getitem__(self, key):
        return self.read(key)

    def __array__(self, dtype=None, copy=None):
        a = np.asarray(self.read(...))
        return a if dtype is None else a.astype(dtype, copy=False)

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


class SChunk(_Container):
    """A Blosc2 SChunk opened for reading: its items' bytes by ``s[start:stop]`` (as
    python-blosc2), its chunks as ``bytes`` (``decompress_chunk``, ``get_chunk``, ``iterchunks``)."""

    def __init__(self, native, source, nthreads, max_bytes):
        super().__init__(native, source, nthreads, max_bytes)
        self.shape = tuple(native.shape)
        self.chunks = tuple(native.chunks)
        self.blocks = tuple(native.blocks)

    @property
    def chunksize(self):
        return self.cparams["chunksize"]

    @property
    def blocksize(self):
        return self.cparams["blocksize"]

    def __len__(self):
        return self.shape[0]

    def __repr__(self):
        return f"<b2schema.SChunk items={self.shape[0]} typesize={self.typesize} source={self._source!r}>"

    def __getitem__(self, key):
        """The items ``key`` (an index or a slice of step 1) as ``bytes``."""
        n = self.shape[0]
        if isinstance(key, slice):
            start, stop, step = key.indices(n)
            if step != 1:
                raise SelectionError("an SChunk's slices have a step of 1")
            stop = max(start, stop)
        else:
            start = operator.index(key)
            if start < -n or start >= n:
                raise SelectionError(f"index {start} is out of bounds for {n} items")
            start = start + n if start < 0 else start
            stop = start + 1
        if stop == start:
            return b""
        return self._native.read([(start, stop, 1)], self.nthreads).tobytes()


def _cparams_dict(cparams, itemsize):
    if cparams is None:
        return None
    if dataclasses.is_dataclass(cparams):
        cparams = dataclasses.asdict(cparams)
    cparams = dict(cparams)
    filters = [int(getattr(f, "value", f)) if not isinstance(f, str) else f for f in cparams.get("filters", [])]
    metas = list(cparams.get("filters_meta", [0] * len(filters)))
    metas += [0] * (len(filters) - len(metas))
    # A byte delta of meta 0 works on the items' bytes, as python-blosc2's CParams sets it.
    for i, f in enumerate(filters):
        if f in (35, "bytedelta") and metas[i] == 0:
            metas[i] = itemsize
    if filters:
        cparams["filters_meta"] = metas
    return cparams


def _dtype_text(dtype):
    return dtype.str if dtype.fields is None else str(dtype.descr)


def asarray(array, urlpath, chunks=None, blocks=None, cparams=None, meta=None, vlmeta=None, nthreads=None):
    """Writes ``array`` (anything ``numpy.asarray`` takes) to ``urlpath`` as a ``.b2nd`` that
    python-blosc2 opens equal, as ``blosc2.asarray(array, urlpath=..., chunks=..., blocks=...,
    cparams=..., meta=...)`` plus ``vlmeta`` (a dict), then opens it. ``cparams``: a dict (or a
    ``blosc2.CParams``) with ``codec``, ``clevel``, ``filters``, ``filters_meta``,
    ``codec_meta``, ``splitmode``, ``use_dict``; python-blosc2's defaults otherwise."""
    if nthreads is not None and int(nthreads) < 1:
        raise ArgumentError(f"nthreads {nthreads}: at least 1 expected")
    a = np.asarray(array)
    if not a.flags.c_contiguous:
        a = a.copy(order="C")  # (np.ascontiguousarray would make a 0-d array 1-d)
    if a.dtype.hasobject:
        raise ArgumentError("object arrays have no Blosc2 form")
    path = os.fspath(urlpath)
    _native.write_array(
        path,
        a.reshape(-1).view(np.uint8) if a.size else np.zeros(0, np.uint8),
        list(a.shape),
        _dtype_text(a.dtype),
        None if chunks is None else [int(c) for c in chunks],
        None if blocks is None else [int(b) for b in blocks],
        _cparams_dict(cparams, a.dtype.itemsize),
        None if meta is None else dict(meta),
        None if vlmeta is None else dict(vlmeta),
    )
    return _wrap(_native.open(path, None), path, nthreads, None)
