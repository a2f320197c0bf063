//! One stream through a codec, with c-blosc2's meaning of the compression level.
//!
//! Every encoder gets the block's stream and an output limit (`maxout`) and returns the
//! compressed length, or 0 when the result would not fit (c-blosc2 then stores the stream
//! raw, or the whole chunk as a memcpy chunk).
//!
//! | codec | implementation | level used for clevel 1-9 | cargo feature |
//! |---|---|---|---|
//! | blosclz | [`super::blosclz`] (this crate) | clevel (probe length, hash bits, thresholds) | `blosclz` |
//! | lz4 | [`super::lz4`] (this crate): liblz4 1.10.0's `LZ4_compress_fast`, byte-identical output; with a dictionary `LZ4_loadDict` + `LZ4_compress_fast_continue` | acceleration `10 - clevel`, as c-blosc2 passes it (the search step grows faster) | `lz4` |
//! | lz4hc | [`super::lz4hc`] (this crate): liblz4 1.10.0's `LZ4_compress_HC`, byte-identical output; with a dictionary `LZ4_loadDictHC` + `LZ4_compress_HC_continue` | clevel as the HC level: 1-2 `lz4mid`, 3-9 hash chains of `2^(clevel-1)` attempts (pattern analysis at 9) | `lz4` |
//! | zlib | `zlib-rs` (pure-Rust zlib) `compress2`, zlib wrapper | clevel, as c-blosc2 passes it to `compress2` | `zlib` |
//! | zstd | `rusty_zstd` (pure-Rust libzstd levels and strategies) `compress_with`, content size, no checksum; with a dictionary `compress_using_dict_with` at level 1 | c-blosc2's `2 * clevel - 1` (1, 3, ... 15), 22 at clevel 9 | `zstd` |

use super::super::error::{Error, Found};
use super::compcode;
use super::dict::Dict;

/// Checks that this build can compress with `codec`.
pub(crate) fn check(codec: u8) -> Result<(), Error> {
    let enabled = match codec {
        compcode::BLOSCLZ => cfg!(feature = "blosclz"),
        compcode::LZ4 | compcode::LZ4HC => cfg!(feature = "lz4"),
        compcode::ZLIB => cfg!(feature = "zlib"),
        compcode::ZSTD => cfg!(feature = "zstd"),
        _ => {
            return Err(Error::unsupported(
                22,
                "udcompcode",
                "a codec this compressor implements (blosclz 0, lz4 1, lz4hc 2, zlib 4, zstd 5)",
                Found::Value(codec.into()),
            ));
        }
    };
    if enabled {
        Ok(())
    } else {
        Err(Error::unsupported(
            22,
            "udcompcode",
            "a codec enabled in this build (cargo feature disabled)",
            Found::Value(codec.into()),
        ))
    }
}

/// Compresses `input` into `output` (whose length is the limit); 0 when it does not fit.
#[cfg_attr(
    not(all(feature = "blosclz", feature = "lz4", feature = "zlib", feature = "zstd")),
    allow(unused_variables)
)]
pub(crate) fn encode(codec: u8, clevel: u8, dict: Option<&Dict>, input: &[u8], output: &mut [u8]) -> usize {
    match codec {
        #[cfg(feature = "blosclz")]
        compcode::BLOSCLZ => super::blosclz::compress(clevel, input, output),
        #[cfg(feature = "lz4")]
        compcode::LZ4HC => match dict {
            Some(d) => super::lz4hc::compress_with_dict(clevel, &d.bytes, input, output),
            None => super::lz4hc::compress(clevel, input, output),
        },
        #[cfg(feature = "lz4")]
        compcode::LZ4 => match dict {
            Some(d) => {
                super::lz4::compress_with_dict(super::lz4::acceleration(clevel), &d.bytes, input, output)
            }
            None => super::lz4::compress(super::lz4::acceleration(clevel), input, output),
        },
        #[cfg(all(feature = "zlib", feature = "std"))]
        compcode::ZLIB => {
            // zlib's `compress2` at level clevel, straight into the limit: too small is "does not fit".
            let config = zlib_rs::DeflateConfig::new(i32::from(clevel.min(9)));
            let (out, code) = zlib_rs::compress_slice(output, input, config);
            if code == zlib_rs::ReturnCode::Ok { out.len() } else { 0 }
        }
        #[cfg(all(feature = "zlib", not(feature = "std")))]
        compcode::ZLIB => {
            copy_if_fits(&miniz_oxide::deflate::compress_to_vec_zlib(input, clevel.min(9)), output)
        }
        #[cfg(feature = "zstd")]
        compcode::ZSTD => match dict.and_then(|d| d.zstd.as_ref()) {
            Some(d) => zstd_encode_dict(d, input, output),
            None => zstd_encode(clevel, input, output),
        },
        _ => 0,
    }
}

/// The zstd level c-blosc2 runs for `clevel` (`zstd_wrap_compress`): `2 * clevel - 1` below 9,
/// `ZSTD_maxCLevel()` (22) at 9. (Its `if (clevel == 8) clevel = ZSTD_maxCLevel() - 2` tests
/// the level after that mapping, which is odd or 22, so it never applies: clevel 8 is level 15.)
#[cfg(feature = "zstd")]
pub(crate) fn zstd_level(clevel: u8) -> i32 {
    if clevel < 9 { 2 * i32::from(clevel) - 1 } else { rusty_zstd::MAX_CLEVEL }
}

/// One zstd frame as c-blosc2's `ZSTD_compressCCtx` writes it (content size in the header, no
/// checksum, no dictionary id), through `rusty_zstd`; 0 when the frame does not fit `output`
/// or the encoder refuses (c-blosc2: "Blosc will just memcpy this buffer").
#[cfg(feature = "zstd")]
fn zstd_encode(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    let opts = rusty_zstd::CompressOptions { level: zstd_level(clevel), checksum: false };
    rusty_zstd::compress_with(input, opts).map_or(0, |v| copy_if_fits(&v, output))
}

/// One zstd frame with the chunk's dictionary, as c-blosc2's `ZSTD_compress_usingCDict` with a
/// `ZSTD_CDict` of level 1 writes it (content size, dictionary id, no checksum); 0 when it does
/// not fit.
#[cfg(feature = "zstd")]
fn zstd_encode_dict(dict: &rusty_zstd::Dictionary, input: &[u8], output: &mut [u8]) -> usize {
    let opts = rusty_zstd::CompressOptions { level: DICT_LEVEL, checksum: false };
    rusty_zstd::compress_using_dict_with(input, dict, opts, true).map_or(0, |v| copy_if_fits(&v, output))
}

/// The zstd level of c-blosc2's dictionary compression (`ZSTD_createCDict(dict, size, 1)`).
#[cfg(feature = "zstd")]
const DICT_LEVEL: i32 = 1;

#[cfg(any(feature = "zstd", all(feature = "zlib", not(feature = "std"))))]
fn copy_if_fits(v: &[u8], output: &mut [u8]) -> usize {
    match output.get_mut(..v.len()) {
        Some(dst) => {
            dst.copy_from_slice(v);
            v.len()
        }
        None => 0,
    }
}

#[cfg(all(test, feature = "zstd"))]
mod zstd_tests {
    use super::{compcode, encode, zstd_level};
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
                let len = encode(compcode::ZSTD, clevel, None, &input, &mut out);
                assert!(len > 0 && len < n, "n {n}: {len} bytes, expected a compressed stream");
                let frame = &out[..len];
                // As c-blosc2's ZSTD_compressCCtx: content size declared, no checksum, no dict id.
                let header = rusty_zstd::get_frame_header(frame).unwrap();
                let rusty_zstd::FrameKind::Zstd(h) = header else { panic!("not a zstd frame") };
                assert_eq!((h.content_size, h.checksum, h.dict_id), (Some(n as u64), false, None));
                assert!(rusty_zstd::decompress(frame).unwrap() == input, "n {n} clevel {clevel}");
                // One byte less room than the frame needs: "does not fit", not a panic.
                assert_eq!(encode(compcode::ZSTD, clevel, None, &input, &mut out[..len - 1]), 0);
            }
        }
    }
}
