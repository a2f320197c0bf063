//! Growing an existing contiguous frame file: appending a chunk, adding or updating a
//! vlmetalayer. Crash-safe by order: the new offsets index and trailer (and the new chunk) are
//! written after the current end of the frame first, and only then is the header patched in one
//! write. A failure before that patch leaves the old frame intact and readable (bytes after a
//! frame are allowed); nothing before the old end of the frame changes except header fields.
//!
//! The old offsets index and trailer stay in the file as unused bytes inside the chunks section
//! (counted in the header's cbytes), as c-blosc2 leaves the bytes of deleted chunks.

#![cfg(feature = "std")]

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use super::{Chunk, chunk, trailer};
use crate::container::frame::{ChunkLocation, FrameFile, FrameHeader, FrameType, special_entry};
use crate::format::error::{Error, Result};

/// Appends `chunk` to the contiguous frame file at `path`.
pub fn append_chunk(path: impl AsRef<Path>, chunk: &Chunk) -> Result<()> {
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    append_chunk_to(&mut f, chunk)
}

/// Sets vlmetalayer `name` to `value` (user bytes, compressed by [`chunk::vlmeta`]) in the
/// contiguous frame file at `path`: updated in place in the order, or added at the end.
pub fn set_vlmetalayer(path: impl AsRef<Path>, name: &str, value: &[u8]) -> Result<()> {
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    set_vlmetalayer_to(&mut f, name, value)
}

/// Deletes vlmetalayer `name` from the contiguous frame file at `path` (an error when it has
/// none of that name); the others keep their order. Crash-safe as [`set_vlmetalayer`]: the new
/// trailer is written after the old end, then the header is patched.
pub fn delete_vlmetalayer(path: impl AsRef<Path>, name: &str) -> Result<()> {
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(path)?;
    delete_vlmetalayer_from(&mut f, name)
}

/// [`delete_vlmetalayer`] on any seekable reader-writer holding just the frame.
pub fn delete_vlmetalayer_from<F: Read + Write + Seek>(f: &mut F, name: &str) -> Result<()> {
    rewrite_tail(f, None, Some((name, None)))
}

/// [`append_chunk`] on any seekable reader-writer holding just the frame.
pub fn append_chunk_to<F: Read + Write + Seek>(f: &mut F, chunk: &Chunk) -> Result<()> {
    rewrite_tail(f, Some(chunk), None)
}

/// [`set_vlmetalayer`] on any seekable reader-writer holding just the frame.
pub fn set_vlmetalayer_to<F: Read + Write + Seek>(f: &mut F, name: &str, value: &[u8]) -> Result<()> {
    if name.len() > 31 {
        return Err(Error::invalid("a vlmetalayer name of at most 31 bytes:", name, name.len(), 0));
    }
    rewrite_tail(f, None, Some((name, Some(value))))
}

fn rewrite_tail<F: Read + Write + Seek>(
    f: &mut F,
    add: Option<&Chunk>,
    vl: Option<(&str, Option<&[u8]>)>,
) -> Result<()> {
    let len = f.seek(SeekFrom::End(0))?;
    let file = FrameFile::from_reader(f, len, 0)?;
    if file.frame_type() != FrameType::Contiguous || file.frame_len() != len {
        return Err(Error::invalid(
            "a file holding exactly one contiguous frame of",
            len,
            file.frame_len(),
            16,
        )
        .in_field("frame_len"));
    }
    let v = file.view()?;
    let h = &v.header;
    let header_len = h.header_len as u64;
    let old_end = file.frame_len();

    // The current index entries, as stored.
    let mut offsets: Vec<i64> = v
        .chunk_locations()?
        .into_iter()
        .map(|l| match l {
            ChunkLocation::Offset(o) => o as i64,
            ChunkLocation::File(id) => id as i64,
            // Listed locations are never `Value`: the index has no entry for it.
            ChunkLocation::Special(k) => special_entry(k).unwrap_or(0),
        })
        .collect();
    let mut vls: Vec<(String, Vec<u8>)> =
        v.trailer.vlmetalayers.iter().map(|(n, _, c)| (String::from(n), c.to_vec())).collect();

    let mut new = h.clone();
    // Everything up to the old end becomes the chunks section (old index and trailer unused).
    let mut tail = Vec::new();
    new.cbytes = (old_end - header_len) as i64;
    if let Some(c) = add {
        c.check()?;
        let n = c.nbytes();
        if h.chunksize < 0 {
            new.chunksize =
                i32::try_from(n).map_err(|_| Error::invalid("a chunk of at most 2 GiB", "", n, 0))?;
        } else if h.chunksize > 0 {
            let cs = h.chunksize as u64;
            if n > cs || !(h.nbytes as u64).is_multiple_of(cs) {
                return Err(Error::invalid(
                    "chunks of chunksize bytes, only the last one shorter:",
                    cs,
                    alloc::format!("a chunk of {n} after {} bytes", h.nbytes),
                    58,
                ));
            }
        }
        new.nbytes = h.nbytes + n as i64;
        match c {
            Chunk::Stored(bytes) => {
                offsets.push(new.cbytes);
                new.cbytes += bytes.len() as i64;
                tail.extend_from_slice(bytes);
            }
            Chunk::Special { kind, .. } => offsets.push(Chunk::special_entry(*kind)?),
        }
    }
    if let Some((name, None)) = vl {
        let before = vls.len();
        vls.retain(|(n, _)| n != name);
        if vls.len() == before {
            return Err(
                Error::invalid("an existing vlmetalayer named", name, "none", 0).in_field("vlmetalayers")
            );
        }
    }
    if let Some((name, Some(value))) = vl {
        let c = chunk::vlmeta(value)?;
        let count = vls.len();
        match vls.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = c,
            None if count >= crate::container::frame::MAX_METALAYERS => {
                return Err(Error::invalid(
                    "at most this many vlmetalayers:",
                    crate::container::frame::MAX_METALAYERS,
                    count + 1,
                    0,
                ));
            }
            None => vls.push((name.into(), c)),
        }
        new.has_vlmetalayers = true;
    }
    if new.nbytes > 0 {
        tail.extend_from_slice(&chunk::offsets_index(&offsets)?);
    }
    let trailer = trailer(&vls)?;
    tail.extend_from_slice(&trailer);
    new.frame_len = (old_end + tail.len() as u64) as i64;
    let new_header = crate::schema::codec::encode_to_vec(&new)?;
    if new_header.len() != file.header_bytes().len() {
        return Err(Error::invalid(
            "a header of the same length",
            file.header_bytes().len(),
            new_header.len(),
            11,
        ));
    }

    // 1. The new tail after the old end: the old frame stays whole until step 2.
    f.seek(SeekFrom::Start(old_end))?;
    f.write_all(&tail)?;
    f.flush()?;
    // 2. The header fields that change (frame_len .. has_vlmetalayers), in one write.
    let (from, to) = (FrameHeader::FRAME_LEN.layout().marker_offset.unwrap_or(15), 69);
    debug_assert!(
        new_header[..from] == file.header_bytes()[..from] && new_header[to..] == file.header_bytes()[to..]
    );
    f.seek(SeekFrom::Start(from as u64))?;
    f.write_all(&new_header[from..to])?;
    f.flush()?;
    Ok(())
}
