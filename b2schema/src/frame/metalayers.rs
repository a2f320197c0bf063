//! The metalayers section: `fixarray(3)[uint16 idx, map16 {name: int32 offset}, array16 [bin32]]`.

use alloc::vec::Vec;
use core::fmt;

use serde_core::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_core::ser::{Serialize, SerializeMap, Serializer};

use crate::B2Layout;
use crate::encoding::Encoding;
use crate::layout::{B2Type, Shape};
use crate::wrap::{Bin32, FixStr};

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
    pub contents: Vec<Bin32<&'a [u8]>>,
}

/// An ordered map of names (fixstr) to int32 offsets.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NameOffsets<'a>(pub Vec<(&'a str, i32)>);

impl NameOffsets<'_> {
    /// Bytes of the map entries: `1 + len(name) + 5` each.
    pub fn entries_len(&self) -> usize {
        self.0.iter().map(|(name, _)| 6 + name.len()).sum()
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

impl B2Type for NameOffsets<'_> {
    const ENCODING: Encoding = Encoding::Map16;
    const SHAPE: Shape = Shape::Variable;
}
