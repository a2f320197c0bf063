//! Reading a hyper-rectangle of an NDArray from a frame file, decoding only the chunks and the
//! blocks it touches.
//!
//! The selection is cut along its first dimension into *bands* at the array's chunk boundaries
//! (and, when streamed, at block boundaries into pieces of a bounded size), made one at a time.
//! A band's output is a contiguous run of the C-order result, so runs of bands are handed to
//! scoped threads with disjoint output slices; inside a band, each touched chunk gives the
//! blocks that the selection touches (a special chunk fills its part at once). Work and memory follow the
//! selection and the touched blocks, never the padded chunk grid, the number of blocks or the number of
//! chunks: one block buffer per thread, and each chunk's table (header, block offsets,
//! dictionary) read by the band that needs it, then dropped (a chunk row that two threads
//! share is read by both, and counted twice in [`ReadStats::chunks`]).

use alloc::vec::Vec;
use core::ops::Range;

use super::selection::Selection;
use crate::container::b2nd::{self, NdMeta};
use crate::container::error::{Error, Result};
use crate::container::frame::{ChunkLocation, FrameFile, SpecialValue};
use crate::container::limits::{Limit, Limits};
use b2schema_chunk::{BlockScratch, ChunkBlocks, ErrorKind as ChunkErrorKind, Prefix};

/// How to read: threads and the largest result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadOptions {
    /// Threads decoding at once (scoped; 1 decodes on the caller's thread). The result is the
    /// same whatever the count.
    pub nthreads: usize,
    /// The largest result, in bytes, that [`ArrayReader::read`] allocates.
    pub max_bytes: u64,
    /// The least work, in bytes, worth a thread of its own: a read that decodes `n` bytes (the
    /// blocks it touches, whole: a column of a wide array counts every block it crosses) runs
    /// on at most `n / min_thread_bytes` threads (at least one), so a small slice is not slowed
    /// by starting threads ([`DEFAULT_MIN_THREAD_BYTES`]; 0 splits whatever the size).
    pub min_thread_bytes: u64,
}

/// [`ReadOptions::min_thread_bytes`]'s default, 1 MiB: about 0.2 ms of decoding, several times
/// what starting a thread and handing it its part costs.
pub const DEFAULT_MIN_THREAD_BYTES: u64 = 1 << 20;

impl Default for ReadOptions {
    /// The available cores, results of up to 4 GiB, a thread per MiB of result at most.
    fn default() -> Self {
        let nthreads = std::thread::available_parallelism().map_or(1, |n| n.get());
        ReadOptions { nthreads, max_bytes: 4 << 30, min_thread_bytes: DEFAULT_MIN_THREAD_BYTES }
    }
}

impl ReadOptions {
    /// One thread and results of up to `max_bytes`.
    pub fn one_thread(max_bytes: u64) -> ReadOptions {
        ReadOptions { nthreads: 1, max_bytes, min_thread_bytes: DEFAULT_MIN_THREAD_BYTES }
    }

    /// The threads a read of `bytes` runs on: `nthreads`, fewer when each would get less than
    /// `min_thread_bytes`, at least one.
    pub fn threads_for(&self, bytes: u64) -> usize {
        let by_size = bytes.checked_div(self.min_thread_bytes).unwrap_or(u64::MAX).max(1);
        (self.nthreads.max(1) as u64).min(by_size) as usize
    }
}

/// What a read cost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// Chunks the selection touched.
    pub chunks: u64,
    /// Blocks decoded (blocks of special chunks are filled, not decoded, and not counted).
    pub blocks: u64,
    /// Bytes those blocks decoded to.
    pub bytes_decoded: u64,
    /// Bytes read from files.
    pub bytes_read: u64,
}

impl ReadStats {
    pub(super) fn add(&mut self, o: &ReadStats) {
        self.chunks += o.chunks;
        self.blocks += o.blocks;
        self.bytes_decoded += o.bytes_decoded;
        self.bytes_read += o.bytes_read;
    }
}

/// An NDArray in a frame file, ready to read any part of.
#[derive(Debug)]
pub struct ArrayReader<'f> {
    file: FileRef<'f>,
    pub(super) meta: NdMeta,
    pub(super) typesize: usize,
    pub(super) shape: Vec<u64>,
    pub(super) chunkshape: Vec<u64>,
    pub(super) blockshape: Vec<u64>,
    /// Blocks per chunk, per dimension (the extended chunk shape over the block shape).
    pub(super) bgrid: Vec<u64>,
    /// Chunks per dimension.
    pub(super) grid: Vec<u64>,
    pub(super) locations: Vec<ChunkLocation>,
    /// Bytes of one (padded) chunk and of one block.
    pub(super) chunk_bytes: usize,
    pub(super) block_bytes: usize,
    /// Block buffers kept between reads (one per thread of the widest read), so that a small read
    /// repeated (an item, a row) neither allocates nor faults in a block's pages each time.
    spare: std::sync::Mutex<Vec<Scratch>>,
}

/// The frame file a reader reads: borrowed ([`ArrayReader::new`]) or shared
/// ([`ArrayReader::from_shared`], which an owned handle such as [`crate::Container`] keeps).
#[derive(Debug)]
enum FileRef<'f> {
    Borrowed(&'f FrameFile),
    Shared(std::sync::Arc<FrameFile>),
}

impl core::ops::Deref for FileRef<'_> {
    type Target = FrameFile;
    fn deref(&self) -> &FrameFile {
        match self {
            FileRef::Borrowed(f) => f,
            FileRef::Shared(f) => f,
        }
    }
}

/// A touched chunk, with what is needed to give any of its blocks.
pub(super) struct Chunk {
    /// The chunk's first item in array coordinates.
    pub(super) origin: Vec<u64>,
    pub(super) source: Source,
}

pub(super) enum Source {
    /// Every item is this item (special chunks).
    Fill(Vec<u8>),
    /// Blocks decoded one at a time, from the chunk's bytes at `loc`.
    Blocks { loc: ChunkLocation, table: alloc::boxed::Box<ChunkBlocks>, first: Option<Vec<u8>> },
    /// A chunk whose blocks are not the array's blocks (a header blocksize that is not the block
    /// shape's): decoded whole, once.
    Whole(Vec<u8>),
}

pub(super) fn invalid(
    what: &'static str,
    expected: impl core::fmt::Display,
    found: impl core::fmt::Display,
) -> Error {
    // Checks of the request against the array (its dtype, a selection): no byte offset to name.
    Error::mismatch(what, expected, found)
}

impl<'f> ArrayReader<'f> {
    /// The NDArray in `file` (its `b2nd` metalayer, or a legacy `caterva` one), checked against
    /// the frame: one chunk per cell of the chunk grid, chunks and blocks of sizes c-blosc2 can
    /// write.
    pub fn new(file: &'f FrameFile) -> Result<Self> {
        Self::with_file(FileRef::Borrowed(file))
    }

    /// The NDArray in `file`, which the reader shares (it borrows nothing: an
    /// `ArrayReader<'static>` to keep in a struct or send to a thread).
    pub fn from_shared(file: std::sync::Arc<FrameFile>) -> Result<ArrayReader<'static>> {
        ArrayReader::with_file(FileRef::Shared(file))
    }

    /// The frame file it reads.
    pub fn file(&self) -> &FrameFile {
        &self.file
    }

    fn with_file(file: FileRef<'f>) -> Result<Self> {
        let v = file.view()?;
        let raw = v.metalayer("b2nd").or_else(|| v.metalayer("caterva")).ok_or_else(|| {
            Error::invalid("an NDArray (a b2nd or caterva metalayer)", "b2nd", "an SChunk", 87)
        })?;
        let meta = b2nd::read_any(raw)?;
        meta.check()?;
        let typesize = usize::try_from(v.header.typesize).ok().filter(|&t| t > 0).ok_or_else(|| {
            Error::invalid("a typesize of at least", 1, v.header.typesize, 48).in_field("typesize")
        })?;
        let to_u64 = |v: &[i64]| v.iter().map(|&x| x.max(0) as u64).collect::<Vec<u64>>();
        let shape = to_u64(&meta.shape);
        let chunkshape: Vec<u64> = meta.chunkshape.iter().map(|&c| c.max(0) as u64).collect();
        let blockshape: Vec<u64> = meta.blockshape.iter().map(|&b| b.max(0) as u64).collect();
        let ext: Vec<u64> = chunkshape
            .iter()
            .zip(&blockshape)
            .map(|(&c, &b)| if b == 0 { 0 } else { c.div_ceil(b) * b })
            .collect();
        let bgrid = ext.iter().zip(&blockshape).map(|(&e, &b)| e.checked_div(b).unwrap_or(0)).collect();
        let grid: Vec<u64> = shape
            .iter()
            .zip(&chunkshape)
            .map(|(&s, &c)| if s == 0 || c == 0 { 0 } else { s.div_ceil(c) })
            .collect();
        // c-blosc2's largest chunk is `i32::MAX` bytes: sizes past it are a lie, refused here
        // before any of them sizes anything.
        let bytes = |dims: &[u64]| -> Option<usize> {
            dims.iter()
                .try_fold(typesize as u64, |a, &d| a.checked_mul(d))
                .filter(|&n| n <= i32::MAX as u64)
                .map(|n| n as usize)
        };
        let chunk_bytes =
            bytes(&ext).ok_or_else(|| invalid("a chunk of at most i32::MAX bytes:", i32::MAX, "more"))?;
        let block_bytes = bytes(&blockshape)
            .ok_or_else(|| invalid("a block of at most i32::MAX bytes:", i32::MAX, "more"))?;
        // One block (or, for a chunk cut in other blocks than the array's, one chunk) is held in
        // memory at a time.
        file.limits().require(
            "an array block held in memory, bytes",
            block_bytes as u64,
            Limit::Decompressed,
            87,
        )?;
        let locations = if shape.contains(&0) { Vec::new() } else { v.chunk_locations()? };
        let want = grid.iter().try_fold(1u64, |a, &g| a.checked_mul(g)).unwrap_or(u64::MAX);
        if locations.len() as u64 != want && !shape.contains(&0) {
            return Err(
                invalid("one chunk per cell of the chunk grid:", want, locations.len()).in_field("chunks")
            );
        }
        Ok(ArrayReader {
            file,
            meta,
            typesize,
            shape,
            chunkshape,
            blockshape,
            bgrid,
            grid,
            locations,
            chunk_bytes,
            block_bytes,
            spare: std::sync::Mutex::default(),
        })
    }

    /// A block buffer kept by an earlier read, or a new one.
    pub(super) fn take_scratch(&self) -> Scratch {
        self.spare.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default()
    }

    /// Keeps `scratch` for the next read. The pool holds at most as many as the most threads
    /// one read ran at once, and never more than 64.
    pub(super) fn keep_scratch(&self, scratch: Scratch) {
        if let Ok(mut v) = self.spare.lock()
            && v.len() < 64
        {
            v.push(scratch);
        }
    }

    /// The array's shape.
    pub fn shape(&self) -> &[u64] {
        &self.shape
    }

    /// Bytes per item (the frame header's typesize).
    pub fn typesize(&self) -> usize {
        self.typesize
    }

    /// The chunk shape, in the same integer type as [`shape`](Self::shape).
    pub fn chunks(&self) -> &[u64] {
        &self.chunkshape
    }

    /// The block shape, in the same integer type as [`shape`](Self::shape).
    pub fn blocks(&self) -> &[u64] {
        &self.blockshape
    }

    /// The NumPy dtype string (`"<f8"`, `"|S5"`, a structured dtype's list), or `None` for the
    /// legacy `caterva` layout, which has none.
    pub fn dtype(&self) -> Option<&str> {
        self.meta.dtype.as_deref()
    }

    /// The `b2nd` metalayer.
    pub fn meta(&self) -> &NdMeta {
        &self.meta
    }

    /// The items of `sel` in C order, as bytes.
    pub fn read(&self, sel: &Selection, opts: &ReadOptions) -> Result<(Vec<u8>, ReadStats)> {
        let len = self.result_len(sel, opts)?;
        let mut out = zeroed(len)?;
        let stats = self.read_into(sel, &mut out, opts)?;
        Ok((out, stats))
    }

    /// Streams the items of `sel` in C order to `sink`, in pieces of about `slab_bytes` (at
    /// least one band of the first dimension's block rows), in order: memory stays bounded
    /// whatever the selection's size. Each piece is read with [`ArrayReader::read_into`]'s threads.
    pub fn read_to(
        &self,
        sel: &Selection,
        opts: &ReadOptions,
        slab_bytes: usize,
        mut sink: impl FnMut(&[u8]) -> Result<()>,
    ) -> Result<ReadStats> {
        let total = self.result_len(sel, &ReadOptions { max_bytes: u64::MAX, ..*opts })?;
        let ranges = sel.ranges();
        if ranges.is_empty() || total == 0 || sel.is_strided() {
            // A strided selection is read whole (its result is within `opts.max_bytes`), from
            // pieces of its bounding box.
            let (bytes, stats) = self.read(sel, opts)?;
            sink(&bytes)?;
            return Ok(stats);
        }
        let row_bytes = ranges[1..].iter().fold(self.typesize as u64, |a, r| a * (r.end - r.start)) as usize;
        // The whole selection's chunks told to a remote source before the pieces are read (each
        // piece may lie in one chunk).
        let lo: Vec<u64> = ranges.iter().zip(&self.chunkshape).map(|(r, &c)| r.start / c).collect();
        let hi: Vec<u64> = ranges.iter().zip(&self.chunkshape).map(|(r, &c)| (r.end - 1) / c).collect();
        self.hint_whole_chunks(&lo, &hi, total as u64);
        let mut stats = ReadStats::default();
        let mut buf = Vec::new();
        let max_rows = (slab_bytes / row_bytes.max(1)).max(1) as u64;
        let mut bands = self.bands(&ranges[0], max_rows).peekable();
        while let Some(first) = bands.next() {
            let start = first.start;
            let mut end = first.end;
            while let Some(next) =
                bands.next_if(|b| ((b.end - start) as usize).saturating_mul(row_bytes) <= slab_bytes)
            {
                end = next.end;
            }
            let mut part = ranges.to_vec();
            part[0] = start..end;
            let part = Selection::new(part, &self.shape)
                .map_err(|e| invalid("a selection", "inside the shape", e))?;
            let n = (end - start) as usize * row_bytes;
            if buf.len() < n {
                let more = n - buf.len();
                crate::container::limits::try_reserve(&mut buf, more, "a piece of the selection", 0)?;
                buf.resize(n, 0);
            }
            stats.add(&self.read_into(&part, &mut buf[..n], opts)?);
            sink(&buf[..n])?;
        }
        Ok(stats)
    }

    pub(super) fn result_len(&self, sel: &Selection, opts: &ReadOptions) -> Result<usize> {
        if sel.ranges().len() != self.shape.len()
            || sel.ranges().iter().zip(&self.shape).any(|(r, &s)| r.end > s)
        {
            let (shape, ranges) = (alloc::format!("{:?}", self.shape), alloc::format!("{:?}", sel.ranges()));
            return Err(invalid("a selection inside the shape", shape, ranges));
        }
        let bytes = sel.len().and_then(|n| n.checked_mul(self.typesize as u64)).unwrap_or(u64::MAX);
        Limits::check("the selection's items, bytes", bytes, Limit::Output, opts.max_bytes, 0)?;
        usize::try_from(bytes).map_err(|_| Error::no_memory("the selection's items", bytes, 0))
    }

    /// The selection's first-dimension range cut at the array's chunk boundaries, and into
    /// pieces of at most `max_rows` rows (at least one block row) cut at block boundaries;
    /// made one at a time, so that memory never follows the number of block rows (a selection
    /// may cross 2^30 of them).
    pub(super) fn bands(&self, r: &Range<u64>, max_rows: u64) -> Bands {
        Bands { at: r.start, end: r.end, chunk: self.chunkshape[0], block: self.blockshape[0], max_rows }
    }

    /// The first block boundary of the first dimension at or after `row`.
    pub(super) fn band_boundary_at_or_after(&self, row: u64) -> u64 {
        let (c, b) = (self.chunkshape[0], self.blockshape[0]);
        let in_chunk = row % c;
        let chunk_start = row - in_chunk;
        (chunk_start + in_chunk.div_ceil(b).saturating_mul(b)).min(chunk_start + c)
    }

    /// Reads what is needed to give the blocks of chunk `index`.
    pub(super) fn chunk(&self, index: usize, origin: Vec<u64>, stats: &mut ReadStats) -> Result<Chunk> {
        let at_chunk =
            |e: Error| e.in_segment(crate::format::error::Segment::Index(index)).in_field("chunks");
        let loc =
            *self.locations.get(index).ok_or_else(|| invalid("a chunk in the index at", index, "none"))?;
        stats.chunks += 1;
        let source = match loc {
            ChunkLocation::Special(kind) => Source::Fill(self.special_item(kind).map_err(at_chunk)?),
            loc => {
                let (f, at, end) = self.file.chunk_file(loc)?;
                // The table kept from an earlier read of the chunk (remote sources), else read.
                let mut prefix = self.file.kept_table(loc).map(|t| t.to_vec()).unwrap_or_default();
                let mut read = false;
                let table = loop {
                    match ChunkBlocks::from_prefix(&prefix).map_err(|e| Error::chunk(e, at as usize))? {
                        Prefix::Ready(t) => break t.with_registry(self.file.registry()),
                        Prefix::Need(n)
                            if n > prefix.len() && n <= self.chunk_bytes.saturating_add(1 << 20) =>
                        {
                            if at.saturating_add(n as u64) > end {
                                let past = at.saturating_add(n as u64);
                                return Err(at_chunk(invalid(
                                    "a chunk inside its section, ending by",
                                    end,
                                    past,
                                )));
                            }
                            // At least what a read is worth (a remote source's round trip), within
                            // the chunk's section.
                            let len = (n as u64).max(f.min_read().min(end - at)) as usize;
                            prefix.resize(len, 0);
                            crate::container::frame::pread(&f, at, &mut prefix, &mut stats.bytes_read)?;
                            read = true;
                        }
                        Prefix::Need(n) => {
                            return Err(at_chunk(invalid(
                                "a chunk table of a plausible size, bytes:",
                                self.chunk_bytes,
                                n,
                            )));
                        }
                    }
                };
                if read {
                    self.file.keep_table(loc, &prefix);
                }
                let h = table.header();
                if at.saturating_add(h.compressed_len() as u64) > end {
                    let past = at.saturating_add(h.compressed_len() as u64);
                    return Err(at_chunk(invalid("a chunk inside its section, ending by", end, past)));
                }
                if h.uncompressed_len() != self.chunk_bytes {
                    return Err(at_chunk(invalid(
                        "a chunk of the extended chunk shape, bytes:",
                        self.chunk_bytes,
                        h.uncompressed_len(),
                    )));
                }
                if let Some(item) = table.repeated() {
                    Source::Fill(item)
                } else if h.effective_blocksize() == self.block_bytes && !h.is_vl_blocks() {
                    let first = if table.needs_first_block() {
                        let mut b = alloc::vec![0u8; table.block_range(0).len()];
                        decode_block(
                            &self.file,
                            loc,
                            &table,
                            0,
                            &[],
                            &mut b,
                            &mut BlockIo::default(),
                            stats,
                        )?;
                        Some(b)
                    } else {
                        None
                    };
                    Source::Blocks { loc, table: alloc::boxed::Box::new(table), first }
                } else {
                    let bytes = self.file.read_chunk(loc)?;
                    stats.bytes_read += bytes.len() as u64;
                    let data = b2schema_chunk::Decoder::new(self.file.registry())
                        .max_nbytes(self.chunk_bytes)
                        .decompress(&bytes)
                        .map_err(|e| Error::chunk(e, at as usize))?;
                    stats.blocks += h.nblocks() as u64;
                    stats.bytes_decoded += data.len() as u64;
                    Source::Whole(data)
                }
            }
        };
        Ok(Chunk { origin, source })
    }

    /// The item of a special chunk of the index.
    fn special_item(&self, kind: SpecialValue) -> Result<Vec<u8>> {
        let ts = self.typesize;
        Ok(match (kind, ts) {
            (SpecialValue::Nan, 4) => f32::NAN.to_le_bytes().to_vec(),
            (SpecialValue::Nan, 8) => f64::NAN.to_le_bytes().to_vec(),
            (SpecialValue::Nan, _) => {
                return Err(invalid("NaN chunks of 4- or 8-byte items, not", "4 or 8", ts));
            }
            _ => alloc::vec![0u8; ts],
        })
    }
}

/// `len` zero bytes, refused rather than aborting when they cannot be had: the allocation is
/// tried first, then made zeroed by the allocator (`vec!`), which takes fresh zero pages from the
/// system for large buffers instead of writing zeros over them (python-blosc2's `np.empty` does
/// not write them either).
fn zeroed(len: usize) -> Result<Vec<u8>> {
    let mut probe: Vec<u8> = Vec::new();
    crate::container::limits::try_reserve(&mut probe, len, "the result", 0)?;
    drop(probe);
    Ok(alloc::vec![0u8; len])
}

/// Advances `coords` in C order within `lo..=hi`; `false` after the last.
pub(super) fn next_in_box(coords: &mut [u64], lo: &[u64], hi: &[u64]) -> bool {
    for d in (0..coords.len()).rev() {
        if coords[d] < hi[d] {
            coords[d] += 1;
            return true;
        }
        coords[d] = lo[d];
    }
    false
}

/// Reads block `j`'s span of the chunk at `loc` and decodes it into `dst`.
#[allow(clippy::too_many_arguments)]
pub(super) fn decode_block(
    file: &FrameFile,
    loc: ChunkLocation,
    table: &ChunkBlocks,
    j: usize,
    reference: &[u8],
    dst: &mut [u8],
    io: &mut BlockIo,
    stats: &mut ReadStats,
) -> Result<()> {
    // Only regular files; the chunk was checked to lie inside its section when its table was
    // read, and its block spans lie inside the chunk.
    let (f, start, _) = file.chunk_file(loc)?;
    let at = start as usize;
    let span = table.block_span(j).map_err(|e| Error::chunk(e, at))?;
    // The block's span, then (for blocks stored out of order, whose streams run past the next
    // block's start) the chunk from the span to its end; from the bytes fetched ahead for the
    // band when they hold them (a remote source), else read.
    let BlockIo { chunk, read, ahead } = io;
    for end in [span.end, table.header().compressed_len()] {
        let len = end - span.start;
        let fetched = ahead.as_ref().and_then(|(l, at, bytes)| {
            let from = usize::try_from((start + span.start as u64).checked_sub(*at)?).ok()?;
            (*l == loc).then(|| bytes.get(from..from.checked_add(len)?)).flatten()
        });
        let bytes = match fetched {
            Some(bytes) => bytes,
            None => {
                if read.len() < len {
                    let more = len - read.len();
                    crate::container::limits::try_reserve(read, more, "a block's bytes", at)?;
                    read.resize(len, 0);
                }
                let bytes = &mut read[..len];
                crate::container::frame::pread(&f, start + span.start as u64, bytes, &mut stats.bytes_read)?;
                &*bytes
            }
        };
        match table.decode_block(j, bytes, span.start, reference, dst, chunk) {
            Err(e) if e.kind == ChunkErrorKind::ShortInput && end != table.header().compressed_len() => {}
            r => {
                r.map_err(|e| Error::chunk(e, at))?;
                break;
            }
        }
    }
    stats.blocks += 1;
    stats.bytes_decoded += dst.len() as u64;
    Ok(())
}

/// A thread's reusable buffers.
#[derive(Default)]
pub(super) struct Scratch {
    pub(super) block: Vec<u8>,
    pub(super) io: BlockIo,
}

impl core::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Scratch").field("block", &self.block.len()).finish_non_exhaustive()
    }
}

/// What decoding one block reuses: the codec's scratch and the buffer the block's bytes are
/// read into.
#[derive(Default)]
pub(super) struct BlockIo {
    chunk: BlockScratch,
    read: Vec<u8>,
    /// The bytes of one chunk (`loc`) from absolute offset `at` that hold the blocks a band
    /// needs, fetched in one read from a remote source ([`fetch_ahead`]).
    ahead: Option<(ChunkLocation, u64, Vec<u8>)>,
}

/// Fetches in one read the bytes `span` (chunk-relative) of chunk `loc`, which hold the blocks a
/// band needs from a remote source, so that they are decoded without a request each (a whole
/// chunk of 256 blocks: one request instead of 256); nothing when they are more than
/// [`Limits::max_decompressed`] (the blocks are then read one by one).
pub(super) fn fetch_ahead(
    file: &FrameFile,
    loc: ChunkLocation,
    span: Range<usize>,
    io: &mut BlockIo,
    stats: &mut ReadStats,
) -> Result<()> {
    let keep = io.ahead.take().map(|(_, _, bytes)| bytes);
    if span.len() as u64 > file.limits().max_decompressed() {
        return Ok(());
    }
    let (f, start, _) = file.chunk_file(loc)?;
    // The buffer of the chunk before, its bytes overwritten: only what it lacks is zeroed.
    let mut bytes = keep.unwrap_or_default();
    bytes.truncate(span.len());
    let what = "a chunk's blocks fetched at once";
    let lacking = span.len() - bytes.len();
    crate::container::limits::try_reserve(&mut bytes, lacking, what, start as usize)?;
    bytes.resize(span.len(), 0);
    let at = start + span.start as u64;
    crate::container::frame::pread(&f, at, &mut bytes, &mut stats.bytes_read)?;
    io.ahead = Some((loc, at, bytes));
    Ok(())
}

#[cfg(all(test, feature = "ndarray"))]
mod ndarray_tests {
    use super::*;
    use crate::container::writer::{Fill, NdArray};

    #[test]
    fn a_slice_as_an_ndarray() {
        let data: Vec<u8> = (0..12 * 7).flat_map(|i| (i as f64).to_le_bytes()).collect();
        let array = NdArray::new(&[12, 7], &[5, 4], &[2, 3], "<f8", 8, Fill::Data(&data));
        let path = std::env::temp_dir().join(format!("b2schema-ndarray-{}.b2nd", std::process::id()));
        array.to_frame().unwrap().write_file(&path).unwrap();
        let file = FrameFile::open(&path).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        let sel = Selection::parse("3:9, 2:5", reader.shape()).unwrap();
        let a = reader.read_ndarray::<f64>(&sel, &ReadOptions::default()).unwrap();
        assert_eq!(a.shape(), &[6, 3]);
        assert_eq!(a[[0, 0]], (3 * 7 + 2) as f64);
        assert_eq!(a[[5, 2]], (8 * 7 + 4) as f64);
        // NumPy's shapes: a single index drops its dimension (it gave [1, 7] and [1, 1] before).
        let row = reader
            .read_ndarray::<f64>(&Selection::parse("7", reader.shape()).unwrap(), &ReadOptions::default());
        let row = row.unwrap();
        assert_eq!(row.shape(), &[7]);
        assert_eq!(row[[6]], (7 * 7 + 6) as f64);
        let col = reader.read_ndarray::<f64>(
            &Selection::parse(":, -1", reader.shape()).unwrap(),
            &ReadOptions::default(),
        );
        assert_eq!(col.unwrap().shape(), &[12]);
        let item = reader
            .read_ndarray::<f64>(&Selection::parse("2, 3", reader.shape()).unwrap(), &ReadOptions::default());
        let item = item.unwrap();
        assert_eq!(item.shape(), &[] as &[usize]);
        assert_eq!(item[[]], (2 * 7 + 3) as f64);
        std::fs::remove_file(&path).unwrap();
    }
}

/// The bands of a first-dimension range: cut at chunk boundaries, and at the block boundaries
/// that keep a band within `max_rows` rows (one block row at least; a chunk's last block may be
/// shorter than the block shape).
pub(super) struct Bands {
    at: u64,
    end: u64,
    chunk: u64,
    block: u64,
    max_rows: u64,
}

impl Iterator for Bands {
    type Item = Range<u64>;

    fn next(&mut self) -> Option<Range<u64>> {
        if self.at >= self.end {
            return None;
        }
        let in_chunk = self.at % self.chunk;
        let chunk_start = self.at - in_chunk;
        let next_chunk = chunk_start + self.chunk;
        let next_block = chunk_start + (in_chunk / self.block + 1) * self.block;
        let cap = self.at.saturating_add(self.max_rows);
        let snapped = if cap >= next_chunk {
            next_chunk
        } else {
            chunk_start + (cap - chunk_start) / self.block * self.block
        };
        let end = snapped.max(next_block).min(next_chunk).min(self.end);
        let band = self.at..end;
        self.at = end;
        Some(band)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::container::writer::{Fill, NdArray};

    /// One function reads with `?` on the selection and on the read (issue 36: the selection's
    /// error did not convert), and the reader says its chunks, blocks and dtype as `u64`s and text.
    #[test]
    fn a_reader_says_its_geometry_and_its_errors_are_the_crates() {
        let path = std::env::temp_dir().join(format!("b2schema-geometry-{}.b2nd", std::process::id()));
        NdArray::new(&[100, 37], &[50, 37], &[10, 37], "<i2", 2, Fill::Zeros)
            .to_frame()
            .unwrap()
            .write_file(&path)
            .unwrap();
        let file = FrameFile::open(&path).unwrap();
        let reader = ArrayReader::new(&file).unwrap();
        assert_eq!(
            (reader.shape(), reader.chunks(), reader.blocks()),
            (&[100, 37][..], &[50, 37][..], &[10, 37][..])
        );
        assert_eq!(reader.dtype(), Some("<i2"));
        let row = |text: &str| -> Result<Vec<u8>> {
            let sel = Selection::parse(text, reader.shape())?;
            Ok(reader.read(&sel, &ReadOptions::default())?.0)
        };
        assert_eq!(row("7").unwrap().len(), 37 * 2);
        let e = row("100").unwrap_err();
        assert!(e.to_string().starts_with("a selection that fits the array: dimension 0: "), "{e}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[cfg(test)]
mod thread_tests {
    use super::{DEFAULT_MIN_THREAD_BYTES, ReadOptions};

    #[test]
    fn a_read_gets_a_thread_per_min_thread_bytes_at_most() {
        let opts = ReadOptions { nthreads: 8, ..ReadOptions::one_thread(u64::MAX) };
        // A 200 KB slice on one thread, however many are allowed.
        assert_eq!(opts.threads_for(200 << 10), 1);
        assert_eq!(opts.threads_for(0), 1);
        assert_eq!(opts.threads_for(3 * DEFAULT_MIN_THREAD_BYTES + 1), 3);
        assert_eq!(opts.threads_for(u64::MAX), 8);
        // 0 splits whatever the size; one thread stays one.
        assert_eq!(ReadOptions { min_thread_bytes: 0, ..opts }.threads_for(1), 8);
        assert_eq!(ReadOptions { nthreads: 0, ..opts }.threads_for(u64::MAX), 1);
    }
}
