//! Encoding overrides: newtype wrappers that force one [`Encoding`] on the value they hold.
//!
//! The Rust type chooses the default encoding (`i64` writes `d3`); a wrapper overrides it for one
//! value, `Uint64(frame_len)` writes the `i64` under a `cf` marker as c-blosc2 does:
//!
//! ```
//! # extern crate b2schema_format as b2schema;
//! use b2schema::wrap::{FixStr, Uint64};
//! assert_eq!(b2schema::to_vec(&Uint64(2633i64)).unwrap(), [0xcf, 0, 0, 0, 0, 0, 0, 0x0a, 0x49]);
//! // Raw (non UTF-8) flag bytes under a fixstr marker:
//! assert_eq!(b2schema::to_vec(&FixStr([0x12u8, 0, 0x50, 3])).unwrap(), [0xa4, 0x12, 0, 0x50, 3]);
//! // Any other serde format sees the plain inner value:
//! assert_eq!(serde_json::to_string(&Uint64(2633i64)).unwrap(), "2633");
//! ```
//!
//! A wrapper holds a value or a reference (`Uint64(&self.frame_len)`).
//!
//! The wrappers talk to b2schema's serializer through their newtype name (see
//! [`Encoding::magic`]); every other serde format treats them as transparent newtypes.
//!
//! Byte encodings ([`FixStr`], [`Str32`], [`Bin32`], [`Raw`], [`FixExt16`]) accept text, bytes,
//! or a sequence, tuple or struct of `u8` values (a `[u8; 4]`, or a struct of flag bytes), which
//! they write as bare bytes. [`FixExt16`] takes exactly 17 bytes: the type byte and 16 data bytes.

use core::fmt;
use core::marker::PhantomData;

use serde_core::de::{Deserialize, Deserializer, Visitor};
use serde_core::ser::{Serialize, Serializer};

use crate::format::config::ModeSwitch;
use crate::format::encoding::Encoding;

macro_rules! wrappers {
    ($($(#[$doc:meta])* $name:ident => $enc:ident;)*) => {$(
        wrapper!($(#[$doc])* $name, Encoding::$enc.magic());

        impl<T> $name<T> {
            /// The encoding this wrapper forces.
            pub const ENCODING: Encoding = Encoding::$enc;
        }
    )*};
}

macro_rules! wrapper {
    ($(#[$doc:meta])* $name:ident, $magic:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[repr(transparent)]
        pub struct $name<T>(pub T);

        impl<T> $name<T> {
            /// The wrapped value.
            pub fn into_inner(self) -> T {
                self.0
            }
        }

        impl<T> From<T> for $name<T> {
            fn from(value: T) -> Self {
                $name(value)
            }
        }

        impl<T: Serialize> Serialize for $name<T> {
            #[inline]
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_newtype_struct($magic, &self.0)
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for $name<T> {
            #[inline]
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                deserializer
                    .deserialize_newtype_struct($magic, Unwrap::<T>(PhantomData))
                    .map($name)
            }
        }
    };
}

wrappers! {
    /// Positive fixint (`0x00..=0x7f`, the value is the byte).
    FixInt => FixInt;
    /// uint8: `cc` + 1 byte.
    Uint8 => Uint8;
    /// uint16: `cd` + 2 bytes.
    Uint16 => Uint16;
    /// uint32: `ce` + 4 bytes.
    Uint32 => Uint32;
    /// uint64: `cf` + 8 bytes (the frame header's `frame_len`, an `i64`).
    Uint64 => Uint64;
    /// int8: `d0` + 1 byte.
    Int8 => Int8;
    /// int16: `d1` + 2 bytes.
    Int16 => Int16;
    /// int32: `d2` + 4 bytes.
    Int32 => Int32;
    /// int64: `d3` + 8 bytes.
    Int64 => Int64;
    /// float32: `ca` + 4 bytes.
    Float32 => Float32;
    /// float64: `cb` + 8 bytes.
    Float64 => Float64;
    /// fixstr: `a0 + n` + n bytes; text or raw bytes (the frame header's 4 flag bytes).
    FixStr => FixStr;
    /// str32: `db` + u32 length + bytes.
    Str32 => Str32;
    /// bin32: `c6` + u32 length + bytes.
    Bin32 => Bin32;
    /// fixarray: `90 + n` + n values (n <= 15).
    FixArray => FixArray;
    /// array16: `dc` + u16 count + values.
    Array16 => Array16;
    /// The c-blosc2 counted array: `0x90 + n` in a byte, n <= 16 (16 writes `a0`).
    Counted => Counted;
    /// map16: `de` + u16 count + pairs.
    Map16 => Map16;
    /// fixext16: `d8` + type byte + 16 bytes (a 17-byte tuple, array or struct of `u8`).
    FixExt16 => FixExt16;
    /// Bytes with no marker; the length comes from the type (`[u8; 16]`, a struct of bytes).
    Raw => Raw;
}

wrapper!(
    /// Writes and reads the inner value with minimal (python-blosc2 style) widths.
    Minimal,
    ModeSwitch::Minimal.magic()
);
wrapper!(
    /// Writes and reads the inner value with fixed (c-blosc2 style) widths.
    Fixed,
    ModeSwitch::Fixed.magic()
);
wrapper!(
    /// Writes and reads the structs inside as maps keyed by field name.
    AsMap,
    ModeSwitch::StructMap.magic()
);
wrapper!(
    /// Writes and reads the structs inside as arrays of their fields.
    AsArray,
    ModeSwitch::StructArray.magic()
);

/// Unwraps the newtype on deserialization; any format that visits the newtype (all of serde's
/// self-describing and binary formats do) deserializes the inner value. Shared by the wrappers,
/// the derive's field seeds and the field handles.
pub(crate) struct Unwrap<T>(pub(crate) PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Unwrap<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an encoding override newtype")
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        T::deserialize(d)
    }
}

// The derive's field encodings (`#[b2(encoding)]`), used by the generated code through
// `__private` and by the typed handles of `layout::patch`.
/// Serializes `value` under `encoding` (a field attribute).
#[doc(hidden)]
pub struct As<'a, T: ?Sized>(pub Encoding, pub &'a T);

impl<T: ?Sized + Serialize> Serialize for As<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(self.0.magic(), self.1)
    }
}

/// Deserializes a `T` under `encoding` (a field attribute).
#[doc(hidden)]
pub struct AsSeed<T>(pub Encoding, pub PhantomData<T>);

impl<'de, T: Deserialize<'de>> serde_core::de::DeserializeSeed<'de> for AsSeed<T> {
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_newtype_struct(self.0.magic(), Unwrap(PhantomData))
    }
}
