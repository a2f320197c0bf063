//! Pure-Rust codec for Blosc1 and Blosc2 chunks, byte-compatible with c-blosc2 3.x: the
//! decoder ([`decompress`], [`ChunkBlocks`]) reads every chunk c-blosc2 writes, and the
//! compressor ([`compress`]) writes Blosc2 chunks as c-blosc2 does.
//!
//! ```
//! use b2schema_chunk::compress::{self, Params};
//!
//! let data: Vec<u8> = (0..4000u32).flat_map(|i| (i / 7).to_le_bytes()).collect();
//! let chunk = compress::compress(&data, &Params::new(4)).unwrap();
//! assert!(chunk.len() < data.len());
//! assert_eq!(b2schema_chunk::decompress(&chunk).unwrap(), data);
//! ```
//!
//! A chunk is a header ([`ChunkHeader`], 16 bytes for Blosc1, 32 for Blosc2)
//! followed by either nothing (special-value chunks), the raw data
//! (memcpyed chunks), or a blocks section: an `int32` start offset per block
//! (`bstarts`), an optional dictionary (`int32` size + bytes), then for each
//! block one stream per byte of the type (or one stream when `dont_split` is
//! set, for the last partial block, and for VL blocks), each stream being an
//! `int32 csize` followed by its data.  After decompression the filter
//! pipeline (shuffle, bitshuffle, delta, bytedelta ...) is undone per block.
//!
//! Entry points: [`decompress`], [`decompress_with_limit`],
//! [`decompress_into`], [`ChunkHeader::parse`] and [`ChunkHeader::peek`].
//! Every size in the chunk is validated before use; no input can make these
//! functions panic, loop forever or allocate more than the chunk proves
//! (bounded by the caller's limit).
//!
//! `no_std` with `alloc`. Features: `std` (the threaded decoder and compressor,
//! `std::error::Error`), and one per codec: `blosclz`, `lz4`, `zlib`, `zstd` (all on by default;
//! a chunk that uses a codec left out is an [`ErrorKind::Unsupported`] error).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod bitshuffle;
mod blocks;
#[cfg(feature = "blosclz")]
mod blosclz;
mod bytedelta;
mod bytes;
mod codecs;
pub mod compress;
mod decompress;
mod delta;
mod error;
mod filters;
mod header;
#[cfg(feature = "lz4")]
mod lz4;
mod shuffle;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod unshuffle_sse2;
#[cfg(feature = "zstd")]
#[path = "codec/zstd/decode/mod.rs"]
mod zstd_decode;
/// The zstd decoder's entry for the fuzz target only (not part of the API).
#[cfg(feature = "zstd")]
#[doc(hidden)]
pub use zstd_decode::fuzz_decode as __zstd_fuzz_decode;

pub use blocks::{BlockScratch, ChunkBlocks, Prefix};
#[cfg(feature = "std")]
pub use decompress::decompress_into_threaded;
#[doc(hidden)]
pub use decompress::fill_pattern;
pub use decompress::{
    DEFAULT_MAX_NBYTES, MAX_DICT_SIZE, decompress, decompress_into, decompress_with_limit, vl_block_lens,
};
pub use error::{Error, ErrorKind, Expectation, Expected, Finding, Found};

/// The chunk codec's error under its former name (`b2schema::chunk::ChunkError`).
pub type ChunkError = Error;
pub use header::{
    B2_BIGENDIAN, B2_INSTR_CODEC, B2_LAZY, B2_USEDICT, B2_VL_BLOCKS, Blosc1Shuffle, CODEC_VERSION_FORMAT,
    COMPFORMAT_SHIFT, ChunkHeader, Codec, EXTENDED_HEADER_LEN, FLAG_BITSHUFFLE, FLAG_DELTA, FLAG_DONT_SPLIT,
    FLAG_EXTENDED, FLAG_MEMCPYED, FLAG_SHUFFLE, MAX_BLOCKSIZE, MAX_FILTERS, MAX_TYPESIZE, MIN_HEADER_LEN,
    SPECIAL_SHIFT, Special, VERSION_FORMAT, VERSION_STABLE, codec_name, compcode, filter_id, filter_name,
    plugin_codec_name,
};
