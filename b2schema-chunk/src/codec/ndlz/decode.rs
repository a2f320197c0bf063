//! NDLZ decoding: c-blosc2's `ndlz4_decompress` / `ndlz8_decompress`, every reference checked
//! against the stream and every cell against the block.

use crate::registry::PluginError;

/// Bytes before the first cell: `ndim` and two `int32` sides.
pub(super) const HEADER_LEN: usize = 9;

/// A reference outside the stream.
const OUT_OF_STREAM: PluginError = PluginError("NDLZ references inside the stream");

/// `len` bytes of `src` from `pos`, or the error.
fn at(src: &[u8], pos: i64, len: usize) -> Result<&[u8], PluginError> {
    let pos = usize::try_from(pos).map_err(|_| OUT_OF_STREAM)?;
    src.get(pos..pos.checked_add(len).ok_or(OUT_OF_STREAM)?).ok_or(OUT_OF_STREAM)
}

/// The little-endian `u16` at `pos`.
fn u16_at(src: &[u8], pos: usize) -> Result<u16, PluginError> {
    let b = at(src, pos as i64, 2)?;
    Ok(u16::from_le_bytes([b[0], b[1]]))
}

/// Decodes an NDLZ stream of cell side `side` (4 or 8) into `dst`, which its block shape must
/// fill exactly.
pub(super) fn decode(src: &[u8], dst: &mut [u8], side: usize) -> Result<(), PluginError> {
    if src.len() < HEADER_LEN {
        return Err(PluginError("an NDLZ stream of at least 9 bytes (ndim and the block's sides)"));
    }
    if src[0] != 2 {
        return Err(PluginError("an NDLZ stream of ndim 2"));
    }
    let side0 = i32::from_le_bytes([src[1], src[2], src[3], src[4]]);
    let side1 = i32::from_le_bytes([src[5], src[6], src[7], src[8]]);
    if side0 < 0 || side1 < 0 {
        return Err(PluginError("an NDLZ block of non-negative sides"));
    }
    let (b0, b1) = (side0 as usize, side1 as usize);
    if b0.checked_mul(b1) != Some(dst.len()) {
        return Err(PluginError("an NDLZ block shape of exactly the block's size"));
    }
    dst.fill(0);
    let cell = side * side;
    let (n0, n1) = (b0.div_ceil(side), b1.div_ceil(side));
    let mut ip = HEADER_LEN;
    let mut local = [0u8; 64];
    let mut same = [0u8; 64];
    for i0 in 0..n0 {
        for i1 in 0..n1 {
            let pad0 = if i0 == n0 - 1 && b0 % side != 0 { b0 % side } else { side };
            let pad1 = if i1 == n1 - 1 && b1 % side != 0 { b1 % side } else { side };
            let cur = ip;
            let token = *src.get(cur).ok_or(OUT_OF_STREAM)?;
            ip += 1;
            // Where the cell's rows are (row r at r * pad1).
            let buf: &[u8] = if token == 0 {
                // literal cell
                let lit = at(src, ip as i64, pad0 * pad1)?;
                ip += pad0 * pad1;
                lit
            } else if token == 0xc0 {
                // an earlier cell repeated
                let offset = u16_at(src, ip)?;
                ip += 2;
                at(src, cur as i64 - i64::from(offset), pad0 * pad1)?
            } else if token == 0x40 {
                // one byte repeated
                let v = *src.get(ip).ok_or(OUT_OF_STREAM)?;
                ip += 1;
                same[..cell].fill(v);
                &same[..cell]
            } else if side == 4 {
                ip = rows4(src, cur, token, &mut local)?;
                &local[..16]
            } else {
                ip = rows8(src, cur, token, &mut local)?;
                &local[..64]
            };
            let orig = i0 * side * b1 + i1 * side;
            for r in 0..pad0 {
                let row = buf.get(r * pad1..(r + 1) * pad1).ok_or(OUT_OF_STREAM)?;
                let o = orig + r * b1;
                dst[o..o + pad1].copy_from_slice(row);
            }
        }
    }
    Ok(())
}

/// The row-matching tokens of 4x4 cells: the cell's rows into `local`, the stream position
/// after the cell returned.
fn rows4(src: &[u8], cur: usize, token: u8, local: &mut [u8; 64]) -> Result<usize, PluginError> {
    let mut ip = cur + 1;
    let row =
        |local: &mut [u8; 64], r: usize, from: &[u8]| local[r * 4..r * 4 + 4].copy_from_slice(&from[..4]);
    if token >= 224 {
        // three rows from one earlier place, the fourth literal
        let offset = i64::from(u16_at(src, ip)?.wrapping_add(3)); // a u16 in c-blosc2: it wraps
        ip += 2;
        let (i, j, k) = match token >> 3 {
            28 => (1, 2, 3),
            29 => (0, 1, 2),
            30 => (0, 1, 3),
            _ => (0, 2, 3),
        };
        let r = at(src, cur as i64 + 3 - offset, 12)?;
        row(local, i, &r[0..4]);
        row(local, j, &r[4..8]);
        row(local, k, &r[8..12]);
        if let Some(l) = (0..4).find(|&l| l != i && l != j && l != k) {
            row(local, l, at(src, ip as i64, 4)?);
            ip += 4;
        }
    } else if (128..=191).contains(&token) {
        // two rows from one earlier place, the others literal
        let offset = i64::from(u16_at(src, ip)?.wrapping_add(3)); // a u16 in c-blosc2: it wraps
        ip += 2;
        let (i, j) = if token == 128 {
            (2, 3)
        } else {
            let i = usize::from((token - 128) >> 5);
            (i, usize::from((token - 128) >> 3) - (i << 2))
        };
        let r = at(src, cur as i64 + 3 - offset, 8)?;
        row(local, i, &r[0..4]);
        row(local, j, &r[4..8]);
        for k in (0..4).filter(|&k| k != i && k != j) {
            row(local, k, at(src, ip as i64, 4)?);
            ip += 4;
        }
    } else if (40..=63).contains(&token) {
        // two pairs of rows from two earlier places
        let offset1 = i64::from(u16_at(src, ip)?.wrapping_add(5));
        let offset2 = i64::from(u16_at(src, ip + 2)?.wrapping_add(5));
        ip += 4;
        let j = usize::from((token - 32) >> 3);
        let mut others = (1..4).filter(|&k| k != j);
        let (l, m) = (others.next().unwrap_or(1), others.next().unwrap_or(1));
        let r1 = at(src, cur as i64 + 5 - offset1, 8)?;
        row(local, 0, &r1[0..4]);
        row(local, j, &r1[4..8]);
        let r2 = at(src, cur as i64 + 5 - offset2, 8)?;
        row(local, l, &r2[0..4]);
        row(local, m, &r2[4..8]);
    } else {
        return Err(PluginError("an NDLZ 4x4 token c-blosc2 knows"));
    }
    Ok(ip)
}

/// The row-matching tokens of 8x8 cells (triple and pair matches).
fn rows8(src: &[u8], cur: usize, token: u8, local: &mut [u8; 64]) -> Result<usize, PluginError> {
    let mut ip = cur + 1;
    let matched = match token >> 3 {
        21 => 3,
        17 => 2,
        _ => return Err(PluginError("an NDLZ 8x8 token c-blosc2 knows")),
    };
    let first = usize::from(token & 7);
    if first + matched > 8 {
        return Err(PluginError("an NDLZ 8x8 row match inside the cell"));
    }
    let offset = i64::from(u16_at(src, ip)?);
    ip += 2;
    let r = at(src, cur as i64 - offset, matched * 8)?;
    local[first * 8..(first + matched) * 8].copy_from_slice(r);
    for l in (0..8).filter(|&l| l < first || l >= first + matched) {
        local[l * 8..l * 8 + 8].copy_from_slice(at(src, ip as i64, 8)?);
        ip += 8;
    }
    Ok(ip)
}
