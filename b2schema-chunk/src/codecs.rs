//! Stream decompression dispatch.
//!
//! One compressed stream decodes to exactly one stream of the block
//! (`neblock` bytes); anything else is an error, as in c-blosc2's `blosc_d`.
//!
//! | codec | implementation | cargo feature |
//! |---|---|---|
//! | BloscLZ | [`super::blosclz`] (this crate) | `blosclz` |
//! | LZ4 / LZ4HC | [`super::lz4`] (this crate): safe block decoder with wide copies; dictionary as the history before the output | `lz4` |
//! | zlib | `miniz_oxide` zlib-wrapped inflate, Adler-32 verified | `zlib` |
//! | Zstandard | `ruzstd` frame decoder (all frames of the stream, skippable frames skipped); dictionary via `Dictionary::decode_dict` | `zstd` |
//!
//! Snappy (Blosc1 format 2), plugin codecs (format 6: ndlz, zfp, j2k, grok,
//! openhtj2k, openzl ...) and unknown formats are reported as
//! [`ErrorKind::Unsupported`](super::ErrorKind::Unsupported) when a stream
//! actually needs them.

use super::error::{Error, Found};
use super::header::{ChunkHeader, Codec};

/// Per-chunk decoding state (dictionary, reusable zstd decoder).
pub(crate) struct StreamDecoder<'a> {
    codec: Codec,
    /// Offset of the codec id in the header, for error messages.
    codec_field: (usize, &'static str),
    #[cfg_attr(not(feature = "lz4"), allow(dead_code))]
    dict: Option<&'a [u8]>,
    #[cfg(feature = "zstd")]
    zstd: Option<zstd::ZstdState>,
}

impl<'a> StreamDecoder<'a> {
    /// Prepares the decoder for a chunk.  `dict` is the embedded dictionary
    /// (with `dict_offset` its position in the chunk) when `use_dict` is set.
    #[cfg_attr(not(feature = "zstd"), allow(unused_variables))]
    pub(crate) fn new(
        header: &ChunkHeader,
        dict: Option<&'a [u8]>,
        dict_offset: usize,
    ) -> Result<Self, Error> {
        let codec = header.codec();
        let codec_field = if header.compformat() == 6 { (22, "udcompcode") } else { (2, "flags") };
        Ok(StreamDecoder {
            codec,
            codec_field,
            dict,
            #[cfg(feature = "zstd")]
            zstd: match (codec, dict) {
                (Codec::Zstd, Some(d)) => Some(zstd::ZstdState::with_dict(d, dict_offset)?),
                _ => None,
            },
        })
    }

    fn unsupported(&self, what: &'static str) -> Error {
        Error::unsupported(
            self.codec_field.0,
            self.codec_field.1,
            what,
            Found::Named(self.codec_id(), self.codec.name()),
        )
    }

    fn codec_id(&self) -> i64 {
        self.codec.id().into()
    }

    /// Decodes one compressed stream (`input`, starting at chunk offset
    /// `offset`) into `output`, which must be filled exactly.
    #[cfg_attr(
        not(any(feature = "blosclz", feature = "lz4", feature = "zlib", feature = "zstd")),
        allow(unreachable_code, unused_variables)
    )]
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8], offset: usize) -> Result<(), Error> {
        let written: Option<usize> = match self.codec {
            #[cfg(feature = "blosclz")]
            Codec::BloscLz => super::blosclz::decompress(input, output),
            #[cfg(feature = "lz4")]
            Codec::Lz4 | Codec::Lz4hc => super::lz4::decompress(input, output, self.dict.unwrap_or_default()),
            #[cfg(feature = "zlib")]
            Codec::Zlib => miniz_oxide::inflate::decompress_slice_iter_to_slice(
                output,
                core::iter::once(input),
                true,
                false,
            )
            .ok(),
            #[cfg(feature = "zstd")]
            Codec::Zstd => {
                let state = match &mut self.zstd {
                    Some(s) => s,
                    None => self.zstd.insert(zstd::ZstdState::new()),
                };
                state.decode(input, output)
            }
            Codec::Snappy => {
                return Err(self.unsupported("a codec this decoder implements (snappy is not implemented)"));
            }
            Codec::User(_) => {
                return Err(
                    self.unsupported("a codec this decoder implements (plugin codecs are not implemented)")
                );
            }
            Codec::UnknownFormat(_) => {
                return Err(self.unsupported("a known compressor format (0, 1, 2, 3, 4 or 6)"));
            }
            #[allow(unreachable_patterns)]
            _ => {
                return Err(self.unsupported("a codec enabled in this build (cargo feature disabled)"));
            }
        };
        match written {
            Some(n) if n == output.len() => Ok(()),
            Some(_) => {
                Err(Error::corrupt(offset, "stream", "a stream that decodes to fewer bytes than its block"))
            }
            None => Err(Error::corrupt(
                offset,
                "stream",
                "a stream the codec rejects (malformed or too large for its block)",
            )),
        }
    }
}

#[cfg(feature = "zstd")]
mod zstd {
    //! Zstandard through `ruzstd`.

    use super::super::error::{Error, Found};
    use ruzstd::decoding::errors::{FrameDecoderError, ReadFrameHeaderError};
    use ruzstd::decoding::{BlockDecodingStrategy, Dictionary, FrameDecoder};
    use ruzstd::io::Read;

    /// Window sizes above this are refused unless the block itself is larger.
    const MIN_WINDOW_CAP: u64 = 1 << 20;
    /// The largest zstd window decoded: 2^27 bytes, libzstd's default limit.
    const MAX_WINDOW: u64 = 1 << 27;

    pub(crate) struct ZstdState {
        decoder: FrameDecoder,
        dict_id: Option<u32>,
    }

    impl ZstdState {
        pub(crate) fn new() -> Self {
            ZstdState { decoder: FrameDecoder::new(), dict_id: None }
        }

        /// A decoder that uses the chunk's embedded dictionary.  c-blosc2
        /// stores dictionaries trained by `ZDICT_trainFromBuffer`, which carry
        /// the zstd dictionary magic; raw-content dictionaries (no magic) are
        /// accepted by libzstd but not by `ruzstd` and are reported as
        /// unsupported.
        pub(crate) fn with_dict(dict: &[u8], offset: usize) -> Result<Self, Error> {
            let parsed = Dictionary::decode_dict(dict).map_err(|_| {
                Error::unsupported(
                    offset,
                    "dictionary",
                    "a zstd dictionary with the 0xEC30A437 magic (raw-content dictionaries are not supported by ruzstd)",
                    Found::Value(super::super::error::num(dict.len())),
                )
            })?;
            let id = parsed.id;
            let mut decoder = FrameDecoder::new();
            decoder.add_dict(parsed).map_err(|_| {
                Error::unsupported(offset, "dictionary", "a usable zstd dictionary", Found::Value(id.into()))
            })?;
            Ok(ZstdState { decoder, dict_id: Some(id) })
        }

        /// Decodes every frame of `input` into `output`; `None` on any error
        /// or when the frames hold more than `output.len()` bytes.
        pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) -> Option<usize> {
            // The window is memory `ruzstd` allocates infallibly, besides the output: never more
            // than the block, nor than libzstd's default limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`,
            // 128 MiB), so a frame that claims a larger one is refused instead of aborting.
            let cap = (output.len() as u64).clamp(MIN_WINDOW_CAP, MAX_WINDOW);
            self.decoder.set_max_window_size(cap);
            let mut input = input;
            let mut pos = 0usize;
            if input.is_empty() {
                return None;
            }
            while !input.is_empty() {
                match self.decoder.reset(&mut input) {
                    Ok(()) => {}
                    Err(FrameDecoderError::ReadFrameHeaderError(ReadFrameHeaderError::SkipFrame {
                        length,
                        ..
                    })) => {
                        input = input.get(usize::try_from(length).ok()?..)?;
                        continue;
                    }
                    Err(_) => return None,
                }
                if let Some(id) = self.dict_id {
                    self.decoder.force_dict(id).ok()?;
                }
                loop {
                    let before = input.len();
                    self.decoder.decode_blocks(&mut input, BlockDecodingStrategy::UptoBytes(1 << 20)).ok()?;
                    let n = self.decoder.read(output.get_mut(pos..)?).ok()?;
                    pos = pos.checked_add(n)?;
                    if self.decoder.can_collect() != 0 {
                        return None;
                    }
                    if self.decoder.is_finished() {
                        break;
                    }
                    if n == 0 && input.len() == before {
                        // No progress: never loop forever on a stalled frame.
                        return None;
                    }
                }
            }
            Some(pos)
        }
    }
}
