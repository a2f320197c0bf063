//! The chunk decoder with a small output limit: `ChunkHeader::parse`/`peek`,
//! `decompress_with_limit`, `decompress_into` (which must agree with it) and `vl_block_lens`.
#![no_main]

use b2schema::chunk::{self, ChunkHeader};
use libfuzzer_sys::fuzz_target;

/// The largest output decoded; chunks claiming more are refused before any allocation.
const LIMIT: usize = 1 << 22;

fuzz_target!(|data: &[u8]| {
    let _ = ChunkHeader::peek(data);
    let header = ChunkHeader::parse(data);
    if let Ok(h) = &header {
        let _ = (h.codec(), h.nblocks(), h.effective_blocksize(), h.special(), h.special_value_len());
    }
    let whole = chunk::decompress_with_limit(data, LIMIT);
    match &whole {
        Ok(out) => {
            assert!(out.len() <= LIMIT);
            assert_eq!(out.len(), header.as_ref().expect("a decoded chunk has a header").uncompressed_len());
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
    let mut buf = [0u8; 4096];
    let into = chunk::decompress_into(data, &mut buf);
    if let Ok(out) = &whole
        && out.len() <= buf.len()
    {
        assert_eq!(into, Ok(out.len()), "decompress_into disagrees with decompress");
        assert_eq!(&buf[..out.len()], &out[..]);
    }
    if let Ok(n) = into {
        assert_eq!(whole.as_ref().map(Vec::len), Ok(n), "decompress disagrees with decompress_into");
    }
    let _ = chunk::vl_block_lens(data);
});
