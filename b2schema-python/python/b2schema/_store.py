"""python-blosc2's stores (``.b2z``, ``.b2d``, ``.b2e``) as read-only mappings, and CTables."""

import collections.abc
import os

import numpy as np

from . import _b2schema as _native
from ._array import _wrap
from ._paths import _is_url


def open_store(urlpath, nthreads=None, max_bytes=None):
    """Opens a store by path or URL: a ``CTable`` when it holds one (its ``/_meta``), else a
    ``Store``."""
    path = urlpath if _is_url(urlpath) else os.fspath(urlpath)
    native = _native.open_store(path, max_bytes)
    if "/_meta" in native.keys() and not _is_url(path):
        try:
            return CTable(_native.open_table(path, max_bytes), native, path, nthreads, max_bytes)
        except Exception:
            pass  # a store with a /_meta that is not a table: a store
    return Store(native, path, nthreads, max_bytes)


class Store(collections.abc.Mapping):
    """A store as a read-only mapping from its keys (``"/g/x"``) to its members (``NDArray``,
    ``SChunk``), as python-blosc2's ``TreeStore``/``DictStore`` read them; ``vlmeta`` is the
    store's own."""

    def __init__(self, native, source, nthreads, max_bytes):
        self._native = native
        self._source = source
        self.nthreads = nthreads
        self._max_bytes = max_bytes

    def __reduce__(self):
        return (open_store, (self._source, self.nthreads, self._max_bytes))

    def keys(self):
        return list(self._native.keys())

    def __iter__(self):
        return iter(self._native.keys())

    def __len__(self):
        return len(self._native.keys())

    def __contains__(self, key):
        return key in self._native.keys()

    def __getitem__(self, key):
        if key not in self:
            raise KeyError(key)
        return _wrap(self._native.get(key), (self._source, key), self.nthreads, self._max_bytes)

    @property
    def groups(self):
        return list(self._native.groups())

    @property
    def vlmeta(self):
        return self._native.vlmeta()

    def __repr__(self):
        return f"<b2schema.Store {len(self)} members source={self._source!r}>"


# Rows per Arrow batch when none is asked for (python-blosc2's `iter_arrow_batches` default).
_BATCH_ROWS = 65536


class CTable(Store):
    """A python-blosc2 CTable: ``column(name)`` its live rows as a NumPy masked array (masked
    where a row holds a null), ``rows()``, ``columns``, ``to_arrow()`` (with pyarrow)."""

    def __init__(self, table, native, source, nthreads, max_bytes):
        super().__init__(native, source, nthreads, max_bytes)
        self._table = table

    @property
    def columns(self):
        """The column names, in the schema's order."""
        return [name for name, _, _ in self._table.columns()]

    @property
    def schema(self):
        """(name, kind, nullable) per column."""
        return list(self._table.columns())

    @property
    def nrows(self):
        return self._table.n_rows()

    def __len__(self):
        return self._table.n_rows()

    def column(self, name):
        """The live rows of column ``name`` as a ``numpy.ma.MaskedArray`` (masked where null)."""
        kinds = {n: k for n, k, _ in self._table.columns()}
        cells = self._table.column(name)
        mask = np.array([c is None for c in cells], dtype=bool)
        dtype = _KIND_DTYPES.get(kinds.get(name))
        if dtype is None:
            values = np.empty(len(cells), dtype=object)
            values[:] = cells
        else:
            fill = np.zeros((), dtype=dtype).item()
            values = np.array([fill if c is None else c for c in cells], dtype=dtype)
        return np.ma.MaskedArray(values, mask=mask)

    def rows(self):
        """The live rows, each a list of Python values."""
        return self._table.rows()

    def __arrow_c_stream__(self, requested_schema=None):
        """The live rows as an Arrow C stream (the Arrow PyCapsule interface), so that
        ``pyarrow.table(t)``, ``polars.DataFrame(t)`` and DuckDB read the table without a copy
        through Python. The batches are made in Rust as the consumer pulls them;
        ``requested_schema`` is not applied (the protocol allows a producer to ignore it)."""
        return self._table.arrow_stream(None, _BATCH_ROWS, self.nthreads or 1)

    def iter_arrow_batches(self, *, columns=None, batch_size=_BATCH_ROWS):
        """The live rows of ``columns`` (all when None) as ``pyarrow.RecordBatch``es of at most
        ``batch_size`` rows, read as they are asked for (memory of one batch)."""
        import pyarrow as pa

        stream = self._table.arrow_stream(_column_list(columns), batch_size, self.nthreads or 1)
        yield from pa.RecordBatchReader._import_from_c_capsule(stream)

    def to_arrow(self, columns=None):
        """The table (or ``columns`` of it) as a ``pyarrow.Table``: the types python-blosc2's
        ``CTable.to_arrow()`` gives (strings as ``string``/``large_string``, datetimes as
        ``timestamp``, nulls as validity), through the Arrow C stream."""
        import pyarrow as pa

        stream = self._table.arrow_stream(_column_list(columns), _BATCH_ROWS, self.nthreads or 1)
        return pa.RecordBatchReader._import_from_c_capsule(stream).read_all()

    def __repr__(self):
        return f"<b2schema.CTable {self.columns} source={self._source!r}>"


def _column_list(columns):
    if columns is None:
        return None
    if isinstance(columns, str):
        raise TypeError("columns: a list of column names expected, found a string")
    return [str(c) for c in columns]


_KIND_DTYPES = {
    k: np.dtype(k)
    for k in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64", "bool")
}


def open_table(urlpath, nthreads=None, max_bytes=None):
    """Opens the CTable at ``urlpath`` (a ``.b2d`` directory or a ``.b2z``)."""
    path = os.fspath(urlpath)
    return CTable(_native.open_table(path, max_bytes), _native.open_store(path, max_bytes), path, nthreads, max_bytes)
