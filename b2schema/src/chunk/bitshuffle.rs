//! Bit unshuffle (c-blosc2 `bitunshuffle` over `bshuf_untrans_bit_elem_scal`).
//!
//! For `n` elements of `es` bytes (`n` a multiple of 8) the shuffled data
//! holds `8 * es` bit-rows of `n / 8` bytes: row `8 * j + k` collects bit `k`
//! of byte `j` of every element, element `i` landing in bit `i % 8` of byte
//! `i / 8` of the row.

/// Transposes an 8x8 bit matrix held in a `u64` (byte = row, bit = column):
/// afterwards bit `m` of byte `k` is what bit `k` of byte `m` was.
#[inline]
fn transpose8x8(mut x: u64) -> u64 {
    let mut t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Undoes the bit transpose of `n` elements (`n % 8 == 0`) of `es` bytes.
/// `src` and `dst` hold at least `n * es` bytes.
fn untrans_bit_elem(src: &[u8], dst: &mut [u8], n: usize, es: usize) {
    let rowlen = n / 8;
    let total = n * es;
    let (Some(src), Some(dst)) = (src.get(..total), dst.get_mut(..total)) else {
        return;
    };
    for j in 0..es {
        let rows: [&[u8]; 8] = core::array::from_fn(|k| {
            let start = (8 * j + k) * rowlen;
            src.get(start..start + rowlen).unwrap_or(&[])
        });
        if rows.iter().any(|r| r.len() != rowlen) {
            return;
        }
        for e8 in 0..rowlen {
            let mut x = 0u64;
            for (k, row) in rows.iter().enumerate() {
                x |= u64::from(row[e8]) << (8 * k);
            }
            let y = transpose8x8(x).to_le_bytes();
            for (m, &b) in y.iter().enumerate() {
                if let Some(d) = dst.get_mut((8 * e8 + m) * es + j) {
                    *d = b;
                }
            }
        }
    }
}

/// Undoes the bit shuffle of a block of `src.len()` bytes into `dst`.
///
/// `format_version` is the chunk's version byte: Blosc1 chunks (version 2)
/// only bit-shuffled blocks whose element count is a multiple of 8 and stored
/// other blocks unchanged; later versions shuffle the largest multiple of 8
/// elements and store the remaining bytes unchanged.
pub(crate) fn bitunshuffle(typesize: usize, format_version: u8, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    let typesize = typesize.max(1);
    let mut n = len / typesize;
    if format_version == 2 {
        if !n.is_multiple_of(8) {
            dst.copy_from_slice(src);
            return;
        }
    } else {
        n -= n % 8;
    }
    untrans_bit_elem(src, dst, n, typesize);
    let done = n * typesize;
    dst[done..].copy_from_slice(&src[done..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn naive_bitshuffle(src: &[u8], n: usize, es: usize) -> Vec<u8> {
        let rowlen = n / 8;
        let mut out = src.to_vec();
        for b in &mut out[..n * es] {
            *b = 0;
        }
        for i in 0..n {
            for j in 0..es {
                for k in 0..8 {
                    let bit = (src[i * es + j] >> k) & 1;
                    out[(8 * j + k) * rowlen + i / 8] |= bit << (i % 8);
                }
            }
        }
        out
    }

    #[test]
    fn transpose_is_a_bit_transpose() {
        let x: u64 = 0x0123_4567_89ab_cdef;
        let y = transpose8x8(x);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!((y >> (8 * r + c)) & 1, (x >> (8 * c + r)) & 1);
            }
        }
    }

    #[test]
    fn roundtrip() {
        for es in [1usize, 2, 3, 4, 8, 16] {
            for n in [0usize, 8, 16, 24, 64, 200] {
                let data: Vec<u8> = (0..n * es + 3).map(|i| (i * 37 + 11) as u8).collect();
                let mut sh = naive_bitshuffle(&data, n, es);
                sh.truncate(data.len());
                let mut back = alloc::vec![0u8; data.len()];
                bitunshuffle(es, 5, &sh, &mut back);
                assert_eq!(back, data, "es {es} n {n}");
            }
        }
    }
}
