//! Where the chunk header keeps each field, and the sizes every layer of the crate shares:
//! written once here, used by the header parser, the codec and filter errors and the compressor.

/// Number of filter slots in the pipeline (`BLOSC2_MAX_FILTERS`).
pub const MAX_FILTERS: usize = 6;
/// Codec format version of every built-in codec (`BLOSC_*_VERSION_FORMAT`), byte 1.
pub const CODEC_VERSION_FORMAT: u8 = 1;

/// Byte 0: the chunk format version.
pub(crate) const VERSION: usize = 0;
/// Byte 1: the codec's format version.
pub(crate) const VERSIONLZ: usize = 1;
/// Byte 2: the flag byte.
pub(crate) const FLAGS: usize = 2;
/// Byte 3: the typesize.
pub(crate) const TYPESIZE: usize = 3;
/// Bytes 4..8: `nbytes`.
pub(crate) const NBYTES: usize = 4;
/// Bytes 8..12: `blocksize`.
pub(crate) const BLOCKSIZE: usize = 8;
/// Bytes 12..16: `cbytes`.
pub(crate) const CBYTES: usize = 12;
/// Bytes 16..22: the filter slots (extended header).
pub(crate) const FILTERS: usize = 16;
/// Byte 22: the codec id (extended header).
pub(crate) const UDCOMPCODE: usize = 22;
/// Byte 23: the codec's meta (extended header).
pub(crate) const COMPCODE_META: usize = 23;
/// Bytes 24..30: the filter metas (extended header).
pub(crate) const FILTERS_META: usize = 24;
/// Byte 30: `blosc2_flags2`.
pub(crate) const BLOSC2_FLAGS2: usize = 30;
/// Byte 31: `blosc2_flags`.
pub(crate) const BLOSC2_FLAGS: usize = 31;

/// Offset of filter slot `i`.
pub(crate) const fn filter_offset(i: usize) -> usize {
    FILTERS + i
}

/// Offset of the meta of filter slot `i`.
pub(crate) const fn filter_meta_offset(i: usize) -> usize {
    FILTERS_META + i
}
