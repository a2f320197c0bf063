//! Support for the code `#[derive(B2Layout)]` generates. Not a public API: the names and
//! signatures here change with the derive.

pub use alloc::string::String;
use alloc::string::ToString;
use core::fmt::{self, Debug, Display};
use core::marker::PhantomData;

pub use crate::format::config::{ModeSwitch, Widths};
pub use crate::format::de::Deserializer as B2Deserializer;
use crate::format::encoding::Expected;
pub use crate::format::encoding::{Encoding, Family};
pub use crate::format::error::{Error, Result as B2Result};
pub use crate::format::ser::{Output, Serializer as B2Serializer};
pub use crate::format::wrap;
pub use crate::format::wrap::{As, AsSeed};
pub use crate::schema::codec::serde_path::{decode_serde, encode_exact_with, encode_serde};
pub use crate::schema::codec::support::{
    DecodeDirect, DecodeSerde, EncodeDirect, EncodeSerde, Frame, Opened, Probe, check_failed, close,
    decode_bytes_framed, decode_exact_framed, decode_struct, encode_bytes_framed, encode_field,
    encode_struct, field_error, finish, fits, note_last, packed_encoding, resume, write_fixed,
};
pub use crate::schema::codec::traits::{Decode, DecodeHooks, Encode, EncodeHooks};
pub use crate::schema::layout::{B2Layout, B2Type, FieldLayout, FieldRef, Layout, Role, Shape};
pub use alloc::format;

/// The byte arithmetic of layouts, for the constants the derive computes.
pub mod layout {
    pub use crate::schema::layout::sizes::{
        Placed, field_value_offset, fixed_field, fixed_prefix_len, header_len, name_key_len, place, raw_len,
        sum, value_offset, width, with_len,
    };
}
pub use core;
pub use serde_core;

use serde_core::de::{self, DeserializeSeed, Deserializer, Visitor};
use serde_core::ser::{Serialize, Serializer};

/// Serializes `value` inside nested newtypes named `names` (container-level encodings and
/// modes), outermost first.
pub struct WithNames<'a, T: ?Sized>(pub &'static [&'static str], pub &'a T);

impl<T: ?Sized + Serialize> Serialize for WithNames<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0.split_first() {
            Some((name, rest)) => s.serialize_newtype_struct(name, &WithNames(rest, self.1)),
            None => self.1.serialize(s),
        }
    }
}

/// Deserializes with `seed` inside nested newtypes named `names`, outermost first.
pub fn deserialize_with_names<'de, D, S>(
    d: D,
    names: &'static [&'static str],
    seed: S,
) -> Result<S::Value, D::Error>
where
    D: Deserializer<'de>,
    S: DeserializeSeed<'de>,
{
    match names.split_first() {
        Some((name, rest)) => d.deserialize_newtype_struct(name, Names { rest, seed }),
        None => seed.deserialize(d),
    }
}

struct Names<S> {
    rest: &'static [&'static str],
    seed: S,
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Names<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a b2schema container")
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        deserialize_with_names(d, self.rest, self.seed)
    }
}

/// A byte-string constant (`magic = b"..."`) as a value of the field's type, so that it is
/// written under the field's encoding as the field's own value would be.
#[diagnostic::on_unimplemented(
    message = "`magic = b\"...\"` ({N} bytes) does not fit a field of type `{Self}`",
    label = "this constant",
    note = "a byte-string constant needs a field of type `[u8; {N}]`, `&[u8]` or `Vec<u8>`"
)]
pub trait MagicBytes<const N: usize>: Sized {
    /// The constant as a value of the field's type.
    fn magic(bytes: &'static [u8; N]) -> Self;
}

/// The byte where a field's value starts, as a type: `#[b2(offset = N)]` compiles to a constant of
/// type `ValueStartsAtByte<N>` given the value `ValueStartsAtByte::<{the layout's offset}>`, so a
/// wrong `N` is a type error that names both offsets ("expected `ValueStartsAtByte<1>`, found
/// `ValueStartsAtByte<5>`") at the attribute's tokens.
pub struct ValueStartsAtByte<const N: usize>;

/// The value offset of `field`, for the `offset = N` check; a compile-time panic with `msg` when
/// the field has none (a field before it has no fixed width).
pub const fn value_offset_or(field: &FieldLayout, msg: &'static str) -> usize {
    match field.value_offset {
        Some(o) => o,
        None => panic!("{}", msg),
    }
}

/// The integers `enc` holds, `None` for an encoding that is not an integer's.
pub const fn int_range(enc: Encoding) -> Option<(i128, i128)> {
    Some(match enc {
        Encoding::FixInt => (0, 0x7f),
        Encoding::NegFixInt => (-32, -1),
        Encoding::Uint8 => (0, u8::MAX as i128),
        Encoding::Uint16 => (0, u16::MAX as i128),
        Encoding::Uint32 => (0, u32::MAX as i128),
        Encoding::Uint64 => (0, u64::MAX as i128),
        Encoding::Int8 => (i8::MIN as i128, i8::MAX as i128),
        Encoding::Int16 => (i16::MIN as i128, i16::MAX as i128),
        Encoding::Int32 => (i32::MIN as i128, i32::MAX as i128),
        Encoding::Int64 => (i64::MIN as i128, i64::MAX as i128),
        _ => return None,
    })
}

/// The compile-time check of an integer `magic` constant: a panic with `msg` (at the constant's
/// tokens) when `value` does not fit the field's encoding `enc`.
pub const fn magic_fits(enc: Encoding, value: i128, msg: &'static str) {
    if let Some((min, max)) = int_range(enc)
        && (value < min || value > max)
    {
        panic!("{}", msg);
    }
}

/// `bytes` as a value of type `T` (the derive's `let __m: T = magic_bytes(b"...")`).
#[inline]
pub fn magic_bytes<T: MagicBytes<N>, const N: usize>(bytes: &'static [u8; N]) -> T {
    T::magic(bytes)
}

impl<const N: usize> MagicBytes<N> for [u8; N] {
    #[inline]
    fn magic(bytes: &'static [u8; N]) -> Self {
        *bytes
    }
}

impl<const N: usize> MagicBytes<N> for &[u8] {
    #[inline]
    fn magic(bytes: &'static [u8; N]) -> Self {
        bytes
    }
}

impl<const N: usize> MagicBytes<N> for alloc::vec::Vec<u8> {
    #[inline]
    fn magic(bytes: &'static [u8; N]) -> Self {
        bytes.to_vec()
    }
}

/// Converts the value of a `computed` expression to the field's type.
#[inline]
pub fn computed<T, U>(value: U, field: &'static str) -> Result<T, String>
where
    T: TryFrom<U>,
    U: Copy + Display,
{
    match T::try_from(value) {
        Ok(v) => Ok(v),
        Err(_) => Err(computed_overflow(&value, field)),
    }
}

/// The message when a computed value does not fit its field's type.
#[cold]
#[inline(never)]
fn computed_overflow(value: &dyn Display, field: &'static str) -> String {
    alloc::format!("computed value {value} of field `{field}` does not fit its type")
}

/// The message when a decoded computed field disagrees with its expression.
pub fn computed_mismatch(field: &str, found: &dyn Debug, expr: &str, expected: &dyn Debug) -> String {
    alloc::format!("field `{field}` holds {found:?} but `{expr}` gives {expected:?}")
}

/// Which field a map key names, by position in `fields` (`None`: not a field).
pub struct FieldIndex(pub &'static [&'static str]);

impl<'de> DeserializeSeed<'de> for FieldIndex {
    type Value = Option<usize>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<usize>, D::Error> {
        d.deserialize_identifier(self)
    }
}

impl<'de> Visitor<'de> for FieldIndex {
    type Value = Option<usize>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    /// A key that names no field is an error at the key (a derived map struct has exactly its
    /// fields: another key is a corrupted one, which would else surface as a missing field).
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Option<usize>, E> {
        match self.0.iter().position(|f| *f == v) {
            Some(i) => Ok(Some(i)),
            None => Err(E::unknown_field(v, self.0)),
        }
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Option<usize>, E> {
        Ok(self.0.iter().position(|f| f.as_bytes() == v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Option<usize>, E> {
        Ok(usize::try_from(v).ok().filter(|&i| i < self.0.len()))
    }
}

/// The error for a field missing from a map.
pub fn missing_field<E: de::Error>(name: &'static str) -> E {
    E::missing_field(name)
}

/// Turns any displayable message into a serde error.
pub fn custom<E: de::Error>(msg: impl Display) -> E {
    E::custom(msg.to_string())
}

/// Turns any displayable message into a serde serialization error.
pub fn ser_custom<E: serde_core::ser::Error>(msg: impl Display) -> E {
    E::custom(msg.to_string())
}

/// The field-writing half of a derived `Serialize`; the derive wraps it in the container's names.
pub trait SerializeBody {
    /// Writes the struct's fields.
    fn serialize_body<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// Serializes `T`'s body.
pub struct Body<'a, T: ?Sized>(pub &'a T);

impl<T: ?Sized + SerializeBody> Serialize for Body<'_, T> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize_body(s)
    }
}

/// The field-reading half of a derived `Deserialize`.
pub trait VisitBody<'de>: Sized {
    /// The struct's name.
    const NAME: &'static str;
    /// The field names, in order.
    const FIELDS: &'static [&'static str];
    /// Reads the fields in order.
    fn visit_seq<A: de::SeqAccess<'de>>(seq: A) -> Result<Self, A::Error>;
    /// Reads the fields by name.
    fn visit_map<A: de::MapAccess<'de>>(map: A) -> Result<Self, A::Error>;
}

/// Deserializes a `T: VisitBody` as a struct.
pub struct BodySeed<T>(pub PhantomData<T>);

impl<'de, T: VisitBody<'de>> DeserializeSeed<'de> for BodySeed<T> {
    type Value = T;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_struct(T::NAME, T::FIELDS, self)
    }
}

impl<'de, T: VisitBody<'de>> Visitor<'de> for BodySeed<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "struct {} with {} fields", T::NAME, T::FIELDS.len())
    }

    #[inline]
    fn visit_seq<A: de::SeqAccess<'de>>(self, seq: A) -> Result<T, A::Error> {
        T::visit_seq(seq)
    }

    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        T::visit_map(map)
    }
}

/// The byte length of text and byte values (for `fixstr(len = N)`).
#[diagnostic::on_unimplemented(
    message = "`fixstr(len = N)` needs text or bytes, not `{Self}`",
    label = "a field with a length",
    note = "a length applies to `&str`, `String`, `[u8; N]`, `&[u8]` or `Vec<u8>`; a packed struct or an array already has its length: write `fixstr`"
)]
pub trait ByteLen {
    /// Bytes held.
    fn byte_len(&self) -> usize;
}

impl<T: ?Sized + AsRef<[u8]>> ByteLen for T {
    fn byte_len(&self) -> usize {
        self.as_ref().len()
    }
}

/// The seed of a field that declares its byte length (`fixstr(len = N)`): `name` is
/// `LEN_MAGIC` (in `encoding`) and `N`, a newtype name that makes b2schema's decoder
/// check the counted marker against `N` before it reads the bytes. Other formats see a plain
/// newtype around the field.
pub struct LenSeed<S>(pub &'static str, pub S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for LenSeed<S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        d.deserialize_newtype_struct(self.0, SeedVisitor(self.1))
    }
}

/// Visits a newtype by handing its content to a seed.
struct SeedVisitor<S>(S);

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for SeedVisitor<S> {
    type Value = S::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field of a declared length")
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        self.0.deserialize(d)
    }
}

/// The direct decoder's check of a field that declares its byte length (`fixstr(len = N)`): the
/// marker at the reading position must be `enc`'s for `n` bytes, so that a changed marker is
/// named as such rather than read as text of another length.
#[inline]
pub fn check_len_marker(
    d: &crate::format::de::Deserializer<'_>,
    enc: Encoding,
    n: usize,
) -> crate::format::error::Result<()> {
    // At the end of the input the read reports the end.
    let Some(&found) = d.remaining_input().first() else { return Ok(()) };
    match Expected::counted_mismatch(enc, n, found) {
        Some(expected) => Err(Error::at(
            crate::format::error::ErrorKind::UnexpectedMarker { expected, found },
            d.position(),
        )),
        None => Ok(()),
    }
}

/// Checks a fixed byte length.
#[inline]
pub fn check_len(field: &str, found: usize, expected: usize) -> Result<(), String> {
    if found == expected { Ok(()) } else { Err(len_error(field, found, expected)) }
}

#[cold]
fn len_error(field: &str, found: usize, expected: usize) -> String {
    alloc::format!("field `{field}` must hold exactly {expected} bytes, it holds {found}")
}

/// Checks a byte-string constant.
#[inline]
pub fn check_bytes_magic(field: &str, found: &[u8], expected: &[u8]) -> Result<(), String> {
    if found == expected { Ok(()) } else { Err(bytes_magic_error(field, found, expected)) }
}

#[cold]
fn bytes_magic_error(field: &str, found: &[u8], expected: &[u8]) -> String {
    alloc::format!("field `{field}`: expected constant {}, found {}", escape(expected), escape(found))
}

/// Checks a constant of any comparable type.
pub fn check_magic<T: PartialEq<U> + Debug + ?Sized, U: Debug + ?Sized>(
    field: &str,
    found: &T,
    expected: &U,
) -> Result<(), String> {
    if found == expected {
        return Ok(());
    }
    Err(alloc::format!("field `{field}`: expected constant {expected:?}, found {found:?}"))
}

fn escape(bytes: &[u8]) -> String {
    let mut s = String::from("b\"");
    for &b in bytes {
        s.extend(core::ascii::escape_default(b).map(char::from));
    }
    s.push('"');
    s
}

/// Deserializes with `seed`, then runs `check` on the value, so that a failed check is reported
/// at the field's offset and path.
pub struct Checked<S, F>(pub S, pub F);

impl<'de, S, F> DeserializeSeed<'de> for Checked<S, F>
where
    S: DeserializeSeed<'de>,
    F: FnOnce(&S::Value) -> Result<(), String>,
{
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<S::Value, D::Error> {
        let v = self.0.deserialize(d)?;
        (self.1)(&v).map_err(de::Error::custom)?;
        Ok(v)
    }
}

/// A value whose computation may have failed: serializing it reports the failure where the field
/// is written.
pub struct Fallible<T>(pub Result<T, String>);

impl<T: Serialize> Serialize for Fallible<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.0 {
            Ok(v) => v.serialize(s),
            Err(msg) => Err(serde_core::ser::Error::custom(msg)),
        }
    }
}

/// A text or byte value that must hold exactly `2` bytes (`fixstr(len = N)`).
pub struct LenChecked<'a, T: ?Sized>(pub &'static str, pub &'a T, pub usize);

impl<T: ?Sized + Serialize + ByteLen> Serialize for LenChecked<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        check_len(self.0, self.1.byte_len(), self.2).map_err(serde_core::ser::Error::custom)?;
        self.1.serialize(s)
    }
}

/// The next field of a struct read as a sequence (field `index` of the struct `expecting`
/// describes): one call per field in the generated `visit_seq`, so that it grows by a line.
#[inline]
pub fn next_field<'de, A, S>(
    seq: &mut A,
    seed: S,
    index: usize,
    expecting: &str,
) -> Result<S::Value, A::Error>
where
    A: de::SeqAccess<'de>,
    S: DeserializeSeed<'de>,
{
    match seq.next_element_seed(seed)? {
        Some(v) => Ok(v),
        None => Err(de::Error::invalid_length(index, &expecting)),
    }
}

/// Reads the value of map field `name` into `slot`, refusing a second one.
#[inline]
pub fn map_field<'de, A, S>(
    map: &mut A,
    slot: &mut Option<S::Value>,
    seed: S,
    name: &'static str,
) -> Result<(), A::Error>
where
    A: de::MapAccess<'de>,
    S: DeserializeSeed<'de>,
{
    if slot.is_some() {
        return Err(de::Error::duplicate_field(name));
    }
    *slot = Some(map.next_value_seed(seed)?);
    Ok(())
}

/// The value of map field `name`, which must have been read.
#[inline]
pub fn take_field<T, E: de::Error>(slot: Option<T>, name: &'static str) -> Result<T, E> {
    match slot {
        Some(v) => Ok(v),
        None => Err(E::missing_field(name)),
    }
}
