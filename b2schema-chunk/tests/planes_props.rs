//! Blocks whose only filter is the byte shuffle, split into one stream per byte of the item, are
//! unshuffled from where their streams lie (a stored stream in the chunk, a run of zeros in a
//! kept zero plane, a coded stream or a run of another byte in scratch). These chunks mix all
//! four kinds of stream, varying from block to block (so that a plane read from the wrong place
//! shows the previous block's bytes), over item sizes with a kernel that reads planes apart (2,
//! 4, 8, 16) and without (3 and 5: the planes are copied into one buffer first, the path a CPU
//! without AVX2 takes), block sizes with a last short block, at one and two threads.

use b2schema_chunk::compress::{Params, Split, compress};
use b2schema_chunk::{self as chunk, Codec};
use proptest::prelude::*;

/// `items` items of `typesize` bytes whose byte `j` is, over each run of `seg` items, one of:
/// zeros, one other byte, noise (a stored stream), or a slow ramp (a coded stream); the kind
/// is drawn per plane and per run.
fn mixed(seed: u64, typesize: usize, items: usize, seg: usize) -> Vec<u8> {
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let mut out = vec![0u8; items * typesize];
    for j in 0..typesize {
        for start in (0..items).step_by(seg) {
            let (kind, v) = (next() % 4, next() as u8 | 1);
            for i in start..(start + seg).min(items) {
                out[i * typesize + j] = match kind {
                    0 => 0,
                    1 => v,
                    2 => next() as u8,
                    _ => (i / 9) as u8 ^ v,
                };
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn shuffled_planes_decode_where_they_lie(
        seed in any::<u64>(),
        typesize in prop::sample::select(vec![2usize, 3, 4, 5, 8, 16]),
        items in 1usize..6_000,
        seg in 16usize..2_000,
        block_items in 16usize..1_500,
        codec in prop::sample::select(vec![Codec::BloscLz, Codec::Lz4, Codec::Lz4hc]),
        clevel in 1u8..=9,
    ) {
        let src = mixed(seed, typesize, items, seg);
        let p = Params::new(typesize)
            .with_codec(codec)
            .with_clevel(clevel)
            .with_filters(Params::SHUFFLE_LAST, [0; 6])
            .with_split(Split::Always)
            .with_blocksize(block_items * typesize);
        let c = compress(&src, &p).unwrap();
        prop_assert_eq!(chunk::decompress(&c).unwrap(), src.clone());
        let mut out = vec![0xA5u8; src.len() + 7];
        prop_assert_eq!(chunk::decompress_into_threaded(&c, &mut out, 2).unwrap(), src.len());
        prop_assert_eq!(&out[..src.len()], &src[..]);
        prop_assert!(out[src.len()..].iter().all(|&b| b == 0xA5), "bytes past nbytes written");
    }
}
