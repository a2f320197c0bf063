//! Writing values: [`to_vec`], [`to_slice`], `to_writer` (std), [`encoded_len`], each with its
//! `_with(config)` form.

mod compound;
mod data_format;
mod output;
mod raw;
mod serializer;

pub use compound::Compound;
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub use output::IoOutput;
pub use output::{Counter, Output, SliceOutput};
pub use serializer::Serializer;

use alloc::vec::Vec;
use serde_core::Serialize;

use crate::format::config::Config;
use crate::format::error::Result;

/// Encodes `value` into a new `Vec` with the fixed (Blosc2) widths.
pub fn to_vec<T: ?Sized + Serialize>(value: &T) -> Result<Vec<u8>> {
    to_vec_with(value, Config::fixed())
}

/// Encodes `value` into a new `Vec` with `config`.
pub fn to_vec_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<Vec<u8>> {
    // The serializer owns the Vec (see `encode_into`).
    let mut ser = Serializer::with_config(Vec::new(), config);
    value.serialize(&mut ser)?;
    Ok(ser.into_inner())
}

/// Encodes `value` into the start of `buf` with the fixed widths and returns the number of bytes
/// written. Allocates nothing; a `buf` too short is [`ErrorKind::BufferFull`](crate::ErrorKind).
pub fn to_slice<T: ?Sized + Serialize>(value: &T, buf: &mut [u8]) -> Result<usize> {
    to_slice_with(value, buf, Config::fixed())
}

/// Encodes `value` into the start of `buf` with `config`; returns the number of bytes written.
pub fn to_slice_with<T: ?Sized + Serialize>(value: &T, buf: &mut [u8], config: Config) -> Result<usize> {
    let mut ser = Serializer::with_config(SliceOutput::new(buf), config);
    value.serialize(&mut ser)?;
    Ok(ser.position())
}

/// The number of bytes `value` encodes to with the fixed widths, without storing them.
pub fn encoded_len<T: ?Sized + Serialize>(value: &T) -> Result<usize> {
    encoded_len_with(value, Config::fixed())
}

/// The number of bytes `value` encodes to with `config`, without storing them.
pub fn encoded_len_with<T: ?Sized + Serialize>(value: &T, config: Config) -> Result<usize> {
    let mut ser = Serializer::with_config(Counter::new(), config);
    value.serialize(&mut ser)?;
    Ok(ser.position())
}

/// Encodes `value` into `writer` with the fixed widths.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer<W: std::io::Write, T: ?Sized + Serialize>(writer: W, value: &T) -> Result<()> {
    to_writer_with(writer, value, Config::fixed())
}

/// Encodes `value` into `writer` with `config`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn to_writer_with<W: std::io::Write, T: ?Sized + Serialize>(
    writer: W,
    value: &T,
    config: Config,
) -> Result<()> {
    value.serialize(&mut Serializer::with_config(IoOutput::new(writer), config))
}
