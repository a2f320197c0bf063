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

/// `n` bytes of one of four kinds for the match finders' model tests (`kind % 4`): two-bit
/// symbols (matches everywhere, hashes shared), a 37-byte period (long repeats), runs of a byte
/// changing every 300 positions broken by noise, plain noise.
pub(crate) fn finder_input(kind: u8, n: usize, seed: u64) -> Vec<u8> {
    let r = noise(n, seed);
    match kind % 4 {
        0 => r.iter().map(|b| b & 3).collect(),
        1 => (0..n).map(|i| r[i % 37]).collect(),
        2 => (0..n).map(|i| if r[i] < 40 { r[i] } else { (i / 300) as u8 }).collect(),
        _ => r,
    }
}

/// The walks of the match finders' model tests: steps between searched positions (mostly 1,
/// some up to 8, a few past the update's gap threshold), each with whether the finder skips.
pub(crate) fn finder_steps() -> impl proptest::strategy::Strategy<Value = Vec<(usize, bool)>> {
    use proptest::prelude::*;
    proptest::collection::vec(
        (prop_oneof![4 => Just(1usize), 2 => 2usize..9, 1 => 300usize..900], proptest::bool::weighted(0.1)),
        1..20,
    )
}

/// The finders' model tests' window: the whole data or shorter.
pub(crate) fn finder_max_dist() -> impl proptest::strategy::Strategy<Value = usize> {
    use proptest::prelude::*;
    prop_oneof![Just(1usize << 20), 16usize..3000]
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
