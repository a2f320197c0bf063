//! Reading part of a chunk: the blocks a caller needs, decoded from only the bytes that hold
//! them (c-blosc2's `blosc2_getitem` on a lazy chunk does the same).
//!
//! ```text
//! ChunkBlocks::from_prefix(first bytes) -> Need(n) | Ready(blocks)   the header, bstarts, dictionary
//! blocks.block_span(j)                  -> the chunk bytes that hold block j
//! blocks.decode_block(j, those bytes, ...)                           block j, and nothing else
//! ```
//!
//! Every offset is checked against the chunk's `cbytes` before it is used, as in the whole-chunk
//! decoder, and errors give offsets from the chunk's first byte.

use alloc::vec::Vec;
use core::ops::Range;

use super::buffers::Scratch;
use super::decompress::{Blocks, Decoder, Layout, Window, fill_special_at, pipeline, simple_layout};
use super::header::{ChunkHeader, MIN_HEADER_LEN, Special, found_usize};
use crate::codec::KeptDecoder;
use crate::error::{Error, ErrorKind, Expected, num};
use crate::fields;
use crate::registry::Registry;

/// What [`ChunkBlocks::from_prefix`] made of the first bytes of a chunk.
pub enum Prefix {
    /// The first `n` bytes of the chunk are needed (more than were given).
    Need(usize),
    /// The chunk's block table, ready to decode blocks.
    Ready(ChunkBlocks),
}

/// Scratch buffers for [`ChunkBlocks::decode_block`], reused from block to block.
#[derive(Default)]
pub struct BlockScratch(Scratch, KeptDecoder);

/// A chunk's header, block table and dictionary: enough to find and decode any one block.
pub struct ChunkBlocks {
    header: ChunkHeader,
    /// The chunk from its first byte to the end of its table and dictionary (for a repeated
    /// value, to the end of the value).
    table: Vec<u8>,
    layout: Layout,
    /// The distinct block starts, sorted (regular blocks): where each block's bytes end.
    starts: Vec<usize>,
    /// The plugins its blocks are decoded with (the built-ins only unless given).
    registry: Registry,
}

impl ChunkBlocks {
    /// Reads the chunk's header, block table and dictionary from `prefix`, the chunk's first
    /// bytes (the whole chunk will do). Says how many bytes are needed when `prefix` is too
    /// short: call again with at least that many.
    pub fn from_prefix(prefix: &[u8]) -> Result<Prefix, Error> {
        if prefix.len() < MIN_HEADER_LEN {
            return Ok(Prefix::Need(MIN_HEADER_LEN));
        }
        let extended = ChunkHeader::peek(&prefix[..MIN_HEADER_LEN]);
        let header = match extended {
            Ok(h) => h,
            Err(e) if e.kind == ErrorKind::Truncated && e.field == "extended header" => {
                if prefix.len() < super::header::EXTENDED_HEADER_LEN {
                    return Ok(Prefix::Need(super::header::EXTENDED_HEADER_LEN));
                }
                ChunkHeader::peek(prefix)?
            }
            Err(e) => return Err(e),
        };
        let cbytes = header.compressed_len();
        let hl = header.header_len();
        let simple = simple_layout(&header)?;
        let need = match &simple {
            Some(Layout::Special(Special::Value)) => hl + header.special_value_len(),
            Some(_) => hl,
            None => {
                let table_end = header
                    .nblocks()
                    .checked_mul(4)
                    .and_then(|t| t.checked_add(hl))
                    .filter(|&e| e <= cbytes)
                    .ok_or_else(|| {
                        Error::truncated(hl, "bstarts", header.nblocks().saturating_mul(4), cbytes - hl)
                    })?;
                let need = if header.uses_dict() {
                    match crate::bytes::i32_le(prefix, table_end) {
                        None => return Ok(Prefix::Need(table_end + 4)),
                        // Blocks::new refuses a size out of range: read no more for it.
                        Some(size) if size > 0 && size <= super::decompress::MAX_DICT_SIZE => {
                            table_end + 4 + size as usize
                        }
                        Some(_) => table_end + 4,
                    }
                } else {
                    table_end
                };
                need.min(cbytes)
            }
        };
        if prefix.len() < need {
            return Ok(Prefix::Need(need));
        }
        let mut table = Vec::new();
        table.try_reserve_exact(need).map_err(|_| {
            Error::new(
                ErrorKind::LimitExceeded,
                fields::CBYTES,
                "cbytes",
                Expected::Text("an allocatable table"),
                found_usize(need),
            )
        })?;
        table.extend_from_slice(&prefix[..need]);
        let (layout, starts) = match simple {
            Some(layout) => (layout, Vec::new()),
            None => {
                let blocks = Blocks::new(&header, &table)?;
                let starts = if blocks.vl {
                    Vec::new()
                } else {
                    let mut starts = Vec::new();
                    starts.try_reserve_exact(blocks.nblocks).map_err(|_| {
                        Error::truncated(hl, "bstarts", blocks.nblocks.saturating_mul(4), cbytes)
                    })?;
                    for j in 0..blocks.nblocks {
                        starts.push(blocks.bstart(&table, j, cbytes)?);
                    }
                    starts.sort_unstable();
                    starts.dedup();
                    starts
                };
                (Layout::Blocks(blocks), starts)
            }
        };
        Ok(Prefix::Ready(ChunkBlocks { header, table, layout, starts, registry: Registry::new() }))
    }

    /// The block table of a whole chunk in memory.
    pub fn from_chunk(chunk: &[u8]) -> Result<Self, Error> {
        ChunkHeader::parse(chunk)?;
        match Self::from_prefix(chunk)? {
            Prefix::Ready(b) => Ok(b),
            Prefix::Need(n) => Err(Error::truncated(0, "chunk", n, chunk.len())),
        }
    }

    /// Decoding its blocks with `registry`'s plugin codecs and filters (the built-ins only
    /// otherwise).
    pub fn with_registry(mut self, registry: &Registry) -> Self {
        self.registry = registry.clone();
        self
    }

    /// The chunk's header.
    pub fn header(&self) -> &ChunkHeader {
        &self.header
    }

    /// The number of blocks (for special and memcpyed chunks: of `blocksize` bytes each, the
    /// last one shorter).
    pub fn nblocks(&self) -> usize {
        match &self.layout {
            Layout::Blocks(b) => b.nblocks,
            _ if self.header.nbytes == 0 => 0,
            _ => self.header.nblocks(),
        }
    }

    /// Where block `j`'s items are in the chunk's decompressed bytes.
    pub fn block_range(&self, j: usize) -> Range<usize> {
        let n = self.header.uncompressed_len();
        match &self.layout {
            Layout::Blocks(b) if b.vl => 0..n,
            _ => {
                let bs = self.header.effective_blocksize().max(1);
                let start = j.saturating_mul(bs).min(n);
                start..start.saturating_add(bs).min(n)
            }
        }
    }

    /// The item repeated over the whole output of a special-value chunk (zeros, NaN, uninit read
    /// as zeros, or the stored value), `None` for a chunk with data. Lets a reader fill any part
    /// of the chunk without decoding a block.
    pub fn repeated(&self) -> Option<Vec<u8>> {
        let Layout::Special(kind) = self.layout else { return None };
        let len = match kind {
            Special::Value => self.header.special_value_len(),
            _ => usize::from(self.header.typesize).max(1),
        };
        let mut item = alloc::vec![0u8; len];
        fill_special_at(&self.header, kind, &self.table, &mut item, 0);
        Some(item)
    }

    /// `true` when decoding a block other than the first needs the first block's output (a
    /// delta filter): pass it as `reference` to [`ChunkBlocks::decode_block`].
    pub fn needs_first_block(&self) -> bool {
        matches!(&self.layout, Layout::Blocks(_))
            && pipeline(&self.header, &self.registry).is_ok_and(|p| p.has_delta())
    }

    /// The chunk bytes that hold block `j`: give at least these to
    /// [`ChunkBlocks::decode_block`]. Empty for special chunks, whose value is in the table.
    pub fn block_span(&self, j: usize) -> Result<Range<usize>, Error> {
        let cbytes = self.header.compressed_len();
        let hl = self.header.header_len();
        match &self.layout {
            Layout::Blocks(b) if b.vl => Ok(0..cbytes),
            Layout::Blocks(b) => {
                let start = b.bstart(&self.table, j, cbytes)?;
                let next = self.starts.partition_point(|&s| s <= start);
                Ok(start..self.starts.get(next).copied().unwrap_or(cbytes))
            }
            Layout::Memcpy => {
                let r = self.block_range(j);
                Ok(hl + r.start..hl + r.end)
            }
            _ => Ok(hl..hl),
        }
    }

    /// Decodes block `j` into `dst`, which must be exactly [`ChunkBlocks::block_range`]`(j)`
    /// long. `bytes` are the chunk's bytes from offset `base`, holding at least
    /// [`ChunkBlocks::block_span`]`(j)`; `reference` is the first block's output when
    /// [`ChunkBlocks::needs_first_block`] (empty otherwise).
    pub fn decode_block(
        &self,
        j: usize,
        bytes: &[u8],
        base: usize,
        reference: &[u8],
        dst: &mut [u8],
        scratch: &mut BlockScratch,
    ) -> Result<(), Error> {
        let range = self.block_range(j);
        if j >= self.nblocks().max(1) || dst.len() != range.len() {
            return Err(Error::invalid(
                fields::BLOCKSIZE,
                "blocksize",
                Expected::Exactly(num(range.len())),
                found_usize(dst.len()),
            ));
        }
        let win = Window { base, bytes, cbytes: self.header.compressed_len() };
        match &self.layout {
            Layout::Empty => Ok(()),
            Layout::Special(kind) => {
                fill_special_at(&self.header, *kind, &self.table, dst, range.start);
                Ok(())
            }
            Layout::Memcpy => {
                let span = self.block_span(j)?;
                let data = span
                    .start
                    .checked_sub(base)
                    .and_then(|s| bytes.get(s..s + span.len()))
                    .ok_or_else(|| Error::truncated(span.start, "data", span.len(), bytes.len()))?;
                dst.copy_from_slice(data);
                Ok(())
            }
            Layout::Blocks(b) => {
                let decoder = Decoder::new(&self.registry);
                let pipeline = pipeline(&self.header, &self.registry)?;
                let mut codec = b.codec(&self.header, &self.table, &decoder)?;
                codec.reuse(&mut scratch.1);
                let table: &[u8] = if b.vl { bytes } else { &self.table };
                let r = b.decode_block(
                    &self.header,
                    table,
                    win,
                    j,
                    &pipeline,
                    &mut codec,
                    &mut scratch.0,
                    reference,
                    dst,
                );
                codec.keep(&mut scratch.1);
                r
            }
        }
    }
}
