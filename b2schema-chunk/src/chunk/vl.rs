//! The blocks of a VL-block chunk (format version 6, `blosc2_flags2` bit 0), one by one.
//!
//! c-blosc2's `blosc2_vldecompress` gives a VL-block chunk back as its blocks, each as long as
//! its own size field says (python-blosc2's `BatchArray` keeps one msgpack value per block).
//! [`Decoder::decompress_vl_blocks`] decodes the chunk once, within the decoder's `max_nbytes`,
//! and cuts the output at the block sizes the chunk declares (checked, as the decoder checks
//! them, to add up to `nbytes`).
//!
//! ```
//! use b2schema_chunk::{Decoder, Registry};
//! # let chunk = b2schema_chunk::compress::compress(b"abc", &b2schema_chunk::Params::new(1)).unwrap();
//! let registry = Registry::new();
//! // A regular chunk is refused: only VL-block chunks have blocks of their own sizes.
//! assert!(Decoder::new(&registry).decompress_vl_blocks(&chunk).is_err());
//! ```

use alloc::vec::Vec;

use super::decompress::{Decoder, vl_block_lens};
use crate::error::{Error, Expected, Found};

/// The decoded blocks of a VL-block chunk: one buffer and where each block ends in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VlBlocks {
    data: Vec<u8>,
    ends: Vec<usize>,
}

impl VlBlocks {
    /// How many blocks.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no block (c-blosc2 never writes such a VL-block chunk).
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Block `i`'s bytes.
    pub fn get(&self, i: usize) -> Option<&[u8]> {
        let end = *self.ends.get(i)?;
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        self.data.get(start..end)
    }

    /// The blocks in order.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }

    /// All the blocks' bytes, one after another (what `decompress` returns).
    pub fn bytes(&self) -> &[u8] {
        &self.data
    }
}

impl Decoder<'_> {
    /// Decompresses a VL-block chunk and gives its blocks one by one; a chunk without the
    /// VL-block flag is an error naming `blosc2_flags2`. Every block's offset and size is
    /// validated before anything is allocated (as [`Decoder::decompress`] does).
    pub fn decompress_vl_blocks(&self, chunk: &[u8]) -> Result<VlBlocks, Error> {
        let lens = vl_block_lens(chunk)?;
        let data = self.decompress(chunk)?;
        let mut ends = Vec::new();
        ends.try_reserve_exact(lens.len()).map_err(|_| {
            Error::invalid(
                8,
                "blocksize",
                Expected::Text("a block count that fits in memory"),
                Found::Value(lens.len() as i64),
            )
        })?;
        let mut end = 0usize;
        for len in lens {
            end = end.saturating_add(len);
            ends.push(end);
        }
        if end != data.len() {
            // `decompress` checks the sizes add up to nbytes; kept as an error, never a panic.
            return Err(Error::invalid(
                4,
                "nbytes",
                Expected::Text("the sum of the VL-block sizes"),
                Found::Value(data.len() as i64),
            ));
        }
        Ok(VlBlocks { data, ends })
    }
}
