"""Dictionary chunks (`use_dict`), both ways, in one python process.

Run by tests/dict_python.rs with the pinned environment of scripts/pyenv.sh:
    python dict_chunks.py MANIFEST.json
For every entry: python-blosc2 decompresses the chunk b2schema wrote ("ours",
`blosc2.decompress2`) and compares it with the data; then it compresses the same data with the
same parameters and `use_dict=True` ("theirs") for the Rust side to decode and compare. Prints
one line per failure and a summary; exits 1 if any check failed.
"""
import blosc2

import manifest  # tests/python/manifest.py, beside this script


def check(e):
    data = open(e["data"], "rb").read()
    if e.get("ours"):
        got = blosc2.decompress2(open(e["ours"], "rb").read())
        assert got == data, "python-blosc2 decompresses b2schema's chunk to other data"
    theirs = blosc2.compress2(
        data,
        codec=blosc2.Codec(e["codec"]),
        clevel=e["clevel"],
        typesize=e["typesize"],
        nthreads=1,
        filters=[blosc2.Filter(f) for f in e["filters"]],
        filters_meta=[0] * 6,
        use_dict=True,
    )
    open(e["theirs"], "wb").write(theirs)


manifest.run(check)
