//! zlib (codec 4): inflated by `fdeflate` with `std` (`miniz_oxide` without): zlib-wrapped,
//! Adler-32 verified, output bounded by the block. The encoder ([`encode`]) is this crate's own
//! deflate ([`deflate`]: safe Rust, zlib-rs 0.6.8's bytes, with and without `std`; zlib-rs is
//! only the tests' reference).

pub(crate) mod deflate;
pub(crate) mod encode;

/// One zlib stream into `output`: the bytes written, or `None` when the stream is malformed,
/// fails its Adler-32, or would write more than `output` holds (the decoder writes straight into
/// the block, so a bomb never grows past it). Bytes after the stream's checksum are left alone,
/// as zlib's `uncompress` (c-blosc2's call) leaves them.
///
/// With `std`, `fdeflate` (image-rs; `#![forbid(unsafe_code)]`, fuzzed against `miniz_oxide`;
/// its Adler-32 is `simd-adler32`'s, whose SIMD loads read only whole blocks of the decoded bytes:
/// `scripts/check_decode_unsafe.sh` says why it is accepted): 1.2-1.8x `miniz_oxide`'s speed on
/// blocks of shuffled numbers (BENCHMARKS.md). (`zune-inflate`, 1.3x, was tried and dropped: the
/// `chunk` fuzz target made it fail a `debug_assert!` of its bit reader on a crafted stream;
/// `tests/fuzz_regressions.rs` keeps the input.)
#[cfg(feature = "std")]
pub(crate) fn inflate(input: &[u8], output: &mut [u8]) -> Option<usize> {
    let mut d = fdeflate::Decompressor::new();
    let (_, n) = d.read(input, output, 0, true).ok()?;
    d.is_done().then_some(n)
}

/// [`inflate`] without `std`: `miniz_oxide` (`#![forbid(unsafe_code)]`).
#[cfg(not(feature = "std"))]
pub(crate) fn inflate(input: &[u8], output: &mut [u8]) -> Option<usize> {
    miniz_inflate(input, output)
}

/// `miniz_oxide`'s inflate of one zlib stream into `output` (the decoder without `std`, and a
/// second reference in the tests).
#[cfg(any(test, not(feature = "std")))]
fn miniz_inflate(input: &[u8], output: &mut [u8]) -> Option<usize> {
    miniz_oxide::inflate::decompress_slice_iter_to_slice(output, core::iter::once(input), true, false).ok()
}

#[cfg(all(test, feature = "std"))]
mod inflate_tests {
    use super::inflate;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// `zlib-rs`'s inflate (zlib's `uncompress`), an independent reference for the decoder.
    fn reference(input: &[u8], len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; len];
        let (got, code) = zlib_rs::decompress_slice(&mut out, input, zlib_rs::InflateConfig::default());
        let n = got.len();
        (code == zlib_rs::ReturnCode::Ok).then(|| {
            out.truncate(n);
            out
        })
    }

    fn data() -> impl Strategy<Value = Vec<u8>> {
        // Runs, text-like repeats and noise: every deflate block kind appears.
        prop::collection::vec((any::<u8>(), 1usize..300, 0u8..3), 0..60).prop_map(|parts| {
            let mut v = Vec::new();
            for (b, n, kind) in parts {
                match kind {
                    0 => v.extend(core::iter::repeat_n(b, n)),
                    1 => v.extend((0..n).map(|i| b"blosc2 chunk "[i % 13] ^ (b & 1))),
                    _ => v.extend((0..n).map(|i| (i as u8).wrapping_mul(b).rotate_left(3))),
                }
            }
            v
        })
    }

    proptest! {
        /// Streams of every level decode to their data, into exactly their length; one byte
        /// less of room is refused.
        #[test]
        fn streams_decode_to_their_data(src in data(), level in 0u8..=10) {
            let z = miniz_oxide::deflate::compress_to_vec_zlib(&src, level);
            let mut out = vec![0u8; src.len()];
            prop_assert_eq!(inflate(&z, &mut out), Some(src.len()));
            prop_assert_eq!(&out, &src);
            if !src.is_empty() {
                let mut short = vec![0u8; src.len() - 1];
                prop_assert_eq!(inflate(&z, &mut short), None);
            }
            // A changed Adler-32 is refused.
            let mut bad = z.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            prop_assert_eq!(inflate(&bad, &mut out), None);
        }

        /// Changed streams never panic, and what both accept decodes alike.
        #[test]
        fn changed_streams_agree_with_the_reference(
            src in data(),
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
            room in 0usize..64,
        ) {
            let mut z = miniz_oxide::deflate::compress_to_vec_zlib(&src, 6);
            for (at, x) in flips {
                let i = at.index(z.len());
                z[i] ^= x.max(1);
            }
            let len = src.len() + room;
            let mut out = vec![0u8; len];
            let got = inflate(&z, &mut out).map(|n| out[..n].to_vec());
            if let (Some(got), Some(want)) = (&got, reference(&z, len)) {
                prop_assert_eq!(got, &want);
            }
            // The two pure-Rust decoders (with and without `std`) accept the same streams.
            let mut other = vec![0u8; len];
            let miniz = super::miniz_inflate(&z, &mut other).map(|n| other[..n].to_vec());
            prop_assert_eq!(got, miniz);
        }
    }
}
