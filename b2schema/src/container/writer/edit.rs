//! Changing the chunks of an existing frame, contiguous or sparse, as c-blosc2's
//! `frame_update_chunk`, `frame_insert_chunk`, `frame_delete_chunk` and `frame_append_chunk`
//! keep its offsets index and header: special chunks (zeros, NaN, uninit) become index entries
//! without bytes, a sparse frame's new chunks get ids past the largest one in use, `nbytes` is
//! the sum of the chunks' `nbytes`.
//!
//! # One switch
//!
//! Every change ([`FrameMut::edit`], any number of operations) is new bytes first, then one
//! switch, so that a reader opens the old frame or the new one, never a mix:
//!
//! - contiguous: the new chunks, the new offsets index and the trailer are written after the
//!   frame's current end and synced (the old frame is still whole: bytes after a frame are
//!   allowed); then the header is patched in one write (`frame_len` .. `has_vlmetalayers`, and
//!   the `b2nd` metalayer when the shape changes, all in the first bytes of the file) and
//!   synced. A torn tail left by a failure is cut off by the next change (see
//!   [`append_chunk`](super::append_chunk)).
//! - sparse: the new chunks go to new `%08X.chunk` files (never over a file the index names),
//!   synced; the new index file is written beside the old one, synced, renamed onto it and the
//!   directory synced; only then are the chunk files the new index no longer names removed.
//!
//! # Syncs
//!
//! Each step above is synced before the next (`sync_data`, and the directory for a rename), so
//! the order holds on disk: after a crash of the machine the frame is the old or the new one.
//! [`FrameMut::set_synced`]`(false)` leaves the syncs out, as c-blosc2 (and so python-blosc2)
//! never syncs: the steps still happen in the same order, so a reader, and a process killed at
//! any step, see the old frame or the new one (the page cache keeps the writes made), but after
//! a power loss or a crash of the system a change may be lost or the frame torn. Made for
//! loops that append often and can redo their last changes (a sync can take milliseconds).
//!
//! # Space
//!
//! c-blosc2 writes a contiguous frame's updated chunk over the old one when it fits, which a
//! failure halfway leaves torn. Here a replaced chunk's bytes, the old index and the old trailer
//! stay in the file as unused bytes inside the chunks section (as c-blosc2 leaves deleted
//! chunks): the frame grows by what each change writes. [`FrameMut::compact`] rewrites the
//! frame without them (a new file renamed onto the old one).
//!
//! # Concurrency
//!
//! A [`FrameMut`] opened from a path holds an advisory exclusive lock (`flock`) on the frame
//! file (a sparse frame's directory) while it lives; a second writer is refused. Readers take
//! no lock: they see the old or the new frame by the order above.

#![cfg(feature = "std")]

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::append::{FrameIo, is_torn_tail};
use super::replace::lock;
use super::{CParams, Chunk, chunk, trailer};
use crate::container::error::{Error, Result};
use crate::container::frame::{
    ChunkLocation, FrameFile, FrameHeader, FrameType, SPARSE_INDEX, SpecialValue, open_regular_rw,
    special_entry,
};

/// Where the frame is.
enum Target<F> {
    /// A contiguous frame at the start of `F`.
    Io(F),
    /// A sparse frame's directory.
    Sparse(PathBuf),
}

/// Injected failures (tests): the operation number at which a write, sync, rename or removal
/// fails; a failing write writes half its bytes first.
#[derive(Clone, Copy, Debug, Default)]
struct Faults {
    left: Option<u32>,
}

impl Faults {
    fn step(&mut self) -> std::io::Result<()> {
        match &mut self.left {
            Some(0) => Err(std::io::Error::other("an injected failure")),
            Some(n) => {
                *n -= 1;
                Ok(())
            }
            None => Ok(()),
        }
    }

    fn write<W: Write + ?Sized>(&mut self, w: &mut W, bytes: &[u8]) -> std::io::Result<()> {
        if self.left == Some(0) {
            w.write_all(&bytes[..bytes.len() / 2])?;
            return self.step();
        }
        self.step()?;
        w.write_all(bytes)
    }
}

/// A frame opened for changes (see the [module](crate::writer) documentation): contiguous (a file, or
/// any [`FrameIo`] that starts with the frame) or sparse (a directory).
pub struct FrameMut<F: FrameIo = File> {
    target: Target<F>,
    faults: Faults,
    /// Whether each step of a change is synced (see the module's documentation).
    synced: bool,
    /// The threads that compress a change's chunks (their blocks).
    threads: usize,
    _lock: Option<File>,
}

/// The threads a [`FrameMut`] compresses with unless told: the machine's cores, as
/// python-blosc2's default `nthreads`.
fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The changes of one [`FrameMut::edit`], applied by one switch when the closure returns `Ok`.
#[derive(Debug)]
pub struct Edit {
    sparse: bool,
    entries: Vec<i64>,
    sizes: Vec<u64>,
    chunksize: i32,
    variable: bool,
    /// Contiguous: where the next new chunk goes (from the end of the header); sparse: its id.
    next: i64,
    /// New stored chunks by index entry.
    pending: BTreeMap<i64, Vec<u8>>,
    header: Vec<u8>,
    header_len: u64,
    old_end: u64,
    file_len: u64,
    cbytes: i64,
    typesize: usize,
    blocksize: usize,
    cparams: CParams,
    /// The `b2nd` metalayer's content: where it starts in the header, the bytes.
    b2nd: Option<(usize, Vec<u8>)>,
    new_b2nd: Option<Vec<u8>>,
    vl_chunks: Vec<(String, Vec<u8>)>,
}

fn out_of_range(what: &'static str, n: usize, nchunks: usize) -> Error {
    Error::invalid(what, alloc::format!("below {nchunks}"), n, 0).in_field("nchunk")
}

impl Edit {
    /// Chunks in the frame as edited so far.
    pub fn nchunks(&self) -> usize {
        self.entries.len()
    }

    /// The uncompressed size of chunk `n`.
    pub fn chunk_nbytes(&self, n: usize) -> Option<u64> {
        self.sizes.get(n).copied()
    }

    /// The frame's compression parameters (from its header), which new chunks are made with;
    /// `nthreads` is the handle's ([`FrameMut::set_threads`]), not the header's record of the
    /// writer's (which c-blosc2 never reads back either).
    pub fn cparams(&self) -> CParams {
        self.cparams
    }

    /// Items' size (the header's typesize).
    pub fn typesize(&self) -> usize {
        self.typesize
    }

    /// The header's chunksize, when the frame has one (fixed-size chunks).
    pub fn chunksize(&self) -> Option<usize> {
        usize::try_from(self.chunksize).ok().filter(|_| !self.variable)
    }

    /// The header's blocksize (0: automatic).
    pub fn blocksize(&self) -> usize {
        self.blocksize
    }

    /// The content of the `b2nd` metalayer as edited so far.
    pub fn b2nd(&self) -> Option<&[u8]> {
        self.new_b2nd.as_deref().or(self.b2nd.as_ref().map(|(_, c)| c.as_slice()))
    }

    /// Replaces the `b2nd` metalayer's content by `content` of the same length (a new shape).
    pub fn set_b2nd(&mut self, content: Vec<u8>) -> Result<()> {
        let Some((_, old)) = &self.b2nd else {
            return Err(
                Error::invalid("a frame with a b2nd metalayer", "b2nd", "none", 0).in_field("metalayers")
            );
        };
        if old.len() != content.len() {
            return Err(Error::invalid("a b2nd metalayer of the same length,", old.len(), content.len(), 0)
                .in_field("metalayers"));
        }
        self.new_b2nd = Some(content);
        Ok(())
    }

    fn put(&mut self, c: &Chunk) -> Result<(i64, u64)> {
        c.check()?;
        let n = c.nbytes();
        let entry = match c {
            Chunk::Stored(bytes) => {
                let e = self.next;
                self.next = if self.sparse {
                    e.checked_add(1).filter(|&i| i <= u32::MAX as i64)
                } else {
                    e.checked_add(bytes.len() as i64)
                }
                .ok_or_else(|| Error::invalid("room for another chunk", "", "an overflow", 0))?;
                self.pending.insert(e, bytes.clone());
                e
            }
            Chunk::Special { kind, .. } => Chunk::special_entry(*kind)?,
        };
        Ok((entry, n))
    }

    /// Replaces chunk `n` by `chunk`.
    pub fn update_chunk(&mut self, n: usize, chunk: &Chunk) -> Result<()> {
        if n >= self.entries.len() {
            return Err(out_of_range("an existing chunk", n, self.entries.len()));
        }
        let (e, size) = self.put(chunk)?;
        self.entries[n] = e;
        self.sizes[n] = size;
        Ok(())
    }

    /// Inserts `chunk` before chunk `n` (`n` = nchunks appends).
    pub fn insert_chunk(&mut self, n: usize, chunk: &Chunk) -> Result<()> {
        if n > self.entries.len() {
            return Err(out_of_range("a place for a chunk", n, self.entries.len() + 1));
        }
        let (e, size) = self.put(chunk)?;
        self.entries.insert(n, e);
        self.sizes.insert(n, size);
        Ok(())
    }

    /// Appends `chunk` after the last chunk.
    pub fn append_chunk(&mut self, chunk: &Chunk) -> Result<()> {
        self.insert_chunk(self.entries.len(), chunk)
    }

    /// Deletes chunk `n`.
    pub fn delete_chunk(&mut self, n: usize) -> Result<()> {
        if n >= self.entries.len() {
            return Err(out_of_range("an existing chunk", n, self.entries.len()));
        }
        self.entries.remove(n);
        self.sizes.remove(n);
        Ok(())
    }

    /// Sets the whole list of chunks to `entries` of the current ones (`Some(i)`: chunk `i` as
    /// it is) and special chunks (`None`: zeros of `chunksize`), as a resize reorders them.
    pub(crate) fn rearrange(&mut self, from: &[Option<usize>]) -> Result<()> {
        let zeros = Chunk::special_entry(SpecialValue::Zeros)?;
        let cs = self.chunksize.max(0) as u64;
        let mut entries = Vec::new();
        let mut sizes = Vec::new();
        crate::container::limits::try_reserve(&mut entries, from.len(), "the chunk list", 0)?;
        crate::container::limits::try_reserve(&mut sizes, from.len(), "the chunk list", 0)?;
        for f in from {
            match f {
                Some(i) => {
                    let (e, s) = self
                        .entries
                        .get(*i)
                        .zip(self.sizes.get(*i))
                        .ok_or_else(|| out_of_range("an existing chunk", *i, self.entries.len()))?;
                    entries.push(*e);
                    sizes.push(*s);
                }
                None => {
                    entries.push(zeros);
                    sizes.push(cs);
                }
            }
        }
        self.entries = entries;
        self.sizes = sizes;
        Ok(())
    }

    /// The index entry of chunk `n`.
    pub(crate) fn entry(&self, n: usize) -> Option<i64> {
        self.entries.get(n).copied()
    }

    /// The new header's totals and chunksize, checked against the chunks' sizes.
    fn totals(&self) -> Result<(i64, i32)> {
        let nbytes = self.sizes.iter().try_fold(0i64, |a, &s| a.checked_add(i64::try_from(s).ok()?));
        let nbytes = nbytes.ok_or_else(|| Error::invalid("a frame of at most 2^63 bytes", "", "more", 0))?;
        if self.variable {
            return Ok((nbytes, self.chunksize));
        }
        let mut chunksize = self.chunksize;
        if chunksize < 0
            && let Some(&first) = self.sizes.first()
        {
            chunksize =
                i32::try_from(first).map_err(|_| Error::invalid("a chunk of at most 2 GiB", "", first, 0))?;
        }
        let cs = chunksize.max(0) as u64;
        let last = self.sizes.len().saturating_sub(1);
        for (i, &s) in self.sizes.iter().enumerate() {
            if s > cs || (i < last && s != cs) {
                return Err(Error::invalid(
                    "chunks of chunksize bytes, only the last one shorter:",
                    cs,
                    alloc::format!("chunk {i} of {s} bytes among {}", self.sizes.len()),
                    58,
                )
                .in_field("chunks"));
            }
        }
        Ok((nbytes, chunksize))
    }
}

/// Whether an index entry names stored bytes.
fn is_stored(entry: i64) -> bool {
    entry >= 0
}

pub(crate) fn header_cparams(h: &FrameHeader<'_>) -> CParams {
    let p = &h.filter_pipeline;
    CParams {
        codec: h.codec(),
        codec_meta: p.codec_meta,
        clevel: h.flags.clevel(),
        filters: p.filters(),
        filters_meta: p.filters_meta,
        splitmode: h.flags.splitmode(),
        use_dict: p.use_dict(),
        nthreads: h.nthreads_comp,
    }
}

/// The edit state of the frame `file` (its metadata read).
fn load(file: &FrameFile, file_len: u64) -> Result<Edit> {
    let v = file.view()?;
    let h = &v.header;
    let sparse = file.frame_type() == FrameType::Sparse;
    let locs = v.chunk_locations()?;
    let mut entries = Vec::new();
    crate::container::limits::try_reserve(&mut entries, locs.len(), "the chunk list", 0)?;
    let mut next = 0i64;
    for l in &locs {
        entries.push(match *l {
            ChunkLocation::Offset(o) => o as i64,
            ChunkLocation::File(id) => {
                next = next.max(id as i64 + 1);
                id as i64
            }
            ChunkLocation::Special(k) => special_entry(k).unwrap_or(0),
        });
    }
    let variable = h.flags.variable_chunks() || h.chunksize == 0;
    let nchunks = entries.len();
    let sizes: Vec<u64> = if variable {
        // Filled from the chunks' headers by `FrameMut::loaded` (read through the frame's file).
        alloc::vec![0; nchunks]
    } else {
        let cs = h.chunksize.max(0) as u64;
        let nbytes = h.nbytes.max(0) as u64;
        (0..nchunks)
            .map(|i| if i + 1 == nchunks { nbytes.saturating_sub(cs * (nchunks as u64 - 1)) } else { cs })
            .collect()
    };
    let header_len = h.header_len as u64;
    let old_end = file.frame_len();
    if !sparse {
        next = (old_end - header_len) as i64;
    }
    let b2nd =
        h.metalayers.iter().find(|(n, _, _)| *n == "b2nd").map(|(_, off, c)| (off as usize + 5, c.to_vec()));
    Ok(Edit {
        sparse,
        entries,
        sizes,
        chunksize: h.chunksize,
        variable,
        next,
        pending: BTreeMap::new(),
        header: file.header_bytes().to_vec(),
        header_len,
        old_end,
        file_len,
        cbytes: h.cbytes,
        typesize: h.typesize.max(1) as usize,
        blocksize: h.blocksize.max(0) as usize,
        cparams: header_cparams(h),
        b2nd,
        new_b2nd: None,
        vl_chunks: v.trailer.vlmetalayers.iter().map(|(n, _, c)| (String::from(n), c.to_vec())).collect(),
    })
}

impl FrameMut<File> {
    /// Opens the frame at `path` for changes: a contiguous frame file (`.b2nd`, `.b2frame`) or a
    /// sparse frame's directory, locked (advisory, exclusive) while the handle lives; another
    /// writer holding the lock is an error, not a wait.
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        let path = path.as_ref();
        if std::fs::metadata(path).map_err(|e| Error::from(e).in_field("path"))?.is_dir() {
            let dir = File::open(path).map_err(|e| Error::from(e).in_field("path"))?;
            lock(&dir, path)?;
            return Ok(FrameMut {
                target: Target::Sparse(path.to_path_buf()),
                faults: Faults::default(),
                synced: true,
                threads: default_threads(),
                _lock: Some(dir),
            });
        }
        let (f, _) = open_regular_rw(path)?;
        lock(&f, path)?;
        Ok(FrameMut {
            target: Target::Io(f),
            faults: Faults::default(),
            synced: true,
            threads: default_threads(),
            _lock: None,
        })
    }
}

impl<F: FrameIo> FrameMut<F> {
    /// A contiguous frame at the start of `io` (no lock is taken).
    pub fn from_io(io: F) -> Self {
        FrameMut {
            target: Target::Io(io),
            faults: Faults::default(),
            synced: true,
            threads: default_threads(),
            _lock: None,
        }
    }

    /// The threads that compress the chunks of the next changes (the blocks of a chunk spread
    /// over them; the bytes are the same for any count). Default: the machine's cores, as
    /// python-blosc2's. 0 is taken as 1.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Whether each step of the next changes is synced to disk (`true`, the default), or only
    /// written in order (`false`: safe against a process killed at any step and for readers,
    /// not against a crash of the system; see the [module](crate::writer) documentation).
    pub fn set_synced(&mut self, synced: bool) {
        self.synced = synced;
    }

    /// The inner file or buffer of a contiguous frame.
    pub fn into_inner(self) -> Option<F> {
        match self.target {
            Target::Io(f) => Some(f),
            Target::Sparse(_) => None,
        }
    }

    /// Makes the operation number `n` of the next changes fail (a write then writes half its
    /// bytes): how the tests stop a change at every step.
    #[doc(hidden)]
    pub fn fail_at(&mut self, n: Option<u32>) {
        self.faults.left = n;
    }

    fn read_file(&mut self) -> Result<(FrameFile, u64)> {
        match &mut self.target {
            Target::Io(f) => {
                let len = f.seek(SeekFrom::End(0))?;
                let file = FrameFile::from_reader(&mut &mut *f, len, 0)?;
                if file.frame_type() != FrameType::Contiguous {
                    return Err(Error::invalid(
                        "a contiguous frame",
                        "contiguous",
                        "a sparse frame's index",
                        25,
                    )
                    .in_field("frame_type"));
                }
                Ok((file, len))
            }
            Target::Sparse(dir) => {
                let file = FrameFile::open(&*dir)?;
                if file.frame_type() != FrameType::Sparse {
                    return Err(Error::invalid("a sparse frame's directory", "sparse", "contiguous", 25)
                        .in_field("frame_type"));
                }
                Ok((file, 0))
            }
        }
    }

    /// Applies the changes `f` makes to an [`Edit`] of the frame by one switch (see the
    /// [module](crate::writer) documentation); an error from `f` changes nothing.
    pub fn edit<T>(&mut self, f: impl FnOnce(&mut Edit, &mut ChunkReader<'_, F>) -> Result<T>) -> Result<T> {
        let (registry, mut edit) = self.loaded()?;
        let out = f(&mut edit, &mut ChunkReader { target: &mut self.target, registry })?;
        self.commit(edit)?;
        Ok(out)
    }

    /// Calls `f` on the frame as an edit would see it, changing nothing.
    pub(crate) fn peek(&mut self, f: impl FnOnce(&Edit) -> Result<()>) -> Result<()> {
        f(&self.loaded()?.1)
    }

    /// The edit state of the frame as it is now: the bytes after a contiguous frame checked,
    /// the sizes of a variable-size frame's chunks read from their headers.
    fn loaded(&mut self) -> Result<(b2schema_chunk::Registry, Edit)> {
        let (file, len) = self.read_file()?;
        let mut edit = load(&file, len)?;
        edit.cparams.nthreads = i16::try_from(self.threads).unwrap_or(i16::MAX);
        if let Target::Io(io) = &mut self.target {
            check_after_frame(io, &edit)?;
        }
        let registry = file.registry().clone();
        if edit.variable {
            let mut r = ChunkReader { target: &mut self.target, registry: registry.clone() };
            for i in 0..edit.entries.len() {
                let e = edit.entries[i];
                if !is_stored(e) {
                    return Err(Error::invalid(
                        "variable-size chunks that are stored",
                        "bytes",
                        "a special chunk",
                        0,
                    )
                    .in_segment(crate::format::error::Segment::Index(i))
                    .in_field("chunks"));
                }
                edit.sizes[i] = r.header(&edit, e)?.uncompressed_len() as u64;
            }
        }
        Ok((registry, edit))
    }

    /// Chunks in the frame.
    pub fn nchunks(&mut self) -> Result<usize> {
        let (file, _) = self.read_file()?;
        Ok(file.view()?.nchunks()? as usize)
    }

    /// Replaces chunk `n` by `chunk` (c-blosc2's `blosc2_schunk_update_chunk`).
    pub fn update_chunk(&mut self, n: usize, chunk: &Chunk) -> Result<()> {
        self.edit(|e, _| e.update_chunk(n, chunk))
    }

    /// Inserts `chunk` before chunk `n` (`blosc2_schunk_insert_chunk`).
    pub fn insert_chunk(&mut self, n: usize, chunk: &Chunk) -> Result<()> {
        self.edit(|e, _| e.insert_chunk(n, chunk))
    }

    /// Deletes chunk `n` (`blosc2_schunk_delete_chunk`).
    pub fn delete_chunk(&mut self, n: usize) -> Result<()> {
        self.edit(|e, _| e.delete_chunk(n))
    }

    /// Appends `chunk` (`blosc2_schunk_append_chunk`).
    pub fn append_chunk(&mut self, chunk: &Chunk) -> Result<()> {
        self.edit(|e, _| e.append_chunk(chunk))
    }

    fn commit(&mut self, edit: Edit) -> Result<()> {
        let (nbytes, chunksize) = edit.totals()?;
        let mut header = edit.header.clone();
        let index = if nbytes > 0 && !edit.entries.is_empty() {
            chunk::offsets_index(&edit.entries)?
        } else {
            Vec::new()
        };
        let trailer = trailer(&edit.vl_chunks)?;
        let faults = &mut self.faults;
        match &mut self.target {
            Target::Io(f) => {
                let mut tail = Vec::new();
                for bytes in edit.pending.values() {
                    tail.extend_from_slice(bytes);
                }
                let cbytes = (edit.next as u64) as i64;
                tail.extend_from_slice(&index);
                tail.extend_from_slice(&trailer);
                let frame_len = edit.header_len + cbytes as u64 + index.len() as u64 + trailer.len() as u64;
                patch_totals(&mut header, frame_len as i64, nbytes, cbytes, chunksize)?;
                let from = FrameHeader::FRAME_LEN.layout().marker_offset.unwrap_or(15);
                let mut to = 69;
                if let (Some((at, _)), Some(b2nd)) = (&edit.b2nd, &edit.new_b2nd) {
                    header[*at..*at + b2nd.len()].copy_from_slice(b2nd);
                    to = to.max(*at + b2nd.len());
                }
                let synced = self.synced;
                let sync = |f: &mut F| if synced { f.sync() } else { f.flush() };
                // 0. A torn tail of an earlier change cut off.
                if edit.file_len > edit.old_end {
                    faults.step()?;
                    f.set_len(edit.old_end)?;
                    faults.step()?;
                    sync(f)?;
                }
                // 1. The new tail after the old end; the old frame stays whole.
                f.seek(SeekFrom::Start(edit.old_end))?;
                faults.write(f, &tail)?;
                faults.step()?;
                sync(f)?;
                // 2. The switch: the header fields that change, in one write.
                f.seek(SeekFrom::Start(from as u64))?;
                faults.step()?;
                f.write_all(&header[from..to])?;
                faults.step()?;
                sync(f)?;
                Ok(())
            }
            Target::Sparse(dir) => {
                let referenced: alloc::collections::BTreeSet<i64> =
                    edit.entries.iter().copied().filter(|&e| is_stored(e)).collect();
                let (file, _) = (FrameFile::open(&*dir)?, ());
                let old: alloc::collections::BTreeSet<i64> = file
                    .view()?
                    .chunk_locations()?
                    .into_iter()
                    .filter_map(|l| match l {
                        ChunkLocation::File(id) => Some(id as i64),
                        _ => None,
                    })
                    .collect();
                let mut cbytes = edit.cbytes;
                // 1. New chunk files, under ids no index entry names.
                for (id, bytes) in &edit.pending {
                    if !referenced.contains(id) {
                        continue;
                    }
                    let path = dir.join(alloc::format!("{id:08X}.chunk"));
                    let mut out =
                        std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(&path)?;
                    faults.write(&mut out, bytes)?;
                    faults.step()?;
                    if self.synced {
                        out.sync_all()?;
                    }
                    cbytes += bytes.len() as i64;
                }
                let gone: Vec<i64> = old.difference(&referenced).copied().collect();
                for id in &gone {
                    let len = std::fs::metadata(dir.join(alloc::format!("{id:08X}.chunk")))
                        .map(|m| m.len())
                        .unwrap_or(0);
                    cbytes -= len as i64;
                }
                let frame_len = edit.header_len + index.len() as u64 + trailer.len() as u64;
                patch_totals(&mut header, frame_len as i64, nbytes, cbytes.max(0), chunksize)?;
                if let (Some((at, _)), Some(b2nd)) = (&edit.b2nd, &edit.new_b2nd) {
                    header[*at..*at + b2nd.len()].copy_from_slice(b2nd);
                }
                header.extend_from_slice(&index);
                header.extend_from_slice(&trailer);
                // 2. The new index beside the old one, synced; 3. the switch: renamed onto it.
                let index_path = dir.join(SPARSE_INDEX);
                let tmp = super::replace::temporary(&index_path)?;
                let synced = self.synced;
                let written = (|| -> std::io::Result<()> {
                    let mut out =
                        std::fs::OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
                    faults.write(&mut out, &header)?;
                    faults.step()?;
                    if synced {
                        out.sync_all()?;
                    }
                    faults.step()?;
                    std::fs::rename(&tmp, &index_path)
                })();
                if let Err(e) = written {
                    let _ = std::fs::remove_file(&tmp);
                    return Err(e.into());
                }
                faults.step()?;
                if synced {
                    super::replace::sync_parent(&index_path)?;
                }
                // 4. Chunk files no entry names any more.
                // (The change is made: a file left here is unused, not an error.)
                for id in gone {
                    if faults.step().is_ok() {
                        let _ = std::fs::remove_file(dir.join(alloc::format!("{id:08X}.chunk")));
                    }
                }
                Ok(())
            }
        }
    }

    /// The contiguous frame's bytes without the unused bytes that changes left in it (replaced
    /// chunks, old indexes and trailers): the same chunks, metalayers and vlmetalayers.
    pub fn compacted(&mut self) -> Result<Vec<u8>> {
        if let Target::Sparse(_) = self.target {
            return Err(Error::invalid("a contiguous frame", "contiguous", "a sparse frame", 25)
                .in_field("frame_type"));
        }
        let (registry, edit) = self.loaded()?;
        let mut chunks = Vec::new();
        let mut reader = ChunkReader { target: &mut self.target, registry };
        let mut offsets = Vec::new();
        for &e in &edit.entries {
            if is_stored(e) {
                offsets.push(chunks.len() as i64);
                chunks.extend_from_slice(&reader.stored(&edit, e)?);
            } else {
                offsets.push(e);
            }
        }
        let (nbytes, chunksize) = edit.totals()?;
        let index =
            if nbytes > 0 && !offsets.is_empty() { chunk::offsets_index(&offsets)? } else { Vec::new() };
        let trailer = trailer(&edit.vl_chunks)?;
        let mut out = edit.header.clone();
        let frame_len = (out.len() + chunks.len() + index.len() + trailer.len()) as i64;
        patch_totals(&mut out, frame_len, nbytes, chunks.len() as i64, chunksize)?;
        out.extend_from_slice(&chunks);
        out.extend_from_slice(&index);
        out.extend_from_slice(&trailer);
        Ok(out)
    }
}

/// Rewrites the contiguous frame file at `path` without the unused bytes changes left in it
/// ([`FrameMut::compacted`]), whole or not at all: a temporary file beside it, synced, renamed
/// onto it. A sparse frame's directory has none (replaced chunk files are removed).
pub fn compact_file(path: impl AsRef<Path>) -> Result<()> {
    let path = path.as_ref();
    let mut m = FrameMut::open(path)?;
    if let Target::Sparse(_) = m.target {
        return Ok(());
    }
    let bytes = m.compacted()?;
    super::replace::replace_file(path, |f| f.write_all(&bytes).map_err(Error::from))
}

/// Writes the header fields a change sets, each at its fixed place.
fn patch_totals(header: &mut [u8], frame_len: i64, nbytes: i64, cbytes: i64, chunksize: i32) -> Result<()> {
    FrameHeader::FRAME_LEN.patch(header, &frame_len)?;
    FrameHeader::NBYTES.patch(header, &nbytes)?;
    FrameHeader::CBYTES.patch(header, &cbytes)?;
    FrameHeader::CHUNKSIZE.patch(header, &chunksize)?;
    Ok(())
}

/// The bytes after a contiguous frame must be a torn tail of this writer's (see
/// [`append_chunk`](super::append_chunk)).
fn check_after_frame<F: FrameIo>(f: &mut F, edit: &Edit) -> Result<()> {
    let (len, old_end) = (edit.file_len, edit.old_end);
    if len > old_end {
        let mut after = [0u8; 32];
        let after = &mut after[..(len - old_end).min(32) as usize];
        f.seek(SeekFrom::Start(old_end))?;
        f.read_exact(after)?;
        if !is_torn_tail(after) {
            return Err(Error::invalid(
                "a file that ends with its frame (or with the torn tail of an interrupted update), of",
                alloc::format!("{old_end} bytes"),
                alloc::format!("{len} bytes, other data after the frame"),
                old_end as usize,
            )
            .in_field("frame_len"));
        }
    }
    Ok(())
}

/// Reads the chunks of the frame being edited (the old ones from the file, the new ones from
/// the edit).
pub struct ChunkReader<'a, F> {
    target: &'a mut Target<F>,
    registry: b2schema_chunk::Registry,
}

impl<F: FrameIo> ChunkReader<'_, F> {
    /// The header of the stored chunk of index entry `entry`.
    fn header(&mut self, edit: &Edit, entry: i64) -> Result<b2schema_chunk::ChunkHeader> {
        let bytes = self.stored(edit, entry)?;
        b2schema_chunk::ChunkHeader::parse(&bytes).map_err(|e| Error::chunk(e, 0))
    }

    /// The stored bytes of index entry `entry`.
    fn stored(&mut self, edit: &Edit, entry: i64) -> Result<Vec<u8>> {
        if let Some(b) = edit.pending.get(&entry) {
            return Ok(b.clone());
        }
        match &mut *self.target {
            Target::Io(f) => {
                let at = edit.header_len + entry as u64;
                let end = edit.header_len + edit.cbytes.max(0) as u64;
                let mut head = [0u8; 32];
                if at + 32 > end {
                    return Err(Error::invalid(
                        "a chunk inside the chunks section, ending by",
                        end,
                        at + 32,
                        at as usize,
                    )
                    .in_field("chunk_index"));
                }
                f.seek(SeekFrom::Start(at))?;
                f.read_exact(&mut head)?;
                let h = b2schema_chunk::ChunkHeader::peek(&head).map_err(|e| Error::chunk(e, at as usize))?;
                let len = h.compressed_len() as u64;
                if at + len > end || len > crate::container::frame::max_cbytes(&h) {
                    return Err(Error::invalid(
                        "a chunk inside the chunks section, ending by",
                        end,
                        at + len,
                        at as usize,
                    )
                    .in_field("cbytes"));
                }
                let mut buf =
                    crate::container::limits::try_zeros(len as usize, "a stored chunk", at as usize)?;
                f.seek(SeekFrom::Start(at))?;
                f.read_exact(&mut buf)?;
                Ok(buf)
            }
            Target::Sparse(dir) => {
                let (mut f, len) =
                    crate::container::frame::open_regular(&dir.join(alloc::format!("{entry:08X}.chunk")))?;
                let mut head = [0u8; 32];
                let n = (len as usize).min(32);
                f.read_exact(&mut head[..n])?;
                let h = b2schema_chunk::ChunkHeader::peek(&head[..n]).map_err(|e| Error::chunk(e, 0))?;
                let clen = h.compressed_len() as u64;
                if clen > len || clen > crate::container::frame::max_cbytes(&h) {
                    return Err(
                        Error::invalid("a chunk inside its file of", len, clen, 12).in_field("cbytes")
                    );
                }
                let mut buf = crate::container::limits::try_zeros(clen as usize, "a stored chunk", 0)?;
                f.seek(SeekFrom::Start(0))?;
                f.read_exact(&mut buf)?;
                Ok(buf)
            }
        }
    }

    /// The decompressed bytes of chunk `n` as edited so far (special chunks built from their
    /// kind), exactly its `nbytes`.
    pub fn chunk_data(&mut self, edit: &Edit, n: usize) -> Result<Vec<u8>> {
        let (entry, size) = edit
            .entry(n)
            .zip(edit.chunk_nbytes(n))
            .ok_or_else(|| out_of_range("an existing chunk", n, edit.nchunks()))?;
        let size = usize::try_from(size).map_err(|_| Error::no_memory("a chunk", size, 0))?;
        let data = match crate::container::frame::index_entry(entry, edit.sparse) {
            Some(ChunkLocation::Special(SpecialValue::Nan)) => {
                let item: &[u8] = match edit.typesize {
                    4 => &f32::NAN.to_le_bytes(),
                    8 => &f64::NAN.to_le_bytes(),
                    ts => {
                        return Err(Error::invalid(
                            "NaN chunks of 4- or 8-byte items, not",
                            "4 or 8",
                            ts,
                            48,
                        ));
                    }
                };
                let mut v = crate::container::limits::try_zeros(size, "a NaN chunk", 0)?;
                for c in v.chunks_mut(item.len()) {
                    c.copy_from_slice(&item[..c.len()]);
                }
                v
            }
            Some(ChunkLocation::Special(_)) => {
                crate::container::limits::try_zeros(size, "a special chunk", 0)?
            }
            Some(_) => {
                let bytes = self.stored(edit, entry)?;
                b2schema_chunk::Decoder::new(&self.registry)
                    .max_nbytes(size)
                    .decompress(&bytes)
                    .map_err(|e| Error::chunk(e, 0).in_segment(crate::format::error::Segment::Index(n)))?
            }
            None => return Err(Error::invalid("an index entry", "an offset or a special value", entry, 0)),
        };
        if data.len() != size {
            return Err(Error::invalid("a chunk as long as its nbytes", size, data.len(), 4)
                .in_segment(crate::format::error::Segment::Index(n))
                .in_field("chunks"));
        }
        Ok(data)
    }
}
