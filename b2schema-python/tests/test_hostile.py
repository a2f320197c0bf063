"""Crafted and damaged files raise b2schema exceptions with the library's message, never crash
the interpreter: truncations at every offset and byte mutations of held fixtures, files that are
not frames, budgets."""

import numpy as np
import pytest

import b2schema
from conftest import FIXTURES

SOURCES = ["nd-meta-vlmeta.b2nd", "nd-3d-f8-zstd.b2nd", "dict-zstd.b2nd", "filter-shuffle-bytedelta.b2nd",
           "schunk-vlmeta-values.b2frame", "dtype-struct.b2nd"]


def read_all(p):
    a = b2schema.open(p)
    if isinstance(a, b2schema.NDArray):
        a[...]
        a.vlmeta
        a.meta
        a.info
    else:
        a[:]
        [a.decompress_chunk(i) for i in range(a.nchunks)]
        a.vlmeta


@pytest.mark.parametrize("name", SOURCES)
def test_truncations_and_mutations_raise_b2schema_errors(tmp_path, name):
    data = (FIXTURES / name).read_bytes()
    rng = np.random.default_rng(len(data))
    p = tmp_path / name
    variants = [data[:n] for n in range(0, len(data), max(1, len(data) // 97))]
    for _ in range(300):
        b = bytearray(data)
        for _ in range(int(rng.integers(1, 4))):
            b[int(rng.integers(0, len(b)))] = int(rng.integers(0, 256))
        variants.append(bytes(b))
    raised = 0
    for v in variants:
        p.write_bytes(v)
        try:
            read_all(p)
        except b2schema.Error as e:
            assert str(e), "an error with no message"
            raised += 1
    assert raised >= len(variants) // 4, raised


def test_kinds_of_errors(tmp_path):
    text = tmp_path / "x.txt"
    text.write_text("hello, not a frame")
    with pytest.raises(b2schema.NotAFrameError, match="x.txt"):
        b2schema.open(text)
    with pytest.raises(b2schema.NotFoundError):
        b2schema.open(tmp_path / "missing.b2nd")
    with pytest.raises(FileNotFoundError):
        b2schema.open(tmp_path / "missing.b2nd")
    data = (FIXTURES / "nd-3d-f8-zstd.b2nd").read_bytes()
    (tmp_path / "cut.b2nd").write_bytes(data[: len(data) // 2])
    with pytest.raises(b2schema.Error, match="cut.b2nd"):
        read_all(tmp_path / "cut.b2nd")
    # A budget: a read larger than max_bytes is refused before anything is allocated.
    big = b2schema.asarray(np.zeros((1000, 1000)), tmp_path / "big.b2nd")
    small = b2schema.open(tmp_path / "big.b2nd", max_bytes=1 << 20)
    with pytest.raises(b2schema.BudgetExceededError):
        small[...]
    assert small[:10].shape == (10, 1000)
    assert big[...].shape == (1000, 1000)
