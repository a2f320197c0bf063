//! What the chunk codec's tests share: the shapes of data the property tests compress, and where
//! the repository's test data lives (`tests/data/` at the workspace root: the chunk corpus and the
//! compat files, with their provenance in `tests/data/README.md`).

use std::path::{Path, PathBuf};

use proptest::prelude::*;

/// Up to `max_len` bytes of one kind: noise, runs, a slow float64 signal with noise, or words
/// repeated at a distance with a stray byte now and then.
pub fn data(max_len: usize) -> impl Strategy<Value = Vec<u8>> {
    (0usize..4, 0..max_len, any::<u64>()).prop_map(|(kind, n, seed)| {
        let mut s = seed | 1;
        let mut next = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        match kind {
            0 => (0..n).map(|_| next() as u8).collect(),
            1 => (0..n).map(|i| (i / (1 + (seed % 50) as usize)) as u8).collect(),
            2 => (0..n / 8)
                .flat_map(|i| ((i as f64 * 0.01).sin() * 1e3 + (next() % 4) as f64).to_le_bytes())
                .collect(),
            _ => {
                let words: [&[u8]; 7] = [b"lz4 ", b"zstd ", b"blosc ", b"chunk ", b"of ", b"the ", b"\n"];
                let mut v = Vec::with_capacity(n);
                while v.len() < n {
                    v.extend_from_slice(words[(next() % 7) as usize]);
                    if next() % 16 == 0 {
                        v.push(next() as u8);
                    }
                }
                v.truncate(n);
                v
            }
        }
    })
}

/// The workspace's test data: `tests/data/`.
pub fn data_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data")
}

/// `tests/data/chunks/<rel>`: the chunk decoder's corpus.
pub fn chunk_corpus(rel: &str) -> PathBuf {
    data_root().join("chunks").join(rel)
}

/// `tests/data/compat/<rel>`: real files from older Blosc writers.
pub fn compat_file(rel: &str) -> PathBuf {
    data_root().join("compat").join(rel)
}

/// Reads a file, failing the test with its path when it is missing (never a skip).
pub fn read_file(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// Reads a compat file.
pub fn read_compat(rel: &str) -> Vec<u8> {
    read_file(&compat_file(rel))
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
