#!/usr/bin/env python3
"""Generate the chunk decoder's test corpus and its python-blosc2 reference hashes.

Usage (python-blosc2 4.14.1, which bundles c-blosc2 3.3.5):

    "$(scripts/pyenv.sh)" tests/data/chunks/ref/make_refs.py [--no-generate]

It writes, relative to the crate root:

* tests/data/chunks/chunks/*.chunk   standalone chunks (blosc2.compress2, get_chunk)
* tests/data/chunks/frames/*         small cframes (SChunk, NDArray, BatchArray)
* tests/data/chunks/ref/refs.json    sha256 of what c-blosc2 decompresses, per chunk

and reads the real files of older writers in tests/data/compat/ (see its MANIFEST.md).

Reference values always come from c-blosc2 through python-blosc2:
``blosc2.decompress2(chunk)`` for standalone chunks and
``schunk_from_cframe(frame).decompress_chunk(i)`` for every chunk of a frame
(the frame-level path, which also synthesises special chunks from the
offsets index).  ``get_chunk(i)`` is hashed too so the Rust frame walker can
check that it finds the same chunk bytes.

c-blosc2 does not write every output byte of every chunk: UNINIT special
chunks leave the whole output untouched, and Blosc1 (version 2) bit-shuffled
blocks leave their ``blocksize % typesize`` trailing bytes untouched.  Each
decompression is therefore run into buffers pre-filled with 0xAA and 0x55;
bytes that keep the fill are listed in ``"unspecified"`` ([start, end)
ranges) and zeroed before hashing.  UNINIT chunks are also flagged
``"uninit": true``.

Everything generated is deterministic (fixed seeds, nthreads=1).
"""

import argparse
import hashlib
import json
import os
import shutil
import sys

import numpy as np
import blosc2

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.dirname(HERE)  # tests/data/chunks
COMPAT = os.path.join(os.path.dirname(DATA), "compat")  # tests/data/compat
CHUNKS = os.path.join(DATA, "chunks")
FRAMES = os.path.join(DATA, "frames")

C = blosc2.Codec
F = blosc2.Filter
S = blosc2.SplitMode


def sha(b):
    return hashlib.sha256(bytes(b)).hexdigest()


def c_decompress(fill, n):
    """Runs a c-blosc2 decompression twice, into destinations pre-filled with
    0xAA and 0x55.  Bytes that keep the fill both times were never written by
    c-blosc2 (UNINIT chunks, Blosc1 bitshuffle leftovers ...): their content
    is unspecified, so they are reported as ranges and zeroed in the output
    that gets hashed."""
    a = bytearray(b"\xaa") * n
    b = bytearray(b"\x55") * n
    fill(a)
    fill(b)
    va = np.frombuffer(bytes(a), dtype=np.uint8)
    vb = np.frombuffer(bytes(b), dtype=np.uint8)
    untouched = (va == 0xAA) & (vb == 0x55)
    out = va.copy()
    out[untouched] = 0
    ranges = []
    idx = np.flatnonzero(untouched)
    if idx.size:
        breaks = np.flatnonzero(np.diff(idx) != 1)
        starts = np.concatenate([[idx[0]], idx[breaks + 1]])
        ends = np.concatenate([idx[breaks], [idx[-1]]]) + 1
        ranges = [[int(x), int(y)] for x, y in zip(starts, ends)]
    return out.tobytes(), ranges


def special_of(chunk):
    """Special kind in a chunk header (None for regular chunks)."""
    if len(chunk) < 32 or (chunk[2] & 0x05) != 0x05:
        return None
    return {0: None, 1: "zero", 2: "nan", 3: "value", 4: "uninit"}.get((chunk[31] >> 4) & 7, "bad")


# --------------------------------------------------------------------------- data


def items(ts, n, kind="mixed", seed=0):
    """n items of ts bytes each, deterministic and mostly compressible."""
    rng = np.random.default_rng(1000 + seed)
    if kind == "noise":
        return rng.integers(0, 256, size=n * ts, dtype=np.uint8)
    if kind == "float32":
        x = (np.sin(np.arange(n) / 37.0) * 1000.0).astype("<f4")
        return np.frombuffer(x.tobytes(), dtype=np.uint8).copy()
    if kind == "float64":
        x = (np.cos(np.arange(n) / 53.0) * 1e6 + np.arange(n)).astype("<f8")
        return np.frombuffer(x.tobytes(), dtype=np.uint8).copy()
    i = np.arange(n, dtype="<u8")
    base = i // 5 + (i * 7919) % 13
    raw = np.frombuffer(base.astype("<u8").tobytes(), dtype=np.uint8).reshape(n, 8)
    out = np.empty((n, ts), dtype=np.uint8)
    k = min(ts, 8)
    out[:, :k] = raw[:, :k]
    if ts > 8:
        pad = (np.arange(n)[:, None] * 13 + np.arange(ts - 8)[None, :]) % 5
        out[:, 8:] = pad.astype(np.uint8)
    flat = out.reshape(-1).copy()
    if kind == "mixed" and flat.size > 6000:
        # a zero region and a constant non-zero region, to get run streams
        flat[2048:4096] = 0
        flat[4096:5120] = 0x5A
    return flat


def cparams(codec, clevel=5, ts=4, filters=(F.SHUFFLE,), metas=None, split=S.AUTO_SPLIT,
            blocksize=4096, use_dict=False):
    filters = list(filters)
    metas = list(metas) if metas is not None else [0] * len(filters)
    return blosc2.CParams(codec=codec, clevel=clevel, typesize=ts, blocksize=blocksize,
                          splitmode=split, filters=filters, filters_meta=metas,
                          use_dict=use_dict, nthreads=1)


# --------------------------------------------------------------------------- generation


def generate():
    for d in (CHUNKS, FRAMES):
        if os.path.isdir(d):
            shutil.rmtree(d)
        os.makedirs(d)
    made = {}

    def put(name, src, cp, desc):
        chunk = blosc2.compress2(src, cparams=cp)
        path = os.path.join(CHUNKS, name + ".chunk")
        with open(path, "wb") as f:
            f.write(chunk)
        try:
            ok = bytes(blosc2.decompress2(chunk)) == bytes(src)
        except Exception as e:  # c-blosc2 cannot read back what it wrote
            print(f"{name}: c-blosc2 decompress2 failed: {e}", file=sys.stderr)
            ok = False
        made[name] = dict(desc=desc, roundtrip=ok)

    codecs = [("blosclz", C.BLOSCLZ), ("lz4", C.LZ4), ("lz4hc", C.LZ4HC), ("zlib", C.ZLIB),
              ("zstd", C.ZSTD)]
    filter_sets = [
        ("nofilter", [F.NOFILTER], [0], "mixed"),
        ("shuffle", [F.SHUFFLE], [0], "mixed"),
        ("bitshuffle", [F.BITSHUFFLE], [0], "mixed"),
        ("delta-shuffle", [F.DELTA, F.SHUFFLE], [0, 0], "mixed"),
        ("delta", [F.DELTA], [0], "mixed"),
        ("delta-bitshuffle", [F.DELTA, F.BITSHUFFLE], [0, 0], "mixed"),
        ("truncprec-shuffle", [F.TRUNC_PREC, F.SHUFFLE], [13, 0], "float32"),
        ("shuffle-bytedelta", [F.SHUFFLE, F.BYTEDELTA], [0, 4], "float32"),
        ("inttrunc-shuffle", [F.INT_TRUNC, F.SHUFFLE], [20, 0], "mixed"),
    ]
    # 1. codec x filter pipeline, typesize 4
    for cname, codec in codecs:
        for fname, flt, metas, kind in filter_sets:
            src = items(4, 3001, kind)
            put(f"{cname}-{fname}-ts4", src, cparams(codec, 5, 4, flt, metas, blocksize=2048),
                f"{cname} clevel 5 typesize 4 filters {fname}")
    # 2. typesize x splitmode x codec (shuffle, clevel 9)
    for ts in (1, 2, 4, 8, 16, 300):
        n = max(7000 // ts, 20) + 3
        for sname, split in (("always", S.ALWAYS_SPLIT), ("never", S.NEVER_SPLIT),
                             ("auto", S.AUTO_SPLIT)):
            for cname, codec in (("blosclz", C.BLOSCLZ), ("lz4", C.LZ4), ("zstd", C.ZSTD)):
                put(f"{cname}-ts{ts}-{sname}", items(ts, n, "mixed", seed=ts),
                    cparams(codec, 9, ts, [F.SHUFFLE], [0], split, blocksize=1500 if ts == 300 else 1600),
                    f"{cname} clevel 9 typesize {ts} shuffle split {sname}")
    # bitshuffle on odd sizes and large typesizes
    for ts in (2, 8, 16):
        put(f"zstd-bitshuffle-ts{ts}", items(ts, 3001, "mixed", seed=ts),
            cparams(C.ZSTD, 9, ts, [F.BITSHUFFLE], [0], blocksize=2000),
            f"zstd bitshuffle typesize {ts}")
    put("lz4-bitshuffle-float64", items(8, 1501, "float64"),
        cparams(C.LZ4, 9, 8, [F.BITSHUFFLE], [0]), "lz4 bitshuffle float64")
    put("zlib-delta-bitshuffle-ts8", items(8, 1501, "mixed"),
        cparams(C.ZLIB, 9, 8, [F.DELTA, F.BITSHUFFLE], [0, 0]), "zlib delta+bitshuffle ts8")
    put("zstd-delta-shuffle-ts16", items(16, 801, "mixed"),
        cparams(C.ZSTD, 9, 16, [F.DELTA, F.SHUFFLE], [0, 0]), "zstd delta+shuffle ts16 (8-byte delta)")
    put("blosclz-delta-ts3", items(3, 3001, "mixed"),
        cparams(C.BLOSCLZ, 9, 3, [F.DELTA], [0], blocksize=3000), "blosclz delta ts3 (byte delta)")
    # c-blosc2 3.3.5 bug: an explicit blocksize that is not a multiple of the
    # typesize is stored as requested while the blocks are cut at the rounded
    # size, so c-blosc2 cannot read these chunks back.  The decoder must fail too.
    put("unreadable-blosclz-ts8-bs1500", items(8, 878, "mixed", seed=8),
        cparams(C.BLOSCLZ, 9, 8, [F.SHUFFLE], [0], S.NEVER_SPLIT, blocksize=1500),
        "c-blosc2 bug: header blocksize 1500, blocks of 1496")
    put("unreadable-zstd-ts16-bs1500", items(16, 440, "mixed", seed=16),
        cparams(C.ZSTD, 9, 16, [F.SHUFFLE], [0], S.ALWAYS_SPLIT, blocksize=1500),
        "c-blosc2 bug: header blocksize 1500, blocks of 1488")
    put("lz4-shufflemeta2-ts8", items(8, 1501, "mixed"),
        cparams(C.LZ4, 9, 8, [F.SHUFFLE], [2]), "lz4 shuffle with filters_meta 2 (group size)")
    put("zstd-bytedelta-ts8", items(8, 1501, "float64"),
        cparams(C.ZSTD, 5, 8, [F.SHUFFLE, F.BYTEDELTA], [0, 8]), "zstd shuffle+bytedelta ts8")
    # 3. clevel 0 (memcpy) and incompressible data
    put("blosclz-clevel0-ts4", items(4, 3001), cparams(C.BLOSCLZ, 0, 4), "clevel 0 memcpy")
    put("zstd-clevel0-ts8", items(8, 1001), cparams(C.ZSTD, 0, 8), "clevel 0 memcpy zstd")
    put("lz4-noise-ts4", items(4, 1001, "noise"), cparams(C.LZ4, 9, 4), "incompressible -> memcpy")
    half = np.concatenate([items(4, 2000, "mixed"), items(4, 1001, "noise", seed=5)])
    put("blosclz-halfnoise-ts4", half, cparams(C.BLOSCLZ, 9, 4, blocksize=2048),
        "half compressible: raw streams next to coded ones")
    put("zstd-small-ts4", items(4, 7), cparams(C.ZSTD, 9, 4), "28 bytes: below min buffer size")
    put("blosclz-empty", np.zeros(0, dtype=np.uint8), cparams(C.BLOSCLZ, 5, 1), "nbytes 0")
    put("zstd-allzero-ts4", np.zeros(40000, dtype=np.uint8), cparams(C.ZSTD, 5, 4),
        "all zeros -> special zero chunk")
    put("lz4-allconst-ts1", np.full(40000, 0x33, dtype=np.uint8), cparams(C.LZ4, 5, 1),
        "one byte repeated -> run streams")
    # 4. dictionaries
    big = items(4, 12000, "mixed", seed=9)
    for cname, codec in (("zstd", C.ZSTD), ("lz4", C.LZ4), ("lz4hc", C.LZ4HC)):
        put(f"{cname}-dict-ts4", big, cparams(codec, 5, 4, [F.SHUFFLE], [0], blocksize=8192,
                                             use_dict=True), f"{cname} use_dict")
        with open(os.path.join(CHUNKS, f"{cname}-dict-ts4.chunk"), "rb") as f:
            hdr = f.read(32)
        made[f"{cname}-dict-ts4"]["dict_flag"] = bool(hdr[31] & 1)

    # 5. frames
    def save_schunk_frame(name, obj):
        path = os.path.join(FRAMES, name)
        with open(path, "wb") as f:
            f.write(obj.to_cframe())

    s = blosc2.SChunk(chunksize=4000, cparams=cparams(C.ZSTD, 5, 4, blocksize=0))
    s.append_data(items(4, 1000))
    s.append_data(np.zeros(4000, dtype=np.uint8))
    s.append_data(items(4, 1000, "float32"))
    save_schunk_frame("schunk-zero-middle.b2frame", s)
    for sv, val, nm in ((blosc2.SpecialValue.ZERO, None, "zero"),
                        (blosc2.SpecialValue.NAN, None, "nan"),
                        (blosc2.SpecialValue.UNINIT, None, "uninit"),
                        (blosc2.SpecialValue.VALUE, 7, "value")):
        s = blosc2.SChunk(chunksize=4000, cparams=cparams(C.BLOSCLZ, 5, 4, blocksize=0))
        s.fill_special(2500, sv, val)
        save_schunk_frame(f"schunk-special-{nm}.b2frame", s)
        ch = s.get_chunk(0)
        with open(os.path.join(CHUNKS, f"special-{nm}.chunk"), "wb") as f:
            f.write(ch)
        made[f"special-{nm}"] = dict(desc=f"special {nm} chunk from SChunk.fill_special",
                                     roundtrip=True)
    for nm, arr in (("full-f8", blosc2.full((1000,), 3.5, chunks=(300,), blocks=(100,))),
                    ("full-nan-f4", blosc2.full((1000,), np.nan, chunks=(300,), blocks=(100,),
                                                dtype=np.float32)),
                    ("zeros-i2", blosc2.zeros((1000,), chunks=(300,), dtype=np.int16)),
                    ("uninit-i2", blosc2.uninit((1000,), chunks=(300,), dtype=np.int16)),
                    ("arange-2d-zstd", blosc2.asarray(np.arange(3000, dtype=np.float64).reshape(60, 50),
                                                      chunks=(25, 20), blocks=(10, 10))),
                    ("linspace-blosclz-bitshuffle",
                     blosc2.asarray(np.linspace(0, 1, 5000, dtype=np.float32), chunks=(1300,),
                                    blocks=(400,), cparams=cparams(C.BLOSCLZ, 9, 4, [F.BITSHUFFLE],
                                                                   [0], blocksize=0)))):
        save_schunk_frame(nm + ".b2nd", arr.schunk)
    # VL-block chunks via BatchArray
    for cname, codec, flt in (("lz4", C.LZ4, [F.SHUFFLE]), ("zstd", C.ZSTD, [F.NOFILTER]),
                              ("blosclz", C.BLOSCLZ, [F.SHUFFLE]), ("zlib", C.ZLIB, [F.BITSHUFFLE])):
        path = os.path.join(FRAMES, f"batch-{cname}.b2frame")
        if os.path.exists(path):
            os.remove(path)
        ba = blosc2.BatchArray(items_per_block=3, urlpath=path, mode="w", contiguous=True,
                               cparams=cparams(codec, 5, 1, flt, [0], blocksize=0))
        for b in range(3):
            ba.append([{"i": i, "s": "item-%d-" % i * (i % 5 + 1), "v": list(range(i % 9))}
                       for i in range(b * 10, b * 10 + 7 + b)])
        del ba
        fr = open(path, "rb").read()
        sch = blosc2.schunk_from_cframe(fr, copy=True)
        ch = sch.get_chunk(0)
        with open(os.path.join(CHUNKS, f"vlblocks-{cname}.chunk"), "wb") as f:
            f.write(ch)
        made[f"vlblocks-{cname}"] = dict(desc=f"VL-block chunk from BatchArray ({cname})",
                                        roundtrip=True)
    return made


# --------------------------------------------------------------------------- references


def chunk_ref(path, rel):
    chunk = open(path, "rb").read()
    kind = special_of(chunk)
    try:
        n = len(blosc2.decompress2(chunk))
        if n == 0:  # python refuses an empty dst
            out, unspec = b"", []
        else:
            out, unspec = c_decompress(lambda d: blosc2.decompress2(chunk, dst=d), n)
    except Exception as e:
        return dict(file=rel, error=str(e), chunk_sha256=sha(chunk))
    r = dict(file=rel, nbytes=len(out), sha256=sha(out), chunk_sha256=sha(chunk))
    if unspec:
        r["unspecified"] = unspec
    if kind:
        r["special"] = kind
    if kind == "uninit":
        r["uninit"] = True
    return r


def frame_ref(path, rel):
    frame = open(path, "rb").read()
    sch = blosc2.schunk_from_cframe(frame, copy=True)
    chunks = []
    for i in range(sch.nchunks):
        raw = sch.get_chunk(i)
        n = len(sch.decompress_chunk(i))
        out, unspec = c_decompress(lambda d: sch.decompress_chunk(i, dst=d), n)
        c = dict(nbytes=len(out), sha256=sha(out), chunk_sha256=sha(raw), chunk_len=len(raw))
        if unspec:
            c["unspecified"] = unspec
        kind = special_of(raw)
        if kind:
            c["special"] = kind
        if kind == "uninit":
            c["uninit"] = True
        chunks.append(c)
    return dict(file=rel, nchunks=sch.nchunks, chunks=chunks)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--no-generate", action="store_true")
    args = ap.parse_args()

    made = {} if args.no_generate else generate()
    refs = dict(generator=f"python-blosc2 {blosc2.__version__} / c-blosc2 {blosc2.blosclib_version}",
                chunks=[], frames=[], generated=made)
    for root, _, files in sorted(os.walk(COMPAT)):
        for fn in sorted(files):
            p = os.path.join(root, fn)
            rel = "compat:" + os.path.relpath(p, COMPAT)
            if fn.endswith((".b2nd", ".b2frame")):
                refs["frames"].append(frame_ref(p, rel))
            elif fn.endswith(".cdata") or fn == "rainfall-grid-150x150.bin":
                refs["chunks"].append(chunk_ref(p, rel))
    for fn in sorted(os.listdir(CHUNKS)):
        refs["chunks"].append(chunk_ref(os.path.join(CHUNKS, fn), "data:chunks/" + fn))
    for fn in sorted(os.listdir(FRAMES)):
        refs["frames"].append(frame_ref(os.path.join(FRAMES, fn), "data:frames/" + fn))
    lossy = ("truncprec", "inttrunc", "unreadable")
    bad = [k for k, v in made.items() if not v["roundtrip"] and not any(x in k for x in lossy)]
    if bad:
        print("c-blosc2 does not roundtrip:", bad, file=sys.stderr)
    with open(os.path.join(HERE, "refs.json"), "w") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(d, x)) for d in (CHUNKS, FRAMES) for x in os.listdir(d))
    print(f"{len(refs['chunks'])} chunks, {len(refs['frames'])} frames "
          f"({sum(len(fr['chunks']) for fr in refs['frames'])} frame chunks); data {total} bytes")


if __name__ == "__main__":
    main()
