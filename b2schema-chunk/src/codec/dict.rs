//! Dictionaries (`use_dict`), as c-blosc2's `blosc2_compress_ctx` makes one for a chunk.
//!
//! c-blosc2 first runs a training pass: every block through the filters, one stream per block,
//! the results laid end to end. From that buffer it takes `n` samples of `s` bytes, back to
//! back from its start, where `n` is the number of streams the chunk will have (blocks, times
//! the typesize when blocks are split), at least 8, and `s = nbytes / n / 16`; the dictionary
//! may take at most `min(BLOSC2_MAXDICTSIZE, nbytes / 20)` bytes. Below
//! `BLOSC2_MINUSEFULDICT` bytes, or with empty samples, the chunk is compressed without a
//! dictionary. For lz4 and lz4hc the first `min(n * s, max)` bytes of the samples are the
//! dictionary (raw content); for zstd, `ZDICT_trainFromBuffer` trains one from them, and every
//! stream is compressed with a `ZSTD_CDict` of level 1, whatever the clevel.
//!
//! b2schema makes zstd dictionaries as c-blosc2 makes lz4 ones: the samples' first
//! `min(n * s, max)` bytes as a raw-content zstd dictionary (no magic, no entropy tables,
//! dictionary id 0), which libzstd's `ZSTD_createDDict` reads as well (python-blosc2
//! decompresses these chunks: `tests/dict_python.rs`), each stream compressed by this crate's
//! own encoder with the dictionary as its history. A trainer was measured and left out: the one
//! of `rusty_zstd` 0.4.1 (the zstd encoder this crate used before its own) took 1.5 to 45 s on
//! the 32 to 64 KB of samples of a 1 MiB chunk (release build), and refused some that libzstd's
//! trains from; the raw samples compressed that chunk within 3 % of c-blosc2's trained
//! dictionary (`BENCHMARKS.md`, "Dictionaries"). Level 1, the size limits and the sampling are
//! c-blosc2's.
//!
//! lz4 and lz4hc dictionaries are c-blosc2's: the samples' first `min(n * s, max)` bytes (4
//! of them replaced by the dictionary's size, as c-blosc2's buffer handling leaves them), and
//! every stream compressed as `LZ4_loadDict` + `LZ4_compress_fast_continue` (lz4, with
//! c-blosc2's acceleration) or `LZ4_loadDictHC` + `LZ4_compress_HC_continue` (lz4hc, at the
//! clevel) do it, the stream loaded with the dictionary afresh for each one, so that each
//! stream references the dictionary and itself only ([`super::lz4::compress_with_dict`],
//! [`super::lz4::hc::compress_with_dict`]). The chunks are c-blosc2's bytes, except where the
//! samples are one repeated byte: no dictionary then, for every codec (see [`make`]).
//!
//! The chunk stores the dictionary after the bstarts table: its size (`i32`), then its bytes;
//! the header's `blosc2_flags` has `BLOSC2_USEDICT` (bit 0), and the streams follow.

use alloc::vec::Vec;

use crate::error::{Error, ErrorKind, Expected, Found};
use crate::fields;
use crate::id::Codec;

/// The largest dictionary c-blosc2 3.x trains (`BLOSC2_MAXDICTSIZE`, 32 KiB; c-blosc2 2.x
/// allowed 128 KiB, the decoder's [`MAX_DICT_SIZE`](crate::MAX_DICT_SIZE)).
pub const MAX_TRAINED_DICT: usize = 32 * 1024;
/// The smallest dictionary worth training (`BLOSC2_MINUSEFULDICT`): below it, no dictionary.
pub const MIN_USEFUL_DICT: usize = 256;
/// Each sample is this fraction (1 / 16) of a stream's share of the chunk (`sample_fraction`).
const SAMPLE_FRACTION: usize = 16;
/// At least this many samples (`if (nblocks < 8) nblocks = 8`).
const MIN_SAMPLES: usize = 8;
/// The dictionary takes at most 1 / 20 of the chunk's bytes.
const DICT_SHARE: usize = 20;

/// A chunk's dictionary.
pub(crate) struct Dict {
    /// What the chunk stores after its bstarts table (without the size); the streams take
    /// these bytes as their history (lz4, lz4hc, and zstd as a raw-content dictionary).
    pub(crate) bytes: Vec<u8>,
}

/// Checks that this build can compress `codec` with a dictionary.
pub(crate) fn check(codec: Codec) -> Result<(), Error> {
    let why = match codec {
        Codec::Zstd if cfg!(feature = "zstd") => return Ok(()),
        Codec::Lz4 | Codec::Lz4hc if cfg!(feature = "lz4") => return Ok(()),
        Codec::Zstd | Codec::Lz4 | Codec::Lz4hc => "a codec enabled in this build (cargo feature disabled)",
        _ => "a codec with dictionaries (zstd, lz4 or lz4hc, as c-blosc2)",
    };
    Err(Error::new(
        ErrorKind::Unsupported,
        fields::UDCOMPCODE,
        "udcompcode",
        Expected::Text(why),
        Found::Named(codec.id().into(), codec.label()),
    ))
}

/// The number of samples and their size for a chunk of `nbytes` in `nstreams` streams, and the
/// dictionary's largest size; `None` when c-blosc2 compresses without a dictionary.
pub(crate) fn sampling(nbytes: usize, nstreams: usize) -> Option<(usize, usize, usize)> {
    let max = MAX_TRAINED_DICT.min(nbytes / DICT_SHARE);
    let n = nstreams.max(MIN_SAMPLES);
    let size = nbytes / n / SAMPLE_FRACTION;
    (max >= MIN_USEFUL_DICT && size > 0).then_some((n, size, max))
}

/// The dictionary of a `codec` chunk from `filtered` (its blocks after the filters, end to end)
/// for a chunk of `nstreams` streams: the samples c-blosc2 would train from (zstd) or takes as
/// they are (lz4, lz4hc), as raw content (see the module documentation); `None` when c-blosc2 would
/// compress without one, or when the samples are one repeated byte.
pub(crate) fn make(filtered: &[u8], nstreams: usize, nblocks: usize, codec: Codec) -> Option<Dict> {
    let (n, size, max) = sampling(filtered.len(), nstreams)?;
    let raw = filtered.get(..n.checked_mul(size)?.min(max))?;
    // Samples of one repeated byte (zeros, say) would make a dictionary of up to 32 KiB of that
    // byte: then no dictionary, so that a chunk of zeros stays a 32-byte zeros chunk (c-blosc2's
    // zstd trainer makes a small dictionary of them instead: 243 bytes for 1 MiB of zeros).
    if raw.windows(2).all(|w| w[0] == w[1]) {
        return None;
    }
    // Never zstd bytes that a decoder would read as a trained dictionary (its magic first).
    #[cfg(feature = "zstd")]
    if codec == Codec::Zstd && raw.get(..4) == Some(&crate::codec::zstd::DICT_MAGIC.to_le_bytes()[..]) {
        return None;
    }
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(raw.len()).ok()?;
    bytes.extend_from_slice(raw);
    if codec != Codec::Zstd {
        lz4_overwrite(&mut bytes, nblocks);
    }
    Some(Dict { bytes })
}

/// c-blosc2's lz4 and lz4hc dictionary, byte for byte: it keeps the samples in the output
/// buffer (from the end of the header) and writes the dictionary's size after the bstarts table
/// (`4 * nblocks` bytes on) before it copies the samples after that size, so the 4 samples'
/// bytes there are the dictionary's size (little-endian) by then. b2schema's dictionaries have
/// them too, which makes its lz4 and lz4hc dictionary chunks c-blosc2's bytes
/// (`tests/dict_python.rs`); decoders read whatever the chunk stores.
fn lz4_overwrite(bytes: &mut [u8], nblocks: usize) {
    let size = (bytes.len() as u32).to_le_bytes();
    if let Some(at) = nblocks.checked_mul(4)
        && let Some(dst) = bytes.get_mut(at..at.saturating_add(4))
    {
        dst.copy_from_slice(&size);
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_TRAINED_DICT, MIN_USEFUL_DICT, sampling};

    #[test]
    fn sampling_follows_c_blosc2() {
        // 4 MB in 16 blocks of 8 split streams: 128 samples of 4 MB / 128 / 16 bytes.
        assert_eq!(sampling(4_000_000, 128), Some((128, 1953, MAX_TRAINED_DICT)));
        // At least 8 samples; the dictionary at most nbytes / 20.
        assert_eq!(sampling(100_000, 1), Some((8, 781, 5000)));
        // Below 256 bytes of dictionary (nbytes < 5120): none.
        assert_eq!(sampling(MIN_USEFUL_DICT * 20 - 1, 1), None);
        assert_eq!(sampling(MIN_USEFUL_DICT * 20, 1), Some((8, 40, MIN_USEFUL_DICT)));
        // Samples of 0 bytes: none.
        assert_eq!(sampling(6000, 1000), None);
    }
}
