#!/usr/bin/env python3
"""Checks the declared `rust-version` against what the dependencies need.

The workspace's `rust-version` (Cargo.toml) promises that the published crates build with that
Rust (b2schema-zarrs declares its own, zarrs' 1.91; b2schema-datafusion DataFusion's 1.94). A dependency that declares a newer
`rust-version` breaks the promise for a user on the declared one, so this script reads `cargo
metadata` (the lock file's resolution, offline) and fails when any package reached by normal or
build dependencies from a published crate declares a rust-version above that crate's. Run by
.ci/run; prints the highest requirement it found for each crate.
"""
import json
import subprocess
import sys

PUBLISHED = ["b2schema", "b2schema-format", "b2schema-chunk", "b2schema-derive", "b2schema-cli", "b2schema-zarrs", "b2schema-object-store", "b2schema-datafusion"]
# The crates that take the workspace's rust-version (b2schema-zarrs declares zarrs' own, higher).
WORKSPACE_MSRV = ["b2schema", "b2schema-format", "b2schema-chunk", "b2schema-derive", "b2schema-cli", "b2schema-object-store"]


def version(v):
    """`1.94` and `1.94.0` alike."""
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


meta = json.loads(
    subprocess.run(
        ["cargo", "metadata", "--format-version", "1", "--all-features", "--locked"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
)
packages = {p["id"]: p for p in meta["packages"]}
nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
ours = [p for p in meta["packages"] if p["name"] in PUBLISHED and p["source"] is None]
declared = {p["rust_version"] for p in ours if p["name"] in WORKSPACE_MSRV}
if len(declared) != 1 or None in declared:
    sys.exit(f"error: the published crates declare rust-version {declared}: one workspace value expected")


def check(crate):
    """Every package `crate` reaches by normal or build dependencies needs at most its rust-version."""
    msrv = crate["rust_version"]
    if msrv is None:
        return [f"error: {crate['name']} declares no rust-version"]
    seen, stack = set(), [crate["id"]]
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        for dep in nodes[pid]["deps"]:
            if any(k["kind"] in (None, "build") for k in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    needs = sorted(
        ((packages[p]["rust_version"], packages[p]["name"], packages[p]["version"]) for p in seen if packages[p].get("rust_version")),
        key=lambda t: version(t[0]),
    )
    worst = needs[-1]
    print(f"{crate['name']}: rust-version {msrv}; the highest a dependency declares: {worst[1]} {worst[2]} needs {worst[0]}")
    return [
        f"error: {name} {ver} needs Rust {rv}, above {crate['name']}'s rust-version {msrv}"
        for rv, name, ver in needs
        if version(rv) > version(msrv)
    ]


errors = [e for crate in sorted(ours, key=lambda p: p["name"]) for e in check(crate)]
for e in errors:
    print(e, file=sys.stderr)
sys.exit(1 if errors else 0)
