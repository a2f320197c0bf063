//! Blosc2 chunks written without a compressor: memcpy chunks and repeat-value chunks, with the
//! header bytes c-blosc2 writes for them.

use alloc::vec::Vec;

use super::CParams;
use crate::error::{Error, Result};

/// Bytes of a Blosc2 chunk header (with the extended part).
pub const CHUNK_HEADER_LEN: usize = 32;
/// The largest chunk c-blosc2 writes (`BLOSC2_MAX_BUFFERSIZE`: `INT32_MAX - 32`).
pub const MAX_CHUNK_NBYTES: usize = i32::MAX as usize - CHUNK_HEADER_LEN;

use crate::chunk::compress::{self, Params, Split};
use crate::chunk::{
    CODEC_VERSION_FORMAT, FLAG_EXTENDED, FLAG_MEMCPYED, SPECIAL_SHIFT, Special, VERSION_STABLE, compcode,
    filter_id,
};

/// Chunk flags of a memcpy chunk: the extended-header bits and the memcpyed bit.
const FLAGS_MEMCPY: u8 = FLAG_EXTENDED | FLAG_MEMCPYED;
/// Chunk flags of a special-value chunk: the extended-header bits alone.
const FLAGS_SPECIAL: u8 = FLAG_EXTENDED;
/// `blosc2_flags` value of a repeat-value chunk (`BLOSC2_SPECIAL_VALUE << 4`).
const SPECIAL_VALUE: u8 = Special::Value.id() << SPECIAL_SHIFT;

/// The chunk header's typesize byte: the typesize, or 1 above 255 (the frame keeps the real one).
fn typesize_byte(typesize: usize) -> u8 {
    if typesize > 255 { 1 } else { typesize as u8 }
}

fn check_len(nbytes: usize) -> Result<i32> {
    if nbytes > MAX_CHUNK_NBYTES {
        return Err(Error::invalid("a chunk of at most this many bytes:", MAX_CHUNK_NBYTES, nbytes, 4));
    }
    Ok(nbytes as i32)
}

fn header(flags: u8, typesize: usize, nbytes: i32, blocksize: i32, cbytes: i32) -> [u8; CHUNK_HEADER_LEN] {
    let mut h = [0u8; CHUNK_HEADER_LEN];
    h[0] = VERSION_STABLE;
    h[1] = CODEC_VERSION_FORMAT;
    h[2] = flags;
    h[3] = typesize_byte(typesize);
    h[4..8].copy_from_slice(&nbytes.to_le_bytes());
    h[8..12].copy_from_slice(&blocksize.to_le_bytes());
    h[12..16].copy_from_slice(&cbytes.to_le_bytes());
    h
}

/// A memcpy chunk: the 32-byte header then `data` as is, as c-blosc2 writes a chunk it does not
/// compress (clevel 0, or fewer than 32 bytes): flags `0x07`, the pipeline and codec of
/// `cparams` recorded in the extended header. `blocksize` 0 means one block of the whole chunk.
pub fn memcpy(data: &[u8], typesize: usize, blocksize: usize, cparams: &CParams) -> Result<Vec<u8>> {
    let nbytes = check_len(data.len())?;
    let blocksize = if blocksize == 0 || blocksize > data.len() { data.len() } else { blocksize };
    let mut h = header(FLAGS_MEMCPY, typesize, nbytes, blocksize as i32, nbytes + CHUNK_HEADER_LEN as i32);
    h[16..22].copy_from_slice(&cparams.filters);
    h[22] = cparams.codec;
    h[23] = cparams.codec_meta;
    h[24..30].copy_from_slice(&cparams.filters_meta);
    let mut out = Vec::with_capacity(CHUNK_HEADER_LEN + data.len());
    out.extend_from_slice(&h);
    out.extend_from_slice(data);
    Ok(out)
}

/// A chunk of `nbytes` holding `value` (one item) repeated: the 32-byte header, flags `0x05`,
/// `blosc2_flags` `0x30`, then the value, as `blosc2.full` writes its chunks.
pub fn repeat_value(value: &[u8], nbytes: usize, blocksize: usize) -> Result<Vec<u8>> {
    let n = check_len(nbytes)?;
    let ts = value.len();
    let mut h = header(FLAGS_SPECIAL, ts, n, blocksize.min(nbytes) as i32, (CHUNK_HEADER_LEN + ts) as i32);
    h[31] = SPECIAL_VALUE;
    let mut out = Vec::with_capacity(CHUNK_HEADER_LEN + ts);
    out.extend_from_slice(&h);
    out.extend_from_slice(value);
    Ok(out)
}

/// The compressor parameters of `cparams` for items of `typesize` bytes and blocks of
/// `blocksize` bytes (0: c-blosc2's automatic blocksize).
pub fn params(cparams: &CParams, typesize: usize, blocksize: usize) -> Params {
    Params {
        codec: cparams.codec,
        codec_meta: cparams.codec_meta,
        clevel: cparams.clevel,
        typesize,
        filters: cparams.filters,
        filters_meta: cparams.filters_meta,
        split: Split::from_value(cparams.splitmode.value()).unwrap_or(Split::ForwardCompat),
        blocksize,
        nthreads: usize::try_from(cparams.nthreads).unwrap_or(1).max(1),
    }
}

/// `data` compressed as c-blosc2 compresses a chunk with `cparams` (see
/// [`crate::chunk::compress`]): codec, clevel, filters, split mode, memcpy fallback, zero
/// chunks; `blocksize` 0 lets c-blosc2's rule choose.
pub fn compressed(data: &[u8], typesize: usize, blocksize: usize, cparams: &CParams) -> Result<Vec<u8>> {
    check_len(data.len())?;
    compress::compress(data, &params(cparams, typesize, blocksize)).map_err(|e| Error::chunk(e, 0))
}

/// The parameters c-blosc2 compresses a frame's offsets index with (`BLOSC2_CPARAMS_DEFAULTS`
/// with typesize 8): blosclz, clevel 5, shuffle, forward-compat split.
const OFFSETS_PARAMS: Params = Params {
    codec: compcode::BLOSCLZ,
    codec_meta: 0,
    clevel: 5,
    typesize: 8,
    filters: [0, 0, 0, 0, 0, filter_id::SHUFFLE],
    filters_meta: [0; 6],
    split: Split::ForwardCompat,
    blocksize: 0,
    nthreads: 1,
};

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
    raw.try_reserve_exact(nbytes)
        .map_err(|_| Error::invalid("an allocatable offsets index", "", nbytes, 0))?;
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
