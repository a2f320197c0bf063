//! One stream through a codec, with c-blosc2's meaning of the compression level.
//!
//! Every encoder gets the block's stream and an output limit (`maxout`) and returns the
//! compressed length, or 0 when the result would not fit (c-blosc2 then stores the stream
//! raw, or the whole chunk as a memcpy chunk).
//!
//! | codec | implementation | level used for clevel 1-9 | cargo feature |
//! |---|---|---|---|
//! | blosclz | [`super::blosclz`] (this crate) | clevel (probe length, hash bits, thresholds) | `blosclz` |
//! | lz4 | [`super::lz4`] (this crate): liblz4 1.10.0's `LZ4_compress_fast`, byte-identical output | acceleration `10 - clevel`, as c-blosc2 passes it (the search step grows faster) | `lz4` |
//! | lz4hc | [`super::lz4hc`] (this crate): liblz4 1.10.0's `LZ4_compress_HC`, byte-identical output | clevel as the HC level: 1-2 `lz4mid`, 3-9 hash chains of `2^(clevel-1)` attempts (pattern analysis at 9) | `lz4` |
//! | zlib | `zlib-rs` (pure-Rust zlib) `compress2`, zlib wrapper | clevel, as c-blosc2 passes it to `compress2` | `zlib` |
//! | zstd | `ruzstd` encoder | `ruzstd` implements only its fastest level (c-blosc2: `2 * clevel - 1`, 20 at 8, 22 at 9) | `zstd` |

use super::super::error::{Error, Found};
use super::compcode;

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
pub(crate) fn encode(codec: u8, clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    match codec {
        #[cfg(feature = "blosclz")]
        compcode::BLOSCLZ => super::blosclz::compress(clevel, input, output),
        #[cfg(feature = "lz4")]
        compcode::LZ4HC => super::lz4hc::compress(clevel, input, output),
        #[cfg(feature = "lz4")]
        compcode::LZ4 => super::lz4::compress(super::lz4::acceleration(clevel), input, output),
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
        compcode::ZSTD => {
            let v = ruzstd::encoding::compress_to_vec(input, ruzstd::encoding::CompressionLevel::Fastest);
            copy_if_fits(&v, output)
        }
        _ => 0,
    }
}

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

// `ruzstd`'s encoder has two `unimplemented!` panics: one for the levels it lacks (never passed:
// only `Fastest` is used above) and "too many literals" when a zstd block holds 2^18 = 262 144
// literals or more (`encoding/blocks/compressed.rs`). Its frame compressor cuts the input into
// zstd blocks of at most 128 KiB (`MatchGeneratorDriver::new(1024 * 128, 1)`), so a block's
// literals are at most 131 072, whatever the stream's length: no stream b2schema hands it can
// reach the bound. The test below runs streams of literals only at both limits.
#[cfg(all(test, feature = "zstd"))]
mod zstd_bound_tests {
    use super::{compcode, encode};
    use alloc::vec;
    use alloc::vec::Vec;
    use ruzstd::decoding::StreamingDecoder;
    use ruzstd::io::Read;

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
    fn zstd_streams_at_the_block_and_literal_limits_encode_and_decode() {
        for n in [131_071, 131_072, 131_073, 262_143, 262_144, 262_145, 1 << 20] {
            let input = literal_heavy(n);
            for clevel in [1, 5, 9] {
                let mut out = vec![0u8; n + 1024];
                let len = encode(compcode::ZSTD, clevel, &input, &mut out);
                assert!(len > 0 && len < n, "n {n}: {len} bytes, expected a compressed stream");
                let mut back = Vec::new();
                StreamingDecoder::new(&out[..len]).unwrap().read_to_end(&mut back).unwrap();
                assert!(back == input, "n {n} clevel {clevel}: the stream does not decode to its input");
            }
        }
    }
}
