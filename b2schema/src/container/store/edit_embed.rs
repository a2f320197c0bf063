//! The frames a store edit writes besides the members given to it: an embed store rewritten with
//! members dropped and added, and the member that holds the store's own vlmeta
//! ([`VLMETA_KEY`](super::VLMETA_KEY)) with one vlmetalayer set or deleted.
//!
//! An embed store is rewritten whole (as python-blosc2's own "reclaimed by rewriting the store"):
//! its kept members' frames one after another, then the new ones, in the order of its map (a
//! replaced key moves to the end, as python-blosc2's `del` then `[key] =` moves it); its
//! metalayers, its other vlmetalayers (`_object_registry`, `dstore_tick`, ...) and its compression
//! parameters and chunksize as they were. python-blosc2 appends to the store in place and leaves
//! the bytes of deleted members behind; the rewrite leaves none.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::embed::{self, Embedded, METADATA};
use crate::container::error::{Error, Result};
use crate::container::frame::FrameFile;
use crate::container::limits::{Limit, Limits};
use crate::container::writer::{CParams, Frame, FrameMut};
use crate::format::value::Value;

/// The registry of TreeStore object roots (CTables) in the embed store's vlmeta.
pub(super) const OBJECT_REGISTRY: &str = "_object_registry";

/// python-blosc2's EmbedStore chunksize (`EmbedStore(chunksize=2**13)`), for a new one.
const CHUNKSIZE: usize = 1 << 13;

/// What changes in an embed store.
pub(super) struct EmbedChange<'a> {
    /// Keys whose members go (removed or replaced).
    pub drop: &'a BTreeSet<String>,
    /// Members added at the end (key, frame bytes), in order.
    pub add: &'a [(String, Vec<u8>)],
    /// Object roots at or below this key leave the registry ([`OBJECT_REGISTRY`]).
    pub prune: Option<&'a str>,
}

fn place(offset: usize, length: usize) -> Value {
    Value::Map(alloc::vec![
        (Value::from("offset"), Value::Int(offset as i128)),
        (Value::from("length"), Value::Int(length as i128)),
    ])
}

/// The bytes of the embed store `old` (none yet: a new one with metalayer `flavour`) after
/// `change`, the data read and written within `limits` (each member within
/// `max_decompressed`, all of them within `max_decompressed_total`).
pub(super) fn rewritten(
    old: Option<&FrameFile>,
    flavour: &str,
    change: &EmbedChange<'_>,
    limits: &Limits,
) -> Result<Vec<u8>> {
    let mut data = Vec::new();
    let mut map = Vec::new();
    let push = |key: &str, frame: &[u8], data: &mut Vec<u8>, map: &mut Vec<(Value, Value)>| -> Result<()> {
        let total = (data.len() + frame.len()) as u64;
        limits.require(
            "an embed store's data (its members rewritten)",
            total,
            Limit::DecompressedTotal,
            0,
        )?;
        crate::container::limits::try_reserve(data, frame.len(), "an embed store's data", 0)?;
        map.push((Value::from(key), place(data.len(), frame.len())));
        data.extend_from_slice(frame);
        Ok(())
    };
    let entries = match old {
        Some(f) => embed::entries(f)?,
        None => Vec::new(),
    };
    for (key, at) in entries {
        if change.drop.contains(&key) {
            continue;
        }
        match at {
            Embedded::Frame { offset, length } => {
                let f = old.ok_or_else(|| Error::invalid("an embed store", "one", "none", 0))?;
                let bytes = embed::bytes(f, &key, offset, length)?;
                push(&key, &bytes, &mut data, &mut map)?;
            }
            Embedded::Remote { urlbase, path } => {
                let r = Value::Map(alloc::vec![
                    (Value::from("urlbase"), Value::from(urlbase.as_str())),
                    (Value::from("path"), Value::from(path.as_str())),
                ]);
                map.push((Value::from(key.as_str()), r));
            }
        }
    }
    for (key, frame) in change.add {
        push(key, frame, &mut data, &mut map)?;
    }
    let metadata = Value::Map(alloc::vec![
        (Value::from("embed_map"), Value::Map(map)),
        (Value::from("current_offset"), Value::Int(data.len() as i128)),
    ])
    .to_msgpack()?;
    let Some(old) = old else {
        let mut f = if data.is_empty() {
            Frame::new(1)
        } else {
            crate::container::writer::schunk(&data, 1, CHUNKSIZE, CParams::default())?
        };
        f.chunksize = CHUNKSIZE as i32;
        let meta = Value::Map(alloc::vec![(Value::from("version"), Value::Int(1))]);
        f.metalayers = alloc::vec![(flavour.into(), meta.to_msgpack()?)];
        f.vlmetalayers = alloc::vec![(METADATA.into(), metadata)];
        return f.to_vec();
    };
    let view = old.view()?;
    let h = &view.header;
    let cparams = crate::container::writer::edit::header_cparams(h);
    let chunksize = usize::try_from(h.chunksize).ok().filter(|&c| c > 0).unwrap_or(CHUNKSIZE);
    let mut f = if data.is_empty() {
        Frame { cparams, ..Frame::new(1) }
    } else {
        crate::container::writer::schunk_with(&data, 1, chunksize, cparams, old.registry())?
    };
    f.chunksize = chunksize as i32;
    f.metalayers = h.metalayers.iter().map(|(n, _, c)| (String::from(n), c.to_vec())).collect();
    let mut has_map = false;
    for (name, _, _) in view.trailer.vlmetalayers.iter() {
        let value = if name == METADATA {
            has_map = true;
            metadata.clone()
        } else {
            let v = old.vlmeta_data(name)?.unwrap_or_default();
            match change.prune {
                Some(root) if name == OBJECT_REGISTRY => pruned(&v, root)?,
                _ => v,
            }
        };
        f.vlmetalayers.push((String::from(name), value));
    }
    if !has_map {
        f.vlmetalayers.push((METADATA.into(), metadata));
    }
    f.to_vec()
}

/// Whether `key` is `root` or below it.
pub(super) fn at_or_below(key: &str, root: &str) -> bool {
    key.strip_prefix(root).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

/// The registry `msgpack` without the object roots at or below `root`.
fn pruned(msgpack: &[u8], root: &str) -> Result<Vec<u8>> {
    let v = Value::from_msgpack(msgpack).map_err(|e| Error::from(e).in_field(OBJECT_REGISTRY))?;
    let Value::Map(entries) = v else {
        return Err(
            Error::invalid("an object registry: a map", "map", "another value", 0).in_field(OBJECT_REGISTRY)
        );
    };
    let kept =
        entries.into_iter().filter(|(k, _)| !k.as_str().is_some_and(|k| at_or_below(k, root))).collect();
    Ok(Value::Map(kept).to_msgpack()?)
}

/// The object roots the registry `msgpack` names.
pub(super) fn registered(msgpack: &[u8]) -> Result<Vec<String>> {
    let v = Value::from_msgpack(msgpack).map_err(|e| Error::from(e).in_field(OBJECT_REGISTRY))?;
    Ok(v.as_map().unwrap_or_default().iter().filter_map(|(k, _)| k.as_str().map(String::from)).collect())
}

/// The frame of the store's vlmeta member (`old`, or a new one as python-blosc2's
/// `blosc2.SChunk()`: typesize 1, chunksize 2^24, no chunks) with vlmetalayer `name` set to
/// `value` (msgpack), or deleted when `value` is `None`; compacted (no bytes left unused).
pub(super) fn vlmeta_frame(old: Option<Vec<u8>>, name: &str, value: Option<&[u8]>) -> Result<Vec<u8>> {
    let bytes = match old {
        Some(b) => b,
        None => Frame { chunksize: 1 << 24, ..Frame::new(1) }.to_vec()?,
    };
    let mut io = std::io::Cursor::new(bytes);
    match value {
        Some(v) => crate::container::writer::set_vlmetalayer_to(&mut io, name, v)?,
        None => crate::container::writer::delete_vlmetalayer_from(&mut io, name)?,
    }
    io.set_position(0);
    FrameMut::from_io(io).compacted()
}
