//! Zstandard (codec 5): this crate's own decoder ([`decode`]: RFC 8878, safe Rust only, every
//! frame of a stream decoded straight into the block, skippable frames skipped, windows above
//! 2^27 refused; dictionaries trained, with their id and tables, or raw content) and its own
//! encoder ([`encode`]: safe Rust, libzstd 1.5.7's strategies and parameters at c-blosc2's
//! levels; its input is the caller's own data).

pub(crate) mod decode;
pub(crate) mod dispatch;
pub(crate) mod encode;
pub(crate) mod tables;

use crate::error::{Error, Found};

/// The zstd frame magic number (RFC 8878 §3.1.1), written by the encoder, checked by the decoder.
pub(crate) const FRAME_MAGIC: u32 = 0xFD2F_B528;
/// The magic number of a trained (formatted) zstd dictionary (RFC 8878 §5).
pub(crate) const DICT_MAGIC: u32 = 0xEC30_A437;
use decode::Decoder;

/// The decoder of one chunk's zstd streams, kept from stream to stream (its tables and its
/// dictionary).
pub(crate) struct ZstdState {
    dec: Decoder,
}

impl ZstdState {
    pub(crate) fn new() -> Self {
        ZstdState { dec: Decoder::new() }
    }

    /// A decoder that uses the chunk's embedded dictionary (at chunk offset `offset`): a trained
    /// one (zstd dictionary magic, as `ZDICT_trainFromBuffer` writes) or raw content (no magic),
    /// as libzstd's `ZSTD_createDDict` reads either.
    pub(crate) fn with_dict(dict: &[u8], offset: usize) -> Result<Self, Error> {
        let dec = Decoder::with_dict(dict).map_err(|e| {
            Error::unsupported(
                offset + e.offset,
                "dictionary",
                "a zstd dictionary (trained, with the 0xEC30A437 magic, or raw content)",
                Found::Text(e.what),
            )
        })?;
        Ok(ZstdState { dec })
    }

    /// Decodes every frame of `input` straight into `output`: the number of bytes decoded, or
    /// where in `input` and what the decoder expected when a frame is malformed or the frames
    /// hold more than `output.len()` bytes (a frame's window is its output: no window is
    /// allocated).
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, (usize, &'static str)> {
        self.dec.decode(input, output).map_err(|e| (e.offset, e.what))
    }
}
