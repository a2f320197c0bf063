"""One codec's compression speed beside python-blosc2 (c-blosc2), in CPU time, interleaved.

    PY=$(scripts/pyenv.sh) && "$PY" scripts/bench_codec.py [--codec lz4hc] [--rounds 3] \
        [--clevels 1,5,9] [--exe A --exe B]

The data are `scripts/bench_compress.py`'s four sets (smooth float64, int32 counters,
random int64, text bytes), each compressed as one chunk with python-blosc2's defaults otherwise
(shuffle, auto split, automatic blocksize, one thread). Built for a loaded machine: each side is
timed in the CPU time of its thread (python's `thread_time`; `codec_bench`'s schedstat clock),
each as the mean of runs over at least a quarter of a second, and the two sides alternate over
`--rounds` rounds, the best round kept. Several `--exe` (`codec_bench` builds, for example
before and after a change) are timed in the same rounds; by default the release build of
`b2schema-chunk`'s `codec_bench` example. Prints MB/s, ours / c-blosc2 speed, and size ratios.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import blosc2

from bench_compress import datasets

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def c_blosc2_seconds(data, ts, codec, clevel):
    t, k = time.thread_time(), 0
    while k < 2 or time.thread_time() - t < 0.25:
        c = blosc2.compress2(data, codec=codec, clevel=clevel, typesize=ts, nthreads=1)
        k += 1
    return (time.thread_time() - t) / k, len(c)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--codec", default="lz4hc")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clevels", default="1,5,9")
    ap.add_argument("--mb", type=float, default=4)
    ap.add_argument("--exe", action="append")
    args = ap.parse_args()
    exes = args.exe
    if not exes:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "b2schema-chunk", "--example", "codec_bench"],
                       cwd=ROOT, check=True)
        target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
        exes = [os.path.join(target, "release", "examples", "codec_bench")]
    codec = blosc2.Codec[args.codec.upper()]
    clevels = [int(c) for c in args.clevels.split(",")]
    blosc2.set_nthreads(1)
    print(f"python-blosc2 {blosc2.__version__}, {args.codec}, one chunk of {args.mb:g} MB per dataset, "
          f"nthreads 1, CPU time, best of {args.rounds} interleaved rounds; load average {os.getloadavg()}\n")
    names = [os.path.basename(e) for e in exes]
    print("| data | clevel | c-blosc2 MB/s | " + " | ".join(f"{n} MB/s | {n} speed | {n} size" for n in names) + " |")
    print("|---|---|---|" + "---|---|---|" * len(exes))
    with tempfile.TemporaryDirectory() as tmp:
        for label, data, ts in datasets(int(args.mb * 1e6)):
            path = os.path.join(tmp, "data.bin")
            open(path, "wb").write(data)
            for clevel in clevels:
                ours, theirs, size = [float("inf")] * len(exes), float("inf"), 0
                sizes = [0] * len(exes)
                for _ in range(args.rounds):
                    for i, exe in enumerate(exes):
                        out = subprocess.run([exe, path, str(ts), "2", args.codec, str(clevel)], check=True,
                                             capture_output=True, text=True).stdout
                        r = json.loads(out)
                        ours[i] = min(ours[i], r["cpu_seconds"])
                        sizes[i] = r["cbytes"]
                    secs, size = c_blosc2_seconds(data, ts, codec, clevel)
                    theirs = min(theirs, secs)
                mb = len(data) / 1e6
                cells = " | ".join(f"{mb / o:.0f} | {theirs / o:.2f} | {s / size:.3f}" for o, s in zip(ours, sizes))
                print(f"| {label} | {clevel} | {mb / theirs:.0f} | {cells} |")
    print(f"\nload average after: {os.getloadavg()}")


main()
