#!/usr/bin/env python3
"""Write the Blosc2 reference fixtures used by b2schema's tests.

Run from the repository root:

    PY=$(scripts/pyenv.sh) && "$PY" tests/data/generate.py

This deletes and recreates tests/data/fixtures/ and rewrites tests/data/fixtures.json.
Every fixture is written by python-blosc2 (pinned in scripts/requirements.txt), then
reopened with blosc2.open, checked against the data that was written, and described
in fixtures.json using only what python-blosc2 and numpy report through their APIs.
See tests/data/README.md for the fixture list and the manifest schema.

Determinism: fixed data (no clocks, integer-only random draws), one thread everywhere
(blosc2.set_nthreads(1) and nthreads=1 in cparams/dparams), relative urlpaths.
"""

from __future__ import annotations

import argparse
import enum
import gc
import hashlib
import json
import math
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# c-blosc2 reads BLOSC_NTHREADS, BLOSC_CLEVEL, BLOSC_COMPRESSOR, ... from the environment
# and lets them override the parameters passed in: drop them so they cannot change the bytes.
for _var in [v for v in os.environ if v.startswith("BLOSC")]:
    del os.environ[_var]

import blosc2  # noqa: E402
import msgpack  # noqa: E402
import numpy as np  # noqa: E402

CP = {"nthreads": 1}  # merged into every cparams
DP = {"nthreads": 1}  # every dparams
FORMAT_VERSION = 1  # of fixtures.json


# ----------------------------------------------------------------------------
# Registry
# ----------------------------------------------------------------------------


@dataclass
class Fixture:
    name: str  # path relative to fixtures/ (a directory for sparse frames)
    call: str  # short rendering of the creating call(s)
    family: str
    expect: Any = None  # np.ndarray (NDArray) or bytes (SChunk); None: no whole-data check
    check: Callable[[Any], bool] | None = None  # extra check on the read-back data
    lossy: bool = False  # compare approximately (TRUNC_PREC)
    notes: list[str] = field(default_factory=list)


FIXTURES: list[Fixture] = []
AS_WRITTEN = object()  # nd(expect=...) default: the array passed to blosc2.asarray
REFUSED: list[dict] = []
_family = ""


def add(name: str, call: str, **kw: Any) -> None:
    assert all(f.name != name for f in FIXTURES), name
    FIXTURES.append(Fixture(name, call, _family, **kw))


def refuse(name: str, call: str, exc: BaseException | str) -> None:
    """Record a combination python-blosc2 refused (and remove any partial output)."""
    err = exc if isinstance(exc, str) else f"{type(exc).__name__}: {exc}".rstrip(": ")
    REFUSED.append({"name": name, "family": _family, "call": call, "error": err})
    path = Path(name)
    if path.is_dir():
        shutil.rmtree(path)
    elif path.exists():
        path.unlink()


# ----------------------------------------------------------------------------
# Rendering the creating call
# ----------------------------------------------------------------------------


def fmt(v: Any) -> str:
    if isinstance(v, enum.Enum):
        return f"{type(v).__name__}.{v.name}"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(fmt(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(fmt(x) for x in v) + ("," if len(v) == 1 else "") + ")"
    if isinstance(v, np.dtype):
        return repr(v.descr if v.fields else v.str)
    return repr(v)


def render(fn: str, *src: str, **kw: Any) -> str:
    """fn(src..., k=v...); urlpath, mode, dparams and nthreads=1 are implied."""
    return f"{fn}({', '.join([*src, *(f'{k}={fmt(v)}' for k, v in kw.items())])})"


# ----------------------------------------------------------------------------
# Writers
# ----------------------------------------------------------------------------


def nd(
    name: str,
    fn: str,
    *args: Any,
    src: tuple[str, ...],
    expect: Any = AS_WRITTEN,
    after: Callable[[Any], None] | None = None,
    after_src: str = "",
    check: Callable[[Any], bool] | None = None,
    lossy: bool = False,
    notes: tuple[str, ...] = (),
    cparams: dict | None = None,
    contiguous: bool = True,
    **kw: Any,
) -> None:
    """Write an NDArray with blosc2.<fn>(*args, urlpath=name, **kw) and register it."""
    shown = dict(kw)
    if cparams:
        shown["cparams"] = cparams
    if not contiguous:
        shown["contiguous"] = False
    call = render(f"blosc2.{fn}", *src, **shown) + after_src
    try:
        arr = getattr(blosc2, fn)(
            *args,
            urlpath=name,
            mode="w",
            contiguous=contiguous,
            cparams={**CP, **(cparams or {})},
            dparams=DP,
            **kw,
        )
        if after is not None:
            after(arr)
    except Exception as exc:  # python-blosc2 refused the combination
        refuse(name, call, exc)
        return
    if expect is AS_WRITTEN:
        assert fn == "asarray" and after is None, name
        expect = args[0]
    if expect is not None and not same_array(np.asarray(arr[()]), expect, lossy):
        refuse(name, call, "written, but python-blosc2 reads back different data")
        return
    if not reopens(name, call):
        return
    add(name, call, expect=expect, check=check, lossy=lossy, notes=list(notes))


def sc(
    name: str,
    *,
    chunksize: int,
    data: Any = None,
    src: str = "",
    typesize: int = 1,
    cparams: dict | None = None,
    meta: dict | None = None,
    contiguous: bool = True,
    after: Callable[[Any], None] | None = None,
    after_src: str = "",
    expect: bytes | None = None,
    notes: tuple[str, ...] = (),
) -> None:
    """Write an SChunk with blosc2.SChunk(chunksize, data, urlpath=name, ...) and register it."""
    shown: dict[str, Any] = {"chunksize": chunksize}
    if src:
        shown["data"] = Raw(src)
    shown["cparams"] = {"typesize": typesize, **(cparams or {})}
    if meta is not None:
        shown["meta"] = meta
    if not contiguous:
        shown["contiguous"] = False
    call = render("blosc2.SChunk", **shown) + after_src
    extra = {"meta": meta} if meta is not None else {}
    try:
        schunk = blosc2.SChunk(
            chunksize=chunksize,
            data=data,
            urlpath=name,
            mode="w",
            contiguous=contiguous,
            cparams={**CP, "typesize": typesize, **(cparams or {})},
            dparams=DP,
            **extra,
        )
        if after is not None:
            after(schunk)
    except Exception as exc:
        refuse(name, call, exc)
        return
    if expect is None and after is None:
        expect = b"" if data is None else as_bytes(data)
    if not reopens(name, call):
        return
    add(name, call, expect=expect, notes=list(notes))


def reopens(name: str, call: str) -> bool:
    """True if blosc2.open accepts the file; otherwise record it as refused."""
    try:
        blosc2.open(name, mode="r")
    except Exception as exc:
        refuse(name, call, f"written, but blosc2.open fails with {type(exc).__name__}: {exc}")
        return False
    return True


def to_cframe_file(name: str, obj: Any, call: str, expect: Any, notes: tuple[str, ...] = ()) -> None:
    """Write obj.to_cframe() (an in-memory frame) to a .cframe file and register it."""
    Path(name).write_bytes(obj.to_cframe())
    add(name, call, expect=expect, notes=list(notes))


class Raw(str):
    """A string rendered verbatim by fmt (source text of an argument)."""

    def __repr__(self) -> str:
        return str(self)


def as_bytes(data: Any) -> bytes:
    if isinstance(data, np.ndarray):
        return np.ascontiguousarray(data).tobytes()
    return bytes(data)


def chunk_bytes(n: int, seed: int, typesize: int = 1) -> bytes:
    """A compressible chunk payload for SChunk.append/insert/update."""
    return bytes((seed + (i // 3) * 7) % 251 for i in range(n * typesize))


def compress(data: bytes, typesize: int = 1, **cparams: Any) -> bytes:
    return blosc2.compress2(data, typesize=typesize, nthreads=1, **cparams)


# ----------------------------------------------------------------------------
# Data
# ----------------------------------------------------------------------------


def smooth_i4(n: int, seed: int) -> np.ndarray:
    """A random walk: compressible but not trivial."""
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.integers(-3, 4, n)).astype("<i4")


def smooth_f8(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.cumsum(rng.integers(-50, 51, n)).astype("<f8") / 64


def dtype_samples() -> list[tuple[str, np.ndarray, str]]:
    """(label, 50-item array, source text) for each dtype fixture."""
    n = np.arange(50)
    words = ["", "a", "bb", "héllo", "ccc", "dddd", "\U0001f600x", "abcde"]
    struct = np.dtype([("a", "<i4"), ("b", "<f8")])
    sub = np.dtype([("id", "<u2"), ("v", "<f8", (3,))])
    nested = np.dtype([("x", [("p", "<i2"), ("q", "|u1")]), ("y", "<f4")])
    s_struct = np.zeros(50, struct)
    s_struct["a"], s_struct["b"] = n * 3 - 70, n / 4
    s_sub = np.zeros(50, sub)
    s_sub["id"], s_sub["v"] = n * 1000, np.stack([n / 2, -n / 8, n * 1.5], axis=1)
    s_nested = np.zeros(50, nested)
    s_nested["x"]["p"], s_nested["x"]["q"], s_nested["y"] = n * -99, n * 5, n / 16
    datetimes = np.datetime64("2024-02-29T12:00:00", "ms") + n.astype("<m8[ms]") * 86_399_999
    datetimes[3] = np.datetime64("NaT")
    return [
        ("b1", n % 3 == 0, "np.arange(50) % 3 == 0"),
        ("i1", np.arange(-25, 25, dtype="i1"), "np.arange(-25, 25, dtype='i1')"),
        ("i2", (n * -321).astype("<i2"), "(np.arange(50) * -321).astype('<i2')"),
        ("i4", (n * 100_003 - 2_000_000).astype("<i4"), "(np.arange(50) * 100_003 - 2_000_000).astype('<i4')"),
        ("i8", n.astype("<i8") * 10**15 - 7, "np.arange(50, dtype='<i8') * 10**15 - 7"),
        ("u1", (n * 5 % 256).astype("u1"), "(np.arange(50) * 5 % 256).astype('u1')"),
        ("u2", (n * 1000).astype("<u2"), "(np.arange(50) * 1000).astype('<u2')"),
        ("u4", n.astype("<u4") * 80_000_000, "np.arange(50, dtype='<u4') * 80_000_000"),
        ("u8", n.astype("<u8") * 2**58, "np.arange(50, dtype='<u8') * 2**58"),
        ("f4", n.astype("<f4") / 8 - 3, "np.arange(50, dtype='<f4') / 8 - 3"),
        ("f8", smooth_f8(50, 8), "np.cumsum(default_rng(8).integers(-50, 51, 50)) / 64"),
        ("c8", (n / 4 - 1j * n / 2).astype("<c8"), "(np.arange(50) / 4 - 1j * np.arange(50) / 2).astype('<c8')"),
        ("c16", n / 8 + 1j * (n - 25), "np.arange(50) / 8 + 1j * (np.arange(50) - 25)"),
        ("U5", np.array([words[i % 8] for i in n], "<U5"), f"np.array([{words!r}[i % 8] for i in range(50)], '<U5')"),
        (
            "S7",
            np.array([b"xyzw123"[: i % 8] for i in n], "S7"),
            "np.array([b'xyzw123'[: i % 8] for i in range(50)], 'S7')",
        ),
        ("M8ms", datetimes, "datetime64('2024-02-29T12:00:00', 'ms') + arange(50) * 86_399_999 ms, [3] = NaT"),
        ("m8s", (n - 25).astype("<m8[s]") * 3600, "(np.arange(50) - 25).astype('<m8[s]') * 3600"),
        ("be-i4", (n * 100_003 - 2_000_000).astype(">i4"), "(np.arange(50) * 100_003 - 2_000_000).astype('>i4')"),
        ("be-f8", (n / 8 - 3).astype(">f8"), "(np.arange(50) / 8 - 3).astype('>f8')"),
        ("struct", s_struct, f"np.zeros(50, {struct.descr}); a = 3n - 70; b = n / 4"),
        ("subarray", s_sub, f"np.zeros(50, {sub.descr}); id = 1000n; v = [n/2, -n/8, 1.5n]"),
        ("nested", s_nested, f"np.zeros(50, {nested.descr}); x.p = -99n; x.q = 5n; y = n/16"),
        ("V4", np.frombuffer(bytes(range(200)), "V4"), "np.frombuffer(bytes(range(200)), 'V4')"),
    ]


# ----------------------------------------------------------------------------
# Fixture families
# ----------------------------------------------------------------------------


def ndarrays_by_ndim() -> None:
    nd("nd-0d-f8.b2nd", "asarray", np.array(2.75), src=("np.array(2.75)",))
    nd("nd-0d-U6.b2nd", "asarray", np.array("foobar"), src=("np.array('foobar')",))
    nd(
        "nd-1d-i4.b2nd",
        "asarray",
        np.arange(100, dtype="<i4"),
        src=("np.arange(100, dtype='<i4')",),
        chunks=(30,),
        blocks=(7,),
    )
    a2 = (np.arange(70).reshape(10, 7) * 37 % 1000).astype("<u2")
    nd(
        "nd-2d-u2.b2nd",
        "asarray",
        a2,
        src=("(np.arange(70).reshape(10, 7) * 37 % 1000).astype('<u2')",),
        chunks=(4, 3),
        blocks=(2, 2),
    )
    a3 = smooth_f8(120, 3).reshape(6, 5, 4)
    nd(
        "nd-3d-f8-zstd.b2nd",
        "asarray",
        a3,
        src=("(np.cumsum(default_rng(3).integers(-50, 51, 120)) / 64).reshape(6, 5, 4)",),
        chunks=(3, 3, 2),
        blocks=(2, 2, 1),
        cparams={"codec": blosc2.Codec.ZSTD, "clevel": 9},
    )
    a4 = (np.arange(120).reshape(3, 4, 2, 5) - 60).astype("<i2")
    nd(
        "nd-4d-i2.b2nd",
        "asarray",
        a4,
        src=("(np.arange(120).reshape(3, 4, 2, 5) - 60).astype('<i2')",),
        chunks=(2, 3, 2, 3),
        blocks=(1, 2, 1, 2),
    )
    shape8 = (2, 3, 1, 2, 2, 1, 3, 2)
    a8 = (np.arange(math.prod(shape8)) % 256).astype("u1").reshape(shape8)
    nd(
        "nd-8d-u1.b2nd",
        "asarray",
        a8,
        src=(f"(np.arange(144) % 256).astype('u1').reshape({shape8})",),
        chunks=(1, 2, 1, 2, 1, 1, 2, 2),
        blocks=(1, 1, 1, 2, 1, 1, 1, 2),
    )
    shape16 = (1, 2, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 3)
    a16 = (np.arange(24) * 11 - 100).astype("<i2").reshape(shape16)
    nd(
        "nd-16d-i2.b2nd",
        "asarray",
        a16,
        src=(f"(np.arange(24) * 11 - 100).astype('<i2').reshape({shape16})",),
        chunks=(1, 2, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 2),
        blocks=(1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1),
    )
    nd(
        "nd-16d-zeros-u1.b2nd",
        "zeros",
        (2,) * 16,
        dtype="u1",
        src=("(2,) * 16",),
        expect=np.zeros((2,) * 16, "u1"),
        chunks=(1,) * 3 + (2,) * 13,
        blocks=(1,) * 12 + (2,) * 4,
    )
    sh17 = (1,) * 16 + (2,)
    nd("nd-17d-i2.b2nd", "asarray", np.zeros(sh17, "<i2"), src=("np.zeros((1,) * 16 + (2,), '<i2')",))


def ndarrays_by_dtype() -> None:
    for label, data, text in dtype_samples():
        kw: dict[str, Any] = {"chunks": (20,), "blocks": (8,)}
        notes: tuple[str, ...] = ()
        expect = data
        check = None
        if label == "V4":
            # python-blosc2 stores a plain void dtype as a one-field structured dtype.
            expect = None
            check = (lambda d: lambda got: got.tobytes() == d.tobytes())(data)
            notes = ("written from dtype |V4; python-blosc2 stores and reopens it as [('f0', 'V4')]",)
        nd(f"dtype-{label}.b2nd", "asarray", data, src=(text,), expect=expect, check=check, notes=notes, **kw)
    s300 = np.array([bytes([65 + i]) * (50 * i) for i in range(6)], "S300")
    nd(
        "dtype-S300.b2nd",
        "asarray",
        s300,
        src=("np.array([bytes([65 + i]) * (50 * i) for i in range(6)], 'S300')",),
        chunks=(4,),
        blocks=(2,),
        notes=("itemsize 300 > 255: chunk headers store typesize 1",),
    )
    u80 = np.array(["é" * (16 * i) + str(i) for i in range(5)], "<U80")
    nd(
        "dtype-U80.b2nd",
        "asarray",
        u80,
        src=("np.array(['é' * (16 * i) + str(i) for i in range(5)], '<U80')",),
        chunks=(3,),
        blocks=(2,),
        notes=("itemsize 320 > 255: chunk headers store typesize 1",),
    )


def ndarrays_by_codec() -> None:
    data = smooth_i4(600, 1)
    src = ("np.cumsum(default_rng(1).integers(-3, 4, 600)).astype('<i4')",)
    C = blosc2.Codec
    for codec, clevel in [
        (C.BLOSCLZ, 1),
        (C.BLOSCLZ, 9),
        (C.LZ4, 1),
        (C.LZ4, 9),
        (C.LZ4HC, 5),
        (C.LZ4HC, 9),
        (C.ZLIB, 1),
        (C.ZLIB, 9),
        (C.ZSTD, 1),
        (C.ZSTD, 9),
        (C.ZSTD, 0),
        (C.LZ4, 0),
    ]:
        nd(
            f"codec-{codec.name.lower()}-{clevel}.b2nd",
            "asarray",
            data,
            src=src,
            chunks=(200,),
            blocks=(50,),
            cparams={"codec": codec, "clevel": clevel},
        )
    # use_dict: c-blosc2 only trains a dictionary for chunks of >= 8 KB or so.
    big = smooth_i4(4096, 5)
    big_src = ("np.cumsum(default_rng(5).integers(-3, 4, 4096)).astype('<i4')",)
    for codec in (C.ZSTD, C.LZ4, C.LZ4HC, C.BLOSCLZ):
        nd(
            f"dict-{codec.name.lower()}.b2nd",
            "asarray",
            big,
            src=big_src,
            chunks=(2048,),
            blocks=(256,),
            cparams={"codec": codec, "use_dict": True},
        )


def ndarrays_by_filter() -> None:
    F = blosc2.Filter
    data = smooth_i4(600, 2)
    src = ("np.cumsum(default_rng(2).integers(-3, 4, 600)).astype('<i4')",)
    for label, filters, meta in [
        ("nofilter", [F.NOFILTER] * 6, [0] * 6),
        ("shuffle", [F.SHUFFLE], [0]),
        ("shuffle-meta2", [F.SHUFFLE], [2]),
        ("bitshuffle", [F.BITSHUFFLE], [0]),
        ("delta", [F.DELTA], [0]),
        ("shuffle-delta", [F.SHUFFLE, F.DELTA], [0, 0]),
        ("delta-bitshuffle", [F.DELTA, F.BITSHUFFLE], [0, 0]),
        ("shuffle-bytedelta", [F.SHUFFLE, F.BYTEDELTA], [0, 4]),
        ("delta-shuffle-last-slots", [F.NOFILTER, F.NOFILTER, F.NOFILTER, F.NOFILTER, F.DELTA, F.SHUFFLE], [0] * 6),
        # c-blosc2 3.3.5 corrupts data when DELTA, SHUFFLE and BITSHUFFLE share a pipeline and a
        # chunk has several blocks: this one ends up in "refused".
        ("delta-shuffle-bitshuffle", [F.DELTA, F.SHUFFLE, F.BITSHUFFLE], [0, 0, 0]),
    ]:
        nd(
            f"filter-{label}.b2nd",
            "asarray",
            data,
            src=src,
            chunks=(200,),
            blocks=(50,),
            cparams={"filters": filters, "filters_meta": meta},
        )
    f8 = smooth_f8(600, 4)
    nd(
        "filter-trunc-prec-f8.b2nd",
        "asarray",
        f8,
        src=("np.cumsum(default_rng(4).integers(-50, 51, 600)) / 64",),
        chunks=(200,),
        blocks=(50,),
        cparams={"filters": [F.TRUNC_PREC, F.SHUFFLE], "filters_meta": [20, 0]},
        lossy=True,
        notes=("TRUNC_PREC is lossy: data_sha256 is of what python-blosc2 reads back",),
    )
    f4 = (smooth_f8(600, 6) / 3).astype("<f4")
    nd(
        "filter-trunc-prec-neg-f4.b2nd",
        "asarray",
        f4,
        src=("(np.cumsum(default_rng(6).integers(-50, 51, 600)) / 64 / 3).astype('<f4')",),
        chunks=(200,),
        blocks=(50,),
        cparams={"filters": [F.TRUNC_PREC, F.BITSHUFFLE], "filters_meta": [-8, 0]},
        lossy=True,
        notes=(
            "negative TRUNC_PREC meta: zero that many low mantissa bits (filters_meta byte 0xf8)",
            "python-blosc2 4.14.1 writes this file but cannot open it: it ends up in 'refused'",
        ),
    )


def ndarrays_by_splitmode() -> None:
    data = smooth_i4(600, 7)
    src = ("np.cumsum(default_rng(7).integers(-3, 4, 600)).astype('<i4')",)
    for mode in blosc2.SplitMode:
        label = mode.name.lower().removesuffix("_split").replace("_", "-")
        nd(f"split-{label}.b2nd", "asarray", data, src=src, chunks=(200,), blocks=(50,), cparams={"splitmode": mode})
    nd(
        "split-never-lz4-bitshuffle.b2nd",
        "asarray",
        data,
        src=src,
        chunks=(200,),
        blocks=(50,),
        cparams={
            "codec": blosc2.Codec.LZ4,
            "splitmode": blosc2.SplitMode.NEVER_SPLIT,
            "filters": [blosc2.Filter.BITSHUFFLE],
            "filters_meta": [0],
        },
    )


def ndarrays_by_chunk_count() -> None:
    data = (np.arange(60) * 3 - 50).astype("<i2")
    src = ("(np.arange(60) * 3 - 50).astype('<i2')",)
    for n in (1, 2, 3, 4, 10):
        nd(f"chunks-{n}.b2nd", "asarray", data, src=src, chunks=(60 // n,), blocks=(4,))
    many = (np.arange(1000) % 251).astype("u1")
    nd("chunks-200.b2nd", "asarray", many, src=("(np.arange(1000) % 251).astype('u1')",), chunks=(5,), blocks=(5,))
    grid = (np.arange(600) * 13 % 1009).astype("<u2").reshape(20, 30)
    nd(
        "chunks-2d-60.b2nd",
        "asarray",
        grid,
        src=("(np.arange(600) * 13 % 1009).astype('<u2').reshape(20, 30)",),
        chunks=(2, 5),
        blocks=(1, 5),
    )


def ndarrays_special() -> None:
    kw = {"chunks": (30,), "blocks": (10,)}
    nd("special-zeros-f8.b2nd", "zeros", (100,), dtype="<f8", src=("(100,)",), expect=np.zeros(100), **kw)
    nd(
        "special-empty-f4.b2nd",
        "empty",
        (100,),
        dtype="<f4",
        src=("(100,)",),
        expect=np.zeros(100, "<f4"),
        notes=("blosc2.empty writes ZERO special chunks (not UNINIT)",),
        **kw,
    )
    nd(
        "special-uninit-f4.b2nd",
        "uninit",
        (100,),
        dtype="<f4",
        src=("(100,)",),
        expect=None,
        notes=("UNINIT chunks: their decompressed content is undefined, so no data hashes",),
        **kw,
    )
    nd("special-nans-f8.b2nd", "nans", (100,), dtype="<f8", src=("(100,)",), expect=np.full(100, np.nan), **kw)
    nd(
        "special-nans-f4.b2nd",
        "nans",
        (7, 9),
        dtype="<f4",
        src=("(7, 9)",),
        expect=np.full((7, 9), np.nan, "<f4"),
        chunks=(3, 4),
        blocks=(2, 2),
    )
    nd("special-full-i4.b2nd", "full", (100,), 7, dtype="<i4", src=("(100,)", "7"), expect=np.full(100, 7, "<i4"), **kw)
    nd(
        "special-full-c16.b2nd",
        "full",
        (5, 6),
        1.5 - 2j,
        dtype="<c16",
        src=("(5, 6)", "1.5-2j"),
        expect=np.full((5, 6), 1.5 - 2j),
        chunks=(2, 4),
        blocks=(1, 2),
    )
    nd("special-ones-u2.b2nd", "ones", (100,), dtype="<u2", src=("(100,)",), expect=np.ones(100, "<u2"), **kw)

    part = np.zeros(100)
    part[35:50] = np.arange(15) / 4

    def write_part(a: Any) -> None:
        a[35:50] = np.arange(15) / 4

    nd(
        "special-partial-zeros-f8.b2nd",
        "zeros",
        (100,),
        dtype="<f8",
        src=("(100,)",),
        expect=part,
        after=write_part,
        after_src="; a[35:50] = np.arange(15) / 4",
        **kw,
    )

    def write_uninit(a: Any) -> None:
        a[0:30] = np.arange(30, dtype="<i4")
        a[90:100] = -1

    nd(
        "special-partial-uninit-i4.b2nd",
        "uninit",
        (100,),
        dtype="<i4",
        src=("(100,)",),
        expect=None,
        after=write_uninit,
        after_src="; a[0:30] = np.arange(30); a[90:100] = -1",
        check=lambda got: bool((got[:30] == np.arange(30)).all() and (got[90:] == -1).all()),
        notes=("chunks 1 and 2 stay UNINIT: their content is undefined, so no data hashes",),
        **kw,
    )
    nd(
        "nd-arange-2d-i8.b2nd",
        "arange",
        0,
        100,
        1,
        src=("0", "100", "1"),
        dtype="<i8",
        shape=(10, 10),
        expect=np.arange(100, dtype="<i8").reshape(10, 10),
        chunks=(4, 6),
        blocks=(2, 3),
    )
    nd(
        "nd-linspace-f8.b2nd",
        "linspace",
        0.0,
        1.0,
        src=("0.0", "1.0"),
        num=64,
        dtype="<f8",
        shape=(8, 8),
        expect=np.linspace(0.0, 1.0, 64).reshape(8, 8),
        chunks=(4, 4),
        blocks=(2, 4),
    )


def ndarrays_zero_length() -> None:
    nd("empty-shape-0-f4.b2nd", "empty", (0,), dtype="<f4", src=("(0,)",), expect=np.zeros(0, "<f4"))
    nd("zeros-shape-3x0x2-f8.b2nd", "zeros", (3, 0, 2), dtype="<f8", src=("(3, 0, 2)",), expect=np.zeros((3, 0, 2)))
    nd(
        "asarray-shape-0x4-i2.b2nd",
        "asarray",
        np.zeros((0, 4), "<i2"),
        src=("np.zeros((0, 4), '<i2')",),
        chunks=(2, 2),
        blocks=(1, 2),
    )


def ndarrays_with_meta() -> None:
    data = np.arange(60, dtype="<i4").reshape(6, 10)
    src = ("np.arange(60, dtype='<i4').reshape(6, 10)",)
    meta = {"unit": "m", "scale": [1, 2], "origin": (0.5, -0.5), "raw": b"\x00\x01\x02"}

    def set_vlmeta(a: Any) -> None:
        a.vlmeta["title"] = "a small array"
        a.vlmeta["attrs"] = {"long_name": "distance from the origin", "valid_range": [0, 59], "fill": None}

    nd(
        "nd-meta-vlmeta.b2nd",
        "asarray",
        data,
        src=src,
        expect=data,
        chunks=(4, 4),
        blocks=(2, 2),
        meta=meta,
        after=set_vlmeta,
        after_src="; a.vlmeta['title'] = 'a small array'; a.vlmeta['attrs'] = {...}",
    )
    nd(
        "nd-meta-15-user.b2nd",
        "asarray",
        data,
        src=src,
        chunks=(3, 5),
        blocks=(3, 5),
        meta={f"layer{i:02d}": i * 1000 for i in range(15)},
        notes=("16 metalayers in total: b2nd + 15 user layers (the C maximum)",),
    )

    grow = np.zeros((7, 9), "<i4")
    grow[:4, :5] = np.arange(20).reshape(4, 5)
    nd(
        "nd-resized-grow.b2nd",
        "asarray",
        np.arange(20, dtype="<i4").reshape(4, 5),
        src=("np.arange(20, dtype='<i4').reshape(4, 5)",),
        chunks=(2, 2),
        blocks=(1, 2),
        after=lambda a: a.resize((7, 9)),
        after_src="; a.resize((7, 9))",
        expect=grow,
    )
    nd(
        "nd-resized-shrink.b2nd",
        "asarray",
        np.arange(20, dtype="<i4").reshape(4, 5),
        src=("np.arange(20, dtype='<i4').reshape(4, 5)",),
        chunks=(2, 2),
        blocks=(1, 2),
        after=lambda a: a.resize((3, 3)),
        after_src="; a.resize((3, 3))",
        expect=np.arange(20, dtype="<i4").reshape(4, 5)[:3, :3],
        notes=("the 2 dropped chunks stay in the chunks section as dead bytes; cbytes still counts them",),
    )

    over = smooth_i4(100, 9)
    over_expect = over.copy()
    over_expect[30:60] = np.arange(30) * 1000

    def overwrite(a: Any) -> None:
        a[30:60] = np.arange(30) * 1000

    nd(
        "nd-chunk-overwritten.b2nd",
        "asarray",
        over,
        src=("np.cumsum(default_rng(9).integers(-3, 4, 100)).astype('<i4')",),
        chunks=(30,),
        blocks=(10,),
        after=overwrite,
        after_src="; a[30:60] = np.arange(30) * 1000",
        expect=over_expect,
        notes=("the writes replace chunks 1 and 2 in place (update_chunk)",),
    )


def sparse_frames() -> None:
    data = (np.arange(120).reshape(10, 12) * 7 - 300).astype("<i4")
    nd(
        "sparse-2d-i4.b2nd",
        "asarray",
        data,
        src=("(np.arange(120).reshape(10, 12) * 7 - 300).astype('<i4')",),
        chunks=(4, 5),
        blocks=(2, 5),
        contiguous=False,
    )
    part = np.zeros((10, 12))
    part[0:4, 5:10] = 1.25
    part[8:10, 10:12] = -3.0

    def write_part(a: Any) -> None:
        a[0:4, 5:10] = 1.25
        a[8:10, 10:12] = -3.0

    nd(
        "sparse-special-2d-f8.b2nd",
        "zeros",
        (10, 12),
        dtype="<f8",
        src=("(10, 12)",),
        chunks=(4, 5),
        blocks=(2, 5),
        contiguous=False,
        after=write_part,
        after_src="; a[0:4, 5:10] = 1.25; a[8:10, 10:12] = -3.0",
        expect=part,
        notes=("ZERO special chunks have no .chunk file",),
    )
    payload = bytes(range(256)) * 3
    sc(
        "sparse-schunk.b2frame",
        chunksize=200,
        data=payload,
        src="bytes(range(256)) * 3",
        contiguous=False,
        meta={"kind": "sparse demo"},
        after=lambda s: s.vlmeta.__setitem__("note", "sparse"),
        after_src="; s.vlmeta['note'] = 'sparse'",
        expect=payload,
    )

    def shuffle_chunks(s: Any) -> None:
        s.delete_chunk(1)
        s.insert_chunk(0, compress(chunk_bytes(100, 90)))
        s.append_data(chunk_bytes(100, 91))

    sc(
        "sparse-schunk-insert-delete.b2frame",
        chunksize=100,
        data=chunk_bytes(300, 1),
        src="chunk_bytes(300, 1)",
        contiguous=False,
        after=shuffle_chunks,
        after_src="; s.delete_chunk(1); s.insert_chunk(0, compress(chunk_bytes(100, 90))); "
        "s.append_data(chunk_bytes(100, 91))",
        expect=chunk_bytes(100, 90) + chunk_bytes(300, 1)[:100] + chunk_bytes(300, 1)[200:] + chunk_bytes(100, 91),
        notes=("chunk file ids differ from logical chunk indexes",),
    )


TOCFRAME_NOTES = {
    True: ("an in-memory contiguous frame: to_cframe() hands back the frame as it is",),
    False: (
        "to_cframe() of a non-contiguous object goes through blosc2_schunk_copy: header nthreads_c is 0 "
        "and every vlmeta is recompressed with the C defaults (blosclz, typesize 8)",
    ),
}


def in_memory_cframes() -> None:
    data = np.arange(90, dtype="<f8").reshape(9, 10) / 4
    src = "np.arange(90, dtype='<f8').reshape(9, 10) / 4"
    big = {"comment": "this value is longer than thirty-two bytes", "n": list(range(10))}
    for contiguous in (True, False):
        label = "contiguous" if contiguous else "noncontiguous"
        arr = blosc2.asarray(data, chunks=(4, 4), blocks=(2, 4), contiguous=contiguous, cparams=CP, dparams=DP)
        arr.vlmeta["small"] = 1
        arr.vlmeta["big"] = big
        call = render("blosc2.asarray", src, chunks=(4, 4), blocks=(2, 4), contiguous=contiguous)
        to_cframe_file(
            f"tocframe-nd-{label}.cframe",
            arr,
            call + "; a.vlmeta['small'] = 1; a.vlmeta['big'] = {...}; a.to_cframe()",
            data,
            TOCFRAME_NOTES[contiguous],
        )
        payload = chunk_bytes(700, 3)
        s = blosc2.SChunk(
            chunksize=256, data=payload, contiguous=contiguous, cparams={**CP, "typesize": 1}, dparams=DP, meta={"m": 1}
        )
        s.vlmeta["small"] = "x"
        s.vlmeta["big"] = big
        call = render(
            "blosc2.SChunk",
            chunksize=256,
            data=Raw("chunk_bytes(700, 3)"),
            cparams={"typesize": 1},
            meta={"m": 1},
            contiguous=contiguous,
        )
        to_cframe_file(
            f"tocframe-schunk-{label}.cframe",
            s,
            call + "; s.vlmeta['small'] = 'x'; s.vlmeta['big'] = {...}; s.to_cframe()",
            payload,
            TOCFRAME_NOTES[contiguous],
        )
    # A file-backed array is copied too (c-blosc2 only hands back its own buffer for in-memory frames).
    arr = blosc2.asarray(
        data, urlpath="_tmp_filebacked.b2nd", mode="w", chunks=(4, 4), blocks=(2, 4), cparams=CP, dparams=DP
    )
    arr.vlmeta["small"] = 1
    to_cframe_file(
        "tocframe-nd-filebacked.cframe",
        arr,
        render("blosc2.asarray", src, urlpath="...", chunks=(4, 4), blocks=(2, 4))
        + "; a.vlmeta['small'] = 1; a.to_cframe()",
        data,
        ("a file-backed frame is copied as well: header nthreads_c is 0, vlmeta recompressed",),
    )
    del arr
    gc.collect()
    os.unlink("_tmp_filebacked.b2nd")


META_VALUES = {
    "int": 1,
    "neg": -5,
    "u64max": 2**64 - 1,
    "i64min": -(2**63),
    "str": "héllo",
    "empty_str": "",
    "list": [1, "a", [2, 3.5]],
    "nested": {"x": {"y": [True, False, None]}},
    "bytes": b"\x00\xff\x10",
    "tuple": (1, 2),
    "float": 1.5,
    "true": True,
    "none": None,
}


def schunks() -> None:
    sc("schunk-empty.b2frame", chunksize=1000, notes=("no chunks: the header chunksize is -1",))
    sc(
        "schunk-meta-nodata.b2frame",
        chunksize=1000,
        meta={"kind": "demo", "version": 1},
        notes=("meta but no data: the header chunksize stays -1",),
    )
    sc(
        "schunk-meta-vlmeta-nodata.b2frame",
        chunksize=1000,
        meta={"kind": "demo", "version": 1},
        after=lambda s: s.vlmeta.__setitem__("note", "no data"),
        after_src="; s.vlmeta['note'] = 'no data'",
        expect=b"",
    )
    payload = chunk_bytes(2500, 5)
    sc(
        "schunk-bytes-ts1.b2frame",
        chunksize=1000,
        data=payload,
        src="chunk_bytes(2500, 5)",
        notes=("3 chunks; the last one holds 500 bytes",),
    )
    i8 = np.arange(700, dtype="<i8") * 3 - 1000
    sc(
        "schunk-i8-ts8.b2frame",
        chunksize=1600,
        data=i8,
        src="np.arange(700, dtype='<i8') * 3 - 1000",
        typesize=8,
        notes=("5 chunks of 200 items; the last one holds 100",),
    )
    sc(
        "schunk-lz4-bitshuffle-bs256.b2frame",
        chunksize=2048,
        data=smooth_f8(600, 11),
        src="np.cumsum(default_rng(11).integers(-50, 51, 600)) / 64",
        typesize=8,
        cparams={
            "codec": blosc2.Codec.LZ4,
            "clevel": 7,
            "blocksize": 256,
            "filters": [blosc2.Filter.BITSHUFFLE],
            "filters_meta": [0],
        },
    )
    sc(
        "schunk-many-chunks.b2frame",
        chunksize=16,
        data=np.arange(400, dtype="<i4"),
        src="np.arange(400, dtype='<i4')",
        typesize=4,
        notes=("100 chunks: the offsets index is compressed",),
    )
    sc(
        "schunk-meta-values.b2frame",
        chunksize=256,
        data=chunk_bytes(600, 7),
        src="chunk_bytes(600, 7)",
        meta=META_VALUES,
    )
    sc(
        "schunk-meta-16.b2frame",
        chunksize=256,
        data=chunk_bytes(300, 8),
        src="chunk_bytes(300, 8)",
        meta={f"m{i:02d}": "v" * i for i in range(16)},
        notes=("16 user metalayers (the C maximum)",),
    )

    vl_values = {
        "int": 42,
        "float": -0.125,
        "str": "short",
        "bytes": b"\x01\x02\x03",
        "list": [1, 2, 3],
        "tuple": (1, "a"),
        "dict": {"a": 1},
        "none": None,
        "bool": False,
        "long_str": "a string value that is clearly longer than thirty-two bytes",
        "long_bytes": bytes(range(100)),
        "long_list": list(range(40)),
        "long_dict": {"name": "temperature", "units": "K", "range": [200.5, 330.25], "tags": ["a", "b"]},
        "long_float_list": [i / 8 for i in range(20)],
    }

    def set_vl(values: dict) -> Callable[[Any], None]:
        def go(s: Any) -> None:
            for k, v in values.items():
                s.vlmeta[k] = v

        return go

    data = chunk_bytes(500, 9)
    sc(
        "schunk-vlmeta-values.b2frame",
        chunksize=256,
        data=data,
        src="chunk_bytes(500, 9)",
        after=set_vl(vl_values),
        after_src="; s.vlmeta[k] = v for 14 values (small: memcpy chunks, long_*: zstd chunks)",
        expect=data,
    )
    sc(
        "schunk-vlmeta-16.b2frame",
        chunksize=256,
        data=data,
        src="chunk_bytes(500, 9)",
        after=set_vl({f"v{i:02d}": i * 11 for i in range(16)}),
        after_src="; s.vlmeta[f'v{i:02d}'] = 11 * i, i < 16",
        expect=data,
        notes=("16 vlmetalayers: the most a frame can hold (the 17th raises RuntimeError)",),
    )

    def delete_vl(s: Any) -> None:
        set_vl({"first": 1, "second": "to be deleted, and longer than 32 bytes", "third": [3]})(s)
        del s.vlmeta["second"]

    sc(
        "schunk-vlmeta-deleted.b2frame",
        chunksize=256,
        data=data,
        src="chunk_bytes(500, 9)",
        after=delete_vl,
        after_src="; vlmeta first, second, third; del s.vlmeta['second']",
        expect=data,
    )

    def update_vl(s: Any) -> None:
        set_vl({"grows": 1, "shrinks": "x" * 60, "same": "abc"})(s)
        s.vlmeta["grows"] = "now a value longer than thirty-two bytes"
        s.vlmeta["shrinks"] = 2
        s.vlmeta["same"] = "xyz"

    sc(
        "schunk-vlmeta-updated.b2frame",
        chunksize=256,
        data=data,
        src="chunk_bytes(500, 9)",
        after=update_vl,
        after_src="; vlmeta grows=1, shrinks='x'*60, same='abc'; then grows='now ...', shrinks=2, same='xyz'",
        expect=data,
    )

    base = chunk_bytes(500, 12)

    def insert_delete(s: Any) -> None:
        s.delete_chunk(1)
        s.insert_chunk(0, compress(chunk_bytes(100, 50)))
        s.insert_chunk(2, compress(chunk_bytes(100, 51), clevel=0))

    expect = chunk_bytes(100, 50) + base[:100] + chunk_bytes(100, 51) + base[200:]
    sc(
        "schunk-insert-delete.b2frame",
        chunksize=100,
        data=base,
        src="chunk_bytes(500, 12)",
        after=insert_delete,
        after_src="; s.delete_chunk(1); s.insert_chunk(0, compress(chunk_bytes(100, 50))); "
        "s.insert_chunk(2, compress(chunk_bytes(100, 51), clevel=0))",
        expect=expect,
        notes=(
            "inserted chunks are appended at the end: the offsets are not monotonic",
            "the deleted chunk stays in the chunks section as dead bytes; cbytes still counts them",
        ),
    )

    def update(s: Any) -> None:
        s.update_chunk(1, compress(bytes(range(100)), clevel=0))
        s.update_chunk(3, compress(b"\x07" * 100))

    expect = base[:100] + bytes(range(100)) + base[200:300] + b"\x07" * 100 + base[400:]
    sc(
        "schunk-update-chunk.b2frame",
        chunksize=100,
        data=base,
        src="chunk_bytes(500, 12)",
        after=update,
        after_src="; s.update_chunk(1, compress(bytes(range(100)), clevel=0)); "
        "s.update_chunk(3, compress(b'\\x07' * 100))",
        expect=expect,
    )

    def reorder(s: Any) -> None:
        s.reorder_offsets([4, 2, 0, 1, 3])

    expect = b"".join(base[i * 100 : (i + 1) * 100] for i in [4, 2, 0, 1, 3])
    sc(
        "schunk-reorder.b2frame",
        chunksize=100,
        data=base,
        src="chunk_bytes(500, 12)",
        after=reorder,
        after_src="; s.reorder_offsets([4, 2, 0, 1, 3])",
        expect=expect,
    )
    sc(
        "schunk-fill-special-zero.b2frame",
        chunksize=800,
        typesize=8,
        after=lambda s: s.fill_special(500, blosc2.SpecialValue.ZERO),
        after_src="; s.fill_special(500, SpecialValue.ZERO)",
        expect=bytes(4000),
    )
    sc(
        "schunk-fill-special-value.b2frame",
        chunksize=800,
        typesize=8,
        after=lambda s: s.fill_special(500, blosc2.SpecialValue.VALUE, 3.25),
        after_src="; s.fill_special(500, SpecialValue.VALUE, 3.25)",
        expect=np.full(500, 3.25).tobytes(),
    )


FAMILIES = [
    ndarrays_by_ndim,
    ndarrays_by_dtype,
    ndarrays_by_codec,
    ndarrays_by_filter,
    ndarrays_by_splitmode,
    ndarrays_by_chunk_count,
    ndarrays_special,
    ndarrays_zero_length,
    ndarrays_with_meta,
    sparse_frames,
    in_memory_cframes,
    schunks,
]


CRASH_PROBES = [
    # (name, call, code run with the output path as sys.argv[1])
    (
        "schunk-meta-17.b2frame",
        "blosc2.SChunk(chunksize=100, meta={17 metalayers})",
        "blosc2.SChunk(chunksize=100, urlpath=sys.argv[1], mode='w', meta={f'm{i:02d}': i for i in range(17)})",
    ),
    (
        "nd-meta-16-user.b2nd",
        "blosc2.asarray(np.arange(60, dtype='<i4').reshape(6, 10), meta={16 metalayers})",
        "blosc2.asarray(np.arange(60, dtype='<i4').reshape(6, 10), urlpath=sys.argv[1], mode='w',"
        " meta={f'layer{i:02d}': i for i in range(16)})",
    ),
]


def probe_crashes() -> None:
    """Combinations that crash the interpreter: tried in a subprocess, recorded as refused."""
    for name, call, code in CRASH_PROBES:
        with tempfile.TemporaryDirectory() as tmp:
            proc = subprocess.run(
                [sys.executable, "-c", f"import sys, blosc2, numpy as np\n{code}\n", os.path.join(tmp, name)],
                capture_output=True,
                text=True,
            )
        if proc.returncode < 0:
            refuse(name, call, f"the Python process died with signal {-proc.returncode}")
        elif proc.returncode > 0:
            refuse(name, call, proc.stderr.strip().splitlines()[-1])
        else:
            raise AssertionError(f"{name}: expected python-blosc2 to refuse or crash, but it worked")


# ----------------------------------------------------------------------------
# Describing and verifying
# ----------------------------------------------------------------------------


def sha256(b: bytes) -> str:
    return hashlib.sha256(b).hexdigest()


def jsonable(v: Any) -> Any:
    """A decoded msgpack value as JSON: bytes -> {"__bytes__": hex}, tuple -> {"__tuple__": [...]}."""
    if isinstance(v, bytes):
        return {"__bytes__": v.hex()}
    if isinstance(v, tuple):
        return {"__tuple__": [jsonable(x) for x in v]}
    if isinstance(v, list):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        assert all(isinstance(k, str) for k in v), v
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, float) and not math.isfinite(v):
        return {"__float__": repr(v)}
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    raise TypeError(f"cannot put {type(v).__name__} into JSON")


def finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


def describe_cparams(schunk: Any) -> dict:
    cp = schunk.cparams
    codec = cp.codec
    return {
        "codec": codec.name if isinstance(codec, enum.Enum) else None,
        "codec_value": int(codec.value if isinstance(codec, enum.Enum) else codec),
        "codec_meta": cp.codec_meta,
        "clevel": cp.clevel,
        "filters": [int(f.value if isinstance(f, enum.Enum) else f) for f in cp.filters],
        "filters_meta": list(cp.filters_meta),
        "splitmode": cp.splitmode.name,
        "splitmode_value": int(cp.splitmode.value),
        "use_dict": bool(cp.use_dict),
        "typesize": cp.typesize,
        "blocksize": cp.blocksize,
        "nthreads": cp.nthreads,
    }


def describe_chunks(schunk: Any, undefined_ok: bool) -> list[dict]:
    out = []
    for info in schunk.iterchunks_info():
        i = info.nchunk
        chunk = schunk.get_chunk(i)
        data = schunk.decompress_chunk(i)
        entry = {
            "index": i,
            "special": info.special.name,
            "len": len(chunk),
            "head_hex": chunk[:32].hex(),
            "sha256": sha256(chunk),
            "nbytes": len(data),
            "data_sha256": None if info.special == blosc2.SpecialValue.UNINIT else sha256(data),
        }
        if info.repeated_value is not None:
            entry["repeated_value_hex"] = bytes(info.repeated_value).hex()
        assert undefined_ok or info.special != blosc2.SpecialValue.UNINIT
        out.append(entry)
    return out


def same_array(got: np.ndarray, want: np.ndarray, lossy: bool) -> bool:
    want = np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if np.ascontiguousarray(got).tobytes() == np.ascontiguousarray(want).tobytes():
        return True
    if got.dtype.kind in "fc":
        if lossy:
            return bool(np.allclose(got, want, rtol=1e-3, atol=0))
        return bool(np.array_equal(got, want, equal_nan=True))
    return False


def describe(fx: Fixture) -> dict:
    path = Path(fx.name)
    sparse = path.is_dir()
    obj = blosc2.open(fx.name, mode="r")
    is_nd = isinstance(obj, blosc2.NDArray)
    schunk = obj.schunk if is_nd else obj
    index = path / "chunks.b2frame" if sparse else path
    index_bytes = index.read_bytes()
    has_uninit = any(i.special == blosc2.SpecialValue.UNINIT for i in schunk.iterchunks_info())

    entry: dict[str, Any] = {
        "kind": "sframe" if sparse else "cframe",
        "python_class": type(obj).__name__,
        "family": fx.family,
        "call": fx.call,
        "file_size": len(index_bytes),
        "sha256": sha256(index_bytes),
    }
    if sparse:
        entry["chunk_files"] = {
            p.name: {"size": p.stat().st_size, "sha256": sha256(p.read_bytes())}
            for p in sorted(path.iterdir())
            if p.name != "chunks.b2frame"
        }
    entry["schunk"] = {
        "nbytes": schunk.nbytes,
        "cbytes": schunk.cbytes,
        "typesize": schunk.typesize,
        "blocksize": schunk.blocksize,
        "chunksize": schunk.chunksize,
        "nchunks": schunk.nchunks,
        "cratio": finite(schunk.cratio) if schunk.nbytes else None,
        "contiguous": schunk.contiguous,
        "urlpath": schunk.urlpath,
    }
    entry["cparams"] = describe_cparams(schunk)
    entry["dparams"] = {"nthreads": schunk.dparams.nthreads}

    entry["meta"] = []
    for name in schunk.meta:  # insertion order (Meta.keys())
        raw = blosc2.blosc2_ext.meta__getitem__(schunk, name)  # blosc2_meta_get: the stored bytes
        item: dict[str, Any] = {"name": name, "raw_hex": raw.hex()}
        if name != "b2nd":
            item["decoded"] = jsonable(schunk.meta[name])
        entry["meta"].append(item)
    entry["vlmeta"] = [
        {
            "name": name,
            "decoded": jsonable(schunk.vlmeta[name]),
            "raw_hex": schunk.vlmeta.get_vlmeta(name).hex(),  # blosc2_vlmeta_get: decompressed bytes
        }
        for name in schunk.vlmeta
    ]

    if is_nd:
        got = obj[()]
        got = np.asarray(got)
        entry["ndarray"] = {
            "shape": list(obj.shape),
            "chunks": list(obj.chunks),
            "blocks": list(obj.blocks),
            "ndim": obj.ndim,
            "dtype_str": obj.dtype.str,
            "dtype_repr": str(obj.dtype),
            "itemsize": obj.dtype.itemsize,
            "size": int(obj.size),
            "data_sha256": None if has_uninit else sha256(np.ascontiguousarray(got).tobytes()),
        }
        if fx.expect is not None and not same_array(got, fx.expect, fx.lossy):
            raise AssertionError(f"{fx.name}: data read back differs from what was written")
    else:
        got = b"".join(bytes(schunk.decompress_chunk(i)) for i in range(schunk.nchunks))
        entry["data_sha256"] = None if has_uninit else sha256(got)
        if fx.expect is not None and got != fx.expect:
            raise AssertionError(f"{fx.name}: data read back differs from what was written")
    if fx.check is not None and not fx.check(got):
        raise AssertionError(f"{fx.name}: data check failed")
    entry["verified"] = "whole data" if fx.expect is not None else "partial check" if fx.check else "not compared"

    entry["chunks"] = describe_chunks(schunk, undefined_ok=has_uninit)
    if fx.notes:
        entry["notes"] = fx.notes
    return entry


# ----------------------------------------------------------------------------
# Output
# ----------------------------------------------------------------------------


def dumps(v: Any, level: int = 0) -> str:
    """JSON with 2-space indentation; short containers and containers of scalars stay on one line."""
    flat = json.dumps(v, ensure_ascii=False)
    nested = isinstance(v, (dict, list)) and any(
        isinstance(x, (dict, list)) and x for x in (v.values() if isinstance(v, dict) else v)
    )
    if not nested or len(flat) <= 300:
        return flat
    pad, end = "  " * (level + 1), "  " * level
    if isinstance(v, dict):
        items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {dumps(x, level + 1)}" for k, x in v.items()]
        return "{\n" + ",\n".join(items) + "\n" + end + "}"
    return "[\n" + ",\n".join(pad + dumps(x, level + 1) for x in v) + "\n" + end + "]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent,
        help="write OUT/fixtures/ and OUT/fixtures.json (default: tests/data)",
    )
    args = parser.parse_args()
    out = args.out.resolve()
    fixtures_dir = out / "fixtures"

    blosc2.set_nthreads(1)
    if fixtures_dir.exists():
        shutil.rmtree(fixtures_dir)
    fixtures_dir.mkdir(parents=True)
    os.chdir(fixtures_dir)  # relative urlpaths keep the output independent of the location

    global _family
    for family in FAMILIES:
        _family = family.__name__
        family()
        gc.collect()  # close every writer before reading back
    _family = "crash_probes"
    probe_crashes()

    leftovers = sorted(p.name for p in fixtures_dir.iterdir() if p.name not in {f.name for f in FIXTURES})
    if leftovers:
        raise AssertionError(f"unexpected files in fixtures/: {leftovers}")

    manifest = {
        "format_version": FORMAT_VERSION,
        "generator": {
            "script": "tests/data/generate.py",
            "python": platform.python_version(),
            "python_implementation": platform.python_implementation(),
            "blosc2": blosc2.__version__,
            "c_blosc2": blosc2.blosclib_version,
            "numpy": np.__version__,
            "msgpack": ".".join(map(str, msgpack.version)),
            "nthreads": blosc2.nthreads,
        },
        "fixtures": {fx.name: describe(fx) for fx in FIXTURES},
        "refused": REFUSED,
    }
    (out / "fixtures.json").write_text(dumps(manifest) + "\n", encoding="utf-8")

    total = sum(p.stat().st_size for p in fixtures_dir.rglob("*") if p.is_file())
    print(
        f"wrote {len(FIXTURES)} fixtures ({total} bytes) to {fixtures_dir}; "
        f"{len(REFUSED)} refused combinations recorded",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
