//! Helpers shared by the chunk decoder's tests (`tests/chunk_*.rs`).
#![allow(dead_code)]

pub mod frame;
pub mod sha256;

use std::path::{Path, PathBuf};

/// The `shared/` directory beside the repository (the compat files).
pub fn shared_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared")
}

/// The chunk decoder's test corpus (`tests/chunks/data`).
pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/chunks/data")
}

/// Files below `dir` (recursively) whose name ends with `.ext`, sorted.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}
