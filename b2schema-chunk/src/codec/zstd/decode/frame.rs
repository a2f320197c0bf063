//! Frames (RFC 8878 §3.1): the frame header, the blocks, the content checksum; skippable
//! frames (§3.1.2).

use super::DecodeError;
use super::bits::le;

pub(crate) const MAGIC: u32 = super::super::FRAME_MAGIC;
/// Skippable frames: magic 0x184D2A50..=0x184D2A5F.
pub(crate) const SKIPPABLE_MASK: u32 = 0xFFFF_FFF0;
pub(crate) const SKIPPABLE: u32 = 0x184D_2A50;
/// Legacy (pre-1.0) zstd frames, v0.1 to v0.7: magic 0xFD2FB51E..=0xFD2FB527. Not RFC 8878;
/// no Blosc2 writer makes them.
pub(crate) const LEGACY: core::ops::RangeInclusive<u32> = 0xFD2F_B51E..=0xFD2F_B527;
/// The refusal of a legacy frame.
pub(crate) const LEGACY_FRAME: &str =
    "a zstd frame of RFC 8878 (magic 0xFD2FB528), not a legacy pre-1.0 zstd frame";
/// The refusal of a block larger than the frame's block maximum size (its window, at most
/// 128 KiB; RFC 8878 §3.1.1.2.3).
pub(crate) const BLOCK_TOO_LARGE: &str = "a block of at most the block maximum size";
/// The largest window accepted: libzstd's default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`).
pub(crate) const MAX_WINDOW: u64 = 1 << 27;
/// The largest block (RFC 8878 §3.1.1.2.3).
pub(crate) const MAX_BLOCK: usize = 128 << 10;

/// The refusal of a window above [`MAX_WINDOW`].
pub(crate) const WINDOW_TOO_LARGE: &str = "a window of at most 128 MiB (libzstd's default limit)";

pub(crate) struct Header {
    /// Header length, the magic included.
    pub(crate) len: usize,
    pub(crate) content_size: Option<u64>,
    pub(crate) window: u64,
    pub(crate) dict_id: u32,
    pub(crate) checksum: bool,
}

fn err(offset: usize, what: &'static str) -> DecodeError {
    DecodeError { offset, what }
}

/// Parses the frame header of the frame at `input[at..]` (its magic already checked).
pub(crate) fn header(input: &[u8], at: usize) -> Result<Header, DecodeError> {
    let d = at + 4;
    let &fhd = input.get(d).ok_or(err(d, "a frame header descriptor"))?;
    if fhd & 0x08 != 0 {
        return Err(err(d, "a zero reserved bit in the frame header descriptor"));
    }
    let fcs_flag = fhd >> 6;
    let single = fhd & 0x20 != 0;
    let checksum = fhd & 0x04 != 0;
    let did_len = [0usize, 1, 2, 4][usize::from(fhd & 3)];
    let fcs_len = match fcs_flag {
        0 => usize::from(single),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    let mut p = d + 1;
    let mut window = 0u64;
    if !single {
        let &wd = input.get(p).ok_or(err(p, "a window descriptor"))?;
        let log = 10 + u32::from(wd >> 3);
        let base = 1u64 << log;
        window = base + (base / 8) * u64::from(wd & 7);
        if window > MAX_WINDOW {
            return Err(err(p, WINDOW_TOO_LARGE));
        }
        p += 1;
    }
    let dict_id = le(input, p, did_len).ok_or(err(p, "a dictionary id within the input"))? as u32;
    p += did_len;
    let content_size = if fcs_len == 0 {
        None
    } else {
        let v = le(input, p, fcs_len).ok_or(err(p, "a frame content size within the input"))?;
        Some(if fcs_len == 2 { v + 256 } else { v })
    };
    p += fcs_len;
    if single {
        window = content_size.unwrap_or(0);
    }
    Ok(Header { len: p - at, content_size, window, dict_id, checksum })
}
