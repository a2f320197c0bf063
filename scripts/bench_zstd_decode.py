"""zstd chunk decoding beside python-blosc2 (c-blosc2), in CPU time, interleaved, at one thread.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_zstd_decode.py [--rounds 3] [--only zstd-counters] \
        [--exe A --exe B]

The zstd rows of `scripts/bench_decompress.py` (`tests/data/chunks/ref/bench_python.py`: smooth
float64 and int32 counters at clevels 1, 5 and 9, zstd + bytedelta on both, the mixed
`zstd-shuffle` chunks at clevel 5; 4 chunks of 4 MiB per row), timed as `bench_codec.py --decode`
times its rows: c-blosc2's `SChunk.decompress_chunk(i, dst)` beside `codec_bench decode 1`, each
side in its thread's CPU time (mean over at least a quarter of a second per chunk), the sides
alternating over `--rounds` rounds, each chunk's best round kept. Several `--exe` (`codec_bench`
builds, before and after a change) are timed in the same rounds; by default the release build of
`b2schema-chunk`'s `codec_bench` example. Prints MB/s over the row's 4 chunks and ours / c-blosc2
speed (above 1: ours faster).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import blosc2

from bench_codec import ROOT, c_blosc2_decode_seconds

sys.path.insert(0, os.path.join(ROOT, "tests", "data", "chunks", "ref"))
from bench_python import BYTEDELTA_ROWS, CHUNK, ZSTD_ROWS, data, dataset  # noqa: E402

F = blosc2.Filter


def rows():
    """(name, filters, typesize, clevel, chunk maker) for every zstd row of bench_python.py."""
    out = [(name, [F.SHUFFLE], ts, cl, lambda i, d=d: dataset(d, i)) for name, d, ts, cl in ZSTD_ROWS]
    out += [(name, [F.SHUFFLE, F.BYTEDELTA], ts, cl, lambda i, d=d: dataset(d, i))
            for name, d, ts, cl in BYTEDELTA_ROWS]
    out.append(("zstd-shuffle", [F.SHUFFLE], 8, 5, data))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--only", default="", help="the rows whose name starts with this")
    ap.add_argument("--exe", action="append")
    args = ap.parse_args()
    exes = args.exe
    if not exes:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "b2schema-chunk", "--example", "codec_bench"],
                       cwd=ROOT, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        exes = [os.path.join(target, "release", "examples", "codec_bench")]
    names = [os.path.basename(e) for e in exes]
    print(f"python-blosc2 {blosc2.__version__} (c-blosc2 {blosc2.blosclib_version}), zstd chunk decoding, "
          f"4 chunks of {CHUNK >> 20} MiB per row, 1 thread, CPU time, best of {args.rounds} interleaved "
          f"rounds; load average {os.getloadavg()}\n")
    print("| row | c-blosc2 MB/s | " + " | ".join(f"{n} MB/s | {n} / c-blosc2" for n in names) + " |")
    print("|---|---:|" + "---:|---:|" * len(exes))
    with tempfile.TemporaryDirectory() as tmp:
        for name, filters, ts, clevel, make in rows():
            if not name.startswith(args.only):
                continue
            cp = blosc2.CParams(codec=blosc2.Codec.ZSTD, clevel=clevel, typesize=ts, filters=filters,
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
            s.dparams = blosc2.DParams(nthreads=1)
            ours = [[float("inf")] * len(files) for _ in exes]
            theirs = [float("inf")] * len(files)
            for _ in range(args.rounds):
                for e, exe in enumerate(exes):
                    out = subprocess.run([exe, "decode", "1", *files], check=True,
                                         capture_output=True, text=True).stdout
                    for i, line in enumerate(out.splitlines()):
                        ours[e][i] = min(ours[e][i], json.loads(line)["cpu_seconds"])
                for i in range(len(files)):
                    theirs[i] = min(theirs[i], c_blosc2_decode_seconds(s, i, dst, 1))
            mb = len(files) * CHUNK / 1e6
            t = sum(theirs)
            cells = " | ".join(f"{mb / sum(o):.0f} | {t / sum(o):.2f}" for o in ours)
            print(f"| {name} | {mb / t:.0f} | {cells} |", flush=True)
    print(f"\nload average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
