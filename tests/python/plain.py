"""Python values as the JSON the Rust tests compare with (`b2schema_tests::value_json`), for
write_tables.py and check_batches.py: bytes as {"__bytes__": hex}, tuples as
{"__tuple__": [...]}, complex numbers as {"__complex__": [re, im]}, a NaN as "NaN", NumPy
scalars and arrays as Python values and nested lists, a datetime64 as its int64 offset (NaT and
masked values as None).
"""
import math

import numpy as np


def plain(v):
    if v is None or v is np.ma.masked:
        return None
    if isinstance(v, (np.ndarray, np.generic)) and v.dtype.kind == "M":
        return None if np.isnat(v) else int(v.astype(np.int64))
    if isinstance(v, np.ndarray) and v.shape == ():
        v = v.item()
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, complex):
        return {"__complex__": [plain(v.real), plain(v.imag)]}
    if isinstance(v, bytes):
        return {"__bytes__": v.hex()}
    if isinstance(v, tuple):
        return {"__tuple__": [plain(x) for x in v]}
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    return v
