"""The one entry point, ``open``: an array, an SChunk, a store or a table by path or URL; and the
pickling of what it opened (by path or URL, reopened where unpickled: never the data)."""

import copyreg
import os

from . import _b2schema as _native
from ._array import NDArray, SChunk, _wrap
from ._paths import _STORE_EXTS, _is_url
from ._store import open_store
from .errors import ArgumentError


def open(urlpath, nthreads=None, max_bytes=None):
    """Opens a Blosc2 container for reading, as ``blosc2.open``: a ``.b2nd`` NDArray, a
    ``.b2frame`` SChunk, a sparse frame's directory, a store (``.b2z``, ``.b2d``, ``.b2e``; a
    CTable when it holds one), by path, ``http(s)://`` URL or object-store URL (``s3://bucket/key``,
    ``gs://``, ``az://``, ``abfs://``; configured from the environment as the ``object_store``
    crate reads it: ``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID``, ``AWS_REGION``, ...; a sparse
    frame by its prefix ending in ``/``).

    ``nthreads``: threads decoding each read (default: the cores). ``max_bytes``: the largest
    read result (default 4 GiB); a file asking for more raises ``BudgetExceededError``.
    """
    if nthreads is not None and int(nthreads) < 1:
        raise ArgumentError(f"nthreads {nthreads}: at least 1 expected")
    path = urlpath if _is_url(urlpath) else os.fspath(urlpath)
    if str(path).rstrip("/").endswith(_STORE_EXTS):
        return open_store(path, nthreads=nthreads, max_bytes=max_bytes)
    if _is_url(path):
        native = _native.open_url(path, max_bytes)
    else:
        native = _native.open(path, max_bytes)
    return _wrap(native, path, nthreads, max_bytes)


def _reopen(source, nthreads, max_bytes):
    """Opens again what was pickled: a path, a URL, or a store's member (``(store, key)``)."""
    if isinstance(source, tuple):
        store, key = source
        return open_store(store, nthreads=nthreads, max_bytes=max_bytes)[key]
    return open(source, nthreads=nthreads, max_bytes=max_bytes)


def _reduce(container):
    # Pickled by what it was opened from, opened again where it is unpickled: never its data.
    if container._source is None:
        raise TypeError("a container opened from bytes cannot be pickled (it has no path or URL)")
    return (_reopen, (container._source, container.nthreads, container._max_bytes))


copyreg.pickle(NDArray, _reduce)
copyreg.pickle(SChunk, _reduce)
