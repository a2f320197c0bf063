//! The bottom layer: the fixed-width msgpack format, a serde data format that imports nothing
//! of the crate above it.
//!
//! Its vocabulary ([`encoding`]), the errors and the configuration every layer shares, the
//! serializer and deserializer, the wrappers that override one value's encoding, and the
//! annotated dump of any msgpack bytes.

#[doc(hidden)]
pub mod config;
pub mod de;
pub mod dump;
pub mod encoding;
#[doc(hidden)]
pub mod error;
#[doc(hidden)]
pub mod int;
pub mod ser;
pub mod value;
pub mod wrap;
