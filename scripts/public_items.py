#!/usr/bin/env python3
"""Counts the public API of the `b2schema` crate from rustdoc's JSON output.

    RUSTC_BOOTSTRAP=1 cargo rustdoc -p b2schema --all-features -- -Z unstable-options --output-format json
    python3 scripts/public_items.py target/doc/b2schema.json

What is counted: every item a user can name from the crate root through public modules and
re-exports (each item once, whatever the number of paths), by kind; then the associated items
a user sees on them (inherent methods and constants of public types, the items of public
traits). Not counted: `#[doc(hidden)]` items (rustdoc leaves them out of its JSON), trait
implementations, fields and enum variants, and the re-exported chunk crate (`b2schema::chunk`,
a crate of its own, not counted). With `--document-hidden-items` after `--output-format json`,
the hidden items are counted too (but not the derive's `__private` module).
"""
import collections
import json
import sys

doc = json.load(open(sys.argv[1] if len(sys.argv) > 1 else "target/doc/b2schema.json"))
index = doc["index"]
kinds = collections.Counter()
assoc = collections.Counter()
seen = set()
external = []


def item(i):
    return index.get(str(i))


def visit(i):
    it = item(i)
    if it is None or i in seen:
        return
    seen.add(i)
    (kind, inner), = it["inner"].items()
    if kind == "use":
        if inner["name"] == "__private":
            return  # the derive's generated code's path, hidden
        target = item(inner["id"]) if inner["id"] is not None else None
        if inner["source"].split("::")[0] == "b2schema_chunk" and target is None:
            external.append(inner["source"])  # the chunk crate, as `b2schema::chunk`
            return
        if target is None:  # an item of another crate (the derive, the chunk crate)
            kinds["re-export of another crate's item"] += 1
            return
        if inner["is_glob"]:
            raise SystemExit(f"glob re-export {inner['source']}: count it by hand")
        return visit(inner["id"])
    if kind == "module" and it["name"] == "__private":
        return  # the derive's generated code's path, hidden (seen with --document-hidden-items)
    kinds[kind] += 1
    if kind == "module":
        for child in inner["items"]:
            visit(child)
    elif kind in ("struct", "enum", "union"):
        for impl_id in inner["impls"]:
            impl = item(impl_id)
            if impl is None or impl["inner"]["impl"]["trait"] is not None:
                continue
            for a in impl["inner"]["impl"]["items"]:
                ai = item(a)
                if ai is not None and ai["visibility"] == "public":
                    assoc[f"{kind} {kind_of(ai)}"] += 1
    elif kind == "trait":
        for a in inner["items"]:
            ai = item(a)
            if ai is not None:
                assoc[f"trait {kind_of(ai)}"] += 1


def kind_of(it):
    return next(iter(it["inner"]))


visit(doc["root"])
print("items by kind:", dict(sorted(kinds.items())))
print("items:", sum(kinds.values()))
print("associated items:", dict(sorted(assoc.items())), "total", sum(assoc.values()))
print("items + associated:", sum(kinds.values()) + sum(assoc.values()))
print("external crates re-exported (not counted):", external)
