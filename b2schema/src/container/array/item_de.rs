//! A serde `Deserializer` over one item of a NumPy dtype: a structured item as a map of its
//! fields (or a sequence, for a tuple), strings as NumPy gives them (trailing NULs removed),
//! numbers and booleans as themselves, complex numbers as `(re, im)`, datetimes as their `i64`
//! count, subarrays as nested sequences.

use alloc::string::String;

use serde_core::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, MapAccess, SeqAccess, Visitor};

use crate::container::dtype::{ByteOrder, DType, Field, Kind, Scalar};
use crate::container::error::{Error, Result, Segment};

/// The item `bytes` (`dtype.itemsize()` of them) as a `T`.
pub(crate) fn from_item<T: de::DeserializeOwned>(bytes: &[u8], dtype: &DType) -> Result<T> {
    T::deserialize(Item { bytes, dtype })
}

/// One item of `dtype` as any `Deserialize` type, as [`ArrayReader::read_items`] gives each
/// (a structured item as a map of its fields, strings without NumPy's trailing NULs, floats of 2
/// and 4 bytes visited as `f32`, complex numbers as `(re, im)`, datetimes as their `i64` count,
/// subarrays as sequences). `item` must be exactly `dtype.itemsize()` bytes.
///
/// ```
/// use b2schema::array::decode_item;
/// use b2schema::dtype::DType;
/// let dtype = DType::parse("<f4").unwrap();
/// let v: f32 = decode_item(&0.1f32.to_le_bytes(), &dtype)?;
/// assert_eq!(v, 0.1);
/// assert!(decode_item::<f32>(&[0, 0], &dtype).is_err()); // 2 bytes for a 4-byte item
/// # Ok::<(), b2schema::Error>(())
/// ```
///
/// [`ArrayReader::read_items`]: super::ArrayReader::read_items
pub fn decode_item<T: de::DeserializeOwned>(item: &[u8], dtype: &DType) -> Result<T> {
    let size = dtype.itemsize();
    if item.len() != size {
        return Err(Error::invalid("an item of the dtype's size", size, item.len(), 0));
    }
    from_item(item, dtype)
}

struct Item<'a> {
    bytes: &'a [u8],
    dtype: &'a DType,
}

fn refuse(what: String) -> Error {
    Error::custom(what)
}

impl Item<'_> {
    fn scalar(&self) -> Option<&Scalar> {
        match self.dtype {
            DType::Scalar(s) => Some(s),
            _ => None,
        }
    }

    /// The bytes of an unsigned or signed integer of the scalar's size and order, widened.
    fn raw(&self, s: &Scalar, signed: bool) -> i128 {
        let mut b = [0u8; 16];
        let n = s.size.min(16);
        b[..n].copy_from_slice(&self.bytes[..n]);
        if s.order.resolve(ByteOrder::Little) == ByteOrder::Big {
            b[..n].reverse();
        }
        let v = u128::from_le_bytes(b);
        if signed && n > 0 && n < 16 {
            let shift = 128 - 8 * n as u32;
            ((v << shift) as i128) >> shift
        } else {
            v as i128
        }
    }

    fn float(&self, s: &Scalar, bytes: &[u8]) -> Result<f64> {
        let part = Item { bytes, dtype: self.dtype };
        let bits = part.raw(&Scalar { size: bytes.len(), ..*s }, false) as u128;
        Ok(match bytes.len() {
            2 => f16_to_f64(bits as u16),
            4 => f64::from(f32::from_bits(bits as u32)),
            8 => f64::from_bits(bits as u64),
            n => return Err(refuse(alloc::format!("a float of {n} bytes, which has no Rust type"))),
        })
    }
}

/// A binary16's value (exact in an f64).
fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f64::from(h & 0x3ff);
    sign * match exp {
        0 => frac * 2f64.powi(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + frac / 1024.0) * 2f64.powi(e - 15),
    }
}

/// Text with NumPy's trailing NULs removed: `<U` is UCS-4 (4 bytes per character), `|S` bytes.
fn unicode(bytes: &[u8], big: bool) -> Result<String> {
    let mut s = String::new();
    for c in bytes.chunks_exact(4) {
        let b: [u8; 4] = c.try_into().expect("4 bytes");
        let code = if big { u32::from_be_bytes(b) } else { u32::from_le_bytes(b) };
        s.push(char::from_u32(code).ok_or_else(|| {
            refuse(alloc::format!("a UCS-4 character, found {code:#x}, which is not a Unicode scalar value"))
        })?);
    }
    let end = s.trim_end_matches('\0').len();
    s.truncate(end);
    Ok(s)
}

fn trim_nuls(bytes: &[u8]) -> &[u8] {
    let end = bytes.iter().rposition(|&b| b != 0).map_or(0, |i| i + 1);
    &bytes[..end]
}

impl<'de> Deserializer<'de> for Item<'_> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.dtype {
            DType::Struct { fields, .. } => {
                visitor.visit_map(Fields { item: self.bytes, fields, at: 0, value: None })
            }
            DType::Subarray { base, shape } => {
                let (first, rest) = shape.split_first().expect("a subarray has a shape");
                let inner = if rest.is_empty() {
                    (**base).clone()
                } else {
                    DType::Subarray { base: base.clone(), shape: rest.to_vec() }
                };
                let size = inner.itemsize();
                visitor.visit_seq(Items { bytes: self.bytes, dtype: &inner, size, left: *first, index: 0 })
            }
            DType::Scalar(s) => {
                let big = s.order.resolve(ByteOrder::Little) == ByteOrder::Big;
                match s.kind {
                    Kind::Bool => visitor.visit_bool(self.bytes[0] != 0),
                    Kind::Int if s.size <= 8 => visitor.visit_i64(self.raw(s, true) as i64),
                    Kind::UInt if s.size <= 8 => visitor.visit_u64(self.raw(s, false) as u64),
                    Kind::DateTime { .. } | Kind::TimeDelta { .. } => {
                        visitor.visit_i64(self.raw(s, true) as i64)
                    }
                    // Floats of 2 and 4 bytes as `f32` (exact), so that a reader can tell their
                    // width (`f64` targets take them as serde widens them).
                    Kind::Float if s.size <= 4 => visitor.visit_f32(self.float(s, self.bytes)? as f32),
                    Kind::Float => visitor.visit_f64(self.float(s, self.bytes)?),
                    Kind::Complex if s.size <= 8 => {
                        let (re, im) = self.bytes.split_at(s.size / 2);
                        let pair = [self.float(s, re)? as f32, self.float(s, im)? as f32];
                        visitor.visit_seq(de::value::SeqDeserializer::new(pair.into_iter()))
                    }
                    Kind::Complex => {
                        let (re, im) = self.bytes.split_at(s.size / 2);
                        let pair = [self.float(s, re)?, self.float(s, im)?];
                        visitor.visit_seq(de::value::SeqDeserializer::new(pair.into_iter()))
                    }
                    Kind::Unicode => visitor.visit_string(unicode(self.bytes, big)?),
                    Kind::Bytes => visitor.visit_bytes(trim_nuls(self.bytes)),
                    Kind::Void => visitor.visit_bytes(self.bytes),
                    _ => Err(refuse(alloc::format!(
                        "a dtype whose items have a Rust value, not {}",
                        self.dtype.to_numpy_str()
                    ))),
                }
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_some(self)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        match self.dtype {
            // A structured item as a tuple: its fields in order.
            DType::Struct { fields, .. } => {
                visitor.visit_seq(FieldValues { item: self.bytes, fields, at: 0 })
            }
            _ => {
                let _ = len;
                self.deserialize_any(visitor)
            }
        }
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value> {
        self.deserialize_tuple(len, visitor)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.dtype {
            DType::Struct { .. } => self.deserialize_tuple(0, visitor),
            // Bytes as a sequence of numbers (`Vec<u8>`).
            DType::Scalar(Scalar { kind: Kind::Bytes, .. }) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(trim_nuls(self.bytes).iter().copied()))
            }
            DType::Scalar(Scalar { kind: Kind::Void, .. }) => {
                visitor.visit_seq(de::value::SeqDeserializer::new(self.bytes.iter().copied()))
            }
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.scalar().map(|s| s.kind) {
            // Bytes read as text when they are UTF-8 (NumPy's `|S` often holds ASCII).
            Some(Kind::Bytes) => match core::str::from_utf8(trim_nuls(self.bytes)) {
                Ok(t) => visitor.visit_str(t),
                Err(_) => Err(refuse("bytes that are UTF-8 text, for a string".into())),
            },
            _ => self.deserialize_any(visitor),
        }
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.deserialize_string(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, visitor: V) -> Result<V::Value> {
        visitor.visit_newtype_struct(self)
    }

    serde_core::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char
        bytes byte_buf unit unit_struct map struct enum identifier ignored_any
    }
}

/// A structured item's fields as map entries (name, value).
struct Fields<'a> {
    item: &'a [u8],
    fields: &'a [Field],
    at: usize,
    value: Option<&'a Field>,
}

fn field_bytes<'a>(item: &'a [u8], f: &Field) -> Result<&'a [u8]> {
    let end = f.offset.checked_add(f.dtype.itemsize()).filter(|&e| e <= item.len());
    end.map(|e| &item[f.offset..e])
        .ok_or_else(|| refuse(alloc::format!("field {:?} inside the item's {} bytes", f.name, item.len())))
}

impl<'de, 'a> MapAccess<'de> for Fields<'a> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        let Some(f) = self.fields.get(self.at) else { return Ok(None) };
        self.at += 1;
        self.value = Some(f);
        let name: de::value::StrDeserializer<'_, Error> = f.name.as_str().into_deserializer();
        seed.deserialize(name).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let f = self.value.take().expect("a key before its value");
        let bytes = field_bytes(self.item, f)?;
        seed.deserialize(Item { bytes, dtype: &f.dtype })
            .map_err(|e| e.in_segment(Segment::Key(f.name.clone())))
    }
}

/// A structured item's field values in order (a tuple).
struct FieldValues<'a> {
    item: &'a [u8],
    fields: &'a [Field],
    at: usize,
}

impl<'de> SeqAccess<'de> for FieldValues<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        let Some(f) = self.fields.get(self.at) else { return Ok(None) };
        self.at += 1;
        let bytes = field_bytes(self.item, f)?;
        seed.deserialize(Item { bytes, dtype: &f.dtype })
            .map(Some)
            .map_err(|e| e.in_segment(Segment::Key(f.name.clone())))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.fields.len() - self.at)
    }
}

/// A subarray's items.
struct Items<'a> {
    bytes: &'a [u8],
    dtype: &'a DType,
    size: usize,
    left: usize,
    index: usize,
}

impl<'de> SeqAccess<'de> for Items<'_> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.left == 0 {
            return Ok(None);
        }
        let at = self.index * self.size;
        let bytes =
            self.bytes.get(at..at + self.size).ok_or_else(|| refuse("a subarray inside its item".into()))?;
        let i = self.index;
        self.left -= 1;
        self.index += 1;
        seed.deserialize(Item { bytes, dtype: self.dtype })
            .map(Some)
            .map_err(|e| e.in_segment(Segment::Index(i)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}
