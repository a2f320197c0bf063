//! A pure-Rust `blosc` codec for [zarrs](https://docs.rs/zarrs): Blosc chunks read and written by
//! [`b2schema-chunk`](b2schema_chunk) (safe Rust only, no C), registered through zarrs' own plugin
//! registry.
//!
//! * **Metadata**: the Zarr v3 `blosc` codec (`cname`, `clevel`, `shuffle` as `"noshuffle"`,
//!   `"shuffle"` or `"bitshuffle"`, `typesize`, `blocksize`) and the Zarr v2 numcodecs `blosc`
//!   compressor (`shuffle` as 0, 1, 2 or -1).
//! * **Decoding** reads Blosc1 chunks (what zarr-python and numcodecs write) and Blosc2 chunks,
//!   every codec and filter `b2schema-chunk` reads, checked against the chunk size zarrs expects.
//! * **Encoding** writes Blosc1-format chunks as c-blosc 1.x does (what numcodecs reads):
//!   blosclz, lz4, lz4hc, zlib or zstd; no shuffle, byte shuffle or bit shuffle.
//!
//! # Registration
//!
//! Linking this crate registers the codec (`inventory::submit!` of a `CodecPluginV3` and a
//! `CodecPluginV2`, as zarrs registers its own codecs): use zarrs **without** its `blosc`
//! feature (`default-features = false`), so that `blosc` has one implementation and no C
//! library is built. Reference the crate once so that the linker keeps it:
//!
//! ```
//! use b2schema_zarrs as _;
//! use zarrs::array::codec::api::{BytesRepresentation, BytesToBytesCodecTraits, Codec, CodecOptions, CodecPluginV3};
//! use zarrs::metadata::v3::MetadataV3;
//!
//! // The codec zarrs builds for a `blosc` entry of an array's `codecs`.
//! let metadata: MetadataV3 = serde_json::from_str(
//!     r#"{"name": "blosc", "configuration": {"cname": "zstd", "clevel": 5, "shuffle": "shuffle", "typesize": 4, "blocksize": 0}}"#,
//! )?;
//! let plugin = inventory::iter::<CodecPluginV3>().find(|p| p.match_name("blosc")).expect("registered");
//! let Codec::BytesToBytes(codec) = plugin.create(&metadata)? else { unreachable!() };
//!
//! let data: Vec<u8> = (0..1000u32).flat_map(|i| (i / 10).to_le_bytes()).collect();
//! let chunk = codec.encode(data.as_slice().into(), &CodecOptions::default())?;
//! assert_eq!(chunk[0], 2); // a Blosc1 chunk, as numcodecs writes
//! let size = BytesRepresentation::FixedSize(data.len() as u64);
//! assert_eq!(codec.decode(chunk, &size, &CodecOptions::default())?.as_ref(), data.as_slice());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A zarrs `Array` opened or created with `blosc` in its codecs (v3) or as its compressor (v2)
//! then uses this codec; `tests/zarr_python.rs` reads and writes zarr-python's stores so.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExamples;

mod codec;
mod config;

pub use codec::BloscCodec;
pub use config::Shuffle;

use zarrs::array::codec::api::{CodecPluginV2, CodecPluginV3};

zarrs::plugin::impl_extension_aliases!(BloscCodec, v3: "blosc", v2: "blosc");

inventory::submit! {
    CodecPluginV3::new::<BloscCodec>()
}

inventory::submit! {
    CodecPluginV2::new::<BloscCodec>()
}
