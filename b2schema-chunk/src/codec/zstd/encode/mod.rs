//! This crate's own zstd encoder, safe Rust (issue 52), a port of libzstd 1.5.7's compressor:
//! the frame ([`frame`]) and its block sizes ([`presplit`], [`postsplit`]: libzstd 1.5.7's
//! splitters), blocks ([`block`]), literals ([`literals`], [`huffman`]), sequences
//! ([`sequences`], [`fse`], [`bits`]) and libzstd's match finders at its parameters
//! ([`params`], [`match_fast`], [`match_lazy`], [`match_row`], the binary trees [`match_dubt`]
//! and [`match_bt`] and the optimal parsers [`opt`]: every strategy of levels 1 to 22), at
//! c-blosc2's level for each clevel ([`levels`]), with a context kept per thread ([`context`]).
//! Its input is the caller's own data.

mod bits;
mod block;
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
#[cfg(test)]
mod props;
mod sequences;

/// The zstd level c-blosc2 runs for `clevel` ([`levels::level`]).
#[cfg(test)]
pub(crate) fn zstd_level(clevel: u8) -> i32 {
    levels::level(clevel)
}

/// One zstd frame as c-blosc2's `ZSTD_compressCCtx` writes it (content size in the header, no
/// checksum, no dictionary id), at the clevel's zstd level; 0 when the frame does not fit
/// `output` (c-blosc2: "Blosc will just memcpy this buffer").
pub(crate) fn encode(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    encode_own(levels::level(clevel), input, &[], output)
}

/// One zstd frame with the chunk's raw-content dictionary `dict` as its history, as c-blosc2's
/// `ZSTD_compress_usingCDict` with a `ZSTD_CDict` of level 1 writes it (content size, no
/// checksum; a raw-content dictionary has id 0, so no id is written); 0 when it does not fit.
pub(crate) fn encode_with_dict(dict: &[u8], input: &[u8], output: &mut [u8]) -> usize {
    encode_own(DICT_LEVEL, input, dict, output)
}

/// The frame of the own encoder at zstd `level`, made in the thread's kept context and copied
/// into `output`; 0 when it does not fit, or for an input too large for the encoder's 32-bit
/// positions (4 GiB; a Blosc block is at most 2 GiB).
fn encode_own(level: i32, input: &[u8], dict: &[u8], output: &mut [u8]) -> usize {
    context::with_context(|ctx| {
        frame::compress_with(ctx, level, input, dict, 0).map_or(0, |v| crate::bytes::copy_if_fits(v, output))
    })
}

/// [`encode`] (`dict`: [`encode_with_dict`]) appending the frame to `out` when it has room for
/// the largest frame (`frame::bound`), so that it is not copied there: the frame's length, or 0
/// with `out` as it was when it is longer than `maxout` (or the input too large). With less
/// room, the frame is made in the thread's context and appended if it fits (`out` is never
/// grown: it is a chunk's).
pub(crate) fn encode_onto(
    clevel: u8,
    dict: Option<&[u8]>,
    input: &[u8],
    out: &mut alloc::vec::Vec<u8>,
    maxout: usize,
) -> usize {
    let (level, dict) = match dict {
        Some(d) => (DICT_LEVEL, d),
        None => (levels::level(clevel), &[][..]),
    };
    context::with_context(|ctx| {
        let start = out.len();
        if out.capacity() - start < frame::bound(input.len()) {
            let Some(v) = frame::compress_with(ctx, level, input, dict, 0) else { return 0 };
            if v.len() > maxout {
                return 0;
            }
            out.extend_from_slice(v);
            return v.len();
        }
        match frame::compress_onto(ctx, level, input, dict, 0, out) {
            Some(n) if n <= maxout => n,
            _ => {
                out.truncate(start);
                0
            }
        }
    })
}

/// The most bytes a frame of `n` bytes of input takes.
#[cfg(feature = "std")]
pub(crate) const fn bound(n: usize) -> usize {
    frame::bound(n)
}

/// The frame of this crate's own encoder for `input` at zstd `level` (`None` only for an input
/// too large for its 32-bit positions), for the benchmark and the fuzz target only (not part of the API).
/// Runs through the thread's kept context, as the chunk path does; the copy into a new `Vec` is
/// the benchmark's only extra cost.
pub fn own_frame(level: i32, input: &[u8]) -> Option<alloc::vec::Vec<u8>> {
    context::with_context(|ctx| frame::compress_with(ctx, level, input, &[], 0).map(<[u8]>::to_vec))
}

/// [`own_frame`] written after the bytes `out` holds, as the chunk path writes a stream into
/// its chunk (`encode_onto`: no copy); the frame's length. For the benchmark's timing (not part
/// of the API): a buffer the caller keeps, as libzstd's `ZSTD_compressCCtx` is given one.
pub fn own_frame_onto(level: i32, input: &[u8], out: &mut alloc::vec::Vec<u8>) -> Option<usize> {
    context::with_context(|ctx| frame::compress_onto(ctx, level, input, &[], 0, out))
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

    /// Random streams are given up at every clevel (the frame, stored blocks, does not fit the
    /// stream's own size); a flat histogram that repeats (4 KiB of noise 16 times over, or
    /// 16 KiB of noise then itself again) is compressed.
    #[test]
    fn random_streams_are_given_up_and_repeated_noise_is_not() {
        for n in [16 * 1024, 64 * 1024, 100_000] {
            let input = noise(n, n as u64);
            for clevel in 1..=9 {
                let mut out = vec![0u8; n];
                assert_eq!(encode(clevel, &input, &mut out), 0, "n {n} clevel {clevel}");
            }
        }
        let short = noise(4096, 7).repeat(16);
        let long = noise(16 * 1024, 9).repeat(2);
        for input in [short, long] {
            let mut out = vec![0u8; input.len()];
            for clevel in [1, 3, 5, 6, 9] {
                let n = encode(clevel, &input, &mut out);
                assert!(n > 0 && n < input.len() * 2 / 3, "clevel {clevel}: {n} bytes");
                assert!(zstd::bulk::decompress(&out[..n], input.len()).unwrap() == input);
            }
        }
    }

    /// The content size, the checksum flag and the dictionary id of `frame`'s header.
    pub(super) fn header_of(frame: &[u8]) -> (Option<u64>, bool, u32) {
        assert_eq!(frame.get(..4), Some(&crate::codec::zstd::FRAME_MAGIC.to_le_bytes()[..]));
        let h = crate::codec::zstd::decode::frame::header(frame, 0).expect("a frame header");
        (h.content_size, h.checksum, h.dict_id)
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
            for clevel in 1..=9 {
                let mut out = vec![0u8; n + 1024];
                let len = encode(clevel, &input, &mut out);
                assert!(len > 0 && len < n, "n {n}: {len} bytes, expected a compressed stream");
                let frame = &out[..len];
                // As c-blosc2's ZSTD_compressCCtx: content size declared, no checksum, no dict id.
                assert_eq!(header_of(frame), (Some(n as u64), false, 0));
                assert!(zstd::bulk::decompress(frame, n).unwrap() == input, "n {n} clevel {clevel}");
                // One byte less room than the frame needs: "does not fit", not a panic.
                assert_eq!(encode(clevel, &input, &mut out[..len - 1]), 0);
            }
        }
    }
}
