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

    /// These settings, or the error for a typesize of 0 or snappy.
    pub fn checked(self) -> Result<Settings, PluginCreateError> {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A configuration read and written again is the same JSON, in either Zarr version.
    #[test]
    fn configurations_round_trip() {
        let v3 = [
            r#"{"cname":"lz4","clevel":5,"shuffle":"shuffle","typesize":4,"blocksize":0}"#,
            r#"{"cname":"zstd","clevel":9,"shuffle":"bitshuffle","typesize":8,"blocksize":65536}"#,
            r#"{"cname":"blosclz","clevel":0,"shuffle":"noshuffle","blocksize":0}"#,
        ];
        let v2 = [
            r#"{"cname":"lz4hc","clevel":1,"shuffle":1,"blocksize":0}"#,
            r#"{"cname":"zlib","clevel":3,"shuffle":-1,"blocksize":0}"#,
            r#"{"cname":"zstd","clevel":5,"shuffle":2,"blocksize":4096}"#,
        ];
        for (json, is_v2) in v3.iter().map(|j| (j, false)).chain(v2.iter().map(|j| (j, true))) {
            let c: BloscCodecConfiguration = serde_json::from_str(json).unwrap();
            let settings = Settings::from_configuration(&c).unwrap();
            let back = serde_json::to_value(settings.configuration(is_v2)).unwrap();
            assert_eq!(back, serde_json::from_str::<serde_json::Value>(json).unwrap(), "{json}");
        }
    }

    /// What the parameters of a chunk are made of.
    #[test]
    fn params_follow_the_settings() {
        let c: BloscCodecConfiguration =
            serde_json::from_str(r#"{"cname":"zlib","clevel":3,"shuffle":-1,"blocksize":0}"#).unwrap();
        let p = Settings::from_configuration(&c).unwrap().params();
        // numcodecs' auto shuffle on items of one byte (v2 has no typesize): bit shuffle.
        assert_eq!((p.codec, p.clevel, p.typesize, p.filters[5]), (Codec::Zlib, 3, 1, Filter::BitShuffle));
        assert_eq!(p.format, Format::Blosc1);
        for bad in [
            r#"{"cname":"snappy","clevel":3,"shuffle":"shuffle","typesize":4,"blocksize":0}"#,
            r#"{"cname":"lz4","clevel":3,"shuffle":"shuffle","typesize":0,"blocksize":0}"#,
        ] {
            let c: BloscCodecConfiguration = serde_json::from_str(bad).unwrap();
            assert!(Settings::from_configuration(&c).is_err(), "{bad}");
        }
    }
}
