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
//! [`decompress_into`], [`Decoder`] (with a [`Registry`] of plugins, a limit, threads),
//! [`compress::compress`] / [`compress::compress_with`], [`ChunkHeader::parse`] and
//! [`ChunkHeader::peek`]. Codecs and filters are named by [`Codec`] and [`Filter`]; a codec or
//! filter the crate does not implement plugs in through [`CodecPlugin`] / [`FilterPlugin`].
//! c-blosc2's own plugins that python-blosc2 writes are built in, both ways: ZFP (33-35), NDLZ
//! (32), ndcell (32), ndmean (33) and int_trunc (36); all but int_trunc need the array's block
//! shape ([`Registry::with_array_shapes`] or [`Decoder::shapes`]), as c-blosc2's read it from
//! the `b2nd` metalayer.
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

// Layers, lowest first: the leaves (`bytes`, `error`, `fields`, `id`), the plugin `registry`, the
// `codec`s and `filter`s (each blind to the others and to chunks), then `chunk`, which cuts a
// chunk into blocks and streams and runs filters and codecs over them.
mod bytes;
mod chunk;
mod codec;
mod error;
mod fields;
mod filter;
mod id;
mod registry;
#[cfg(test)]
mod test_data;
/// This crate's own deflate encoder (zlib's `compress2` at a level, as zlib-rs writes it), for
/// `benches/zlib_own.rs` only (not part of the API).
#[cfg(feature = "zlib")]
#[doc(hidden)]
pub use codec::zlib::deflate::compress as __zlib_own_deflate;
/// The zstd decoder's entry for the fuzz target only (not part of the API).
#[cfg(feature = "zstd")]
#[doc(hidden)]
pub use codec::zstd::decode::fuzz_decode as __zstd_fuzz_decode;
/// This crate's own zstd encoder at a zstd level, for `benches/zstd_own.rs` and the fuzz target
/// only (not part of the API).
#[cfg(feature = "zstd")]
#[doc(hidden)]
pub use codec::zstd::encode::own_frame as __zstd_own_frame;
/// [`__zstd_own_frame`] into a buffer the caller keeps, for `benches/zstd_own.rs`'s timing only.
#[cfg(feature = "zstd")]
#[doc(hidden)]
pub use codec::zstd::encode::own_frame_onto as __zstd_own_frame_onto;
/// The AVX2 filter kernels next to the paths they replaced, for `benches/filter_kernels.rs`
/// only (not part of the API).
#[cfg(all(feature = "std", target_arch = "x86_64", target_feature = "sse2"))]
#[doc(hidden)]
pub use filter::kernel_bench::{Kernel as __FilterKernel, kernels as __filter_kernels};

pub use chunk::blocks::{BlockScratch, ChunkBlocks, Prefix};
pub use chunk::compress;
#[cfg(feature = "std")]
pub use chunk::decompress::decompress_into_threaded;
#[doc(hidden)]
pub use chunk::decompress::fill_pattern;
pub use chunk::decompress::{
    DEFAULT_MAX_NBYTES, Decoder, MAX_DICT_SIZE, decompress, decompress_into, decompress_with_limit,
    vl_block_lens,
};
pub use chunk::header::{
    B2_BIGENDIAN, B2_INSTR_CODEC, B2_LAZY, B2_USEDICT, B2_VL_BLOCKS, Blosc1Shuffle, CODEC_VERSION_FORMAT,
    COMPFORMAT_SHIFT, ChunkHeader, EXTENDED_HEADER_LEN, FLAG_BITSHUFFLE, FLAG_DELTA, FLAG_DONT_SPLIT,
    FLAG_EXTENDED, FLAG_MEMCPYED, FLAG_SHUFFLE, MAX_BLOCKSIZE, MAX_FILTERS, MAX_TYPESIZE, MIN_HEADER_LEN,
    SPECIAL_SHIFT, Special, VERSION_FORMAT, VERSION_STABLE,
};
pub use chunk::params::{Format, Params, Split};
pub use chunk::vl::VlBlocks;
pub use chunk::vl_compress::compress_vl_blocks;
pub use error::{Error, ErrorKind, Expectation, Expected, Finding, Found};
pub use id::{Codec, Filter, IdRange, UnknownName, UnnamedId};
pub use registry::{CodecPlugin, FilterPlugin, PluginContext, PluginError, Registry};

/// The chunk codec's error under its former name (`b2schema::chunk::ChunkError`).
pub type ChunkError = Error;
