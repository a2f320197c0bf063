//! The chunk decoder with a small output limit: `ChunkHeader::parse`/`peek`,
//! `decompress_with_limit`, `decompress_into` (which must agree with it) and `vl_block_lens`;
//! then the chunk decoded again with an array's shapes, so that the n-dimensional codecs and
//! filters (ZFP, ndcell, ndmean) run past their geometry checks: block shapes made from the
//! header's blocksize and typesize (the last input byte picks 1 to 5 dimensions and whether the
//! shape lies about the block's size).
#![no_main]

use b2schema::chunk::{self, ChunkHeader, Decoder, Registry};
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
    if let Ok(h) = &header {
        let pick = data.last().copied().unwrap_or(0);
        let blockshape = shape_for(h.effective_blocksize(), usize::from(h.typesize).max(1), pick);
        let registry = Registry::new().with_array_shapes(&blockshape, &blockshape);
        if let Ok(out) = Decoder::new(&registry).max_nbytes(LIMIT).decompress(data) {
            assert_eq!(out.len(), h.uncompressed_len());
        }
    }
});

/// A block shape of `1 + pick % 5` dimensions whose items times `typesize` make `blocksize`
/// (small divisors peeled off into the later dimensions), or, when `pick >= 128`, one side
/// grown by one so that it does not.
fn shape_for(blocksize: usize, typesize: usize, pick: u8) -> Vec<i32> {
    let ndim = 1 + usize::from(pick % 5);
    let mut items = blocksize / typesize;
    let mut shape = vec![1i32; ndim];
    for side in shape.iter_mut().skip(1) {
        if let Some(d) = (2..=16).find(|d| items % d == 0) {
            *side = d as i32;
            items /= d;
        }
    }
    shape[0] = i32::try_from(items).unwrap_or(i32::MAX);
    if pick >= 128 {
        shape[ndim - 1] = shape[ndim - 1].saturating_add(1);
    }
    shape
}
