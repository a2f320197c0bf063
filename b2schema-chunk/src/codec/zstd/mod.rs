//! Zstandard (codec 5): decoding (the per-chunk state below) and encoding ([`encode`]).
//! Decoding goes through `rusty_zstd` for now, output bounded by the block and window by the
//! block (at least 1 MiB, at most 128 MiB); dictionaries (trained or raw content) via
//! `Dictionary::from_bytes` and its streaming decoder.

pub(crate) mod encode;

use crate::error::{Error, Found};
use alloc::vec::Vec;
use rusty_zstd::{DecompressOptions, Decompressor, Dictionary};

/// Window sizes above this are refused unless the block itself is larger.
const MIN_WINDOW_CAP: u64 = 1 << 20;
/// The largest zstd window decoded: 2^27 bytes, libzstd's default limit
/// (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`).
const MAX_WINDOW: u64 = 1 << 27;

pub(crate) struct ZstdState {
    dict: Option<Dictionary>,
    /// The decoded frames of one stream, kept from stream to stream of the chunk: decoded
    /// here, then copied once into the block.
    buf: Vec<u8>,
    /// With a dictionary: the streaming decoder, kept from stream to stream of the chunk
    /// after a stream that decoded cleanly (every frame starts from the dictionary alone).
    streaming: Option<Decompressor>,
    /// The window limit `streaming` was made with (the block's size decides it).
    window_max: u64,
}

impl ZstdState {
    pub(crate) fn new() -> Self {
        ZstdState { dict: None, buf: Vec::new(), streaming: None, window_max: 0 }
    }

    /// A decoder that uses the chunk's embedded dictionary: a trained one (zstd dictionary
    /// magic, as `ZDICT_trainFromBuffer` writes) or raw content (no magic), as libzstd's
    /// `ZSTD_createDDict` reads either.
    pub(crate) fn with_dict(dict: &[u8], offset: usize) -> Result<Self, Error> {
        let parsed = Dictionary::from_bytes(dict).map_err(|e| {
            Error::unsupported(
                offset,
                "dictionary",
                "a zstd dictionary (trained, with the 0xEC30A437 magic, or raw content)",
                Found::Text(e.kind()),
            )
        })?;
        Ok(ZstdState { dict: Some(parsed), buf: Vec::new(), streaming: None, window_max: 0 })
    }

    /// Decodes every frame of `input` into `output`: the number of bytes decoded, or the
    /// decoder's error (`rusty_zstd`'s name for it) when a frame is malformed or the
    /// frames hold more than `output.len()` bytes.
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, &'static str> {
        // Besides the output, the window is memory the decoder allocates: never more than
        // the block, nor than libzstd's default limit, so a frame that claims a larger one is
        // refused instead of allocated.
        let opts = DecompressOptions {
            window_max: (output.len() as u64).clamp(MIN_WINDOW_CAP, MAX_WINDOW),
            force_ignore_checksum: false,
        };
        match &self.dict {
            None => {
                // Bounded by the block: a frame declaring more, or decoding to more, stops
                // with `ContentSizeTooLarge` before its bytes are written. (A frame without a
                // content size makes `rusty_zstd` reserve, fallibly and untouched, up to
                // 64 MiB guessed from its first block; that capacity is not kept.)
                self.buf.clear();
                let r = rusty_zstd::decompress_into_with_limit(&mut self.buf, input, opts, output.len())
                    .map_err(rusty_zstd::Error::kind)
                    .and_then(|n| {
                        let dst = output.get_mut(..n).ok_or("output larger than the block")?;
                        dst.copy_from_slice(self.buf.get(..n).ok_or("output larger than the block")?);
                        Ok(n)
                    });
                if self.buf.capacity() > output.len().saturating_mul(2).max(MIN_WINDOW_CAP as usize) {
                    self.buf = Vec::new();
                }
                r
            }
            Some(dict) => {
                // `rusty_zstd`'s one-shot dictionary decoder takes no output limit; its
                // streaming one decodes no further than the output it is given (plus a
                // window and a block), so a stream larger than its block is found by asking
                // for one byte more.
                // A decoder left by a failed stream is dropped (taken here, put back on success).
                let mut dec = match self.streaming.take() {
                    Some(dec) if self.window_max == opts.window_max => dec,
                    _ => {
                        let mut dec = Decompressor::with_options(opts);
                        dec.set_dictionary(dict.clone());
                        self.window_max = opts.window_max;
                        dec
                    }
                };
                let first = dec.stream(input, output, true).map_err(rusty_zstd::Error::kind)?;
                if !first.done {
                    let mut probe = [0u8; 1];
                    let more = dec.stream(&[], &mut probe, true).map_err(rusty_zstd::Error::kind)?;
                    if more.output_produced != 0 {
                        return Err("output larger than the block");
                    }
                    if !more.done {
                        return Err("unexpected_eof");
                    }
                }
                self.streaming = Some(dec);
                Ok(first.output_produced)
            }
        }
    }
}
