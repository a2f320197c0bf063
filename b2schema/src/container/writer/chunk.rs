//! A frame's chunks as the writer makes them: its [`CParams`] handed to the chunk codec
//! (`b2schema-chunk`, which writes every header byte), the offsets index and vlmeta values.

use alloc::vec::Vec;

use super::cparams::CParams;
use crate::container::error::{Error, Result};

use b2schema_chunk::compress::{self, MAX_BUFFERSIZE, Params, Split};
use b2schema_chunk::{Codec, Registry};

fn check_len(nbytes: usize) -> Result<()> {
    if nbytes > MAX_BUFFERSIZE {
        return Err(Error::invalid("a chunk of at most this many bytes:", MAX_BUFFERSIZE, nbytes, 4));
    }
    Ok(())
}

/// A memcpy chunk: the 32-byte header then `data` as is, as c-blosc2 writes a chunk it does not
/// compress (clevel 0, or fewer than 32 bytes): flags `0x07`, the pipeline and codec of
/// `cparams` recorded in the extended header. `blocksize` 0 means one block of the whole chunk.
/// The chunk codec writes it ([`compress::memcpy`]).
pub fn memcpy(data: &[u8], typesize: usize, blocksize: usize, cparams: &CParams) -> Result<Vec<u8>> {
    check_len(data.len())?;
    compress::memcpy(data, &params(cparams, typesize, blocksize)).map_err(|e| Error::chunk(e, 0))
}

/// A chunk of `nbytes` holding `value` (one item) repeated: the 32-byte header, flags `0x05`,
/// `blosc2_flags` `0x30`, then the value, as `blosc2.full` writes its chunks
/// ([`compress::repeat_value`]).
pub fn repeat_value(value: &[u8], nbytes: usize, blocksize: usize) -> Result<Vec<u8>> {
    check_len(nbytes)?;
    compress::repeat_value(value, nbytes, blocksize).map_err(|e| Error::chunk(e, 0))
}

/// The compressor parameters of `cparams` for items of `typesize` bytes and blocks of
/// `blocksize` bytes (0: c-blosc2's automatic blocksize).
pub fn params(cparams: &CParams, typesize: usize, blocksize: usize) -> Params {
    Params::new(typesize)
        .with_codec(cparams.codec)
        .with_codec_meta(cparams.codec_meta)
        .with_clevel(cparams.clevel)
        .with_filters(cparams.filters, cparams.filters_meta)
        .with_split(cparams.splitmode)
        .with_blocksize(blocksize)
        .with_nthreads(usize::try_from(cparams.nthreads).unwrap_or(1).max(1))
        .with_use_dict(cparams.use_dict)
}

/// `data` compressed as c-blosc2 compresses a chunk with `cparams` (see
/// [`crate::chunk::compress`]): codec, clevel, filters, split mode, memcpy fallback, zero
/// chunks; `blocksize` 0 lets c-blosc2's rule choose.
pub fn compressed(data: &[u8], typesize: usize, blocksize: usize, cparams: &CParams) -> Result<Vec<u8>> {
    compressed_with(data, typesize, blocksize, cparams, Registry::builtin())
}

/// [`compressed`] with `registry`'s plugin codecs and filters besides the built-in ones.
pub fn compressed_with(
    data: &[u8],
    typesize: usize,
    blocksize: usize,
    cparams: &CParams,
    registry: &Registry,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    compressed_into(data, typesize, blocksize, cparams, registry, &mut out, None)?;
    Ok(out)
}

/// [`compressed_with`] into `out` (cleared first, its capacity reused): the writer's threads
/// compress chunk after chunk into buffers they keep; `watch` is told of the chunk's bytes as
/// its blocks are appended ([`compress::compress_into_watched`]).
pub(crate) fn compressed_into(
    data: &[u8],
    typesize: usize,
    blocksize: usize,
    cparams: &CParams,
    registry: &Registry,
    out: &mut Vec<u8>,
    watch: Option<&dyn compress::Watch>,
) -> Result<()> {
    check_len(data.len())?;
    compress::compress_into_watched(data, &params(cparams, typesize, blocksize), registry, out, watch)
        .map_err(|e| Error::chunk(e, 0))
}

/// [`compressed_into`] of a chunk whose bytes arrive while it is compressed (std).
#[cfg(feature = "std")]
pub(crate) fn compressed_arriving(
    src: &compress::Arriving,
    typesize: usize,
    blocksize: usize,
    cparams: &CParams,
    registry: &Registry,
    out: &mut Vec<u8>,
    watch: Option<&dyn compress::Watch>,
) -> Result<()> {
    check_len(src.len())?;
    compress::compress_arriving(src, &params(cparams, typesize, blocksize), registry, out, watch)
        .map_err(|e| Error::chunk(e, 0))
}

/// The parameters c-blosc2 compresses a frame's offsets index with (`BLOSC2_CPARAMS_DEFAULTS`
/// with typesize 8): blosclz, clevel 5, shuffle, forward-compat split.
const OFFSETS_PARAMS: Params = Params::new(8)
    .with_codec(Codec::BloscLz)
    .with_clevel(5)
    .with_split(Split::ForwardCompat)
    .with_filters(Params::SHUFFLE_LAST, [0; 6]);

/// The offsets index of `offsets` (little-endian int64 each), as c-blosc2 writes it: compressed
/// with blosclz (clevel 5, shuffle; small indexes fall back to a memcpy chunk), or a 40-byte
/// repeat-value chunk when every entry is the same negative special marker
/// (`frame_fill_special`).
pub fn offsets_index(offsets: &[i64]) -> Result<Vec<u8>> {
    let nbytes = offsets.len() * 8;
    if let [first, rest @ ..] = offsets
        && rest.iter().all(|v| v == first)
        && *first < 0
    {
        return repeat_value(&first.to_le_bytes(), nbytes, 16384);
    }
    check_len(nbytes)?;
    let mut raw = Vec::new();
    crate::container::limits::try_reserve(&mut raw, nbytes, "an offsets index", 0)?;
    for v in offsets {
        raw.extend_from_slice(&v.to_le_bytes());
    }
    compress::compress(&raw, &OFFSETS_PARAMS).map_err(|e| Error::chunk(e, 0))
}

/// A vlmetalayer value: the user bytes compressed with python-blosc2's vlmeta cparams (zstd,
/// clevel 5, typesize 1, shuffle in the last slot); values under 32 bytes are memcpy chunks,
/// as python-blosc2 writes them.
pub fn vlmeta(value: &[u8]) -> Result<Vec<u8>> {
    compressed(value, 1, 0, &CParams::default())
}
