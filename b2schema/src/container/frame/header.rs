//! The frame header: a fixarray of 14 values, 87 bytes of fixed width, then the metalayers.

use b2schema_derive::B2Layout;

use super::MetaLayers;
use super::codes::{FrameType, SplitMode};

/// The header of a Blosc2 frame (`new_header_frame` in c-blosc2's `frame.c`): 13 fixed-width
/// values (87 bytes) and the metalayers section.
#[derive(B2Layout, Debug, Clone, PartialEq)]
pub struct FrameHeader<'a> {
    /// The magic `b2frame\0`.
    #[b2(fixstr, magic = b"b2frame\0", offset = 2)]
    pub magic: [u8; 8],
    /// Header length, metalayers included.
    #[b2(int32, offset = 11, computed = super::HEADER_FIXED_LEN + self.metalayers.encoded_len())]
    pub header_len: i32,
    /// Whole frame length (an int64 under a uint64 marker).
    #[b2(uint64, offset = 16)]
    pub frame_len: i64,
    /// The four flag bytes, under a fixstr(4) marker.
    #[b2(fixstr, offset = 25)]
    pub flags: FrameFlags,
    /// Uncompressed bytes of all chunks.
    #[b2(int64, offset = 30)]
    pub nbytes: i64,
    /// Compressed bytes of the stored chunks.
    #[b2(int64, offset = 39)]
    pub cbytes: i64,
    /// Bytes per item.
    #[b2(int32, offset = 48)]
    pub typesize: i32,
    /// Block size asked for (0: automatic).
    #[b2(int32, offset = 53)]
    pub blocksize: i32,
    /// Chunk size (-1: not set yet, 0: variable).
    #[b2(int32, offset = 58)]
    pub chunksize: i32,
    /// Compression threads of the writer.
    #[b2(int16, offset = 63)]
    pub nthreads_comp: i16,
    /// Decompression threads of the writer.
    #[b2(int16, offset = 66)]
    pub nthreads_decomp: i16,
    /// Whether vlmetalayers existed when the header was written.
    #[b2(offset = 68)]
    pub has_vlmetalayers: bool,
    /// The filter pipeline, under a fixext16 marker.
    #[b2(fixext16, offset = 70)]
    pub filter_pipeline: FilterPipeline,
    /// The metalayers section (variable width).
    pub metalayers: MetaLayers<'a, 7>,
}

/// The four flag bytes of the frame header, each a typed field.
#[derive(B2Layout, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[b2(packed)]
pub struct FrameFlags {
    /// Format version (bits 0-3), offsets width (bits 4-5), variable chunks (bit 6), VL blocks
    /// (bit 7).
    pub general: u8,
    /// 0: contiguous frame, 1: sparse directory.
    pub frame_type: u8,
    /// Codec (bits 0-3, 6 for a user codec) and clevel (bits 4-7).
    pub codec: u8,
    /// Split mode - 1 (bits 0-1).
    pub other: u8,
}

/// The 17 bytes of the fixext16 filter pipeline: its type byte holds the number of filters.
#[derive(B2Layout, Debug, Clone, Copy, PartialEq, Eq, Default)]
#[b2(packed)]
pub struct FilterPipeline {
    /// Number of filter slots (always 6).
    pub nfilters: u8,
    /// Filter ids.
    pub filters: [u8; 6],
    /// The compcode (also for built-in codecs).
    pub udcodec: u8,
    /// Codec meta.
    pub codec_meta: u8,
    /// Filter metas.
    pub filters_meta: [u8; 6],
    /// Bit 0: use_dict.
    pub other_flags2: u8,
    /// Always 0.
    pub reserved: u8,
}

impl FrameFlags {
    /// Frame format version (bits 0-3 of the general flags): 1 to 3 are read today.
    pub const fn format_version(&self) -> u8 {
        self.general & 0x0f
    }

    /// Offsets width code (bits 4-5): always 1 (64 bits) in files c-blosc2 writes.
    pub const fn offsets_width_code(&self) -> u8 {
        (self.general >> 4) & 0x03
    }

    /// Variable-size chunks (bit 6, chunksize 0; c-blosc2 3.x).
    pub const fn variable_chunks(&self) -> bool {
        self.general & 0x40 != 0
    }

    /// Chunks with variable-length blocks (bit 7; c-blosc2 3.x).
    pub const fn vl_blocks(&self) -> bool {
        self.general & 0x80 != 0
    }

    /// The frame type, if it is one c-blosc2 knows.
    pub const fn frame_type(&self) -> Option<FrameType> {
        match self.frame_type {
            0 => Some(FrameType::Contiguous),
            1 => Some(FrameType::Sparse),
            _ => None,
        }
    }

    /// The codec nibble (bits 0-3): the compcode, or 6 for a user codec in `udcodec`.
    pub const fn codec_nibble(&self) -> u8 {
        self.codec & 0x0f
    }

    /// The compression level (bits 4-7 of the codec flags).
    pub const fn clevel(&self) -> u8 {
        self.codec >> 4
    }

    /// The split mode.
    pub const fn splitmode(&self) -> SplitMode {
        SplitMode::from_other_flags(self.other)
    }
}

impl FilterPipeline {
    /// The six filter slots.
    pub fn filters(&self) -> [b2schema_chunk::Filter; 6] {
        self.filters.map(b2schema_chunk::Filter::from_id)
    }

    /// Whether the chunks use a dictionary (bit 0 of `other_flags2`, c-blosc2 3.x).
    pub const fn use_dict(&self) -> bool {
        self.other_flags2 & 0x01 != 0
    }
}

impl FrameHeader<'_> {
    /// The full codec id (compcode): the nibble, or `udcodec` when the nibble is 6.
    pub const fn codec_id(&self) -> u8 {
        match self.flags.codec_nibble() {
            6 => self.filter_pipeline.udcodec,
            n => n,
        }
    }

    /// The codec, from [`FrameHeader::codec_id`].
    pub const fn codec(&self) -> b2schema_chunk::Codec {
        b2schema_chunk::Codec::from_id(self.codec_id())
    }

    /// The number of chunks by the reference rules (`nbytes / chunksize` rounded up, 0 when
    /// `nbytes` is 0), or `None` when it is not known from the header alone (variable chunks:
    /// the offsets index tells) or the header is inconsistent (chunksize < 0 with data).
    pub fn nchunks_from_header(&self) -> Option<i64> {
        match (self.nbytes, self.chunksize) {
            (0, _) => Some(0),
            (n, c) if c > 0 && n > 0 => Some((n - 1) / c as i64 + 1),
            _ => None,
        }
    }
}
