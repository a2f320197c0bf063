//! The `.cdata` chunks shipped in c-blosc2's `compat/` directory: the
//! codec families hold the int32 sequence 0..999999 (facts doc section 5);
//! the bitshuffle ones (c-blosc 1.17/1.18, c-blosc2 2.0.0 beta) hold 641091
//! or 641092 bytes of another sequence and are checked against c-blosc2 in
//! `chunk_python_refs.rs`.  The bench chunk decodes to its `nbytes`.

use crate::common::{compat_file, files_with_ext, read_compat};
use b2schema_chunk::{ChunkHeader, decompress};

#[test]
fn compat_cdata_chunks_hold_0_to_999999() {
    let dir = compat_file("c-blosc2/compat");
    let mut expected = Vec::with_capacity(4_000_000);
    for i in 0..1_000_000i32 {
        expected.extend_from_slice(&i.to_le_bytes());
    }
    let mut n = 0;
    for path in files_with_ext(&dir, "cdata") {
        let bytes = std::fs::read(&path).unwrap();
        let h = ChunkHeader::parse(&bytes).unwrap();
        let out = decompress(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(out.len(), h.uncompressed_len(), "{}", path.display());
        if path.to_string_lossy().contains("bitshuffle") {
            continue;
        }
        assert_eq!(out.len(), 4_000_000, "{}", path.display());
        assert!(out == expected, "{} ({:?}) content differs", path.display(), h.codec());
        n += 1;
    }
    assert!(n >= 21, "only {n} int32 cdata files found");
}

#[test]
fn rainfall_bench_chunk_decodes() {
    let bytes = read_compat("c-blosc2/bench/rainfall-grid-150x150.bin");
    let h = ChunkHeader::parse(&bytes).unwrap();
    let out = decompress(&bytes).unwrap();
    assert_eq!(out.len(), h.uncompressed_len());
    assert_eq!(out.len(), 150 * 150 * 4);
    assert_eq!(h.typesize, 4);
}
