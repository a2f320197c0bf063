//! What the chunk codec's tests share: the shapes of data the property tests compress, and where
//! the repository's test data lives (`tests/data/` at the workspace root: the chunk corpus and the
//! compat files, with their provenance in `tests/data/README.md`).

use std::path::{Path, PathBuf};

mod files;
pub use files::{chunk_header, files_with_ext, read_file};

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

/// Reads a compat file.
pub fn read_compat(rel: &str) -> Vec<u8> {
    read_file(&compat_file(rel))
}
