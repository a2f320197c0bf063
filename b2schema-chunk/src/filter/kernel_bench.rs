//! Each AVX2 kernel next to the path it replaced (SSE2 or the plain loop), for
//! `benches/filter_kernels.rs` only (not part of the API): same input, same output, timed side
//! by side in one run.

use super::{avx2, shuffle_sse2};

/// One kernel run on a block: `src` in, `dst` out (same length).
#[doc(hidden)]
pub struct Kernel {
    /// What it does, then `avx2` or the path it replaced.
    pub name: &'static str,
    /// Runs it on `src` into `dst`.
    pub run: fn(&[u8], &mut [u8]),
}

/// The kernels in pairs: each new one (AVX2, or AVX-512 for the forward bit step, beside the
/// AVX2 one it comes before), then the one it replaced. The element count of the shuffles is
/// `len / typesize`, the bit steps see one 8-row byte plane of `len` bytes.
#[doc(hidden)]
pub fn kernels() -> alloc::vec::Vec<Kernel> {
    macro_rules! k {
        ($name:expr, $run:expr) => {
            Kernel { name: $name, run: $run }
        };
    }
    alloc::vec![
        k!("unshuffle 2-byte      avx2", |s, d| {
            avx2::unshuffle(2, s, d, s.len() / 2);
        }),
        k!("unshuffle 2-byte      sse2", |s, d| {
            shuffle_sse2::unshuffle_tiles::<2>(s, d, s.len() / 2);
        }),
        k!("unshuffle 4-byte      avx2", |s, d| {
            avx2::unshuffle(4, s, d, s.len() / 4);
        }),
        k!("unshuffle 4-byte      sse2", |s, d| {
            shuffle_sse2::unshuffle_tiles::<4>(s, d, s.len() / 4);
        }),
        k!("unshuffle 8-byte      avx2", |s, d| {
            avx2::unshuffle(8, s, d, s.len() / 8);
        }),
        k!("unshuffle 8-byte      sse2", |s, d| {
            shuffle_sse2::unshuffle_tiles::<8>(s, d, s.len() / 8);
        }),
        k!("unshuffle 16-byte     avx2", |s, d| {
            avx2::unshuffle(16, s, d, s.len() / 16);
        }),
        k!("unshuffle 16-byte     sse2", |s, d| {
            shuffle_sse2::unshuffle_tiles::<16>(s, d, s.len() / 16);
        }),
        k!("shuffle 2-byte        avx2", |s, d| {
            avx2::shuffle(2, s, d, s.len() / 2);
        }),
        k!("shuffle 2-byte        sse2", |s, d| {
            shuffle_sse2::shuffle_tiles::<2>(s, d, s.len() / 2);
        }),
        k!("shuffle 16-byte       avx2", |s, d| {
            avx2::shuffle(16, s, d, s.len() / 16);
        }),
        k!("shuffle 16-byte       sse2", |s, d| {
            shuffle_sse2::shuffle_tiles::<16>(s, d, s.len() / 16);
        }),
        k!("plane -> bit rows   avx512", |s, d| {
            super::bitshuffle_avx512::plane_to_bit_rows(s, d, s.len() / 8);
        }),
        k!("plane -> bit rows     avx2", |s, d| {
            super::bitshuffle_avx2::plane_to_bit_rows(s, d, s.len() / 8);
        }),
        k!("bit rows -> plane     avx2", |s, d| {
            avx2::bit_rows_to_plane(s, s.len() / 8, d);
        }),
        k!("bit rows -> plane     sse2", |s, d| {
            shuffle_sse2::bit_rows_to_plane(s, s.len() / 8, d);
        }),
        k!("bytedelta undo        avx2", |s, d| {
            avx2::running_sums(s, d);
        }),
        k!("bytedelta undo        sse2", |s, d| {
            super::bytedelta::running_sums_16(s, d, 0);
        }),
        k!("bytedelta+unshuffle 8 avx2", |s, d| {
            avx2::undelta_unshuffle(8, s, d, s.len() / 8);
        }),
        k!("bytedelta+unshuffle 8 sse2", |s, d| {
            shuffle_sse2::undelta_unshuffle_tiles::<8>(s, d, s.len() / 8);
        }),
        k!("bytedelta+unshuffle 4 avx2", |s, d| {
            avx2::undelta_unshuffle(4, s, d, s.len() / 4);
        }),
        k!("bytedelta+unshuffle 4 sse2", |s, d| {
            shuffle_sse2::undelta_unshuffle_tiles::<4>(s, d, s.len() / 4);
        }),
        k!("bytedelta forward     avx2", |s, d| {
            avx2::differences(s, d);
        }),
        k!("bytedelta forward     loop", |s, d| {
            // The loop `bytedelta::encode` ran per channel before.
            let mut prev = 0u8;
            for (o, &v) in d.iter_mut().zip(s) {
                *o = v.wrapping_sub(prev);
                prev = v;
            }
        }),
    ]
}
