//! The chunk header: the 16-byte Blosc1 header and the 32-byte Blosc2 extended header.
//!
//! Layout (all integers little-endian, offsets from the first byte of the chunk):
//!
//! | off | field | notes |
//! |---|---|---|
//! | 0 | version | 1, 2 Blosc1; 3 Blosc2 alpha; 4 beta; 5 stable; 6 VL blocks |
//! | 1 | versionlz | codec format version |
//! | 2 | flags | bit0 shuffle, bit1 memcpyed, bit2 bitshuffle, bit3 delta, bit4 dont_split, bits5-7 compformat |
//! | 3 | typesize | 1 when the real typesize is > 255 |
//! | 4 | nbytes (i32) | uncompressed size |
//! | 8 | blocksize (i32) | block size; the number of blocks for VL-block chunks |
//! | 12 | cbytes (i32) | whole chunk size, header included |
//! | 16..22 | filters\[6\] | extended header only |
//! | 22 | udcompcode | extended header only |
//! | 23 | compcode_meta | extended header only |
//! | 24..30 | filters_meta\[6\] | extended header only |
//! | 30 | blosc2_flags2 | bit0 VL blocks |
//! | 31 | blosc2_flags | bit0 use_dict, bit1 big-endian writer, bit3 lazy, bits4-6 special, bit7 instrumented |
//!
//! The extended header exists iff `flags` has bit 0 **and** bit 2 set
//! (c-blosc2 `read_chunk_header`).  For a Blosc1 header the filter pipeline is
//! derived from the flag bits exactly like c-blosc2's `flags_to_filters`.

use crate::bytes::{array_or_zero, byte_or_zero, i32_le};
use crate::error::{Error, Expected, Found, num};
use crate::fields;
pub use crate::fields::{CODEC_VERSION_FORMAT, MAX_FILTERS};
use crate::id::{Codec, Filter};

/// Length of a Blosc1 header (`BLOSC_MIN_HEADER_LENGTH`).
pub const MIN_HEADER_LEN: usize = 16;
/// Length of a Blosc2 extended header (`BLOSC_EXTENDED_HEADER_LENGTH`).
pub const EXTENDED_HEADER_LEN: usize = 32;
/// Largest block size c-blosc2 accepts (`BLOSC2_MAXBLOCKSIZE`).
pub const MAX_BLOCKSIZE: i32 = 536_866_816;
/// Largest typesize c-blosc2 accepts for repeat-value chunks (`BLOSC2_MAXTYPESIZE`).
pub const MAX_TYPESIZE: i32 = MAX_BLOCKSIZE;
/// Highest chunk format version (`BLOSC2_VERSION_FORMAT`, VL blocks).
pub const VERSION_FORMAT: u8 = 6;
/// Chunk format version c-blosc2 writes for regular chunks (`BLOSC2_VERSION_FORMAT_STABLE`).
pub const VERSION_STABLE: u8 = 5;
/// `flags` bits 0 and 2 together: the chunk has the 32-byte extended header.
pub const FLAG_EXTENDED: u8 = FLAG_SHUFFLE | FLAG_BITSHUFFLE;
/// Bit position of the compressor format in `flags` (bits 5-7).
pub const COMPFORMAT_SHIFT: u8 = 5;
/// Bit position of the special-value kind in `blosc2_flags` (bits 4-6).
pub const SPECIAL_SHIFT: u8 = 4;

/// `flags` bit 0: byte shuffle (Blosc1); with bit 2 it marks an extended header.
pub const FLAG_SHUFFLE: u8 = 0x01;
/// `flags` bit 1: the data is stored uncompressed after the header.
pub const FLAG_MEMCPYED: u8 = 0x02;
/// `flags` bit 2: bit shuffle (Blosc1); with bit 0 it marks an extended header.
pub const FLAG_BITSHUFFLE: u8 = 0x04;
/// `flags` bit 3: delta filter (Blosc1 header).
pub const FLAG_DELTA: u8 = 0x08;
/// `flags` bit 4: one stream per block instead of one per byte of the type.
pub const FLAG_DONT_SPLIT: u8 = 0x10;

/// `blosc2_flags` bit 0 (`BLOSC2_USEDICT`).
pub const B2_USEDICT: u8 = 0x01;
/// `blosc2_flags` bit 1 (`BLOSC2_BIGENDIAN`).
pub const B2_BIGENDIAN: u8 = 0x02;
/// `blosc2_flags` bit 3 (lazy chunk, only ever held in memory).
pub const B2_LAZY: u8 = 0x08;
/// `blosc2_flags` bit 7 (`BLOSC2_INSTR_CODEC`).
pub const B2_INSTR_CODEC: u8 = 0x80;
/// `blosc2_flags2` bit 0 (`BLOSC2_VL_BLOCKS`).
pub const B2_VL_BLOCKS: u8 = 0x01;

/// Special-value encoding of a chunk (`blosc2_flags` bits 4-6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Special {
    /// A regular chunk.
    None,
    /// All bytes are zero (`BLOSC2_SPECIAL_ZERO`).
    Zero,
    /// All items are NaN; typesize 4 or 8 (`BLOSC2_SPECIAL_NAN`).
    Nan,
    /// One value, stored after the header, repeated (`BLOSC2_SPECIAL_VALUE`).
    Value,
    /// Uninitialized data (`BLOSC2_SPECIAL_UNINIT`); this decoder yields zeros.
    Uninit,
}

/// Shuffle kind encoded in the flag bits of a Blosc1 (16-byte) header.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Blosc1Shuffle {
    /// No shuffle.
    None,
    /// Byte shuffle (bit 0).
    Byte,
    /// Bit shuffle (bit 2).
    Bit,
}

/// A parsed and validated chunk header.
///
/// Fields hold the stored values.  For a Blosc1 header the extended fields
/// are zero, except `filters`, which is derived from the flag bits the way
/// c-blosc2 does it (shuffle or bitshuffle in slot 5, delta in slot 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChunkHeader {
    /// Format version (byte 0).
    pub version: u8,
    /// Codec format version (byte 1).
    pub versionlz: u8,
    /// Flag byte (byte 2).
    pub flags: u8,
    /// Type size (byte 3).
    pub typesize: u8,
    /// Uncompressed size (bytes 4..8).
    pub nbytes: i32,
    /// Block size, or number of blocks for VL-block chunks (bytes 8..12).
    pub blocksize: i32,
    /// Total chunk size, header included (bytes 12..16).
    pub cbytes: i32,
    /// Filter pipeline, applied in slot order when compressing (bytes 16..22).
    pub filters: [u8; MAX_FILTERS],
    /// Codec id (byte 22).
    pub udcompcode: u8,
    /// Codec meta (byte 23).
    pub compcode_meta: u8,
    /// Filter metas (bytes 24..30).
    pub filters_meta: [u8; MAX_FILTERS],
    /// Second flag byte (byte 30).
    pub blosc2_flags2: u8,
    /// Blosc2 flag byte (byte 31).
    pub blosc2_flags: u8,
}

impl Special {
    /// The kind's value in `blosc2_flags` bits 4-6 (`BLOSC2_SPECIAL_*`), not yet shifted.
    pub const fn id(self) -> u8 {
        match self {
            Special::None => 0,
            Special::Zero => 1,
            Special::Nan => 2,
            Special::Value => 3,
            Special::Uninit => 4,
        }
    }
}

impl ChunkHeader {
    /// Parses and validates the header of a complete chunk.
    ///
    /// Besides the field checks of [`ChunkHeader::peek`], `cbytes` must not
    /// exceed `chunk.len()` (lazy chunks excepted, as in c-blosc2).
    pub fn parse(chunk: &[u8]) -> Result<Self, Error> {
        let h = Self::peek(chunk)?;
        if !h.is_lazy() && h.compressed_len() > chunk.len() {
            return Err(Error::truncated(fields::CBYTES, "cbytes", h.compressed_len(), chunk.len()));
        }
        Ok(h)
    }

    /// Parses and validates a header from the first 16 (Blosc1) or 32
    /// (Blosc2) bytes of a chunk; the rest of the chunk need not be present.
    ///
    /// The checks are those of c-blosc2's `read_chunk_header` plus the header
    /// checks of `initialize_context_decompression` (special-value id,
    /// memcpyed size, VL-block combinations).
    pub fn peek(prefix: &[u8]) -> Result<Self, Error> {
        if prefix.len() < MIN_HEADER_LEN {
            return Err(Error::truncated(0, "header", MIN_HEADER_LEN, prefix.len()));
        }
        let mut h = ChunkHeader {
            version: byte_or_zero(prefix, fields::VERSION),
            versionlz: byte_or_zero(prefix, fields::VERSIONLZ),
            flags: byte_or_zero(prefix, fields::FLAGS),
            typesize: byte_or_zero(prefix, fields::TYPESIZE),
            nbytes: i32_le(prefix, fields::NBYTES).unwrap_or(0),
            blocksize: i32_le(prefix, fields::BLOCKSIZE).unwrap_or(0),
            cbytes: i32_le(prefix, fields::CBYTES).unwrap_or(0),
            filters: [0; MAX_FILTERS],
            udcompcode: 0,
            compcode_meta: 0,
            filters_meta: [0; MAX_FILTERS],
            blosc2_flags2: 0,
            blosc2_flags: 0,
        };
        let min_cbytes = if h.is_extended() { EXTENDED_HEADER_LEN } else { MIN_HEADER_LEN };
        if h.cbytes < MIN_HEADER_LEN as i32 {
            return Err(Error::invalid(
                fields::CBYTES,
                "cbytes",
                Expected::AtLeast(MIN_HEADER_LEN as i64),
                Found::Value(h.cbytes.into()),
            ));
        }
        if h.nbytes < 0 {
            return Err(Error::invalid(
                fields::NBYTES,
                "nbytes",
                Expected::AtLeast(0),
                Found::Value(h.nbytes.into()),
            ));
        }
        if h.blocksize <= 0 || h.blocksize > MAX_BLOCKSIZE {
            return Err(Error::invalid(
                fields::BLOCKSIZE,
                "blocksize",
                Expected::InRange(1, MAX_BLOCKSIZE.into()),
                Found::Value(h.blocksize.into()),
            ));
        }
        if h.typesize == 0 {
            return Err(Error::invalid(fields::TYPESIZE, "typesize", Expected::AtLeast(1), Found::Value(0)));
        }
        if h.is_extended() {
            if h.cbytes < EXTENDED_HEADER_LEN as i32 {
                return Err(Error::invalid(
                    fields::CBYTES,
                    "cbytes",
                    Expected::AtLeast(min_cbytes as i64),
                    Found::Value(h.cbytes.into()),
                ));
            }
            if prefix.len() < EXTENDED_HEADER_LEN {
                return Err(Error::truncated(
                    MIN_HEADER_LEN,
                    "extended header",
                    EXTENDED_HEADER_LEN,
                    prefix.len(),
                ));
            }
            h.filters = array_or_zero(prefix, fields::FILTERS);
            h.udcompcode = byte_or_zero(prefix, fields::UDCOMPCODE);
            h.compcode_meta = byte_or_zero(prefix, fields::COMPCODE_META);
            h.filters_meta = array_or_zero(prefix, fields::FILTERS_META);
            h.blosc2_flags2 = byte_or_zero(prefix, fields::BLOSC2_FLAGS2);
            h.blosc2_flags = byte_or_zero(prefix, fields::BLOSC2_FLAGS);
            // Blosc2 alpha chunks did not initialise the last filter slot.
            if h.version == 3 {
                h.filters[MAX_FILTERS - 1] = 0;
                h.filters_meta[MAX_FILTERS - 1] = 0;
            }
            h.check_special()?;
        } else {
            h.filters = filters_from_flags(h.flags);
        }
        if h.version > VERSION_FORMAT && h.blosc2_flags2 & !B2_VL_BLOCKS != 0 {
            return Err(Error::unsupported(
                fields::BLOSC2_FLAGS2,
                "blosc2_flags2",
                "no unknown chunk feature bits in a chunk from a newer format version",
                Found::Value(h.blosc2_flags2.into()),
            ));
        }
        if h.is_vl_blocks() && h.is_memcpyed() {
            return Err(Error::invalid(
                fields::FLAGS,
                "flags",
                Expected::Text("no memcpyed bit in a VL-block chunk"),
                Found::Value(h.flags.into()),
            ));
        }
        if h.is_memcpyed() {
            let want = i64::from(h.nbytes) + h.header_len() as i64;
            if i64::from(h.cbytes) != want {
                return Err(Error::invalid(
                    fields::CBYTES,
                    "cbytes",
                    Expected::Exactly(want),
                    Found::Value(h.cbytes.into()),
                ));
            }
        }
        Ok(h)
    }

    /// Validates the special-value bits (`read_chunk_header` and
    /// `initialize_context_decompression`).
    fn check_special(&self) -> Result<(), Error> {
        let raw = (self.blosc2_flags >> 4) & 0x07;
        if raw == 0 {
            return Ok(());
        }
        if self.is_vl_blocks() {
            return Err(Error::invalid(
                fields::BLOSC2_FLAGS,
                "blosc2_flags",
                Expected::Text("no special value in a VL-block chunk"),
                Found::Value(self.blosc2_flags.into()),
            ));
        }
        if raw > 4 {
            return Err(Error::invalid(
                fields::BLOSC2_FLAGS,
                "blosc2_flags",
                Expected::Text("special id 0..=4 in bits 4-6"),
                Found::Value(raw.into()),
            ));
        }
        let item = if raw == 3 {
            let size = i64::from(self.cbytes) - EXTENDED_HEADER_LEN as i64;
            if size <= 0 || size > i64::from(MAX_TYPESIZE) || size > i64::from(self.nbytes) {
                return Err(Error::invalid(
                    fields::CBYTES,
                    "cbytes",
                    Expected::Text("32 + value size, with 1 <= value size <= nbytes"),
                    Found::Value(self.cbytes.into()),
                ));
            }
            size
        } else {
            i64::from(self.typesize)
        };
        // All zeros fill any length (c-blosc2 3.3 writes and reads them for a length that is
        // not a whole number of items); the other specials repeat whole items.
        if raw != Special::Zero.id() && i64::from(self.nbytes) % item != 0 {
            return Err(Error::invalid(
                fields::NBYTES,
                "nbytes",
                Expected::MultipleOf(item),
                Found::Value(self.nbytes.into()),
            ));
        }
        Ok(())
    }

    /// `true` when the chunk carries the 32-byte extended header.
    pub fn is_extended(&self) -> bool {
        self.flags & FLAG_EXTENDED == FLAG_EXTENDED
    }

    /// Header length: 32 for extended headers, 16 otherwise.
    pub fn header_len(&self) -> usize {
        if self.is_extended() { EXTENDED_HEADER_LEN } else { MIN_HEADER_LEN }
    }

    /// `flags` bit 1: data is stored raw after the header.
    pub fn is_memcpyed(&self) -> bool {
        self.flags & FLAG_MEMCPYED != 0
    }

    /// `flags` bit 4: each block is a single stream.
    pub fn dont_split(&self) -> bool {
        self.flags & FLAG_DONT_SPLIT != 0
    }

    /// Compressor format number (`flags` bits 5-7).
    pub fn compformat(&self) -> u8 {
        self.flags >> COMPFORMAT_SHIFT
    }

    /// The codec: from the compressor format (`flags` bits 5-7), and for format 6 (a user or
    /// plugin codec) from `udcompcode`. Formats no c-blosc version defines (5, 7), and format 6
    /// naming one of c-blosc2's own ids (0-31), are refused: c-blosc2 never writes them.
    pub fn codec(&self) -> Result<Codec, Error> {
        Ok(match self.compformat() {
            0 => Codec::BloscLz,
            1 if self.is_extended() && self.udcompcode == Codec::Lz4hc.id() => Codec::Lz4hc,
            1 => Codec::Lz4,
            2 => Codec::Snappy,
            3 => Codec::Zlib,
            4 => Codec::Zstd,
            6 if self.udcompcode >= 32 => Codec::from_id(self.udcompcode),
            6 => {
                return Err(Error::unsupported(
                    crate::fields::UDCOMPCODE,
                    "udcompcode",
                    "a plugin or user codec id (32-255) for compressor format 6",
                    Found::Value(self.udcompcode.into()),
                ));
            }
            other => {
                return Err(Error::unsupported(
                    crate::fields::FLAGS,
                    "flags",
                    "a known compressor format (0, 1, 2, 3, 4 or 6) in bits 5-7",
                    Found::Value(other.into()),
                ));
            }
        })
    }

    /// The filter pipeline, slot by slot.
    pub fn filter_ids(&self) -> [Filter; MAX_FILTERS] {
        self.filters.map(Filter::from_id)
    }

    /// Shuffle kind of a Blosc1 header; `None` for an extended header,
    /// whose flag bits 0 and 2 only mark the header format.
    pub fn blosc1_shuffle(&self) -> Option<Blosc1Shuffle> {
        if self.is_extended() {
            None
        } else if self.flags & FLAG_BITSHUFFLE != 0 {
            Some(Blosc1Shuffle::Bit)
        } else if self.flags & FLAG_SHUFFLE != 0 {
            Some(Blosc1Shuffle::Byte)
        } else {
            Some(Blosc1Shuffle::None)
        }
    }

    /// `flags` bit 3 of a Blosc1 header (delta filter); `false` for extended headers.
    pub fn blosc1_delta(&self) -> bool {
        !self.is_extended() && self.flags & FLAG_DELTA != 0
    }

    /// Special-value kind (always [`Special::None`] for Blosc1 headers).
    pub fn special(&self) -> Special {
        match (self.blosc2_flags >> SPECIAL_SHIFT) & 0x07 {
            1 => Special::Zero,
            2 => Special::Nan,
            3 => Special::Value,
            4 => Special::Uninit,
            _ => Special::None,
        }
    }

    /// `blosc2_flags2` bit 0: variable-length blocks (format version 6).
    pub fn is_vl_blocks(&self) -> bool {
        self.blosc2_flags2 & B2_VL_BLOCKS != 0
    }

    /// `blosc2_flags` bit 1: written on a big-endian host.
    pub fn is_big_endian(&self) -> bool {
        self.blosc2_flags & B2_BIGENDIAN != 0
    }

    /// `blosc2_flags` bit 0: a dictionary follows the bstarts table.
    pub fn uses_dict(&self) -> bool {
        self.blosc2_flags & B2_USEDICT != 0
    }

    /// `blosc2_flags` bit 3: lazy chunk (in-memory only; data left on disk).
    pub fn is_lazy(&self) -> bool {
        self.blosc2_flags & B2_LAZY != 0
    }

    /// `blosc2_flags` bit 7: instrumented codec output instead of data.
    pub fn is_instrumented(&self) -> bool {
        self.blosc2_flags & B2_INSTR_CODEC != 0
    }

    /// `nbytes` as `usize` (validated non-negative).
    pub fn uncompressed_len(&self) -> usize {
        usize::try_from(self.nbytes).unwrap_or(0)
    }

    /// `cbytes` as `usize` (validated >= 16).
    pub fn compressed_len(&self) -> usize {
        usize::try_from(self.cbytes).unwrap_or(0)
    }

    /// Block size used for decoding a regular chunk: `blocksize` clamped to
    /// `nbytes` when `nbytes > 0`, as c-blosc2 3.x does.  For VL-block chunks
    /// this is the stored value (the number of blocks).
    pub fn effective_blocksize(&self) -> usize {
        let bs = usize::try_from(self.blocksize).unwrap_or(1);
        let n = self.uncompressed_len();
        if !self.is_vl_blocks() && n > 0 && bs > n { n } else { bs }
    }

    /// Number of blocks (`ceil(nbytes / blocksize)`, or `blocksize` for VL blocks).
    pub fn nblocks(&self) -> usize {
        if self.is_vl_blocks() {
            return usize::try_from(self.blocksize).unwrap_or(0);
        }
        let bs = self.effective_blocksize().max(1);
        self.uncompressed_len().div_ceil(bs)
    }

    /// Size of the repeated value of a [`Special::Value`] chunk (`cbytes - 32`).
    pub fn special_value_len(&self) -> usize {
        self.compressed_len().saturating_sub(EXTENDED_HEADER_LEN)
    }
}

/// c-blosc2 `flags_to_filters`: the pipeline implied by a Blosc1 flag byte.
fn filters_from_flags(flags: u8) -> [u8; MAX_FILTERS] {
    let mut f = [0u8; MAX_FILTERS];
    if flags & FLAG_SHUFFLE != 0 {
        f[MAX_FILTERS - 1] = Filter::Shuffle.id();
    }
    if flags & FLAG_BITSHUFFLE != 0 {
        f[MAX_FILTERS - 1] = Filter::BitShuffle.id();
    }
    if flags & FLAG_DELTA != 0 {
        f[MAX_FILTERS - 2] = Filter::Delta.id();
    }
    f
}

/// Error helper: `cbytes` as a value for messages.
pub(crate) fn found_usize(v: usize) -> Found {
    Found::Value(num(v))
}
