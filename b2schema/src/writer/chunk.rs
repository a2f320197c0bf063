//! Blosc2 chunks written without a compressor: memcpy chunks and repeat-value chunks, with the
//! header bytes c-blosc2 writes for them.

use alloc::vec::Vec;

use super::CParams;
use crate::error::{Error, Result};

/// Bytes of a Blosc2 chunk header (with the extended part).
pub const CHUNK_HEADER_LEN: usize = 32;
/// The largest chunk c-blosc2 writes (`BLOSC2_MAX_BUFFERSIZE`: `INT32_MAX - 32`).
pub const MAX_CHUNK_NBYTES: usize = i32::MAX as usize - CHUNK_HEADER_LEN;

/// Chunk flags: byte shuffle and bit shuffle set together mean "extended header"; bit 1 is
/// memcpyed; bit 4 is "don't split".
const FLAGS_MEMCPY: u8 = 0x07;
const FLAGS_MEMCPY_NOSPLIT: u8 = 0x17;
const FLAGS_SPECIAL: u8 = 0x05;
/// Chunk format version of every regular Blosc2 chunk.
const VERSION: u8 = 5;
/// The codec format version of the built-in codecs.
const VERSIONLZ: u8 = 1;
/// `blosc2_flags` value of a repeat-value chunk (`BLOSC2_SPECIAL_VALUE << 4`).
const SPECIAL_VALUE: u8 = 0x30;

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
    h[0] = VERSION;
    h[1] = VERSIONLZ;
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

/// The offsets index of `offsets` (little-endian int64 each), as c-blosc2 writes it: a memcpy
/// chunk (`0x07` under 32 bytes, `0x17` from 32 bytes on, where c-blosc2 would try blosclz
/// first), or a 40-byte repeat-value chunk when every entry is the same (`frame_fill_special`).
pub fn offsets_index(offsets: &[i64]) -> Result<Vec<u8>> {
    let nbytes = offsets.len() * 8;
    if let [first, rest @ ..] = offsets
        && rest.iter().all(|v| v == first)
        && *first < 0
    {
        return repeat_value(&first.to_le_bytes(), nbytes, 16384);
    }
    let n = check_len(nbytes)?;
    let flags = if nbytes < 32 { FLAGS_MEMCPY } else { FLAGS_MEMCPY_NOSPLIT };
    let mut h = header(flags, 8, n, nbytes.min(16384) as i32, n + CHUNK_HEADER_LEN as i32);
    h[21] = 1; // the default pipeline: shuffle in the last slot
    let mut out = Vec::with_capacity(CHUNK_HEADER_LEN + nbytes);
    out.extend_from_slice(&h);
    for v in offsets {
        out.extend_from_slice(&v.to_le_bytes());
    }
    Ok(out)
}

/// A vlmetalayer value: the user bytes in a memcpy chunk with python-blosc2's vlmeta cparams
/// (zstd, typesize 1, shuffle in the last slot). Byte-identical to what python-blosc2 writes for
/// values under 32 bytes; longer ones python compresses with zstd, which readers treat alike.
pub fn vlmeta(value: &[u8]) -> Result<Vec<u8>> {
    let cparams = CParams::default();
    memcpy(value, 1, 0, &cparams)
}
