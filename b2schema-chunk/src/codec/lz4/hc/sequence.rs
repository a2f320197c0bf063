//! What both strategies share: the sequence writer in liblz4's limited-output mode, the last
//! literals, the two-byte probe, and `OPTIMAL_ML`.

use super::super::encode::{LASTLITERALS, LEN_MASK, MINMATCH, Out};

/// `OPTIMAL_ML`: `(ML_MASK - 1) + MINMATCH`.
pub(super) const OPTIMAL_ML: isize = (LEN_MASK - 1 + MINMATCH) as isize;

/// The 2 bytes at `at`, little-endian (0 past the end, where the encoders never read).
#[inline(always)]
pub(super) fn read2(buf: &[u8], at: usize) -> u16 {
    match buf.get(at..at.wrapping_add(2)) {
        Some(&[a, b]) => u16::from_le_bytes([a, b]),
        _ => 0,
    }
}

/// One sequence as `LZ4HC_encodeSequence` writes it in limited-output mode: the literals
/// `input[anchor..ip]`, then a match of `mlen` at distance `dist`; `None` when liblz4's bound
/// says it might not fit.
#[inline(always)]
pub(super) fn sequence(
    out: &mut Out<'_>,
    input: &[u8],
    anchor: usize,
    ip: usize,
    mlen: usize,
    dist: usize,
) -> Option<()> {
    let ll = ip.checked_sub(anchor)?;
    let oend = out.buf.len();
    if out.op + 1 + ll / 255 + ll + (2 + 1 + LASTLITERALS) > oend {
        return None;
    }
    let token = out.literals_of(input, anchor, ip)?;
    out.match_offset(dist)?;
    let code = mlen.checked_sub(MINMATCH)?;
    if out.op + code / 255 + (1 + LASTLITERALS) > oend {
        return None;
    }
    out.match_length(token, mlen)
}

/// The last literals, `None` when they do not fit.
pub(super) fn last_literals(out: &mut Out<'_>, input: &[u8], anchor: usize) -> Option<usize> {
    let run = input.len() - anchor;
    if out.op + 1 + (run + 255 - LEN_MASK) / 255 + run > out.buf.len() {
        return None;
    }
    out.last_literals(input.get(anchor..)?)?;
    Some(out.op)
}
