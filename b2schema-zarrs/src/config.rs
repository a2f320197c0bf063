//! The codec's settings and their Zarr metadata: the v3 `blosc` configuration and the v2
//! numcodecs one, both ways.

use b2schema_chunk::{Codec, Filter, Format, Params, Split};
use zarrs::metadata::Configuration;
use zarrs::metadata_ext::codec::blosc::{
    BloscCodecConfiguration, BloscCodecConfigurationNumcodecs, BloscCodecConfigurationV1,
    BloscCompressionLevel, BloscCompressor, BloscShuffleMode, BloscShuffleModeNumcodecs,
};
use zarrs::plugin::PluginCreateError;

/// The shuffle applied before the codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shuffle {
    /// `"noshuffle"` (numcodecs 0).
    None,
    /// `"shuffle"` (numcodecs 1): bytes of the items grouped by position.
    Byte,
    /// `"bitshuffle"` (numcodecs 2): bits of the items grouped by position.
    Bit,
    /// numcodecs' `AUTOSHUFFLE` (-1), v2 only: bit shuffle for 1-byte items, byte shuffle else.
    Auto,
}

/// What a `blosc` codec writes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    pub cname: BloscCompressor,
    pub clevel: BloscCompressionLevel,
    pub shuffle: Shuffle,
    /// Bytes per item; `None` when the metadata does not say (v2): items of one byte.
    pub typesize: Option<usize>,
    /// 0 for c-blosc 1.x's automatic blocksize.
    pub blocksize: usize,
}

impl Settings {
    /// From either form of the configuration.
    pub fn from_configuration(c: &BloscCodecConfiguration) -> Result<Settings, PluginCreateError> {
        match c {
            BloscCodecConfiguration::V1(c) => Ok(Settings {
                cname: c.cname,
                clevel: c.clevel,
                shuffle: match c.shuffle {
                    BloscShuffleMode::NoShuffle => Shuffle::None,
                    BloscShuffleMode::Shuffle => Shuffle::Byte,
                    BloscShuffleMode::BitShuffle => Shuffle::Bit,
                },
                typesize: c.typesize,
                blocksize: c.blocksize,
            }),
            BloscCodecConfiguration::Numcodecs(c) => Ok(Settings {
                cname: c.cname,
                clevel: c.clevel,
                shuffle: match c.shuffle {
                    BloscShuffleModeNumcodecs::NoShuffle => Shuffle::None,
                    BloscShuffleModeNumcodecs::Shuffle => Shuffle::Byte,
                    BloscShuffleModeNumcodecs::BitShuffle => Shuffle::Bit,
                    BloscShuffleModeNumcodecs::AutoShuffle => Shuffle::Auto,
                },
                typesize: None,
                blocksize: c.blocksize,
            }),
            _ => Err(PluginCreateError::from("a blosc configuration of an unknown form")),
        }
        .and_then(Settings::checked)
    }

    fn checked(self) -> Result<Settings, PluginCreateError> {
        if self.typesize == Some(0) {
            return Err(PluginCreateError::from("blosc typesize 0: a positive integer expected"));
        }
        if self.cname == BloscCompressor::Snappy {
            return Err(PluginCreateError::from(
                "blosc cname snappy: this codec writes blosclz, lz4, lz4hc, zlib, zstd",
            ));
        }
        Ok(self)
    }

    /// The compressor's parameters: c-blosc 1.x's format, split mode and blocksize rule.
    pub fn params(&self) -> Params {
        let typesize = self.typesize.unwrap_or(1);
        let codec = match self.cname {
            BloscCompressor::BloscLZ => Codec::BloscLz,
            BloscCompressor::LZ4 => Codec::Lz4,
            BloscCompressor::LZ4HC => Codec::Lz4hc,
            BloscCompressor::Zlib => Codec::Zlib,
            // (Snappy is refused when the settings are made.)
            BloscCompressor::Zstd | BloscCompressor::Snappy => Codec::Zstd,
        };
        let filter = match self.shuffle {
            Shuffle::None => Filter::NoFilter,
            Shuffle::Byte => Filter::Shuffle,
            Shuffle::Bit => Filter::BitShuffle,
            Shuffle::Auto if typesize == 1 => Filter::BitShuffle,
            Shuffle::Auto => Filter::Shuffle,
        };
        Params::blosc1(typesize)
            .with_codec(codec)
            .with_clevel(u8::from(self.clevel))
            .with_filter(5, filter, 0)
            .with_blocksize(self.blocksize)
            .with_split(Split::ForwardCompat)
            .with_format(Format::Blosc1)
    }

    /// The v3 configuration as zarrs' type.
    pub fn configuration_typed(&self) -> BloscCodecConfiguration {
        self.typed(false)
    }

    /// The configuration zarrs stores: v3 (`shuffle` named, `typesize` when known) or v2
    /// (numcodecs').
    pub fn configuration(&self, v2: bool) -> Configuration {
        self.typed(v2).into()
    }

    fn typed(&self, v2: bool) -> BloscCodecConfiguration {
        if v2 {
            BloscCodecConfiguration::Numcodecs(BloscCodecConfigurationNumcodecs {
                cname: self.cname,
                clevel: self.clevel,
                shuffle: match self.shuffle {
                    Shuffle::None => BloscShuffleModeNumcodecs::NoShuffle,
                    Shuffle::Byte => BloscShuffleModeNumcodecs::Shuffle,
                    Shuffle::Bit => BloscShuffleModeNumcodecs::BitShuffle,
                    Shuffle::Auto => BloscShuffleModeNumcodecs::AutoShuffle,
                },
                blocksize: self.blocksize,
            })
        } else {
            let typesize = self.typesize.unwrap_or(1);
            BloscCodecConfiguration::V1(BloscCodecConfigurationV1 {
                cname: self.cname,
                clevel: self.clevel,
                shuffle: match self.shuffle {
                    Shuffle::None => BloscShuffleMode::NoShuffle,
                    Shuffle::Byte => BloscShuffleMode::Shuffle,
                    Shuffle::Bit => BloscShuffleMode::BitShuffle,
                    Shuffle::Auto if typesize == 1 => BloscShuffleMode::BitShuffle,
                    Shuffle::Auto => BloscShuffleMode::Shuffle,
                },
                typesize: self.typesize,
                blocksize: self.blocksize,
            })
        }
    }
}
