//! The bit steps of bitshuffle with AVX2, chosen at run time ([`super::avx2_kernel`]; the
//! unshuffle tile loop of [`super::shuffle_avx2`]).
//!
//! - Forward, [`plane_to_bit_rows`]: `movemask` gathers the top bit of 32 plane bytes into 4
//!   row bytes, then each byte is doubled to bring up the next bit (as c-blosc2's
//!   `bshuf_trans_bit_byte_AVX`).
//! - Backward, [`bit_rows_to_plane`]: the 8 bit-rows of a byte plane are byte-unshuffled as 8
//!   planes (the 8 row bytes of each group of 8 elements land in one 64-bit lane), then the
//!   8x8 bit transpose of [`super::bitshuffle::transpose_bits_8x8`] runs on the four 64-bit
//!   lanes at once (c-blosc2's `bshuf_trans_byte_bitrow_AVX` and
//!   `bshuf_shuffle_bit_eightelem_AVX` do the same two steps in two passes; here they are one).

use super::avx2_kernel::{Kernel, TILE, load, run};
use super::shuffle_avx2::{TileSteps, planes_of, unshuffle_tiles_with};
use core::arch::x86_64::__m256i;
use pulp::x86::V3;

/// The bit step of the forward bitshuffle for one byte plane (`plane`: `8 * rowlen` bytes, one
/// per element) into its 8 bit-rows (`rows`: 8 rows of `rowlen` bytes; bit `i % 8` of byte
/// `i / 8` of row `k` is bit `k` of byte `i`), 32 bytes at a time. `None` without AVX2, else the
/// plane bytes done.
pub(crate) fn plane_to_bit_rows(plane: &[u8], rows: &mut [u8], rowlen: usize) -> Option<usize> {
    run(PlaneToBitRows { plane, rows, rowlen })
}

/// The forward bit step: `plane` into 8 `rows` of `rowlen` bytes.
struct PlaneToBitRows<'a> {
    plane: &'a [u8],
    rows: &'a mut [u8],
    rowlen: usize,
}

impl Kernel for PlaneToBitRows<'_> {
    type Output = usize;

    #[inline(always)]
    fn run(self, s: V3) -> usize {
        plane_to_bit_rows_tiles(s, self.plane, self.rows, self.rowlen)
    }
}

#[inline(always)]
fn plane_to_bit_rows_tiles(s: V3, plane: &[u8], rows: &mut [u8], rowlen: usize) -> usize {
    let tiles = plane.len().min(rowlen * 8) / TILE;
    if rows.len() < 8 * rowlen {
        return 0;
    }
    let a = s.avx2;
    for (m, bytes) in plane.chunks_exact(TILE).take(tiles).enumerate() {
        let mut x = load(bytes);
        for k in (0..8).rev() {
            let mask = a._mm256_movemask_epi8(x) as u32;
            rows[k * rowlen + 4 * m..k * rowlen + 4 * m + 4].copy_from_slice(&mask.to_le_bytes());
            x = a._mm256_add_epi8(x, x);
        }
    }
    tiles * TILE
}

/// One round of the 8x8 bit transpose (`transpose_bits_8x8`) on four 64-bit lanes:
/// `t = (x ^ x >> S) & mask; x ^ t ^ t << S`.
#[inline(always)]
fn bit_round<const S: i32>(s: V3, x: __m256i, mask: i64) -> __m256i {
    let a = s.avx2;
    let t = a
        ._mm256_and_si256(a._mm256_xor_si256(x, a._mm256_srli_epi64::<S>(x)), s.avx._mm256_set1_epi64x(mask));
    a._mm256_xor_si256(a._mm256_xor_si256(x, t), a._mm256_slli_epi64::<S>(t))
}

/// The 8x8 bit transpose of each 64-bit lane of `x`.
#[inline(always)]
fn transpose_bits(s: V3, x: __m256i) -> __m256i {
    let x = bit_round::<7>(s, x, 0x00AA_00AA_00AA_00AA);
    let x = bit_round::<14>(s, x, 0x0000_CCCC_0000_CCCC);
    bit_round::<28>(s, x, 0x0000_0000_F0F0_F0F0)
}

/// The bit transpose of each output vector of the 8-plane unshuffle.
struct BitTranspose;

impl TileSteps for BitTranspose {
    #[inline(always)]
    fn post(&self, s: V3, v: __m256i) -> __m256i {
        transpose_bits(s, v)
    }
}

/// Turns the first `rowlen / 32 * 32` bytes of each of the 8 bit-rows of one byte plane
/// (`rows`: 8 rows of `rowlen` bytes) into the first `8 * that` bytes of the plane; `None`
/// without AVX2, else the row bytes done.
pub(crate) fn bit_rows_to_plane(rows: &[u8], rowlen: usize, plane: &mut [u8]) -> Option<usize> {
    run(BitRowsToPlane { rows, rowlen, plane })
}

/// The backward bit step: 8 `rows` of `rowlen` bytes into `plane`.
struct BitRowsToPlane<'a> {
    rows: &'a [u8],
    rowlen: usize,
    plane: &'a mut [u8],
}

impl Kernel for BitRowsToPlane<'_> {
    type Output = usize;

    #[inline(always)]
    fn run(self, s: V3) -> usize {
        unshuffle_tiles_with::<8>(
            s,
            planes_of(self.rows, self.rowlen),
            self.plane,
            self.rowlen,
            0,
            &mut BitTranspose,
        )
    }
}

/// For the forward bit step's tests (this file's and the AVX-512 one's): the rows equal the
/// definition (bit `b` of byte `e` of row `k` is bit `k` of plane byte `8e + b`) for the first
/// `plane_done` plane bytes, and are 0x5A (their initial value) after.
#[cfg(test)]
pub(super) fn forward_rows_match(
    data: &[u8],
    rows: &[u8],
    rowlen: usize,
    plane_done: usize,
) -> Result<(), proptest::test_runner::TestCaseError> {
    for k in 0..8 {
        for e in 0..rowlen {
            let want = if e < plane_done / 8 {
                (0..8).map(|b| ((data[8 * e + b] >> k) & 1) << b).sum::<u8>()
            } else {
                0x5A
            };
            proptest::prop_assert_eq!(rows[k * rowlen + e], want, "row {} byte {}", k, e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    /// On a CPU with AVX2 the kernels run (so the property tests of `bitshuffle` and
    /// `bitunshuffle`, which compare them with the definition, test them); elsewhere `None`.
    #[test]
    fn avx2_bit_kernels_run_where_the_cpu_has_avx2() {
        let avx2 = crate::filter::avx2_detected();
        let src = [7u8; 8 * 64];
        let mut dst = [0u8; 8 * 64];
        assert_eq!(super::plane_to_bit_rows(&src[..64], &mut dst[..64], 8), avx2.then_some(64));
        assert_eq!(super::bit_rows_to_plane(&src, 64, &mut dst), avx2.then_some(64));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// Both bit steps alone, on slices starting at any offset of a larger buffer, against
        /// the definition (bit `i % 8` of byte `i / 8` of row `k` is bit `k` of plane byte `i`):
        /// every whole tile done, the rest of the output left alone.
        #[test]
        fn bit_steps_equal_the_definition_at_any_offset(
            offset in 0usize..64,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4000),
        ) {
            let data = &data[offset.min(data.len())..];
            let rowlen = data.len() / 8;
            let whole = rowlen / 32 * 32;
            let mut plane = vec![0xA5u8; 8 * rowlen];
            let done = super::bit_rows_to_plane(data, rowlen, &mut plane);
            if !crate::filter::avx2_detected() {
                proptest::prop_assert_eq!(done, None, "no AVX2: the kernel says so");
                return Ok(());
            }
            proptest::prop_assert_eq!(done, Some(whole));
            for (i, &got) in plane.iter().enumerate() {
                let want = if i < 8 * whole {
                    (0..8).map(|k| ((data[k * rowlen + i / 8] >> (i % 8)) & 1) << k).sum::<u8>()
                } else {
                    0xA5
                };
                proptest::prop_assert_eq!(got, want, "plane byte {}", i);
            }
            let mut rows = vec![0x5Au8; 8 * rowlen];
            // Forward: whole 32-byte tiles of the plane, 4 bytes of each row per tile.
            let plane_done = 8 * rowlen / 32 * 32;
            proptest::prop_assert_eq!(super::plane_to_bit_rows(&data[..8 * rowlen], &mut rows, rowlen), Some(plane_done));
            super::forward_rows_match(data, &rows, rowlen, plane_done)?;
        }
    }
}
