#!/usr/bin/env bash
# Checks that the code of b2schema-chunk that reads untrusted bytes (chunk headers, streams,
# dictionaries: everything but the encoders, `src/codec/**/encode.rs` or `encode/`, and the dictionary maker
# `src/codec/dict.rs`) uses no crate with `unsafe` code:
#
#   1. no decode-side source of b2schema-chunk names a compress-only crate (`rusty_zstd`,
#      `zlib_rs`), test modules aside;
#   2. every crate of `cargo tree -p b2schema-chunk -e normal` that the decode side may use has
#      `#![forbid(unsafe_code)]` at its root, except those listed in ALLOWED with the reason.
#
# b2schema-chunk itself is `#![forbid(unsafe_code)]` (src/lib.rs). Usage: scripts/check_decode_unsafe.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
cargo metadata --format-version 1 --locked 2>/dev/null >/tmp/b2-decode-unsafe-meta.json || cargo metadata --format-version 1 >/tmp/b2-decode-unsafe-meta.json
tree=$(cargo tree -p b2schema-chunk -e normal --prefix none -f '{p}' | awk '{print $1}' | sort -u)
python3 - "$tree" <<'PY'
import json, os, re, sys
ROOT = os.getcwd()
COMPRESS_ONLY = {"rusty_zstd", "zlib-rs"}
# Crates with `unsafe` inside that the decode side uses, and why that is accepted.
ALLOWED = {
    "safe_arch": "safe wrappers of the SSE2 intrinsics (the byte unshuffle of decoded blocks); "
                 "no parsing: it reads only slices whose bounds the caller's safe code checked",
    # AVX2 chosen at run time (issue 33; `std` feature, x86-64; src/filter/*_avx2.rs, run by
    # src/filter/avx2_kernel.rs), and the crates pulp brings. Decoded bytes reach pulp only as
    # register values: our kernels load and store with safe slice copies whose bounds our code
    # checks, and call only pulp's register-to-register wrappers (unpack, permute, byte shifts
    # and shuffles, adds, subtracts, and/xor, 64-bit shifts, set1, movemask) and `pulp::cast`
    # ([u8; 32] <-> __m256i). The zstd decoder's sequence and Huffman loops (issue 33,
    # src/codec/zstd/decode/dispatch.rs) run through `vectorize` too, to be compiled for
    # x86-64-v3 (BMI2): pulp moves our argument struct (slices and references) into its
    # target-feature function, and the loop inside is our safe code; it calls no intrinsic.
    "pulp": "runtime SIMD dispatch: a V3 (V4) token made only after std's is_x86_feature_detected "
            "says AVX2/FMA (AVX-512 F/BW/CD/DQ/VL), `Simd::vectorize` runs our safe kernel compiled "
            "for those features; its "
            "unsafe (about 1600 uses) is the intrinsic wrappers, the target-feature call and "
            "masked loads we do not use; no parsing, no pointer from our data",
    "bytemuck": "pulp::cast between [u8; 32] and __m256i, [u8; 64] and __m512i (all Pod; the "
                "latter with its avx512_simd feature, which pulp's x86-v4 turns on); unsafe confined to "
                "transmutes its Pod bounds justify; no parsing",
    "raw_cpuid": "pulp's CPU feature detection without std (the cpuid instruction; with our std feature pulp uses std's detection); sees no input",
    "bitflags": "raw-cpuid's flag types (its unsafe: bytemuck Pod impls of the flag types); sees no input",
    "libm": "pulp's float math helpers; not called by our kernels, sees no chunk bytes",
    "num_complex": "pulp's complex types (bytemuck impls); not called by our kernels",
    "num_traits": "a dependency of num-complex (1 use of unsafe); not called by our kernels",
    # zlib's inflate with std is fdeflate (#![forbid(unsafe_code)]), which checks each stream's
    # Adler-32 with simd-adler32 (0.3, ~36 uses of unsafe, audited at 0.3.10): scalar code, or
    # SSE2/SSSE3/AVX2/AVX-512 chosen at run time by std's feature detection; every load reads a
    # block of exactly its width taken by `chunks_exact` from the decoded bytes' slice (16, 32 or
    # 64 bytes), the rest goes through the scalar loop; no parsing, no pointer from the data.
    "simd_adler32": "Adler-32 of the decoded bytes for fdeflate: SIMD loads of whole chunks_exact "
                    "blocks of a slice it is given, target features checked at run time; no parsing",
    "cfg_if": "no unsafe code (a macro), no forbid attribute",
    "paste": "a proc-macro run at build time; no unsafe code",
    "reborrow": "no unsafe code, no forbid attribute; pulp's reborrow traits",
    "pulp_wasm_simd_flag": "no unsafe code, no forbid attribute; pulp's wasm flag",
}
bad = []


def strip_tests(text):
    """The text without its test modules (`#[cfg(..test..)] mod name { .. }`, braces matched;
    lines kept so that line numbers hold)."""
    out, at = [], 0
    for m in re.finditer(r"#\[cfg\([^\]]*\btest\b[^\]]*\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < at:
            continue
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        out.append(text[at:m.start()])
        out.append("\n" * text.count("\n", m.start(), i))
        at = i
    out.append(text[at:])
    return "".join(out)


# 1. The decode side names no compress-only crate.
src = os.path.join(ROOT, "b2schema-chunk", "src")
for dirpath, _, files in os.walk(src):
    for f in files:
        rel = os.path.relpath(os.path.join(dirpath, f), src)
        encoder = f == "encode.rs" or "encode" in rel.split(os.sep)[:-1]
        if not f.endswith(".rs") or encoder or rel == os.path.join("codec", "dict.rs"):
            continue
        text = open(os.path.join(dirpath, f)).read()
        text = strip_tests(text)
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0]
            if re.search(r"\b(rusty_zstd|zlib_rs)\b", code):
                bad.append(f"{os.path.relpath(os.path.join(dirpath, f), ROOT)}:{n}: decode-side code names a compressor crate: {line.strip()}")
# 2. Every other dependency forbids unsafe code, or is listed.
meta = json.load(open("/tmp/b2-decode-unsafe-meta.json"))
paths = {p["name"]: p for p in meta["packages"]}
for name in sys.argv[1].split():
    if name in ("b2schema-chunk",) or name in COMPRESS_ONLY:
        continue
    p = paths.get(name)
    if p is None:
        bad.append(f"{name}: not found in cargo metadata")
        continue
    lib = next((t["src_path"] for t in p["targets"] if "lib" in t["kind"]), None)
    ok = lib and re.search(r"#!\[forbid\(unsafe_code\)\]", open(lib).read())
    if ok:
        print(f"ok      {name} {p['version']}: #![forbid(unsafe_code)]")
    elif name.replace("-", "_") in ALLOWED:
        print(f"allowed {name} {p['version']}: {ALLOWED[name.replace('-', '_')]}")
    else:
        bad.append(f"{name} {p['version']}: on the decode side's dependency tree without #![forbid(unsafe_code)]")
for name in sorted(COMPRESS_ONLY):
    print(f"compress only (not named by decode-side code): {name}")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("decode path: no crate with unsafe code reads chunk bytes")
PY
