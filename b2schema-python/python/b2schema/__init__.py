"""b2schema: read and write Blosc2 containers (python-blosc2's ``.b2nd``, ``.b2frame``, sparse
frames, stores, CTables) in memory-safe Rust, with NumPy arrays out, the interpreter released
while decoding, and numcodecs codecs (``b2schema.numcodecs``).

>>> import b2schema
>>> a = b2schema.open("tests/data/fixtures/nd-meta-vlmeta.b2nd")   # doctest: +SKIP
>>> a[:2]                                                          # doctest: +SKIP
"""

from ._b2schema import __version__
from .errors import (
    ArgumentError,
    BudgetExceededError,
    ChunkError,
    Error,
    FormatError,
    IoError,
    KeyNotFoundError,
    NotAFrameError,
    NotFoundError,
    SelectionError,
    TruncatedError,
)
from ._array import NDArray, SChunk, asarray, from_cframe
from ._open import open
from ._store import CTable, Store, open_store, open_table

__all__ = [
    "ArgumentError",
    "BudgetExceededError",
    "CTable",
    "ChunkError",
    "Error",
    "FormatError",
    "IoError",
    "KeyNotFoundError",
    "NDArray",
    "NotAFrameError",
    "NotFoundError",
    "SChunk",
    "SelectionError",
    "Store",
    "TruncatedError",
    "__version__",
    "asarray",
    "from_cframe",
    "open",
    "open_store",
    "open_table",
]
