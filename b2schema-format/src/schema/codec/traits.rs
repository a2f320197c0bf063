//! [`Encode`] and [`Decode`], each with a private supertrait of the fast paths the derived code
//! calls ([`EncodeHooks`], [`DecodeHooks`], reached by users only through `__private`), so that
//! the public traits show one method each. Every hook has a default that takes the plain path.

use alloc::vec::Vec;

use serde_core::{Deserialize, Serialize};

use super::serde_path::{decode_serde, encode_exact_with, encode_serde};
use crate::format::config::Config;
use crate::format::de::Deserializer;
use crate::format::encoding::Encoding;
use crate::format::error::Result;
use crate::format::ser::{Output, Serializer};

/// A value with a direct encoder, producing the same bytes and errors as its `Serialize`.
///
/// Implemented for the standard types, the [`wrap`](crate::wrap) newtypes and every
/// `#[derive(B2Layout)]` struct, together with a private supertrait that holds the fast paths
/// the derived code calls (not meant to be implemented by hand). A type of your own without the
/// derive is still written inside a derived struct, through serde, and on its own with
/// [`to_vec`](crate::to_vec), which writes the same bytes.
pub trait Encode: Serialize + EncodeHooks {
    /// Writes `self` under `enc`, an override of the type's own encoding (a field attribute or a
    /// wrapper), or under its own encoding when `None`.
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        encode_serde(self, enc, s)
    }
}

/// A value with a direct decoder, accepting the same bytes and giving the same errors as its
/// `Deserialize`.
///
/// Implemented as [`Encode`] is (the standard types, the wrappers, derived structs), with a
/// private supertrait of fast paths.
pub trait Decode<'de>: Deserialize<'de> + DecodeHooks<'de> {
    /// Reads a value under `enc` (an override) or under the type's own encoding when `None`.
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        decode_serde(enc, d)
    }
}

/// The fast paths of [`Encode`].
pub trait EncodeHooks {
    /// Writes `self` under its own encoding, in the fixed mode, with no override pending (a
    /// sequence element): what `encode(None, s)` writes there.
    #[inline]
    fn encode_own<O: Output>(&self, s: &mut Serializer<O>) -> Result<()>
    where
        Self: Encode,
    {
        self.encode(None, s)
    }

    /// Writes `self` under `enc` (as for [`Encode::encode`]) as exactly the bytes of `out`, the
    /// width its layout states, with `config` and no override pending: `true` only when these
    /// are the bytes `encode` writes; `false` otherwise, with `out` in any state (the struct then
    /// writes its fields one by one, which reports what is wrong). A derived struct writes its
    /// leading fixed-width fields this way, each at the constant offset its layout states.
    #[inline]
    fn encode_exact(&self, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool
    where
        Self: Encode,
    {
        encode_exact_with(out, config, |s| self.encode(enc, s))
    }

    /// The length of the value as bare bytes in a packed struct, when it has that form.
    #[inline]
    fn packed_len() -> Option<usize>
    where
        Self: Sized,
    {
        None
    }

    /// Writes the value as the `packed_len()` bare bytes of a packed struct (called only when
    /// `packed_len()` is `Some` and the bytes fit the output).
    #[inline]
    fn encode_packed<O: Output>(&self, s: &mut Serializer<O>) -> Result<()>
    where
        Self: Encode,
    {
        encode_serde(self, Some(Encoding::Raw), s)
    }
}

/// The fast paths of [`Decode`].
pub trait DecodeHooks<'de>: Sized {
    /// Whether [`Decode::decode`] checks the end of the input itself when it is asked to (a
    /// derived struct: it then builds its value once, where it is returned).
    const CHECKS_END: bool = false;

    /// Reads `[Self; N]` as bare bytes of a packed struct, as [`Self::decode_packed`] reads one
    /// (bytes are copied in one piece).
    #[inline]
    fn decode_packed_array<const N: usize>(bytes: &'de [u8], at: &mut usize) -> Option<[Self; N]>
    where
        Self: Default,
    {
        let mut out: [Self; N] = core::array::from_fn(|_| Self::default());
        for slot in &mut out {
            *slot = Self::decode_packed(bytes, at)?;
        }
        Some(out)
    }

    /// Reads `len` sequence elements at once into `out` when they are written under the type's
    /// own encoding with one constant marker and width (the fixed-width integers); `false`, with
    /// nothing consumed, otherwise (the sequence then reads them one by one and names the one
    /// that fails).
    #[inline]
    fn decode_run(d: &mut Deserializer<'de>, len: usize, out: &mut Vec<Self>) -> bool {
        let _ = (d, len, out);
        false
    }

    /// Reads the value from `bytes`, all the bytes it takes under `enc` (an override, or the
    /// type's own encoding with the fixed widths when `None`): `Some` only when
    /// [`Decode::decode`] at these bytes, reading strictly, would read exactly all of them and
    /// give this value; `None` otherwise, or when the type has no fixed width (the field is then
    /// read by `decode`, which reports what is wrong). A derived struct reads its leading
    /// fixed-width fields this way, each at the constant offset its layout states.
    #[inline]
    fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self> {
        let _ = (enc, bytes);
        None
    }

    /// Reads the value as bare bytes of a packed struct from `bytes` at `*at`, advancing `at`;
    /// `None` when the type has no such form or the bytes do not hold a valid one (the serde
    /// path then reads them again and reports why).
    #[inline]
    fn decode_packed(bytes: &'de [u8], at: &mut usize) -> Option<Self> {
        let _ = (bytes, at);
        None
    }
}
