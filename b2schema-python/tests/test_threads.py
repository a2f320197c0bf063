"""Several Python threads read one array at once (the interpreter released while each decodes)
and get what one thread gets; reads on 1 and 2 decoding threads agree."""

import threading

import numpy as np

import b2schema


def test_threads_reading_one_array_at_once(tmp_path):
    a = np.random.default_rng(5).normal(size=(300, 400))
    arr = b2schema.asarray(a, tmp_path / "t.b2nd", chunks=(50, 100), blocks=(10, 50))
    keys = [(slice(None),), (slice(10, 290, 3), slice(5, None)), (7,), (slice(None, None, -1), 3)] * 4
    errors, results = [], {}
    barrier = threading.Barrier(len(keys))

    def work(i, key):
        try:
            barrier.wait()
            for _ in range(5):
                got = arr.read(key, nthreads=1 + i % 2)
                assert np.array_equal(got, a[key])
            results[i] = True
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i, k)) for i, k in enumerate(keys)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert len(results) == len(keys)
