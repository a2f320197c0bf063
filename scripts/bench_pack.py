"""`b2schema pack` (and `cat`) next to python-blosc2, end to end, in one run (issues 33 and 52).

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_pack.py [--npy FILE | --data KIND --mb 128]
        [--chunks 256,8192] [--blocks 8,8192] [--reps 3] [--threads 1,2] [--rows 'lz4 5 shuffle;...'] [--decode]

The array is a `.npy` given with `--npy`, or one made for the run (`--data`, `--mb` MiB, rows of
8192 items): `normal` (the default field: float64 normal values rounded to 3 decimals),
`smooth` (a smooth float64 surface), `random` (random float64 bits), `text` (text-like uint8:
words from a small vocabulary), `counters` (int32 counters with small random steps). Chunk and
block shapes are `--chunks` / `--blocks` (comma-separated items a side), else python-blosc2's
defaults for that array on this host (`blosc2.compute_chunks_blocks`); the same shapes are passed
to both sides. The shapes `b2schema pack` picks on its own (no `--chunks`/`--blocks`) are printed
beside python's: b2schema's defaults assume fixed cache sizes (L2 512 KiB, L3 32 MiB), python
reads the host's, so they differ on hosts with other caches.

Per codec + filter row and per thread count, as whole processes (the command a user runs):

* encode: `b2schema pack --chunks C --blocks B --threads T x.npy ours.b2nd` against
  `python -c "blosc2.asarray(np.load('x.npy'), urlpath=..., chunks=C, blocks=B, cparams=...)"`;
* decode (with `--decode`): `b2schema cat --threads T ours.b2nd > /dev/null` against
  `python -c "blosc2.open('py.b2nd')[()]"` (python-blosc2 with `nthreads` T on both sides).

The commands alternate (ours, python, ours, ...) and the median wall time of `--reps` runs is
kept; peak memory is the largest resident set of a run (GNU time's `%M`). A detail row per row
and thread count gives MB/s (uncompressed megabytes, 1e6 bytes, per second) and the ratio of
times ours / python (below 1 is faster) twice: against python's whole process, and against
python-blosc2's operation alone ("op": the time the python side measures around `asarray` /
`[()]`, its interpreter start and imports left out; ours is always the whole process), then the
size ratio of the two files and each side's peak memory when packing. At the end, issue 52's
table: rows codec + filter, columns the thread counts, cells the encode time ratio ours / python
(whole process, then op), over 1.0 in bold.
Each side reads the other's file back (equal items) once per row, so a fast wrong file fails.
The binary is the release build of `b2schema-cli` (built first; `CARGO_TARGET_DIR` is honoured),
or `$B2SCHEMA_BIN` when set (e.g. a copy of an earlier build, for a before/after table).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import blosc2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROWS = [("zstd", 5, "shuffle"), ("lz4", 5, "shuffle"), ("blosclz", 5, "shuffle"), ("lz4hc", 5, "shuffle"),
        ("zlib", 5, "shuffle"), ("lz4", 5, "bitshuffle"), ("zstd", 9, "shuffle"), ("zstd", 1, "bytedelta")]

PY_PACK = """
import sys, json, time, blosc2, numpy as np
src, dst, codec, clevel, filt, t, chunks, blocks = sys.argv[1:9]
t = int(t)
blosc2.set_nthreads(t)
filters = {"shuffle": [blosc2.Filter.SHUFFLE], "bitshuffle": [blosc2.Filter.BITSHUFFLE],
           "bytedelta": [blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA]}[filt]
cp = blosc2.CParams(codec=blosc2.Codec[codec.upper()], clevel=int(clevel), filters=filters,
                    filters_meta=[0] * len(filters), nthreads=t)
t0 = time.perf_counter()
blosc2.asarray(np.load(src), urlpath=dst, mode="w", chunks=tuple(json.loads(chunks)),
               blocks=tuple(json.loads(blocks)), cparams=cp)
print(time.perf_counter() - t0)
"""

PY_READ = """
import sys, time, blosc2
blosc2.set_nthreads(int(sys.argv[2]))
t0 = time.perf_counter()
blosc2.open(sys.argv[1], dparams=blosc2.DParams(nthreads=int(sys.argv[2])))[()]
print(time.perf_counter() - t0)
"""


def binary():
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "b2schema-cli"], cwd=ROOT, check=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    return os.path.join(target, "release", "b2schema")


def run(cmd, keep_stdout=False):
    """Wall seconds, peak resident MB and the stdout (python's own timing) of one run of `cmd`,
    under GNU time for the peak (a child forked from this process would count its memory)."""
    with tempfile.NamedTemporaryFile("r") as peak:
        t = time.perf_counter()
        p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", peak.name, *cmd], stderr=subprocess.PIPE,
                           stdout=subprocess.PIPE if keep_stdout else subprocess.DEVNULL)
        wall = time.perf_counter() - t
        if p.returncode != 0:
            sys.exit(f"{cmd} failed: {p.stderr.decode()}")
        mb = int(peak.read().split()[-1]) / 1024
    return wall, mb, (p.stdout.decode() if keep_stdout else "")


def paired(a, b, reps):
    """Median wall times and the largest peak memory of `a` and `b` (run in turn), and the median
    of the times `b` prints (python-blosc2's operation alone, imports and start-up left out)."""
    ra, rb = [], []
    for _ in range(reps):
        ra.append(run(a))
        rb.append(run(b, keep_stdout=True))
    return (statistics.median(r[0] for r in ra), max(r[1] for r in ra),
            statistics.median(r[0] for r in rb), max(r[1] for r in rb),
            statistics.median(float(r[2].split()[-1]) for r in rb))


def make_npy(path, kind, mb):
    """A `.npy` of `mb` MiB of `kind` (see the module documentation), rows of 8192 items."""
    rng = np.random.default_rng(0)
    dtype = {"text": "u1", "counters": "<i4"}.get(kind, "<f8")
    rows = mb * (1 << 20) // (8192 * np.dtype(dtype).itemsize)
    a = np.lib.format.open_memmap(path, mode="w+", dtype=dtype, shape=(rows, 8192))
    words = np.array([w.encode() for w in "the of and to in is was that for on with as by at from "
                      "this be are or an it which data array chunk block value".split()])
    for i in range(0, rows, 256):
        n = min(256, rows - i)
        if kind == "normal":
            a[i:i + n] = np.round(rng.normal(size=(n, 8192)), 3)
        elif kind == "smooth":
            y = np.arange(i, i + n)[:, None] / rows * 20
            x = np.arange(8192)[None, :] / 8192 * 30
            a[i:i + n] = np.sin(y) * np.cos(x) + 0.3 * np.sin(0.7 * x + 0.2 * y) ** 2 + 1e-3 * x * y
        elif kind == "random":
            a[i:i + n] = rng.integers(0, 2**63, size=(n, 8192), dtype=np.int64).view("<f8")
        elif kind == "text":
            txt = b" ".join(words[rng.integers(0, len(words), size=n * 8192 // 3)])
            a[i:i + n] = np.frombuffer(txt[:n * 8192], dtype="u1").reshape(n, 8192)
        elif kind == "counters":
            a[i:i + n] = (np.arange(i * 8192, (i + n) * 8192) * 2 +
                          rng.integers(0, 3, size=n * 8192)).reshape(n, 8192).astype("<i4")
        else:
            sys.exit(f"unknown --data {kind!r}")
    a.flush()
    del a


def shapes(src, args):
    """The chunk and block shapes of the run: `--chunks` / `--blocks`, else python-blosc2's."""
    a = np.load(src, mmap_mode="r")
    parse = lambda s: tuple(int(d) for d in s.split(","))  # noqa: E731
    chunks = parse(args.chunks) if args.chunks else None
    blocks = parse(args.blocks) if args.blocks else None
    dc, db = blosc2.compute_chunks_blocks(a.shape, chunks, blocks, dtype=a.dtype)
    return tuple(int(d) for d in dc), tuple(int(d) for d in db), a.shape, a.dtype, a.nbytes


def ours_default_shapes(exe, src, tmp):
    """The chunk and block shapes `b2schema pack` picks without `--chunks` / `--blocks`."""
    dst = os.path.join(tmp, "defaults.b2nd")
    subprocess.run([exe, "pack", "--codec", "lz4", "--clevel", "1", src, dst], check=True)
    a = blosc2.open(dst)
    shape = (tuple(a.chunks), tuple(a.blocks))
    os.remove(dst)
    return shape


def bold(r):
    return f"**{r:.2f}**" if r > 1.0 else f"{r:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--npy", default=None, help="the array (a .npy file); else one is made (--data, --mb)")
    ap.add_argument("--data", default="normal", help="normal | smooth | random | text | counters")
    ap.add_argument("--mb", type=int, default=128, help="size in MiB of the array made")
    ap.add_argument("--chunks", default=None, help="chunk shape, e.g. 256,8192 (default: python-blosc2's)")
    ap.add_argument("--blocks", default=None, help="block shape, e.g. 8,8192 (default: python-blosc2's)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rows", default=None, help="only these rows, e.g. 'lz4 5 shuffle;zstd 5 shuffle'")
    ap.add_argument("--decode", action="store_true", help="time `cat` against `[()]` too")
    args = ap.parse_args()
    exe = os.environ.get("B2SCHEMA_BIN") or binary()
    py = sys.executable
    threads = [int(t) for t in args.threads.split(",")]
    rows = ROWS
    if args.rows:
        want = [tuple(r.split()) for r in args.rows.split(";")]
        rows = [r for r in ROWS if (r[0], str(r[1]), r[2]) in want]
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        src = args.npy
        if src is None:
            src = os.path.join(tmp, "x.npy")
            make_npy(src, args.data, args.mb)
        chunks, blocks, shape, dtype, nbytes = shapes(src, args)
        own = ours_default_shapes(exe, src, tmp)
        what = args.npy or f"{args.data} ({args.mb} MiB made for the run)"
        print(f"python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version.split()[0]}); "
              f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
              f"median of {args.reps} whole-process runs; ratio = time ours / python-blosc2\n")
        print(f"{what}: {dtype} {shape}, {nbytes / 1e6:.0f} MB; chunks {chunks}, blocks {blocks} "
              f"({'given' if args.chunks or args.blocks else 'python-blosc2 defaults'}); "
              f"`b2schema pack` alone picks chunks {own[0]}, blocks {own[1]}\n")
        dec = " decode MB/s ours | python | python op | decode ratio | ratio op |" if args.decode else ""
        print("| codec + filter | threads | encode MB/s ours | python | python op | encode ratio | ratio op |"
              f"{dec} size ours/python | pack peak MB ours | python |")
        print("|---|---|---|---|---|---|---|" + ("---|" * 5 if args.decode else "") + "---|---|---|")
        table = {}
        shape_args = ["--chunks", ",".join(map(str, chunks)), "--blocks", ",".join(map(str, blocks))]
        for codec, clevel, filt in rows:
            ours, theirs = os.path.join(tmp, "ours.b2nd"), os.path.join(tmp, "py.b2nd")
            for t in threads:
                filters = ["--filter", "shuffle", "--filter", "bytedelta"] if filt == "bytedelta" \
                    else ["--filter", filt]
                pack = [exe, "pack", "--codec", codec, "--clevel", str(clevel), *filters, *shape_args,
                        "--threads", str(t), src, ours]
                pypack = [py, "-c", PY_PACK, src, theirs, codec, str(clevel), filt, str(t),
                          json.dumps(chunks), json.dumps(blocks)]
                ew, em, pw, pm, po = paired(pack, pypack, args.reps)
                if t == threads[0]:
                    check(exe, ours, theirs, src)
                size = os.path.getsize(ours) / os.path.getsize(theirs)
                mbs = lambda s: f"{nbytes / s / 1e6:.0f}"  # noqa: E731
                cells = ""
                if args.decode:
                    cat = [exe, "cat", "--threads", str(t), ours]
                    pyread = [py, "-c", PY_READ, theirs, str(t)]
                    dw, _, qw, _, qo = paired(cat, pyread, args.reps)
                    cells = f" {mbs(dw)} | {mbs(qw)} | {mbs(qo)} | {dw / qw:.2f} | {dw / qo:.2f} |"
                table[(codec, clevel, filt, t)] = (ew / pw, ew / po)
                print(f"| {codec} {clevel} + {filt} | {t} | {mbs(ew)} | {mbs(pw)} | {mbs(po)} | {ew / pw:.2f} | "
                      f"{ew / po:.2f} |{cells} {size:.3f} | {em:.0f} | {pm:.0f} |", flush=True)
        if args.npy is None:
            os.remove(src)
    print(f"\nload average {os.getloadavg()[0]:.1f} at the end\n")
    print(f"Encode time ratio ours / python-blosc2, {what}, chunks {chunks}, blocks {blocks}: "
          "whole process / python's operation alone\n")
    print("| codec + filter | " + " | ".join(f"{t} thread{'s' if t > 1 else ''}" for t in threads) + " |")
    print("|---|" + "---:|" * len(threads))
    for codec, clevel, filt in rows:
        cells = [table[(codec, clevel, filt, t)] for t in threads]
        print(f"| {codec} {clevel} + {filt} | " + " | ".join(f"{bold(w)} / {bold(o)}" for w, o in cells) + " |")


def check(exe, ours, theirs, src):
    """Each side reads the other's file to the items of the `.npy`."""
    want = np.load(src, mmap_mode="r")
    got = blosc2.open(ours)[()]
    # Bytes, not values: random float64 bits hold NaNs, which never equal themselves.
    if got.dtype != want.dtype or got.shape != want.shape or got.tobytes() != want.tobytes():
        sys.exit(f"python-blosc2 reads other items from {ours}")
    out = subprocess.run([exe, "cat", theirs], check=True, capture_output=True).stdout
    if out != want.tobytes():
        sys.exit(f"b2schema cat reads other items from {theirs}")


if __name__ == "__main__":
    main()
