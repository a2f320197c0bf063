"""The xarray backend: a python-blosc2 TreeStore whose arrays name their dimensions in vlmeta
opens as a dataset equal to the data, lazily, with coordinates and attributes."""

import blosc2
import numpy as np
import xarray as xr

import b2schema


def test_a_store_opens_as_a_dataset(tmp_path):
    p = str(tmp_path / "ds.b2z")
    t = np.arange(120, dtype="<f4").reshape(6, 20) / 3
    lat = np.linspace(-90, 90, 20)
    def named(a, dims, **attrs):
        b = blosc2.asarray(a)
        b.vlmeta["_ARRAY_DIMENSIONS"] = dims
        for k, v in attrs.items():
            b.vlmeta[k] = v
        return b

    with blosc2.TreeStore(p, mode="w") as ts:
        ts["/temperature"] = named(t, ["time", "lat"], units="K")
        ts["/lat"] = named(lat, ["lat"])
        ts["/g/raw"] = np.arange(5, dtype="i2")
        ts.vlmeta["title"] = "a test dataset"
    ds = xr.open_dataset(p, engine="b2schema")
    assert ds.attrs == {"title": "a test dataset"}
    assert ds["temperature"].dims == ("time", "lat") and ds["temperature"].attrs == {"units": "K"}
    assert "lat" in ds.coords
    np.testing.assert_array_equal(ds["temperature"].values, t)
    np.testing.assert_array_equal(ds["temperature"].isel(time=slice(1, 5, 2), lat=3).values, t[1:5:2, 3])
    np.testing.assert_array_equal(ds["lat"].values, lat)
    np.testing.assert_array_equal(ds["g/raw"].values, np.arange(5))
    assert ds["g/raw"].dims == ("g/raw_dim_0",)
    assert float(ds["temperature"].sel(lat=lat[2]).sum()) == float(t[:, 2].sum())


def test_a_b2nd_opens_as_one_variable(tmp_path):
    a = np.arange(24.0).reshape(2, 3, 4)
    b2schema.asarray(a, tmp_path / "cube.b2nd", vlmeta={"dims": ["x", "y", "z"], "note": "n"})
    ds = xr.open_dataset(tmp_path / "cube.b2nd", engine="b2schema", drop_variables=[])
    assert list(ds.data_vars) == ["cube"] and ds["cube"].dims == ("x", "y", "z")
    assert ds["cube"].attrs == {"note": "n"}
    np.testing.assert_array_equal(ds["cube"][1, :, ::2].values, a[1, :, ::2])
