//! b2schema: the metadata of Blosc2 containers, byte for byte.
//!
//! Blosc2 frames carry their metadata as msgpack with *fixed-width* encodings that ordinary
//! msgpack writers never produce: an `int32` is always `d2`, a map always `map16`, a string
//! always `str32`. c-blosc2 relies on this to patch fields in place. This crate is a serde data
//! format that writes and checks exactly those encodings.
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
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
// The derive names the crate `::b2schema`, also inside it.
extern crate self as b2schema;

// The three layers, each importing only from those below it: the format, the derive's runtime
// (`schema`), the Blosc2 containers. Their modules are public through the re-exports below.
mod container;
mod format;
mod schema;

#[doc(inline)]
pub use b2schema_chunk as chunk;
#[cfg(feature = "std")]
pub use container::array;
pub use container::{b2nd, dtype, frame, limits, writer};
pub use format::{de, dump, encoding, ser, wrap};
#[doc(hidden)]
pub use schema::private as __private;
pub use schema::{attributes, codec, layout};

pub use b2schema_derive::B2Layout;
pub use layout::{B2Layout, B2Type, FieldRef};

pub use codec::{
    Decode, Encode, decode_from_slice, decode_from_slice_with, decode_take, encode_into, encode_into_with,
    encode_to_slice, encode_to_vec, encode_to_vec_with,
};
pub use de::{Deserializer, from_slice, from_slice_with, take_from_slice, take_from_slice_with};
#[cfg(feature = "std")]
pub use de::{from_reader, from_reader_with};
pub use encoding::{Encoding, Expected};
pub use format::config::{Config, DEFAULT_MAX_DEPTH, ModeSwitch, StructRepr, Widths};
pub use format::error::{Category, Error, ErrorKind, Result, Segment};
pub use limits::{Limit, Limits};
pub use ser::{Serializer, encoded_len, to_slice, to_slice_with, to_vec, to_vec_with};
#[cfg(feature = "std")]
pub use ser::{to_writer, to_writer_with};

/// The crate's README (its page on crates.io), whose examples are compiled as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
