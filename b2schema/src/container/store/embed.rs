//! python-blosc2's EmbedStore (`.b2e`, and `embed.b2e` inside a DictStore): an SChunk of bytes
//! (typesize 1) that holds serialized frames one after another, and whose vlmetalayer
//! `estore_metadata` maps each key to where its frame lies in those bytes:
//! `{"embed_map": {key: {"offset": o, "length": n} | {"urlbase": u, "path": p}}, "current_offset": end}`.

use alloc::string::String;
use alloc::vec::Vec;

use super::key;
use crate::container::error::{Error, Result, Segment};
use crate::container::frame::FrameFile;
use crate::container::limits::{Limit, try_reserve};
use crate::format::value::Cursor;

/// The vlmetalayer that holds the map.
pub const METADATA: &str = "estore_metadata";

/// Where an embedded member is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Embedded {
    /// A frame at `offset` of the store's bytes, `length` bytes long.
    Frame {
        /// Its first byte in the store's (decompressed) bytes.
        offset: u64,
        /// Its length.
        length: u64,
    },
    /// A reference to a remote array (a Caterva2 `C2Array`): no bytes here.
    Remote {
        /// The server.
        urlbase: String,
        /// The array's path on it.
        path: String,
    },
}

fn in_map(e: Error, key: Option<&str>) -> Error {
    let e = match key {
        Some(k) => e.in_segment(Segment::Key(k.into())),
        None => e,
    };
    e.in_field("embed_map").in_field(METADATA)
}

/// The keys of the EmbedStore `frame` (checked: see [`key::check`]) with where each member is;
/// no map is no key (what python-blosc2 reads from a store it has just created).
pub fn entries(frame: &FrameFile) -> Result<Vec<(String, Embedded)>> {
    let Some(map) = frame.vlmeta_data(METADATA)? else {
        return Ok(Vec::new());
    };
    let mut c = Cursor::new(&map);
    let mut out = Vec::new();
    let top = c.map_len().map_err(|e| e.in_field(METADATA))?;
    for _ in 0..top {
        let name = c.str().map_err(|e| e.in_field(METADATA))?;
        if name != "embed_map" {
            c.skip().map_err(|e| e.in_field(METADATA))?;
            continue;
        }
        let count = c.map_len().map_err(|e| in_map(e.into(), None))?;
        frame.limits().require(
            "the keys of an embed store (counted as chunks)",
            count as u64,
            Limit::Chunks,
            c.offset(),
        )?;
        try_reserve(&mut out, count, "the keys of an embed store", c.offset())?;
        for _ in 0..count {
            let at = c.offset();
            let k = c.string().map_err(|e| in_map(e.into(), None))?;
            key::check(&k).map_err(|e| in_map(e.shift_offset(at), None))?;
            let place = place(&mut c).map_err(|e| in_map(e, Some(&k)))?;
            out.push((k, place));
        }
    }
    if !c.is_done() {
        return Err(Error::invalid("the map ending its value, at", c.offset(), map.len(), c.offset())
            .in_field(METADATA));
    }
    Ok(out)
}

/// One value of the map: `{"offset", "length"}` or `{"urlbase", "path"}`.
fn place(c: &mut Cursor<'_>) -> Result<Embedded> {
    let at = c.offset();
    let n = c.map_len()?;
    let (mut offset, mut length, mut urlbase, mut path) = (None, None, None, None);
    for _ in 0..n {
        match c.str()? {
            "offset" => offset = Some(c.uint().map_err(|e| e.in_field("offset"))?),
            "length" => length = Some(c.uint().map_err(|e| e.in_field("length"))?),
            "urlbase" => urlbase = Some(c.string().map_err(|e| e.in_field("urlbase"))?),
            "path" => path = Some(c.string().map_err(|e| e.in_field("path"))?),
            _ => c.skip()?,
        }
    }
    match (offset, length, urlbase, path) {
        (Some(offset), Some(length), _, _) => Ok(Embedded::Frame { offset, length }),
        (_, _, Some(urlbase), Some(path)) => Ok(Embedded::Remote { urlbase, path }),
        _ => Err(Error::invalid(
            "a member as {offset, length} or {urlbase, path}",
            "both keys of one",
            "neither",
            at,
        )),
    }
}

fn at_key(e: Error, name: &str, field: &'static str) -> Error {
    e.in_field(field).in_segment(Segment::Key(name.into())).in_field("embed_map").in_field(METADATA)
}

/// Checks that the member `name` at `offset`, `length` bytes long, lies inside the data of the
/// EmbedStore `frame`; returns where it ends.
pub fn check_range(frame: &FrameFile, name: &str, offset: u64, length: u64) -> Result<u64> {
    let nbytes = frame.view()?.header.nbytes.max(0) as u64;
    offset.checked_add(length).filter(|&e| e <= nbytes).ok_or_else(|| {
        at_key(
            Error::invalid(
                "a member inside the store's data (offset + length), ending by",
                nbytes,
                alloc::format!("{offset} + {length}"),
                30,
            ),
            name,
            "offset",
        )
    })
}

/// The `length` bytes at `offset` of the EmbedStore `frame`'s data (a member's frame): only
/// the chunks that hold them are read and decompressed, within the frame's budget.
pub fn bytes(frame: &FrameFile, name: &str, offset: u64, length: u64) -> Result<Vec<u8>> {
    let view = frame.view()?;
    let chunksize = view.header.chunksize.max(0) as u64;
    let at_key = |e: Error, field: &'static str| at_key(e, name, field);
    let end = check_range(frame, name, offset, length)?;
    let limits = *frame.limits();
    limits
        .require("an embedded member (its length)", length, Limit::Decompressed, 0)
        .map_err(|e| at_key(e, "length"))?;
    let mut out = Vec::new();
    try_reserve(&mut out, length as usize, "an embedded member", 0)?;
    if length == 0 {
        return Ok(out);
    }
    if chunksize == 0 {
        return Err(Error::invalid("an embed store of fixed chunksize", "> 0", view.header.chunksize, 58)
            .in_field("chunksize"));
    }
    let locations = view.chunk_locations_with_limit(limits.max_chunks())?;
    let (first, last) = (offset / chunksize, (end - 1) / chunksize);
    for i in first..=last {
        let loc = *locations.get(i as usize).ok_or_else(|| {
            Error::invalid("a chunk for the member's bytes, chunks", locations.len(), i, 0)
                .in_field("chunk_index")
        })?;
        let info = frame.chunk_info(i as usize, loc)?;
        let data = frame.chunk_data(&info, chunksize as usize)?;
        let is_last = i as usize + 1 == locations.len();
        if !is_last && data.len() as u64 != chunksize {
            return Err(Error::invalid(
                "a chunk of chunksize bytes before the last",
                chunksize,
                data.len(),
                0,
            )
            .in_segment(Segment::Index(i as usize))
            .in_field("chunks"));
        }
        let start = i * chunksize;
        let from = offset.saturating_sub(start) as usize;
        let to = (end - start).min(data.len() as u64) as usize;
        let part = data.get(from..to).filter(|p| !p.is_empty()).ok_or_else(|| {
            at_key(
                Error::invalid(
                    "member bytes inside chunk",
                    i,
                    alloc::format!("{from}..{to} of {}", data.len()),
                    0,
                ),
                "offset",
            )
        })?;
        out.extend_from_slice(part);
    }
    if out.len() as u64 != length {
        return Err(at_key(Error::invalid("a member of its length", length, out.len(), 0), "length"));
    }
    Ok(out)
}
