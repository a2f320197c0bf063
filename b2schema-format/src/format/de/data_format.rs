//! serde's `Deserializer` trait for b2schema's [`Deserializer`]: each serde call read under
//! the encoding the Rust type implies; arrays, maps, ext values and enums through the accesses.

use serde_core::de::{self, Visitor};

use super::access::{EnumAccess, ExtAccess, MapAccess, SeqAccess};
use super::deserializer::{Deserializer, LastName, is_ext};
use super::raw::RawShape;
use crate::format::config::{Magic, ModeState, StructRepr};
use crate::format::encoding::{Encoding, Expected, Family, marker};
use crate::format::error::{Error, ErrorKind, Result};
use crate::format::int::{self, Int};

impl<'de> Deserializer<'de> {
    /// Reads an array header (strictly `fixarray(expect)` when the length is known) and visits
    /// its elements.
    fn read_array<V: Visitor<'de>>(
        &mut self,
        expect: Option<usize>,
        fields: Option<&'static [&'static str]>,
        visitor: V,
    ) -> Result<V::Value> {
        let (start, len) = self.array_header(expect)?;
        self.visit_elements(start, len, fields, visitor)
    }

    fn visit_elements<V: Visitor<'de>>(
        &mut self,
        start: usize,
        len: usize,
        fields: Option<&'static [&'static str]>,
        visitor: V,
    ) -> Result<V::Value> {
        self.enter()?;
        let mut access = SeqAccess::new(self, len, fields);
        let value = visitor.visit_seq(&mut access).map_err(|e: Error| e.with_offset(start))?;
        let left = access.left();
        if let Some((name, at)) = access.last_field() {
            self.note_last_field(LastName::Field(name), at);
        }
        self.leave();
        if left > 0 {
            return Err(Error::at(
                ErrorKind::Mismatch {
                    what: "array length",
                    expected: alloc::format!("{}", len - left),
                    found: alloc::format!("{len} elements"),
                },
                start,
            ));
        }
        Ok(value)
    }

    /// A map, or the fields of a struct (`is_struct`) written as a map.
    fn read_map<V: Visitor<'de>>(&mut self, is_struct: bool, visitor: V) -> Result<V::Value> {
        let (start, len) = self.map_header()?;
        self.enter()?;
        let mut access = MapAccess::new(self, len);
        let value = visitor.visit_map(&mut access).map_err(|e: Error| e.with_offset(start))?;
        let left = access.left();
        if is_struct && let Some((key, at)) = access.last_entry() {
            self.note_last_field(LastName::KeyAt(key), at);
        }
        self.leave();
        if left > 0 {
            return Err(Error::at(
                ErrorKind::Mismatch {
                    what: "map length",
                    expected: alloc::format!("{}", len - left),
                    found: alloc::format!("{len} entries"),
                },
                start,
            ));
        }
        Ok(value)
    }

    /// Any ext value (`fixext1..16`, `ext8..32`), visited as a `(type, bytes)` sequence.
    fn read_ext<V: Visitor<'de>>(&mut self, m: u8, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        self.pos += 1;
        let len = match m {
            marker::FIXEXT1 => 1,
            marker::FIXEXT2 => 2,
            marker::FIXEXT4 => 4,
            marker::FIXEXT8 => 8,
            marker::FIXEXT16 => 16,
            _ => {
                let n = match m {
                    marker::EXT8 => 1,
                    marker::EXT16 => 2,
                    _ => 4,
                };
                let mut be = [0u8; 4];
                be[4 - n..].copy_from_slice(self.take(n)?);
                u32::from_be_bytes(be) as usize
            }
        };
        let ty = self.take(1)?[0] as i8;
        if len > self.remaining() {
            return Err(Error::at(
                ErrorKind::LengthExceedsInput {
                    encoding: Encoding::FixExt16,
                    len: len as u64,
                    available: self.remaining(),
                },
                start,
            ));
        }
        let data = self.take(len)?;
        visitor.visit_seq(ExtAccess::new(ty, data)).map_err(|e: Error| e.with_offset(start))
    }
}

macro_rules! deserialize_int {
    ($($method:ident => $t:ty, $default:ident, $visit:ident;)*) => {$(
        #[inline]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let start = self.pos;
            let v: $t = self.read_int(Encoding::$default)?;
            visitor.$visit(v).map_err(|e: Error| e.with_offset(start))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    deserialize_int! {
        deserialize_u8 => u8, FixInt, visit_u8;
        deserialize_u16 => u16, Uint16, visit_u16;
        deserialize_u32 => u32, Uint32, visit_u32;
        deserialize_u64 => u64, Uint64, visit_u64;
        deserialize_i8 => i8, Int8, visit_i8;
        deserialize_i16 => i16, Int16, visit_i16;
        deserialize_i32 => i32, Int32, visit_i32;
        deserialize_i64 => i64, Int64, visit_i64;
    }

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if let Some(p) = self.pending {
            match p.family() {
                Family::Array => return self.deserialize_seq(visitor),
                Family::Map => return self.deserialize_map(visitor),
                Family::Str => return self.deserialize_str(visitor),
                Family::Bin | Family::Raw | Family::Ext => return self.deserialize_bytes(visitor),
                _ => {
                    let m = self.peek()?;
                    if self.config.strict && !p.accepts(m) {
                        return Err(self.unexpected(Expected::any(p), m));
                    }
                    self.pending = None;
                }
            }
        }
        let start = self.pos;
        let m = self.peek()?;
        let Some(enc) = Encoding::of_marker(m) else {
            return match m {
                marker::NEVER_USED => Err(self.unexpected(Expected::any(Encoding::Nil), m)),
                _ => self.read_ext(m, visitor),
            };
        };
        let r = match enc.family() {
            Family::Nil => {
                self.pos += 1;
                visitor.visit_unit()
            }
            Family::Bool => {
                self.pos += 1;
                visitor.visit_bool(m == marker::TRUE)
            }
            Family::Int => {
                self.pos += 1;
                let v = int::decode(enc, m, self.take(enc.value_width().unwrap_or(0))?);
                match (enc, v) {
                    (Encoding::FixInt | Encoding::Uint8, Int::U(u)) => visitor.visit_u8(u as u8),
                    (Encoding::Uint16, Int::U(u)) => visitor.visit_u16(u as u16),
                    (Encoding::Uint32, Int::U(u)) => visitor.visit_u32(u as u32),
                    (_, Int::U(u)) => visitor.visit_u64(u),
                    (Encoding::NegFixInt | Encoding::Int8, Int::I(i)) => visitor.visit_i8(i as i8),
                    (Encoding::Int16, Int::I(i)) => visitor.visit_i16(i as i16),
                    (Encoding::Int32, Int::I(i)) => visitor.visit_i32(i as i32),
                    (_, Int::I(i)) => visitor.visit_i64(i),
                }
            }
            Family::Float if enc == Encoding::Float32 => {
                let v = self.read_float(enc)?;
                visitor.visit_f32(v as f32)
            }
            Family::Float => visitor.visit_f64(self.read_float(enc)?),
            Family::Str => {
                self.pending = Some(enc);
                return self.deserialize_str(visitor);
            }
            Family::Bin => {
                self.pending = Some(enc);
                return self.deserialize_bytes(visitor);
            }
            Family::Array => {
                self.pending = Some(enc);
                return self.deserialize_seq(visitor);
            }
            Family::Map => {
                self.pending = Some(enc);
                return self.deserialize_map(visitor);
            }
            Family::Ext | Family::Raw => return self.read_ext(m, visitor),
        };
        r.map_err(|e: Error| e.with_offset(start))
    }

    #[inline]
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        if self.pending == Some(Encoding::Raw) {
            self.pending = None;
            return match self.take(1)?[0] {
                0 => visitor.visit_bool(false),
                1 => visitor.visit_bool(true),
                b => Err(Error::at(
                    ErrorKind::OutOfRange {
                        value: alloc::format!("{b}"),
                        target: "a raw bool (0 or 1)",
                        hint: None,
                    },
                    start,
                )),
            };
        }
        self.read_marker(Encoding::Bool, Family::Bool)?;
        visitor.visit_bool(self.input[start] == marker::TRUE).map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let v = self.read_float(Encoding::Float32)?;
        visitor.visit_f32(v as f32).map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let v = self.read_float(Encoding::Float64)?;
        visitor.visit_f64(v).map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let bytes = self.read_bytes(Encoding::Str32, Family::Str)?;
        let s = core::str::from_utf8(bytes).map_err(|_| Error::at(ErrorKind::InvalidUtf8, start))?;
        visitor.visit_borrowed_str(s).map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    #[inline]
    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        let bytes = self.read_bytes(Encoding::Bin32, Family::Bin)?;
        visitor.visit_borrowed_bytes(bytes).map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek()? == marker::NIL {
            self.pos += 1;
            self.pending = None;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let start = self.pos;
        self.read_marker(Encoding::Nil, Family::Nil)?;
        visitor.visit_unit().map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        self.deserialize_unit(visitor)
    }

    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, name: &'static str, visitor: V) -> Result<V::Value> {
        if let Some(n) = crate::format::encoding::declared_len(name) {
            self.expect_len = Some(n);
            let r = visitor.visit_newtype_struct(&mut *self);
            self.expect_len = None;
            return r;
        }
        match Magic::of(name) {
            Some(Magic::Encoding(enc)) => Magic::set_pending(&mut self.pending, enc),
            Some(Magic::Mode(mode)) => {
                let saved = self.switch(mode);
                let r = visitor.visit_newtype_struct(&mut *self);
                self.restore(saved);
                return r;
            }
            None => {}
        }
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.pending_bytes() {
            Some(enc) => self.read_raw(enc, RawShape::Seq, visitor),
            None => self.read_array(None, None, visitor),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        if let Some(enc) = self.pending_bytes() {
            return self.read_raw(enc, RawShape::Tuple(len), visitor);
        }
        // Lenient: an ext value reads as the pair (type, data).
        let m = self.peek()?;
        if !self.config.strict && len == 2 && self.pending.is_none() && is_ext(m) {
            return self.read_ext(m, visitor);
        }
        self.read_array(Some(len), None, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.read_map(false, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if let Some(enc) = self.pending_bytes() {
            return self.read_raw(enc, RawShape::Struct(fields), visitor);
        }
        let as_map = match self.pending {
            Some(p) => p.family() == Family::Map,
            None if self.config.strict => self.config.structs == StructRepr::Map,
            // Lenient: whichever the input holds.
            None => Encoding::of_marker(self.peek()?).is_some_and(|e| e.family() == Family::Map),
        };
        if as_map {
            self.read_map(true, visitor)
        } else {
            self.read_array(Some(fields.len()), Some(fields), visitor)
        }
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        let start = self.pos;
        let m = self.peek()?;
        match Encoding::of_marker(m).map(Encoding::family) {
            Some(Family::Str) => visitor.visit_enum(EnumAccess::unit(self)),
            Some(Family::Map) => {
                let explicit = self.pending.is_some();
                let enc = self.read_marker(Encoding::Map16, Family::Map)?;
                let len = self.read_len(enc, start, 2, explicit)?;
                if len != 1 {
                    return Err(Error::at(
                        ErrorKind::Mismatch {
                            what: "entries in an enum variant map",
                            expected: "1".into(),
                            found: alloc::format!("{len}"),
                        },
                        start,
                    ));
                }
                self.enter()?;
                let v = visitor.visit_enum(EnumAccess::with_data(self));
                self.leave();
                v
            }
            _ => Err(self.unexpected(Expected::any(Encoding::Str32), m)),
        }
        .map_err(|e: Error| e.with_offset(start))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.pending = None;
        self.deserialize_any(visitor)
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}
