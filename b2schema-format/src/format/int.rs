//! Integers under an [`Encoding`]: writing one at a chosen width, reading one from any width.

use alloc::string::ToString;

use crate::format::encoding::{Encoding, Family, marker};
use crate::format::error::ErrorKind;

/// An integer on its way in or out, keeping its sign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Int {
    U(u64),
    I(i64),
}

impl Int {
    #[inline]
    pub(crate) fn from_i64(v: i64) -> Self {
        Int::I(v)
    }

    #[inline]
    pub(crate) fn as_u64(self) -> Option<u64> {
        match self {
            Int::U(v) => Some(v),
            Int::I(v) => u64::try_from(v).ok(),
        }
    }

    #[inline]
    pub(crate) fn as_i64(self) -> Option<i64> {
        match self {
            Int::U(v) => i64::try_from(v).ok(),
            Int::I(v) => Some(v),
        }
    }

    /// The smallest standard msgpack encoding of this value.
    #[inline]
    pub(crate) fn minimal(self) -> Encoding {
        match self {
            Int::U(v) => Encoding::minimal_uint(v),
            Int::I(v) => Encoding::minimal_int(v),
        }
    }

    pub(crate) fn out_of_range(self, target: &'static str, hint: Option<&'static str>) -> ErrorKind {
        let value = match self {
            Int::U(v) => v.to_string(),
            Int::I(v) => v.to_string(),
        };
        ErrorKind::OutOfRange { value, target, hint }
    }
}

impl core::fmt::Display for Int {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Int::U(v) => v.fmt(f),
            Int::I(v) => v.fmt(f),
        }
    }
}

/// The hint given when a value does not fit a positive fixint (the default encoding of `u8`).
pub(crate) const FIXINT_HINT: &str = "a positive fixint holds 0..=127; for 128..=255 use the uint8 encoding: the Uint8 wrapper or #[b2(uint8)]";

/// How `v` is written under `enc`: the marker byte, then the low `width` bytes of `value`
/// big-endian (`width` 0 for fixints, whose value is the marker).
#[inline]
pub(crate) fn encode(enc: Encoding, v: Int) -> Result<(u8, u64, usize), ErrorKind> {
    written(enc, v).ok_or_else(|| match enc {
        Encoding::FixInt => v.out_of_range(enc.name(), Some(FIXINT_HINT)),
        _ if enc.family() == Family::Int => v.out_of_range(enc.name(), None),
        _ => ErrorKind::IncompatibleEncoding { encoding: enc, rust: "an integer" },
    })
}

/// [`encode`] without the error: `None` when `v` does not fit `enc` or `enc` is not an integer
/// encoding.
#[inline(always)]
fn written(enc: Encoding, v: Int) -> Option<(u8, u64, usize)> {
    macro_rules! put {
        ($marker:expr, $t:ty, $conv:ident) => {{
            let x = v.$conv().and_then(|x| <$t>::try_from(x).ok())?;
            Some(($marker, x as u64, core::mem::size_of::<$t>()))
        }};
    }
    match enc {
        Encoding::FixInt => match v.as_u64() {
            Some(x) if x <= marker::POSITIVE_FIXINT_MAX as u64 => Some((x as u8, 0, 0)),
            _ => None,
        },
        Encoding::NegFixInt => match v.as_i64() {
            Some(x) if (-32..0).contains(&x) => Some((x as i8 as u8, 0, 0)),
            _ => None,
        },
        Encoding::Uint8 => put!(marker::UINT8, u8, as_u64),
        Encoding::Uint16 => put!(marker::UINT16, u16, as_u64),
        Encoding::Uint32 => put!(marker::UINT32, u32, as_u64),
        Encoding::Uint64 => put!(marker::UINT64, u64, as_u64),
        Encoding::Int8 => put!(marker::INT8, i8, as_i64),
        Encoding::Int16 => put!(marker::INT16, i16, as_i64),
        Encoding::Int32 => put!(marker::INT32, i32, as_i64),
        Encoding::Int64 => put!(marker::INT64, i64, as_i64),
        _ => None,
    }
}

/// Writes `v` under `enc` as exactly the bytes of `out` (what [`encode`] gives, marker first);
/// `false` when it does not fit the encoding or takes another number of bytes.
#[inline(always)]
pub(crate) fn put_exact(enc: Encoding, v: Int, out: &mut [u8]) -> bool {
    let Some((m, x, width)) = written(enc, v) else { return false };
    let Some((first, rest)) = out.split_first_mut() else { return false };
    if rest.len() != width {
        return false;
    }
    *first = m;
    rest.copy_from_slice(&x.to_be_bytes()[8 - width..]);
    true
}

/// Decodes the integer whose marker is `marker_byte` from the bytes after it (`value`, exactly
/// the encoding's width), where `enc` is `Encoding::of_marker(marker_byte)` and an integer
/// encoding. Each width reads a fixed-size array, so the copy compiles to a load.
#[inline]
pub(crate) fn decode(enc: Encoding, marker_byte: u8, value: &[u8]) -> Int {
    fn arr<const N: usize>(v: &[u8]) -> [u8; N] {
        v.get(..N).and_then(|s| s.try_into().ok()).unwrap_or([0; N])
    }
    let b0 = value.first().copied().unwrap_or(0);
    match enc {
        Encoding::FixInt => Int::U(marker_byte as u64),
        Encoding::NegFixInt => Int::I(marker_byte as i8 as i64),
        Encoding::Uint8 => Int::U(b0 as u64),
        Encoding::Int8 => Int::I(b0 as i8 as i64),
        Encoding::Uint16 => Int::U(u16::from_be_bytes(arr(value)) as u64),
        Encoding::Int16 => Int::I(i16::from_be_bytes(arr(value)) as i64),
        Encoding::Uint32 => Int::U(u32::from_be_bytes(arr(value)) as u64),
        Encoding::Int32 => Int::I(i32::from_be_bytes(arr(value)) as i64),
        Encoding::Int64 => Int::I(i64::from_be_bytes(arr(value))),
        _ => Int::U(u64::from_be_bytes(arr(value))),
    }
}

/// Converts a decoded integer to a Rust integer type, or the range error naming it.
pub(crate) trait FromInt: Sized {
    const NAME: &'static str;
    fn from_int(v: Int) -> Option<Self>;
}

macro_rules! from_int {
    ($($t:ty => $conv:ident),*) => {$(
        impl FromInt for $t {
            const NAME: &'static str = stringify!($t);
            #[inline]
            fn from_int(v: Int) -> Option<Self> {
                v.$conv().and_then(|x| <$t>::try_from(x).ok())
            }
        }
    )*};
}

from_int!(u8 => as_u64, u16 => as_u64, u32 => as_u64, u64 => as_u64,
          i8 => as_i64, i16 => as_i64, i32 => as_i64, i64 => as_i64);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_come_from_the_encoding() {
        assert_eq!(encode(Encoding::Int32, Int::I(4)).ok(), Some((0xd2, 4, 4)));
        assert_eq!(encode(Encoding::Uint64, Int::I(2633)).ok(), Some((0xcf, 2633, 8)));
        assert_eq!(encode(Encoding::Int8, Int::I(-2)).ok(), Some((0xd0, (-2i8) as u64, 1)));
        assert_eq!(encode(Encoding::NegFixInt, Int::I(-1)).ok(), Some((0xff, 0, 0)));
        assert!(encode(Encoding::Uint64, Int::I(-1)).is_err());
        assert!(encode(Encoding::FixInt, Int::U(128)).is_err());
        assert!(encode(Encoding::Int8, Int::U(128)).is_err());
    }

    #[test]
    fn decode_sign_extends() {
        assert_eq!(decode(Encoding::Int16, 0xd1, &[0xff, 0xfe]), Int::I(-2));
        assert_eq!(decode(Encoding::Uint16, 0xcd, &[0xff, 0xfe]), Int::U(0xfffe));
        assert_eq!(decode(Encoding::NegFixInt, 0xe0, &[]), Int::I(-32));
        assert_eq!(i8::from_int(Int::U(200)), None);
        assert_eq!(u64::from_int(Int::I(-1)), None);
    }
}
