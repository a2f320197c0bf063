//! Frames in files: a contiguous frame (possibly at an offset inside a larger file) or a
//! sparse-frame directory. Opening reads the header, the offsets index and the trailer, never
//! the chunks.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use alloc::vec::Vec;

use super::codes::FrameType;
use super::header::FrameHeader;
use super::index::{ChunkInfo, ChunkLocation, SpecialValue};
use super::kept_tables::KeptTables;
use super::regular::open_regular;
use super::siblings::{Kept, LocalDir};
use super::view::{self, FrameView, HEADER_FIXED_LEN, Parts};
use crate::container::error::{Error, Result};
use crate::container::limits::{Limit, Limits, try_zeros};
use crate::container::source::{Cursor, LocalFile, Memory, Siblings, Source, Window, pread};
use b2schema_chunk::ChunkHeader;

/// The index file of a sparse frame's directory.
pub const SPARSE_INDEX: &str = "chunks.b2frame";

/// A frame's metadata bytes, read from a file or a sparse directory.
#[derive(Debug, Clone)]
pub struct FrameFile {
    path: PathBuf,
    offset: u64,
    frame_type: FrameType,
    header: Vec<u8>,
    index: Vec<u8>,
    trailer: Vec<u8>,
    index_offset: u64,
    trailer_offset: u64,
    frame_len: u64,
    bytes_read: u64,
    limits: Limits,
    /// The frame's file (a sparse frame's index file), its buffer or its URL, kept from the
    /// reading of the metadata so that chunks come from the source that metadata was read from,
    /// without opening it again per chunk; read by position, so threads share it.
    kept: Option<Source>,
    /// Where a sparse frame's chunk files are: its local directory, or beside an index read by
    /// URL; the last ones opened kept open.
    siblings: Option<Arc<dyn Siblings>>,
    /// The tables of the chunks read last, over a remote source.
    tables: KeptTables,
    /// The plugin codecs and filters its chunks are decoded with (the built-ins only unless
    /// [`FrameFile::with_registry`] gave others).
    registry: b2schema_chunk::Registry,
}

impl FrameFile {
    /// Opens `path`: a contiguous frame file, or a sparse-frame directory (its
    /// `chunks.b2frame`). Lock sidecars (`.b2lock`) are not part of the format and are ignored.
    /// With a budget, an offset or plugins: [`OpenOptions::frame`](crate::OpenOptions::frame).
    pub fn open(path: impl AsRef<Path>) -> Result<Self> {
        Self::open_with_limits(path, Limits::default())
    }

    /// [`FrameFile::open`] within `limits`: the header, the trailer and the offsets index are
    /// read only when they fit [`Limits::max_decompressed`] and [`Limits::max_chunks`], and the
    /// chunks are later read within them.
    #[doc(hidden)]
    pub fn open_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        let path = path.as_ref();
        let f = Self::locate_with_limits(path, limits)?;
        f.view().map_err(|e| e.in_file(path.display()))?;
        Ok(f)
    }

    /// Reads the header, index and trailer bytes of the frame at `path` without validating
    /// them (only what is needed to find them: `header_len`, `frame_len`, `trailer_len`); see
    /// [`FrameFile::view`] for the checks. For tools that report on broken frames.
    pub fn locate(path: impl AsRef<Path>) -> Result<Self> {
        Self::locate_with_limits(path, Limits::default())
    }

    /// [`FrameFile::locate`] within `limits`.
    /// Its errors name the file (`FrameFile::open`'s too: "PATH: I/O error: No such file or
    /// directory").
    #[doc(hidden)]
    pub fn locate_with_limits(path: impl AsRef<Path>, limits: Limits) -> Result<Self> {
        let path = path.as_ref();
        if path.is_dir() {
            Self::read(path.join(SPARSE_INDEX), 0, FrameType::Sparse, path.to_path_buf(), limits)
        } else {
            Self::read(path.to_path_buf(), 0, FrameType::Contiguous, path.to_path_buf(), limits)
        }
        .map_err(|e| e.in_file(path.display()))
    }

    /// Opens a contiguous frame that starts at byte `offset` of `path` (bytes after the frame
    /// are allowed, as `blosc2_schunk_open_offset` allows them).
    #[doc(hidden)]
    pub fn open_at(path: impl AsRef<Path>, offset: u64) -> Result<Self> {
        Self::open_at_with_limits(path, offset, Limits::default())
    }

    /// `FrameFile::open_at` within `limits`: use [`OpenOptions::offset`](crate::OpenOptions::offset).
    #[doc(hidden)]
    pub fn open_at_with_limits(path: impl AsRef<Path>, offset: u64, limits: Limits) -> Result<Self> {
        let path = path.as_ref();
        let named = |e: Error| e.in_file(path.display());
        let f = Self::read(path.to_path_buf(), offset, FrameType::Contiguous, path.to_path_buf(), limits)
            .map_err(named)?;
        f.view().map_err(named)?;
        Ok(f)
    }

    fn read(
        file: PathBuf,
        offset: u64,
        frame_type: FrameType,
        path: PathBuf,
        limits: Limits,
    ) -> Result<Self> {
        let (mut f, file_len) = open_regular(&file)?;
        let mut frame = Self::read_from(&mut f, file_len, offset, frame_type, path, limits)?;
        frame.kept = Some(Arc::new(LocalFile::new(f, file_len)));
        if frame_type == FrameType::Sparse {
            frame.siblings = Some(Arc::new(Kept::new(LocalDir(frame.path.clone()))));
        }
        Ok(frame)
    }

    /// Opens the contiguous frame at byte `offset` of `path` that lies inside the window of
    /// `len` bytes from there (a member of a ZIP store): no byte outside the window is read,
    /// now or later, and a frame longer than the window is an error.
    #[doc(hidden)]
    pub fn open_window_with_limits(
        path: impl AsRef<Path>,
        offset: u64,
        len: u64,
        limits: Limits,
    ) -> Result<Self> {
        let path = path.as_ref();
        let (f, file_len) = open_regular(path)?;
        let src: Source = Arc::new(LocalFile::new(f, file_len));
        let window = Window::new(src, offset, offset.saturating_add(len));
        Self::from_source_at(Arc::new(window), offset, path.to_path_buf(), limits, None)
    }

    /// Reads the contiguous frame that starts `bytes` (bytes after it are allowed), keeping
    /// the buffer: its chunks are read from it. `name` stands for its path in messages (an
    /// embedded member's key).
    pub fn from_bytes(bytes: Vec<u8>, name: impl Into<PathBuf>, limits: Limits) -> Result<Self> {
        let len = bytes.len() as u64;
        let mut frame = Self::read_from(
            &mut std::io::Cursor::new(bytes.as_slice()),
            len,
            0,
            FrameType::Contiguous,
            name.into(),
            limits,
        )?;
        frame.kept = Some(Arc::new(Memory::new(bytes)));
        frame.view()?;
        Ok(frame)
    }

    /// Opens the contiguous frame that starts at byte 0 of `source` (bytes after it are allowed),
    /// the bytes read through your own transport: any [`ReadAt`](crate::source::ReadAt) (an
    /// object store's client, a cache, a file in an archive). The metadata is read when opening,
    /// each chunk when a read needs it, every byte through `source`, checked as a file's are
    /// (within `limits`). `name` stands for its path in messages (a URL, a key).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use b2schema::frame::FrameFile;
    /// use b2schema::source::Memory;
    /// # use b2schema::writer::{Fill, NdArray};
    /// # let bytes = NdArray::new(&[10], &[5], &[5], "<i4", 4, Fill::Zeros).to_frame()?.to_vec()?;
    /// let frame = FrameFile::from_source(Arc::new(Memory::new(bytes)), "mine", b2schema::Limits::default())?;
    /// assert_eq!(b2schema::array::ArrayReader::new(&frame)?.shape(), [10]);
    /// # Ok::<(), b2schema::Error>(())
    /// ```
    pub fn from_source(source: Source, name: impl Into<PathBuf>, limits: Limits) -> Result<Self> {
        Self::from_source_at(source, 0, name.into(), limits, None)
    }

    /// Opens the sparse frame whose index file (`chunks.b2frame`) is `index`, its chunk files
    /// (`%08X.chunk`) opened through `chunks` when a read needs one (the last few kept open): a
    /// sparse frame kept where b2schema has no opener of its own (an object store's prefix, a
    /// database). `name` stands for its directory in messages.
    pub fn from_sparse_source(
        index: Source,
        chunks: impl Siblings + 'static,
        name: impl Into<PathBuf>,
        limits: Limits,
    ) -> Result<Self> {
        let chunks: Arc<dyn Siblings> = Arc::new(super::siblings::Kept::new(chunks));
        Self::from_source_at(index, 0, name.into(), limits, Some(chunks))
    }

    /// Reads the frame at byte `offset` of `src` (a contiguous frame ending by the end of `src`,
    /// or with `siblings` a sparse frame's index, whose chunk files it opens), keeping `src` for
    /// its chunks. `name` stands for its path in messages (a URL, a store's file).
    pub(crate) fn from_source_at(
        src: Source,
        offset: u64,
        name: PathBuf,
        limits: Limits,
        siblings: Option<Arc<dyn Siblings>>,
    ) -> Result<Self> {
        let len = src.len();
        let frame_type = if siblings.is_some() { FrameType::Sparse } else { FrameType::Contiguous };
        let mut frame = Self::read_from(&mut Cursor::new(&*src), len, offset, frame_type, name, limits)?;
        frame.kept = Some(src);
        frame.siblings = siblings;
        frame.view()?;
        Ok(frame)
    }

    /// The frame with its chunk files opened through `siblings` (a test's counting directory).
    #[cfg(test)]
    pub(super) fn with_siblings(mut self, siblings: Arc<dyn Siblings>) -> Self {
        self.siblings = Some(siblings);
        self
    }

    /// Requests made and bytes fetched over the network to this point, by the opening and by every
    /// read of its chunks since (`None` for a local file or a buffer).
    pub fn fetched(&self) -> Option<crate::container::source::Fetched> {
        self.kept.as_ref().and_then(|k| k.fetched())
    }

    /// The fewest bytes worth one read of its source (0 for a local file or a buffer; a few KiB
    /// over HTTP, where a round trip costs more): readers join reads when it is not 0.
    pub(crate) fn min_read(&self) -> u64 {
        self.kept.as_ref().map_or(0, |k| k.min_read())
    }

    /// The bytes at the start of the chunk at `loc` (its header and block table) kept from an
    /// earlier read, over a remote source.
    pub(crate) fn kept_table(&self, loc: ChunkLocation) -> Option<Arc<[u8]>> {
        self.tables.get(loc)
    }

    /// Keeps the bytes at the start of the chunk at `loc` that held its table, when the frame is
    /// read over a remote source (a local file may change under the reader).
    pub(crate) fn keep_table(&self, loc: ChunkLocation, table: &[u8]) {
        if self.min_read() > 0 {
            self.tables.keep(loc, table);
        }
    }

    /// Decoding its chunks with `registry`'s plugin codecs and filters besides the built-in ones
    /// (c-blosc2's `blosc2_register_codec` / `blosc2_register_filter`).
    /// The frame's `b2nd` array shapes reach them as c-blosc2's plugins read them.
    pub fn with_registry(mut self, registry: b2schema_chunk::Registry) -> Self {
        self.registry = self.with_array_shapes(registry);
        self
    }

    /// `registry` told the chunk and block shapes of the frame's `b2nd` metalayer (when it has
    /// one that reads, and `registry` has no shapes of its own): what c-blosc2's n-dimensional
    /// plugins (ZFP, ndcell, ndmean) read from the super-chunk.
    fn with_array_shapes(&self, registry: b2schema_chunk::Registry) -> b2schema_chunk::Registry {
        if registry.blockshape().is_some() {
            return registry;
        }
        let Ok(view) = self.view() else { return registry };
        match view.metalayer("b2nd").map(crate::container::b2nd::read_any) {
            Some(Ok(meta)) => registry.with_array_shapes(&meta.chunkshape, &meta.blockshape),
            _ => registry,
        }
    }

    /// The plugin codecs and filters its chunks are decoded with.
    pub fn registry(&self) -> &b2schema_chunk::Registry {
        &self.registry
    }

    /// The budget this frame is read within.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Changes the budget of the reads to come (chunks, data).
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Reads (and validates) the metadata of the contiguous frame at `offset` in `reader`, which
    /// holds `len` bytes. The result has no path: its chunks are not read through it.
    pub fn from_reader<R: Read + Seek>(reader: &mut R, len: u64, offset: u64) -> Result<Self> {
        let f =
            Self::read_from(reader, len, offset, FrameType::Contiguous, PathBuf::new(), Limits::default())?;
        f.view()?;
        Ok(f)
    }

    fn read_from<R: Read + Seek>(
        f: &mut R,
        file_len: u64,
        offset: u64,
        frame_type: FrameType,
        path: PathBuf,
        limits: Limits,
    ) -> Result<Self> {
        let available = file_len.saturating_sub(offset);
        let mut bytes_read = 0;
        let mut fixed = [0u8; HEADER_FIXED_LEN];
        if available < HEADER_FIXED_LEN as u64 {
            return Err(Error::invalid(
                "a frame of at least",
                "87 bytes",
                crate::format::error::bytes(available),
                0,
            )
            .in_field("header"));
        }
        read_at(f, offset, &mut fixed, &mut bytes_read)?;
        let header_len = view::header_len(&fixed)? as u64;
        let frame_len = view::frame_len(&fixed)?;
        if frame_len > available {
            return Err(Error::invalid("frame_len within the file, at most", available, frame_len, 16)
                .in_field("frame_len"));
        }
        if !(HEADER_FIXED_LEN as u64..=frame_len).contains(&header_len) {
            return Err(Error::invalid("header_len", alloc::format!("in 87..={frame_len}"), header_len, 11)
                .in_field("header_len"));
        }
        limits.require("the frame header (header_len)", header_len, Limit::Decompressed, 11)?;
        let mut header = try_zeros(header_len as usize, "the frame header", 11)?;
        header[..HEADER_FIXED_LEN].copy_from_slice(&fixed);
        read_at(f, offset + HEADER_FIXED_LEN as u64, &mut header[HEADER_FIXED_LEN..], &mut bytes_read)?;

        let mut tail = [0u8; 23];
        read_at(f, offset + frame_len - 23, &mut tail, &mut bytes_read)?;
        let (trailer_offset, trailer_len) = view::trailer_position(&tail, frame_len)?;
        let at = (frame_len - super::trailer::TRAILER_LEN_FROM_END as u64) as usize;
        limits.require("the frame trailer (trailer_len)", trailer_len, Limit::Decompressed, at)?;
        let mut trailer = try_zeros(trailer_len as usize, "the frame trailer", at)?;
        read_at(f, offset + trailer_offset, &mut trailer, &mut bytes_read)?;

        let nbytes: i64 = FrameHeader::NBYTES.read(&header)?;
        let cbytes: i64 = FrameHeader::CBYTES.read(&header)?;
        let index_offset = match frame_type {
            FrameType::Contiguous => header_len.saturating_add(cbytes.max(0) as u64),
            FrameType::Sparse => header_len,
        };
        let mut index = Vec::new();
        if nbytes > 0 && index_offset < trailer_offset {
            // Read what the index can hold for the chunks allowed, not what the gap before the
            // trailer happens to be (a sparse file can make it gigabytes of nothing).
            let gap = trailer_offset - index_offset;
            let most = index_bound(limits.max_chunks());
            Limits::check(
                "the offsets index (the gap before the trailer)",
                gap,
                Limit::Chunks,
                most,
                index_offset as usize,
            )
            .map_err(|e| e.in_field("chunk_index"))?;
            index = try_zeros(gap as usize, "the offsets index", index_offset as usize)?;
            read_at(f, offset + index_offset, &mut index, &mut bytes_read)?;
        }
        Ok(FrameFile {
            path,
            offset,
            frame_type,
            header,
            index,
            trailer,
            index_offset,
            trailer_offset,
            frame_len,
            bytes_read,
            limits,
            kept: None,
            siblings: None,
            tables: KeptTables::default(),
            registry: b2schema_chunk::Registry::new(),
        }
        .with_registry(b2schema_chunk::Registry::new()))
    }

    /// The decoded, validated metadata.
    pub fn view(&self) -> Result<FrameView<'_>> {
        FrameView::from_parts(
            Parts {
                header: &self.header,
                index: &self.index,
                trailer: &self.trailer,
                index_offset: self.index_offset,
                trailer_offset: self.trailer_offset,
                frame_len: self.frame_len,
            },
            self.frame_type,
        )
    }

    /// The path opened (the directory, for a sparse frame).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The frame's length (`frame_len`).
    pub fn frame_len(&self) -> u64 {
        self.frame_len
    }

    /// Where the frame starts in its file.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Contiguous or sparse.
    pub fn frame_type(&self) -> FrameType {
        self.frame_type
    }

    /// Bytes read from disk to open the frame: the header, the offsets index and the trailer.
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// The raw header bytes.
    pub fn header_bytes(&self) -> &[u8] {
        &self.header
    }

    /// The raw trailer bytes.
    pub fn trailer_bytes(&self) -> &[u8] {
        &self.trailer
    }

    /// The raw offsets-index bytes (empty for a frame without data).
    pub fn index_bytes(&self) -> &[u8] {
        &self.index
    }

    /// Where the offsets index starts in the frame.
    pub fn index_offset(&self) -> u64 {
        self.index_offset
    }

    /// Where the trailer starts in the frame.
    pub fn trailer_offset(&self) -> u64 {
        self.trailer_offset
    }

    /// The file holding the frame's header (the frame file, or the directory's index).
    fn frame_path(&self) -> PathBuf {
        match self.frame_type {
            FrameType::Contiguous => self.path.clone(),
            FrameType::Sparse => self.path.join(SPARSE_INDEX),
        }
    }

    /// Tells a remote source that the chunks at `locs` (of a contiguous frame) are about to be
    /// read, in order, whole: it may fetch their bytes ahead in large pieces
    /// ([`ReadAt::will_read`](crate::source::ReadAt::will_read)). Nothing for a local file, a
    /// sparse frame or special chunks.
    pub(crate) fn will_read_chunks(&self, locs: impl Iterator<Item = ChunkLocation>) {
        let Some(src) = self.kept.as_ref().filter(|k| k.min_read() > 0) else { return };
        let base = self.offset + self.header.len() as u64;
        let first = locs
            .filter_map(|l| match l {
                ChunkLocation::Offset(o) => Some(o),
                _ => None,
            })
            .min();
        if let Some(o) = first {
            src.will_read(base.saturating_add(o)..self.offset + self.index_offset);
        }
    }

    /// The file of a stored chunk, where the chunk starts in it and where its section ends
    /// (the offsets index for a contiguous frame, the end of the file for a sparse frame's
    /// chunk file). Only regular files are opened.
    pub(crate) fn chunk_file(&self, loc: ChunkLocation) -> Result<(Source, u64, u64)> {
        match loc {
            ChunkLocation::Offset(o) => {
                let f = match &self.kept {
                    Some(f) => f.clone(),
                    None => {
                        let (f, len) = open_regular(&self.frame_path())?;
                        Arc::new(LocalFile::new(f, len))
                    }
                };
                let at = (self.offset + self.header.len() as u64).saturating_add(o);
                Ok((f, at, self.offset + self.index_offset))
            }
            ChunkLocation::File(id) => {
                let name = alloc::format!("{id:08X}.chunk");
                let f = match &self.siblings {
                    Some(siblings) => siblings.open(&name),
                    None => LocalDir(self.path.clone()).open(&name),
                }
                .map_err(|e| e.in_field("chunk_index"))?;
                let len = f.len();
                Ok((f, 0, len))
            }
            ChunkLocation::Special(_) => Err(Error::invalid("a stored chunk", "bytes", "a special value", 0)),
        }
    }

    /// The 32-byte header of a stored chunk (reads only those bytes).
    pub fn chunk_header(&self, loc: ChunkLocation) -> Result<ChunkHeader> {
        let (f, at, end) = self.chunk_file(loc)?;
        Self::header_in(&f, at, end)
    }

    fn header_in(f: &Source, at: u64, end: u64) -> Result<ChunkHeader> {
        let len = end.saturating_sub(at).min(32) as usize;
        let mut buf = [0u8; 32];
        let mut n = 0;
        pread(f, at, &mut buf[..len], &mut n)?;
        ChunkHeader::peek(&buf[..len]).map_err(|e| Error::chunk(e, at as usize))
    }

    /// The bytes of a stored chunk, as long as its header says: read only once that length is
    /// checked against its section, against what its `nbytes` can justify
    /// ([`max_cbytes`]) and against [`Limits::max_decompressed`].
    pub fn read_chunk(&self, loc: ChunkLocation) -> Result<Vec<u8>> {
        let (f, at, end) = self.chunk_file(loc)?;
        let h = Self::header_in(&f, at, end)?;
        let len = h.compressed_len() as u64;
        if at + len > end {
            return Err(Error::invalid("a chunk inside its section, ending by", end, at + len, at as usize)
                .in_field("cbytes"));
        }
        let most = max_cbytes(&h);
        if len > most {
            return Err(Error::invalid(
                "a chunk's cbytes within what its nbytes justifies, at most",
                most,
                len,
                at as usize + 12,
            )
            .in_field("cbytes"));
        }
        self.limits.require("a stored chunk (cbytes)", len, Limit::Decompressed, at as usize + 12)?;
        let mut buf = try_zeros(len as usize, "a stored chunk", at as usize)?;
        let mut n = 0;
        pread(&f, at, &mut buf, &mut n)?;
        Ok(buf)
    }

    /// What chunk number `index` at `loc` is (see [`FrameFile::chunks`]); a stored chunk's
    /// header is read and its `nbytes` checked against the frame's `chunksize`.
    pub fn chunk_info(&self, index: usize, loc: ChunkLocation) -> Result<ChunkInfo> {
        self.info_with(&self.size_fields()?, &mut None, index, loc)
    }

    /// The three header fields a chunk's size is checked against, read at their fixed places
    /// (no whole-header decode per chunk).
    fn size_fields(&self) -> Result<SizeFields> {
        Ok(SizeFields {
            nbytes: FrameHeader::NBYTES.read(&self.header)?,
            chunksize: FrameHeader::CHUNKSIZE.read(&self.header)?,
            flags: FrameHeader::FLAGS.read(&self.header)?,
        })
    }

    /// `frame` keeps the frame file open from one stored chunk of a contiguous frame to the next.
    fn info_with(
        &self,
        h: &SizeFields,
        frame: &mut Option<Source>,
        index: usize,
        loc: ChunkLocation,
    ) -> Result<ChunkInfo> {
        let chunksize = h.chunksize.max(0) as u64;
        match loc {
            ChunkLocation::Special(kind) => {
                let nbytes = h.nbytes.max(0) as u64;
                let nchunks = if chunksize > 0 { nbytes.div_ceil(chunksize) } else { 0 };
                let rem = if chunksize > 0 { nbytes % chunksize } else { 0 };
                let nbytes = if index as u64 + 1 == nchunks && rem != 0 { rem } else { chunksize };
                Ok(ChunkInfo { index, location: loc, special: Some(kind), cbytes: 0, nbytes, header: None })
            }
            _ => {
                let ch = match (loc, frame.as_mut()) {
                    (ChunkLocation::Offset(o), Some(f)) => {
                        let at = (self.offset + self.header.len() as u64).saturating_add(o);
                        Self::header_in(f, at, self.offset + self.index_offset)
                    }
                    (ChunkLocation::Offset(_), None) => {
                        let (f, at, end) = self.chunk_file(loc)?;
                        let ch = Self::header_in(&f, at, end);
                        *frame = Some(f);
                        ch
                    }
                    _ => self.chunk_header(loc),
                }
                .map_err(|e| e.in_segment(crate::format::error::Segment::Index(index)))?;
                let nbytes = ch.uncompressed_len() as u64;
                if !h.flags.variable_chunks() && chunksize > 0 && nbytes > chunksize {
                    return Err(Error::invalid(
                        "a chunk's nbytes within the frame's chunksize",
                        chunksize,
                        nbytes,
                        4,
                    )
                    .in_segment(crate::format::error::Segment::Index(index))
                    .in_field("chunks"));
                }
                Ok(ChunkInfo {
                    index,
                    location: loc,
                    special: SpecialValue::of_chunk(&ch),
                    cbytes: ch.compressed_len() as u64,
                    nbytes,
                    header: Some(ch),
                })
            }
        }
    }

    /// What each chunk is: where it is, its sizes and whether it is special (by its index entry
    /// or by its own header). Reads the 32-byte header of every stored chunk, nothing more; at
    /// most [`Limits::max_chunks`] of them.
    pub fn chunks(&self) -> Result<Vec<ChunkInfo>> {
        let mut out = Vec::new();
        self.for_each_chunk(|info| {
            crate::container::limits::try_reserve(&mut out, 1, "the chunk list", 0)?;
            out.push(info);
            Ok(())
        })?;
        Ok(out)
    }

    /// Calls `f` with what each chunk is, in order, without collecting them (see
    /// [`FrameFile::chunks`]); at most [`Limits::max_chunks`] chunks.
    pub fn for_each_chunk(&self, mut f: impl FnMut(ChunkInfo) -> Result<()>) -> Result<()> {
        let v = self.view()?;
        let locs = v.chunk_locations_with_limit(self.limits.max_chunks())?;
        let fields = self.size_fields()?;
        let mut frame = None;
        for (i, loc) in locs.into_iter().enumerate() {
            f(self.info_with(&fields, &mut frame, i, loc)?)?;
        }
        Ok(())
    }

    /// The decompressed bytes of a chunk (special chunks built from their kind: zeros, NaN of
    /// the typesize, uninit as zeros), refusing more than `max_nbytes` or
    /// [`Limits::max_decompressed`]. The result is exactly `info.nbytes` long.
    pub fn chunk_data(&self, info: &ChunkInfo, max_nbytes: usize) -> Result<Vec<u8>> {
        let n = usize::try_from(info.nbytes).unwrap_or(usize::MAX);
        let max = (max_nbytes as u64).min(self.limits.max_decompressed());
        let limit = if max_nbytes as u64 > self.limits.max_decompressed() {
            Limit::Decompressed
        } else {
            Limit::Output
        };
        Limits::check("a chunk's nbytes", info.nbytes, limit, max, 0)
            .map_err(|e| e.in_segment(crate::format::error::Segment::Index(info.index)).in_field("chunks"))?;
        let data = match info.location {
            ChunkLocation::Special(SpecialValue::Nan) => {
                let ts = FrameHeader::TYPESIZE.read(&self.header)?;
                let item: &[u8] = match ts {
                    4 => &f32::NAN.to_le_bytes(),
                    8 => &f64::NAN.to_le_bytes(),
                    _ => {
                        return Err(Error::invalid(
                            "NaN chunks of 4- or 8-byte items, not",
                            "4 or 8",
                            ts,
                            48,
                        ));
                    }
                };
                // One item, then the filled part copied after itself (log2(n) copies).
                let mut v = try_zeros(n, "a NaN chunk", 0)?;
                let first = item.len().min(n);
                v[..first].copy_from_slice(&item[..first]);
                let mut filled = first;
                while filled > 0 && filled < n {
                    let m = filled.min(n - filled);
                    v.copy_within(..m, filled);
                    filled += m;
                }
                v
            }
            ChunkLocation::Special(_) => try_zeros(n, "a special chunk", 0)?,
            loc => {
                let bytes = self.read_chunk(loc)?;
                b2schema_chunk::Decoder::new(&self.registry).max_nbytes(n).decompress(&bytes).map_err(
                    |e| {
                        Error::chunk(e, 0)
                            .in_segment(crate::format::error::Segment::Index(info.index))
                            .in_field("chunks")
                    },
                )?
            }
        };
        if data.len() as u64 != info.nbytes {
            return Err(Error::invalid("a chunk as long as its nbytes", info.nbytes, data.len(), 4)
                .in_segment(crate::format::error::Segment::Index(info.index))
                .in_field("chunks"));
        }
        Ok(data)
    }

    /// The items of the NDArray in this frame, in C order, with the chunk padding and the block
    /// order undone; at most `max_bytes` (the array's `prod(shape) * typesize`). Collected in
    /// memory: [`FrameFile::write_data`] streams them instead.
    pub fn ndarray_data(&self, max_bytes: usize) -> Result<Vec<u8>> {
        let mut limits = self.limits.with_max_output(max_bytes as u64);
        let total = self.data_len()?;
        limits.require("the array's data", total, Limit::Output, 87)?;
        limits = limits.with_max_decompressed(limits.max_decompressed().max(total));
        let mut out = Vec::new();
        crate::container::limits::try_reserve(&mut out, total as usize, "the array's data", 87)?;
        let mut f = self.clone();
        f.limits = limits;
        f.write_ndarray(&mut out)?;
        Ok(out)
    }

    /// Writes `content` over the content of metalayer `name`, which must have the same length
    /// (how the `b2nd` shape changes on resize). Everything is checked before the single write;
    /// no other byte changes.
    pub fn update_metalayer(&mut self, name: &str, content: &[u8]) -> Result<()> {
        let (at, len) = self.metalayer_place(name)?;
        if content.len() != len {
            return Err(Error::invalid(
                "new content of the same length as the old,",
                len,
                content.len(),
                at as usize,
            )
            .in_segment(crate::format::error::Segment::Key(name.into()))
            .in_field("metalayers"));
        }
        let mut f = self.open_unchanged_metalayer(name, at, len)?;
        f.seek(SeekFrom::Start(self.offset + at))?;
        f.write_all(content)?;
        f.flush()?;
        self.header[at as usize..at as usize + len].copy_from_slice(content);
        Ok(())
    }

    /// Writes `value` into field `field` of metalayer `name`, a struct of a derived layout
    /// (`Units::SCALE`), without computing offsets by hand: the field must have a fixed place
    /// inside the metalayer's content, its marker is checked (in memory, then in the file), and
    /// its bytes are written in one write; no other byte of the file changes. Errors name the
    /// field (`metalayers["units"].scale`) and the absolute offset in the file.
    ///
    /// The field's place is its place in the layout: `Units::SCALE` below is at byte 2 of the
    /// content whatever the values, because every field before it has a fixed width (under
    /// `#[b2(minimal)]` a field has one only with an encoding attribute: `version: u8` alone would
    /// be the smallest form of its value, and `SCALE` would have no fixed place). To read the
    /// whole metalayer typed, take its content from the frame's view and decode it, as below.
    ///
    /// ```
    /// use b2schema::B2Layout;
    /// use b2schema::frame::FrameFile;
    ///
    /// #[derive(B2Layout, Debug, PartialEq)]
    /// #[b2(minimal)]
    /// struct Units<'a> {
    ///     #[b2(fixint)]
    ///     version: u8,
    ///     #[b2(float64)]
    ///     scale: f64,
    ///     #[b2(fixstr(len = 3))]
    ///     name: &'a str,
    /// }
    ///
    /// // A frame holding the metalayer `units` (the writer takes each metalayer's content).
    /// let path = std::env::temp_dir().join(format!("units-{}.b2frame", std::process::id()));
    /// let mut writer = b2schema::writer::Frame::new(1);
    /// let units = b2schema::to_vec(&Units { version: 1, scale: 2.5, name: "m/s" })?;
    /// writer.metalayers = vec![("units".into(), units)];
    /// writer.write_file(&path)?;
    ///
    /// let mut frame = FrameFile::open(&path)?;
    /// frame.patch_metalayer_field("units", Units::SCALE, &-9.75)?;
    ///
    /// // A typed read of the metalayer by name.
    /// let view = frame.view()?;
    /// let content = view.metalayer("units").expect("the metalayer is there");
    /// let units: Units = b2schema::from_slice(content)?;
    /// assert_eq!(units, Units { version: 1, scale: -9.75, name: "m/s" });
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn patch_metalayer_field<T>(
        &mut self,
        name: &str,
        field: crate::schema::layout::FieldRef<T>,
        value: &T,
    ) -> Result<()>
    where
        T: ?Sized + serde_core::Serialize,
    {
        let (at, len) = self.metalayer_place(name)?;
        let in_layer =
            |e: Error| e.in_segment(crate::format::error::Segment::Key(name.into())).in_field("metalayers");
        let base = self.offset + at;
        // Everything is checked on a copy of the content first (role, place, width, marker).
        let mut content = self.header[at as usize..at as usize + len].to_vec();
        field.patch(&mut content, value).map_err(|e| in_layer(Error::from(e).shift_offset(base as usize)))?;
        let mut f = self.open_unchanged_metalayer(name, at, len)?;
        field.patch_file(&mut f, base, value).map_err(|e| in_layer(e.into()))?;
        self.header[at as usize..at as usize + len].copy_from_slice(&content);
        Ok(())
    }

    /// Where metalayer `name`'s content starts in the frame, and its length.
    fn metalayer_place(&self, name: &str) -> Result<(u64, usize)> {
        let v = self.view()?;
        let (_, offset, old) = v
            .header
            .metalayers
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| Error::invalid("an existing metalayer named", name, "none", 87))?;
        Ok((offset as u64 + 5, old.len()))
    }

    /// Opens the frame's file for writing, after checking that it still holds metalayer `name`
    /// (content at `at`, `len` bytes) as it was read: its c6 marker, length and bytes. If the
    /// frame changed since it was opened, a write could land on anything else.
    fn open_unchanged_metalayer(&self, name: &str, at: u64, len: usize) -> Result<File> {
        let mut f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(self.frame_path())
            .map_err(|e| Error::from(e).with_offset((self.offset + at) as usize))?;
        let cached = &self.header[at as usize - 5..at as usize + len];
        let mut on_disk = vec![0u8; cached.len()];
        read_at(&mut f, self.offset + at - 5, &mut on_disk, &mut 0)?;
        if on_disk != cached {
            return Err(Error::invalid(
                "the metalayer's bytes as read when the frame was opened (the file changed since):",
                name,
                "other bytes",
                (self.offset + at) as usize - 5,
            )
            .in_segment(crate::format::error::Segment::Key(name.into()))
            .in_field("metalayers"));
        }
        Ok(f)
    }
}

/// The header fields a chunk's size is checked against.
struct SizeFields {
    nbytes: i64,
    chunksize: i32,
    flags: super::header::FrameFlags,
}

pub(crate) fn read_at<R: Read + Seek>(f: &mut R, at: u64, buf: &mut [u8], counter: &mut u64) -> Result<()> {
    f.seek(SeekFrom::Start(at)).map_err(|e| Error::from(e).with_offset(at as usize))?;
    f.read_exact(buf).map_err(|e| Error::from(e).with_offset(at as usize))?;
    *counter += buf.len() as u64;
    Ok(())
}

/// The most bytes read for an offsets index of at most `max_chunks` entries: their 8 bytes
/// each, twice over, plus a dictionary's worth (the index is a chunk; see [`max_cbytes`]).
fn index_bound(max_chunks: u64) -> u64 {
    max_chunks.saturating_mul(16).saturating_add(CHUNK_FIXED_OVERHEAD)
}

/// What a chunk may hold besides its blocks' data: the extended header, a dictionary and its
/// length.
const CHUNK_FIXED_OVERHEAD: u64 = 32 + b2schema_chunk::MAX_DICT_SIZE as u64 + 4;

/// The most bytes a chunk of this header can store: c-blosc2 never writes more than its data
/// plus its fixed overhead (the extended header, a dictionary and its length: 32 +
/// [`MAX_DICT_SIZE`](b2schema_chunk::MAX_DICT_SIZE) + 4 bytes) and, per block, a block start and
/// one size per stream (a stream that does not compress is stored raw).
pub fn max_cbytes(h: &ChunkHeader) -> u64 {
    let nbytes = h.uncompressed_len() as u64;
    let per_block = 4 + 4 * h.typesize.max(1) as u64;
    nbytes.saturating_add(CHUNK_FIXED_OVERHEAD).saturating_add((h.nblocks() as u64).saturating_mul(per_block))
}
