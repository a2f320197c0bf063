//! b2schema: the metadata of Blosc2 containers, byte for byte.
//!
//! Blosc2 frames carry their metadata as msgpack with *fixed-width* encodings that ordinary
//! msgpack writers never produce: an `int32` is always `d2`, a map always `map16`, a string
//! always `str32`. c-blosc2 relies on this to patch fields in place. This crate is a serde data
//! format that writes and checks exactly those encodings, a derive that declares a layout once
//! (its bytes, its diagram, its in-place patches), and the Blosc2 containers built on both:
//! frames, b2nd arrays, their writer and reader.
//!
//! # Modules
//!
//! Three layers, each built only on the layers below it: the format and the derive's runtime (the
//! crate `b2schema-format`, re-exported here as [`b2schema::format`](crate::format) and item by item), then the containers
//! (this crate's `container/`), over the chunk codec:
//!
//! | layer | module | purpose |
//! |---|---|---|
//! | containers | [`handle`] | [`open`]: one owned [`Container`] for an NDArray or SChunk: geometry, dtype, cparams, `info`, decoded metadata, typed slices |
//! | containers | [`frame`] | Blosc2 frames: header, metalayers, chunk index, trailer; read from a buffer ([`FrameView`](frame::FrameView)) or a file ([`FrameFile`](frame::FrameFile)) and checked |
//! | containers | [`b2nd`] | the `b2nd` metalayer of NDArrays (and Caterva's), and the geometry of chunks and blocks |
//! | containers | [`writer`] | writing frames c-blosc2 opens: chunks, metalayers, whole NDArrays |
//! | containers | [`array`](mod@array) | reading any slice of an NDArray in a frame file |
//! | containers | [`store`] | python-blosc2's stores (`.b2z`, `.b2d`, `.b2e`): their keys and members |
//! | containers | [`dtype`] | NumPy dtype strings (`<f8`, structured dtypes): parsing and printing |
//! | containers | [`limits`] | the budget of a read: how much memory and work an input may cost |
//! | containers | [`error`] | [`Error`]: the kinds a caller matches (not a frame, a store, no such key, truncated, budget, I/O, ...), the file and member |
//! | derive runtime | [`layout`] | a declared struct's static layout: diagrams, annotated dumps, in-place patches |
//! | derive runtime | [`codec`] | the direct codec ([`Encode`], [`Decode`]): a layout's bytes without serde's dispatch |
//! | derive runtime | [`attributes`] | every `#[b2(...)]` attribute of `#[derive(B2Layout)]`, with an example |
//! | format | [`ser`] | writing: the [`Serializer`], [`to_vec`], [`to_slice`], `to_writer`, [`encoded_len`] |
//! | format | [`de`] | reading: the [`Deserializer`], [`from_slice`], [`take_from_slice`], `from_reader` |
//! | format | [`encoding`] | the vocabulary: msgpack [`Encoding`]s, their markers, what a reader [`Expected`] |
//! | format | [`value`] | [`Value`]: any msgpack value (bytes, ext, python-blosc2's tuples), as user metadata holds it |
//! | format | [`wrap`] | newtypes that override the encoding of one value (`Str32`, `Counted`, ...) |
//! | format | [`dump`] | an annotated hex dump of any msgpack bytes |
//! | beneath | [`b2schema::format`](crate::format) | the format layer alone (the `b2schema-format` crate, `no_std`), with its own error (`format::Error`) |
//! | beneath | [`chunk`] | the Blosc1/Blosc2 chunk codec (the `b2schema-chunk` crate) |
//!
//! At the root: [`Config`] (widths, strictness, depth), [`Error`] (the containers' error: its
//! [`ErrorKind`], the file, and the format's field-level detail: offset, field path, expected and
//! found), [`Limits`], `#[derive(B2Layout)]`, and the entry points. Those of the two paths
//! are named alike: the direct path's are the serde path's names with `encode_` or `decode_` in
//! front, and each has its `_with(config)` form.
//!
//! | | serde path (any `Serialize`/`Deserialize`) | direct path ([`Encode`]/[`Decode`]) |
//! |---|---|---|
//! | into a new `Vec` | [`to_vec`] | [`encode_to_vec`] |
//! | into a slice | [`to_slice`] | [`encode_to_slice`] |
//! | appended to a `Vec` / into an `io::Write` | `to_writer` (std) | [`encode_into`] |
//! | from a whole slice | [`from_slice`] | [`decode_from_slice`] |
//! | from the start of a slice, with the rest | [`take_from_slice`] | [`decode_take_from_slice`] |
//!
//! # Features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | `std::io` adapters, files (`FrameFile`, the writer's files), [`array`](mod@array), [`store`], `std::error::Error` |
//! | `derive` | yes | `#[derive(B2Layout)]` (the `b2schema-derive` crate), and the containers declared with it: [`frame`], [`b2nd`], [`writer`], [`array`](mod@array) |
//! | `blosclz`, `lz4`, `zlib`, `zstd` | yes | the chunk codec's codecs (all pure Rust) |
//! | `http` | no | frames and stores by `http://` URL: `open_url`, `FrameFile::open_url`, `Store::open_url` (ranged GETs by a std-only HTTP/1.1 client, no dependency) |
//! | `https` | no | `http`, and `https://` URLs: rustls with the graviola provider (x86-64 and aarch64; elsewhere `https://` is refused, saying why), Mozilla's roots, a CA file (`HttpOptions::ca_file`, `SSL_CERT_FILE`) |
//! | `ndarray` | no | `array::ArrayReader::read_ndarray` (slices as `ndarray::ArrayD`), `writer::Array::from_ndarray` |
//! | `half` | no | float16 items as `half::f16` (re-exported as `b2schema::half`) |
//! | `complex` | no | complex items as `num_complex::Complex` (re-exported as `b2schema::num_complex`) |
//!
//! Without default features the crate is `no_std` (with `alloc`): the format, the derive's
//! runtime, [`dtype`] and [`limits`].
//!
//! # The format
//!
//! | Rust / serde type | fixed encoding |
//! |---|---|
//! | `bool` | `c2` / `c3` |
//! | `u8` | positive fixint (<= 127, else an error that suggests [`wrap::Uint8`]) |
//! | `u16`, `u32`, `u64` | `cd`, `ce`, `cf` + big-endian value |
//! | `i8`, `i16`, `i32`, `i64` | `d0`, `d1`, `d2`, `d3` + big-endian value |
//! | `f32`, `f64` | `ca`, `cb` |
//! | `str` | `db` str32 + u32 length + bytes |
//! | bytes (`serde_bytes`) | `c6` bin32 + u32 length + bytes |
//! | sequence, tuple, struct | fixarray `9N` (N <= 15) |
//! | map | `de` map16 + u16 count |
//! | unit, `None` | `c0` |
//!
//! The [`wrap`] newtypes override the encoding of one value; [`Config::minimal`] writes standard
//! smallest-form msgpack instead (python-blosc2's user metalayers).
//!
//! ```
//! use b2schema::wrap::{Counted, Str32};
//! #[derive(serde::Serialize, serde::Deserialize, Debug, PartialEq)]
//! struct Shape<'a> {
//!     version: u8,
//!     ndim: u8,
//!     shape: Counted<Vec<i64>>,
//!     #[serde(borrow)]
//!     dtype: Str32<&'a str>,
//! }
//!
//! let value = Shape { version: 0, ndim: 1, shape: Counted(vec![400]), dtype: Str32("<f8") };
//! let bytes = b2schema::to_vec(&value).unwrap();
//! assert_eq!(bytes, [0x94, 0, 1, 0x91, 0xd3, 0, 0, 0, 0, 0, 0, 1, 0x90, 0xdb, 0, 0, 0, 3, b'<', b'f', b'8']);
//! assert_eq!(b2schema::from_slice::<Shape>(&bytes).unwrap(), value);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
// The derive names the crate `::b2schema`, also inside it.
extern crate self as b2schema;

// The layers, each importing only from those below it: the format and the derive's runtime
// (`schema`), both in the crate `b2schema-format`, then the Blosc2 containers. Their modules are
// public through the re-exports below.
mod container;

/// The format layer (the crate `b2schema-format`): msgpack and layouts only, `no_std`; its items
/// are also at this crate's root (as `serde` re-exports `serde_core`: one list, the format
/// crate's; the containers' `Error`, `ErrorKind`, `Result` and `error` take precedence).
#[doc(inline)]
pub use b2schema_format as format;
#[doc(inline)]
pub use b2schema_format::*;

pub mod attributes;

#[doc(inline)]
pub use b2schema_chunk as chunk;
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
#[doc(inline)]
pub use b2schema_derive::B2Layout;
#[doc(inline)]
pub use container::error::{Error, ErrorKind, Limit, Result};
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
#[doc(inline)]
pub use container::handle::Container;
#[doc(inline)]
pub use container::limits::Limits;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
#[doc(inline)]
pub use container::open::{open, open_source, open_with_limits};
#[cfg(all(feature = "std", feature = "derive", feature = "http"))]
pub use container::open::{open_url, open_url_with_limits};
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
#[doc(inline)]
pub use container::options::OpenOptions;
#[cfg(feature = "std")]
pub use container::source;
/// The old name of [`source`], kept until 0.2.
#[cfg(feature = "std")]
#[doc(hidden)]
pub use container::source as storage;
#[cfg(all(feature = "std", feature = "derive"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "std", feature = "derive"))))]
#[doc(inline)]
pub use container::{array, handle, store, table};
#[cfg(feature = "derive")]
#[cfg_attr(docsrs, doc(cfg(feature = "derive")))]
#[doc(inline)]
pub use container::{b2nd, frame, writer};
#[doc(inline)]
pub use container::{dtype, error, limits};
/// The `half` crate (with the `half` feature), whose `f16` reads NumPy's float16.
#[cfg(feature = "half")]
#[cfg_attr(docsrs, doc(cfg(feature = "half")))]
pub use half;
/// The `num-complex` crate (with the `complex` feature), whose `Complex` reads NumPy's complex
/// numbers.
#[cfg(feature = "complex")]
#[cfg_attr(docsrs, doc(cfg(feature = "complex")))]
pub use num_complex;
/// The crate's README (its page on crates.io), whose examples are compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
