//! Data for this crate's unit tests.

use alloc::vec::Vec;

/// `n` bytes with a flat histogram and no matches: the top bytes of a 64-bit LCG (Knuth's
/// MMIX constants) from `seed`.
pub(crate) fn noise(n: usize, seed: u64) -> Vec<u8> {
    (0..n)
        .scan(seed, |x, _| {
            *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            Some((*x >> 56) as u8)
        })
        .collect()
}
