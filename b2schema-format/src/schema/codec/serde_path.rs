//! The plain path that every type of the direct codec falls back on: a value written or read
//! through serde under an encoding override, and the helpers both paths share.

use serde_core::{Deserialize, Serialize};

use crate::format::config::{Config, Magic, ModeState};
use crate::format::de::Deserializer;
use crate::format::encoding::Encoding;
use crate::format::error::Result;
use crate::format::ser::{Output, Serializer, SliceOutput};

/// Writes `value` through serde under `enc`: the path of a type with no direct encoder.
#[inline]
pub fn encode_serde<T: ?Sized + Serialize, O: Output>(
    value: &T,
    enc: Option<Encoding>,
    s: &mut Serializer<O>,
) -> Result<()> {
    s.set_pending(enc);
    value.serialize(s)
}

/// Reads a `T` through serde under `enc`: the path of a type with no direct decoder.
#[inline]
pub fn decode_serde<'de, T: Deserialize<'de>>(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<T> {
    d.set_pending(enc);
    T::deserialize(d)
}

/// Writes with `write`, into a serializer of `config` over `out`: whether it wrote exactly all
/// of `out` (a field's [`EncodeHooks::encode_exact`](super::traits::EncodeHooks::encode_exact) through its own encoder).
#[inline]
pub fn encode_exact_with(
    out: &mut [u8],
    config: Config,
    write: impl FnOnce(&mut Serializer<SliceOutput<'_>>) -> Result<()>,
) -> bool {
    let n = out.len();
    let mut s = Serializer::with_config(SliceOutput::new(out), config);
    write(&mut s).is_ok() && s.position() == n
}

/// `outer` (a field attribute) with a wrapper's own encoding applied inside it, as the serde
/// path applies nested newtype names.
#[inline]
pub fn inside(outer: Option<Encoding>, wrapper: Encoding) -> Option<Encoding> {
    let mut pending = outer;
    Magic::set_pending(&mut pending, wrapper);
    pending
}
