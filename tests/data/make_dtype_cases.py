#!/usr/bin/env python3
"""Generate tests/data/dtype-cases.json: the ground truth for the Rust dtype parser.

Run with a Python that has numpy (and optionally python-blosc2) installed:

    python3 -m venv /tmp/dtype-venv
    /tmp/dtype-venv/bin/pip install numpy blosc2==4.14.1
    /tmp/dtype-venv/bin/python tests/make_cases.py

Sections of the JSON file:

* ``cases``: dtype strings exactly as python-blosc2 writes them into the ``b2nd`` metalayer
  (``str(dtype)`` when ``dtype.kind == 'V'``, else ``dtype.str``), plus the ``str(dtype)`` names
  that older files carry ("uint8", "float64", ...).  ``numpy`` is the layout NumPy reads back from
  that string (``np.dtype(s)``, falling back to ``np.dtype(ast.literal_eval(s))`` like
  python-blosc2's reader); the parser must agree with it and print the string back byte for byte.
* ``accepted``: other spellings NumPy accepts; the parser must agree with NumPy's layout.
* ``rejected``: strings NumPy rejects; the parser must reject them too.
* ``differential``: random mutations of all the strings above, with NumPy's layout for them (or
  null where NumPy rejects them); the parser must reject what NumPy rejects and agree with NumPy on
  what both accept (it may reject more: see the module docs of dtype.rs).
* ``blosc2_written``: strings read back from the metalayer of files python-blosc2 wrote here.
* ``nonprintable_ranges``: the code points Python's ``str.isprintable`` rejects (``repr`` escapes
  them), as inclusive ranges; ``repr_samples``: ``repr`` of single-character strings.
"""

import ast
import json
import os
import random
import sys
import tempfile
import unicodedata
import warnings

import numpy as np

warnings.simplefilter("ignore")

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "dtype-cases.json")


def written(dt):
    """The string python-blosc2 (blosc2_ext.pyx, b2nd create) stores for `dt`."""
    return str(dt) if dt.kind == "V" else dt.str


def numpy_read(s):
    """What NumPy (and python-blosc2's NDArray.dtype) makes of a stored string."""
    try:
        return np.dtype(s)
    except (TypeError, ValueError, SyntaxError):
        return np.dtype(ast.literal_eval(s))


def tree(dt):
    if dt.fields is not None:
        fields = []
        for name in dt.names:
            fdt, off, *title = dt.fields[name]
            fields.append(
                {"name": name, "title": title[0] if title else None, "offset": off, "dtype": tree(fdt)}
            )
        return {
            "struct": {
                "itemsize": dt.itemsize,
                "alignment": dt.alignment,
                "aligned": bool(dt.isalignedstruct),
                "record": dt.type is not np.void,
                "fields": fields,
            }
        }
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return {
            "subarray": {
                "itemsize": dt.itemsize,
                "alignment": dt.alignment,
                "base": tree(base),
                "shape": list(shape),
            }
        }
    return {"scalar": {"str": dt.str, "itemsize": dt.itemsize, "alignment": dt.alignment}}


# ---------------------------------------------------------------------------------------------
# dtypes python-blosc2 can be handed
# ---------------------------------------------------------------------------------------------

dtypes = []  # (origin, dtype)


def add(origin, spec, **kw):
    dtypes.append((origin, np.dtype(spec, **kw)))


for order in "<>":
    for size in (1, 2, 4, 8):
        add("int", f"{order}i{size}")
        add("uint", f"{order}u{size}")
    for size in (2, 4, 8, 16):
        add("float", f"{order}f{size}")
    for size in (8, 16, 32):
        add("complex", f"{order}c{size}")
    for n in (0, 1, 5, 6, 100, 4096):
        add("unicode", f"{order}U{n}")
    for unit in ["", "Y", "M", "W", "D", "h", "m", "s", "ms", "us", "ns", "ps", "fs", "as"]:
        meta = f"[{unit}]" if unit else ""
        add("datetime", f"{order}M8{meta}")
        add("timedelta", f"{order}m8{meta}")
    for count in (2, 5, 60, 1000, 2147483647):
        add("datetime count", f"{order}M8[{count}s]")
        add("timedelta count", f"{order}m8[{count}ms]")
    add("datetime count", f"{order}M8[3Y]")
    add("datetime count", f"{order}M8[7D]")
    add("timedelta count", f"{order}m8[0s]")
add("bool", "?")
add("object", "O")
for n in (0, 1, 7, 16, 300, 65536, 2147483647):
    add("bytes", f"S{n}")
for n in (0, 1, 16, 300):
    add("void", f"V{n}")

# structured
add("struct", [("a", "<i4"), ("b", "<f8")])
add("struct", [("a", "<f8", (3,)), ("b", [("x", "<i2"), ("y", "|u1")])])
add("struct", [("a", "<f8", (2, 3))])
add("struct", [("a", "<f8", (1,))])
add("struct", [("a", "<f8", (0,))])
add("struct", [("a", ">f8", (2, 0, 3))])
add("struct", [("a", "u1", (46340, 46340))])
add("struct", [("a", "S300"), ("b", "V8"), ("c", "O"), ("d", "?"), ("e", "<U3"), ("f", ">M8[ms]")])
add("struct", [("a", "<U"), ("b", "S"), ("c", "V"), ("d", ">U0")])
add("struct", [("a", "<M8"), ("b", ">m8[3h]"), ("c", "<m8[as]"), ("d", ">c32"), ("e", "<f2")])
add("struct", [])
add("struct", [("", "<i4"), ("", "<f8")])
add("struct", [("f0", "V16")])
add("struct", [("a", ("<f8", (2,)), (3,))])
add("struct", [("a", [("x", "<i2"), ("y", [("p", "u1"), ("q", ">i8", (2,))])], (2, 2)), ("b", "?")])
add("struct title", [(("T", "a"), "<i4")])
add("struct title", [(("title with 'quote'", "a"), "<f8", (2,)), ("b", "<i2")])
add("struct title", {"names": ["a", "b"], "formats": ["u1", "<f8"], "titles": ["T", None]})
nested = "<i4"
for i in range(20):
    nested = [(f"n{i}", nested), ("pad", "u1")]
add("struct deep", nested)
nested = "<i2"
for i in range(10):
    nested = (nested, (2,))
add("struct deep", [("a", nested)])

# field names that need escapes or are non-ASCII
for name in [
    "it's", 'say "hi"', "both ' \"", "back\\slash", "nl\nx", "tab\tcr\r", "nul\x00", "del\x7f",
    "latin\x80\x9f\xa0\xad\xff", "unié中", "emoji 🦀", "zwsp\u200b", "ls\u2028ps\u2029", "bom\ufeff",
    "private\ue000", "unassigned\u0378", "astral unassigned\U000e0080", "astral private\U000f0000",
    "combining e\u0301", "space\u3000", "\\'\"", "", " ", "'", '"', "\\",
]:
    add("name escapes", [(name if name else "x", "<i4"), ("other", "u1")])

# aligned / padded / out-of-order: str(dtype) is the dict form
add("aligned", [("a", "u1"), ("b", "<f8")], align=True)
add("aligned", [("a", "<i4"), ("b", "u1")], align=True)
add("aligned", [("a", "<i4"), ("b", "<i4")], align=True)
add("aligned", [], align=True)
add("aligned", [("a", "u1"), ("b", ">f8", (2,)), ("c", [("x", "u1"), ("y", "<i2")])], align=True)
add("aligned", [("a", "u1"), ("b", [("x", "u1"), ("y", "<f8")])], align=True)
add("aligned", [("a", "u1"), ("b", "<c16"), ("c", "<U2"), ("d", "O"), ("e", "<M8[s]"), ("f", "<f16")], align=True)
add("aligned", {"names": ["a"], "formats": ["u1"], "offsets": [0], "itemsize": 8}, align=True)
add("aligned", {"names": ["a", "b"], "formats": ["u1", ("<f8", (2,))]}, align=True)
add("offsets", {"names": ["a", "b"], "formats": ["<i4", "<f8"], "offsets": [0, 8], "itemsize": 16})
add("offsets", {"names": ["a", "b"], "formats": ["u1", "<f8"], "offsets": [0, 8]})
add("offsets", {"names": ["a", "b"], "formats": ["<f8", "<f8"], "offsets": [8, 0]})
add("offsets", {"names": ["a", "b"], "formats": ["<f8", "<f8"], "offsets": [0, 4], "itemsize": 16})
add("offsets", {"names": ["a"], "formats": [("<f8", (2,))], "offsets": [4], "itemsize": 24})
add("offsets", {"names": ["a", "b"], "formats": [("<f8", (3,)), ([("x", "<i2")], (2,))], "offsets": [0, 40], "itemsize": 48})
add("offsets", {"names": ["a", "b"], "formats": ["u1", [("x", "u1"), ("y", "<f8")]], "offsets": [0, 8], "itemsize": 32})
add("offsets", {"names": ["", "b"], "formats": ["<i4", "<f8"], "offsets": [0, 8], "itemsize": 16})
add("offsets", {"names": [], "formats": [], "itemsize": 4})
add("offsets", {"names": ["a"], "formats": ["u1"], "offsets": [2147483646]})
add("offsets", {"names": ["a", "b"], "formats": ["u1", "u1"], "offsets": [0, 0], "itemsize": 1})
add("offsets", {"names": ["a", "b"], "formats": ["u1", "<f8"], "offsets": [0, 8], "titles": ["x", None], "itemsize": 16})
add(
    "offsets",
    [("a", np.dtype({"names": ["x"], "formats": ["u1"], "offsets": [1], "itemsize": 4})), ("b", "<i4")],
)
add("lossy nested aligned", [("a", np.dtype([("x", "u1"), ("y", "<f8")], align=True))])
add("lossy nested aligned", [("a", np.dtype([("x", "u1"), ("y", "<f8")], align=True)), ("b", "u1")])
add("record", (np.record, [("a", "<i4"), ("b", "<f8")]))
add("record", (np.record, {"names": ["a"], "formats": ["<i4"], "offsets": [4], "itemsize": 8}))

cases = []
for origin, dt in dtypes:
    s = written(dt)
    try:
        back = numpy_read(s)
        readable = True
    except Exception:  # numpy.record: NumPy cannot read its own str() back
        back = dt
        readable = False
    cases.append(
        {
            "origin": origin,
            "written": s,
            "numpy_readable": readable,
            "numpy": tree(back),
            "itemsize": back.itemsize,
            "alignment": back.alignment,
            "original_itemsize": dt.itemsize,
            "numpy_str_of_readback": written(back) if readable else None,
        }
    )

# old files (c-blosc2 dev 2023, python-blosc2 2.x) store str(dtype) for every dtype: NumPy names
for spec in [
    "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
    "float64", "float128", "complex64", "complex128", "complex256", "bool", "object", "datetime64",
    "datetime64[ms]", "datetime64[5s]", "timedelta64", "timedelta64[us]", "timedelta64[3h]",
    "<U5", "|S7", "|V16", ">i4", ">f8", ">M8[ns]",
]:
    dt = np.dtype(spec)
    s = str(dt)
    back = np.dtype(s)
    cases.append(
        {
            "origin": "str(dtype) of old files",
            "written": s,
            "numpy_readable": True,
            "numpy": tree(back),
            "itemsize": back.itemsize,
            "alignment": back.alignment,
            "original_itemsize": dt.itemsize,
            "numpy_str_of_readback": str(back),
        }
    )

# ---------------------------------------------------------------------------------------------
# other spellings NumPy accepts
# ---------------------------------------------------------------------------------------------

accepted_inputs = [
    "=f8", "f8", "|f8", "<u1", ">u1", "=u1", "u1", ">S5", "S5", "=U5", "U5", "|U5", "O8", "|O8", "O4", "O",
    "S", "V", "U", "M8", "M", "m", "m8[1s]", "M8[\u03bcs]", "M8[generic]", "<M8[05s]", "S07", "<i08",
    "?", "b1", "<b1", "uint8", "float64", "bool", "int16", "complex64", "object", "datetime64[ms]",
    "timedelta64", "'<f8'", '"<f8"',
    '[("a", "<i4")]', "[('a', '<i4'),]", "[ ( 'a' , '<i4' ) , ( 'b' , '<f8' , ( 2 , ) , ) ]",
    "[('a','<i4'),('b','<f8')]", "[('a', '<i4', ())]", "[('a', '<f8', 3)]", "[('a', '<f8', [2, 3])]",
    "[('a', '<f8', (3))]", "[('a', '?'), ('b', '|b1'), ('c', 'bool')]", "[('', '<i4'), ('', 'u1')]",
    "[('a', 'float64'), ('b', 'uint8')]", "[('\\x61\\u00e9\\U0001F980\\n\\t\\\\', '<i4')]",
    "[('a\\\nb', '<i4')]", "[('\\101\\7', '<i4')]", "[('\\q', '<i4')]",
    "('<f8', (2, 3))", "('<f8', 1)", "(('<f8', (2,)), (3,))", "('<f8', ())",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8']}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'aligned': True}",
    "{'formats': ['u1', '<f8'], 'aligned': True, 'names': ['a', 'b']}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'itemsize': 24, 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': False}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'aligned': True, }",
    "{'names': ('a', 'b'), 'formats': ('u1', '<f8')}",
    "{'names':['a','b'],'formats':['u1','<f8'],'offsets':[0,8],'itemsize':16}",
    '{"names": ["a"], "formats": ["u1"], "titles": [None]}',
    "{'names': ['a'], 'formats': [[('x', 'u1'), ('y', '<i4')]], 'aligned': True}",
    "{'names': ['a'], 'formats': [('u1', (3,))], 'offsets': [1], 'itemsize': 5, 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['u1', {'names': ['x', 'y'], 'formats': ['u1', '<i4']}], 'aligned': True}",
    "{'names': ['a'], 'formats': [{'names': ['x', 'y'], 'formats': ['u1', '<i4'], 'offsets': [0, 4], 'itemsize': 8, 'aligned': True}]}",
    "{'names': ['a'], 'formats': [('<f8', 0)]}",
    "{'names': [], 'formats': []}",
    "[('a', [('x', 'u1'), ('y', '<f8')])]",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [8, 0], 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['<f8', 'u1'], 'offsets': [0, 8], 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['O', 'u1'], 'offsets': [0, 8], 'itemsize': 9}",
    "{'names': ['a', 'b'], 'formats': [('O', (0,)), 'u1'], 'offsets': [4, 4], 'itemsize': 8}",
    "{'names': ['a', 'b'], 'formats': [('O', (0,)), '<i4'], 'offsets': [4, 0], 'itemsize': 8}",
    "{'names': ['a', 'b', 'c'], 'formats': ['u1', 'O', 'u1'], 'offsets': [0, 1, 9], 'itemsize': 10}",
]
accepted = []
for s in accepted_inputs:
    dt = numpy_read(s)
    accepted.append({"input": s, "numpy": tree(dt), "itemsize": dt.itemsize, "canonical": written(dt)})

# ---------------------------------------------------------------------------------------------
# strings NumPy rejects
# ---------------------------------------------------------------------------------------------

rejected_inputs = [
    "", " ", " <f8", "<f8 ", "<f8\x00", "<", ">", "|", "=", "<i3", "<u16", "<f3", "<f12", "<c4", "<c24",
    "b2", "?1", "S2147483648", "U536870912", "V2147483648", "<M8[B]", "M8[]", "M8[s", "M8[0x5s]", "M4",
    "<M8[2147483648s]", "O16", "Q8", "uint7", "Float64", "int8 ", "datetime64[]",
    "[", "]", "[(", "[('a', '<f8')", "[('a', '<f8'),,]", "[,]", "[('a')]", "[('a',)]", "[('a', '<f8', (2,), 1)]",
    "[['a', '<f8']]", "[('a', '<i3')]", "[('a', '<f8', (-1,))]", "[('a', '<f8', (2147483648,))]",
    "[('a', 'u1', (65536, 65536))]", "[('a', '<f8', (2, ()))]", "[('a', '<f8', " + str((1,) * 65) + ")]",
    "[('a', 'u1'), ('a', 'u1')]", "[(('a', 'b'), 'u1'), ('a', 'u1')]", "[(('a', 'a'), 'u1')]",
    "[('f1', 'u1'), ('', 'u1')]", "[(1, 'u1')]",
    "[('a', 'u1') ('b', 'u1')]", "[('a', 'u1')]]", "[('a', '<f8', (03,))]",
    "[('a\\x4', 'u1')]", "[('a\nb', 'u1')]",
    "{'names': ['a']}", "{'formats': ['u1']}", "{'names': ['a'], 'formats': ['<f8'], 'offsets': [0], 'itemsize': 4}",
    "{'names': ['a'], 'formats': ['<f8'], 'offsets': [-1]}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 4], 'itemsize': 16, 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 20, 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['u1', {'names': ['x', 'y'], 'formats': ['u1', '<i4'], 'offsets': [0, 1], 'itemsize': 5}], 'aligned': True}",
    "{'names': ['a', 'b'], 'formats': ['O', 'O'], 'offsets': [0, 4], 'itemsize': 16}",
    "{'names': ['a', 'b'], 'formats': [('O', (0,)), '<i4'], 'offsets': [5, 4], 'itemsize': 8}",
    "{'names': ['a', 'b'], 'formats': [[('x', 'O')], 'u1'], 'offsets': [0, 7], 'itemsize': 8}",
    "{'names': ['a', 'b'], 'formats': ['u1', ('O', (2,))], 'offsets': [16, 2], 'itemsize': 24}",
    "{'names': ['a', 'b', 'c'], 'formats': ['u1', 'O', '<i2'], 'offsets': [0, 1, 8], 'itemsize': 10}",
    "{'names': ['a'], 'formats': ['u1'], 'itemsize': 2147483648}",
    "{'names': ['a', 'a'], 'formats': ['<f8', '<f8']}",
    "{'names': ['a', 'b'], 'formats': ['u1', '<f8'], 'offsets': [0, 8], 'itemsize': 16, 'titles': None}",
    "{'names': ['a'], 'formats': ['u1'], 'titles': ['a']}",
    "{'names': ['a'] 'formats': ['u1']}",
    "('<f8', (2, 3)", "('<f8', -1)", "('<f8', (2, 3), 4)", "(numpy.void, [('a', 'u1')])",
]
# NumPy accepts these, the parser rejects them on purpose (see the module docs of dtype.rs)
divergent_inputs = [
    "<i", "M8[s/2]", "float", "[('a', 'S2000000000'), ('b', 'S2000000000')]", "[('a', 'u1')] ",
    "[('a\\N{DIGIT ONE}', 'u1')]", "[('\\ud800', 'u1')]", "{'names': ['a'], 'formats': ['u1', 'u1']}",
    "{'names': ['a'], 'formats': ['u1'], 'bogus': 1}",
]
for s in divergent_inputs:
    numpy_read(s)

rejected = []
for s in rejected_inputs:
    try:
        numpy_read(s)
    except Exception:
        rejected.append(s)
    else:
        sys.exit(f"NumPy accepts {s!r}: move it out of the rejected list")

# ---------------------------------------------------------------------------------------------
# differential: random mutations of the strings above, with what NumPy makes of them
# ---------------------------------------------------------------------------------------------

MUTATION_TOKENS = [
    "[", "]", "(", ")", "{", "}", "'", '"', ",", ", ", ":", " ", "0", "1", "2", "8", "16", "<", ">", "|", "=",
    "?", "b", "i", "u", "f", "c", "S", "U", "V", "M", "m", "O", "[s]", "(3,)", "()", "True", "None", "'a'",
    "'u1'", "'<f8'",
]
rng = random.Random(1234)
differential = []
seen = set()
for seed in [c["written"] for c in cases] + [c["input"] for c in accepted]:
    for _ in range(15):
        chars = list(seed)
        for _ in range(1 + rng.randrange(2)):
            n = len(chars)
            at = rng.randrange(n + 1)
            op = rng.randrange(4)
            if op == 0 and n:
                del chars[min(at, n - 1)]
            elif op == 1:
                chars[at:at] = list(rng.choice(MUTATION_TOKENS))
            elif op == 2 and n:
                chars[min(at, n - 1)] = rng.choice(MUTATION_TOKENS)[0]
            elif n:
                start = rng.randrange(n)
                chars[at:at] = chars[start : start + min(rng.randrange(n - start + 1), 8)]
        m = "".join(chars)
        if m in seen:
            continue
        seen.add(m)
        try:
            dt = numpy_read(m)
            t = tree(dt) if isinstance(dt, np.dtype) else None
        except Exception:
            t = None
        differential.append({"input": m, "numpy": t})

# ---------------------------------------------------------------------------------------------
# what python-blosc2 really writes (read back from the metalayer bytes)
# ---------------------------------------------------------------------------------------------

blosc2_written = []
blosc2_version = None
try:
    import blosc2

    blosc2_version = blosc2.__version__
    al = np.dtype([("a", "u1"), ("b", "<f8")], align=True)
    sub = np.dtype([("a", "<f8", (2, 3)), ("b", [("x", "<i2"), ("y", "u1")])])
    makers = [
        ("zeros <f8", lambda p: blosc2.zeros(3, dtype="<f8", urlpath=p, mode="w")),
        ("zeros float64", lambda p: blosc2.zeros(3, dtype="float64", urlpath=p, mode="w")),
        ("zeros u1", lambda p: blosc2.zeros(3, dtype="u1", urlpath=p, mode="w")),
        ("zeros bool", lambda p: blosc2.zeros(3, dtype=bool, urlpath=p, mode="w")),
        ("zeros <U6", lambda p: blosc2.zeros(3, dtype="<U6", urlpath=p, mode="w")),
        ("zeros S7", lambda p: blosc2.zeros(3, dtype="S7", urlpath=p, mode="w")),
        ("zeros complex128", lambda p: blosc2.zeros(3, dtype="complex128", urlpath=p, mode="w")),
        ("zeros >i4", lambda p: blosc2.zeros(3, dtype=">i4", urlpath=p, mode="w")),
        ("zeros >M8[5s]", lambda p: blosc2.zeros(3, dtype=">M8[5s]", urlpath=p, mode="w")),
        ("zeros <m8[s]", lambda p: blosc2.zeros(3, dtype="<m8[s]", urlpath=p, mode="w")),
        ("empty V16", lambda p: blosc2.empty(3, dtype="V16", urlpath=p, mode="w")),
        ("zeros aligned", lambda p: blosc2.zeros(3, dtype=al, urlpath=p, mode="w")),
        ("zeros subarray", lambda p: blosc2.zeros(3, dtype=sub, urlpath=p, mode="w")),
        ("zeros title", lambda p: blosc2.zeros(3, dtype=np.dtype([(("T", "a"), "<i4")]), urlpath=p, mode="w")),
        (
            "zeros offsets",
            lambda p: blosc2.zeros(
                3,
                dtype=np.dtype({"names": ["a", "b"], "formats": ["<i4", "<f8"], "offsets": [0, 8], "itemsize": 16}),
                urlpath=p,
                mode="w",
            ),
        ),
        ("zeros record", lambda p: blosc2.zeros(3, dtype=np.dtype((np.record, [("a", "<i4")])), urlpath=p, mode="w")),
        ("asarray <f8", lambda p: blosc2.asarray(np.zeros(3, dtype="<f8"), urlpath=p, mode="w")),
        ("asarray V16", lambda p: blosc2.asarray(np.zeros(3, dtype="V16"), urlpath=p, mode="w")),
        ("asarray aligned", lambda p: blosc2.asarray(np.zeros(3, dtype=al), urlpath=p, mode="w")),
        ("asarray subarray", lambda p: blosc2.asarray(np.zeros(3, dtype=sub), urlpath=p, mode="w")),
        (
            "asarray names",
            lambda p: blosc2.asarray(
                np.zeros(3, dtype=[("it's \"x\"", "<i4"), ("é\u200b\n", "u1")]), urlpath=p, mode="w"
            ),
        ),
        ("asarray recarray", lambda p: blosc2.asarray(np.rec.array([(1, 2.0)], dtype=[("a", "<i4"), ("b", "<f8")]), urlpath=p, mode="w")),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for label, make in makers:
            path = os.path.join(tmp, "a.b2nd")
            if os.path.exists(path):
                os.remove(path)
            try:
                make(path)
            except Exception:
                pass  # numpy.record: written, then python-blosc2 fails to read its own string back
            raw = open(path, "rb").read()
            # the b2nd metalayer: msgpack fixarray of 7, version 0, ..., dtype_format 0, str32 dtype
            start = raw.find(b"\x97\x00")
            assert start >= 0, label
            schunk = blosc2.open(path, mode="r") if not label.endswith("record") else None
            # locate the str32 that ends the metalayer: the last 0xdb within the metalayer content
            meta_len = None
            if schunk is not None:
                meta = schunk.schunk.meta["b2nd"]
                dtype_str = meta[-1]
            else:
                pos = raw.find(b"\xdb", start)
                n = int.from_bytes(raw[pos + 1 : pos + 5], "big")
                dtype_str = raw[pos + 5 : pos + 5 + n].decode()
            enc = dtype_str.encode()
            idx = raw.find(b"\xdb" + len(enc).to_bytes(4, "big") + enc, start)
            assert idx >= 0, (label, dtype_str)
            blosc2_written.append({"label": label, "written": dtype_str})
except ImportError:
    pass

# ---------------------------------------------------------------------------------------------
# Python's repr of str: which code points it escapes
# ---------------------------------------------------------------------------------------------

ranges = []
start = None
for cp in range(0x110000):
    nonprint = not chr(cp).isprintable()
    if nonprint and start is None:
        start = cp
    elif not nonprint and start is not None:
        ranges.append([start, cp - 1])
        start = None
if start is not None:
    ranges.append([start, 0x10FFFF])
samples = set(range(0, 0x200))
for a, b in ranges:
    samples.update(x for x in (a - 1, a, b, b + 1) if 0 <= x <= 0x10FFFF and not 0xD800 <= x <= 0xDFFF)
repr_samples = [[cp, repr(chr(cp))] for cp in sorted(samples) if not 0xD800 <= cp <= 0xDFFF]
for s in ["it's", 'say "hi"', "both ' \"", "\\'\""]:
    repr_samples.append([s, repr(s)])

doc = {
    "python": sys.version.split()[0],
    "unicode": unicodedata.unidata_version,
    "numpy": np.__version__,
    "blosc2": blosc2_version,
    "cases": cases,
    "accepted": accepted,
    "rejected": rejected,
    "divergent": divergent_inputs,
    "differential": differential,
    "blosc2_written": blosc2_written,
    "nonprintable_ranges": ranges,
    "repr_samples": repr_samples,
}
with open(OUT, "w", encoding="utf-8") as f:
    json.dump(doc, f, ensure_ascii=False, indent=0)
    f.write("\n")
print(
    f"wrote {OUT}: {len(cases)} cases, {len(accepted)} accepted, {len(rejected)} rejected, "
    f"{len(differential)} mutations, {len(blosc2_written)} blosc2, {len(ranges)} ranges, {len(repr_samples)} repr samples"
)
