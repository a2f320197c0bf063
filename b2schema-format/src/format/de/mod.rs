//! Reading values: [`from_slice`], [`take_from_slice`], [`from_reader`].

mod access;
mod data_format;
mod deserializer;
mod raw;

pub use deserializer::Deserializer;
pub(crate) use deserializer::LastName;
pub(crate) use deserializer::exact::{header_at, int_at};

use serde_core::Deserialize;

use crate::format::config::Config;
use crate::format::error::Result;

/// Decodes a `T` that must fill all of `input`, with the fixed, strict configuration. `&str` and
/// `&[u8]` fields borrow from `input`.
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T> {
    from_slice_with(input, Config::fixed())
}

/// Decodes a `T` that must fill all of `input`, with `config`.
pub fn from_slice_with<'de, T: Deserialize<'de>>(input: &'de [u8], config: Config) -> Result<T> {
    let mut de = Deserializer::from_slice_with(input, config);
    let value = T::deserialize(&mut de)?;
    de.end()?;
    Ok(value)
}

/// Decodes a `T` from the start of `input` and returns it with the bytes after it.
pub fn take_from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<(T, &'de [u8])> {
    take_from_slice_with(input, Config::fixed())
}

/// Decodes a `T` from the start of `input` with `config` and returns it with the bytes after it.
pub fn take_from_slice_with<'de, T: Deserialize<'de>>(
    input: &'de [u8],
    config: Config,
) -> Result<(T, &'de [u8])> {
    let mut de = Deserializer::from_slice_with(input, config);
    let value = T::deserialize(&mut de)?;
    Ok((value, de.remaining_input()))
}

/// Reads `reader` to its end and decodes one `T` from all of it, with the fixed, strict
/// configuration. What is allocated is what the reader yields.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader<R: std::io::Read, T: serde_core::de::DeserializeOwned>(reader: R) -> Result<T> {
    from_reader_with(reader, Config::fixed())
}

/// Reads `reader` to its end and decodes one `T` from all of it, with `config`.
#[cfg(feature = "std")]
#[cfg_attr(docsrs, doc(cfg(feature = "std")))]
pub fn from_reader_with<R: std::io::Read, T: serde_core::de::DeserializeOwned>(
    mut reader: R,
    config: Config,
) -> Result<T> {
    let mut buf = alloc::vec::Vec::new();
    reader.read_to_end(&mut buf)?;
    from_slice_with(&buf, config)
}
