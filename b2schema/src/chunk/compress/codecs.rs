//! One stream through a codec, with c-blosc2's meaning of the compression level.
//!
//! Every encoder gets the block's stream and an output limit (`maxout`) and returns the
//! compressed length, or 0 when the result would not fit (c-blosc2 then stores the stream
//! raw, or the whole chunk as a memcpy chunk).
//!
//! | codec | implementation | level used for clevel 1-9 | cargo feature |
//! |---|---|---|---|
//! | blosclz | [`super::blosclz`] (this crate) | clevel (probe length, hash bits, thresholds) | `blosclz` |
//! | lz4 | `lz4_flex` block compressor (safe) | none: `lz4_flex` has one speed (c-blosc2 passes acceleration `10 - clevel`) | `lz4` |
//! | lz4hc | [`super::lz4hc`] (this crate): hash chains, one-step lazy matching | clevel: `2^(clevel-1)` chain links per position | `lz4` |
//! | zlib | `zlib-rs` (pure-Rust zlib) `compress2`, zlib wrapper | clevel, as c-blosc2 passes it to `compress2` | `zlib` |
//! | zstd | `ruzstd` encoder | `ruzstd` implements only its fastest level (c-blosc2: `2 * clevel - 1`, 20 at 8, 22 at 9) | `zstd` |

use super::super::error::{ChunkError, Found};
use super::compcode;

/// Checks that this build can compress with `codec`.
pub(crate) fn check(codec: u8) -> Result<(), ChunkError> {
    let enabled = match codec {
        compcode::BLOSCLZ => cfg!(feature = "blosclz"),
        compcode::LZ4 | compcode::LZ4HC => cfg!(feature = "lz4"),
        compcode::ZLIB => cfg!(feature = "zlib"),
        compcode::ZSTD => cfg!(feature = "zstd"),
        _ => {
            return Err(ChunkError::unsupported(
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
        Err(ChunkError::unsupported(
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
        compcode::LZ4 => {
            // lz4_flex wants room for the worst case; c-blosc2's limit is applied after.
            // (An allocation failure counts as "does not compress": the stream is stored raw.)
            let size = lz4_flex::block::get_maximum_output_size(input.len());
            let mut v = alloc::vec::Vec::new();
            if v.try_reserve_exact(size).is_err() {
                return 0;
            }
            v.resize(size, 0);
            let n = lz4_flex::block::compress_into(input, &mut v).unwrap_or(usize::MAX);
            v.get(..n).map_or(0, |c| copy_if_fits(c, output))
        }
        #[cfg(feature = "zlib")]
        compcode::ZLIB => {
            // zlib's `compress2` at level clevel, straight into the limit: too small is "does not fit".
            let config = zlib_rs::DeflateConfig::new(i32::from(clevel.min(9)));
            let (out, code) = zlib_rs::compress_slice(output, input, config);
            if code == zlib_rs::ReturnCode::Ok { out.len() } else { 0 }
        }
        #[cfg(feature = "zstd")]
        compcode::ZSTD => {
            let v = ruzstd::encoding::compress_to_vec(input, ruzstd::encoding::CompressionLevel::Fastest);
            copy_if_fits(&v, output)
        }
        _ => 0,
    }
}

#[cfg(any(feature = "lz4", feature = "zstd"))]
fn copy_if_fits(v: &[u8], output: &mut [u8]) -> usize {
    match output.get_mut(..v.len()) {
        Some(dst) => {
            dst.copy_from_slice(v);
            v.len()
        }
        None => 0,
    }
}
