#!/usr/bin/env python3
"""Checks the declared `rust-version` against what the dependencies need.

The workspace's `rust-version` (Cargo.toml) promises that the published crates build with that
Rust. A dependency that declares a newer `rust-version` breaks the promise for a user on the
declared one, so this script reads `cargo metadata` (the lock file's resolution, offline) and
fails when any package reached by normal or build dependencies from a published crate declares a
rust-version above the workspace's. Run by .ci/run; prints the highest requirement it found.
"""
import json
import subprocess
import sys

PUBLISHED = ["b2schema", "b2schema-chunk", "b2schema-derive", "b2schema-cli"]


def version(v):
    return tuple(int(x) for x in v.split("."))


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
declared = {p["rust_version"] for p in ours}
if len(declared) != 1 or None in declared:
    sys.exit(f"error: the published crates declare rust-version {declared}: one workspace value expected")
msrv = declared.pop()

seen, stack = set(), [p["id"] for p in ours]
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
print(f"rust-version {msrv}; the highest a dependency declares: {worst[1]} {worst[2]} needs {worst[0]}")
too_new = [n for n in needs if version(n[0]) > version(msrv)]
if too_new:
    for rv, name, ver in too_new:
        print(f"error: {name} {ver} needs Rust {rv}, above the workspace's rust-version {msrv}", file=sys.stderr)
    sys.exit(1)
