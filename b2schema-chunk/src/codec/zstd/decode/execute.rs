//! Sequence execution: literal runs and matches written straight into the caller's output.
//!
//! Matches copy from earlier output of the same frame, or from the end of the dictionary's
//! bytes before it (all of them, header and tables included: `dict.rs`). Where the output has room past the copy, literals and matches move in
//! fixed 16-byte (or 8-byte) pieces that may write a little past the copy's end (bytes the
//! next copy overwrites); near the end of the output the copies are exact.

/// The output of a frame being decoded.
pub(crate) struct Out<'a> {
    pub(crate) buf: &'a mut [u8],
    /// The next byte to write.
    pub(crate) pos: usize,
    /// Where this block must end at the latest (the block maximum size, the output's end).
    pub(crate) limit: usize,
    /// The frame's first byte in `buf`.
    pub(crate) frame_start: usize,
    /// The dictionary's bytes (its match history), virtually before `frame_start`.
    pub(crate) dict: &'a [u8],
}

/// The largest whole number of periods of a pattern of `k` < 16 bytes within 16 bytes.
const STEP: [usize; 16] = [16, 16, 16, 15, 16, 15, 12, 14, 16, 9, 10, 11, 12, 13, 14, 15];

/// The largest whole number of periods of a pattern of `k` < 8 bytes within 8 bytes.
const STEP8: [usize; 8] = [8, 8, 8, 6, 8, 5, 6, 7];

/// The refusal of a literal run or match past the output's end.
const PAST_OUTPUT: &str = "a block that decodes within the output";

/// The refusal of a literal run or match past the block's limit: past
/// the block maximum size when that is the limit (libzstd's one-shot decoder does not check it
/// on compressed blocks), else past the output.
fn too_long(out: &Out<'_>) -> &'static str {
    if out.limit < out.buf.len() { super::frame::BLOCK_TOO_LARGE } else { PAST_OUTPUT }
}

/// Copies `lits[lp..lp + n]` (already checked to lie within the literals) to the output.
#[inline(never)]
pub(crate) fn copy_literals(out: &mut Out<'_>, lits: &[u8], lp: usize, n: usize) -> Result<(), &'static str> {
    let op = out.pos;
    if n > out.limit - op {
        return Err(too_long(out));
    }
    if n <= 16 {
        if let (Some(d), Some(s)) = (out.buf.get_mut(op..op + 16), lits.get(lp..lp + 16)) {
            d.copy_from_slice(s);
            out.pos = op + n;
            return Ok(());
        }
    } else if op + n + 32 <= out.buf.len() && lp + n + 32 <= lits.len() {
        // Whole 32-byte pieces, the last one past the run's end.
        let mut k = 0;
        while k < n {
            out.buf[op + k..op + k + 32].copy_from_slice(&lits[lp + k..lp + k + 32]);
            k += 32;
        }
        out.pos = op + n;
        return Ok(());
    }
    out.buf[op..op + n].copy_from_slice(&lits[lp..lp + n]);
    out.pos = op + n;
    Ok(())
}

/// Copies a match of `len` bytes from `offset` (1 <= `offset` <= `d`) bytes back to `buf[d..]`,
/// with room for 32 bytes past its end.
#[inline(always)]
pub(crate) fn wild_match(buf: &mut [u8], mut d: usize, offset: usize, len: usize) {
    let end = d + len;
    let mut s = d - offset;
    if offset >= 32 {
        // Most matches take one piece: written first, without the loop's test.
        buf.copy_within(s..s + 32, d);
        while d + 32 < end {
            s += 32;
            d += 32;
            buf.copy_within(s..s + 32, d);
        }
    } else if offset >= 16 {
        while d < end {
            buf.copy_within(s..s + 16, d);
            s += 16;
            d += 16;
        }
    } else if offset >= 8 {
        while d < end {
            buf.copy_within(s..s + 8, d);
            s += 8;
            d += 8;
        }
    } else {
        // A pattern of `offset` < 8 bytes, built in a register: eight bytes of it written at
        // steps of a whole number of periods.
        let b = &buf[s..s + 8];
        let raw = u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]);
        let w = 8 * offset as u32;
        let mut p = raw & (u64::MAX >> ((64 - w) & 63));
        p |= p << (w & 63);
        p |= p.checked_shl(2 * w).unwrap_or(0);
        p |= p.checked_shl(4 * w).unwrap_or(0);
        let bytes = p.to_le_bytes();
        let step = STEP8[offset & 7];
        while d < end {
            buf[d..d + 8].copy_from_slice(&bytes);
            buf[d + step..d + step + 8].copy_from_slice(&bytes);
            d += 2 * step;
        }
    }
}

/// Copies a match of `len` bytes at `offset` bytes back (the checked path, out of the loop).
#[inline(never)]
pub(crate) fn copy_match(out: &mut Out<'_>, offset: usize, len: usize) -> Result<(), &'static str> {
    let op = out.pos;
    if len > out.limit - op {
        return Err(too_long(out));
    }
    let end = op + len;
    let buf = &mut *out.buf;
    if offset <= op - out.frame_start && end + 32 <= buf.len() {
        let mut d = op;
        if offset >= 32 {
            let mut s = op - offset;
            while d < end {
                buf.copy_within(s..s + 32, d);
                s += 32;
                d += 32;
            }
            out.pos = end;
            return Ok(());
        }
        if offset >= 16 {
            let mut s = op - offset;
            while d < end {
                buf.copy_within(s..s + 16, d);
                s += 16;
                d += 16;
            }
            out.pos = end;
            return Ok(());
        }
        if offset != 0 {
            let s = op - offset;
            // A pattern of `offset` < 16 bytes: 16 bytes of it, written at steps of a whole
            // number of periods.
            let mut pat = [0u8; 16];
            pat[..offset].copy_from_slice(&buf[s..op]);
            for i in offset..16 {
                pat[i] = pat[i - offset];
            }
            let step = STEP[offset & 15];
            while d < end {
                buf[d..d + 16].copy_from_slice(&pat);
                d += step;
            }
            out.pos = end;
            return Ok(());
        }
    }
    copy_match_slow(out, offset, len)
}

#[inline(never)]
fn copy_match_slow(out: &mut Out<'_>, offset: usize, len: usize) -> Result<(), &'static str> {
    let op = out.pos;
    let end = op + len;
    let have = op - out.frame_start;
    let buf = &mut *out.buf;
    if offset == 0 {
        return Err("a match offset of at least 1");
    }
    let mut d = op;
    let mut s;
    if offset > have {
        // From the dictionary (its whole bytes), then on from the frame's start.
        let back = offset - have;
        if back > out.dict.len() {
            return Err("a match offset within the frame's output and the dictionary");
        }
        let from = out.dict.len() - back;
        let n = back.min(len);
        buf[d..d + n].copy_from_slice(&out.dict[from..from + n]);
        d += n;
        s = out.frame_start;
    } else {
        s = op - offset;
    }
    let len = end - d;
    let off = d - s;
    if len == 0 {
    } else if off >= len {
        buf.copy_within(s..s + len, d);
    } else if off >= 8 && end + 8 <= buf.len() {
        while d < end {
            buf.copy_within(s..s + 8, d);
            s += 8;
            d += 8;
        }
    } else if len <= 32 {
        for i in 0..len {
            buf[d + i] = buf[s + i];
        }
    } else {
        // A repeated pattern of `off` bytes: copy it, then the doubled pattern, and so on.
        let mut done = 0;
        while done < len {
            let n = (off + done).min(len - done);
            buf.copy_within(s..s + n, d + done);
            done += n;
        }
    }
    out.pos = end;
    Ok(())
}
