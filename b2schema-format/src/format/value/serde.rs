//! [`Value`] as serde data, to show it in any format (`serde_json::to_string(&value)`): bytes
//! as bytes, a tuple and a set as sequences, a complex number as the pair `(re, im)`, another ext
//! value as the pair `(code, bytes)`. For its exact msgpack, use [`Value::to_msgpack`].

use serde_core::ser::{Serialize, SerializeMap, SerializeSeq, SerializeTuple, Serializer};

use super::Value;

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => s.serialize_unit(),
            Value::Bool(b) => s.serialize_bool(*b),
            Value::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
                (Ok(v), _) => s.serialize_i64(v),
                (_, Ok(v)) => s.serialize_u64(v),
                _ => s.serialize_i128(*i),
            },
            Value::F32(f) => s.serialize_f32(*f),
            Value::F64(f) => s.serialize_f64(*f),
            Value::Str(t) => s.serialize_str(t),
            Value::Bin(b) => s.serialize_bytes(b),
            Value::Array(items) | Value::Tuple(items) | Value::Set(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                items.iter().try_for_each(|v| seq.serialize_element(v))?;
                seq.end()
            }
            Value::Map(entries) => {
                let mut map = s.serialize_map(Some(entries.len()))?;
                entries.iter().try_for_each(|(k, v)| map.serialize_entry(k, v))?;
                map.end()
            }
            Value::Complex { re, im } => {
                let mut t = s.serialize_tuple(2)?;
                t.serialize_element(re)?;
                t.serialize_element(im)?;
                t.end()
            }
            Value::Ext(code, data) => {
                let mut t = s.serialize_tuple(2)?;
                t.serialize_element(code)?;
                t.serialize_element(&Bytes(data))?;
                t.end()
            }
        }
    }
}

/// Bytes serialized as bytes (not as a sequence of numbers).
struct Bytes<'a>(&'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}
