//! An array's contiguous frame written as its chunks are made (std only): the header first
//! (its totals patched once the chunks are written), each chunk as soon as it and the chunks
//! before it are done, then the offsets index and the trailer. The bytes are those of
//! [`NdArray::to_frame`] then [`Frame::to_vec`](super::Frame::to_vec).
//!
//! The items come from a slice ([`NdArray::write_to`] with [`Fill::Data`]) or a reader in C
//! order ([`NdArray::write_from`], e.g. the items of a `.npy` file), one slab at a time: the
//! chunks of one place along the first dimension, which are a contiguous run of the array's
//! items. Chunks are compressed on `cparams.nthreads` worker threads while the calling thread
//! reads the next slab and writes the chunks done, so memory is the slabs and chunks in flight
//! (a few per thread), not the array nor the frame.
//!
//! An array of a few chunks (at most [`STREAMED_UP_TO`]), or of large ones (at least
//! [`SHARED_PER_THREAD`] bytes a thread), compressed one at a time (one thread, or one chunk's
//! blocks on several) has each chunk written out in pieces as its blocks are
//! appended in order (the chunk codec's [`Watch`]): the output's write-back starts while the
//! chunk still compresses. Its header and block table, not final until it is done, are written
//! again at the end; a chunk that ends as a memcpy chunk is written again whole (it is longer
//! than any piece written: the pieces stop at its `nbytes + 32`).

#![cfg(feature = "std")]

use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex, mpsc};

use alloc::vec::Vec;

use b2schema_chunk::compress::{Arriving, Watch};

use super::cparams::CParams;
use super::{Chunk, Fill, Kind, NdArray, chunk};
use crate::container::error::{Error, Result};
use crate::container::pages::HUGE_PAGES_FROM;
#[cfg(target_os = "linux")]
use crate::container::pages::HugePages;

/// The bytes of a chunk written out at a time as its blocks are done (when chunks are
/// compressed one at a time): the write-back of the output starts on them while the rest of
/// the chunk compresses.
const PIECE: usize = 128 << 10;

/// The most chunks an array has for its chunks to be written in pieces whatever their size.
const STREAMED_UP_TO: usize = 4;

/// The fewest bytes of a chunk a thread for its blocks to be shared by the threads (a chunk at
/// a time, written in pieces) rather than each thread compressing its own chunks. Measured
/// (`pack`, 128 MiB float64, 2 threads, alternated runs): chunks of 2 to 16 MiB pack 10-30 %
/// faster with the blocks shared and half the memory (a chunk a thread holds each whole and
/// writes it cold from the cache); chunks of 1 MiB and less, faster each on its own thread
/// (lz4: 20 %; each shared chunk costs a spawn and a join a thread).
const SHARED_PER_THREAD: usize = 1 << 20;

/// The most pieces of a chunk waiting to be written (their buffers are reused).
const PIECES: usize = 1;

/// The most pieces of a chunk waiting to be written while the calling thread reads a slab
/// arriving (it writes them between the pieces it reads): 4 MiB.
const PIECES_WHILE_READING: usize = 32;

/// The bytes a slab arriving is read in at least (whole blocks): large enough for 2 MiB pages.
const ARRIVING_PIECE: usize = 2 * HUGE_PAGES_FROM;

/// The fewest pieces of an arriving chunk the reader reads ahead of the compressor (pieces not
/// all of whose blocks are done) before it waits for it: one being read, one ready, those being
/// compressed (more with more than 2 threads: a piece a thread). The compressor lets go of those
/// it is done with (once the chunk cannot end as a memcpy chunk) and the reader reads into them
/// again: a 128 MiB chunk then costs 32 MiB of buffers, zeroed once by the kernel, not 128 (a
/// quarter of the CPU time of packing one such chunk with lz4 + bitshuffle).
const READ_AHEAD: usize = 4;

/// How long the reader waits for the compressor at a time before it writes the pieces done
/// (the compressing threads wait for room to hand them on).
const RELEASE_POLL: std::time::Duration = std::time::Duration::from_millis(2);

/// What a worker sends the writing thread.
enum Made {
    /// The next bytes of chunk `index` as it is made (its blocks in order): from its first
    /// byte on (the header and block table not yet final: they end at `body_start`).
    Piece { index: usize, bytes: Vec<u8>, body_start: usize },
    /// Chunk `index`, made.
    Done(usize, Result<Chunk>),
}

/// A chunk written out as it is made: where it starts in the output, the bytes written, where
/// its blocks start (the header and block table before it are written again when it is done).
struct Streaming {
    index: usize,
    at: u64,
    sent: u64,
    body_start: usize,
}

/// The [`Watch`] of a chunk compressed alone: hands its bytes to the writing thread in pieces
/// of at least `piece` bytes as its blocks are appended.
struct Streamer<'s> {
    index: usize,
    piece: usize,
    /// The chunk's bytes handed on (none once the writing thread is gone).
    sent: Mutex<Option<usize>>,
    /// Piece buffers written out, for the next pieces.
    spare: &'s Mutex<Vec<Vec<u8>>>,
    tx: mpsc::SyncSender<Made>,
}

impl Watch for Streamer<'_> {
    /// Hands the bytes not yet handed on (all of them the first time, the header and block
    /// table included; then those after the table: the ones before were taken) to the writing
    /// thread once there are at least `piece` of them, and takes them.
    fn appended(&self, chunk: &[u8], body_start: usize) -> bool {
        let Ok(mut sent) = self.sent.lock() else { return false };
        let Some(done) = *sent else { return false };
        let from = if done == 0 { 0 } else { body_start };
        if chunk.len() < from.saturating_add(self.piece) {
            return false;
        }
        // In pieces of at most `PIECE` bytes (or `piece`), so that the pieces in flight are
        // bounded in bytes as in number.
        for part in chunk[from..].chunks(self.piece.max(PIECE)) {
            let mut bytes = self.spare.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default();
            bytes.clear();
            if bytes.try_reserve_exact(part.len()).is_err() {
                // Not taken: the rest is written with the chunk, when it is done (the parts
                // handed on are written again then, from where the chunk's last bytes start).
                *sent = None;
                return false;
            }
            bytes.extend_from_slice(part);
            let piece = Made::Piece { index: self.index, bytes, body_start };
            if self.tx.send(piece).is_err() {
                *sent = None;
                return false;
            }
        }
        *sent = Some(done + chunk.len() - from);
        true
    }
}

/// Writes the rest of chunk `bytes`, written from `st.at` on as it was made (`st.sent` bytes)
/// and whose bytes after its block table were taken but for its last `bytes.len() -
/// body_start`: its header and block table again (now final), then those last bytes where they
/// go; or the whole chunk again when it ended as a memcpy chunk (its streams did not fit: the
/// header and the items, longer than any bytes written before). Returns the chunk's length;
/// `out` ends after it.
fn finish_streamed<W: Write + Seek>(out: &mut W, st: &Streaming, bytes: &[u8]) -> Result<u64> {
    let h = b2schema_chunk::ChunkHeader::peek(bytes).map_err(|e| Error::chunk(e, 0))?;
    let total = h.compressed_len();
    let sent = usize::try_from(st.sent).unwrap_or(usize::MAX);
    out.seek(SeekFrom::Start(st.at))?;
    if h.is_memcpyed() {
        if bytes.len() != total || total < sent {
            return Err(Error::invalid("a memcpy chunk longer than its bytes written", sent, bytes.len(), 0));
        }
        out.write_all(bytes)?;
        return Ok(total as u64);
    }
    // Where the bytes not taken start in the chunk: after every byte written (no gap).
    let tail = bytes.len().checked_sub(st.body_start);
    let tail_at = tail.and_then(|t| total.checked_sub(t)).filter(|&at| at >= st.body_start && at <= sent);
    let Some(tail_at) = tail_at else {
        return Err(Error::invalid("a chunk's last bytes after those written", sent, bytes.len(), 0));
    };
    out.write_all(&bytes[..st.body_start])?;
    out.seek(SeekFrom::Start(st.at + tail_at as u64))?;
    out.write_all(&bytes[st.body_start..])?;
    Ok(total as u64)
}

/// Where the items come from.
enum Source<'a> {
    /// All of them, in memory.
    Slice(&'a [u8]),
    /// In C order from a reader.
    Reader(&'a mut dyn Read),
    /// None: the array is a fill (zeros, NaN, uninit, a value).
    Fill,
}

/// The items of one slab.
#[derive(Clone)]
enum Slab<'a> {
    Borrowed(&'a [u8]),
    Owned(Arc<SlabBuf>),
    /// A slab that is one chunk, arriving in pieces as it is read.
    Arriving(Arc<Arriving>),
}

/// A slab's items read from a reader: from [`HUGE_PAGES_FROM`] bytes on Linux, memory advised
/// for 2 MiB pages (as numpy's `np.load` gets; 4 KiB pages cost a fault each, a third of the
/// system time of packing one 128 MiB chunk), else a `Vec`.
enum SlabBuf {
    Vec(Vec<u8>),
    #[cfg(target_os = "linux")]
    Pages(HugePages),
}

impl core::ops::Deref for SlabBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            SlabBuf::Vec(v) => v,
            #[cfg(target_os = "linux")]
            SlabBuf::Pages(p) => p,
        }
    }
}

impl Slab<'_> {
    fn bytes(&self) -> &[u8] {
        match self {
            Slab::Borrowed(b) => b,
            Slab::Owned(v) => v,
            Slab::Arriving(_) => &[],
        }
    }
}

impl AsRef<[u8]> for SlabBuf {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

/// One chunk to make: its index, grid place, and the slab it lies in with the slab's first item.
struct Job<'a> {
    index: usize,
    at: Vec<usize>,
    slab: Slab<'a>,
    first: usize,
}

impl NdArray<'_> {
    /// Writes the array's contiguous frame to `out` (from its current position) as its chunks
    /// are made, calling `progress(done, total)` after each chunk as
    /// [`to_frame_with_progress`](Self::to_frame_with_progress) does; returns the frame's length.
    /// The bytes are those of `to_frame()?.to_vec()`, without the frame in memory.
    ///
    /// ```
    /// use b2schema::writer::{Fill, NdArray};
    /// let data: Vec<u8> = (0..12i32).flat_map(|v| v.to_le_bytes()).collect();
    /// let a = NdArray::new(&[3, 4], &[2, 4], &[1, 2], "<i4", 4, Fill::Data(&data));
    /// let mut out = std::io::Cursor::new(Vec::new());
    /// a.write_to(&mut out, |_, _| {}).unwrap();
    /// assert_eq!(out.into_inner(), a.to_frame().unwrap().to_vec().unwrap());
    /// ```
    pub fn write_to<W: Write + Seek>(&self, out: &mut W, progress: impl FnMut(u64, u64)) -> Result<u64> {
        match self.fill {
            Fill::Data(d) => self.stream(Source::Slice(d), out, progress, PIECE, ARRIVING_PIECE).map(|r| r.0),
            _ => self.stream(Source::Fill, out, progress, PIECE, ARRIVING_PIECE).map(|r| r.0),
        }
    }

    /// [`write_to`](Self::write_to) with the items read from `items` (`prod(shape) * typesize`
    /// bytes in C order; `self.fill` must be `Fill::Data(&[])`, it is not read): one slab of
    /// chunks at a time, so that memory does not grow with the array. A reader that ends early
    /// is an error naming the item offset where it ended.
    ///
    /// ```
    /// use b2schema::writer::{Fill, NdArray};
    /// let data: Vec<u8> = (0..12i32).flat_map(|v| v.to_le_bytes()).collect();
    /// let a = NdArray::new(&[3, 4], &[2, 4], &[1, 2], "<i4", 4, Fill::Data(&[]));
    /// let mut out = std::io::Cursor::new(Vec::new());
    /// a.write_from(&mut &data[..], &mut out, |_, _| {}).unwrap();
    /// let whole = NdArray::new(&[3, 4], &[2, 4], &[1, 2], "<i4", 4, Fill::Data(&data));
    /// assert_eq!(out.into_inner(), whole.to_frame().unwrap().to_vec().unwrap());
    /// ```
    pub fn write_from<W: Write + Seek>(
        &self,
        items: &mut dyn Read,
        out: &mut W,
        progress: impl FnMut(u64, u64),
    ) -> Result<u64> {
        self.write_reader(items, out, progress, PIECE, ARRIVING_PIECE).map(|r| r.0)
    }

    /// [`write_from`](Self::write_from) writing a chunk compressed alone in pieces of at least
    /// `piece` bytes (128 KiB otherwise), and reading a slab that is one chunk in pieces of the
    /// fewest whole blocks of at least `piece` bytes (8 MiB otherwise): for the tests, which
    /// stream small chunks in pieces. Returns the frame's length and the count of buffers the
    /// items were read into.
    #[doc(hidden)]
    pub fn __write_from_in_pieces<W: Write + Seek>(
        &self,
        items: &mut dyn Read,
        out: &mut W,
        piece: usize,
    ) -> Result<(u64, usize)> {
        self.write_reader(items, out, |_, _| {}, piece.max(1), piece.max(1))
    }

    /// The items from `items` (the fill must be `Fill::Data(&[])`), written in pieces of `piece`
    /// and read in pieces of `read_piece` (see [`stream`](Self::stream)).
    fn write_reader<W: Write + Seek>(
        &self,
        items: &mut dyn Read,
        out: &mut W,
        progress: impl FnMut(u64, u64),
        piece: usize,
        read_piece: usize,
    ) -> Result<(u64, usize)> {
        if !matches!(self.fill, Fill::Data(d) if d.is_empty()) {
            return Err(Error::invalid("Fill::Data(&[]) with items from a reader", "", "another fill", 0));
        }
        self.stream(Source::Reader(items), out, progress, piece, read_piece)
    }

    /// The frame written to `out`; a chunk compressed alone (one worker) is written out in
    /// pieces of at least `piece` bytes as its blocks are done; a slab of one chunk read from a
    /// reader is compressed as it arrives, in pieces of the fewest whole blocks of at least
    /// `read_piece` bytes. Returns the frame's length and the count of buffers the reader's
    /// items were read into (for the tests: a few, however large the chunk).
    fn stream<W: Write + Seek>(
        &self,
        mut src: Source<'_>,
        out: &mut W,
        mut progress: impl FnMut(u64, u64),
        piece: usize,
        read_piece: usize,
    ) -> Result<(u64, usize)> {
        // A reader's array is checked with its size, as if its items were in memory.
        let (frame, lay) = match src {
            Source::Reader(_) => {
                let fake = NdArray { fill: Fill::Zeros, ..self.clone() };
                fake.layout()?
            }
            _ => self.layout()?,
        };
        let ts = self.typesize;
        let base = out.stream_position()?;
        let header0 = frame.header(0, 0, Kind::Contiguous, 0)?;
        out.write_all(&header0)?;

        // Slabs: the chunks of one place along dimension 0 (all chunks for a scalar).
        // Sizes from the caller's shape, checked (a reader's array has no items in memory that
        // would have bounded them).
        let items_of = |dims: &[i64]| {
            dims.iter()
                .try_fold(1usize, |a, &s| a.checked_mul(usize::try_from(s).ok()?))
                .filter(|n| n.checked_mul(ts).is_some())
        };
        let too_big = || Error::no_memory("the array's bytes", u64::MAX, 0);
        let row_items = items_of(self.shape.get(1..).unwrap_or(&[])).ok_or_else(too_big)?;
        let (nslabs, slab_rows) = match (lay.grid.first(), self.chunkshape.first()) {
            (Some(&g), Some(&c)) => (g, c as usize),
            _ => (usize::from(lay.nchunks > 0), 1),
        };
        let per_slab = lay.nchunks.checked_div(nslabs).unwrap_or(0);
        let nitems = items_of(&self.shape).ok_or_else(too_big)?;
        let nthreads = usize::try_from(self.cparams.nthreads).unwrap_or(1).max(1);
        // A few chunks of items (at most `STREAMED_UP_TO`) are compressed one at a time, all the
        // threads on each one's blocks (as c-blosc2 does), so that each is written out as it is
        // made and never whole in memory: one chunk a thread would hold each whole and write
        // nothing until one is done (python-blosc2's 2 chunks of 64 MiB at 2 threads, lz4: 559
        // MB/s against 734 at one thread, BENCHMARKS.md). More chunks: one a worker.
        // Large chunks likewise: at least `SHARED_PER_THREAD` bytes a thread.
        let large = nthreads > 1 && lay.chunk_nbytes >= nthreads.saturating_mul(SHARED_PER_THREAD);
        let few = (lay.nchunks <= STREAMED_UP_TO || large) && matches!(self.fill, Fill::Data(_));
        let workers = if few { 1 } else { nthreads.min(lay.nchunks).max(1) };
        // Fewer chunks than threads: the threads left over share each chunk's blocks.
        let one = CParams { nthreads: i16::try_from(nthreads / workers).unwrap_or(1), ..self.cparams };
        let cap = workers + 1;

        let mut offsets = Vec::new();
        crate::container::limits::try_reserve(&mut offsets, lay.nchunks, "an offsets index", 0)?;
        let (mut nbytes, mut cbytes) = (0u64, 0u64);
        let total = (lay.chunk_nbytes as u64).saturating_mul(lay.nchunks as u64);
        let lay = &lay;
        let one = &one;
        // Chunk buffers written out, kept for the workers' next chunks (at most `cap`): a fresh
        // buffer per chunk costs its page faults (about 5 % of packing 16 MiB chunks).
        let spent: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
        let spent = &spent;
        // A few chunks, or large ones, one at a time (one worker): each is written out as its
        // blocks are done. (With more small chunks, the chunks before are written while one
        // compresses: pieces would only add their copies.)
        let streamed = workers == 1 && few;
        let spare: Mutex<Vec<Vec<u8>>> = Mutex::new(Vec::new());
        let spare = &spare;
        // Slabs of one chunk each, read from a reader: each compressed as its pieces arrive
        // (those whose chunk is one run of the items in order), so that the read of a large
        // chunk overlaps its compression.
        let arriving = matches!(src, Source::Reader(_)) && per_slab == 1;
        // Pieces read ahead of the compressor: room for a block a thread, each in its own piece.
        let read_ahead = READ_AHEAD.max(usize::try_from(one.nthreads).unwrap_or(1) + 2);
        let buffers = std::thread::scope(|s| -> Result<usize> {
            let (job_tx, job_rx) = mpsc::channel::<Job<'_>>();
            let job_rx = Arc::new(Mutex::new(job_rx));
            // Bounded: at most `PIECES` pieces of a chunk wait to be written (more while a slab
            // arrives: the calling thread writes them only between the pieces it reads).
            let pieces = if arriving { PIECES_WHILE_READING } else { PIECES };
            let (res_tx, res_rx) = mpsc::sync_channel::<Made>(cap + pieces);
            for _ in 0..workers {
                let (job_rx, res_tx) = (Arc::clone(&job_rx), res_tx.clone());
                s.spawn(move || {
                    loop {
                        let job = match job_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok(job) = job else { return };
                        let streamer = streamed.then(|| Streamer {
                            index: job.index,
                            piece,
                            sent: Mutex::new(Some(0)),
                            spare,
                            tx: res_tx.clone(),
                        });
                        let watch = streamer.as_ref().map(|w| w as &dyn Watch);
                        // A panic is an error of this chunk, so that the calling thread never
                        // waits for a result that will not come.
                        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            if let Slab::Arriving(src) = &job.slab {
                                let out = spent.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default();
                                self.arriving_chunk(src, lay, one, out, watch)
                            } else if matches!(self.fill, Fill::Data(_)) {
                                let out = spent.lock().ok().and_then(|mut v| v.pop()).unwrap_or_default();
                                self.data_chunk(job.slab.bytes(), job.first, &job.at, lay, one, out, watch)
                            } else {
                                self.make_chunk(&job.at, lay, one)
                            }
                        }))
                        .unwrap_or_else(|_| {
                            Err(Error::invalid("a chunk compressed on its thread", "", "a panic", 0))
                        });
                        if res_tx.send(Made::Done(job.index, made)).is_err() {
                            return;
                        }
                    }
                });
            }
            drop(res_tx);

            let mut pending: BTreeMap<usize, Chunk> = BTreeMap::new();
            let (mut inflight, mut written) = (0usize, 0usize);
            // The chunk being written as it is made: its place in `out` and the bytes written.
            let mut streaming: Option<Streaming> = None;
            // Takes one result (waiting for it, or only one there already: `false` when there is
            // none), writing every chunk now in order.
            let mut take = |inflight: &mut usize, wait: bool| -> Result<bool> {
                let gone = || Error::invalid("a chunk from its worker thread", "", "a panic", 0);
                let made = match wait {
                    true => res_rx.recv().map_err(|_| gone())?,
                    false => match res_rx.try_recv() {
                        Ok(made) => made,
                        Err(mpsc::TryRecvError::Empty) => return Ok(false),
                        Err(mpsc::TryRecvError::Disconnected) => return Err(gone()),
                    },
                };
                let (index, made) = match made {
                    Made::Piece { index, bytes, body_start } => {
                        let at = base + header0.len() as u64 + cbytes;
                        let st = streaming.get_or_insert(Streaming { index, at, sent: 0, body_start });
                        if index != written || st.index != index {
                            return Err(Error::invalid(
                                "a piece of the chunk being written",
                                written,
                                index,
                                0,
                            ));
                        }
                        out.write_all(&bytes)?;
                        st.sent += bytes.len() as u64;
                        if let Ok(mut spare) = spare.lock()
                            && spare.len() < pieces + 1
                        {
                            spare.push(bytes);
                        }
                        return Ok(true);
                    }
                    Made::Done(index, made) => (index, made),
                };
                *inflight -= 1;
                pending.insert(index, made?);
                while let Some(c) = pending.remove(&written) {
                    nbytes += c.nbytes();
                    let st = streaming.take_if(|st| st.index == written);
                    match (&c, st) {
                        (Chunk::Stored(bytes), None) => {
                            // Whole (a chunk never handed on in pieces keeps all its bytes).
                            let h =
                                b2schema_chunk::ChunkHeader::parse(bytes).map_err(|e| Error::chunk(e, 0))?;
                            if h.compressed_len() != bytes.len() {
                                return Err(Error::invalid(
                                    "a whole chunk",
                                    h.compressed_len(),
                                    bytes.len(),
                                    0,
                                ));
                            }
                            offsets.push(cbytes as i64);
                            out.write_all(bytes)?;
                            cbytes += bytes.len() as u64;
                        }
                        (Chunk::Stored(bytes), Some(st)) => {
                            offsets.push(cbytes as i64);
                            cbytes += finish_streamed(out, &st, bytes)?;
                        }
                        (Chunk::Special { kind, .. }, None) => offsets.push(Chunk::special_entry(*kind)?),
                        (Chunk::Special { .. }, Some(_)) => {
                            return Err(Error::invalid(
                                "a chunk with bytes, as streamed",
                                "",
                                "a special chunk",
                                0,
                            ));
                        }
                    }
                    // The chunk's buffer back to the workers, for a later chunk.
                    if let Chunk::Stored(bytes) = c
                        && let Ok(mut spent) = spent.lock()
                        && spent.len() < cap
                    {
                        spent.push(bytes);
                    }
                    written += 1;
                    progress((lay.chunk_nbytes as u64).saturating_mul(written as u64), total);
                }
                Ok(true)
            };

            let mut pool: Vec<Arc<SlabBuf>> = Vec::new();
            let mut coords = alloc::vec![0usize; lay.grid.len()];
            let mut index = 0usize;
            for k in 0..nslabs {
                let first = k.saturating_mul(slab_rows).saturating_mul(row_items);
                let items = slab_rows.saturating_mul(row_items).min(nitems - first.min(nitems));
                if let Source::Reader(r) = &mut src
                    && arriving
                    && super::ndarray::contiguous(&lay.geometry, &coords)? == Some((first, items))
                {
                    // The slab is one chunk, in order: compressed as its pieces are read.
                    while inflight >= cap {
                        take(&mut inflight, true)?;
                    }
                    let len = items * ts;
                    // Whole blocks a piece, as the compressor cuts them.
                    let bs = chunk::params(one, ts, lay.blocksize).blocksize_for(len).max(1);
                    let piece = read_piece.div_ceil(bs).saturating_mul(bs);
                    let arrived = Arc::new(Arriving::new(len, piece).map_err(|e| Error::chunk(e, 0))?);
                    let job =
                        Job { index, at: coords.clone(), slab: Slab::Arriving(Arc::clone(&arrived)), first };
                    job_tx.send(job).map_err(|_| Error::invalid("a worker thread", "", "none left", 0))?;
                    inflight += 1;
                    index += 1;
                    let _ = crate::container::b2nd::odometer(&mut coords, &lay.grid);
                    let mut at = 0;
                    while at < len {
                        let n = piece.min(len - at);
                        // Far enough ahead of the compressor: wait for it, writing what is done
                        // meanwhile (its threads wait for room to hand pieces on).
                        loop {
                            let (ahead, done) = arrived.ahead();
                            if ahead < read_ahead {
                                break;
                            }
                            while take(&mut inflight, false)? {}
                            arrived.wait_done(done, RELEASE_POLL);
                        }
                        let read = reuse(&mut pool, n).and_then(|mut buf| {
                            if let Some(v) = Arc::get_mut(&mut buf) {
                                read_items(&mut **r, v, n, first * ts + at, nitems * ts)?;
                            }
                            pool.push(Arc::clone(&buf));
                            arrived.push(buf).map_err(|e| Error::chunk(e, 0))
                        });
                        if let Err(e) = read {
                            // The worker waiting for this piece stops with an error (this one
                            // is the reader's).
                            arrived.fail();
                            return Err(e);
                        }
                        at += n;
                        // The chunks and pieces done, written between the reads.
                        while take(&mut inflight, false)? {}
                    }
                    continue;
                }
                let slab = match &mut src {
                    Source::Slice(d) => Slab::Borrowed(&d[first * ts..(first + items) * ts]),
                    Source::Fill => Slab::Borrowed(&[]),
                    Source::Reader(r) => {
                        let mut buf = reuse(&mut pool, items * ts)?;
                        if let Some(v) = Arc::get_mut(&mut buf) {
                            read_items(&mut **r, v, items * ts, first * ts, nitems * ts)?;
                        }
                        pool.push(Arc::clone(&buf));
                        Slab::Owned(buf)
                    }
                };
                for _ in 0..per_slab {
                    while inflight >= cap {
                        take(&mut inflight, true)?;
                    }
                    let job = Job { index, at: coords.clone(), slab: slab.clone(), first };
                    job_tx.send(job).map_err(|_| Error::invalid("a worker thread", "", "none left", 0))?;
                    inflight += 1;
                    index += 1;
                    let _ = crate::container::b2nd::odometer(&mut coords, &lay.grid);
                }
            }
            drop(job_tx);
            while inflight > 0 {
                take(&mut inflight, true)?;
            }
            Ok(pool.len())
        })?;

        let index = if nbytes == 0 { Vec::new() } else { chunk::offsets_index(&offsets)? };
        let trailer = frame.vl_trailer()?;
        out.write_all(&index)?;
        out.write_all(&trailer)?;
        let frame_len = header0.len() as u64 + cbytes + index.len() as u64 + trailer.len() as u64;
        let header = frame.header(nbytes, cbytes, Kind::Contiguous, frame_len as i64)?;
        if header.len() != header0.len() {
            return Err(Error::invalid("a header of fixed length", header0.len(), header.len(), 0));
        }
        out.seek(SeekFrom::Start(base))?;
        out.write_all(&header)?;
        out.seek(SeekFrom::Start(base + frame_len))?;
        Ok((frame_len, buffers))
    }
}

/// A slab buffer of `len` bytes to read into: one of `pool`'s that no chunk in flight holds any
/// more and that has room (taken out of the pool), or a new one (a `Vec` only reserved, not
/// zeroed: the reader fills it; huge pages from [`HUGE_PAGES_FROM`] bytes on Linux).
fn reuse(pool: &mut Vec<Arc<SlabBuf>>, len: usize) -> Result<Arc<SlabBuf>> {
    let free = |b: &Arc<SlabBuf>| {
        Arc::strong_count(b) == 1
            && match &**b {
                SlabBuf::Vec(_) => len < HUGE_PAGES_FROM,
                #[cfg(target_os = "linux")]
                SlabBuf::Pages(p) => p.capacity() >= len,
            }
    };
    let mut buf = match pool.iter().position(free) {
        Some(i) => pool.swap_remove(i),
        #[cfg(target_os = "linux")]
        None if len >= HUGE_PAGES_FROM => {
            Arc::new(SlabBuf::Pages(HugePages::zeros(len, "a slab of chunks being written")?))
        }
        None => Arc::new(SlabBuf::Vec(Vec::new())),
    };
    match Arc::get_mut(&mut buf) {
        Some(SlabBuf::Vec(v)) => {
            v.clear();
            crate::container::limits::try_reserve(v, len, "a slab of chunks being written", 0)?;
        }
        #[cfg(target_os = "linux")]
        Some(SlabBuf::Pages(p)) => p.set_len(len),
        None => {}
    }
    Ok(buf)
}

/// Fills `buf` with `len` bytes (the bytes from `at` on of an array of `total` bytes) from `r`:
/// an empty `Vec` with room for them (read into its spare capacity, never zeroed first) or a map
/// of that length. A reader that ends first is an error at the byte where it ended.
fn read_items(r: &mut dyn Read, buf: &mut SlabBuf, len: usize, at: usize, total: usize) -> Result<()> {
    let got = match buf {
        SlabBuf::Vec(v) => {
            r.take(len as u64).read_to_end(v)?;
            v.len()
        }
        #[cfg(target_os = "linux")]
        SlabBuf::Pages(p) => {
            let mut got = 0;
            while got < p.len() {
                match r.read(&mut p[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e.into()),
                }
            }
            got
        }
    };
    if got < len {
        let end = at + got;
        return Err(Error::invalid(
            "items from the reader, bytes:",
            total,
            alloc::format!("the end after {end}"),
            end,
        ));
    }
    Ok(())
}
