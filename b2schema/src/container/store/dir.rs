//! The members of a `.b2d` directory store: its files with a member suffix, at any depth
//! (`g/x.b2nd` is `/g/x`), beside `embed.b2e` at its root. Symbolic links to directories are
//! not followed (python-blosc2's `os.walk` does not follow them either); the walk is bounded.

use std::path::Path;

use alloc::vec::Vec;

use super::key::{self, EMBED_NAME};
use super::member::{Member, Place};
use crate::container::error::{Error, Result};
use crate::container::limits::{Limit, Limits};

/// How deep the directories of a store may nest.
const MAX_DEPTH: usize = 64;

/// The members of the directory store at `root`, and whether it has an `embed.b2e`.
pub fn members(root: &Path, limits: &Limits) -> Result<(Vec<Member>, bool)> {
    let mut out = Vec::new();
    let mut seen = 0u64;
    walk(root, root, 0, limits, &mut seen, &mut out)?;
    let embed = std::fs::symlink_metadata(root.join(EMBED_NAME)).is_ok();
    Ok((out, embed))
}

fn walk(
    root: &Path,
    dir: &Path,
    depth: usize,
    limits: &Limits,
    seen: &mut u64,
    out: &mut Vec<Member>,
) -> Result<()> {
    if depth > MAX_DEPTH {
        return Err(Error::invalid("store directories nested at most", MAX_DEPTH, depth, 0).in_field("path"));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| Error::from(e).in_field("path"))?;
    for entry in entries {
        let entry = entry.map_err(|e| Error::from(e).in_field("path"))?;
        *seen += 1;
        limits.require("the entries of a store directory (counted as chunks)", *seen, Limit::Chunks, 0)?;
        let path = entry.path();
        let file_type = entry.file_type().map_err(|e| Error::from(e).in_field("path"))?;
        if file_type.is_dir() {
            walk(root, &path, depth + 1, limits, seen, out)?;
            continue;
        }
        if depth == 0 && entry.file_name() == EMBED_NAME {
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else { continue };
        let Some(rel) = rel.to_str() else {
            return Err(Error::invalid("a UTF-8 file name", "UTF-8", rel.display(), 0).in_field("path"));
        };
        let rel = rel.replace(std::path::MAIN_SEPARATOR, "/");
        if let Some(k) = key::of_member(&rel)? {
            out.push(Member { key: k, place: Place::File(path) });
        }
    }
    Ok(())
}
