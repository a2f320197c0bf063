//! `b2schema diff A B`: how the metadata of two frames, or of two python-blosc2 stores, differ,
//! one line per value.
//!
//! The comparison is of the reports' JSON (the typed reports serialized, as `inspect --json`
//! writes them), flattened to leaves, not a field-by-field comparison of the report structs: a
//! difference is named by the key a user reads in `--json` (`header.typesize`,
//! `vlmetalayers[note].value`), every field the contract gains is compared without code here,
//! and a typed comparison would be a second description of the contract to keep in step.

use std::path::Path;
use std::process::ExitCode;

use b2schema::Limits;
use serde_json::Value;

use crate::input::Input;
use crate::inspect::{self, Options};
use crate::{Failure, open, text};

/// The values of the `inspect --json` reports of `a` and `b` that differ, one line each on
/// stdout: `KEY: A -> B` (`(none)` for a value one of them lacks). The file names and the chunk
/// listing are left out (the chunk summary and count are compared). Exit 0 when the metadata is
/// the same, 1 when it differs (as diff(1)), 2 when a frame cannot be read.
///
/// Two stores (`.b2z`, `.b2d`, `.b2e`) are compared member by member, as `inspect STORE --json`
/// describes each (`members[/KEY].shape: A -> B`; a member only one of them has is `(none)` on
/// the other side); a store and a frame are not compared (exit 2, saying which is which).
pub fn run(a: &Path, b: &Path, limits: Limits) -> Result<ExitCode, Failure> {
    let (ia, ib) = (Input::of(a, 0, limits)?, Input::of(b, 0, limits)?);
    let (left, right) = match (ia.store(), ib.store()) {
        (None, None) => (flat(a, limits)?, flat(b, limits)?),
        (Some(sa), Some(sb)) => (members(a, sa), members(b, sb)),
        (sa, _) => {
            let (store, frame) = if sa.is_some() { (a, b) } else { (b, a) };
            return Err(Failure::Message(format!(
                "{} is a store and {} is not: diff compares two frames or two stores",
                text::path(store),
                text::path(frame)
            )));
        }
    };
    let mut lines = String::new();
    let keys = left.iter().map(|(k, _)| k).chain(right.iter().map(|(k, _)| k));
    let mut seen = std::collections::HashSet::new();
    for key in keys {
        if !seen.insert(key) {
            continue;
        }
        let find = |side: &[(String, String)]| side.iter().find(|(k, _)| k == key).map(|(_, v)| v.clone());
        let (l, r) = (find(&left), find(&right));
        if l != r {
            let none = || "(none)".to_string();
            lines.push_str(&format!(
                "{}: {} -> {}\n",
                text::escape(key),
                text::escape(&l.unwrap_or_else(none)),
                text::escape(&r.unwrap_or_else(none))
            ));
        }
    }
    crate::print(lines.as_bytes())?;
    Ok(if lines.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The report of the frame at `path` as (key, value) pairs, in the report's order.
fn flat(path: &Path, limits: Limits) -> Result<Vec<(String, String)>, Failure> {
    let file = open::validated(path, 0, limits).map_err(|e| open::failure(path, 0, e))?;
    let opts = Options { limits: limits.with_max_items(0), all_chunks: false, recursive: false };
    let report = inspect::report(path, &file, &opts).map_err(|e| open::failure(path, 0, e))?;
    let mut out = Vec::new();
    let Value::Object(m) = report.value() else { return Ok(out) };
    for (k, v) in m {
        if !matches!(k.as_str(), "path" | "path_hex" | "chunks" | "chunks_not_listed") {
            flatten(&k, &v, &mut out);
        }
    }
    Ok(out)
}

/// The members of `store` (at `path`), each as `inspect STORE --json` describes it, as (key,
/// value) pairs under `members[KEY]` (its paths and names left out).
fn members(path: &Path, store: &b2schema::store::Store) -> Vec<(String, String)> {
    let mut out = vec![("store".to_string(), store.form().name().to_string())];
    for m in store.members() {
        let member = crate::report::store::Member::of(path, store, &m.key, &m.place);
        let Value::Object(v) = crate::report::to_value(&member) else { continue };
        for (k, v) in v {
            if !matches!(k.as_str(), "schema" | "path" | "path_hex" | "name" | "store" | "key") {
                flatten(&format!("members[{}].{k}", m.key), &v, &mut out);
            }
        }
    }
    out
}

/// `v` under `key` as leaves; a list of named objects (metalayers, vlmetalayers) is keyed by
/// their names (`vlmetalayers[note].value`), so an added layer is one difference, not a shift.
fn flatten(key: &str, v: &Value, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, v) in m {
                flatten(&format!("{key}.{k}"), v, out);
            }
        }
        Value::Array(items)
            if items.iter().all(|i| i.get("name").is_some_and(Value::is_string)) && !items.is_empty() =>
        {
            for item in items {
                let name = item.get("name").and_then(Value::as_str).unwrap_or("");
                flatten(&format!("{key}[{name}]"), item, out);
            }
        }
        other => out.push((key.to_string(), other.to_string())),
    }
}
