//! Bare bytes read back into byte-sized values: the inverse of the serializer's raw packing
//! (`FixStr<[u8; 4]>`, a struct of flag bytes inside a fixstr, the 17 bytes of a fixext16).

use serde_core::de::{self, DeserializeSeed, Visitor};

use crate::format::encoding::Encoding;
use crate::format::error::{Error, ErrorKind, Result, Segment};

/// Reads byte-sized values from `input[pos..]`. When `bounded`, `input` ends where the byte
/// encoding's length says and every byte must be read; otherwise (unframed [`Encoding::Raw`]) the
/// shape of the target decides how many bytes are read.
pub(super) struct RawDeserializer<'de> {
    input: &'de [u8],
    pos: usize,
    bounded: bool,
}

impl<'de> RawDeserializer<'de> {
    pub(super) fn new(input: &'de [u8], pos: usize, bounded: bool) -> Self {
        RawDeserializer { input, pos, bounded }
    }

    pub(super) fn position(&self) -> usize {
        self.pos
    }

    pub(super) fn visit<V: Visitor<'de>>(&mut self, shape: RawShape, visitor: V) -> Result<V::Value> {
        match shape {
            RawShape::Seq => de::Deserializer::deserialize_seq(self, visitor),
            RawShape::Tuple(n) => de::Deserializer::deserialize_tuple(self, n, visitor),
            RawShape::Struct(fields) => de::Deserializer::deserialize_struct(self, "", fields, visitor),
        }
    }

    /// Checks that every byte of a bounded window was read.
    pub(super) fn finish(&self, enc: Encoding, start: usize) -> Result<()> {
        if self.pos == self.input.len() {
            return Ok(());
        }
        let window = self.input.len() - start;
        Err(Error::at(
            ErrorKind::Mismatch {
                what: "bytes read from the",
                expected: alloc::format!("{enc} value ({window} bytes with its header)"),
                found: alloc::format!("{} left unread", self.input.len() - self.pos),
            },
            self.pos,
        ))
    }

    #[inline]
    fn next(&mut self) -> Result<u8> {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => Err(Error::at(ErrorKind::UnexpectedEof { needed: 1, available: 0 }, self.pos)),
        }
    }

    fn rest(&mut self) -> Result<&'de [u8]> {
        if !self.bounded {
            return Err(Error::at(
                ErrorKind::Unsupported(
                    "unframed raw bytes read into a type without a fixed length (use [u8; N])",
                ),
                self.pos,
            ));
        }
        let rest = &self.input[self.pos..];
        self.pos = self.input.len();
        Ok(rest)
    }

    #[cold]
    fn reject(&self, rust: &'static str) -> Error {
        Error::at(ErrorKind::IncompatibleEncoding { encoding: Encoding::Raw, rust }, self.pos)
    }
}

/// Elements of a sequence, tuple or struct inside raw bytes.
struct RawSeq<'a, 'de> {
    de: &'a mut RawDeserializer<'de>,
    /// `None`: until the window ends.
    left: Option<usize>,
    index: usize,
    fields: Option<&'static [&'static str]>,
}

impl<'de> de::SeqAccess<'de> for RawSeq<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match &mut self.left {
            Some(0) => return Ok(None),
            Some(n) => *n -= 1,
            None if self.de.pos >= self.de.input.len() => return Ok(None),
            None => {}
        }
        let i = self.index;
        self.index += 1;
        seed.deserialize(&mut *self.de).map(Some).map_err(|e| {
            e.in_segment(match self.fields.and_then(|f| f.get(i)) {
                Some(name) => Segment::Field(name),
                None => Segment::Index(i),
            })
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left.unwrap_or(self.de.input.len().saturating_sub(self.de.pos)))
    }
}

macro_rules! reject {
    ($($method:ident => $what:expr;)*) => {$(
        fn $method<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
            Err(self.reject($what))
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut RawDeserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.next()?;
        visitor.visit_u8(b)
    }

    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.next()?;
        visitor.visit_u8(b)
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let b = self.next()?;
        visitor.visit_i8(b as i8)
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let at = self.pos;
        match self.next()? {
            0 => visitor.visit_bool(false),
            1 => visitor.visit_bool(true),
            b => Err(Error::at(
                ErrorKind::OutOfRange {
                    value: alloc::format!("{b}"),
                    target: "a raw bool (0 or 1)",
                    hint: None,
                },
                at,
            )),
        }
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_bytes(self.rest()?)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let at = self.pos;
        let s = core::str::from_utf8(self.rest()?).map_err(|_| Error::at(ErrorKind::InvalidUtf8, at))?;
        visitor.visit_borrowed_str(s)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_str(visitor)
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_unit()
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if !self.bounded {
            return Err(self.reject("a sequence without a fixed length (use [u8; N])"));
        }
        visitor.visit_seq(RawSeq { de: self, left: None, index: 0, fields: None })
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        visitor.visit_seq(RawSeq { de: self, left: Some(len), index: 0, fields: None })
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        visitor.visit_seq(RawSeq { de: self, left: Some(fields.len()), index: 0, fields: Some(fields) })
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_any(visitor)
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_u8(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value> {
        Err(self.reject("an enum"))
    }

    reject! {
        deserialize_u16 => "a u16 (raw bytes hold byte-sized values only)";
        deserialize_u32 => "a u32 (raw bytes hold byte-sized values only)";
        deserialize_u64 => "a u64 (raw bytes hold byte-sized values only)";
        deserialize_i16 => "an i16 (raw bytes hold byte-sized values only)";
        deserialize_i32 => "an i32 (raw bytes hold byte-sized values only)";
        deserialize_i64 => "an i64 (raw bytes hold byte-sized values only)";
        deserialize_f32 => "a float";
        deserialize_f64 => "a float";
        deserialize_char => "a char";
        deserialize_option => "an Option";
        deserialize_map => "a map";
    }

    fn is_human_readable(&self) -> bool {
        false
    }
}

/// What a raw (bare bytes) value is read into.
#[derive(Clone, Copy)]
pub(super) enum RawShape {
    Seq,
    Tuple(usize),
    Struct(&'static [&'static str]),
}
