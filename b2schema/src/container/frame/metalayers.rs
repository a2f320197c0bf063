//! The metalayers section: `fixarray(3)[uint16 idx, map16 {name: int32 offset}, array16 [bin32]]`.

use alloc::vec::Vec;
use core::fmt;

use serde_core::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_core::ser::{Serialize, SerializeMap, Serializer};

use crate::format::config::{ModeState, Widths};
use crate::format::encoding::{Encoding, Family, marker};
use crate::format::error::{Error, Result, Segment};
use crate::format::ser::Output;
use crate::format::wrap::{Bin32, FixStr};
use crate::schema::codec::serde_path::{decode_serde, encode_serde, inside};
use crate::schema::codec::traits::{Decode, DecodeHooks, Encode, EncodeHooks};
use crate::schema::layout::{B2Type, Shape};
use b2schema_derive::B2Layout;

/// A metalayers section. `IDX_BASE` is 7 in the frame header (the index size counts the `93`
/// marker) and 6 in the trailer (it does not): c-blosc2 computes the two differently.
#[derive(B2Layout, Debug, Clone, PartialEq)]
pub struct MetaLayers<'a, const IDX_BASE: u16> {
    /// Bytes from the section's start to the end of the name map.
    #[b2(uint16, computed = IDX_BASE as usize + self.index.entries_len())]
    pub idx: u16,
    /// Names and offsets (to the `c6` marker of each content), in insertion order.
    #[b2(map16)]
    pub index: NameOffsets<'a>,
    /// The contents, in the same order.
    #[b2(array16)]
    pub contents: Vec<Content<'a>>,
}

/// One metalayer's content: bin32 bytes, borrowed from the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Content<'a>(pub &'a [u8]);

/// Bytes serialized as bytes (not as a sequence of `u8`).
struct AsBytes<'a>(&'a [u8]);

impl Serialize for AsBytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

impl Serialize for Content<'_> {
    #[inline]
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_newtype_struct(Encoding::Bin32.magic(), &AsBytes(self.0))
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Content<'a> {
    #[inline]
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Bin32::<&'de [u8]>::deserialize(d).map(|b| Content(b.0))
    }
}

impl Encode for Content<'_> {
    #[inline]
    fn encode<O: Output>(
        &self,
        enc: Option<Encoding>,
        s: &mut crate::format::ser::Serializer<O>,
    ) -> Result<()> {
        let enc = inside(enc, Encoding::Bin32);
        match s.exact_bytes(enc, Encoding::Bin32, self.0) {
            Some(r) => r,
            None => {
                s.set_pending(enc);
                Serializer::serialize_bytes(s, self.0)
            }
        }
    }
}

impl EncodeHooks for Content<'_> {}

impl<'de: 'a, 'a> Decode<'de> for Content<'a> {
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut crate::format::de::Deserializer<'de>) -> Result<Self> {
        <&'de [u8] as Decode<'de>>::decode(inside(enc, Encoding::Bin32), d).map(Content)
    }
}

impl<'de: 'a, 'a> DecodeHooks<'de> for Content<'a> {
    /// The contents section in one pass: `len` bin32 values.
    #[inline]
    fn decode_run(d: &mut crate::format::de::Deserializer<'de>, len: usize, out: &mut Vec<Self>) -> bool {
        if !d.reads_exact() {
            return false;
        }
        let bytes = d.remaining_input();
        let mut rest = bytes;
        for _ in 0..len {
            let Some(([marker::BIN32, n @ ..], tail)) = rest.split_first_chunk::<5>() else { break };
            let Some((content, tail)) = tail.split_at_checked(u32::from_be_bytes(*n) as usize) else { break };
            out.push(Content(content));
            rest = tail;
        }
        if out.len() != len {
            out.clear();
            return false;
        }
        d.advance(bytes.len() - rest.len());
        true
    }
}

impl B2Type for Content<'_> {
    const ENCODING: Encoding = Encoding::Bin32;
    const SHAPE: Shape = Shape::Bytes(None);
}

/// An ordered map of names (fixstr) to int32 offsets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NameOffsets<'a>(pub Vec<(&'a str, i32)>);

impl NameOffsets<'_> {
    /// Bytes of the map entries: `1 + len(name) + 5` each.
    #[inline]
    pub fn entries_len(&self) -> usize {
        6 * self.0.len() + self.0.iter().map(|(name, _)| name.len()).sum::<usize>()
    }
}

impl Serialize for NameOffsets<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (name, offset) in &self.0 {
            m.serialize_entry(&FixStr(name), offset)?;
        }
        m.end()
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for NameOffsets<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NameOffsets<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map of names to offsets")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(FixStr(name)) = map.next_key::<FixStr<&'de str>>()? {
                    out.push((name, map.next_value::<i32>()?));
                }
                Ok(NameOffsets(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl Encode for NameOffsets<'_> {
    /// The entries written in a loop, as the map serializer writes them.
    fn encode<O: Output>(
        &self,
        enc: Option<Encoding>,
        s: &mut crate::format::ser::Serializer<O>,
    ) -> Result<()> {
        let len = self.0.len();
        let e = enc.unwrap_or(match s.config().widths() {
            Widths::Fixed => Encoding::Map16,
            Widths::Minimal => Encoding::minimal_len(Family::Map, len),
        });
        if e.family() != Family::Map {
            return encode_serde(self, enc, s);
        }
        s.header(e, len)?;
        // The offsets' own (fixed) encoding when nothing overrides it, as in every Blosc2 header.
        let own = s.config().widths() == Widths::Fixed && !s.has_pending();
        for (i, &(name, offset)) in self.0.iter().enumerate() {
            Encode::encode(name, Some(Encoding::FixStr), s)
                .map_err(|err| err.in_segment(Segment::Key(alloc::format!("key #{i}"))))?;
            let at = s.position();
            let r = if own {
                EncodeHooks::encode_own(&offset, s)
            } else {
                Serializer::serialize_i32(&mut *s, offset)
            };
            r.map_err(|err| err.with_offset(at).in_segment(Segment::Key(alloc::format!("#{i}"))))?;
        }
        Ok(())
    }
}

impl EncodeHooks for NameOffsets<'_> {}

impl<'de: 'a, 'a> DecodeHooks<'de> for NameOffsets<'a> {}

impl<'de: 'a, 'a> Decode<'de> for NameOffsets<'a> {
    /// The entries read in a loop, as the map deserializer reads them.
    #[inline]
    fn decode(enc: Option<Encoding>, d: &mut crate::format::de::Deserializer<'de>) -> Result<Self> {
        if !(enc.is_none_or(|e| e.family() == Family::Map) && d.config().is_strict()) {
            return decode_serde(enc, d);
        }
        let (start, len) = match d.exact_container_header(enc.unwrap_or(Encoding::Map16), enc.is_some(), None)
        {
            Some(header) => header,
            None => {
                d.set_pending(enc);
                d.map_header()?
            }
        };
        d.enter()?;
        let mut out = Vec::with_capacity(len.min(64));
        if d.reads_exact()
            && let Some(n) = exact_entries(d.remaining_input(), len, &mut out)
        {
            d.advance(n);
            d.leave();
            return Ok(NameOffsets(out));
        }
        out.clear();
        for i in 0..len {
            let name = <&'de str as Decode<'de>>::decode(Some(Encoding::FixStr), d)
                .map_err(|e| e.in_segment(Segment::Index(i)).with_offset(start))?;
            let at = d.position();
            let offset = <i32 as Decode<'de>>::decode(None, d)
                .map_err(|e| e.with_offset(at).in_segment(Segment::Key(name.into())).with_offset(start))?;
            out.push((name, offset));
        }
        d.leave();
        Ok(NameOffsets(out))
    }
}

/// `len` map entries written exactly as c-blosc2 writes them (a fixstr name, an int32 offset),
/// read in one pass into `out`; the bytes they take, or `None` at the first anything else (the
/// entry loop then reads them again and reports it).
#[inline]
fn exact_entries<'de>(bytes: &'de [u8], len: usize, out: &mut Vec<(&'de str, i32)>) -> Option<usize> {
    let mut rest = bytes;
    for _ in 0..len {
        let (&m, tail) = rest.split_first()?;
        if !Encoding::FixStr.accepts(m) {
            return None;
        }
        let (name, tail) = tail.split_at_checked((m - marker::FIXSTR) as usize)?;
        let ([marker::INT32, offset @ ..], tail) = tail.split_first_chunk::<5>()? else { return None };
        out.push((core::str::from_utf8(name).ok()?, i32::from_be_bytes(*offset)));
        rest = tail;
    }
    Some(bytes.len() - rest.len())
}

impl B2Type for NameOffsets<'_> {
    const ENCODING: Encoding = Encoding::Map16;
    const SHAPE: Shape = Shape::Variable;
}

/// Bytes of a section before its first content: `93`, `cd` + idx, `de` + count, the entries,
/// `dc` + count.
const fn values_start(entries_len: usize) -> usize {
    1 + 3 + 3 + entries_len + 3
}

impl<'a, const IDX_BASE: u16> MetaLayers<'a, IDX_BASE> {
    /// A section holding `layers` (name, content) in order, whose first byte sits `rel_start`
    /// bytes after the point its offsets count from (87 for the frame header, whose offsets count
    /// from the frame start; 2 for the trailer, whose offsets count from the trailer start).
    pub fn build(layers: &[(&'a str, &'a [u8])], rel_start: usize) -> Self {
        let entries: usize = layers.iter().map(|(n, _)| 6 + n.len()).sum();
        let mut at = rel_start + values_start(entries);
        let mut index = Vec::with_capacity(layers.len());
        let mut contents = Vec::with_capacity(layers.len());
        for &(name, content) in layers {
            index.push((name, at as i32));
            contents.push(Content(content));
            at += 5 + content.len();
        }
        let idx = (IDX_BASE as usize + entries) as u16;
        MetaLayers { idx, index: NameOffsets(index), contents }
    }

    /// The encoded length of the section.
    #[inline]
    pub fn encoded_len(&self) -> usize {
        values_start(self.index.entries_len())
            + 5 * self.contents.len()
            + self.contents.iter().map(|c| c.0.len()).sum::<usize>()
    }

    /// The layers: name, recorded offset and content, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, i32, &'a [u8])> + '_ {
        self.index.0.iter().zip(&self.contents).map(|(&(name, offset), c)| (name, offset, c.0))
    }

    /// The content of the layer named `name`.
    pub fn get(&self, name: &str) -> Option<&'a [u8]> {
        self.iter().find(|(n, _, _)| *n == name).map(|(_, _, c)| c)
    }

    /// Checks the section against the rules c-blosc2 writes by: one content per name, names
    /// unique and shorter than 32 bytes, at most `max` layers, and every offset pointing at its
    /// content's `c6` marker. `rel_start` is as in [`MetaLayers::build`]; `base` is the absolute
    /// offset of the section in the input, for error positions.
    pub fn validate(&self, rel_start: usize, base: usize, max: usize, what: &'static str) -> Result<()> {
        let n = self.index.0.len();
        if n != self.contents.len() {
            return Err(Error::invalid("contents, one per name", n, self.contents.len(), base)
                .in_field("contents")
                .in_field(what));
        }
        if n > max {
            return Err(Error::invalid("at most this many layers:", max, n, base).in_field(what));
        }
        let expected = Self::build(
            &self.index.0.iter().map(|&(n, _)| n).zip(self.contents.iter().map(|c| c.0)).collect::<Vec<_>>(),
            rel_start,
        );
        let map_start = base + 1 + 3 + 3;
        let mut entry_at = map_start;
        // Names seen so far (a set: 8192 vlmetalayers must not cost 8192^2 comparisons).
        let mut seen = alloc::collections::BTreeSet::new();
        for ((name, found), (_, want)) in self.index.0.iter().zip(&expected.index.0) {
            if name.len() > 31 {
                return Err(
                    Error::invalid("a name of at most 31 bytes", 31, name.len(), entry_at).in_field(what)
                );
            }
            if !seen.insert(*name) {
                return Err(Error::invalid("unique names, but this one repeats:", name, name, entry_at)
                    .in_field(what));
            }
            if found != want {
                return Err(Error::invalid(
                    "the offset of the content's c6 marker",
                    want,
                    found,
                    entry_at + 1 + name.len(),
                )
                .in_segment(Segment::Key((*name).into()))
                .in_field("index")
                .in_field(what));
            }
            entry_at += 6 + name.len();
        }
        Ok(())
    }
}
