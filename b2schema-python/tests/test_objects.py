"""Object-store URLs (``s3://bucket/key``) opened as local paths are: arrays, SChunks, sparse
frames by their prefix and stores, read equal to the same files opened locally, against moto's
S3 server started here on 127.0.0.1 (its client configured from the environment, as the
object_store crate reads it). A missing object is an exception of b2schema's, and an array
pickled by its URL reopens by it."""

import pathlib
import pickle
import socket

import boto3
import numpy as np
import pytest
from moto.server import ThreadedMotoServer

import b2schema

from conftest import FIXTURES, STORES

BUCKET = "b2schema-py"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    env = {
        "AWS_ENDPOINT_URL": endpoint,
        "AWS_ACCESS_KEY_ID": "testing",
        "AWS_SECRET_ACCESS_KEY": "testing",
        "AWS_REGION": "us-east-1",
        "AWS_ALLOW_HTTP": "true",
    }
    mp = pytest.MonkeyPatch()
    for k, v in env.items():
        mp.setenv(k, v)
    client = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                          aws_access_key_id="testing", aws_secret_access_key="testing")
    client.create_bucket(Bucket=BUCKET)
    yield client
    mp.undo()
    server.stop()


def put(client, path, key):
    client.put_object(Bucket=BUCKET, Key=key, Body=pathlib.Path(path).read_bytes())
    return f"s3://{BUCKET}/{key}"


ARRAYS = ["nd-meta-vlmeta.b2nd", "chunks-2d-60.b2nd", "dict-zstd.b2nd", "special-zeros-f8.b2nd"]


@pytest.mark.parametrize("name", ARRAYS)
def test_arrays_by_s3_read_equal_their_local_files(s3, name):
    url = put(s3, FIXTURES / name, f"arrays/{name}")
    local, remote = b2schema.open(FIXTURES / name), b2schema.open(url)
    assert remote.shape == local.shape and remote.dtype == local.dtype
    np.testing.assert_array_equal(remote[()], local[()])
    if len(local.shape) and local.shape[0] > 1:
        np.testing.assert_array_equal(remote[1:2], local[1:2])
    assert remote.vlmeta == local.vlmeta
    again = pickle.loads(pickle.dumps(remote))
    np.testing.assert_array_equal(again[()], local[()])


def test_a_sparse_frame_by_its_prefix_and_a_store_by_s3(s3):
    sparse = next(p for p in sorted(FIXTURES.iterdir()) if p.is_dir() and (p / "chunks.b2frame").exists())
    for f in sparse.iterdir():
        put(s3, f, f"sparse/{sparse.name}/{f.name}")
    remote = b2schema.open(f"s3://{BUCKET}/sparse/{sparse.name}/")
    np.testing.assert_array_equal(remote[()], b2schema.open(sparse)[()])
    url = put(s3, STORES / "dict.b2z", "stores/dict.b2z")
    local, store = b2schema.open(STORES / "dict.b2z"), b2schema.open(url)
    assert sorted(store.keys()) == sorted(local.keys())
    for key in local.keys():
        np.testing.assert_array_equal(store[key][()], local[key][()])


def test_a_missing_object_is_an_exception_of_b2schema(s3):
    with pytest.raises(b2schema.Error):
        b2schema.open(f"s3://{BUCKET}/nothing/here.b2nd")
    with pytest.raises(b2schema.Error):
        b2schema.open(f"s3://{BUCKET}/nothing/here.b2z")
