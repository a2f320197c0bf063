//! The threaded decoder (blocks taken in order by whichever thread is free) gives what one
//! thread gives: the same bytes, and for a damaged chunk the same error (the first failing
//! block's, or the header's), whatever the thread count, with and without a delta filter.

use b2schema_chunk::compress::{Params, compress};
use b2schema_chunk::{self as chunk, Codec, Filter};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn threads_decode_as_one_thread_does(
        seed in any::<u64>(),
        items in 256usize..20_000,
        codec in prop::sample::select(vec![Codec::BloscLz, Codec::Lz4, Codec::Lz4hc, Codec::Zstd]),
        delta in any::<bool>(),
        damage in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..4),
        header in any::<bool>(),
        nthreads in 2usize..=4,
    ) {
        let mut x = seed | 1;
        let src: Vec<u8> = (0..items * 4)
            .map(|i| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                if x % 4 == 0 { x as u8 } else { (i / 64) as u8 }
            })
            .collect();
        let mut p = Params::new(4).with_codec(codec).with_blocksize(1024);
        if delta {
            p = p.with_filter(0, Filter::Delta, 0);
        }
        let mut c = compress(&src, &p).unwrap();
        // Damage after the header and the block table, where the streams are, or anywhere
        // (a wrong codec and a wrong filter: the codec's error, as at one thread).
        let table = if header { 2 } else { 32 + 4 * src.len().div_ceil(1024) };
        for (at, v) in damage {
            if c.len() > table {
                let i = table + at.index(c.len() - table);
                c[i] ^= v | 1;
            }
        }
        let mut one = vec![0u8; src.len()];
        let mut many = vec![0u8; src.len()];
        let r1 = chunk::decompress_into(&c, &mut one);
        let rn = chunk::decompress_into_threaded(&c, &mut many, nthreads);
        prop_assert_eq!(&r1, &rn);
        if r1.is_ok() {
            prop_assert_eq!(one, many);
        }
    }
}

/// A chunk naming both an unknown codec and an unknown filter: the codec's error at every
/// thread count (found by mutating the `chunk` fuzz corpus: the threaded decoder checked the
/// filters first).
#[test]
fn a_wrong_codec_and_a_wrong_filter_give_the_codec_error_at_any_thread_count() {
    let src: Vec<u8> = (0..40_000u32).map(|i| (i / 100) as u8).collect();
    let mut c = compress(&src, &Params::new(4).with_codec(Codec::Lz4).with_blocksize(4096)).unwrap();
    c[2] = (c[2] & 0x1F) | (5 << 5);
    c[16] = 128;
    let mut out = vec![0u8; src.len()];
    let one = chunk::decompress_into(&c, &mut out).unwrap_err();
    assert_eq!(one.field, "flags", "{one}");
    for nthreads in 2..=4 {
        assert_eq!(chunk::decompress_into_threaded(&c, &mut out, nthreads), Err(one));
    }
}
