"""An xarray backend: ``xr.open_dataset(path, engine="b2schema")`` for a python-blosc2 store of
arrays (``.b2z``, ``.b2d``, ``.b2e``) or a single ``.b2nd``, read lazily through b2schema.

The mapping (the Zarr v2 convention xarray already uses, so nothing new to learn):

* each NDArray member is a variable named by its key without the leading ``/`` (a member in a
  group keeps its path: ``/g/x`` is ``g/x``); SChunks and other members are left out; a single
  ``.b2nd`` is one variable named by the file's stem;
* its dimension names are its vlmeta ``_ARRAY_DIMENSIONS`` (a list of strings, one per
  dimension; ``dims`` is taken too), else ``<variable>_dim_<i>``, so arrays without names never
  clash;
* its other vlmeta entries are the variable's attributes; the store's own vlmeta (python-blosc2's
  ``store.vlmeta``) are the dataset's;
* a variable whose name is one of the dimension names is that dimension's coordinate (as in
  xarray).

Nothing is read when opening but the metadata; each selection reads only its box (NumPy's basic
indexing through b2schema, the interpreter released while decoding).
"""

import os

import numpy as np
import xarray as xr
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

from ._array import NDArray
from ._open import open as _open

_EXTS = (".b2nd", ".b2z", ".b2d", ".b2e")


class _LazyArray(BackendArray):
    def __init__(self, array):
        self.array = array
        self.shape = array.shape
        self.dtype = array.dtype

    def __getitem__(self, key):
        return indexing.explicit_indexing_adapter(key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key):
        return np.asarray(self.array[key])


def _dims(name, array):
    vlmeta = array.vlmeta
    for k in ("_ARRAY_DIMENSIONS", "dims"):
        dims = vlmeta.get(k)
        if isinstance(dims, (list, tuple)) and len(dims) == array.ndim and all(isinstance(d, str) for d in dims):
            return tuple(dims), {a: v for a, v in vlmeta.items() if a != k}
    return tuple(f"{name}_dim_{i}" for i in range(array.ndim)), dict(vlmeta)


def _variable(name, array):
    dims, attrs = _dims(name, array)
    return xr.Variable(dims, indexing.LazilyIndexedArray(_LazyArray(array)), attrs=attrs)


class B2SchemaBackendEntrypoint(BackendEntrypoint):
    """``engine="b2schema"``: python-blosc2 stores and ``.b2nd`` files as datasets."""

    description = "Blosc2 stores and .b2nd arrays through b2schema (memory-safe Rust)"
    open_dataset_parameters = ("filename_or_obj", "drop_variables", "nthreads")

    def open_dataset(self, filename_or_obj, *, drop_variables=None, nthreads=None):
        path = os.fspath(filename_or_obj)
        opened = _open(path, nthreads=nthreads)
        drop = set(drop_variables or ())
        variables, attrs = {}, {}
        if isinstance(opened, NDArray):
            name = os.path.splitext(os.path.basename(path.rstrip("/")))[0]
            members = [(name, opened)]
        else:
            members = [(key.lstrip("/"), opened[key]) for key in opened.keys()]
            attrs = dict(opened.vlmeta)
        for name, member in members:
            if isinstance(member, NDArray) and name not in drop:
                variables[name] = _variable(name, member)
        return xr.Dataset(variables, attrs=attrs)

    def guess_can_open(self, filename_or_obj):
        try:
            return os.fspath(filename_or_obj).rstrip("/").endswith(_EXTS)
        except TypeError:
            return False
