//! Bit unshuffle (c-blosc2 `bitunshuffle` over `bshuf_untrans_bit_elem`).
//!
//! For `n` elements of `es` bytes (`n` a multiple of 8) the shuffled data
//! holds `8 * es` bit-rows of `n / 8` bytes: row `8 * j + k` collects bit `k`
//! of byte `j` of every element, element `i` landing in bit `i % 8` of byte
//! `i / 8` of the row.
//!
//! Undoing it takes two steps, as in the bitshuffle library: a bit transpose
//! that turns the 8 rows of byte `j` into byte plane `j` (byte `j` of every
//! element, contiguous), then a byte unshuffle of the planes.

use super::shuffle::{transpose_bytes_8x8, unshuffle};

/// Transposes an 8x8 bit matrix held in a `u64` (byte = row, bit = column):
/// afterwards bit `m` of byte `k` is what bit `k` of byte `m` was.
#[inline]
pub(crate) fn transpose_bits_8x8(mut x: u64) -> u64 {
    let mut t = (x ^ (x >> 7)) & 0x00AA_00AA_00AA_00AA;
    x = x ^ t ^ (t << 7);
    t = (x ^ (x >> 14)) & 0x0000_CCCC_0000_CCCC;
    x = x ^ t ^ (t << 14);
    t = (x ^ (x >> 28)) & 0x0000_0000_F0F0_F0F0;
    x ^ t ^ (t << 28)
}

/// Turns the `8 * es` bit-rows of `n` elements (`n % 8 == 0`) in `src` into
/// `es` byte planes of `n` bytes in `planes`.
fn bit_rows_to_planes(src: &[u8], planes: &mut [u8], n: usize, es: usize) {
    let rowlen = n / 8;
    let wide = rowlen / 8 * 8;
    for j in 0..es {
        let rows = 8 * j * rowlen;
        let plane = j * n;
        let (rows_in, plane_out) = (
            src.get(rows..rows + 8 * rowlen).unwrap_or(&[]),
            planes.get_mut(plane..plane + n).unwrap_or(&mut []),
        );
        // AVX2 (chosen at run time) on 32 row bytes at a time, else SSE2 on 16.
        let simd = super::avx2::bit_rows_to_plane(rows_in, rowlen, plane_out);
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        let done = simd.unwrap_or_else(|| super::shuffle_sse2::bit_rows_to_plane(rows_in, rowlen, plane_out));
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
        let done = simd.unwrap_or(0);
        // 8 row bytes at a time: 8 u64 loads, a byte transpose, 8 bit transposes, 64 bytes out.
        let mut row_iters: [core::slice::ChunksExact<'_, u8>; 8] = core::array::from_fn(|k| {
            let at = rows + k * rowlen;
            src.get(at + done..at + wide).unwrap_or(&[]).chunks_exact(8)
        });
        let out = planes.get_mut(plane + 8 * done..plane + 8 * wide).unwrap_or(&mut []);
        for out in out.chunks_exact_mut(64) {
            let mut x: [u64; 8] = core::array::from_fn(|k| {
                row_iters[k].next().and_then(|c| <[u8; 8]>::try_from(c).ok()).map_or(0, u64::from_le_bytes)
            });
            transpose_bytes_8x8(&mut x);
            for (d, v) in out.chunks_exact_mut(8).zip(x) {
                d.copy_from_slice(&transpose_bits_8x8(v).to_le_bytes());
            }
        }
        for e in wide..rowlen {
            let mut x = 0u64;
            for k in 0..8 {
                x |= u64::from(src.get(rows + k * rowlen + e).copied().unwrap_or(0)) << (8 * k);
            }
            let at = plane + 8 * e;
            if let Some(d) = planes.get_mut(at..at + 8) {
                d.copy_from_slice(&transpose_bits_8x8(x).to_le_bytes());
            }
        }
    }
}

/// Undoes the bit shuffle of a block of `src.len()` bytes into `dst`, using
/// `tmp` (same length) as scratch when the element size is above 1.
///
/// `format_version` is the chunk's version byte.  For Blosc1 chunks
/// (version 2) c-blosc2 bit-unshuffles only blocks whose element count is a
/// multiple of 8 and copies the others unchanged; for such blocks it does
/// not write the `len % typesize` trailing bytes at all (their content is
/// unspecified in c-blosc2's output) — this decoder copies them from the
/// stream.  Later versions unshuffle the largest multiple of 8 elements and
/// copy the remaining bytes.
pub(crate) fn bitunshuffle(typesize: usize, format_version: u8, src: &[u8], dst: &mut [u8], tmp: &mut [u8]) {
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
    let done = n * typesize;
    if typesize == 1 {
        bit_rows_to_planes(src, dst, n, 1);
    } else if let Some(tmp) = tmp.get_mut(..done) {
        bit_rows_to_planes(src, tmp, n, typesize);
        unshuffle(typesize, tmp, &mut dst[..done]);
    }
    dst[done..].copy_from_slice(&src[done..]);
}

/// Bit shuffle (c-blosc2 `blosc2_bitshuffle`): the largest multiple of 8 elements becomes
/// `8 * typesize` bit-rows (row `8 * j + k` holds bit `k` of byte `j` of every element);
/// the remaining bytes are copied. `tmp` (same length) is scratch.
pub(crate) fn bitshuffle(typesize: usize, src: &[u8], dst: &mut [u8], tmp: &mut [u8]) {
    let len = src.len().min(dst.len()).min(tmp.len());
    let typesize = typesize.max(1);
    let mut n = len / typesize;
    n -= n % 8;
    let done = n * typesize;
    // Byte planes first (plane j holds byte j of the n elements), then each plane's groups
    // of 8 bytes are bit-transposed into the 8 rows of that plane.
    super::shuffle::shuffle(typesize, &src[..done], &mut tmp[..done]);
    let rowlen = n / 8;
    for j in 0..typesize {
        let plane = &tmp[j * n..(j + 1) * n];
        let simd =
            super::avx2::plane_to_bit_rows(plane, &mut dst[8 * j * rowlen..8 * (j + 1) * rowlen], rowlen);
        let from = simd.unwrap_or(0) / 8;
        for (e, group) in plane.chunks_exact(8).enumerate().skip(from) {
            let x = u64::from_le_bytes(<[u8; 8]>::try_from(group).unwrap_or([0; 8]));
            let t = transpose_bits_8x8(x).to_le_bytes();
            for (k, b) in t.iter().enumerate() {
                if let Some(d) = dst.get_mut((8 * j + k) * rowlen + e) {
                    *d = *b;
                }
            }
        }
    }
    dst[done..len].copy_from_slice(&src[done..len]);
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
        let y = transpose_bits_8x8(x);
        for r in 0..8 {
            for c in 0..8 {
                assert_eq!((y >> (8 * r + c)) & 1, (x >> (8 * c + r)) & 1);
            }
        }
    }

    #[test]
    fn roundtrip() {
        for es in [1usize, 2, 3, 4, 8, 16] {
            for n in [0usize, 8, 16, 24, 64, 72, 200, 1024] {
                let data: Vec<u8> = (0..n * es + 3).map(|i| (i * 37 + 11) as u8).collect();
                let mut sh = naive_bitshuffle(&data, n, es);
                sh.truncate(data.len());
                let mut back = alloc::vec![0u8; data.len()];
                let mut tmp = alloc::vec![0u8; data.len()];
                bitunshuffle(es, 5, &sh, &mut back, &mut tmp);
                assert_eq!(back, data, "es {es} n {n}");
            }
        }
    }

    /// The plain loop the fast path must equal: bit `k` of byte `j` of element `i` is bit
    /// `i % 8` of byte `(8 * j + k) * n / 8 + i / 8`, for the largest multiple of 8 elements;
    /// the other bytes are copied.
    fn plain_bitunshuffle(es: usize, src: &[u8]) -> Vec<u8> {
        let n = src.len() / es / 8 * 8;
        let rowlen = n / 8;
        let mut out = src.to_vec();
        for b in &mut out[..n * es] {
            *b = 0;
        }
        for i in 0..n {
            for j in 0..es {
                for k in 0..8 {
                    let bit = (src[(8 * j + k) * rowlen + i / 8] >> (i % 8)) & 1;
                    out[i * es + j] |= bit << k;
                }
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The forward bitshuffle (AVX2's bit step where the CPU has it) equals the definition,
        /// for any item size, length and bytes.
        #[test]
        fn bitshuffle_equals_its_definition(
            es in 1usize..=17,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
        ) {
            let n = data.len() / es / 8 * 8;
            let mut fast = alloc::vec![0x5Au8; data.len()];
            let mut tmp = alloc::vec![0u8; data.len()];
            bitshuffle(es, &data, &mut fast, &mut tmp);
            proptest::prop_assert_eq!(fast, naive_bitshuffle(&data, n, es));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Every item size 1..=32, any length (element counts not multiples of 8, trailing
        /// bytes), any bytes; format version 5 (Blosc2).
        #[test]
        fn fast_bitunshuffle_equals_the_plain_loop(
            es in 1usize..=32,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2500),
        ) {
            let mut fast = alloc::vec![0xA5u8; data.len()];
            let mut tmp = alloc::vec![0x5Au8; data.len()];
            bitunshuffle(es, 5, &data, &mut fast, &mut tmp);
            proptest::prop_assert_eq!(fast, plain_bitunshuffle(es, &data));
        }
    }
}
