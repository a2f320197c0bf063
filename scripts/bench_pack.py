"""`b2schema pack` and `b2schema cat` next to python-blosc2, end to end, in one run (issue 33).

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_pack.py [--mb 128,1024] [--reps 3] [--threads 1,N]

For each size, a float64 field (rows x 8192 rounded normal values, 128 MB = 2048 rows) is saved
as a `.npy`; then per codec + filter row and per thread count, as whole processes (the command
a user runs):

* encode: `b2schema pack --chunks 256,8192 --blocks 8,8192 --threads T x.npy ours.b2nd` against
  `python -c "blosc2.asarray(np.load('x.npy'), urlpath=..., chunks=..., blocks=..., cparams=...)"`;
* decode: `b2schema cat --threads T ours.b2nd > /dev/null` against
  `python -c "blosc2.open('py.b2nd')[()]"` (python-blosc2 with `nthreads` T on both sides).

The commands alternate (ours, python, ours, ...) and the median wall time of `--reps` runs is
kept; peak memory is the largest resident set of a run (GNU time's `%M`). The table gives MB/s
(uncompressed megabytes, 1e6 bytes, per second) and the ratio of times ours / python (below 1
is faster) twice: against python's whole process, and against python-blosc2's operation alone
("op": the time the python side measures around `asarray` / `[()]`, its interpreter start and
imports left out; ours is always the whole process), then the size ratio of the two files and
each side's peak memory when packing.
Each side reads the other's file back (equal items) once per row, so a fast wrong file fails.
The binary is the release build of `b2schema-cli` (built first; `CARGO_TARGET_DIR` is honoured).
"""
import argparse
import os
import resource
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
CHUNKS, BLOCKS = (256, 8192), (8, 8192)

PY_PACK = """
import sys, time, blosc2, numpy as np
src, dst, codec, clevel, filt, t = sys.argv[1:7]
t = int(t)
blosc2.set_nthreads(t)
filters = {"shuffle": [blosc2.Filter.SHUFFLE], "bitshuffle": [blosc2.Filter.BITSHUFFLE],
           "bytedelta": [blosc2.Filter.SHUFFLE, blosc2.Filter.BYTEDELTA]}[filt]
cp = blosc2.CParams(codec=blosc2.Codec[codec.upper()], clevel=int(clevel), filters=filters,
                    filters_meta=[0] * len(filters), nthreads=t)
t0 = time.perf_counter()
blosc2.asarray(np.load(src), urlpath=dst, mode="w", chunks=%r, blocks=%r, cparams=cp)
print(time.perf_counter() - t0)
""" % (CHUNKS, BLOCKS)

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


def make_npy(path, rows):
    rng = np.random.default_rng(0)
    a = np.lib.format.open_memmap(path, mode="w+", dtype="<f8", shape=(rows, 8192))
    for i in range(0, rows, 2048):
        a[i:i + 2048] = np.round(rng.normal(size=(min(2048, rows - i), 8192)), 3)
    a.flush()
    del a


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", default="128,1024", help="array sizes in MiB (multiples of 64)")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--threads", default=f"1,{os.cpu_count()}")
    ap.add_argument("--rows", default=None, help="only these rows, e.g. 'lz4 5 shuffle;zstd 5 shuffle'")
    args = ap.parse_args()
    exe = binary()
    py = sys.executable
    threads = [int(t) for t in args.threads.split(",")]
    rows = ROWS
    if args.rows:
        want = [tuple(r.split()) for r in args.rows.split(";")]
        rows = [r for r in ROWS if (r[0], str(r[1]), r[2]) in want]
    print(f"python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version.split()[0]}); "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; chunks {CHUNKS}, "
          f"blocks {BLOCKS}; median of {args.reps} whole-process runs; ratio = time ours / python-blosc2\n")
    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_DIR")) as tmp:
        for mb in (int(m) for m in args.mb.split(",")):
            src = os.path.join(tmp, "x.npy")
            make_npy(src, mb * 16)
            nbytes = mb * 16 * 8192 * 8
            print(f"### {mb} MiB ({nbytes / 1e6:.0f} MB) float64, {mb * 16} x 8192\n")
            print("| codec + filter | threads | encode MB/s ours | python | python op | encode ratio | ratio op | "
                  "decode MB/s ours | python | python op | decode ratio | ratio op | size ours/python | "
                  "pack peak MB ours | python |")
            print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
            for codec, clevel, filt in rows:
                ours, theirs = os.path.join(tmp, "ours.b2nd"), os.path.join(tmp, "py.b2nd")
                for t in threads:
                    filters = ["--filter", "shuffle", "--filter", "bytedelta"] if filt == "bytedelta" \
                        else ["--filter", filt]
                    pack = [exe, "pack", "--codec", codec, "--clevel", str(clevel), *filters,
                            "--chunks", ",".join(map(str, CHUNKS)), "--blocks", ",".join(map(str, BLOCKS)),
                            "--threads", str(t), src, ours]
                    pypack = [py, "-c", PY_PACK, src, theirs, codec, str(clevel), filt, str(t)]
                    ew, em, pw, pm, po = paired(pack, pypack, args.reps)
                    if t == threads[0]:
                        check(exe, ours, theirs, src)
                    cat = [exe, "cat", "--threads", str(t), ours]
                    pyread = [py, "-c", PY_READ, theirs, str(t)]
                    dw, _, qw, _, qo = paired(cat, pyread, args.reps)
                    size = os.path.getsize(ours) / os.path.getsize(theirs)
                    mbs = lambda s: f"{nbytes / s / 1e6:.0f}"  # noqa: E731
                    print(f"| {codec} {clevel} + {filt} | {t} | {mbs(ew)} | {mbs(pw)} | {mbs(po)} | {ew / pw:.2f} | "
                          f"{ew / po:.2f} | {mbs(dw)} | {mbs(qw)} | {mbs(qo)} | {dw / qw:.2f} | {dw / qo:.2f} | "
                          f"{size:.3f} | {em:.0f} | {pm:.0f} |", flush=True)
            os.remove(src)
            print()
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


def check(exe, ours, theirs, src):
    """Each side reads the other's file to the items of the `.npy`."""
    want = np.load(src, mmap_mode="r")
    got = blosc2.open(ours)[()]
    if not np.array_equal(got, want):
        sys.exit(f"python-blosc2 reads other items from {ours}")
    out = subprocess.run([exe, "cat", theirs], check=True, capture_output=True).stdout
    if out != want.tobytes():
        sys.exit(f"b2schema cat reads other items from {theirs}")


if __name__ == "__main__":
    main()
