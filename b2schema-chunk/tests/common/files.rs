//! Helpers of the tests that need nothing but std: reading files (a missing one fails the test,
//! never skips it), listing them, and hand-making a chunk header. Shared with the workspace's
//! test support library (`tests/support/lib.rs` includes this file), so written once.

use std::path::{Path, PathBuf};

/// Reads a file, failing the test with its path when it is missing (never a skip).
pub fn read_file(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Files below `dir` whose name ends with `.ext`, sorted; fails when there is none.
pub fn files_with_ext(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot list {}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    assert!(!out.is_empty(), "no .{ext} file below {}", dir.display());
    out.sort();
    out
}

/// A 32-byte Blosc2 chunk header (version 5, codec version 1) with these fields, the rest zero.
pub fn chunk_header(
    flags: u8,
    typesize: u8,
    nbytes: i32,
    blocksize: i32,
    cbytes: i32,
    b2flags: u8,
) -> Vec<u8> {
    let mut h = vec![0u8; 32];
    h[0] = 5;
    h[1] = 1;
    h[2] = flags;
    h[3] = typesize;
    h[4..8].copy_from_slice(&nbytes.to_le_bytes());
    h[8..12].copy_from_slice(&blocksize.to_le_bytes());
    h[12..16].copy_from_slice(&cbytes.to_le_bytes());
    h[31] = b2flags;
    h
}
