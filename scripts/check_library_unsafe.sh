#!/usr/bin/env bash
# Checks the crates the library `b2schema` adds over the chunk codec's tree, with its default
# features on Linux, against the rule of SECURITY.md: no `unsafe` code parses input; a dependency
# whose `unsafe` makes system calls or memory over lengths our safe code fixed, or runs in the
# compiler, is allowed when it is listed with its reason.
#
# For each crate of `cargo tree -p b2schema -e normal` that is not in `cargo tree -p b2schema-chunk`
# (check_decode_unsafe.sh checks those): `#![forbid(unsafe_code)]` at its root, or no line with the
# word `unsafe` in its `.rs` files, or listed in ALLOWED with the version and the count of lines
# with `unsafe` read at the audit (scripts/unsafe_audit.py). The features `https` and the object
# stores have their own scripts. Usage: scripts/check_library_unsafe.sh
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
names() { cargo tree "$@" -e normal --target x86_64-unknown-linux-gnu --prefix none -f '{p}' | awk '{print $1}' | sort -u; }
added=$(comm -13 <(names -p b2schema-chunk) <(names -p b2schema) | grep -v '^b2schema')
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT
cargo metadata --format-version 1 --locked >"$meta" 2>/dev/null || cargo metadata --format-version 1 >"$meta"
python3 - "$meta" "$added" <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.getcwd(), "scripts"))
from unsafe_audit import audit
# name: (version audited, lines with `unsafe` in its .rs files then, the reason it is accepted)
ALLOWED = {
    "memmap2": ("0.9.12", 110,
        "read_elements' large results (Linux): we call only MmapOptions::map_anon (mmap of a length "
        "our code computed and checked against the budget) and MmapMut::advise(HugePage) (madvise "
        "over the map's own range); its unsafe there is those calls, munmap on drop and the slice "
        "over the map's pointer and length; it never sees a byte of a file"),
    "libc": ("0.2.191", 810,
        "declarations of the C library's functions, types and constants (O_NONBLOCK is the one we "
        "name; memmap2 calls mmap, madvise, munmap through it); no code of its own runs on input"),
    "rustix": ("1.1.6", 1669,
        "system calls on descriptors and paths of ours: renameat2(RENAME_EXCHANGE) of a table "
        "directory, posix_fadvise of an output's written range; never a byte of a file"),
    "linux-raw-sys": ("0.12.1", 6932,
        "rustix's generated Linux types and constants (bindgen output: unsafe impls and extern "
        "declarations), no code that reads input"),
    "serde_core": ("1.0.229", 2,
        "from_utf8_unchecked of bytes its own integer formatting wrote (format.rs, the IP address "
        "Display in ser/impls.rs); our serde format parses msgpack in safe code"),
    "proc-macro2": ("1.0.107", 6,
        "compile time only (the derive): literals built from its own checked strings"),
    "syn": ("3.0.9", 95, "compile time only (the derive): parses Rust source in the compiler, never a file's bytes"),
    "unicode-ident": ("1.0.27", 2,
        "compile time only (the derive, through syn): table lookups at offsets its code bounds"),
}
audit(sys.argv[1], sys.argv[2].split(), ALLOWED, "library")
print("library: every crate b2schema adds to the chunk codec's forbids unsafe, has none, or is listed with its reason")
PY
