//! The direct codec: [`Encode`] and [`Decode`] write and read a value with exactly the bytes and
//! the errors of its serde implementation, without serde's per-value dispatch.
//!
//! `#[derive(B2Layout)]` implements both for a struct written as an array (the c-blosc2
//! layouts): the container header is written as a constant, each field goes straight to its
//! type's own code under the encoding its attribute names, and counted arrays are read in a
//! plain loop. The leading fields of fixed width (a frame header's thirteen) sit at the constant
//! offsets of the struct's [`B2Layout`](crate::layout::B2Layout): they are written into a stack buffer
//! at those offsets and appended at once, and read from them after one check that the input
//! holds them all, as a decoder written by hand for the layout reads them. A struct's computed
//! fields are checked on the values just read, and the struct is built once, where it is
//! returned. Anything the direct path does not cover (a struct under a byte encoding, a map
//! layout, a lenient reader) takes the serde path, so both paths always agree; the tests check
//! that they do, bytes and errors alike.
//!
//! ```
//! use b2schema::b2nd::B2nd;
//! let meta = B2nd {
//!     version: 0,
//!     ndim: 2,
//!     shape: vec![100, 200],
//!     chunkshape: vec![10, 20],
//!     blockshape: vec![5, 10],
//!     dtype_format: 0,
//!     dtype: "<f8",
//! };
//! let bytes = b2schema::encode_to_vec(&meta).unwrap();
//! assert_eq!(bytes, b2schema::to_vec(&meta).unwrap());
//! assert_eq!(b2schema::decode_from_slice::<B2nd>(&bytes).unwrap(), meta);
//! ```
//!
//! A field type with no `Encode`/`Decode` implementation still works inside a derived struct:
//! it is written and read through serde. Implementing the traits for a type of your own takes
//! one line each (`impl b2schema::Encode for MyType {}`), which gives it the serde path; the
//! direct path is for types that can do better.

mod impls;
pub(crate) use impls::inside;
pub(crate) mod support;

use alloc::vec::Vec;
use serde_core::{Deserialize, Serialize};

use crate::format::config::{Config, ModeState};
use crate::format::de::Deserializer;
use crate::format::encoding::Encoding;
use crate::format::error::Result;
use crate::format::ser::{Output, Serializer, SliceOutput};

/// A value with a direct encoder, producing the same bytes and errors as its `Serialize`.
pub trait Encode: Serialize {
    /// Writes `self` under `enc`, an override of the type's own encoding (a field attribute or a
    /// wrapper), or under its own encoding when `None`.
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        encode_serde(self, enc, s)
    }

    /// Writes `self` under its own encoding, in the fixed mode, with no override pending (a
    /// sequence element): what `encode(None, s)` writes there.
    #[doc(hidden)]
    #[inline]
    fn encode_own<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
        self.encode(None, s)
    }

    /// Writes `self` under `enc` (as for [`Self::encode`]) as exactly the bytes of `out`, the
    /// width its layout states, with `config` and no override pending: `true` only when these
    /// are the bytes `encode` writes; `false` otherwise, with `out` in any state (the struct then
    /// writes its fields one by one, which reports what is wrong). A derived struct writes its
    /// leading fixed-width fields this way, each at the constant offset its layout states.
    #[doc(hidden)]
    #[inline]
    fn encode_exact(&self, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool {
        support::encode_exact_with(out, config, |s| self.encode(enc, s))
    }

    /// The length of the value as bare bytes in a packed struct, when it has that form.
    #[doc(hidden)]
    #[inline]
    fn packed_len() -> Option<usize>
    where
        Self: Sized,
    {
        None
    }

    /// Writes the value as the `packed_len()` bare bytes of a packed struct (called only when
    /// `packed_len()` is `Some` and the bytes fit the output).
    #[doc(hidden)]
    #[inline]
    fn encode_packed<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
        encode_serde(self, Some(Encoding::Raw), s)
    }
}

/// A value with a direct decoder, accepting the same bytes and giving the same errors as its
/// `Deserialize`.
pub trait Decode<'de>: Deserialize<'de> {
    /// Whether [`Self::decode`] checks the end of the input itself when it is asked to (a derived
    /// struct: it then builds its value once, where it is returned).
    #[doc(hidden)]
    const CHECKS_END: bool = false;

    /// Reads a value under `enc` (an override) or under the type's own encoding when `None`.
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        decode_serde(enc, d)
    }

    /// Reads `[Self; N]` as bare bytes of a packed struct, as [`Self::decode_packed`] reads one
    /// (bytes are copied in one piece).
    #[doc(hidden)]
    #[inline]
    fn decode_packed_array<const N: usize>(bytes: &'de [u8], at: &mut usize) -> Option<[Self; N]>
    where
        Self: Sized + Default,
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
    #[doc(hidden)]
    #[inline]
    fn decode_run(d: &mut Deserializer<'de>, len: usize, out: &mut Vec<Self>) -> bool
    where
        Self: Sized,
    {
        let _ = (d, len, out);
        false
    }

    /// Reads the value from `bytes`, all the bytes it takes under `enc` (an override, or the
    /// type's own encoding with the fixed widths when `None`): `Some` only when [`Self::decode`]
    /// at these bytes, reading strictly, would read exactly all of them and give this value;
    /// `None` otherwise, or when the type has no fixed width (the field is then read by
    /// `decode`, which reports what is wrong). A derived struct reads its leading fixed-width
    /// fields this way, each at the constant offset its layout states.
    #[doc(hidden)]
    #[inline]
    fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self>
    where
        Self: Sized,
    {
        let _ = (enc, bytes);
        None
    }

    /// Reads the value as bare bytes of a packed struct from `bytes` at `*at`, advancing `at`;
    /// `None` when the type has no such form or the bytes do not hold a valid one (the serde
    /// path then reads them again and reports why).
    #[doc(hidden)]
    #[inline]
    fn decode_packed(bytes: &'de [u8], at: &mut usize) -> Option<Self> {
        let _ = (bytes, at);
        None
    }
}

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

/// Encodes `value` into a new `Vec` with the fixed (Blosc2) widths; the bytes of
/// [`to_vec`](crate::to_vec).
pub fn encode_to_vec<T: ?Sized + Encode>(value: &T) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into(value, &mut out)?;
    Ok(out)
}

/// Appends the encoding of `value` to `out` with the fixed widths.
pub fn encode_into<T: ?Sized + Encode>(value: &T, out: &mut Vec<u8>) -> Result<()> {
    encode_into_with(value, out, Config::fixed())
}

/// Appends the encoding of `value` to `out` with `config`.
pub fn encode_into_with<T: ?Sized + Encode>(value: &T, out: &mut Vec<u8>, config: Config) -> Result<()> {
    // The serializer owns the Vec, not a reference to it. Each write then finds the Vec's length
    // at a fixed place in the serializer. Through a reference, every byte stored into the Vec
    // may alias the reference itself, so each write would reload it before reaching the length:
    // one more dependent load per write (measured: 187 ns against 152 ns for a frame header).
    let mut ser = Serializer::with_config(core::mem::take(out), config);
    let r = value.encode(None, &mut ser);
    *out = ser.into_inner();
    r
}

/// Encodes `value` into the start of `buf` with the fixed widths and returns the number of bytes
/// written; allocates nothing (the bytes of [`to_slice`](crate::to_slice)).
pub fn encode_to_slice<T: ?Sized + Encode>(value: &T, buf: &mut [u8]) -> Result<usize> {
    let mut ser = Serializer::new(SliceOutput::new(buf));
    value.encode(None, &mut ser)?;
    Ok(ser.position())
}

/// Encodes `value` with `config` into a new `Vec`.
pub fn encode_to_vec_with<T: ?Sized + Encode>(value: &T, config: Config) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    encode_into_with(value, &mut out, config)?;
    Ok(out)
}

/// Decodes a `T` that must fill all of `input`, strictly, with the fixed widths; the value and
/// errors of [`from_slice`](crate::from_slice).
pub fn decode_from_slice<'de, T: Decode<'de>>(input: &'de [u8]) -> Result<T> {
    decode_from_slice_with(input, Config::fixed())
}

/// Decodes a `T` that must fill all of `input`, with `config`.
#[inline]
pub fn decode_from_slice_with<'de, T: Decode<'de>>(input: &'de [u8], config: Config) -> Result<T> {
    let mut de = Deserializer::from_slice_with(input, config);
    if T::CHECKS_END {
        de.expect_whole();
        return T::decode(None, &mut de);
    }
    let value = T::decode(None, &mut de);
    if value.is_ok()
        && let Err(e) = de.end()
    {
        return Err(e);
    }
    value
}

/// Decodes a `T` from the start of `input` and returns it with the bytes after it.
pub fn decode_take<'de, T: Decode<'de>>(input: &'de [u8]) -> Result<(T, &'de [u8])> {
    let mut de = Deserializer::from_slice(input);
    let value = T::decode(None, &mut de)?;
    Ok((value, de.remaining_input()))
}
