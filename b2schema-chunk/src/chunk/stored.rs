//! Chunks written without a codec: the Blosc2 header every compressed chunk starts with, memcpy
//! chunks and repeat-value chunks, with the header bytes c-blosc2 writes for them.

use alloc::vec::Vec;

use super::buffers::alloc_error;
use super::header::{
    CODEC_VERSION_FORMAT, EXTENDED_HEADER_LEN, FLAG_EXTENDED, FLAG_MEMCPYED, SPECIAL_SHIFT, Special,
    VERSION_STABLE,
};
use super::params::{MAX_BUFFERSIZE, MAX_SPLIT_TYPESIZE, Params, param_error};
use crate::error::{Error, Expected, num};

/// The 32-byte Blosc2 header of a chunk of `nbytes` in blocks of `blocksize` (`cbytes` and the
/// special bits are the caller's): versions, `flags`, the typesize byte (1 above
/// [`MAX_SPLIT_TYPESIZE`]) and, when `p` is given, its filters and codec.
pub(super) fn header(
    flags: u8,
    typesize: usize,
    nbytes: usize,
    blocksize: usize,
    cbytes: usize,
    p: Option<&Params>,
) -> [u8; EXTENDED_HEADER_LEN] {
    let mut h = [0u8; EXTENDED_HEADER_LEN];
    h[0] = VERSION_STABLE;
    h[1] = CODEC_VERSION_FORMAT;
    h[2] = flags;
    h[3] = if typesize > MAX_SPLIT_TYPESIZE { 1 } else { typesize as u8 };
    // The callers checked every size against MAX_BUFFERSIZE (+ the header): they fit an i32.
    h[4..8].copy_from_slice(&(nbytes as i32).to_le_bytes());
    h[8..12].copy_from_slice(&(blocksize as i32).to_le_bytes());
    h[12..16].copy_from_slice(&(cbytes as i32).to_le_bytes());
    if let Some(p) = p {
        h[16..22].copy_from_slice(&p.filters.map(|f| f.id()));
        h[22] = p.codec.id();
        h[23] = p.codec_meta;
        h[24..30].copy_from_slice(&p.filters_meta);
    }
    h
}

fn check_len(nbytes: usize) -> Result<(), Error> {
    if nbytes > MAX_BUFFERSIZE {
        return Err(param_error("nbytes", Expected::AtMost(num(MAX_BUFFERSIZE)), nbytes));
    }
    Ok(())
}

/// A memcpy chunk: the 32-byte header then `src` as is, as c-blosc2 writes a chunk it does not
/// compress (clevel 0, or fewer than 32 bytes): flags `0x07`, the filters and codec of `p`
/// recorded in the header. `p.blocksize` 0 (or more than `src`) means one block of the whole
/// chunk. Errors: more than [`MAX_BUFFERSIZE`] bytes, or memory the allocator refuses.
pub fn memcpy(src: &[u8], p: &Params) -> Result<Vec<u8>, Error> {
    let nbytes = src.len();
    check_len(nbytes)?;
    let blocksize = if p.blocksize == 0 || p.blocksize > nbytes { nbytes } else { p.blocksize };
    let cbytes = nbytes + EXTENDED_HEADER_LEN;
    let h = header(FLAG_EXTENDED | FLAG_MEMCPYED, p.typesize, nbytes, blocksize, cbytes, Some(p));
    let mut out = Vec::new();
    out.try_reserve_exact(cbytes).map_err(|_| alloc_error(cbytes))?;
    out.extend_from_slice(&h);
    out.extend_from_slice(src);
    Ok(out)
}

/// A chunk of `nbytes` holding `value` (one item) repeated: the 32-byte header, flags `0x05`,
/// `blosc2_flags` `0x30`, then the value, as `blosc2.full` writes its chunks. Errors: `nbytes`
/// above [`MAX_BUFFERSIZE`], or a value longer than that.
pub fn repeat_value(value: &[u8], nbytes: usize, blocksize: usize) -> Result<Vec<u8>, Error> {
    check_len(nbytes)?;
    check_len(value.len())?;
    let ts = value.len();
    let cbytes = EXTENDED_HEADER_LEN + ts;
    let mut h = header(FLAG_EXTENDED, ts, nbytes, blocksize.min(nbytes), cbytes, None);
    h[31] = Special::Value.id() << SPECIAL_SHIFT;
    let mut out = Vec::new();
    out.try_reserve_exact(cbytes).map_err(|_| alloc_error(cbytes))?;
    out.extend_from_slice(&h);
    out.extend_from_slice(value);
    Ok(out)
}
