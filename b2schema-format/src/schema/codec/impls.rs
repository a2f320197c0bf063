//! [`Encode`] and [`Decode`] for the standard types and the wrappers. Scalars and text take the
//! serde path (it is already direct for them: one marker check, one load); sequences and
//! fixed-size arrays loop over their elements without serde's sequence accessors.

use alloc::borrow::Cow;
use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use serde_core::{Deserialize, Serialize};

use super::serde_path::{decode_serde, encode_serde, inside};
use super::traits::{Decode, DecodeHooks, Encode, EncodeHooks};
use crate::format::config::{Config, ModeState, ModeSwitch, Widths};
use crate::format::de::{Deserializer, int_at};
use crate::format::encoding::{Encoding, Family, marker};
use crate::format::error::{Result, Segment};
use crate::format::int::{FromInt, Int, put_exact};
use crate::format::ser::{Output, Serializer};
use crate::format::wrap;

macro_rules! serde_path {
    ($($t:ty),*) => {$(
        impl Encode for $t {}
        impl EncodeHooks for $t {}
        impl<'de> Decode<'de> for $t {}
        impl<'de> DecodeHooks<'de> for $t {}
    )*};
}

serde_path!(f32, f64, char, ());

impl Encode for bool {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        if enc.is_none_or(|e| e == Encoding::Bool) && !s.has_pending() {
            s.write_raw(&[marker::of_bool(*self)])
        } else {
            encode_serde(self, enc, s)
        }
    }
}

impl EncodeHooks for bool {
    #[inline]
    fn encode_exact(&self, enc: Option<Encoding>, out: &mut [u8], _config: Config) -> bool {
        match out {
            [b] if enc.is_none_or(|e| e == Encoding::Bool) => {
                *b = marker::of_bool(*self);
                true
            }
            _ => false,
        }
    }

    #[inline]
    fn packed_len() -> Option<usize> {
        Some(1)
    }

    #[inline]
    fn encode_packed<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
        s.write_raw(&[*self as u8])
    }
}

impl<'de> Decode<'de> for bool {
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        match d.exact_bool(enc) {
            Some(v) => Ok(v),
            None => decode_serde(enc, d),
        }
    }
}

impl<'de> DecodeHooks<'de> for bool {
    #[inline]
    fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self> {
        if enc.is_some_and(|e| e != Encoding::Bool) {
            return None;
        }
        match *bytes {
            [m] => marker::bool_of(m),
            _ => None,
        }
    }

    #[inline]
    fn decode_packed(bytes: &'de [u8], at: &mut usize) -> Option<Self> {
        let v = match *bytes.get(*at)? {
            0 => false,
            1 => true,
            _ => return None,
        };
        *at += 1;
        Some(v)
    }
}

macro_rules! ints {
    ($($t:ty => $default:ident),*) => {$(
        impl Encode for $t {}

        impl EncodeHooks for $t {
            #[inline(always)]
            fn encode_own<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
                match Encoding::$default.marker() {
                    crate::format::encoding::MarkerSpec::Exact(m) => s.write_tagged(m, self.to_be_bytes()),
                    _ if (*self as u64) <= crate::format::encoding::marker::POSITIVE_FIXINT_MAX as u64 => {
                        s.write_raw(&[*self as u8])
                    }
                    _ => self.encode(None, s),
                }
            }

            #[inline(always)]
            fn encode_exact(&self, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool {
                let e = match enc {
                    Some(e) => e,
                    None if config.widths() == Widths::Fixed => Encoding::$default,
                    None => return false,
                };
                let v = if <$t>::MIN == 0 { Int::U(*self as u64) } else { Int::I(*self as i64) };
                put_exact(e, v, out)
            }

            #[inline]
            fn packed_len() -> Option<usize> {
                (core::mem::size_of::<$t>() == 1).then_some(1)
            }

            #[inline]
            fn encode_packed<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
                s.write_raw(&[*self as u8])
            }
        }

        impl<'de> Decode<'de> for $t {
            #[inline(always)]
            fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
                match d.exact_int(enc, Encoding::$default) {
                    Some(v) => Ok(v),
                    None => decode_serde(enc, d),
                }
            }
        }

        impl<'de> DecodeHooks<'de> for $t {
            #[inline(always)]
            fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self> {
                match int_at(enc.unwrap_or(Encoding::$default), bytes)? {
                    (v, n) if n == bytes.len() => <$t as FromInt>::from_int(v),
                    _ => None,
                }
            }

            #[inline]
            fn decode_run(d: &mut Deserializer<'de>, len: usize, out: &mut Vec<Self>) -> bool {
                const W: usize = core::mem::size_of::<$t>();
                let crate::format::encoding::MarkerSpec::Exact(m) = Encoding::$default.marker() else {
                    return false;
                };
                let Some(run) = d.exact_run(m, W, len) else { return false };
                let (items, _) = run.as_chunks::<{ 1 + W }>();
                out.extend(items.iter().map(|&[_, ref value @ ..]| <$t>::from_be_bytes(*value)));
                true
            }

            #[inline]
            fn decode_packed(bytes: &'de [u8], at: &mut usize) -> Option<Self> {
                // Only the one-byte integers have a packed form.
                if core::mem::size_of::<$t>() != 1 {
                    return None;
                }
                let b = *bytes.get(*at)?;
                *at += 1;
                Some(b as $t)
            }

            #[inline]
            fn decode_packed_array<const N: usize>(bytes: &'de [u8], at: &mut usize) -> Option<[Self; N]> {
                if core::mem::size_of::<$t>() != 1 {
                    return None;
                }
                let raw: [u8; N] = bytes.get(*at..at.checked_add(N)?)?.try_into().ok()?;
                *at += N;
                Some(raw.map(|b| b as $t))
            }
        }
    )*};
}

ints!(u8 => FixInt, u16 => Uint16, u32 => Uint32, u64 => Uint64,
      i8 => Int8, i16 => Int16, i32 => Int32, i64 => Int64);

impl Encode for str {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        match s.exact_bytes(enc, Encoding::Str32, self.as_bytes()) {
            Some(r) => r,
            None => encode_serde(self, enc, s),
        }
    }
}

impl EncodeHooks for str {}

impl Encode for String {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        self.as_str().encode(enc, s)
    }
}

impl EncodeHooks for String {}

impl<'de: 'a, 'a> Decode<'de> for &'a str {
    #[inline(always)]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        let start = d.position();
        if let Some(bytes) = d.exact_bytes(enc, Encoding::Str32) {
            match core::str::from_utf8(bytes) {
                Ok(s) => return Ok(s),
                // The serde path reads it again and reports the invalid UTF-8.
                Err(_) => d.rewind(start),
            }
        }
        decode_serde(enc, d)
    }
}

impl<'de: 'a, 'a> DecodeHooks<'de> for &'a str {}

impl<'de> Decode<'de> for String {
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        <&'de str>::decode(enc, d).map(String::from)
    }
}

impl DecodeHooks<'_> for String {}

impl<'de: 'a, 'a> Decode<'de> for &'a [u8] {
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        match d.exact_bytes(enc, Encoding::Bin32) {
            Some(bytes) => Ok(bytes),
            None => decode_serde(enc, d),
        }
    }
}
impl<'de: 'a, 'a> DecodeHooks<'de> for &'a [u8] {}

impl<'de: 'a, 'a> Decode<'de> for Cow<'a, str> {}
impl<'de: 'a, 'a> DecodeHooks<'de> for Cow<'a, str> {}
impl Encode for Cow<'_, str> {}
impl EncodeHooks for Cow<'_, str> {}
impl<T: Serialize> Encode for Option<T> {}
impl<T> EncodeHooks for Option<T> {}
impl<'de, T: Deserialize<'de>> Decode<'de> for Option<T> {}
impl<T> DecodeHooks<'_> for Option<T> {}

impl<T: ?Sized> EncodeHooks for &T {}

impl<T: ?Sized + Encode> Encode for &T {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        (**self).encode(enc, s)
    }
}

impl<T: ?Sized> EncodeHooks for Box<T> {}

impl<T: ?Sized + Encode> Encode for Box<T> {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        (**self).encode(enc, s)
    }
}

impl<'de, T: Decode<'de>> Decode<'de> for Box<T> {
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        T::decode(enc, d).map(Box::new)
    }
}

impl<T> DecodeHooks<'_> for Box<T> {}

/// The array encoding a sequence of `len` elements is written under, or `None` when `enc` frames
/// it otherwise (bytes: the serde path packs the elements).
#[inline]
fn seq_encoding<O: Output>(enc: Option<Encoding>, len: usize, s: &Serializer<O>) -> Option<Encoding> {
    let e = match enc {
        Some(e) => e,
        None => match s.config().widths() {
            Widths::Fixed => Encoding::FixArray,
            Widths::Minimal => Encoding::minimal_len(Family::Array, len),
        },
    };
    (e.family() == Family::Array).then_some(e)
}

/// Writes the elements of a sequence, as serde's sequence serializer does.
#[inline]
fn encode_seq<T: Encode, O: Output>(
    items: &[T],
    enc: Option<Encoding>,
    s: &mut Serializer<O>,
) -> Result<bool> {
    let Some(e) = seq_encoding(enc, items.len(), s) else { return Ok(false) };
    s.header(e, items.len())?;
    let own = s.config().widths() == Widths::Fixed && !s.has_pending();
    for (i, item) in items.iter().enumerate() {
        let at = s.position();
        let r = if own { item.encode_own(s) } else { item.encode(None, s) };
        r.map_err(|err| err.with_offset(at).in_segment(Segment::Index(i)))?;
    }
    Ok(true)
}

impl<T: Encode> Encode for [T] {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        if encode_seq(self, enc, s)? { Ok(()) } else { encode_serde(self, enc, s) }
    }
}

impl<T> EncodeHooks for [T] {}

impl<T: Encode> Encode for Vec<T> {
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        self.as_slice().encode(enc, s)
    }
}

impl<T> EncodeHooks for Vec<T> {}

impl<T: Encode, const N: usize> Encode for [T; N]
where
    [T; N]: Serialize,
{
    #[inline]
    fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        if let Some(e) = enc
            && e.is_bytes()
        {
            return super::support::encode_bytes_framed(self, e, enc, N, s);
        }
        if encode_seq(self, enc, s)? { Ok(()) } else { encode_serde(self, enc, s) }
    }
}

impl<T: Encode, const N: usize> EncodeHooks for [T; N]
where
    [T; N]: Serialize,
{
    #[inline]
    fn packed_len() -> Option<usize> {
        T::packed_len().map(|n| n * N)
    }

    #[inline]
    fn encode_packed<O: Output>(&self, s: &mut Serializer<O>) -> Result<()> {
        self.iter().try_for_each(|x| x.encode_packed(s))
    }
}

/// Whether a sequence read under `enc` can take the direct path: an array encoding (bytes are
/// unpacked by the serde path).
#[inline]
fn direct_seq(enc: Option<Encoding>, d: &Deserializer<'_>) -> bool {
    enc.is_none_or(|e| e.family() == Family::Array) && d.config().is_strict()
}

/// Reads `len` elements with `each`, naming the failing one, inside one nesting level.
#[inline]
fn decode_elements<'de>(
    d: &mut Deserializer<'de>,
    start: usize,
    len: usize,
    mut each: impl FnMut(&mut Deserializer<'de>, usize) -> Result<()>,
) -> Result<()> {
    d.enter()?;
    for i in 0..len {
        let at = d.position();
        if let Err(e) = each(d, i) {
            return Err(e.with_offset(at).in_segment(Segment::Index(i)).with_offset(start));
        }
    }
    d.leave();
    Ok(())
}

impl<'de, T: Decode<'de>> Decode<'de> for Vec<T> {
    #[inline(always)]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        if !direct_seq(enc, d) {
            return decode_serde(enc, d);
        }
        let (start, len) =
            match d.exact_container_header(enc.unwrap_or(Encoding::FixArray), enc.is_some(), None) {
                Some(header) => header,
                None => {
                    d.set_pending(enc);
                    d.array_header(None)?
                }
            };
        // serde's own bound on a preallocation: at most 1 MiB, whatever the count claims.
        let cap = len.min(1024 * 1024 / core::mem::size_of::<T>().max(1));
        let mut out = Vec::with_capacity(cap);
        if d.enter().is_ok() {
            let run = T::decode_run(d, len, &mut out);
            d.leave();
            if run {
                return Ok(out);
            }
        }
        decode_elements(d, start, len, |d, _| {
            out.push(T::decode(None, d)?);
            Ok(())
        })?;
        Ok(out)
    }
}

impl<T> DecodeHooks<'_> for Vec<T> {}

impl<'de, T: Decode<'de> + Default, const N: usize> Decode<'de> for [T; N]
where
    [T; N]: Deserialize<'de>,
{
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
        if let Some(e) = enc
            && e.is_bytes()
        {
            return super::support::decode_bytes_framed(e, d);
        }
        if !direct_seq(enc, d) {
            return decode_serde(enc, d);
        }
        let (start, _) =
            match d.exact_container_header(enc.unwrap_or(Encoding::FixArray), enc.is_some(), Some(N)) {
                Some(header) => header,
                None => {
                    d.set_pending(enc);
                    d.array_header(Some(N))?
                }
            };
        let mut out: [T; N] = core::array::from_fn(|_| T::default());
        decode_elements(d, start, N, |d, i| {
            out[i] = T::decode(None, d)?;
            Ok(())
        })?;
        Ok(out)
    }
}

impl<'de, T: Decode<'de> + Default, const N: usize> DecodeHooks<'de> for [T; N]
where
    [T; N]: Deserialize<'de>,
{
    #[inline]
    fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self> {
        match enc {
            Some(e) if e.is_bytes() => super::support::decode_exact_framed(e, bytes),
            _ => None,
        }
    }

    #[inline]
    fn decode_packed(bytes: &'de [u8], at: &mut usize) -> Option<Self> {
        T::decode_packed_array(bytes, at)
    }
}

macro_rules! encoding_wrappers {
    ($($name:ident),*) => {$(
        impl<T: Encode> Encode for wrap::$name<T> {
            #[inline]
            fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
                self.0.encode(inside(enc, Self::ENCODING), s)
            }
        }

        impl<T> EncodeHooks for wrap::$name<T> {}

        impl<'de, T: Decode<'de>> Decode<'de> for wrap::$name<T> {
            #[inline]
            fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
                T::decode(inside(enc, Self::ENCODING), d).map(wrap::$name)
            }
        }

        impl<'de, T: Decode<'de>> DecodeHooks<'de> for wrap::$name<T> {
            #[inline]
            fn decode_exact(enc: Option<Encoding>, bytes: &'de [u8]) -> Option<Self> {
                T::decode_exact(inside(enc, Self::ENCODING), bytes).map(wrap::$name)
            }
        }
    )*};
}

encoding_wrappers!(
    FixInt, Uint8, Uint16, Uint32, Uint64, Int8, Int16, Int32, Int64, Float32, Float64, FixStr, Str32, Bin32,
    FixArray, Array16, Counted, Map16, FixExt16, Raw
);

macro_rules! mode_wrappers {
    ($($name:ident => $mode:ident),*) => {$(
        impl<T: Encode> Encode for wrap::$name<T> {
            #[inline]
            fn encode<O: Output>(&self, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
                let saved = s.switch(ModeSwitch::$mode);
                let r = self.0.encode(enc, s);
                s.restore(saved);
                r
            }
        }

        impl<T> EncodeHooks for wrap::$name<T> {}

        impl<'de, T: Decode<'de>> Decode<'de> for wrap::$name<T> {
            #[inline]
            fn decode(enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<Self> {
                let saved = d.switch(ModeSwitch::$mode);
                let r = T::decode(enc, d);
                d.restore(saved);
                r.map(wrap::$name)
            }
        }

        impl<T> DecodeHooks<'_> for wrap::$name<T> {}
    )*};
}

mode_wrappers!(Minimal => Minimal, Fixed => Fixed, AsMap => StructMap, AsArray => StructArray);
