#!/usr/bin/env bash
# The crates the object-store adapter (b2schema-object-store) adds to the library's tree, each
# with the lines of its `.rs` files that have the word `unsafe`, checked against the listing
# read at the audit (scripts/object_store_unsafe.txt): a crate added, dropped, or of another
# version or count fails here until the listing is read again and regenerated
# (`scripts/check_object_store_unsafe.sh --write`).
#
# Scope, and why this tree is not held to the rule of check_decode_unsafe.sh and
# check_https_unsafe.sh (SECURITY.md, "Object stores"): this tree is object_store's own network
# stack (tokio, hyper, h2, httparse, reqwest, rustls with aws-lc-rs, quick-xml), which parses
# HTTP and XML from the store's server with `unsafe` in places; it is the client the user chose
# by naming an s3://, gs:// or az:// URL, and the core library never links it. What it hands
# over is bytes, which b2schema checks as any file's: the parsing of frames, chunks and stores
# stays the library's, under the two scripts above, which this one does not replace.
# Usage: scripts/check_object_store_unsafe.sh [--write]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
names() { cargo tree -p "$1" -e normal --prefix none -f '{p}' | awk '{print $1}' | sort -u; }
added=$(comm -13 <(names b2schema) <(names b2schema-object-store) | grep -vx b2schema-object-store)
# The versions of the object-store tree (other crates of the workspace bring other versions of
# some names: DataFusion's object_store, hashbrown, rand).
versions=$(cargo tree -p b2schema-object-store -e normal --prefix none -f '{p}' | awk '{print $1 "@" substr($2, 2)}' | sort -u)
meta=$(mktemp)
trap 'rm -f "$meta"' EXIT
cargo metadata --format-version 1 --locked >"$meta" 2>/dev/null || cargo metadata --format-version 1 >"$meta"
python3 - "$meta" "$added" "${1:-}" "$versions" <<'PY'
import json, os, re, sys
meta = json.load(open(sys.argv[1]))
listing = "scripts/object_store_unsafe.txt"
# The versions cargo tree shows for each name.
in_tree = set(sys.argv[4].split())
packages = {}
for p in meta["packages"]:
    if p["source"] is not None and f"{p['name']}@{p['version']}" in in_tree:
        packages.setdefault(p["name"], []).append(p)
rows = []
for name in sorted(sys.argv[2].split()):
    for p in packages.get(name, []):
        lib = next((t["src_path"] for t in p["targets"] if "lib" in t["kind"] or "proc-macro" in t["kind"]), None)
        if lib is None:
            continue
        src = os.path.dirname(lib)
        n = 0
        for d, _, files in os.walk(src):
            for f in files:
                if f.endswith(".rs"):
                    n += sum(1 for l in open(os.path.join(d, f), errors="replace") if re.search(r"\bunsafe\b", l))
        forbid = bool(re.search(r"#!\[forbid\(unsafe_code", open(lib, errors="replace").read()))
        rows.append(f"{name} {p['version']} {n}{' forbid' if forbid else ''}")
text = "".join(r + "\n" for r in rows)
if sys.argv[3] == "--write":
    open(listing, "w").write(text)
    print(f"wrote {listing}: {len(rows)} crates")
    sys.exit(0)
old = open(listing).read() if os.path.exists(listing) else ""
if old != text:
    import difflib
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True), listing, "now"))
    sys.exit(f"error: the object-store tree differs from {listing}: read the changed crates, then --write")
with_unsafe = [r for r in rows if r.split()[2] != "0" and not r.endswith("forbid")]
print(f"object-store tree: {len(rows)} crates as listed in {listing}, {len(with_unsafe)} with unsafe (scope: SECURITY.md, Object stores)")
PY
