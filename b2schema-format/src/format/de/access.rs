//! The element, entry and variant accessors serde's visitors pull values through. Each one adds
//! its segment (`shape[2]`, `typesize`, `["version"]`) to the path of an error unwinding out of
//! it.

use serde_core::de::{self, DeserializeSeed, IntoDeserializer, Visitor};

use super::deserializer::Deserializer;
use crate::format::error::{Error, Result, Segment};

/// The elements of an array, or the fields of a struct written as an array.
pub(super) struct SeqAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    len: usize,
    index: usize,
    fields: Option<&'static [&'static str]>,
    /// Where the last element read started.
    last_at: usize,
}

impl<'a, 'de> SeqAccess<'a, 'de> {
    pub(super) fn new(
        de: &'a mut Deserializer<'de>,
        len: usize,
        fields: Option<&'static [&'static str]>,
    ) -> Self {
        SeqAccess { de, len, index: 0, fields, last_at: 0 }
    }

    /// Elements the visitor did not read.
    pub(super) fn left(&self) -> usize {
        self.len - self.index
    }

    /// The struct field read last, and where it started.
    pub(super) fn last_field(&self) -> Option<(&'static str, usize)> {
        let name = self.fields?.get(self.index.checked_sub(1)?)?;
        Some((name, self.last_at))
    }
}

impl<'de> de::SeqAccess<'de> for SeqAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        let i = self.index;
        self.index += 1;
        let at = self.de.position();
        self.last_at = at;
        match seed.deserialize(&mut *self.de) {
            Ok(v) => Ok(Some(v)),
            Err(e) => Err(e.with_offset(at).in_segment(match self.fields.and_then(|f| f.get(i)) {
                Some(name) => Segment::Field(name),
                None => Segment::Index(i),
            })),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left())
    }
}

/// The entries of a map, or the fields of a struct written as a map.
pub(super) struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    len: usize,
    index: usize,
    /// Where the current key starts, to name it if its value fails.
    key_offset: usize,
    /// Where the current value starts.
    value_at: usize,
}

impl<'a, 'de> MapAccess<'a, 'de> {
    pub(super) fn new(de: &'a mut Deserializer<'de>, len: usize) -> Self {
        MapAccess { de, len, index: 0, key_offset: 0, value_at: 0 }
    }

    /// Entries the visitor did not read.
    pub(super) fn left(&self) -> usize {
        self.len - self.index
    }

    /// Where the entry read last starts (its key) and where its value starts.
    pub(super) fn last_entry(&self) -> Option<(usize, usize)> {
        (self.index > 0).then_some((self.key_offset, self.value_at))
    }

    /// The segment naming the current entry: its key if the key is a string, else its position.
    #[cold]
    fn key_segment(&self) -> Segment {
        let mut de = Deserializer::from_slice_with(
            &self.de.input[self.key_offset..],
            crate::format::config::Config::minimal(),
        );
        match <&str as de::Deserialize>::deserialize(&mut de) {
            Ok(key) => Segment::Key(key.into()),
            Err(_) => Segment::Index(self.index - 1),
        }
    }
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.index == self.len {
            return Ok(None);
        }
        self.index += 1;
        let at = self.de.position();
        self.key_offset = at;
        // A key that fails (one that names no field of a derived map struct) is named by its
        // text where it is one, at its own offset, not the struct's.
        seed.deserialize(&mut *self.de)
            .map(Some)
            .map_err(|e| e.with_offset(at).in_segment(self.key_segment()))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let at = self.de.position();
        self.value_at = at;
        seed.deserialize(&mut *self.de).map_err(|e| {
            let seg = self.key_segment();
            e.with_offset(at).in_segment(seg)
        })
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left())
    }
}

/// An enum: a string (unit variant) or a one-entry map `{variant: payload}`.
pub(super) struct EnumAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    has_data: bool,
}

impl<'a, 'de> EnumAccess<'a, 'de> {
    pub(super) fn unit(de: &'a mut Deserializer<'de>) -> Self {
        EnumAccess { de, has_data: false }
    }

    pub(super) fn with_data(de: &'a mut Deserializer<'de>) -> Self {
        EnumAccess { de, has_data: true }
    }
}

impl<'a, 'de> de::EnumAccess<'de> for EnumAccess<'a, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let v = seed.deserialize(&mut *self.de)?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for EnumAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<()> {
        if self.has_data { de::Deserialize::deserialize(&mut *self.de) } else { Ok(()) }
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        if !self.has_data {
            return Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a variant with data"));
        }
        seed.deserialize(&mut *self.de)
    }

    fn tuple_variant<V: Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value> {
        if !self.has_data {
            return Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a tuple variant"));
        }
        de::Deserializer::deserialize_tuple(&mut *self.de, len, visitor)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        if !self.has_data {
            return Err(de::Error::invalid_type(de::Unexpected::UnitVariant, &"a struct variant"));
        }
        de::Deserializer::deserialize_struct(&mut *self.de, "", fields, visitor)
    }
}

/// An ext value seen by `deserialize_any`: the sequence `(type, data)`.
pub(super) struct ExtAccess<'de> {
    ty: Option<i8>,
    data: Option<&'de [u8]>,
}

impl<'de> ExtAccess<'de> {
    pub(super) fn new(ty: i8, data: &'de [u8]) -> Self {
        ExtAccess { ty: Some(ty), data: Some(data) }
    }
}

impl<'de> de::SeqAccess<'de> for ExtAccess<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if let Some(ty) = self.ty.take() {
            return seed.deserialize(ty.into_deserializer()).map(Some);
        }
        match self.data.take() {
            Some(d) => seed.deserialize(de::value::BorrowedBytesDeserializer::new(d)).map(Some),
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.ty.is_some() as usize + self.data.is_some() as usize)
    }
}
