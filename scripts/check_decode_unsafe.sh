#!/usr/bin/env bash
# Checks that no `unsafe` code parses the untrusted bytes b2schema-chunk reads (chunk headers,
# streams, dictionaries: everything but the encoders, `src/codec/**/encode.rs` or `encode/`, the
# own deflate `src/codec/zlib/deflate/` (whose tests compare it with zlib-rs), and
# the dictionary maker `src/codec/dict.rs`), and says exactly which `unsafe` of a dependency does
# execute on those bytes:
#
#   1. no decode-side source of b2schema-chunk names a compress-only crate (`zlib_rs`, a
#      dev-dependency since issue 52: the own deflate's reference),
#      test modules aside;
#   2. every crate of `cargo tree -p b2schema-chunk -e normal` that the decode side may use has
#      `#![forbid(unsafe_code)]` at its root, or is listed: in ON_BYTES (its `unsafe` executes on
#      bytes from a file, or on values computed from them: SIMD that computes over bounds our safe
#      code fixed and parses nothing, with the tests that hold it to a plain loop or a reference),
#      or in ALLOWED (its `unsafe` never sees those bytes), with the reason;
#   3. each test named in ON_BYTES exists in b2schema-chunk's sources.
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
COMPRESS_ONLY = {"zlib-rs"}
# Crates whose `unsafe` executes on bytes from a file (or values computed from them): what runs,
# why it parses nothing (no length, offset or count is read from the bytes, no branch on them but
# the arithmetic's own), and the tests (`path::name` in b2schema-chunk) that hold it to a plain
# loop or to an independent reference on any bytes.
ON_BYTES = {
    # The zstd decoder's sequence and four-stream Huffman loops (issue 33,
    # src/codec/zstd/dispatch.rs) and the filter kernels (issue 33, `std` feature, x86-64;
    # src/filter/*_avx2.rs, run by src/filter/avx2_kernel.rs). pulp's `unsafe` there: the call of
    # a `#[target_feature]` function (`Simd::vectorize`) made only through a V3 (V4) token that
    # exists after std's is_x86_feature_detected says AVX2/FMA/BMI2 (AVX-512 F/BW/CD/DQ/VL);
    # the intrinsic wrappers (unpack, permute, byte shifts and shuffles, adds, subtracts, and/xor,
    # 64-bit shifts, set1, movemask), register to register; `pulp::cast` (bytemuck) between
    # [u8; 32] and __m256i. The zstd loops call no intrinsic: pulp moves our argument struct
    # (slices and references) into the target-feature function, and the loop inside, which reads
    # the frame, is our safe code compiled for x86-64-v3. The kernels load and store with safe
    # slice copies of fixed width whose bounds our code checks.
    "pulp": ("the call into our safe zstd loops and filter kernels compiled for x86-64-v3 "
             "(v4), the intrinsic wrappers on register values of decoded bytes",
             "no pointer, length or offset from the data: the zstd loops' reading is our safe "
             "code (pulp only calls it), the kernels get 32-byte values our safe code loaded",
             ["codec::zstd::decode::tests::both_builds_decode_alike",
              "codec::zstd::decode::tests::the_v3_build_runs_where_the_cpu_has_it",
              "filter::shuffle::tests::fast_unshuffle_equals_the_plain_loop",
              "filter::bitshuffle::tests::fast_bitunshuffle_equals_the_plain_loop",
              "filter::bytedelta::tests::decode_matches_its_definition",
              "filter::bytedelta::tests::decode_unshuffle_is_both_undone"]),
    "bytemuck": ("pulp::cast between [u8; 32] and __m256i ([u8; 64] and __m512i with pulp's "
                 "x86-v4): transmutes of decoded bytes' register values, its Pod bounds justify; "
                 "and b2schema's typed reads: cast_slice_mut of the caller's number buffer to its "
                 "bytes, which the decoders fill (a layout cast over the buffer's own length)",
                 "a transmute of a fixed-size value; nothing read, nothing indexed",
                 ["filter::shuffle::tests::fast_unshuffle_equals_the_plain_loop",
                  "filter::bitshuffle::tests::fast_bitunshuffle_equals_the_plain_loop"]),
    # (The zstd encoder's row finder also uses safe_arch, src/codec/zstd/encode/match_row.rs:
    # prefetch_t0 of table lines it holds by reference, SSE2 compares of 16 tags; encoders are
    # outside this check, and its masks are held to the SWAR loop by
    # codec::zstd::encode::match_row::tests::the_sse2_tag_mask_is_the_swar_mask.)
    "safe_arch": ("safe wrappers of the SSE2 intrinsics (every x86-64 CPU): the byte unshuffle, "
                  "bitunshuffle's bit step and bytedelta where AVX2 leaves off (and always "
                  "without `std`), on 16-byte values of decoded blocks",
                  "register-to-register arithmetic on [u8; 16] values our safe code took from "
                  "slices it bounded; no pointer from the data",
                  ["filter::shuffle::tests::fast_unshuffle_equals_the_plain_loop",
                   "filter::bitshuffle::tests::fast_bitunshuffle_equals_the_plain_loop",
                   "filter::bytedelta::tests::decode_matches_its_definition"]),
    # zlib's inflate with std is fdeflate (#![forbid(unsafe_code)]), which checks each stream's
    # Adler-32 with simd-adler32 (0.3, ~36 uses of unsafe, audited at 0.3.10): scalar code, or
    # SSE2/SSSE3/AVX2/AVX-512 chosen at run time by std's feature detection; every load reads a
    # block of exactly its width taken by `chunks_exact` from the decoded bytes' slice (16, 32 or
    # 64 bytes), the rest goes through the scalar loop.
    "simd_adler32": ("the Adler-32 of the bytes fdeflate decoded (SIMD loads of whole "
                     "chunks_exact blocks, target features checked at run time)",
                     "a sum over a slice it is given; the slice's bounds are fdeflate's safe "
                     "code's, the loads never past a whole block of it",
                     ["codec::zlib::inflate_tests::streams_decode_to_their_data",
                      "codec::zlib::inflate_tests::changed_streams_agree_with_the_reference"]),
}
# Crates with `unsafe` inside that the decode side may use but whose `unsafe` never sees the
# bytes from a file, and why.
ALLOWED = {
    "raw_cpuid": "pulp's CPU feature detection without std (the cpuid instruction; with our std feature pulp uses std's detection); sees no input",
    "bitflags": "raw-cpuid's flag types (its unsafe: bytemuck Pod impls of the flag types); sees no input",
    "libm": "pulp's float math helpers; not called by our kernels, sees no chunk bytes",
    "num_complex": "pulp's complex types (bytemuck impls); not called by our kernels",
    "num_traits": "a dependency of num-complex (1 use of unsafe); not called by our kernels",
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
        dirs = rel.split(os.sep)[:-1]
        encoder = f == "encode.rs" or "encode" in dirs or dirs[-2:] == ["zlib", "deflate"]
        if not f.endswith(".rs") or encoder or rel == os.path.join("codec", "dict.rs"):
            continue
        text = open(os.path.join(dirpath, f)).read()
        text = strip_tests(text)
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("//")[0]
            if re.search(r"\bzlib_rs\b", code):
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
    elif name.replace("-", "_") in ON_BYTES:
        what, why, tests = ON_BYTES[name.replace("-", "_")]
        print(f"on bytes {name} {p['version']}: unsafe executes on bytes from a file: {what}; parses nothing: {why}; shown by {', '.join(tests)}")
    elif name.replace("-", "_") in ALLOWED:
        print(f"allowed {name} {p['version']}: {ALLOWED[name.replace('-', '_')]}")
    else:
        bad.append(f"{name} {p['version']}: on the decode side's dependency tree without #![forbid(unsafe_code)]")
for name in sorted(COMPRESS_ONLY):
    print(f"compress only (not named by decode-side code): {name}")
# 3. The tests named in ON_BYTES exist (`fn name` in `src/<path>.rs` or in its module's file).
for name, (_, _, tests) in sorted(ON_BYTES.items()):
    for t in tests:
        parts = t.split("::")
        mod, fn = parts[:-1], parts[-1]
        found = False
        for k in range(len(mod), 0, -1):
            for f in (os.path.join(src, *mod[:k]) + ".rs", os.path.join(src, *mod[:k], "mod.rs")):
                if os.path.exists(f) and re.search(r"\bfn " + re.escape(fn) + r"\b", open(f).read()):
                    found = True
        if not found:
            bad.append(f"{name}: the test {t} named in ON_BYTES is not in b2schema-chunk/src")
if bad:
    print("\n".join(bad))
    sys.exit(1)
print("decode path: no unsafe code parses chunk bytes; the dependencies' unsafe that executes on "
      "them (`on bytes` above: SIMD dispatch and arithmetic over bounds our safe code fixed) parses nothing")
PY
