"""`b2schema append` of N slabs of about 1 MB into one .b2nd, one process per slab (each slab a
synced change) and one process for all (`b2schema append slab.npy x N out.b2nd`: a synced change
per 64 MiB of rows) and a Rust loop (examples/append_loop.rs: one process, `ArrayMut::append` per
slab, each slab a synced change), against python-blosc2's `resize` + `__setitem__` loop in one process (the
acquisition loop of issue 50; python-blosc2 syncs nothing).

    PY=$(scripts/pyenv.sh) && BENCH_DIR=/some/disk "$PY" scripts/bench_append.py --slabs 1000 --reps 3

`--side ours` or `--side python` runs one side once (no check), to time each as a whole process
with a timer of your choice (`/usr/bin/time -v`, hyperfine).

Both sides start from no file and append the same slab (128 x 1024 float64, smooth values with
noise) N times, with the same chunk and block shapes (the ones `b2schema append` chose when it
created the file: python-blosc2's defaults for the first slab) and python-blosc2's default
cparams (zstd 5 + shuffle). Prints the median wall time of each and the ratio ours / python
(<= 1.0: b2schema is at least as fast), then checks that python-blosc2 reads b2schema's result
equal to its own.
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import blosc2
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def ours(exe, slab_path, out, n, flags=()):
    # One process per slab, as an acquisition script calling the command would.
    start = time.perf_counter()
    for _ in range(n):
        subprocess.run([exe, "append", *flags, slab_path, out], check=True)
    return time.perf_counter() - start


def ours_one_command(exe, slab_path, out, n):
    # One process for all the slabs: `b2schema append slab.npy slab.npy ... out.b2nd`.
    start = time.perf_counter()
    subprocess.run([exe, "append"] + [slab_path] * n + [out], check=True)
    return time.perf_counter() - start


def ours_rust_loop(loop_exe, raw_path, out, n, flags=()):
    # One Rust process holding the array open, as an acquisition service would: each slab its
    # own crash-safe change (examples/append_loop.rs, `ArrayMut::append` per slab).
    start = time.perf_counter()
    subprocess.run([loop_exe, out, raw_path, "128", "1024", str(n), *flags], check=True,
                   stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def python_loop(slab, out, n, chunks, blocks):
    start = time.perf_counter()
    a = blosc2.asarray(slab, urlpath=out, mode="w", chunks=chunks, blocks=blocks)
    rows = slab.shape[0]
    for _ in range(n - 1):
        k = a.shape[0]
        a.resize((k + rows,) + slab.shape[1:])
        a[k:] = slab
    del a
    return time.perf_counter() - start


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--slabs", type=int, default=1000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--exe", default=os.path.join(ROOT, "target", "release", "b2schema"))
    p.add_argument("--loop-exe", default=os.path.join(ROOT, "target", "release", "examples", "append_loop"),
                   help="`cargo build --release --example append_loop`")
    p.add_argument("--side", choices=["ours", "ours-one", "rust-loop", "python"],
                   help="run one side once, no check (to time it as a whole process)")
    p.add_argument("--chunks", default="128,1024", help="python-blosc2's chunks for --side python")
    p.add_argument("--blocks", default="16,1024", help="python-blosc2's blocks for --side python")
    args = p.parse_args()
    work = tempfile.mkdtemp(dir=os.environ.get("BENCH_DIR"))
    rng = np.random.default_rng(50)
    x = np.linspace(0, 20, 128 * 1024)
    slab = (np.sin(x) * 100 + rng.normal(0, 0.01, x.size)).round(2).reshape(128, 1024)
    slab_path = os.path.join(work, "slab.npy")
    np.save(slab_path, slab)
    raw_path = os.path.join(work, "slab.f64")
    slab.astype("<f8").tofile(raw_path)
    if args.side:
        out = os.path.join(work, "out.b2nd")
        if args.side == "ours":
            ours(args.exe, slab_path, out, args.slabs)
        elif args.side == "ours-one":
            ours_one_command(args.exe, slab_path, out, args.slabs)
        elif args.side == "rust-loop":
            ours_rust_loop(args.loop_exe, raw_path, out, args.slabs)
        else:
            shape = lambda s: tuple(int(v) for v in s.split(","))
            python_loop(slab, out, args.slabs, shape(args.chunks), shape(args.blocks))
        shutil.rmtree(work)
        return 0
    t_ours, t_one, t_loop, t_py, t_ours_ns, t_loop_ns = [], [], [], [], [], []
    names = ("ours.b2nd", "ours-one.b2nd", "ours-loop.b2nd", "theirs.b2nd", "ours-ns.b2nd", "ours-loop-ns.b2nd")
    for _ in range(args.reps):
        o, o1, ol, t, ons, olns = (os.path.join(work, n) for n in names)
        for f in (o, o1, ol, t, ons, olns):
            if os.path.exists(f):
                os.remove(f)
        t_ours.append(ours(args.exe, slab_path, o, args.slabs))
        t_ours_ns.append(ours(args.exe, slab_path, ons, args.slabs, ["--no-sync"]))
        t_one.append(ours_one_command(args.exe, slab_path, o1, args.slabs))
        t_loop.append(ours_rust_loop(args.loop_exe, raw_path, ol, args.slabs))
        t_loop_ns.append(ours_rust_loop(args.loop_exe, raw_path, olns, args.slabs, ["--no-sync"]))
        a = blosc2.open(o)
        t_py.append(python_loop(slab, t, args.slabs, a.chunks, a.blocks))
    b = blosc2.open(t)
    for f in (o, o1, ol, ons, olns):
        a = blosc2.open(f)
        assert (a.chunks, a.blocks) == (blosc2.open(o).chunks, blosc2.open(o).blocks), f
        assert a.shape == b.shape == (128 * args.slabs, 1024), (a.shape, b.shape)
        for i in range(0, a.shape[0], 128 * 50):
            assert np.array_equal(a[i : i + 128], b[i : i + 128]), i
        assert np.array_equal(a[-128:], slab)
    mo, m1, mp = statistics.median(t_ours), statistics.median(t_one), statistics.median(t_py)
    ml, mons, mlns = statistics.median(t_loop), statistics.median(t_ours_ns), statistics.median(t_loop_ns)
    runs = lambda ts: ", ".join(f"{v:.2f}" for v in ts)
    print(f"chunks {a.chunks} blocks {a.blocks}; files: ours {os.path.getsize(o) >> 20} MiB, "
          f"python-blosc2 {os.path.getsize(t) >> 20} MiB; load {os.getloadavg()[0]:.1f}")
    print(f"b2schema append, a process per slab x{args.slabs}: {mo:.2f} s (runs {runs(t_ours)})")
    print(f"b2schema append, one command for all {args.slabs}: {m1:.2f} s (runs {runs(t_one)})")
    print(f"b2schema append --no-sync, a process per slab x{args.slabs}: {mons:.2f} s (runs {runs(t_ours_ns)})")
    print(f"ArrayMut::append loop in one Rust process x{args.slabs}: {ml:.2f} s (runs {runs(t_loop)})")
    print(f"the same loop, set_synced(false) x{args.slabs}: {mlns:.2f} s (runs {runs(t_loop_ns)})")
    print(f"python-blosc2 resize + setitem x{args.slabs}: {mp:.2f} s (runs {runs(t_py)})")
    print(f"ratio ours / python-blosc2: a process per slab {mo / mp:.2f} (--no-sync {mons / mp:.2f}), "
          f"one command {m1 / mp:.2f}, Rust loop {ml / mp:.2f} (unsynced {mlns / mp:.2f})")
    shutil.rmtree(work)


if __name__ == "__main__":
    sys.exit(main())
