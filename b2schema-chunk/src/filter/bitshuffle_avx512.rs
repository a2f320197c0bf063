//! The forward bitshuffle's bit step with AVX-512 (F and BW, through `pulp`'s x86-64-v4 token),
//! chosen at run time before the AVX2 one of [`super::bitshuffle_avx2`]: `movepi8_mask`
//! gathers the top bit of 64 plane bytes into 8 row bytes, then each byte is doubled to bring up
//! the next bit. Safe Rust only: `pulp`'s register wrappers, loads and stores by array copies
//! of slices whose bounds our code checks; the kernel runs as a struct through
//! `pulp::WithSimd`, `#[inline(always)]` all the way (see [`super::avx2_kernel`] for why).

use core::arch::x86_64::__m512i;
use pulp::x86::V4;

/// Plane bytes per tile.
const TILE: usize = 64;

/// The bit step of the forward bitshuffle for one byte plane (`plane`: `8 * rowlen` bytes) into
/// its 8 bit-rows (`rows`: 8 rows of `rowlen` bytes), 64 bytes at a time; `None` without
/// AVX-512 F and BW, else the plane bytes done.
pub(crate) fn plane_to_bit_rows(plane: &[u8], rows: &mut [u8], rowlen: usize) -> Option<usize> {
    let s = V4::try_new()?;
    Some(<V4 as pulp::Simd>::vectorize(s, PlaneToBitRows { s, plane, rows, rowlen }))
}

/// The kernel's arguments.
struct PlaneToBitRows<'a> {
    s: V4,
    plane: &'a [u8],
    rows: &'a mut [u8],
    rowlen: usize,
}

impl pulp::WithSimd for PlaneToBitRows<'_> {
    type Output = usize;

    #[inline(always)]
    fn with_simd<S: pulp::Simd>(self, _: S) -> usize {
        let Self { s, plane, rows, rowlen } = self;
        let tiles = plane.len().min(rowlen * 8) / TILE;
        if rows.len() < 8 * rowlen {
            return 0;
        }
        let b = s.avx512bw;
        for (m, bytes) in plane.chunks_exact(TILE).take(tiles).enumerate() {
            let mut x: __m512i = pulp::cast(<[u8; 64]>::try_from(bytes).unwrap_or([0; 64]));
            for k in (0..8).rev() {
                let mask: u64 = b._mm512_movepi8_mask(x);
                rows[k * rowlen + 8 * m..k * rowlen + 8 * m + 8].copy_from_slice(&mask.to_le_bytes());
                x = b._mm512_add_epi8(x, x);
            }
        }
        tiles * TILE
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    /// Whether this CPU has what the kernel needs (x86-64-v4).
    fn avx512_detected() -> bool {
        std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512cd")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512vl")
            && crate::filter::avx2_detected()
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// The kernel alone, on slices starting at any offset of a larger buffer, against the
        /// definition (bit `b` of byte `e` of row `k` is bit `k` of plane byte `8e + b`): whole
        /// 64-byte tiles done, the rest of the rows left alone; `None` without AVX-512.
        #[test]
        fn bit_step_equals_the_definition_at_any_offset(
            offset in 0usize..64,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4000),
        ) {
            let data = &data[offset.min(data.len())..];
            let rowlen = data.len() / 8;
            let mut rows = vec![0x5Au8; 8 * rowlen];
            let done = super::plane_to_bit_rows(&data[..8 * rowlen], &mut rows, rowlen);
            if !avx512_detected() {
                proptest::prop_assert_eq!(done, None, "no AVX-512: the kernel says so");
                return Ok(());
            }
            let plane_done = 8 * rowlen / 64 * 64;
            proptest::prop_assert_eq!(done, Some(plane_done));
            super::super::bitshuffle_avx2::forward_rows_match(data, &rows, rowlen, plane_done)?;
        }
    }
}
