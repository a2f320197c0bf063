//! The frame reader on whole files: `FrameView::from_slice`, then `chunk_locations()`, the
//! metalayers (`b2nd` read both ways, any msgpack), the vlmetalayers (decompressed with a small
//! limit), the header of every stored chunk. A frame that validates re-encodes byte for byte.
#![no_main]

use b2schema::chunk::{self, ChunkHeader};
use b2schema::frame::{ChunkLocation, FrameView};
use b2schema::{Config, b2nd};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let view = match FrameView::from_slice(data) {
        Ok(v) => v,
        Err(e) => {
            // Fixed fields are read at their place: on a short input the offset can lie past its
            // end ("needed 5 bytes at offset 10 (header_len), 0 remain").
            let _ = e.to_string();
            return;
        }
    };
    assert_eq!(view.encode_header().unwrap(), view.header_bytes, "header re-encodes");
    assert_eq!(view.encode_trailer().unwrap(), view.trailer_bytes, "trailer re-encodes");
    // chunk_locations() decodes the whole offsets index: nchunks * 8 bytes and a location per
    // chunk, nchunks being what the header claims (up to MAX_NCHUNKS, 268 million). A 40-byte
    // repeat-value index (what c-blosc2 writes for an all-zeros array) legitimately claims that
    // many, so a 240-byte frame can ask for 6 GB here: skip indexes of more than 2^20 chunks.
    // (The first 10-minute run timed out on exactly that: fuzz/README.md, "Findings".)
    let claimed = ChunkHeader::peek(view.index_bytes).map_or(0, |h| h.uncompressed_len());
    if claimed > 8 << 20 {
        return;
    }
    let _ = view.nchunks();
    match view.chunk_locations() {
        Ok(locations) => {
            let base = view.header_bytes.len();
            for loc in locations.iter().take(64) {
                if let ChunkLocation::Offset(o) = *loc
                    && let Some(rest) = usize::try_from(o).ok().and_then(|o| data.get(o.checked_add(base)?..))
                {
                    let _ = ChunkHeader::peek(rest);
                }
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    for (_, _, content) in view.header.metalayers.iter() {
        let _ = b2nd::read(content);
        let _ = b2nd::read_compat(content);
        let _ = b2schema::from_slice_with::<serde_json::Value>(content, Config::minimal());
    }
    for (_, _, content) in view.trailer.vlmetalayers.iter().take(16) {
        if let Ok(value) = chunk::decompress_with_limit(content, 1 << 16) {
            let _ = b2schema::from_slice_with::<serde_json::Value>(&value, Config::minimal());
        }
    }
});
