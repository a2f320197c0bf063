//! [`BloscCodec`]: zarrs' codec traits over `b2schema-chunk`'s compressor and decoder.

use std::borrow::Cow;
use std::sync::Arc;

use b2schema_chunk::compress;
use zarrs::array::ArrayBytesRaw;
use zarrs::array::codec::api::{
    BytesRepresentation, BytesToBytesCodecTraits, Codec, CodecError, CodecMetadataOptions, CodecOptions,
    CodecTraits, CodecTraitsV2, CodecTraitsV3, PartialDecoderCapability, PartialEncoderCapability,
    RecommendedConcurrency,
};
use zarrs::metadata::Configuration;
use zarrs::metadata::v2::MetadataV2;
use zarrs::metadata::v3::MetadataV3;
use zarrs::metadata_ext::codec::blosc::{BloscCodecConfiguration, BloscCompressionLevel, BloscCompressor};
use zarrs::plugin::{PluginCreateError, ZarrVersion};

use crate::config::{Settings, Shuffle};

/// Largest overhead of a Blosc1 chunk over its data: the 16-byte header of a memcpy chunk.
const MAX_OVERHEAD: u64 = 16;

/// The `blosc` codec: Blosc1 and Blosc2 chunks in, Blosc1 chunks out (see the crate docs).
#[derive(Clone, Debug)]
pub struct BloscCodec {
    settings: Settings,
}

impl BloscCodec {
    /// A codec writing with `cname` at `clevel` (0 to 9), `shuffle` over items of `typesize`
    /// bytes (`None`: one byte), in blocks of `blocksize` bytes (0: c-blosc 1.x's automatic size).
    ///
    /// # Errors
    /// A clevel above 9, typesize 0, or snappy (which this codec does not write).
    pub fn new(
        cname: BloscCompressor,
        clevel: u8,
        shuffle: Shuffle,
        typesize: Option<usize>,
        blocksize: usize,
    ) -> Result<Self, PluginCreateError> {
        let clevel = BloscCompressionLevel::try_from(clevel)
            .map_err(|l| PluginCreateError::from(format!("blosc clevel {l}: 0 to 9 expected")))?;
        Ok(Self { settings: Settings { cname, clevel, shuffle, typesize, blocksize }.checked()? })
    }

    /// The codec of a `blosc` configuration (v3, or numcodecs' v2).
    ///
    /// # Errors
    /// See [`BloscCodec::new`].
    pub fn new_with_configuration(
        configuration: &BloscCodecConfiguration,
    ) -> Result<Self, PluginCreateError> {
        Ok(Self { settings: Settings::from_configuration(configuration)? })
    }
}

impl CodecTraitsV3 for BloscCodec {
    fn create(metadata: &MetadataV3) -> Result<Codec, PluginCreateError> {
        let configuration: BloscCodecConfiguration = metadata.to_typed_configuration()?;
        Ok(Codec::BytesToBytes(Arc::new(BloscCodec::new_with_configuration(&configuration)?)))
    }
}

impl CodecTraitsV2 for BloscCodec {
    fn create(metadata: &MetadataV2) -> Result<Codec, PluginCreateError> {
        let configuration: BloscCodecConfiguration = metadata.to_typed_configuration()?;
        Ok(Codec::BytesToBytes(Arc::new(BloscCodec::new_with_configuration(&configuration)?)))
    }
}

impl CodecTraits for BloscCodec {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }

    fn configuration(&self, version: ZarrVersion, _options: &CodecMetadataOptions) -> Option<Configuration> {
        Some(self.settings.configuration(version == ZarrVersion::V2))
    }

    fn partial_decoder_capability(&self) -> PartialDecoderCapability {
        PartialDecoderCapability { partial_read: false, partial_decode: false }
    }

    fn partial_encoder_capability(&self) -> PartialEncoderCapability {
        PartialEncoderCapability { partial_encode: false }
    }
}

impl BytesToBytesCodecTraits for BloscCodec {
    fn into_dyn(self: Arc<Self>) -> Arc<dyn BytesToBytesCodecTraits> {
        self as Arc<dyn BytesToBytesCodecTraits>
    }

    fn recommended_concurrency(&self, _: &BytesRepresentation) -> Result<RecommendedConcurrency, CodecError> {
        Ok(RecommendedConcurrency::new_maximum(1))
    }

    fn encoded_representation(&self, decoded: &BytesRepresentation) -> BytesRepresentation {
        decoded.size().map_or(BytesRepresentation::UnboundedSize, |size| {
            BytesRepresentation::BoundedSize(size + MAX_OVERHEAD)
        })
    }

    fn encode<'a>(
        &self,
        decoded: ArrayBytesRaw<'a>,
        _: &CodecOptions,
    ) -> Result<ArrayBytesRaw<'a>, CodecError> {
        let chunk = compress::compress(&decoded, &self.settings.params())
            .map_err(|e| CodecError::Other(format!("blosc: {e}")))?;
        Ok(Cow::Owned(chunk))
    }

    fn decode<'a>(
        &self,
        encoded: ArrayBytesRaw<'a>,
        decoded: &BytesRepresentation,
        _: &CodecOptions,
    ) -> Result<ArrayBytesRaw<'a>, CodecError> {
        // A fixed-size chunk may not claim more than zarrs expects: nothing larger is allocated.
        let limit = decoded.size().map_or(b2schema_chunk::DEFAULT_MAX_NBYTES, |n| {
            usize::try_from(n).unwrap_or(b2schema_chunk::DEFAULT_MAX_NBYTES)
        });
        let bytes = b2schema_chunk::decompress_with_limit(&encoded, limit)
            .map_err(|e| CodecError::Other(format!("blosc chunk: {e}")))?;
        if let BytesRepresentation::FixedSize(n) = decoded
            && bytes.len() as u64 != *n
        {
            return Err(CodecError::Other(format!(
                "blosc chunk: nbytes (offset 4) {} where the array's chunk has {n} bytes",
                bytes.len()
            )));
        }
        Ok(Cow::Owned(bytes))
    }
}
