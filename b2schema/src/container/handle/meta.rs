//! A container's metadata decoded: metalayers and vlmetalayers as [`Value`]s, or one
//! vlmetalayer as any `Deserialize` type (python-blosc2's `arr.vlmeta[key]`).

use alloc::string::String;
use alloc::vec::Vec;

use super::Container;
use crate::container::error::{Error, Result};
use crate::format::config::Config;
use crate::format::value::Value;

impl Container {
    /// Every metalayer (the header's fixed-size metadata: `b2nd`, and the user's `meta`), its
    /// content decoded as msgpack, in the order of the header.
    pub fn meta(&self) -> Result<Vec<(String, Value)>> {
        let v = self.file.view().map_err(|e| self.named(e))?;
        v.header
            .metalayers
            .iter()
            .map(|(name, _, content)| {
                let value =
                    Value::from_msgpack(content).map_err(|e| self.named(in_layer("metalayers", name, e)))?;
                Ok((String::from(name), value))
            })
            .collect()
    }

    /// Every vlmetalayer (python-blosc2's `vlmeta`: the trailer's variable-length metadata),
    /// decompressed within the [`Limits`](crate::Limits) and decoded, in the order of the trailer.
    pub fn vlmeta(&self) -> Result<Vec<(String, Value)>> {
        let v = self.file.view().map_err(|e| self.named(e))?;
        let names: Vec<String> = v.trailer.vlmetalayers.iter().map(|(n, _, _)| String::from(n)).collect();
        names
            .into_iter()
            .map(|name| {
                let bytes = self.vlmeta_bytes(&name)?.unwrap_or_default();
                let value = Value::from_msgpack(&bytes)
                    .map_err(|e| self.named(in_layer("vlmetalayers", &name, e)))?;
                Ok((name, value))
            })
            .collect()
    }

    /// Metalayer `name` as a `T` (`None` when there is none): a user metalayer as python-blosc2's
    /// `arr.schunk.meta[name]` reads it (python's tuples as sequences, bytes as bytes), or a
    /// layout declared with `#[derive(B2Layout)]` and `Deserialize`.
    pub fn metalayer<T: serde_core::de::DeserializeOwned>(&self, name: &str) -> Result<Option<T>> {
        let v = self.file.view().map_err(|e| self.named(e))?;
        let Some((_, _, content)) = v.header.metalayers.iter().find(|(n, _, _)| *n == name) else {
            return Ok(None);
        };
        let value = Value::from_msgpack(content).map_err(|e| self.named(in_layer("metalayers", name, e)))?;
        let plain = value.to_plain_msgpack().map_err(|e| self.named(e.into()))?;
        crate::format::de::from_slice_with::<T>(&plain, Config::minimal())
            .map(Some)
            .map_err(|e| self.named(in_layer("metalayers", name, e)))
    }

    /// The decompressed bytes of vlmetalayer `name` (its msgpack), or `None` when there is none.
    pub fn vlmeta_bytes(&self, name: &str) -> Result<Option<Vec<u8>>> {
        self.file.vlmeta_data(name).map_err(|e| self.named(e))
    }

    /// Vlmetalayer `name` as a `T` (`None` when there is none), as python-blosc2's
    /// `arr.vlmeta[name]` reads it: python's tuples, sets and complex numbers read as sequences
    /// (a Rust tuple, a `Vec`; a complex number as `(re, im)`), bytes as bytes.
    pub fn get<T: serde_core::de::DeserializeOwned>(&self, name: &str) -> Result<Option<T>> {
        let Some(bytes) = self.vlmeta_bytes(name)? else { return Ok(None) };
        let value = Value::from_msgpack(&bytes).map_err(|e| self.named(in_layer("vlmetalayers", name, e)))?;
        let plain = value.to_plain_msgpack().map_err(|e| self.named(e.into()))?;
        crate::format::de::from_slice_with::<T>(&plain, Config::minimal())
            .map(Some)
            .map_err(|e| self.named(in_layer("vlmetalayers", name, e)))
    }
}

fn in_layer(what: &'static str, name: &str, e: impl Into<Error>) -> Error {
    e.into().in_segment(crate::format::error::Segment::Key(name.into())).in_field(what)
}
