//! Compares the decoder with c-blosc2 3.3.5 (through python-blosc2 4.14.1):
//! `tests/data/chunks/ref/refs.json`, written by `tests/data/chunks/ref/make_refs.py`, holds the
//! sha256 of what c-blosc2 decompresses for every chunk of the compat files in
//! `tests/data/compat` and of the generated corpus in `tests/data/chunks`. Every entry is checked:
//! a missing file fails the test.

use std::path::PathBuf;

use b2schema::chunk::{ChunkHeader, Special, decompress};
use b2schema_tests::frame_chunks::{self, FrameChunk};
use b2schema_tests::{chunk_corpus, compat_file, read_file, sha256_hex};
use serde_json::Value;

fn refs() -> Value {
    serde_json::from_slice(&read_file(&chunk_corpus("ref/refs.json"))).unwrap()
}

/// Resolves `compat:` (under `tests/data/compat`) and `data:` (under `tests/data/chunks`) paths.
fn resolve(rel: &str) -> PathBuf {
    match (rel.strip_prefix("compat:"), rel.strip_prefix("data:")) {
        (Some(p), _) => compat_file(p),
        (_, Some(p)) => chunk_corpus(p),
        _ => panic!("{rel}: neither a compat: nor a data: path"),
    }
}

/// Checks one decompression against its reference entry.
///
/// Bytes c-blosc2 never writes (listed in `unspecified`: UNINIT chunks and
/// the trailing `blocksize % typesize` bytes of Blosc1 bit-shuffled blocks)
/// are zeroed on both sides before hashing.
fn check(what: &str, chunk: &[u8], r: &Value) {
    let want_len = r["nbytes"].as_u64().unwrap() as usize;
    let mut out = decompress(chunk).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(out.len(), want_len, "{what}: length");
    if r.get("uninit").is_some() {
        // This decoder defines UNINIT output as zeros.
        assert!(out.iter().all(|&b| b == 0), "{what}: uninit chunk not zeroed");
        assert_eq!(ChunkHeader::parse(chunk).unwrap().special(), Special::Uninit);
    }
    for range in r.get("unspecified").and_then(Value::as_array).into_iter().flatten() {
        let start = range[0].as_u64().unwrap() as usize;
        let end = range[1].as_u64().unwrap() as usize;
        out[start..end].fill(0);
    }
    assert_eq!(sha256_hex(&out), r["sha256"].as_str().unwrap(), "{what}: content differs from c-blosc2");
}

#[test]
fn standalone_chunks_match_c_blosc2() {
    let refs = refs();
    let (mut ok, mut errors) = (0, 0);
    for r in refs["chunks"].as_array().unwrap() {
        let rel = r["file"].as_str().unwrap();
        let bytes = read_file(&resolve(rel));
        assert_eq!(sha256_hex(&bytes), r["chunk_sha256"].as_str().unwrap(), "{rel}: file changed");
        if let Some(msg) = r.get("error") {
            // c-blosc2 itself cannot decompress this chunk; neither may we.
            assert!(decompress(&bytes).is_err(), "{rel}: decoded, but c-blosc2 fails ({msg})");
            errors += 1;
            continue;
        }
        check(rel, &bytes, r);
        ok += 1;
    }
    eprintln!("standalone chunks: {ok} match c-blosc2, {errors} rejected like c-blosc2");
    assert_eq!(ok + errors, refs["chunks"].as_array().unwrap().len());
    assert!(ok >= 140, "only {ok} chunks verified");
}

#[test]
fn frame_chunks_match_c_blosc2() {
    let refs = refs();
    let (mut frames, mut chunks, mut specials) = (0, 0, 0);
    for fr in refs["frames"].as_array().unwrap() {
        let rel = fr["file"].as_str().unwrap();
        let bytes = read_file(&resolve(rel));
        let located = frame_chunks::chunks(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let want = fr["chunks"].as_array().unwrap();
        assert_eq!(located.len(), want.len(), "{rel}: nchunks");
        for (i, (c, r)) in located.iter().zip(want).enumerate() {
            let what = format!("{rel} chunk {i}");
            let bytes = match c {
                FrameChunk::Stored(b) => b,
                FrameChunk::Special { chunk, .. } => {
                    specials += 1;
                    chunk
                }
            };
            assert_eq!(
                sha256_hex(bytes),
                r["chunk_sha256"].as_str().unwrap(),
                "{what}: chunk bytes differ from get_chunk"
            );
            check(&what, bytes, r);
            chunks += 1;
        }
        frames += 1;
    }
    eprintln!("frames: {frames} frames, {chunks} chunks ({specials} from special offsets) match c-blosc2");
    assert!(frames >= 43 && chunks >= 365, "only {frames} frames / {chunks} chunks verified");
}
