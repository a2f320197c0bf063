//! What the derive's direct encoder and decoder are made of: the struct frame, the field frame,
//! and the probes that send a field to its type's direct code, or through serde when its type
//! has none (resolved at compile time, by method lookup on `&&Probe<T>`).

use core::marker::PhantomData;

use serde_core::{Deserialize, Serialize};

use super::serde_path::{decode_serde, encode_exact_with, encode_serde};
use super::traits::{Decode, Encode};
use crate::format::config::{Config, ModeState, ModeSwitch};
use crate::format::de::{Deserializer, header_at};
use crate::format::encoding::{Encoding, Family};
use crate::format::error::{Error, Result, Segment};
use crate::format::ser::{Output, Serializer};

/// How a derived struct written as an array is framed: its header encoding, the mode its
/// fields are written in, and its field count.
#[derive(Clone, Copy)]
pub struct Frame {
    /// The array encoding of the struct (`fixarray`, `array16`; the derive builds a frame for
    /// array layouts only).
    pub encoding: Encoding,
    /// The mode switch the struct applies inside (fixed or minimal widths, structs as arrays).
    pub mode: ModeSwitch,
    /// The number of fields.
    pub len: usize,
}

impl Frame {
    /// Whether a value asked for under `enc` is this frame (else the serde path writes it).
    #[inline(always)]
    fn takes(&self, enc: Option<Encoding>) -> bool {
        enc.is_none_or(|e| e == self.encoding)
    }
}

/// Writes a derived struct: the header, then `body` in the struct's mode.
#[inline(always)]
pub fn encode_struct<T: ?Sized + Serialize, O: Output>(
    value: &T,
    enc: Option<Encoding>,
    s: &mut Serializer<O>,
    frame: Frame,
    body: impl FnOnce(&mut Serializer<O>) -> Result<()>,
) -> Result<()> {
    if !frame.takes(enc) {
        return encode_serde(value, enc, s);
    }
    let saved = s.switch(frame.mode);
    let r = match s.header(frame.encoding, frame.len) {
        Ok(()) => body(s),
        Err(e) => Err(e),
    };
    s.restore(saved);
    r
}

/// Whether `n` more bytes fit the output of `s` (the fixed fields are written in one piece only
/// when they do, so that a full output fails at the same field either way).
#[inline(always)]
pub fn fits<O: Output>(s: &Serializer<O>, n: usize) -> bool {
    s.fits(n)
}

/// Appends the fixed fields' bytes, written at their constant offsets.
#[inline(always)]
pub fn write_fixed<O: Output>(s: &mut Serializer<O>, bytes: &[u8]) -> Result<()> {
    s.write_raw(bytes)
}

/// Writes one field with `f`, naming it in an error.
#[inline(always)]
pub fn encode_field<O: Output>(
    s: &mut Serializer<O>,
    name: &'static str,
    f: impl FnOnce(&mut Serializer<O>) -> Result<()>,
) -> Result<()> {
    let at = s.position();
    f(s).map_err(|e| e.with_offset(at).in_segment(Segment::Field(name)))
}

/// A struct the direct decoder has opened: where its header starts, the configuration to
/// restore when it is left, and whether it must end the input.
#[derive(Clone, Copy)]
pub struct Opened {
    start: usize,
    saved: Config,
    whole: bool,
}

/// Reads a derived struct: the header (exactly `frame.len` fields), then `body` in the struct's
/// mode. A lenient reader takes the serde path (it accepts other shapes).
///
/// The body closes the struct itself ([`close`] before it builds the value, or [`finish`] after
/// when a check needs the built struct; [`field_error`] or [`check_failed`] on an error), so that
/// the value it builds is returned as it is, with nothing left to do here once it exists: a
/// struct's value is then not copied once per level of the frame. The struct that is the whole
/// input ([`DecodeHooks::CHECKS_END`](super::traits::DecodeHooks::CHECKS_END)) checks the end there too, so that nothing is left to do with
/// the value in `decode_from_slice` either.
#[inline(always)]
pub fn decode_struct<'de, T: Deserialize<'de>>(
    enc: Option<Encoding>,
    d: &mut Deserializer<'de>,
    frame: Frame,
    body: impl FnOnce(&mut Deserializer<'de>, Opened) -> Result<T>,
) -> Result<T> {
    let whole = d.take_whole();
    if !frame.takes(enc) || !d.config().is_strict() {
        let value = decode_serde(enc, d);
        if whole
            && value.is_ok()
            && let Err(e) = d.end()
        {
            return Err(e);
        }
        return value;
    }
    let saved = d.switch(frame.mode);
    match open(d, frame) {
        Ok(start) => body(d, Opened { start, saved, whole }),
        Err(e) => {
            d.restore(saved);
            Err(e)
        }
    }
}

/// Reads the struct's header and enters it; where the header starts.
#[inline(always)]
fn open(d: &mut Deserializer<'_>, frame: Frame) -> Result<usize> {
    let explicit = frame.encoding != Encoding::FixArray;
    let (start, _) = match d.exact_container_header(frame.encoding, explicit, Some(frame.len)) {
        Some(header) => header,
        None => {
            if explicit {
                d.set_pending(Some(frame.encoding));
            }
            d.array_header(Some(frame.len))?
        }
    };
    d.enter()?;
    Ok(start)
}

/// A struct whose fields are all read and built, checked by `check` (a computed field whose
/// expression needs the struct itself), then closed as [`close`] does.
#[inline(always)]
pub fn finish<T>(
    d: &mut Deserializer<'_>,
    opened: Opened,
    value: T,
    check: impl FnOnce(&T) -> core::result::Result<(), alloc::string::String>,
) -> Result<T> {
    if let Err(m) = check(&value) {
        return Err(check_failed(m, d, opened));
    }
    close(d, opened)?;
    Ok(value)
}

/// A struct whose fields are all read and checked (its computed fields on the locals they were
/// read into): leaves it, and checks the end of the input when the struct must be all of it.
/// The struct is built after this, once, where it is returned.
#[inline(always)]
pub fn close(d: &mut Deserializer<'_>, opened: Opened) -> Result<()> {
    d.leave();
    d.restore(opened.saved);
    if opened.whole { d.end() } else { Ok(()) }
}

/// Notes the struct's last field (`name`, read from `at`), to be named if bytes are left after
/// the struct at the top level (as the serde path does).
#[inline(always)]
pub fn note_last(d: &mut Deserializer<'_>, name: &'static str, at: usize) {
    d.note_last_field(crate::format::de::LastName::Field(name), at);
}

/// The error of a struct's check (`message`), at the struct's start, as it leaves the struct.
#[cold]
#[inline(never)]
pub fn check_failed(message: alloc::string::String, d: &mut Deserializer<'_>, opened: Opened) -> Error {
    d.restore(opened.saved);
    check_error(message, opened.start)
}

/// Moves `d` to `pos`, a position inside the struct being read: where the fields read at
/// constant offsets stop and the next field is read from the input.
#[inline(always)]
pub fn resume(d: &mut Deserializer<'_>, pos: usize) {
    d.rewind(pos);
}

/// The error of a struct's check, at the struct's start.
#[cold]
#[inline(never)]
fn check_error(message: alloc::string::String, start: usize) -> Error {
    let mut e: Error = <Error as serde_core::de::Error>::custom(message);
    e.locate(start);
    e
}

/// The error of the field `name`, read from offset `at`, as it leaves the struct `opened`.
#[cold]
#[inline(never)]
pub fn field_error(
    mut e: Error,
    at: usize,
    name: &'static str,
    d: &mut Deserializer<'_>,
    opened: Opened,
) -> Error {
    e.locate_in(at, Segment::Field(name));
    d.restore(opened.saved);
    e
}

/// Reads a value packed as bare bytes under a byte encoding `enc` (a packed struct under
/// `fixstr` or `fixext16`, a `[u8; N]` under `fixstr`), or with no framing (`raw`): the direct
/// path when the bytes are exactly a valid value, else the serde path, which reads them again
/// and reports what is wrong.
#[inline]
pub fn decode_bytes_framed<'de, T: Decode<'de>>(enc: Encoding, d: &mut Deserializer<'de>) -> Result<T> {
    let start = d.position();
    if enc == Encoding::Raw {
        if d.config().is_strict() {
            let rest = d.remaining_input();
            let mut at = 0;
            if let Some(v) = T::decode_packed(rest, &mut at) {
                d.rewind(start + at);
                return Ok(v);
            }
        }
    } else if let Some(bytes) = d.exact_bytes(Some(enc), enc) {
        if let Some(v) = packed_exactly(bytes) {
            return Ok(v);
        }
        d.rewind(start);
    }
    decode_serde(Some(enc), d)
}

/// Reads a value packed as bare bytes from `bytes`, all of its framing under the byte encoding
/// `enc` (or no framing: `raw`) and exactly one valid value: [`DecodeHooks::decode_exact`](super::traits::DecodeHooks::decode_exact) of a packed
/// struct or a `[T; N]`.
#[inline]
pub fn decode_exact_framed<'de, T: Decode<'de>>(enc: Encoding, bytes: &'de [u8]) -> Option<T> {
    let body = match enc.family() {
        Family::Raw => bytes,
        Family::Str | Family::Bin | Family::Ext => {
            let (len, head) = header_at(enc, bytes)?;
            let body = bytes.get(head..)?;
            if body.len() != len {
                return None;
            }
            body
        }
        _ => return None,
    };
    packed_exactly(body)
}

/// The value packed as exactly all of `bytes`, or `None`.
#[inline(always)]
fn packed_exactly<'de, T: Decode<'de>>(bytes: &'de [u8]) -> Option<T> {
    let mut at = 0;
    let v = T::decode_packed(bytes, &mut at)?;
    (at == bytes.len()).then_some(v)
}

/// Writes a value packed as bare bytes under the byte encoding `e` (`enc` as asked, `count`
/// the elements the serde path would state as the length): the header and the bytes in one
/// piece when they are exactly what the serde path writes and fit the output, else the serde
/// path, which writes them element by element or reports the error.
#[inline]
pub fn encode_bytes_framed<T: Encode, O: Output>(
    value: &T,
    e: Encoding,
    enc: Option<Encoding>,
    count: usize,
    s: &mut Serializer<O>,
) -> Result<()> {
    if let Some(len) = T::packed_len() {
        let direct = match e.family() {
            Family::Str | Family::Bin => {
                len == count && len as u64 <= e.max_len() && s.fits(e.marker_len() + e.prefix_len() + len)
            }
            Family::Ext => len == 17 && s.fits(18),
            Family::Raw => s.fits(len),
            _ => false,
        };
        if direct {
            match e.family() {
                Family::Str | Family::Bin => s.header(e, len)?,
                Family::Ext => s.write_raw(&[crate::format::encoding::marker::FIXEXT16])?,
                _ => {}
            }
            return value.encode_packed(s);
        }
    }
    encode_serde(value, enc, s)
}

/// The byte framing a packed struct is read under: the field's byte encoding, or bare bytes.
#[inline(always)]
pub fn packed_encoding(enc: Option<Encoding>) -> Encoding {
    super::serde_path::inside(enc, Encoding::Raw).unwrap_or(Encoding::Raw)
}

/// Selects a field type's code: `(&&Probe::<T>::new()).encode_value(...)` finds the direct
/// encoder when `T: Encode`, else serde's.
pub struct Probe<T: ?Sized>(PhantomData<T>);

impl<T: ?Sized> Probe<T> {
    /// The probe of `T`.
    #[inline(always)]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T: ?Sized> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

/// The direct encoder of `T` (found first, when `T: Encode`).
pub trait EncodeDirect<T> {
    /// Writes `value` under `enc`.
    fn encode_value<O: Output>(&self, value: &T, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()>;

    /// `T`'s length as bare bytes.
    fn packed_len(&self) -> Option<usize>;

    /// Writes `value` as bare bytes.
    fn encode_packed_value<O: Output>(&self, value: &T, s: &mut Serializer<O>) -> Result<()>;

    /// Writes `value` as exactly `out`.
    fn encode_exact_value(&self, value: &T, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool;
}

impl<T: Encode> EncodeDirect<T> for &Probe<T> {
    #[inline(always)]
    fn encode_exact_value(&self, value: &T, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool {
        value.encode_exact(enc, out, config)
    }

    #[inline(always)]
    fn encode_value<O: Output>(&self, value: &T, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        value.encode(enc, s)
    }

    #[inline(always)]
    fn packed_len(&self) -> Option<usize> {
        T::packed_len()
    }

    #[inline(always)]
    fn encode_packed_value<O: Output>(&self, value: &T, s: &mut Serializer<O>) -> Result<()> {
        value.encode_packed(s)
    }
}

/// Serde's encoder of `T` (the fallback).
pub trait EncodeSerde<T> {
    /// Writes `value` under `enc`.
    fn encode_value<O: Output>(&self, value: &T, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()>;

    /// No packed form known.
    fn packed_len(&self) -> Option<usize>;

    /// Writes `value` as bare bytes, through serde.
    fn encode_packed_value<O: Output>(&self, value: &T, s: &mut Serializer<O>) -> Result<()>;

    /// Writes `value` as exactly `out`, through serde.
    fn encode_exact_value(&self, value: &T, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool;
}

impl<T: Serialize> EncodeSerde<T> for Probe<T> {
    #[inline(always)]
    fn encode_exact_value(&self, value: &T, enc: Option<Encoding>, out: &mut [u8], config: Config) -> bool {
        encode_exact_with(out, config, |s| encode_serde(value, enc, s))
    }

    #[inline(always)]
    fn encode_value<O: Output>(&self, value: &T, enc: Option<Encoding>, s: &mut Serializer<O>) -> Result<()> {
        encode_serde(value, enc, s)
    }

    #[inline(always)]
    fn packed_len(&self) -> Option<usize> {
        None
    }

    #[inline(always)]
    fn encode_packed_value<O: Output>(&self, value: &T, s: &mut Serializer<O>) -> Result<()> {
        encode_serde(value, Some(Encoding::Raw), s)
    }
}

/// The direct decoder of `T` (found first, when `T: Decode`).
pub trait DecodeDirect<'de, T> {
    /// Reads a `T` under `enc`.
    fn decode_value(&self, enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<T>;

    /// Reads a `T` packed as bare bytes.
    fn decode_packed_value(&self, bytes: &'de [u8], at: &mut usize) -> Option<T>;

    /// Reads a `T` that is exactly `bytes`.
    fn decode_exact_value(&self, enc: Option<Encoding>, bytes: &'de [u8]) -> Option<T>;
}

impl<'de, T: Decode<'de>> DecodeDirect<'de, T> for &Probe<T> {
    #[inline(always)]
    fn decode_value(&self, enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<T> {
        T::decode(enc, d)
    }

    #[inline(always)]
    fn decode_exact_value(&self, enc: Option<Encoding>, bytes: &'de [u8]) -> Option<T> {
        T::decode_exact(enc, bytes)
    }

    #[inline(always)]
    fn decode_packed_value(&self, bytes: &'de [u8], at: &mut usize) -> Option<T> {
        T::decode_packed(bytes, at)
    }
}

/// Serde's decoder of `T` (the fallback).
pub trait DecodeSerde<'de, T> {
    /// Reads a `T` under `enc`.
    fn decode_value(&self, enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<T>;

    /// No packed form: the serde path reads it.
    fn decode_packed_value(&self, bytes: &'de [u8], at: &mut usize) -> Option<T>;

    /// No exact form: the serde path reads it.
    fn decode_exact_value(&self, enc: Option<Encoding>, bytes: &'de [u8]) -> Option<T>;
}

impl<'de, T: Deserialize<'de>> DecodeSerde<'de, T> for Probe<T> {
    #[inline(always)]
    fn decode_value(&self, enc: Option<Encoding>, d: &mut Deserializer<'de>) -> Result<T> {
        decode_serde(enc, d)
    }

    #[inline(always)]
    fn decode_packed_value(&self, _bytes: &'de [u8], _at: &mut usize) -> Option<T> {
        None
    }

    #[inline(always)]
    fn decode_exact_value(&self, _enc: Option<Encoding>, _bytes: &'de [u8]) -> Option<T> {
        None
    }
}
