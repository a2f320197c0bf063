//! The zstd encoders: `rusty_zstd` (pure Rust) at c-blosc2's levels, with this crate's own
//! choices per clevel ([`levels`]): the lazy finders' skip over literals, the probe for random
//! streams ([`probe`]) and the zstd block size ([`blocks`]); and this crate's own encoder, safe
//! Rust (issue 52): the frame ([`frame`]) and its block sizes ([`presplit`], [`postsplit`]), blocks ([`block`]), literals ([`literals`],
//! [`huffman`]), sequences ([`sequences`], [`fse`], [`bits`]) and libzstd's match finders at
//! its parameters ([`params`], [`match_fast`], [`match_lazy`], [`match_row`], the binary trees
//! [`match_dubt`] and [`match_bt`] and the optimal parsers [`opt`]: every strategy of levels 1 to 22), chosen per
//! clevel in [`levels`]. Their input is the caller's own data, never untrusted bytes.

mod bits;
mod block;
mod blocks;
mod context;
mod frame;
mod fse;
mod huffman;
mod levels;
mod literals;
mod match_bt;
mod match_dubt;
mod match_fast;
mod match_lazy;
mod match_row;
mod matching;
mod opt;
#[cfg(test)]
mod own_strong_tests;
#[cfg(test)]
mod own_tests;
mod params;
mod postsplit;
mod presplit;
#[cfg(test)]
mod presplit_tests;
mod probe;
#[cfg(test)]
mod props;
mod sequences;
mod skip;

use levels::{Blocks, Encoder, Setting, setting};

/// The zstd level c-blosc2 runs for `clevel` (`zstd_wrap_compress`): `2 * clevel - 1` below 9,
/// `ZSTD_maxCLevel()` (22) at 9. (Its `if (clevel == 8) clevel = ZSTD_maxCLevel() - 2` tests
/// the level after that mapping, which is odd or 22, so it never applies: clevel 8 is level 15.)
#[cfg(test)]
pub(crate) fn zstd_level(clevel: u8) -> i32 {
    setting(clevel).level
}

/// One zstd frame as c-blosc2's `ZSTD_compressCCtx` writes it (content size in the header, no
/// checksum, no dictionary id), through `rusty_zstd`; 0 when the frame does not fit `output`
/// or the encoder refuses (c-blosc2: "Blosc will just memcpy this buffer").
///
/// Where the clevel's [`Setting`] says so, a stream that [`probe::looks_random`] is first tried
/// at level 1: when even that does not shrink it, it is given up at once (0: stored raw).
/// `rusty_zstd`'s tree and optimal levels search every position of such a stream where
/// libzstd's give up after few probes. The probe is this crate's, not c-blosc2's: on streams
/// where level 1 finds nothing and the stronger levels a little, it gives that little up.
pub(crate) fn encode(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    let s = setting(clevel);
    if s.encoder == Encoder::Own
        && let Some(n) = encode_own(s.level, input, output)
    {
        return n;
    }
    if s.probe && probe::looks_random(input) {
        let n = encode_with(&setting(1), input, output);
        if n == 0 || n >= input.len() {
            return 0;
        }
    }
    encode_with(&s, input, output)
}

/// The frame of this crate's own encoder at zstd `level` copied into `output` (0: it does not
/// fit); `None` when the level's strategy for this stream is not the encoder's.
fn encode_own(level: i32, input: &[u8], output: &mut [u8]) -> Option<usize> {
    context::with_context(|ctx| {
        frame::compress_with(ctx, level, input, &[], 0).map(|v| crate::bytes::copy_if_fits(v, output))
    })
}

/// [`encode`] with setting `s`, without the probe: with its skip ([`skip::with_skip`]), and
/// for [`Blocks::Picked`] on streams longer than [`blocks::TRIED_ABOVE`] the smaller of the
/// frames with 128 KiB blocks and with the picked ones.
fn encode_with(s: &Setting, input: &[u8], output: &mut [u8]) -> usize {
    let Ok(params) = rusty_zstd::compression_params(s.level, Some(input.len() as u64)) else {
        return 0;
    };
    let frame = |cap: usize| {
        // `rusty_zstd` caps its blocks at four times `target_cblock_size` (0: 128 KiB).
        let adv = rusty_zstd::AdvancedOptions { target_cblock_size: (cap / 4) as u32, ..Default::default() };
        rusty_zstd::compress_with_advanced(input, params, false, None, &[], false, adv).ok()
    };
    let best = match s.skip {
        Some(k) => skip::with_skip(k, || frame(0)),
        None => frame(0),
    };
    let best = match (s.blocks, best) {
        (Blocks::Picked, Some(large)) if input.len() > blocks::TRIED_ABOVE => {
            match blocks::block_cap(input) {
                cap if cap < blocks::LARGEST => match frame(cap) {
                    Some(small) if small.len() < large.len() => Some(small),
                    _ => Some(large),
                },
                _ => Some(large),
            }
        }
        (_, best) => best,
    };
    best.map_or(0, |v| crate::bytes::copy_if_fits(&v, output))
}

/// One zstd frame with the chunk's dictionary, as c-blosc2's `ZSTD_compress_usingCDict` with a
/// `ZSTD_CDict` of level 1 writes it (content size, dictionary id, no checksum); 0 when it does
/// not fit.
pub(crate) fn encode_with_dict(dict: &rusty_zstd::Dictionary, input: &[u8], output: &mut [u8]) -> usize {
    let opts = rusty_zstd::CompressOptions { level: DICT_LEVEL, checksum: false };
    rusty_zstd::compress_using_dict_with(input, dict, opts, true)
        .map_or(0, |v| crate::bytes::copy_if_fits(&v, output))
}

/// The frame of this crate's own encoder for `input` at zstd `level` (`None` only for an input
/// too large for its 32-bit positions), for the benchmark and the fuzz target only (not part of the API).
/// Runs through the thread's kept context, as the chunk path does; the copy into a new `Vec` is
/// the benchmark's only extra cost.
pub fn own_frame(level: i32, input: &[u8]) -> Option<alloc::vec::Vec<u8>> {
    context::with_context(|ctx| frame::compress_with(ctx, level, input, &[], 0).map(<[u8]>::to_vec))
}

/// The zstd level of c-blosc2's dictionary compression (`ZSTD_createCDict(dict, size, 1)`).
const DICT_LEVEL: i32 = 1;

#[cfg(test)]
mod tests {
    use super::{encode, zstd_level};
    use crate::test_data::noise;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Bytes drawn from 16 values with no repeats of 3 or more in a row (a xorshift): Huffman
    /// shrinks them, matches are rare, so nearly every byte is a literal of a compressed block.
    fn literal_heavy(n: usize) -> Vec<u8> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b'a' + (x & 15) as u8
            })
            .collect()
    }

    /// Random streams are given up at every clevel (by the probe from clevel 6, below by the
    /// frame not fitting); a flat histogram that repeats (4 KiB of noise 16 times over, or 16 KiB of noise
    /// then itself again) is probed, found to shrink, and compressed at the clevel's level.
    #[test]
    fn random_streams_are_given_up_and_repeated_noise_is_not() {
        for n in [16 * 1024, 64 * 1024, 100_000] {
            let input = noise(n, n as u64);
            assert!(super::probe::looks_random(&input), "n {n}");
            for clevel in 1..=9 {
                let mut out = vec![0u8; n];
                assert_eq!(encode(clevel, &input, &mut out), 0, "n {n} clevel {clevel}");
            }
        }
        let short = noise(4096, 7).repeat(16);
        let long = noise(16 * 1024, 9).repeat(2);
        for input in [short, long] {
            assert!(super::probe::looks_random(&input));
            let mut out = vec![0u8; input.len()];
            for clevel in [3, 5, 6, 9] {
                let n = encode(clevel, &input, &mut out);
                assert!(n > 0 && n < input.len() * 2 / 3, "clevel {clevel}: {n} bytes");
                assert!(rusty_zstd::decompress(&out[..n]).unwrap() == input);
            }
        }
        // A stream under 16 KiB is never probed; a skewed histogram is not random.
        assert!(!super::probe::looks_random(&noise(16 * 1024 - 1, 3)));
        assert!(!super::probe::looks_random(
            &noise(64 * 1024, 5).iter().map(|b| b & 0x7f).collect::<Vec<u8>>()
        ));
    }

    #[test]
    fn clevels_map_to_c_blosc2_zstd_levels() {
        let levels: Vec<i32> = (1..=9).map(zstd_level).collect();
        assert_eq!(levels, [1, 3, 5, 7, 9, 11, 13, 15, 22]);
    }

    #[test]
    fn zstd_streams_around_the_zstd_block_size_encode_and_decode() {
        for n in [131_071, 131_072, 131_073, 262_144, 262_145, 1 << 20] {
            let input = literal_heavy(n);
            for clevel in [1, 5, 9] {
                let mut out = vec![0u8; n + 1024];
                let len = encode(clevel, &input, &mut out);
                assert!(len > 0 && len < n, "n {n}: {len} bytes, expected a compressed stream");
                let frame = &out[..len];
                // As c-blosc2's ZSTD_compressCCtx: content size declared, no checksum, no dict id.
                let header = rusty_zstd::get_frame_header(frame).unwrap();
                let rusty_zstd::FrameKind::Zstd(h) = header else { panic!("not a zstd frame") };
                assert_eq!((h.content_size, h.checksum, h.dict_id), (Some(n as u64), false, None));
                assert!(rusty_zstd::decompress(frame).unwrap() == input, "n {n} clevel {clevel}");
                // One byte less room than the frame needs: "does not fit", not a panic.
                assert_eq!(encode(clevel, &input, &mut out[..len - 1]), 0);
            }
        }
    }
}
