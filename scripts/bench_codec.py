"""One codec's compression speed beside python-blosc2 (c-blosc2), in CPU time, interleaved.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_codec.py [--codec lz4hc] [--rounds 3] \
        [--clevels 1,5,9] [--data normal,field] [--blocksizes 131072,524288] [--exe A --exe B]

The data are `scripts/bench_compress.py`'s four sets (smooth float64, int32 counters,
random int64, text bytes), or with `--data` (comma-separated) `normal` and `field`:
`scripts/bench_pack.py`'s default field (float64 normal values rounded to 3 decimals) and its
`smooth` surface, `--mb` taken from the middle of a 128 MiB array as `bench_pack.py` makes it.
Each is compressed as one chunk with python-blosc2's defaults otherwise (shuffle, auto split,
automatic blocksize or each of `--blocksizes`, one thread). Every chunk of ours is compared with
c-blosc2's, byte for byte (the `same` column). Built for a loaded machine: each side is
timed in the CPU time of its thread (python's `thread_time`; `codec_bench`'s schedstat clock),
each as the mean of runs over at least a quarter of a second, and the two sides alternate over
`--rounds` rounds, the best round kept. Several `--exe` (`codec_bench` builds, for example
before and after a change) are timed in the same rounds; by default the release build of
`b2schema-chunk`'s `codec_bench` bench tool. Prints MB/s, ours / c-blosc2 speed, and size ratios.

    "$PY" scripts/bench_codec.py --decode [--only lz4] [--threads 1,2] [--rounds 5] [--exe A --exe B]

`--decode` times chunk decoding instead: the chunks of `tests/data/chunks/ref/bench_python.py`
(4 chunks of 4 MiB per row, written by python-blosc2's SChunk) for the lz4, lz4hc and blosclz
rows and the zstd rows (smooth float64 and int32 counters at clevels 1, 5 and 9, zstd + bytedelta
on both, the mixed `zstd-shuffle` chunks at clevel 5; `--only zstd` for those), c-blosc2's `SChunk.decompress_chunk(i, dst)` beside `codec_bench decode` (each decoding
into a kept buffer). At one thread both sides are timed in their thread's CPU time (mean over
at least a quarter of a second per chunk), at more threads in wall-clock time (best run); the
sides alternate over the rounds and each chunk's best round is kept. Prints MB/s over the
row's 4 chunks and ours / c-blosc2 speed (above 1: ours faster).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import blosc2

from bench_compress import datasets
from bench_tool import bench_exe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# tests/data/chunks/ref/bench_python.py: the decode rows' data, as bench_decompress.py writes them.
sys.path.insert(0, os.path.join(ROOT, "tests", "data", "chunks", "ref"))


def c_blosc2_seconds(data, ts, codec, clevel, blocksize=0):
    t, k = time.thread_time(), 0
    while k < 2 or time.thread_time() - t < 0.25:
        c = blosc2.compress2(data, codec=codec, clevel=clevel, typesize=ts, nthreads=1, blocksize=blocksize)
        k += 1
    return (time.thread_time() - t) / k, c


def pack_datasets(kinds, nbytes, tmp):
    """`bench_pack.py`'s arrays (`normal`: its default field; `field`: its smooth surface):
    `nbytes` from the middle of a 128 MiB one."""
    from bench_pack import make_npy
    import numpy as np

    out = []
    for kind in kinds:
        path = os.path.join(tmp, f"{kind}.npy")
        make_npy(path, {"normal": "normal", "field": "smooth"}[kind], 128)
        raw = np.load(path, mmap_mode="r").reshape(-1).view("u1")
        mid = (len(raw) // 2) & ~7
        out.append((f"{kind} float64", bytes(raw[mid:mid + (nbytes & ~7)]), 8))
        os.remove(path)
    return out


# The decode rows of bench_python.py's mixed chunks (`data`) at clevel 5: (name, codec, filter,
# typesize).
DECODE_ROWS = [
    ("blosclz-nofilter", "BLOSCLZ", "NOFILTER", 8),
    ("blosclz-shuffle", "BLOSCLZ", "SHUFFLE", 8),
    ("lz4-shuffle", "LZ4", "SHUFFLE", 8),
    ("lz4-shuffle-ts2", "LZ4", "SHUFFLE", 2),
    ("lz4-shuffle-ts16", "LZ4", "SHUFFLE", 16),
    ("lz4-bitshuffle", "LZ4", "BITSHUFFLE", 8),
    ("lz4hc-shuffle", "LZ4HC", "SHUFFLE", 8),
    ("zstd-shuffle", "ZSTD", "SHUFFLE", 8),
]


def decode_rows():
    """(name, codec, filters, typesize, clevel, chunk i's data) for every decode row: DECODE_ROWS,
    then bench_python.py's zstd rows on its smooth field and counters (shuffle; shuffle and
    bytedelta)."""
    from bench_python import BYTEDELTA_ROWS, ZSTD_ROWS, data, dataset

    F = blosc2.Filter
    rows = [(name, codec, [F[filt]], ts, 5, data) for name, codec, filt, ts in DECODE_ROWS]
    rows += [(name, "ZSTD", [F.SHUFFLE], ts, cl, lambda i, d=d: dataset(d, i)) for name, d, ts, cl in ZSTD_ROWS]
    rows += [(name, "ZSTD", [F.SHUFFLE, F.BYTEDELTA], ts, cl, lambda i, d=d: dataset(d, i))
             for name, d, ts, cl in BYTEDELTA_ROWS]
    return rows


def c_blosc2_decode_seconds(schunk, i, dst, nthreads):
    """One chunk's decode time: mean thread CPU time at one thread, best wall time at more."""
    schunk.decompress_chunk(i, dst)
    if nthreads == 1:
        t, k = time.thread_time(), 0
        while k < 5 or time.thread_time() - t < 0.25:
            schunk.decompress_chunk(i, dst)
            k += 1
        return (time.thread_time() - t) / k
    best, start, k = float("inf"), time.perf_counter(), 0
    while k < 5 or time.perf_counter() - start < 0.25:
        t = time.perf_counter()
        schunk.decompress_chunk(i, dst)
        best = min(best, time.perf_counter() - t)
        k += 1
    return best


def decode_main(args, exes):
    from bench_python import CHUNK

    threads = [int(t) for t in args.threads.split(",")]
    names = [os.path.basename(e) for e in exes]
    print(f"python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version}), chunk decoding, "
          f"4 chunks of {CHUNK >> 20} MiB per row, best of {args.rounds} interleaved rounds "
          f"(1 thread: CPU time; more: wall clock); load average {os.getloadavg()}\n")
    print("| row | threads | c-blosc2 MB/s | " + " | ".join(f"{n} MB/s | {n} / c-blosc2" for n in names) + " |")
    print("|---|---:|---:|" + "---:|---:|" * len(exes))
    with tempfile.TemporaryDirectory() as tmp:
        for name, codec, filters, ts, clevel, make in decode_rows():
            if not name.startswith(args.only):
                continue
            cp = blosc2.CParams(codec=blosc2.Codec[codec], clevel=clevel, typesize=ts, filters=filters,
                                filters_meta=[0] * len(filters), nthreads=1)
            s = blosc2.SChunk(chunksize=CHUNK, cparams=cp)
            for i in range(4):
                s.append_data(make(i))
            files = []
            for i in range(s.nchunks):
                files.append(os.path.join(tmp, f"{name}-{i}.chunk"))
                with open(files[-1], "wb") as f:
                    f.write(s.get_chunk(i))
            dst = bytearray(CHUNK)
            for nt in threads:
                s.dparams = blosc2.DParams(nthreads=nt)
                key = "cpu_seconds" if nt == 1 else "seconds"
                ours = [[float("inf")] * len(files) for _ in exes]
                theirs = [float("inf")] * len(files)
                for _ in range(args.rounds):
                    for e, exe in enumerate(exes):
                        out = subprocess.run([exe, "decode", str(nt), *files], check=True,
                                             capture_output=True, text=True).stdout
                        for i, line in enumerate(out.splitlines()):
                            ours[e][i] = min(ours[e][i], json.loads(line)[key])
                    for i in range(len(files)):
                        theirs[i] = min(theirs[i], c_blosc2_decode_seconds(s, i, dst, nt))
                mb = len(files) * CHUNK / 1e6
                t = sum(theirs)
                cells = " | ".join(f"{mb / sum(o):.0f} | {t / sum(o):.2f}" for o in ours)
                print(f"| {name} | {nt} | {mb / t:.0f} | {cells} |", flush=True)
    print(f"\nload average after: {os.getloadavg()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--codec", default="lz4hc")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clevels", default="1,5,9")
    ap.add_argument("--mb", type=float, default=4)
    ap.add_argument("--exe", action="append")
    ap.add_argument("--data", default="", help="normal,field: bench_pack.py's arrays instead of the four sets")
    ap.add_argument("--blocksizes", default="0", help="comma-separated blocksizes (0: automatic)")
    ap.add_argument("--decode", action="store_true", help="time chunk decoding (lz4, lz4hc, blosclz and zstd rows)")
    ap.add_argument("--only", default="", help="with --decode: the rows whose name starts with this")
    ap.add_argument("--threads", default="1,2", help="with --decode: thread counts")
    args = ap.parse_args()
    exes = args.exe
    if not exes:
        exes = [bench_exe("b2schema-chunk", "codec_bench")]
    if args.decode:
        return decode_main(args, exes)
    codec = blosc2.Codec[args.codec.upper()]
    clevels = [int(c) for c in args.clevels.split(",")]
    blocksizes = [int(b) for b in args.blocksizes.split(",")]
    blosc2.set_nthreads(1)
    print(f"python-blosc2 {blosc2.__version__}, {args.codec}, one chunk of {args.mb:g} MB per dataset, "
          f"nthreads 1, CPU time, best of {args.rounds} interleaved rounds; load average {os.getloadavg()}\n")
    names = [os.path.basename(e) for e in exes]
    print("| data | blocksize | clevel | c-blosc2 MB/s | "
          + " | ".join(f"{n} MB/s | {n} speed | {n} size | same" for n in names) + " |")
    print("|---|---|---|---|" + "---|---|---|---|" * len(exes))
    with tempfile.TemporaryDirectory() as tmp:
        nbytes = int(args.mb * 1e6)
        sets = pack_datasets(args.data.split(","), nbytes, tmp) if args.data else datasets(nbytes)
        for label, data, ts in sets:
            path = os.path.join(tmp, "data.bin")
            open(path, "wb").write(data)
            for bs in blocksizes:
                bs_args = [] if bs == 0 else [str(bs)]
                for clevel in clevels:
                    ours, theirs = [float("inf")] * len(exes), float("inf")
                    sizes, same = [0] * len(exes), [True] * len(exes)
                    for _ in range(args.rounds):
                        outs = []
                        for i, exe in enumerate(exes):
                            env = dict(os.environ, CODEC_BENCH_OUT=os.path.join(tmp, f"ours{i}"))
                            out = subprocess.run([exe, path, str(ts), "2", args.codec, str(clevel), *bs_args],
                                                 check=True, capture_output=True, text=True, env=env).stdout
                            r = json.loads(out)
                            ours[i] = min(ours[i], r["cpu_seconds"])
                            sizes[i] = r["cbytes"]
                            outs.append(open(os.path.join(tmp, f"ours{i}.{clevel}.chunk"), "rb").read())
                        secs, chunk = c_blosc2_seconds(data, ts, codec, clevel, bs)
                        theirs = min(theirs, secs)
                        same = [s and o == chunk for s, o in zip(same, outs)]
                    mb = len(data) / 1e6
                    cells = " | ".join(f"{mb / o:.0f} | {theirs / o:.2f} | {s / len(chunk):.3f} | {'yes' if e else '**NO**'}"
                                       for o, s, e in zip(ours, sizes, same))
                    print(f"| {label} | {bs or 'auto'} | {clevel} | {mb / theirs:.0f} | {cells} |", flush=True)
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
