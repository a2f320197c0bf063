//! The format layer of b2schema: exact fixed-width msgpack, as Blosc2 writes it, and the runtime of
//! `#[derive(B2Layout)]`. It knows msgpack and layouts only: no frame, no chunk codec, no file.
//!
//! Blosc2 frames carry their metadata as msgpack with *fixed-width* encodings that ordinary
//! msgpack writers never produce: an `int32` is always `d2`, a map always `map16`, a string always
//! `str32`. c-blosc2 relies on this to patch fields in place. This crate is a serde data format
//! that writes and checks exactly those encodings, and the runtime of the derive that declares a
//! layout once (its bytes, its diagram, its in-place patches).
//!
//! Most users add [`b2schema`](https://docs.rs/b2schema) instead, which re-exports this crate as
//! `b2schema::format` and its items at its own root (as `serde` re-exports `serde_core`), with the
//! derive and the Blosc2 containers built on it.
//!
//! | module | purpose |
//! |---|---|
//! | [`ser`] | writing: the [`Serializer`], [`to_vec`], [`to_slice`], `to_writer`, [`encoded_len`] |
//! | [`de`] | reading: the [`Deserializer`], [`from_slice`], [`take_from_slice`], `from_reader` |
//! | [`encoding`] | the vocabulary: msgpack [`Encoding`]s, their markers, what a reader [`Expected`] |
//! | [`value`] | [`Value`]: any msgpack value (bytes, ext, python-blosc2's tuples) |
//! | [`wrap`] | newtypes that override the encoding of one value (`Str32`, `Counted`, ...) |
//! | [`dump`] | an annotated hex dump of any msgpack bytes |
//! | [`layout`] | a declared struct's static layout: diagrams, annotated dumps, in-place patches |
//! | [`codec`] | the direct codec ([`Encode`], [`Decode`]): a layout's bytes without serde's dispatch |
//!
//! ```
//! use b2schema_format::wrap::{Counted, Str32};
//! let bytes = b2schema_format::to_vec(&(Counted(vec![400i64]), Str32("<f8"))).unwrap();
//! assert_eq!(bytes, [0x92, 0x91, 0xd3, 0, 0, 0, 0, 0, 0, 1, 0x90, 0xdb, 0, 0, 0, 3, b'<', b'f', b'8']);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
// The derive names the crate `::b2schema` (its tests declare layouts inside this crate).
#[cfg(test)]
extern crate self as b2schema;

// The two halves, public for `b2schema`'s own modules (which reach them as `crate::format` and
// `crate::schema`); users take the re-exports below.
#[doc(hidden)]
pub mod format;
#[doc(hidden)]
pub mod schema;

#[doc(hidden)]
pub use schema::private as __private;
// For `b2schema`, which names this crate `format` (`crate::format::error::...`).
#[doc(hidden)]
pub use format::{config, error, int};

#[doc(inline)]
pub use format::{de, dump, encoding, ser, value, wrap};
#[doc(inline)]
pub use schema::{codec, layout};

#[doc(inline)]
pub use format::config::{Config, DEFAULT_MAX_DEPTH, ModeSwitch, StructRepr, Widths};
#[doc(inline)]
pub use format::de::{Deserializer, from_slice, from_slice_with, take_from_slice, take_from_slice_with};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[doc(inline)]
pub use format::de::{from_reader, from_reader_with};
#[doc(inline)]
pub use format::encoding::{Encoding, Expected};
#[doc(inline)]
pub use format::error::{Category, Error, ErrorKind, Result, Segment};
#[doc(inline)]
pub use format::ser::{
    Serializer, encoded_len, encoded_len_with, to_slice, to_slice_with, to_vec, to_vec_with,
};
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
#[doc(inline)]
pub use format::ser::{to_writer, to_writer_with};
#[doc(inline)]
pub use format::value::Value;
#[doc(inline)]
pub use schema::codec::{
    Decode, Encode, decode_from_slice, decode_from_slice_with, decode_take_from_slice,
    decode_take_from_slice_with, encode_into, encode_into_with, encode_to_slice, encode_to_slice_with,
    encode_to_vec, encode_to_vec_with,
};
#[doc(inline)]
pub use schema::layout::{B2Layout, B2Type, FieldRef};
