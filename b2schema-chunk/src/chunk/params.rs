//! What to compress a chunk with: [`Params`] and [`Split`], leaves that name codecs and filters
//! only through [`Codec`] and [`Filter`].

use crate::chunk::header::{EXTENDED_HEADER_LEN, MAX_FILTERS};
pub use crate::chunk::split::Split;
use crate::chunk::{blocksize, blosc1};
use crate::error::{Error, ErrorKind, Expected, Found, num};
use crate::id::{Codec, Filter};

/// Largest chunk c-blosc2 compresses (`BLOSC2_MAX_BUFFERSIZE`: `INT32_MAX - 32`).
pub const MAX_BUFFERSIZE: usize = i32::MAX as usize - EXTENDED_HEADER_LEN;
/// Largest typesize that keeps its own streams; larger types are compressed as bytes
/// (`BLOSC_MAX_TYPESIZE`), and the header's typesize byte says 1.
pub const MAX_SPLIT_TYPESIZE: usize = 255;

/// What to compress a chunk with. Made by [`Params::new`] (python-blosc2's defaults) and
/// changed field by field or with the `with_*` methods:
///
/// ```
/// use b2schema_chunk::{Codec, Filter, compress::Params};
///
/// let p = Params::new(8).with_codec(Codec::Lz4).with_clevel(9).with_filter(5, Filter::BitShuffle, 0);
/// assert_eq!((p.codec, p.clevel, p.filters[5]), (Codec::Lz4, 9, Filter::BitShuffle));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Params {
    /// The codec.
    pub codec: Codec,
    /// Codec meta, recorded in the header.
    pub codec_meta: u8,
    /// Compression level, 0 (memcpy) to 9.
    pub clevel: u8,
    /// Bytes per item (1 to [`MAX_TYPESIZE`](crate::MAX_TYPESIZE)).
    pub typesize: usize,
    /// The six filter slots, applied in slot order.
    pub filters: [Filter; MAX_FILTERS],
    /// Filter metas (shuffle/bytedelta: element size, 0 for the typesize; trunc_prec: bits).
    pub filters_meta: [u8; MAX_FILTERS],
    /// Split mode.
    pub split: Split,
    /// Block size in bytes, 0 for c-blosc2's automatic one.
    pub blocksize: usize,
    /// Threads used to compress the blocks (1: this thread only).
    pub nthreads: usize,
    /// A dictionary taken from the chunk's own filtered blocks, stored in the chunk and used for
    /// every stream (c-blosc2's `use_dict`); zstd, lz4 and lz4hc (other codecs: an
    /// `Unsupported` error).
    /// Chunks too small for a useful one (under 5 120 bytes) are compressed without.
    pub use_dict: bool,
    /// The chunk format written: [`Format::Blosc2`] (c-blosc2's 32-byte extended header, the
    /// default) or [`Format::Blosc1`] (c-blosc 1.x's 16-byte header, what numcodecs' `Blosc`
    /// and zarr-python read).
    pub format: Format,
}

/// The chunk format [`compress`](crate::compress::compress) writes.
///
/// ```
/// use b2schema_chunk::{Codec, Filter, compress::{self, Format, Params, Split}};
///
/// // numcodecs' Blosc(cname="lz4", clevel=5, shuffle=SHUFFLE) for 4-byte items.
/// let p = Params::blosc1(4).with_codec(Codec::Lz4);
/// assert_eq!((p.format, p.split, p.filters[5]), (Format::Blosc1, Split::ForwardCompat, Filter::Shuffle));
/// let data: Vec<u8> = (0..4000u32).flat_map(|i| (i / 3).to_le_bytes()).collect();
/// let chunk = compress::compress(&data, &p).unwrap();
/// assert_eq!(chunk[0], 2); // the Blosc1 format version byte
/// assert_eq!(b2schema_chunk::decompress(&chunk).unwrap(), data);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// c-blosc2's chunks: the 32-byte extended header, version 5, every codec and filter.
    Blosc2,
    /// c-blosc 1.x's chunks (1.21.x): the 16-byte header, version 2, as c-blosc 1.x writes
    /// them (its blocksize, split rule, no runs, no special chunks). Codecs blosclz, lz4, lz4hc,
    /// zlib and zstd; at most one shuffle or bitshuffle and no other filter; no dictionary;
    /// [`Split::Always`] splits only where c-blosc 1.x's reader does (typesize <= 16, 128 items
    /// a block).
    Blosc1,
}

impl Params {
    /// c-blosc2's and python-blosc2's default pipeline: a byte shuffle in the last slot.
    pub const SHUFFLE_LAST: [Filter; MAX_FILTERS] = [
        Filter::NoFilter,
        Filter::NoFilter,
        Filter::NoFilter,
        Filter::NoFilter,
        Filter::NoFilter,
        Filter::Shuffle,
    ];

    /// python-blosc2's defaults for items of `typesize` bytes: zstd, clevel 5, shuffle in the
    /// last slot, auto split, automatic blocksize, one thread.
    pub const fn new(typesize: usize) -> Params {
        Params {
            codec: Codec::Zstd,
            codec_meta: 0,
            clevel: 5,
            typesize,
            filters: Params::SHUFFLE_LAST,
            filters_meta: [0; MAX_FILTERS],
            split: Split::Auto,
            blocksize: 0,
            nthreads: 1,
            use_dict: false,
            format: Format::Blosc2,
        }
    }

    /// numcodecs' `Blosc` defaults for items of `typesize` bytes, in c-blosc 1.x's format: lz4,
    /// clevel 5, byte shuffle, c-blosc 1.x's default split mode (forward-compat), automatic
    /// blocksize, one thread.
    pub const fn blosc1(typesize: usize) -> Params {
        Params {
            codec: Codec::Lz4,
            split: Split::ForwardCompat,
            format: Format::Blosc1,
            ..Params::new(typesize)
        }
    }

    /// Writing chunks of `format`.
    pub const fn with_format(mut self, format: Format) -> Params {
        self.format = format;
        self
    }

    /// With `codec`.
    pub const fn with_codec(mut self, codec: Codec) -> Params {
        self.codec = codec;
        self
    }

    /// With the codec's meta (`compcode_meta`: ZFP's accuracy, precision or rate, for example).
    pub const fn with_codec_meta(mut self, meta: u8) -> Params {
        self.codec_meta = meta;
        self
    }

    /// With compression level `clevel` (0 to 9).
    pub const fn with_clevel(mut self, clevel: u8) -> Params {
        self.clevel = clevel;
        self
    }

    /// With `filter` and its `meta` in `slot` (0 to 5; the last slot runs last).
    pub const fn with_filter(mut self, slot: usize, filter: Filter, meta: u8) -> Params {
        if slot < MAX_FILTERS {
            self.filters[slot] = filter;
            self.filters_meta[slot] = meta;
        }
        self
    }

    /// With these six filter slots and their metas.
    pub const fn with_filters(mut self, filters: [Filter; MAX_FILTERS], metas: [u8; MAX_FILTERS]) -> Params {
        self.filters = filters;
        self.filters_meta = metas;
        self
    }

    /// With split mode `split`.
    pub const fn with_split(mut self, split: Split) -> Params {
        self.split = split;
        self
    }

    /// With blocks of `blocksize` bytes (0: c-blosc2's automatic size).
    pub const fn with_blocksize(mut self, blocksize: usize) -> Params {
        self.blocksize = blocksize;
        self
    }

    /// Compressing blocks on `nthreads` threads.
    pub const fn with_nthreads(mut self, nthreads: usize) -> Params {
        self.nthreads = nthreads;
        self
    }

    /// With or without a dictionary (`use_dict`).
    pub const fn with_use_dict(mut self, use_dict: bool) -> Params {
        self.use_dict = use_dict;
        self
    }

    /// `true` when a byte shuffle is in the pipeline (c-blosc2's `BLOSC_DOSHUFFLE` flag).
    pub(crate) fn has_shuffle(&self) -> bool {
        self.filters.contains(&Filter::Shuffle)
    }

    /// The blocksize c-blosc2 (c-blosc 1.x for [`Format::Blosc1`]) uses for a chunk of `nbytes` with these parameters.
    pub fn blocksize_for(&self, nbytes: usize) -> usize {
        if self.format == Format::Blosc1 {
            let typesize = if self.typesize > MAX_SPLIT_TYPESIZE { 1 } else { self.typesize };
            return blosc1::blocksize(nbytes, typesize, self.clevel, self.codec, self.split, self.blocksize);
        }
        blocksize::blocksize(
            nbytes,
            self.typesize,
            self.clevel,
            self.codec,
            self.split,
            self.has_shuffle(),
            self.blocksize,
        )
    }
}

impl Params {
    /// The shuffle of a [`Format::Blosc1`] chunk, or the error when c-blosc 1.x cannot write
    /// these parameters: a codec other than blosclz, lz4, lz4hc, zlib and zstd; a filter other
    /// than shuffle and bitshuffle, or both, or one twice; a dictionary.
    pub(crate) fn blosc1_shuffle(&self) -> Result<blosc1::Shuffle, Error> {
        if !matches!(self.codec, Codec::BloscLz | Codec::Lz4 | Codec::Lz4hc | Codec::Zlib | Codec::Zstd) {
            return Err(param_error(
                "codec",
                Expected::Text("blosclz, lz4, lz4hc, zlib or zstd in a Blosc1 chunk"),
                usize::from(self.codec.id()),
            ));
        }
        if self.use_dict {
            return Err(param_error("use_dict", Expected::Text("no dictionary in a Blosc1 chunk"), 1));
        }
        let mut shuffle = blosc1::Shuffle::None;
        for f in &self.filters {
            let this = match f {
                Filter::NoFilter => continue,
                Filter::Shuffle => blosc1::Shuffle::Byte,
                Filter::BitShuffle => blosc1::Shuffle::Bit,
                other => {
                    return Err(param_error(
                        "filters",
                        Expected::Text(
                            "shuffle, bitshuffle or no filter in a Blosc1 chunk (c-blosc 1.x has no other)",
                        ),
                        usize::from(other.id()),
                    ));
                }
            };
            if shuffle != blosc1::Shuffle::None {
                return Err(param_error(
                    "filters",
                    Expected::Text("at most one shuffle or bitshuffle in a Blosc1 chunk"),
                    usize::from(f.id()),
                ));
            }
            shuffle = this;
        }
        Ok(shuffle)
    }
}

/// The error for parameter `field` (offset 0: parameters are not in a chunk yet).
pub(crate) fn param_error(field: &'static str, expected: Expected, found: usize) -> Error {
    Error::new(ErrorKind::Invalid, 0, field, expected, Found::Value(num(found)))
}
