"""Dask: a dask.distributed LocalCluster of 2 worker processes computes
dask.array.from_array(b2schema.open(p)) equal to NumPy; the arrays travel by path (pickling
never ships their data)."""

import pickle

import dask.array as da
import numpy as np
from dask.distributed import Client, LocalCluster

import b2schema


def test_pickled_by_path(tmp_path):
    a = b2schema.asarray(np.arange(100_000, dtype="<f8"), tmp_path / "p.b2nd")
    blob = pickle.dumps(a)
    assert len(blob) < 1000 and str(tmp_path / "p.b2nd").encode() in blob
    b = pickle.loads(blob)
    np.testing.assert_array_equal(b[...], a[...])


def test_local_cluster_of_two_processes(tmp_path):
    x = np.random.default_rng(3).normal(size=(400, 300)).astype("<f8")
    p = tmp_path / "d.b2nd"
    b2schema.asarray(x, p, chunks=(100, 150))
    arr = b2schema.open(p)
    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            d = da.from_array(arr, chunks=arr.chunks)
            total = (d * 2 + 1).sum(axis=0).compute()
            np.testing.assert_allclose(total, (x * 2 + 1).sum(axis=0))
            np.testing.assert_array_equal(d[::7, 5:200].compute(), x[::7, 5:200])
            assert len(client.scheduler_info()["workers"]) == 2
