"""The audit both `check_https_unsafe.sh` and `check_library_unsafe.sh` run: each crate named is
`#![forbid(unsafe_code)]` at its root, has no line with the word `unsafe` in its `.rs` files, or is
listed in the script's ALLOWED with the version audited, the count of lines with `unsafe` read
then, and the reason it is accepted (a new version or another count fails until it is read again).

    audit(metadata_json_path, names, allowed, label, extra_check=None) -> exits 1 on a failure
"""
import json
import os
import re
import sys


def unsafe_lines(src_dir):
    """Lines with the word `unsafe` in the `.rs` files under `src_dir`: the total and per file."""
    n, where = 0, {}
    for dirpath, _, files in os.walk(src_dir):
        for f in files:
            if f.endswith(".rs"):
                path = os.path.join(dirpath, f)
                k = sum(1 for line in open(path, errors="replace") if re.search(r"\bunsafe\b", line))
                if k:
                    n += k
                    where[os.path.relpath(path, src_dir)] = k
    return n, where


def audit(meta_path, names, allowed, label, extra_check=None):
    meta = json.load(open(meta_path))
    packages = {p["name"]: p for p in meta["packages"]}
    bad = []
    for name in names:
        p = packages.get(name)
        if p is None:
            bad.append(f"{name}: not found in cargo metadata")
            continue
        lib = next((t["src_path"] for t in p["targets"] if set(t["kind"]) & {"lib", "proc-macro", "rlib"}), None)
        src_dir = os.path.dirname(lib)
        n, where = unsafe_lines(src_dir)
        if re.search(r"#!\[forbid\(unsafe_code", open(lib).read()):
            print(f"ok      {name} {p['version']}: #![forbid(unsafe_code)]")
        elif n == 0:
            print(f"ok      {name} {p['version']}: no unsafe code (0 lines with the word)")
        elif name in allowed:
            version, audited, why = allowed[name]
            if (p["version"], n) != (version, audited):
                bad.append(f"{name} {p['version']}: {n} lines with unsafe, audited {audited} at {version}: "
                           "read it again and update ALLOWED")
                continue
            problem = extra_check(name, src_dir, where) if extra_check else None
            if problem:
                bad.append(problem)
                continue
            print(f"allowed {name} {p['version']} ({n} lines with unsafe): {why}")
        else:
            bad.append(f"{name} {p['version']}: in the {label} tree with {n} lines with unsafe and not listed: {where}")
    if bad:
        print("\n".join(bad))
        sys.exit(1)
