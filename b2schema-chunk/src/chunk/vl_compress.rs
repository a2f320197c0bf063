//! Writes VL-block chunks (format version 6, `blosc2_flags2` bit 0), as c-blosc2's
//! `blosc2_vlcompress_ctx` lays them out for python-blosc2's `BatchArray`: the 32-byte extended
//! header (its `blocksize` field the block count, the codec and filters of [`Params`]), one
//! 4-byte start per block, then each block as its 4-byte size and one stream: the block
//! through the filters and the codec, or the filtered bytes as they are when the codec does
//! not make them shorter.
//!
//! ```
//! use b2schema_chunk::{Decoder, Params, Registry, compress_vl_blocks};
//!
//! let chunk = compress_vl_blocks(&[&b"\x92\x01\x02"[..], &[0x91, 0xc0]], &Params::new(1)).unwrap();
//! let blocks = Decoder::new(&Registry::new()).decompress_vl_blocks(&chunk).unwrap();
//! assert_eq!(blocks.get(1), Some(&[0x91, 0xc0][..]));
//! ```

use alloc::vec::Vec;

use super::buffers::{alloc_error, try_zeroed};
use super::header::{
    B2_VL_BLOCKS, COMPFORMAT_SHIFT, EXTENDED_HEADER_LEN, FLAG_DONT_SPLIT, FLAG_EXTENDED, VERSION_FORMAT,
};
use super::params::{MAX_BUFFERSIZE, MAX_SPLIT_TYPESIZE, Params, param_error};
use super::stored;
use crate::codec::Encoder;
use crate::error::{Error, Expected, num};
use crate::filter::Forward;
use crate::id::Filter;
use crate::registry::{BUILTIN, PluginContext};

/// Compresses `blocks` (each at least one byte, all together at most [`MAX_BUFFERSIZE`]) into
/// one VL-block chunk with the codec, level, typesize and filters of `p` (its blocksize, split
/// mode, threads and dictionary do not apply). The delta filter, whose reference is the
/// chunk's first block, is refused: c-blosc2's VL blocks are each their own.
pub fn compress_vl_blocks(blocks: &[&[u8]], p: &Params) -> Result<Vec<u8>, Error> {
    if p.clevel > 9 {
        return Err(param_error("clevel", Expected::InRange(0, 9), p.clevel.into()));
    }
    if blocks.is_empty() {
        return Err(param_error("blocks", Expected::AtLeast(1), 0));
    }
    if let Some(i) = blocks.iter().position(|b| b.is_empty()) {
        return Err(param_error("block size (a VL block holds at least one byte)", Expected::AtLeast(1), i));
    }
    if p.filters.contains(&Filter::Delta) {
        return Err(param_error(
            "filters",
            Expected::Text("no delta filter in a VL-block chunk"),
            usize::from(Filter::Delta.id()),
        ));
    }
    let nbytes = blocks.iter().try_fold(0usize, |a, b| a.checked_add(b.len())).unwrap_or(usize::MAX);
    let overhead = EXTENDED_HEADER_LEN + 8 * blocks.len();
    if nbytes.saturating_add(overhead) > MAX_BUFFERSIZE {
        return Err(param_error("nbytes", Expected::AtMost(num(MAX_BUFFERSIZE - overhead)), nbytes));
    }
    let typesize = if p.typesize > MAX_SPLIT_TYPESIZE { 1 } else { p.typesize.max(1) };
    let ctx = PluginContext { meta: p.codec_meta, clevel: p.clevel, ..PluginContext::new(typesize, 0) };
    let encoder = Encoder::new(p.codec, p.clevel, &BUILTIN, ctx)?;
    let forward = Forward::new(&p.filters, &p.filters_meta, typesize, &BUILTIN)?;
    let mut out = Vec::new();
    out.try_reserve_exact(nbytes + overhead).map_err(|_| alloc_error(nbytes + overhead))?;
    let flags = FLAG_EXTENDED | FLAG_DONT_SPLIT | (p.codec.compformat() << COMPFORMAT_SHIFT);
    let mut header = stored::header(flags, typesize, nbytes, blocks.len(), 0, Some(p));
    header[0] = VERSION_FORMAT;
    header[1] = encoder.version();
    header[30] = B2_VL_BLOCKS;
    out.extend_from_slice(&header);
    out.resize(EXTENDED_HEADER_LEN + 4 * blocks.len(), 0);
    for (j, block) in blocks.iter().enumerate() {
        let start = out.len();
        out[EXTENDED_HEADER_LEN + 4 * j..EXTENDED_HEADER_LEN + 4 * j + 4]
            .copy_from_slice(&(start as i32).to_le_bytes());
        let len = block.len();
        let filtered = if forward.is_empty() {
            None
        } else {
            let (mut a, mut b, mut tmp) = (try_zeroed(len)?, try_zeroed(len)?, try_zeroed(len)?);
            match forward.apply(&block[..len], None, &mut a, &mut b, &mut tmp, p.clevel)? {
                Some(true) => Some(b),
                Some(false) => Some(a),
                None => None,
            }
        };
        let data: &[u8] = filtered.as_deref().unwrap_or(block);
        out.extend_from_slice(&(len as i32).to_le_bytes());
        let mut scratch = try_zeroed(len)?;
        let n = if p.clevel == 0 { 0 } else { encoder.encode(None, data, &mut scratch)? };
        // Coded only when shorter: a stream as long as the block is the block itself.
        out.extend_from_slice(if n == 0 || n >= len { data } else { &scratch[..n] });
    }
    let cbytes = out.len() as i32;
    out[12..16].copy_from_slice(&cbytes.to_le_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Decoder;
    use crate::Registry;
    use crate::id::Codec;
    use proptest::prelude::*;

    proptest! {
        /// Any blocks, codec, level, typesize and filter: decoded, the same blocks.
        #[test]
        fn vl_blocks_round_trip(
            blocks in proptest::collection::vec(proptest::collection::vec(0u8..4, 1..600), 1..12),
            codec in 0usize..5,
            clevel in 0u8..10,
            typesize in 1usize..9,
            filter in 0usize..3,
        ) {
            let mut p = Params::new(typesize);
            p.codec = [Codec::BloscLz, Codec::Lz4, Codec::Lz4hc, Codec::Zlib, Codec::Zstd][codec];
            p.clevel = clevel;
            p.filters[5] = [Filter::NoFilter, Filter::Shuffle, Filter::BitShuffle][filter];
            let refs: Vec<&[u8]> = blocks.iter().map(Vec::as_slice).collect();
            let chunk = compress_vl_blocks(&refs, &p).unwrap();
            let got = Decoder::new(&Registry::new()).decompress_vl_blocks(&chunk).unwrap();
            prop_assert_eq!(got.iter().collect::<Vec<_>>(), refs);
        }
    }

    #[test]
    fn what_a_vl_chunk_cannot_hold_is_refused_by_name() {
        let p = Params::new(1);
        let err = |b: &[&[u8]], p: &Params| compress_vl_blocks(b, p).unwrap_err().to_string();
        assert!(err(&[], &p).contains("blocks"));
        assert!(err(&[b"a", b""], &p).contains("block size"));
        let mut delta = p;
        delta.filters[0] = Filter::Delta;
        assert!(err(&[b"a"], &delta).contains("delta"));
        let mut level = p;
        level.clevel = 10;
        assert!(err(&[b"a"], &level).contains("clevel"));
    }
}
