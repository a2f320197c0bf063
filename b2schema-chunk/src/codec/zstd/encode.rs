//! The zstd encoder: `rusty_zstd` (pure Rust) at c-blosc2's levels. Its input is the caller's
//! own data, never untrusted bytes.

/// The zstd level c-blosc2 runs for `clevel` (`zstd_wrap_compress`): `2 * clevel - 1` below 9,
/// `ZSTD_maxCLevel()` (22) at 9. (Its `if (clevel == 8) clevel = ZSTD_maxCLevel() - 2` tests
/// the level after that mapping, which is odd or 22, so it never applies: clevel 8 is level 15.)
pub(crate) fn zstd_level(clevel: u8) -> i32 {
    if clevel < 9 { 2 * i32::from(clevel) - 1 } else { rusty_zstd::MAX_CLEVEL }
}

/// One zstd frame as c-blosc2's `ZSTD_compressCCtx` writes it (content size in the header, no
/// checksum, no dictionary id), through `rusty_zstd`; 0 when the frame does not fit `output`
/// or the encoder refuses (c-blosc2: "Blosc will just memcpy this buffer").
pub(crate) fn encode(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    let opts = rusty_zstd::CompressOptions { level: zstd_level(clevel), checksum: false };
    rusty_zstd::compress_with(input, opts).map_or(0, |v| crate::bytes::copy_if_fits(&v, output))
}

/// One zstd frame with the chunk's dictionary, as c-blosc2's `ZSTD_compress_usingCDict` with a
/// `ZSTD_CDict` of level 1 writes it (content size, dictionary id, no checksum); 0 when it does
/// not fit.
pub(crate) fn encode_with_dict(dict: &rusty_zstd::Dictionary, input: &[u8], output: &mut [u8]) -> usize {
    let opts = rusty_zstd::CompressOptions { level: DICT_LEVEL, checksum: false };
    rusty_zstd::compress_using_dict_with(input, dict, opts, true)
        .map_or(0, |v| crate::bytes::copy_if_fits(&v, output))
}

/// The zstd level of c-blosc2's dictionary compression (`ZSTD_createCDict(dict, size, 1)`).
const DICT_LEVEL: i32 = 1;

#[cfg(test)]
mod tests {
    use super::{encode, zstd_level};
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
