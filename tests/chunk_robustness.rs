//! Robustness: for every test chunk, every truncation (with and without
//! `cbytes` patched to the new length) and a few thousand random single-byte
//! mutations must give `Ok` or `Err` — never a panic, a hang or a huge
//! allocation (outputs are capped with `decompress_with_limit`).

use b2schema_tests::frame_chunks;
use b2schema_tests::{Rng, chunk_corpus, compat_file, files_with_ext};
use std::panic::{AssertUnwindSafe, catch_unwind};

use b2schema::chunk::{ChunkHeader, decompress_into, decompress_with_limit};

/// Output cap for mutated chunks (a mutated special chunk may claim 2 GB).
const LIMIT: usize = 1 << 24;

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for p in files_with_ext(&chunk_corpus("chunks"), "chunk") {
        out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    for p in files_with_ext(&chunk_corpus("frames"), "b2nd")
        .into_iter()
        .chain(files_with_ext(&chunk_corpus("frames"), "b2frame"))
    {
        let bytes = std::fs::read(&p).unwrap();
        for (i, c) in frame_chunks::chunks(&bytes).unwrap().iter().enumerate() {
            out.push((format!("{} chunk {i}", p.display()), c.bytes().to_vec()));
        }
    }
    for p in files_with_ext(&compat_file("c-blosc2/compat"), "cdata") {
        out.push((p.display().to_string(), std::fs::read(&p).unwrap()));
    }
    out
}

/// Runs the decoder on `bytes`, turning a panic into a test failure that
/// names the input.  `into` also exercises `decompress_into` with a
/// destination one byte too small.
fn must_not_panic(what: &str, bytes: &[u8], into: bool) {
    let r = catch_unwind(AssertUnwindSafe(|| {
        let a = decompress_with_limit(bytes, LIMIT);
        if let (true, Ok(h)) = (into, ChunkHeader::parse(bytes)) {
            let n = h.uncompressed_len();
            if n > 0 && n <= LIMIT {
                let mut small = vec![0u8; n - 1];
                assert!(decompress_into(bytes, &mut small).is_err());
            }
        }
        a.map(|v| v.len())
    }));
    if r.is_err() {
        panic!("decoder panicked on {what}");
    }
}

/// Number of mutations per chunk (`B2CHUNK_MUTATIONS` overrides; 300 keeps the suite fast,
/// 20000 per chunk ran clean once).
fn mutations_for(nbytes: usize) -> usize {
    let base = std::env::var("B2CHUNK_MUTATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(300usize);
    // Chunks that decode to megabytes (the c-blosc2 compat files) get fewer.
    if nbytes > (1 << 20) { (base / 50).max(10) } else { base }
}

fn patch_cbytes(chunk: &mut [u8]) {
    let n = chunk.len() as i32;
    if chunk.len() >= 16 {
        chunk[12..16].copy_from_slice(&n.to_le_bytes());
    }
}

fn hammer(items: &[(String, Vec<u8>)], seed: u64) -> (usize, usize) {
    let mut rng = Rng(seed | 1);
    let (mut truncations, mut mutations) = (0, 0);
    for (name, chunk) in items {
        let len = chunk.len();
        // Truncations: every length up to 256 bytes, then ~400 points.
        let step = (len / 400).max(1);
        let mut cut = 0;
        while cut < len {
            let mut t = chunk[..cut].to_vec();
            must_not_panic(&format!("{name} truncated to {cut}"), &t, false);
            patch_cbytes(&mut t);
            must_not_panic(&format!("{name} truncated to {cut}, cbytes patched"), &t, false);
            truncations += 2;
            cut += if cut < 256 { 1 } else { step };
        }
        // Random single-byte mutations; fewer for the 4 MB compat chunks.
        let nbytes = ChunkHeader::parse(chunk).map(|h| h.uncompressed_len()).unwrap_or(0);
        let count = mutations_for(nbytes);
        let mut m = chunk.clone();
        for _ in 0..count {
            // Half of the mutations hit the header and bstarts, where sizes live.
            let pos = if rng.next_u64() & 1 == 0 { rng.below(len.min(64)) } else { rng.below(len) };
            let old = m[pos];
            m[pos] ^= (rng.below(255) + 1) as u8;
            let what = format!("{name} with byte {pos} {old:#04x}->{:#04x}", m[pos]);
            must_not_panic(&what, &m, mutations % 16 == 0);
            m[pos] = old;
            mutations += 1;
        }
    }
    (truncations, mutations)
}

#[test]
fn truncations_and_mutations_never_panic() {
    let items = corpus();
    assert!(items.len() > 200, "corpus too small: {}", items.len());
    let half = items.len() / 2;
    let (left, right) = items.split_at(half);
    let (a, b) = std::thread::scope(|s| {
        let h1 = s.spawn(|| hammer(left, 0x9E37_79B9_7F4A_7C15));
        let h2 = s.spawn(|| hammer(right, 0xD1B5_4A32_D192_ED03));
        (h1.join().unwrap(), h2.join().unwrap())
    });
    eprintln!(
        "{} chunks: {} truncated inputs, {} mutated inputs decoded without panic",
        items.len(),
        a.0 + b.0,
        a.1 + b.1
    );
}
