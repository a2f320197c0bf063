//! The codecs, one folder or file each with its decoder and its encoder side by side, the
//! dictionary code, and the dispatch of one stream to them ([`StreamDecoder`], [`Encoder`]).
//!
//! One compressed stream decodes to exactly one stream of the block (`neblock` bytes); anything
//! else is an error, as in c-blosc2's `blosc_d`. An encoder gets the block's stream and an
//! output limit and returns the compressed length, or 0 when the result would not fit (c-blosc2
//! then stores the stream raw, or the whole chunk as a memcpy chunk).
//!
//! | codec | decoder | encoder (level used for clevel 1-9) | cargo feature |
//! |---|---|---|---|
//! | blosclz | [`blosclz`] (this crate) | [`blosclz`] (this crate), byte-identical to c-blosc2's | `blosclz` |
//! | lz4, lz4hc | [`lz4`] (this crate): safe block decoder with wide copies; a dictionary is the history before the output | [`lz4`]: liblz4 1.10.0's `LZ4_compress_fast` (acceleration `10 - clevel`) and `LZ4_compress_HC` (levels 1-2 `lz4mid`, 3-9 hash chains), byte-identical; with a dictionary `LZ4_loadDict(HC)` + `_continue` | `lz4` |
//! | zlib | `fdeflate` inflate (`miniz_oxide` without `std`), Adler-32 verified, output bounded by the block | own deflate (safe; zlib-rs 0.6.8's `compress2` bytes at clevel) | `zlib` |
//! | zstd | [`zstd::decode`] (this crate, RFC 8878, safe Rust only): every frame straight into the block, output bounded by the block, windows above 2^27 refused; trained or raw-content dictionaries | [`zstd::encode`] (this crate, safe Rust, libzstd 1.5.7's strategies and parameters) at c-blosc2's levels (`2 * clevel - 1`, 22 at 9); with a dictionary, level 1 | `zstd` |
//! | snappy | not implemented (Blosc1 format 2, never written by c-blosc2) | no | |
//! | ndlz (32) | [`ndlz`] (this crate): c-blosc2's 4x4 and 8x8 cell decoder, 2-D blocks of 1-byte items | [`ndlz`] | |
//! | zfp_acc, zfp_prec, zfp_rate (33-35) | [`zfp`] (this crate, safe Rust only): zfp 1.0's fixed-accuracy, -precision and -rate decoding of float32/float64 blocks of 1-4 dimensions (the block shape from the array, [`Registry::with_array_shapes`]) | [`zfp`] | |
//! | 32-255 | the [`CodecPlugin`] registered for the id | likewise | |

#[cfg(feature = "blosclz")]
pub(crate) mod blosclz;
pub(crate) mod dict;
#[cfg(feature = "lz4")]
pub(crate) mod lz4;
pub(crate) mod ndlz;
pub(crate) mod zfp;
#[cfg(feature = "zlib")]
pub(crate) mod zlib;
#[cfg(feature = "zstd")]
pub(crate) mod zstd;

use crate::error::{Error, Found};
use crate::fields;
use crate::id::Codec;
use crate::registry::{CodecPlugin, PluginContext, PluginError, Registry};
use dict::Dict;

/// The plugin that codes `codec`: the one registered for it, or else c-blosc2's own plugin of
/// that id that this crate implements (NDLZ, ZFP in its three modes).
pub(crate) fn plugin(registry: &Registry, codec: Codec) -> Option<&dyn CodecPlugin> {
    registry.codec(codec).or(match codec {
        Codec::Ndlz => Some(&ndlz::Ndlz),
        Codec::ZfpAcc => Some(&zfp::ZFP_ACC),
        Codec::ZfpPrec => Some(&zfp::ZFP_PREC),
        Codec::ZfpRate => Some(&zfp::ZFP_RATE),
        _ => None,
    })
}

/// The error for a codec this build or registry cannot run.
fn unsupported(field: (usize, &'static str), codec: Codec, what: &'static str) -> Error {
    Error::unsupported(field.0, field.1, what, Found::Named(codec.id().into(), codec.label()))
}

/// The error for a codec whose cargo feature is off.
#[allow(dead_code)]
fn disabled(field: (usize, &'static str), codec: Codec) -> Error {
    unsupported(field, codec, "a codec enabled in this build (cargo feature disabled)")
}

/// A codec decoder kept from chunk to chunk by a reader that decodes one block at a time
/// ([`crate::BlockScratch`]): building a zstd decoder per block of 256 KiB zeroed its 128 KiB
/// literal buffer and 24 KiB of tables and rebuilt the predefined tables, about 2 % of the
/// samples of a whole read of issue 51's climate array at one thread (`perf`: the `memset` of
/// the literal buffer and the predefined tables' builds, gone).
#[derive(Default)]
pub(crate) struct KeptDecoder {
    #[cfg(feature = "zstd")]
    zstd: Option<zstd::ZstdState>,
}

/// Per-chunk decoding state: the codec, its dictionary, a reusable zstd decoder or the plugin.
pub(crate) struct StreamDecoder<'a> {
    codec: Codec,
    /// Offset and name of the header field that names the codec, for error messages.
    field: (usize, &'static str),
    #[cfg_attr(not(feature = "lz4"), allow(dead_code))]
    dict: Option<&'a [u8]>,
    plugin: Option<(&'a dyn CodecPlugin, PluginContext<'a>)>,
    #[cfg(feature = "zstd")]
    zstd: Option<zstd::ZstdState>,
}

impl<'a> StreamDecoder<'a> {
    /// Prepares the decoder for a chunk. `field` is where the header names the codec; `dict` is
    /// the embedded dictionary and its offset in the chunk when `use_dict` is set; `ctx` what a
    /// plugin is told.
    #[cfg_attr(not(feature = "zstd"), allow(unused_variables))]
    pub(crate) fn new(
        codec: Codec,
        field: (usize, &'static str),
        dict: Option<(&'a [u8], usize)>,
        registry: &'a Registry,
        ctx: PluginContext<'a>,
    ) -> Result<Self, Error> {
        Ok(StreamDecoder {
            codec,
            field,
            dict: dict.map(|d| d.0),
            plugin: plugin(registry, codec).map(|p| (p, registry.context(ctx))),
            #[cfg(feature = "zstd")]
            zstd: match (codec, dict) {
                (Codec::Zstd, Some((d, at))) => Some(zstd::ZstdState::with_dict(d, at)?),
                _ => None,
            },
        })
    }

    /// Takes over the zstd decoder `kept` from an earlier chunk (its literal buffer and tables
    /// allocated once, not per block) when this chunk's codec is zstd without a dictionary;
    /// [`StreamDecoder::keep`] gives it back. Every frame resets the decoder's state, so what
    /// one chunk decoded never reaches the next.
    pub(crate) fn reuse(&mut self, kept: &mut KeptDecoder) {
        #[cfg(feature = "zstd")]
        if self.codec == Codec::Zstd && self.zstd.is_none() && self.dict.is_none() {
            self.zstd = kept.zstd.take();
        }
        #[cfg(not(feature = "zstd"))]
        let _ = kept;
    }

    /// Gives the zstd decoder back to `kept` (see [`StreamDecoder::reuse`]).
    pub(crate) fn keep(&mut self, kept: &mut KeptDecoder) {
        #[cfg(feature = "zstd")]
        if self.dict.is_none()
            && let Some(z) = self.zstd.take()
        {
            kept.zstd = Some(z);
        }
        #[cfg(not(feature = "zstd"))]
        let _ = kept;
    }

    /// Decodes one compressed stream (`input`, starting at chunk offset `offset`) into
    /// `output`, which must be filled exactly.
    #[cfg_attr(
        not(all(feature = "blosclz", feature = "lz4", feature = "zlib", feature = "zstd")),
        allow(unreachable_code, unused_variables)
    )]
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8], offset: usize) -> Result<(), Error> {
        let written: Option<usize> = match self.codec {
            Codec::BloscLz => {
                #[cfg(feature = "blosclz")]
                {
                    blosclz::decompress(input, output)
                }
                #[cfg(not(feature = "blosclz"))]
                return Err(disabled(self.field, self.codec));
            }
            Codec::Lz4 | Codec::Lz4hc => {
                #[cfg(feature = "lz4")]
                {
                    lz4::decompress(input, output, self.dict.unwrap_or_default())
                }
                #[cfg(not(feature = "lz4"))]
                return Err(disabled(self.field, self.codec));
            }
            Codec::Zlib => {
                #[cfg(feature = "zlib")]
                {
                    zlib::inflate(input, output)
                }
                #[cfg(not(feature = "zlib"))]
                return Err(disabled(self.field, self.codec));
            }
            Codec::Zstd => {
                #[cfg(feature = "zstd")]
                {
                    let state = self.zstd.get_or_insert_with(zstd::ZstdState::new);
                    match state.decode(input, output) {
                        Ok(n) => Some(n),
                        Err((at, what)) => return Err(Error::corrupt(offset + at, "stream", what)),
                    }
                }
                #[cfg(not(feature = "zstd"))]
                return Err(disabled(self.field, self.codec));
            }
            Codec::Snappy => {
                return Err(unsupported(
                    self.field,
                    self.codec,
                    "a codec this decoder implements (snappy is not implemented)",
                ));
            }
            Codec::Ndlz
            | Codec::ZfpAcc
            | Codec::ZfpPrec
            | Codec::ZfpRate
            | Codec::OpenHtj2k
            | Codec::Grok
            | Codec::OpenZl
            | Codec::J2k
            | Codec::Htj2k
            | Codec::Other(_) => {
                let Some((plugin, ctx)) = &self.plugin else {
                    return Err(unsupported(
                        self.field,
                        self.codec,
                        "a codec this decoder implements or a registered plugin codec",
                    ));
                };
                let ctx = PluginContext { blocksize: output.len(), ..*ctx };
                Some(plugin.decode(input, output, &ctx).map_err(|e| plugin_error(offset, e))?)
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

/// The error of a codec plugin that failed on a stream.
fn plugin_error(offset: usize, e: PluginError) -> Error {
    Error::corrupt(offset, "stream", e.0)
}

/// One codec at one level, with its plugin when it is one: what the compressor runs every
/// stream through.
#[derive(Clone, Copy)]
pub(crate) struct Encoder<'r> {
    codec: Codec,
    clevel: u8,
    /// BloscLZ as c-blosc 1.x writes it (`Some(split)`: the blocks are split), not c-blosc2.
    #[cfg_attr(not(feature = "blosclz"), allow(dead_code))]
    blosclz_1x: Option<bool>,
    plugin: Option<(&'r dyn CodecPlugin, PluginContext<'r>)>,
}

impl<'r> Encoder<'r> {
    /// The encoder of `codec`, or the error when this build and `registry` cannot compress
    /// with it. `ctx` is what a plugin is told (its meta, the typesize, the level).
    pub(crate) fn new(
        codec: Codec,
        clevel: u8,
        registry: &'r Registry,
        ctx: PluginContext<'r>,
    ) -> Result<Self, Error> {
        let field = (fields::UDCOMPCODE, "udcompcode");
        let enabled = match codec {
            Codec::BloscLz => cfg!(feature = "blosclz"),
            Codec::Lz4 | Codec::Lz4hc => cfg!(feature = "lz4"),
            Codec::Zlib => cfg!(feature = "zlib"),
            Codec::Zstd => cfg!(feature = "zstd"),
            Codec::Snappy => {
                return Err(unsupported(field, codec, "a codec this compressor implements (not snappy)"));
            }
            Codec::Ndlz
            | Codec::ZfpAcc
            | Codec::ZfpPrec
            | Codec::ZfpRate
            | Codec::OpenHtj2k
            | Codec::Grok
            | Codec::OpenZl
            | Codec::J2k
            | Codec::Htj2k
            | Codec::Other(_) => match plugin(registry, codec) {
                Some(p) => {
                    return Ok(Encoder {
                        codec,
                        clevel,
                        blosclz_1x: None,
                        plugin: Some((p, registry.context(ctx))),
                    });
                }
                None => {
                    return Err(unsupported(
                        field,
                        codec,
                        "a codec this compressor implements (blosclz, lz4, lz4hc, zlib, zstd) or a registered plugin codec",
                    ));
                }
            },
        };
        if !enabled {
            return Err(disabled(field, codec));
        }
        Ok(Encoder { codec, clevel, blosclz_1x: None, plugin: None })
    }

    /// This encoder writing BloscLZ as c-blosc 1.x does, for blocks split (`split`) or not.
    pub(crate) fn blosc1(self, split: bool) -> Self {
        Encoder { blosclz_1x: Some(split), ..self }
    }

    /// The codec's format version for byte 1 of the header (`versionlz`).
    pub(crate) fn version(&self) -> u8 {
        self.plugin.map_or(fields::CODEC_VERSION_FORMAT, |(p, _)| p.version())
    }

    /// [`Encoder::encode`] appending the stream to `out` (no copy through a scratch buffer),
    /// for the codecs that can: its length (0, `out` as it was, when it is longer than
    /// `maxout`); `None` for the others, which write into a buffer of `maxout` bytes.
    pub(crate) fn encode_onto(
        &self,
        dict: Option<&Dict>,
        input: &[u8],
        out: &mut alloc::vec::Vec<u8>,
        maxout: usize,
    ) -> Option<usize> {
        match self.codec {
            #[cfg(feature = "zstd")]
            Codec::Zstd => {
                Some(zstd::encode::encode_onto(self.clevel, dict.map(|d| &d.bytes[..]), input, out, maxout))
            }
            _ => {
                let _ = (dict, input, out, maxout);
                None
            }
        }
    }

    /// The bytes [`Encoder::encode_onto`] may need in `out` beyond the input's length to append
    /// a stream of `n` bytes without growing it (or without its copy through the thread's
    /// context).
    #[cfg(feature = "std")]
    pub(crate) fn slack(&self, n: usize) -> usize {
        match self.codec {
            #[cfg(feature = "zstd")]
            Codec::Zstd => zstd::encode::bound(n) - n,
            _ => {
                let _ = n;
                0
            }
        }
    }

    /// Compresses `input` into `output` (whose length is the limit); 0 when it does not fit.
    #[cfg_attr(
        not(all(feature = "blosclz", feature = "lz4", feature = "zlib", feature = "zstd")),
        allow(unused_variables)
    )]
    pub(crate) fn encode(
        &self,
        dict: Option<&Dict>,
        input: &[u8],
        output: &mut [u8],
    ) -> Result<usize, Error> {
        let clevel = self.clevel;
        Ok(match self.codec {
            #[cfg(feature = "blosclz")]
            Codec::BloscLz => match self.blosclz_1x {
                Some(split) => blosclz::compress_1x(clevel, split, input, output),
                None => blosclz::compress(clevel, input, output),
            },
            #[cfg(feature = "lz4")]
            Codec::Lz4hc => match dict {
                Some(d) => lz4::hc::compress_with_dict(clevel, &d.bytes, input, output),
                None => lz4::hc::compress(clevel, input, output),
            },
            #[cfg(feature = "lz4")]
            Codec::Lz4 => match dict {
                Some(d) => lz4::compress_with_dict(lz4::acceleration(clevel), &d.bytes, input, output),
                None => lz4::compress(lz4::acceleration(clevel), input, output),
            },
            #[cfg(feature = "zlib")]
            Codec::Zlib => zlib::encode::deflate(clevel, input, output),
            #[cfg(feature = "zstd")]
            Codec::Zstd => match dict {
                Some(d) => zstd::encode::encode_with_dict(&d.bytes, input, output),
                None => zstd::encode::encode(clevel, input, output),
            },
            _ => match self.plugin {
                Some((plugin, ctx)) => {
                    let ctx = PluginContext { blocksize: input.len(), ..ctx };
                    // The output buffer is reused: what a plugin claims and did not write is zeros.
                    output.fill(0);
                    let n = plugin.encode(input, output, &ctx).map_err(|e| {
                        Error::invalid(
                            fields::UDCOMPCODE,
                            "udcompcode",
                            crate::error::Expected::Text(e.0),
                            Found::Text("a stream the registered codec refuses"),
                        )
                    })?;
                    if n > output.len() { 0 } else { n }
                }
                // `Encoder::new` made none other.
                None => 0,
            },
        })
    }
}
