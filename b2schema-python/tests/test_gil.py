"""Reads release the interpreter while they decode: another Python thread runs during a read.

The reader thread takes the GIL for long stretches (a switch interval of 1 s), so the main
thread gets it during the read only if the read gives it up: with the GIL held through the
decoding, the main thread's loop would run only after the read ended, and the reader's end
would stop it at once. No time is measured; the count of the main thread's iterations while
the reader is inside the read is what is checked."""

import sys
import threading

import numpy as np

import b2schema


def test_another_thread_runs_while_an_array_decodes(tmp_path):
    a = np.random.default_rng(2).normal(size=(1000, 2000))  # 16 MB of float64
    arr = b2schema.asarray(a, tmp_path / "g.b2nd", cparams={"codec": "zstd", "clevel": 1})
    started, done = threading.Event(), threading.Event()
    result = {}

    def reader():
        started.set()
        result["a"] = arr.read(..., nthreads=1)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(1.0)
    try:
        t = threading.Thread(target=reader)
        t.start()
        started.wait()
        n = 0
        while not done.is_set():
            n += 1
        t.join()
    finally:
        sys.setswitchinterval(old)
    np.testing.assert_array_equal(result["a"], a)
    assert n > 1000, f"the main thread ran {n} times during the read: the GIL was held"
