//! The chunk offsets index: a Blosc chunk of little-endian int64 values, one per chunk.

use alloc::vec::Vec;

use crate::container::error::{Error, Result};
use b2schema_chunk::ChunkHeader;

/// Where a chunk's bytes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChunkLocation {
    /// At this offset from the start of the chunks section (the end of the header) of a
    /// contiguous frame.
    Offset(u64),
    /// In the file `%08X.chunk` of a sparse frame's directory.
    File(u32),
    /// Nowhere: a special chunk with no stored bytes.
    Special(SpecialValue),
}

/// The kind of a chunk with no stored bytes, or of a stored chunk whose header says its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpecialValue {
    /// All zeros.
    Zeros,
    /// All NaN.
    Nan,
    /// Uninitialized (read as zeros).
    Uninit,
    /// One repeated value (stored chunks only, such as the chunks of `blosc2.full`).
    Value,
}

impl SpecialValue {
    /// `"zeros"`, `"nan"`, `"uninit"` or `"value"`.
    pub const fn name(self) -> &'static str {
        match self {
            SpecialValue::Zeros => "zeros",
            SpecialValue::Nan => "nan",
            SpecialValue::Uninit => "uninit",
            SpecialValue::Value => "value",
        }
    }

    /// The kind a chunk header declares, if any.
    pub fn of_chunk(h: &ChunkHeader) -> Option<SpecialValue> {
        match h.special() {
            b2schema_chunk::Special::None => None,
            b2schema_chunk::Special::Zero => Some(SpecialValue::Zeros),
            b2schema_chunk::Special::Nan => Some(SpecialValue::Nan),
            b2schema_chunk::Special::Uninit => Some(SpecialValue::Uninit),
            b2schema_chunk::Special::Value => Some(SpecialValue::Value),
        }
    }
}

/// What a chunk is, from its index entry and (for a stored chunk) its 32-byte header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkInfo {
    /// Its position in the array of chunks.
    pub index: usize,
    /// Where its bytes are.
    pub location: ChunkLocation,
    /// Its special value, from the index entry or from its own header.
    pub special: Option<SpecialValue>,
    /// Bytes stored (0 for a special index entry).
    pub cbytes: u64,
    /// Bytes it decompresses to.
    pub nbytes: u64,
    /// The chunk header of a stored chunk.
    pub header: Option<ChunkHeader>,
}

/// The most chunks a frame can have (`INT32_MAX / 8`, `blosc2_nchunks_to_offsets_nbytes`).
pub const MAX_NCHUNKS: u64 = (i32::MAX / 8) as u64;

/// The index entry of a chunk with no stored bytes, as c-blosc2 writes it:
/// `(1 << 63) | (kind << 56)` with kind 1 zeros, 2 NaN, 4 uninit; `None` for a repeated value,
/// which is always a stored chunk. The inverse of what the index reader makes of an entry.
pub const fn special_entry(kind: SpecialValue) -> Option<i64> {
    let bits: u64 = match kind {
        SpecialValue::Zeros => 1,
        SpecialValue::Nan => 2,
        SpecialValue::Uninit => 4,
        SpecialValue::Value => return None,
    };
    Some(((1u64 << 63) | (bits << 56)) as i64)
}

/// Reads one index entry as c-blosc2 does: a negative value is special, its bits tested in the
/// order zeros, uninit, NaN (`frame_get_lazychunk`).
pub fn entry(value: i64, sparse: bool) -> Option<ChunkLocation> {
    if value < 0 {
        let bits = ((value as u64) >> 56) & 0x7f;
        return if bits & 1 != 0 {
            Some(ChunkLocation::Special(SpecialValue::Zeros))
        } else if bits & 4 != 0 {
            Some(ChunkLocation::Special(SpecialValue::Uninit))
        } else if bits & 2 != 0 {
            Some(ChunkLocation::Special(SpecialValue::Nan))
        } else {
            None
        };
    }
    if sparse {
        u32::try_from(value).ok().map(ChunkLocation::File)
    } else {
        Some(ChunkLocation::Offset(value as u64))
    }
}

/// The most index entries a frame's chunk index is decoded into by default (4 Mi chunks: 64 MiB
/// of locations). A tiny frame can claim far more (a repeat-value index of 40 bytes stands for any
/// number of special chunks), so a larger index needs an explicit, larger limit.
/// (Written once, in the budget: [`Limits::max_chunks`](crate::limits::Limits::max_chunks).)
pub use crate::container::limits::DEFAULT_MAX_LOCATIONS;

/// The number of entries of the offsets chunk `index` (at byte `at`), from its header alone.
pub fn count(index: &[u8], at: usize) -> Result<u64> {
    let header = ChunkHeader::parse(index).map_err(|e| Error::chunk(e, at).in_field("chunk_index"))?;
    Ok((header.uncompressed_len() / 8) as u64)
}

/// Decodes the offsets chunk `index` (found at byte `at` of the frame) into one location per
/// chunk. `nchunks` is what the header implies, when it does (`None` for variable chunks, where
/// the index's own length decides).
pub fn decode(
    index: &[u8],
    at: usize,
    nchunks: Option<u64>,
    sparse: bool,
    max_locations: u64,
) -> Result<Vec<ChunkLocation>> {
    let header = ChunkHeader::parse(index).map_err(|e| Error::chunk(e, at).in_field("chunk_index"))?;
    crate::container::limits::Limits::check(
        "the offsets index (chunks)",
        (header.uncompressed_len() / 8) as u64,
        crate::container::error::Limit::Chunks,
        max_locations,
        at + 4,
    )
    .map_err(|e| e.in_field("chunk_index"))?;
    let nbytes = header.uncompressed_len();
    if nbytes % 8 != 0 {
        return Err(Error::invalid("offsets index length (nbytes) a multiple of", 8, nbytes, at + 4)
            .in_field("chunk_index"));
    }
    let n = (nbytes / 8) as u64;
    if n > MAX_NCHUNKS {
        return Err(
            Error::invalid("at most this many chunks:", MAX_NCHUNKS, n, at + 4).in_field("chunk_index")
        );
    }
    if let Some(want) = nchunks
        && want != n
    {
        return Err(Error::invalid("offsets for nchunks =", want, n, at + 4).in_field("chunk_index"));
    }
    if header.compressed_len() != index.len() {
        return Err(Error::invalid(
            "the offsets chunk to fill the gap before the trailer, bytes:",
            index.len(),
            header.compressed_len(),
            at + 12,
        )
        .in_field("chunk_index"));
    }
    let raw = b2schema_chunk::decompress_with_limit(index, nbytes)
        .map_err(|e| Error::chunk(e, at).in_field("chunk_index"))?;
    raw.chunks_exact(8)
        .enumerate()
        .map(|(i, b)| {
            let v = i64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
            entry(v, sparse).ok_or_else(|| {
                Error::invalid(
                    "a chunk offset or a special value",
                    "zeros, NaN or uninit",
                    alloc::format!("{v:#x}"),
                    at,
                )
                .in_segment(crate::format::error::Segment::Index(i))
                .in_field("chunk_index")
            })
        })
        .collect()
}
