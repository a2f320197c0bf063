"""Blosc1-format chunks against c-blosc 1.x (numcodecs' Blosc), both ways, in one python process.

Run by tests/chunk_blosc1_python.rs with the pinned environment of scripts/pyenv.sh:
    python blosc1_chunks.py MANIFEST.json
For every entry: numcodecs decompresses the chunk b2schema wrote ("ours") and compares it with
the data; then numcodecs compresses the same data with the same parameters on one thread
("theirs", c-blosc 1.x's `blosc_compress` on one thread, in the entry's split mode) for the Rust side to
decode and compare byte for byte. Prints one line per failure and a summary; exits 1 if any
check failed.
"""
import os

import numcodecs.blosc as nb

import manifest  # tests/python/manifest.py, beside this script

# c-blosc 1.x's global context (blosc_compress) on one thread: its threads store blocks in the
# order they finish, so only a single thread writes a deterministic chunk; the global path reads
# the split mode from BLOSC_SPLITMODE (numcodecs has no parameter for it).
nb.use_threads = True
nb.set_nthreads(1)
SHUFFLES = {"noshuffle": nb.NOSHUFFLE, "shuffle": nb.SHUFFLE, "bitshuffle": nb.BITSHUFFLE}


def check(e):
    data = open(e["data"], "rb").read()
    ours = open(e["ours"], "rb").read()
    os.environ["BLOSC_SPLITMODE"] = e["split"]
    theirs = nb.compress(
        data, e["cname"].encode(), e["clevel"], SHUFFLES[e["shuffle"]], e["blocksize"], typesize=e["typesize"]
    )
    if data:
        got = nb.decompress(ours)
        assert bytes(got) == data, "numcodecs decompresses b2schema's chunk to other data"
    else:
        # numcodecs refuses every empty chunk, its own too (c-blosc returns 0 bytes, which it
        # takes for an error): the empty chunk must then be c-blosc 1.x's own, byte for byte.
        assert ours == theirs, f"empty chunk {ours.hex()}, c-blosc 1.x writes {theirs.hex()}"
    open(e["theirs"], "wb").write(theirs)


print("c-blosc", nb.VERSION_STRING)
manifest.run(check)
