//! Stream decompression dispatch.
//!
//! One compressed stream decodes to exactly one stream of the block
//! (`neblock` bytes); anything else is an error, as in c-blosc2's `blosc_d`.
//!
//! | codec | implementation | cargo feature |
//! |---|---|---|
//! | BloscLZ | [`super::blosclz`] (this crate) | `blosclz` |
//! | LZ4 / LZ4HC | [`super::lz4`] (this crate): safe block decoder with wide copies; dictionary as the history before the output | `lz4` |
//! | zlib | `miniz_oxide` zlib-wrapped inflate, Adler-32 verified, output bounded by the block | `zlib` |
//! | Zstandard | [`super::zstd_decode`] (this crate, RFC 8878, no `unsafe`): all frames of the stream decoded straight into the block (skippable frames skipped), output bounded by the block, windows above 2^27 refused; dictionary (trained with its id and tables, or raw content) | `zstd` |
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
            Codec::Zlib => inflate(input, output),
            #[cfg(feature = "zstd")]
            Codec::Zstd => {
                let state = match &mut self.zstd {
                    Some(s) => s,
                    None => self.zstd.insert(zstd::ZstdState::new()),
                };
                match state.decode(input, output) {
                    Ok(n) => Some(n),
                    Err(what) => return Err(Error::corrupt(offset, "stream", what)),
                }
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

/// One zlib stream into `output`: the bytes written, or `None` when the stream is malformed,
/// fails its Adler-32, or would write more than `output` holds (`miniz_oxide` writes straight
/// into the block, so a bomb never grows past it). (`zune-inflate`, measured 1.3x faster here, was
/// tried and dropped: the `chunk` fuzz target made it fail a `debug_assert!` of its bit reader on
/// a crafted stream, a panic in every debug build; `tests/fuzz_regressions.rs` keeps the input.)
#[cfg(feature = "zlib")]
fn inflate(input: &[u8], output: &mut [u8]) -> Option<usize> {
    miniz_oxide::inflate::decompress_slice_iter_to_slice(output, core::iter::once(input), true, false).ok()
}

#[cfg(all(test, feature = "zlib", feature = "std"))]
mod inflate_tests {
    use super::inflate;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// `zlib-rs`'s inflate (zlib's `uncompress`), an independent reference for the decoder.
    fn reference(input: &[u8], len: usize) -> Option<Vec<u8>> {
        let mut out = vec![0u8; len];
        let (got, code) = zlib_rs::decompress_slice(&mut out, input, zlib_rs::InflateConfig::default());
        let n = got.len();
        (code == zlib_rs::ReturnCode::Ok).then(|| {
            out.truncate(n);
            out
        })
    }

    fn data() -> impl Strategy<Value = Vec<u8>> {
        // Runs, text-like repeats and noise: every deflate block kind appears.
        prop::collection::vec((any::<u8>(), 1usize..300, 0u8..3), 0..60).prop_map(|parts| {
            let mut v = Vec::new();
            for (b, n, kind) in parts {
                match kind {
                    0 => v.extend(core::iter::repeat_n(b, n)),
                    1 => v.extend((0..n).map(|i| b"blosc2 chunk "[i % 13] ^ (b & 1))),
                    _ => v.extend((0..n).map(|i| (i as u8).wrapping_mul(b).rotate_left(3))),
                }
            }
            v
        })
    }

    proptest! {
        /// Streams of every level decode to their data, into exactly their length; one byte
        /// less of room is refused.
        #[test]
        fn streams_decode_to_their_data(src in data(), level in 0u8..=10) {
            let z = miniz_oxide::deflate::compress_to_vec_zlib(&src, level);
            let mut out = vec![0u8; src.len()];
            prop_assert_eq!(inflate(&z, &mut out), Some(src.len()));
            prop_assert_eq!(&out, &src);
            if !src.is_empty() {
                let mut short = vec![0u8; src.len() - 1];
                prop_assert_eq!(inflate(&z, &mut short), None);
            }
            // A changed Adler-32 is refused.
            let mut bad = z.clone();
            let last = bad.len() - 1;
            bad[last] ^= 1;
            prop_assert_eq!(inflate(&bad, &mut out), None);
        }

        /// Changed streams never panic, and what both accept decodes alike.
        #[test]
        fn changed_streams_agree_with_the_reference(
            src in data(),
            flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..6),
            room in 0usize..64,
        ) {
            let mut z = miniz_oxide::deflate::compress_to_vec_zlib(&src, 6);
            for (at, x) in flips {
                let i = at.index(z.len());
                z[i] ^= x.max(1);
            }
            let len = src.len() + room;
            let mut out = vec![0u8; len];
            if let (Some(n), Some(want)) = (inflate(&z, &mut out), reference(&z, len)) {
                prop_assert_eq!(&out[..n], &want[..]);
            }
        }
    }
}

#[cfg(feature = "zstd")]
mod zstd {
    //! Zstandard through this crate's decoder (`zstd_decode`, RFC 8878, no `unsafe`).

    use super::super::error::{Error, Found};
    use super::super::zstd_decode::Decoder;

    pub(crate) struct ZstdState {
        dec: Decoder,
    }

    impl ZstdState {
        pub(crate) fn new() -> Self {
            ZstdState { dec: Decoder::new() }
        }

        /// A decoder that uses the chunk's embedded dictionary: a trained one (zstd dictionary
        /// magic, as `ZDICT_trainFromBuffer` writes) or raw content (no magic), as libzstd's
        /// `ZSTD_createDDict` reads either.
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

        /// Decodes every frame of `input` straight into `output`: the number of bytes decoded,
        /// or what the decoder expected when a frame is malformed or the frames hold more than
        /// `output.len()` bytes (a frame's window is its output: no window is allocated; frames
        /// declaring a window above 2^27 bytes, libzstd's default limit, are refused).
        pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, &'static str> {
            self.dec.decode(input, output).map_err(|e| e.what)
        }
    }
}
