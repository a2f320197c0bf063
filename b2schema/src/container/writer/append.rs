//! Growing an existing contiguous frame file: appending a chunk, adding or updating a
//! vlmetalayer. Crash-safe by order: the new offsets index and trailer (and the new chunk) are
//! written after the current end of the frame first, and only then is the header patched in one
//! write. A failure before that patch leaves the old frame intact and readable (bytes after a
//! frame are allowed); nothing before the old end of the frame changes except header fields.
//! Every step is made durable ([`FrameIo::sync`]: `sync_data` for a file) before the next, so
//! that the order holds on disk too, not only in the page cache. The functions that take a path
//! open a regular file only (a FIFO or a device is refused by what the opened handle is).
//!
//! The old offsets index and trailer stay in the file as unused bytes inside the chunks section
//! (counted in the header's cbytes), as c-blosc2 leaves the bytes of deleted chunks.
//!
//! # A torn tail is reclaimed
//!
//! An update interrupted before its header patch (killed by a file-size limit, a full disk, a
//! crash) leaves the old frame whole with the start of its new tail after it. The frame's
//! `frame_len` says where it ends: readers open the file as that frame (as c-blosc2 does, whose
//! own trailer update truncates the file to the frame's new end). The next update reclaims the
//! torn tail: it truncates the file to the frame's end, synced, before writing anything.
//!
//! The rule that tells a torn tail from bytes someone put after a frame on purpose (another
//! frame, as `open_at` reads them, or any data): the bytes after the frame must start as this
//! writer's tail starts, which is a Blosc chunk (an appended chunk, or the offsets index: a
//! chunk format version 1 to 6 as first byte, and once 32 bytes are there a chunk header
//! [`b2schema_chunk::ChunkHeader::peek`] accepts) or a trailer (`94 01 93 cd`, as many of these
//! bytes as there are). Anything else after the frame is left alone and the update refused, as a
//! frame at a nonzero offset or after other bytes is: the frame must start the file.

#![cfg(feature = "std")]

use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use alloc::string::String;
use alloc::vec::Vec;

use super::{Chunk, chunk, trailer};
use crate::container::error::{Error, Result};
use crate::container::frame::open_regular_rw;
use crate::container::frame::{ChunkLocation, FrameFile, FrameHeader, FrameType, special_entry};

/// Appends `chunk` to the contiguous frame file at `path`.
pub fn append_chunk(path: impl AsRef<Path>, chunk: &Chunk) -> Result<()> {
    append_chunk_to(&mut open_regular_rw(path.as_ref())?.0, chunk)
}

/// Sets vlmetalayer `name` to `value` (user bytes, compressed by [`chunk::vlmeta`]) in the
/// contiguous frame file at `path`: updated in place in the order, or added at the end.
pub fn set_vlmetalayer(path: impl AsRef<Path>, name: &str, value: &[u8]) -> Result<()> {
    set_vlmetalayer_to(&mut open_regular_rw(path.as_ref())?.0, name, value)
}

/// Deletes vlmetalayer `name` from the contiguous frame file at `path` (an error when it has
/// none of that name); the others keep their order. Crash-safe as [`set_vlmetalayer`]: the new
/// trailer is written after the old end, then the header is patched.
pub fn delete_vlmetalayer(path: impl AsRef<Path>, name: &str) -> Result<()> {
    delete_vlmetalayer_from(&mut open_regular_rw(path.as_ref())?.0, name)
}

/// [`delete_vlmetalayer`] on a file (or any [`FrameIo`]) that starts with the frame.
pub fn delete_vlmetalayer_from<F: FrameIo + ?Sized>(f: &mut F, name: &str) -> Result<()> {
    rewrite_tail(f, None, Some((name, None)))
}

/// [`append_chunk`] on a file (or any [`FrameIo`]) that starts with the frame.
pub fn append_chunk_to<F: FrameIo + ?Sized>(f: &mut F, chunk: &Chunk) -> Result<()> {
    rewrite_tail(f, Some(chunk), None)
}

/// [`set_vlmetalayer`] on a file (or any [`FrameIo`]) that starts with the frame.
pub fn set_vlmetalayer_to<F: FrameIo + ?Sized>(f: &mut F, name: &str, value: &[u8]) -> Result<()> {
    if name.len() > 31 {
        return Err(Error::invalid("a vlmetalayer name of at most 31 bytes:", name, name.len(), 0));
    }
    rewrite_tail(f, None, Some((name, Some(value))))
}

/// What the writer's updates need of a frame file beyond reading, writing and seeking: cutting
/// it short (a torn tail reclaimed) and making what was written durable before the next step.
///
/// The file must start with the frame. Bytes after the frame's end (its `frame_len`) are the
/// torn tail of an interrupted update, truncated away before the next update writes, when they
/// start as an update's tail starts: a Blosc chunk (first byte a chunk format version 1 to 6,
/// and once 32 bytes are there a header that [`b2schema_chunk::ChunkHeader::peek`] accepts) or a
/// trailer (`94 01 93 cd`, as many of these bytes as there are). Other bytes after the frame
/// (another frame, any data) make the update an error that changes nothing.
pub trait FrameIo: Read + Write + Seek {
    /// Truncates (or extends) the file to `len` bytes.
    fn set_len(&mut self, len: u64) -> std::io::Result<()>;

    /// Makes what was written so far durable before anything else is written (a file:
    /// `sync_data`; in memory: a flush).
    fn sync(&mut self) -> std::io::Result<()> {
        self.flush()
    }
}

impl FrameIo for std::fs::File {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        std::fs::File::set_len(self, len)
    }

    fn sync(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.sync_data()
    }
}

impl FrameIo for std::io::Cursor<Vec<u8>> {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        let len = usize::try_from(len).map_err(std::io::Error::other)?;
        self.get_mut().resize(len, 0);
        Ok(())
    }
}

impl FrameIo for std::io::Cursor<&mut Vec<u8>> {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        let len = usize::try_from(len).map_err(std::io::Error::other)?;
        self.get_mut().resize(len, 0);
        Ok(())
    }
}

impl<T: FrameIo + ?Sized> FrameIo for &mut T {
    fn set_len(&mut self, len: u64) -> std::io::Result<()> {
        (**self).set_len(len)
    }

    fn sync(&mut self) -> std::io::Result<()> {
        (**self).sync()
    }
}

/// Whether `after` (the first bytes after a frame, at least one) start as this writer's tail
/// starts: a Blosc chunk or a trailer (see the module's documentation).
pub(super) fn is_torn_tail(after: &[u8]) -> bool {
    const TRAILER_START: [u8; 4] = [0x94, 0x01, 0x93, 0xcd];
    let n = after.len().min(TRAILER_START.len());
    if after[..n] == TRAILER_START[..n] {
        return true;
    }
    let chunk_version = (1..=b2schema_chunk::VERSION_FORMAT).contains(&after[0]);
    chunk_version && (after.len() < 32 || b2schema_chunk::ChunkHeader::peek(&after[..32]).is_ok())
}

fn rewrite_tail<F: FrameIo + ?Sized>(
    f: &mut F,
    add: Option<&Chunk>,
    vl: Option<(&str, Option<&[u8]>)>,
) -> Result<()> {
    let len = f.seek(SeekFrom::End(0))?;
    let file = FrameFile::from_reader(&mut &mut *f, len, 0)?;
    if file.frame_type() != FrameType::Contiguous {
        return Err(Error::invalid("a contiguous frame", "contiguous", "a sparse frame's index", 25)
            .in_field("frame_type"));
    }
    let old_end = file.frame_len();
    if len > old_end {
        let mut after = [0u8; 32];
        let after = &mut after[..(len - old_end).min(32) as usize];
        f.seek(SeekFrom::Start(old_end))?;
        f.read_exact(after)?;
        if !is_torn_tail(after) {
            return Err(Error::invalid(
                "a file that ends with its frame (or with the torn tail of an interrupted update: \
                 a chunk or a trailer), of",
                alloc::format!("{old_end} bytes"),
                alloc::format!(
                    "{len} bytes, other data after the frame (truncate the file to {old_end} bytes to write to it)"
                ),
                old_end as usize,
            )
            .in_field("frame_len"));
        }
    }
    let v = file.view()?;
    let h = &v.header;
    let header_len = h.header_len as u64;

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
            // c-blosc2's trailer writer refuses a 17th vlmetalayer (its readers accept 8192).
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

    // 0. A torn tail of an earlier update cut off: the file is the old frame alone.
    if len > old_end {
        f.set_len(old_end)?;
        f.sync()?;
    }
    // 1. The new tail after the old end: the old frame stays whole until step 2.
    f.seek(SeekFrom::Start(old_end))?;
    f.write_all(&tail)?;
    f.sync()?;
    // 2. The header fields that change (frame_len .. has_vlmetalayers), in one write.
    let (from, to) = (FrameHeader::FRAME_LEN.layout().marker_offset.unwrap_or(15), 69);
    debug_assert!(
        new_header[..from] == file.header_bytes()[..from] && new_header[to..] == file.header_bytes()[to..]
    );
    f.seek(SeekFrom::Start(from as u64))?;
    f.write_all(&new_header[from..to])?;
    f.sync()?;
    Ok(())
}
