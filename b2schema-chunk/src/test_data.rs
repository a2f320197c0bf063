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

/// Pieces of `dict` (its start, its end, and across a 64 KiB window from its end), each followed
/// by 50 bytes of noise: input whose matches reach into a dictionary at every distance.
pub(crate) fn dict_pieces(dict: &[u8]) -> Vec<u8> {
    let d = dict.len();
    let mut mixed = Vec::new();
    for (a, b) in
        [(0, d.min(700)), (d.saturating_sub(900), d), (d.saturating_sub(70_000), d.saturating_sub(60_000))]
    {
        mixed.extend_from_slice(&dict[a..b]);
        mixed.extend_from_slice(&noise(50, b as u64));
    }
    mixed
}
