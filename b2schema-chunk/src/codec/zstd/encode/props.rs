//! Property tests of the encoder over the data users compress: byte-shuffled planes of
//! numbers whose statistics drift, runs, repeats, skewed bytes, text-like symbols and noise,
//! in any mixture and length (both sides of zstd's 128 KiB block).

use super::encode;
use super::tests::header_of;
use crate::codec::zstd::ZstdState;
use crate::test_data::noise;
use alloc::vec;
use alloc::vec::Vec;
use proptest::prelude::*;

/// One piece of a stream: `kind` picks what its `len` bytes look like.
fn piece(kind: u8, len: usize, seed: u64) -> Vec<u8> {
    let r = noise(len, seed);
    match kind {
        0 => r,
        1 => vec![r.first().copied().unwrap_or(0); len],
        // A 251-byte pattern repeated: matches everywhere.
        2 => (0..len).map(|i| r[i % 251.min(len)]).collect(),
        // 16 symbols: Huffman shrinks them, few matches.
        3 => r.iter().map(|b| b'a' + (b & 15)).collect(),
        // A slowly drifting byte plane (as the high bytes of a smooth float64 field, shuffled).
        4 => (0..len).map(|i| ((i / 2048) as u8).wrapping_add(r[i] & 3)).collect(),
        // Mostly zero with noise in one byte of four (small integers, shuffled).
        _ => r.iter().enumerate().map(|(i, b)| if i % 4 == 0 { *b } else { 0 }).collect(),
    }
}

fn stream() -> impl Strategy<Value = Vec<u8>> {
    // Noise and repeated noise (flat histograms, matches only by repeats) twice as often.
    let kind = (0u8..10).prop_map(|k| if k < 6 { k } else { (k - 6) % 2 * 2 });
    proptest::collection::vec((kind, 0usize..48 * 1024, any::<u64>()), 1..5)
        .prop_map(|ps| ps.into_iter().flat_map(|(k, n, s)| piece(k, n, s)).collect())
}

/// Decodes `frame` with this crate's decoder into exactly `n` bytes.
fn decoded(frame: &[u8], n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    let got = ZstdState::new().decode(frame, &mut out).expect("the frame decodes");
    assert_eq!(got, n);
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Every clevel's frame, given the room libzstd's `ZSTD_compressBound` says any frame needs,
    /// is made, declares its content size, no checksum and no dictionary id, and decodes to the
    /// input through this crate's decoder and libzstd.
    #[test]
    fn every_clevel_decodes_through_both_decoders(input in stream(), clevel in 1u8..=9) {
        let mut out = vec![0u8; zstd::zstd_safe::compress_bound(input.len())];
        let n = encode(clevel, &input, &mut out);
        prop_assert!(n > 0, "clevel {clevel}: no frame in {} bytes of room", out.len());
        prop_assert_eq!(header_of(&out[..n]), (Some(input.len() as u64), false, 0));
        prop_assert!(decoded(&out[..n], input.len()) == input, "ours: clevel {clevel}");
        let back = zstd::bulk::decompress(&out[..n], input.len()).expect("libzstd decodes the frame");
        prop_assert!(back == input, "libzstd: clevel {clevel}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// This crate's own encoder at the levels of the binary tree and the optimal parsers (10 to
    /// 22), on any mixture: libzstd and this crate's decoder both give the input back.
    #[test]
    fn own_strong_levels_decode_through_libzstd(input in stream(), level in 10i32..=22) {
        let frame = super::frame::compress(level, &input, &[], 0).expect("every level is the encoder's");
        let back = zstd::bulk::decompress(&frame, input.len()).expect("libzstd decodes the frame");
        prop_assert!(back == input, "libzstd: level {level}, {} bytes", input.len());
        prop_assert!(decoded(&frame, input.len()) == input, "ours: level {level}");
    }
}
