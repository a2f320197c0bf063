//! Whole-chunk decompression (c-blosc2 `blosc_run_decompression_with_context`,
//! `initialize_context_decompression`, `serial_blosc` and `blosc_d`).
//!
//! Decoding happens in two passes over the blocks section: the first only
//! walks the structure (bstarts table, dictionary, every stream's size
//! field) and proves that the chunk holds what its header claims; only then
//! is the output allocated and the second pass decodes.

use alloc::vec::Vec;

#[cfg(feature = "std")]
use super::buffers::with_pooled_scratch;
use super::buffers::{Scratch, with_scratch};
use super::header::{ChunkHeader, Special, found_usize};
use crate::bytes::i32_le;
use crate::codec::StreamDecoder;
use crate::error::{Error, ErrorKind, Expected, Found, num};
use crate::fields;
use crate::filter::Backward;
use crate::filter::shuffle::{unshuffle, unshuffle_planes};
use crate::registry::{BUILTIN, PluginContext, Registry};

/// Default `max_nbytes` of [`decompress`]: `i32::MAX`, the largest `nbytes`
/// a chunk header can hold (c-blosc2's own limit).  Use
/// [`decompress_with_limit`] to choose a smaller bound, which matters for
/// special-value chunks: their header alone legitimately claims any size.
pub const DEFAULT_MAX_NBYTES: usize = i32::MAX as usize;

/// Largest embedded dictionary c-blosc2 accepts (`BLOSC2_MAXDICTSIZE`).
pub const MAX_DICT_SIZE: i32 = 128 * 1024;

/// Decompresses a whole chunk into a new vector, refusing chunks whose
/// `nbytes` exceeds [`DEFAULT_MAX_NBYTES`].
///
/// `chunk` must start with the chunk header; bytes after `cbytes` are ignored.
pub fn decompress(chunk: &[u8]) -> Result<Vec<u8>, Error> {
    Decoder::new(&BUILTIN).decompress(chunk)
}

/// Decompresses a whole chunk into a new vector, refusing (with
/// [`ErrorKind::LimitExceeded`]) chunks whose `nbytes` exceeds `max_nbytes`.
///
/// Nothing is allocated before the chunk's structure has been validated.
pub fn decompress_with_limit(chunk: &[u8], max_nbytes: usize) -> Result<Vec<u8>, Error> {
    Decoder::new(&BUILTIN).max_nbytes(max_nbytes).decompress(chunk)
}

/// Decompresses a whole chunk into `dest`, which must hold at least `nbytes`
/// bytes; returns `nbytes`.  Only `dest[..nbytes]` is written (UNINIT
/// special chunks write zeros, where c-blosc2 leaves `dest` untouched).
pub fn decompress_into(chunk: &[u8], dest: &mut [u8]) -> Result<usize, Error> {
    Decoder::new(&BUILTIN).decompress_into(chunk, dest)
}

/// Like [`decompress_into`], with the blocks decoded by up to `nthreads` scoped threads (c-blosc2's
/// `nthreads` of its decompression parameters). The output, and the error for a bad chunk, are
/// the same whatever the count.
#[cfg(feature = "std")]
pub fn decompress_into_threaded(chunk: &[u8], dest: &mut [u8], nthreads: usize) -> Result<usize, Error> {
    Decoder::new(&BUILTIN).nthreads(nthreads).decompress_into(chunk, dest)
}

/// Whole-chunk decompression with its settings: the [`Registry`] of plugin codecs and filters,
/// the largest `nbytes` accepted, the threads.
///
/// ```
/// use b2schema_chunk::{Decoder, Registry, compress};
///
/// let data = vec![7u8; 10_000];
/// let chunk = compress::compress(&data, &compress::Params::new(1)).unwrap();
/// let registry = Registry::new();
/// let decoder = Decoder::new(&registry).max_nbytes(1 << 20);
/// assert_eq!(decoder.decompress(&chunk).unwrap(), data);
/// assert!(decoder.max_nbytes(100).decompress(&chunk).is_err());
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Decoder<'r> {
    registry: &'r Registry,
    max_nbytes: usize,
    nthreads: usize,
    chunkshape: Option<&'r [i32]>,
    blockshape: Option<&'r [i32]>,
}

impl<'r> Decoder<'r> {
    /// A decoder with `registry`'s plugins, at most [`DEFAULT_MAX_NBYTES`], one thread.
    pub const fn new(registry: &'r Registry) -> Self {
        Decoder { registry, max_nbytes: DEFAULT_MAX_NBYTES, nthreads: 1, chunkshape: None, blockshape: None }
    }

    /// Refusing (with [`ErrorKind::LimitExceeded`]) chunks whose `nbytes` exceeds `max_nbytes`.
    pub const fn max_nbytes(mut self, max_nbytes: usize) -> Self {
        self.max_nbytes = max_nbytes;
        self
    }

    /// Decoding blocks on up to `nthreads` scoped threads (with the `std` feature; one without).
    pub const fn nthreads(mut self, nthreads: usize) -> Self {
        self.nthreads = nthreads;
        self
    }

    /// Telling codecs and filters the array's chunk and block shapes (n-dimensional ones: ZFP,
    /// NDLZ, ndcell, ndmean, plugins), before the registry's ([`Registry::with_array_shapes`]).
    pub const fn shapes(mut self, chunkshape: &'r [i32], blockshape: &'r [i32]) -> Self {
        self.chunkshape = Some(chunkshape);
        self.blockshape = Some(blockshape);
        self
    }

    /// The registry it decodes with.
    pub const fn registry(&self) -> &'r Registry {
        self.registry
    }

    /// What plugins are told about a chunk of `header`.
    pub(crate) fn context(&self, header: &ChunkHeader) -> PluginContext<'r> {
        PluginContext {
            meta: header.compcode_meta,
            chunkshape: self.chunkshape,
            blockshape: self.blockshape,
            ..PluginContext::new(usize::from(header.typesize), header.effective_blocksize())
        }
    }

    /// Decompresses a whole chunk into a new vector (see [`decompress_with_limit`]).
    pub fn decompress(&self, chunk: &[u8]) -> Result<Vec<u8>, Error> {
        let plan = Plan::new(chunk, *self)?;
        let n = plan.header.uncompressed_len();
        if n > self.max_nbytes {
            return Err(Error::new(
                ErrorKind::LimitExceeded,
                fields::NBYTES,
                "nbytes",
                Expected::AtMost(num(self.max_nbytes)),
                found_usize(n),
            ));
        }
        let mut out = Vec::new();
        out.try_reserve_exact(n).map_err(|_| {
            Error::new(
                ErrorKind::LimitExceeded,
                fields::NBYTES,
                "nbytes",
                Expected::Text("an allocatable output size"),
                found_usize(n),
            )
        })?;
        out.resize(n, 0);
        plan.run_threaded(&mut out, self.nthreads)?;
        Ok(out)
    }

    /// Decompresses a whole chunk into `dest` (see [`decompress_into`]); the limit does not
    /// apply (`dest` is the bound).
    pub fn decompress_into(&self, chunk: &[u8], dest: &mut [u8]) -> Result<usize, Error> {
        let plan = Plan::new(chunk, *self)?;
        let out = plan.output(dest)?;
        let n = out.len();
        plan.run_threaded(out, self.nthreads)?;
        Ok(n)
    }
}

/// Uncompressed sizes of the blocks of a VL-block chunk (format version 6),
/// in order; `decompress` returns their concatenation.
pub fn vl_block_lens(chunk: &[u8]) -> Result<Vec<usize>, Error> {
    let plan = Plan::new(chunk, Decoder::new(&BUILTIN))?;
    match &plan.layout {
        Layout::Blocks(blocks) if blocks.vl => {
            (0..blocks.nblocks).map(|j| blocks.vl_block(plan.src, j).map(|(_, len, _)| len)).collect()
        }
        _ => Err(Error::invalid(
            fields::BLOSC2_FLAGS2,
            "blosc2_flags2",
            Expected::Text("a VL-block chunk (bit 0 set)"),
            Found::Value(plan.header.blosc2_flags2.into()),
        )),
    }
}

/// What kind of body the chunk has.
pub(crate) enum Layout {
    /// Nothing to decode (`nbytes == 0`).
    Empty,
    /// A special-value chunk.
    Special(Special),
    /// Raw data right after the header.
    Memcpy,
    /// Compressed blocks.
    Blocks(Blocks),
}

/// Validated geometry of the blocks section.
pub(crate) struct Blocks {
    header_len: usize,
    pub(crate) nblocks: usize,
    /// Regular block size (clamped to nbytes); unused for VL blocks.
    blocksize: usize,
    typesize: usize,
    dont_split: bool,
    pub(crate) vl: bool,
    /// Position and length of the embedded dictionary.
    dict: Option<(usize, usize)>,
}

/// A chunk whose structure has been validated.
struct Plan<'a> {
    decoder: Decoder<'a>,
    header: ChunkHeader,
    /// The chunk cut to `cbytes`.
    src: &'a [u8],
    layout: Layout,
}

impl<'a> Plan<'a> {
    fn new(chunk: &'a [u8], decoder: Decoder<'a>) -> Result<Self, Error> {
        let header = ChunkHeader::parse(chunk)?;
        let src = chunk.get(..header.compressed_len()).unwrap_or(chunk);
        let layout = match simple_layout(&header)? {
            Some(layout) => layout,
            None => {
                let blocks = Blocks::new(&header, src)?;
                blocks.validate(src, &header)?;
                Layout::Blocks(blocks)
            }
        };
        Ok(Plan { decoder, header, src, layout })
    }

    /// The first `nbytes` bytes of `dest`, or the error for a destination too small.
    fn output<'d>(&self, dest: &'d mut [u8]) -> Result<&'d mut [u8], Error> {
        let n = self.header.uncompressed_len();
        let avail = dest.len();
        dest.get_mut(..n).ok_or_else(|| {
            Error::new(
                ErrorKind::OutputTooSmall,
                fields::NBYTES,
                "nbytes",
                Expected::AtMost(num(avail)),
                found_usize(n),
            )
        })
    }

    /// Second pass: writes exactly `nbytes` bytes into `out`.
    fn run(&self, out: &mut [u8]) -> Result<(), Error> {
        match &self.layout {
            Layout::Empty => Ok(()),
            Layout::Special(kind) => {
                fill_special(&self.header, *kind, self.src, out);
                Ok(())
            }
            Layout::Memcpy => {
                let hl = self.header.header_len();
                let data = self.src.get(hl..hl + out.len()).ok_or_else(|| {
                    Error::truncated(hl, "data", out.len(), self.src.len().saturating_sub(hl))
                })?;
                out.copy_from_slice(data);
                Ok(())
            }
            Layout::Blocks(b) => b.decode(&self.header, self.src, out, &self.decoder),
        }
    }

    /// [`Plan::run`] with the blocks shared out among up to `nthreads` threads.
    fn run_threaded(&self, out: &mut [u8], nthreads: usize) -> Result<(), Error> {
        #[cfg(feature = "std")]
        if let Layout::Blocks(b) = &self.layout
            && super::usable_threads(nthreads) > 1
        {
            return b.decode_parallel(&self.header, self.src, out, nthreads, &self.decoder);
        }
        let _ = nthreads;
        self.run(out)
    }
}

/// The body of a chunk as far as its header tells: `None` when it has compressed blocks.
/// Refuses what this decoder cannot give data for (lazy and instrumented chunks, NaN of an
/// item size that is not a float's).
pub(crate) fn simple_layout(header: &ChunkHeader) -> Result<Option<Layout>, Error> {
    let special = header.special();
    if header.is_lazy() && special == Special::None {
        return Err(Error::unsupported(
            fields::BLOSC2_FLAGS,
            "blosc2_flags",
            "a chunk with its data (lazy chunks only exist inside c-blosc2)",
            Found::Value(header.blosc2_flags.into()),
        ));
    }
    if header.is_instrumented() {
        return Err(Error::unsupported(
            fields::BLOSC2_FLAGS,
            "blosc2_flags",
            "data, not instrumented-codec statistics",
            Found::Value(header.blosc2_flags.into()),
        ));
    }
    Ok(if special != Special::None {
        if special == Special::Nan && !matches!(header.typesize, 4 | 8) {
            return Err(Error::unsupported(
                fields::TYPESIZE,
                "typesize",
                "typesize 4 or 8 for a NaN chunk",
                Found::Value(header.typesize.into()),
            ));
        }
        Some(Layout::Special(special))
    } else if header.is_memcpyed() {
        Some(Layout::Memcpy)
    } else if header.nbytes == 0 {
        Some(Layout::Empty)
    } else {
        None
    })
}

/// Fills `out` for a special-value chunk.
fn fill_special(h: &ChunkHeader, kind: Special, src: &[u8], out: &mut [u8]) {
    fill_special_at(h, kind, src, out, 0);
}

/// Fills `out`, the output bytes from offset `at` on, for a special-value chunk (`src` holds the
/// chunk at least to the end of a repeated value).
pub(crate) fn fill_special_at(h: &ChunkHeader, kind: Special, src: &[u8], out: &mut [u8], at: usize) {
    match kind {
        Special::Zero | Special::Uninit | Special::None => out.fill(0),
        Special::Nan => {
            if h.typesize == 4 {
                fill_pattern(out, &f32::NAN.to_bits().to_le_bytes(), at);
            } else {
                fill_pattern(out, &f64::NAN.to_bits().to_le_bytes(), at);
            }
        }
        Special::Value => {
            let start = h.header_len();
            let value = src.get(start..start + h.special_value_len()).unwrap_or(&[]);
            fill_pattern(out, value, at);
        }
    }
}

/// Repeats `pattern` over `out`, which starts at byte `at` of the repetition (a trailing
/// partial copy is written too).
pub fn fill_pattern(out: &mut [u8], pattern: &[u8], at: usize) {
    if pattern.is_empty() {
        out.fill(0);
        return;
    }
    let phase = at % pattern.len();
    let head = (pattern.len() - phase).min(out.len());
    out[..head].copy_from_slice(&pattern[phase..phase + head]);
    if head == out.len() {
        return;
    }
    let out = &mut out[head..];
    let first = pattern.len().min(out.len());
    out[..first].copy_from_slice(&pattern[..first]);
    let mut filled = first;
    while filled < out.len() {
        let n = filled.min(out.len() - filled);
        out.copy_within(..n, filled);
        filled += n;
    }
}

impl Blocks {
    /// Validates the header-level geometry: bstarts table and dictionary.
    pub(crate) fn new(h: &ChunkHeader, src: &[u8]) -> Result<Self, Error> {
        let header_len = h.header_len();
        let nblocks = h.nblocks();
        let table = nblocks.checked_mul(4).and_then(|t| t.checked_add(header_len));
        let bstarts_end = match table {
            Some(end) if end <= src.len() => end,
            _ => {
                return Err(Error::truncated(
                    header_len,
                    "bstarts",
                    nblocks.saturating_mul(4),
                    src.len() - header_len,
                ));
            }
        };
        let dict = if h.uses_dict() {
            let size = i32_le(src, bstarts_end)
                .ok_or_else(|| Error::truncated(bstarts_end, "dict_size", 4, src.len() - bstarts_end))?;
            if size <= 0 || size > MAX_DICT_SIZE {
                return Err(Error::invalid(
                    bstarts_end,
                    "dict_size",
                    Expected::InRange(1, MAX_DICT_SIZE.into()),
                    Found::Value(size.into()),
                ));
            }
            let start = bstarts_end + 4;
            let len = size as usize;
            if start + len > src.len() {
                return Err(Error::truncated(start, "dictionary", len, src.len() - start));
            }
            Some((start, len))
        } else {
            None
        };
        let blocksize = h.effective_blocksize();
        Ok(Blocks {
            header_len,
            nblocks,
            blocksize,
            typesize: usize::from(h.typesize),
            dont_split: h.dont_split(),
            vl: h.is_vl_blocks(),
            dict,
        })
    }

    /// Offset of the bstarts entry of block `j`.
    fn bstart_pos(&self, j: usize) -> usize {
        self.header_len + 4 * j
    }

    /// Reads and range-checks `bstarts[j]` of a regular chunk
    /// (c-blosc2: `0 < bstart < srcsize`).  `table` holds the chunk from its
    /// start at least to the end of the table; `cbytes` is the chunk's length.
    pub(crate) fn bstart(&self, table: &[u8], j: usize, cbytes: usize) -> Result<usize, Error> {
        let pos = self.bstart_pos(j);
        let v = i32_le(table, pos).ok_or_else(|| Error::truncated(pos, "bstarts", 4, 0))?;
        match usize::try_from(v) {
            Ok(off) if off > 0 && off < cbytes => Ok(off),
            _ => Err(Error::invalid(
                pos,
                "bstarts",
                Expected::InRange(1, num(cbytes) - 1),
                Found::Value(v.into()),
            )),
        }
    }

    /// Start, uncompressed length and compressed span (size field included)
    /// of VL block `j`, validated like c-blosc2's
    /// `initialize_context_decompression`.
    fn vl_block(&self, src: &[u8], j: usize) -> Result<(usize, usize, usize), Error> {
        let pos = self.bstart_pos(j);
        let table_end = self.bstart_pos(self.nblocks);
        let read = |p: usize| i32_le(src, p).ok_or_else(|| Error::truncated(p, "bstarts", 4, 0));
        let start = read(pos)?;
        let next =
            if j + 1 < self.nblocks { read(pos + 4)? } else { i32::try_from(src.len()).unwrap_or(i32::MAX) };
        let prev = if j > 0 { read(pos - 4)? } else { 0 };
        let start_ok = usize::try_from(start)
            .ok()
            .filter(|&s| s >= table_end && start > prev && next > start && s + 4 <= src.len());
        let next_ok = usize::try_from(next).ok().filter(|&n| n <= src.len());
        let (Some(s), Some(n)) = (start_ok, next_ok) else {
            return Err(Error::invalid(
                pos,
                "bstarts",
                Expected::Text("strictly increasing VL-block offsets after the table, inside cbytes"),
                Found::Value(start.into()),
            ));
        };
        let len = i32_le(src, s).unwrap_or(0);
        if len <= 0 {
            return Err(Error::invalid(s, "block nbytes", Expected::AtLeast(1), Found::Value(len.into())));
        }
        let span = n - s;
        if span <= 4 {
            return Err(Error::invalid(
                pos,
                "bstarts",
                Expected::Text("a VL block longer than its 4-byte size field"),
                found_usize(span),
            ));
        }
        Ok((s, len as usize, span))
    }

    /// Size and stream count of regular block `j`.
    fn regular_block(&self, h: &ChunkHeader, j: usize) -> (usize, usize) {
        let n = h.uncompressed_len();
        let off = j * self.blocksize;
        let leftover = j + 1 == self.nblocks && !n.is_multiple_of(self.blocksize);
        let bsize = (n - off).min(self.blocksize);
        let nstreams = if !self.dont_split && !leftover { self.typesize } else { 1 };
        (bsize, nstreams)
    }

    /// First pass: walks every block and stream size field.
    fn validate(&self, src: &[u8], h: &ChunkHeader) -> Result<(), Error> {
        if self.vl {
            let mut total: u64 = 0;
            for j in 0..self.nblocks {
                let (_, len, _) = self.vl_block(src, j)?;
                total += len as u64;
            }
            if total != h.uncompressed_len() as u64 {
                return Err(Error::invalid(
                    fields::NBYTES,
                    "nbytes",
                    Expected::Text("the sum of the VL-block sizes"),
                    Found::Value(h.nbytes.into()),
                ));
            }
            return Ok(());
        }
        for j in 0..self.nblocks {
            let (bsize, nstreams) = self.regular_block(h, j);
            let neblock = bsize / nstreams;
            if neblock == 0 {
                return Err(Error::invalid(
                    fields::BLOCKSIZE,
                    "blocksize",
                    Expected::AtLeast(num(nstreams)),
                    found_usize(bsize),
                ));
            }
            let mut pos = self.bstart(src, j, src.len())?;
            let whole = Window::whole(src);
            for _ in 0..nstreams {
                let (next, _) = stream_at(whole, pos, neblock)?;
                pos = next;
            }
        }
        Ok(())
    }

    /// Second pass: decodes all blocks into `out` (`out.len() == nbytes`).
    fn decode(
        &self,
        h: &ChunkHeader,
        src: &[u8],
        out: &mut [u8],
        decoder: &Decoder<'_>,
    ) -> Result<(), Error> {
        let mut codec = self.codec(h, src, decoder)?;
        let pipeline = decoder_pipeline(h, decoder)?;
        with_scratch(|scratch| self.decode_with(h, src, out, &pipeline, &mut codec, scratch))
    }

    /// [`Blocks::decode`] with its codec state and scratch buffers.
    fn decode_with(
        &self,
        h: &ChunkHeader,
        src: &[u8],
        out: &mut [u8],
        pipeline: &Backward<'_>,
        codec: &mut StreamDecoder<'_>,
        scratch: &mut Scratch,
    ) -> Result<(), Error> {
        let whole = Window::whole(src);
        let mut off = 0usize;
        for j in 0..self.nblocks {
            let bsize = if self.vl { self.vl_block(src, j)?.1 } else { self.regular_block(h, j).0 };
            let end = off.checked_add(bsize).filter(|&e| e <= out.len()).ok_or_else(|| {
                Error::invalid(
                    fields::NBYTES,
                    "nbytes",
                    Expected::AtLeast(num(off + bsize)),
                    found_usize(out.len()),
                )
            })?;
            let (before, rest) = out.split_at_mut(off);
            let dst = &mut rest[..bsize];
            self.decode_block(h, src, whole, j, pipeline, codec, scratch, before, dst)?;
            off = end;
        }
        Ok(())
    }

    /// [`Blocks::decode`] with the blocks shared out among up to `nthreads` scoped threads, each
    /// with its own codec state and scratch (the calling thread's kept one, the others' from
    /// [`with_pooled_scratch`]). Each thread takes the next block in order when it is done with
    /// one (a thread that starts late, on a loaded machine, takes fewer). With a delta filter
    /// the first block is decoded first, as it is every other block's reference. Errors are
    /// those of the first failing block, as when decoding in order: every block before it was
    /// taken before it, and decoded.
    #[cfg(feature = "std")]
    fn decode_parallel(
        &self,
        h: &ChunkHeader,
        src: &[u8],
        out: &mut [u8],
        nthreads: usize,
        decoder: &Decoder<'_>,
    ) -> Result<(), Error> {
        if self.vl || self.nblocks < 2 {
            return self.decode(h, src, out, decoder);
        }
        // The codec before the filters, as in `decode`: a chunk with both wrong gives the
        // codec's error at any thread count.
        let mut codec = self.codec(h, src, decoder)?;
        let pipeline = decoder_pipeline(h, decoder)?;
        let whole = Window::whole(src);
        let (reference, rest, skip): (&[u8], &mut [u8], usize) = if pipeline.has_delta() {
            let (first, rest) = out.split_at_mut(self.blocksize.min(out.len()));
            with_scratch(|scratch| {
                self.decode_block(h, src, whole, 0, &pipeline, &mut codec, scratch, &[], first)
            })?;
            (first, rest, 1)
        } else {
            (&[], out, 0)
        };
        let workers = nthreads.min(self.nblocks - skip).max(1) - 1;
        let queue = std::sync::Mutex::new(rest.chunks_mut(self.blocksize).enumerate());
        let (pipeline, queue) = (&pipeline, &queue);
        // The index of the block that failed, with its error.
        let run = move |scratch: &mut Scratch| -> Result<(), (usize, Error)> {
            let mut codec = self.codec(h, src, decoder).map_err(|e| (0, e))?;
            loop {
                // Nothing panics while holding the lock; a poisoned one is as good.
                let next = queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner).next();
                let Some((i, dst)) = next else { return Ok(()) };
                let j = i + skip;
                self.decode_block(h, src, whole, j, pipeline, &mut codec, scratch, reference, dst)
                    .map_err(|e| (j, e))?;
            }
        };
        std::thread::scope(|scope| {
            let spawned: Vec<_> =
                (0..workers).map(|_| scope.spawn(move || with_pooled_scratch(run))).collect();
            let own = with_scratch(run);
            let rest = spawned
                .into_iter()
                .map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
            match core::iter::once(own).chain(rest).filter_map(Result::err).min_by_key(|(j, _)| *j) {
                Some((_, e)) => Err(e),
                None => Ok(()),
            }
        })
    }

    /// The stream decoder of this chunk, with its dictionary (read from `table`, which holds
    /// the chunk at least to the end of the dictionary).
    pub(crate) fn codec<'t>(
        &self,
        h: &ChunkHeader,
        table: &'t [u8],
        decoder: &Decoder<'t>,
    ) -> Result<StreamDecoder<'t>, Error> {
        let dict = self.dict.and_then(|(s, l)| Some((table.get(s..s + l)?, s)));
        let field =
            if h.compformat() == 6 { (fields::UDCOMPCODE, "udcompcode") } else { (fields::FLAGS, "flags") };
        StreamDecoder::new(h.codec()?, field, dict, decoder.registry, decoder.context(h))
    }

    /// Decodes block `j` into `dst` (its exact uncompressed length). `table` holds the chunk at
    /// least to the end of its table; `win` holds the block's streams. `reference` is the
    /// chunk's output before this block, at least its first block (the delta reference; unused
    /// for block 0 or without delta).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn decode_block(
        &self,
        h: &ChunkHeader,
        table: &[u8],
        win: Window<'_>,
        j: usize,
        pipeline: &Backward<'_>,
        codec: &mut StreamDecoder<'_>,
        scratch: &mut Scratch,
        reference: &[u8],
        dst: &mut [u8],
    ) -> Result<(), Error> {
        let (nstreams, start) = if self.vl {
            (1, self.vl_block(win.bytes, j)?.0)
        } else {
            (self.regular_block(h, j).1, self.bstart(table, j, win.cbytes)?)
        };
        if pipeline.is_empty() {
            return self.decode_streams(win, j, start, nstreams, dst, codec);
        }
        if j > 0 && pipeline.has_delta() && reference.len() < dst.len() {
            return Err(Error::invalid(
                self.bstart_pos(j),
                "bstarts",
                Expected::Text("the first block decoded before this one (the delta reference)"),
                found_usize(reference.len()),
            ));
        }
        let bsize = dst.len();
        if !self.vl
            && nstreams > 1
            && nstreams <= MAX_PLANES
            && bsize >= nstreams
            && pipeline.single_shuffle() == Some(nstreams)
        {
            let (a, zeros) = scratch.block_and_zeros(bsize, bsize / nstreams)?;
            return decode_planes(win, start, nstreams, a, zeros, dst, codec);
        }
        let (a, b, tmp) = scratch.blocks(bsize, pipeline.needs_tmp())?;
        self.decode_streams(win, j, start, nstreams, a, codec)?;
        pipeline.undo(a, b, tmp, dst, reference, j == 0)
    }

    /// Decodes the streams of one block into `dst` (`dst.len()` = block size).
    fn decode_streams(
        &self,
        win: Window<'_>,
        j: usize,
        start: usize,
        nstreams: usize,
        dst: &mut [u8],
        codec: &mut StreamDecoder<'_>,
    ) -> Result<(), Error> {
        if self.vl {
            let (_, _, span) = self.vl_block(win.bytes, j)?;
            let data = win.bytes.get(start + 4..start + span).unwrap_or(&[]);
            if data.len() == dst.len() {
                dst.copy_from_slice(data);
                return Ok(());
            }
            return codec.decode(data, dst, start + 4);
        }
        let neblock = dst.len() / nstreams;
        let used = neblock * nstreams;
        let mut pos = start;
        for target in dst[..used].chunks_exact_mut(neblock.max(1)) {
            let (next, kind) = stream_at(win, pos, neblock)?;
            match kind {
                Stream::Fill(v) => target.fill(v),
                Stream::Raw(at) => target.copy_from_slice(win.slice(at, neblock).unwrap_or(&[])),
                Stream::Coded(at, len) => codec.decode(win.slice(at, len).unwrap_or(&[]), target, at)?,
            }
            pos = next;
        }
        // c-blosc2 leaves these bytes (block size not a multiple of the
        // stream count) unwritten; this decoder zeroes them.
        dst[used..].fill(0);
        Ok(())
    }
}

/// The most streams a block is unshuffled from where they lie ([`decode_planes`]).
const MAX_PLANES: usize = 16;

/// Decodes the `nstreams` streams of a block whose only filter is the byte shuffle of items of
/// `nstreams` bytes, and unshuffles it into `dst` (the block's length) reading each plane
/// where it is: a coded stream (or a run of a byte other than 0) decoded into its part of `a`
/// (a block's length of scratch), a stored one in the chunk, a run of zeros in `zeros` (a
/// plane's length of zeros). What the two-step path ([`Blocks::decode_streams`], then the
/// unshuffle) spends copying stored streams and writing zeros is saved; the output is the same,
/// as the same kernel runs (where it cannot read planes apart, they are copied into `a` and
/// the two-step unshuffle runs).
#[allow(clippy::too_many_arguments)]
fn decode_planes(
    win: Window<'_>,
    start: usize,
    nstreams: usize,
    a: &mut [u8],
    zeros: &[u8],
    dst: &mut [u8],
    codec: &mut StreamDecoder<'_>,
) -> Result<(), Error> {
    let neblock = dst.len() / nstreams;
    let used = neblock * nstreams;
    let mut outside: [Option<&[u8]>; MAX_PLANES] = [None; MAX_PLANES];
    let mut pos = start;
    for (j, target) in a[..used].chunks_exact_mut(neblock).enumerate() {
        let (next, kind) = stream_at(win, pos, neblock)?;
        match kind {
            Stream::Fill(0) => outside[j] = Some(zeros),
            Stream::Fill(v) => target.fill(v),
            Stream::Raw(at) => outside[j] = win.slice(at, neblock),
            Stream::Coded(at, len) => codec.decode(win.slice(at, len).unwrap_or(&[]), target, at)?,
        }
        pos = next;
    }
    // c-blosc2 leaves the bytes after the streams (a block size not a multiple of the stream
    // count) unwritten; this decoder zeroes them.
    let (body, rest) = dst.split_at_mut(used);
    rest.fill(0);
    let mut planes: [&[u8]; MAX_PLANES] = [&[]; MAX_PLANES];
    for ((plane, part), out) in planes.iter_mut().zip(a[..used].chunks_exact(neblock)).zip(outside) {
        *plane = out.unwrap_or(part);
    }
    if unshuffle_planes(&planes[..nstreams], body) {
        return Ok(());
    }
    for (part, out) in a[..used].chunks_exact_mut(neblock).zip(outside) {
        if let Some(out) = out {
            part.copy_from_slice(out);
        }
    }
    a[used..].fill(0);
    unshuffle(nstreams, a, dst);
    Ok(())
}

/// The backward pipeline of a chunk's filter slots.
pub(crate) fn pipeline<'r>(h: &ChunkHeader, registry: &'r Registry) -> Result<Backward<'r>, Error> {
    Backward::new(&h.filters, &h.filters_meta, usize::from(h.typesize), h.version, registry)
}

/// The backward pipeline of a chunk decoded by `decoder`: its filter plugins are told the
/// decoder's shapes ([`Decoder::shapes`]) before the registry's.
fn decoder_pipeline<'r>(h: &ChunkHeader, decoder: &Decoder<'r>) -> Result<Backward<'r>, Error> {
    Ok(pipeline(h, decoder.registry)?.with_shapes(decoder.chunkshape, decoder.blockshape))
}

/// Some of a chunk's bytes: `bytes` are the chunk's bytes from offset `base`, of a chunk of
/// `cbytes` bytes. Offsets given to it are from the chunk's start.
#[derive(Clone, Copy)]
pub(crate) struct Window<'a> {
    pub(crate) base: usize,
    pub(crate) bytes: &'a [u8],
    pub(crate) cbytes: usize,
}

impl<'a> Window<'a> {
    /// The whole chunk.
    pub(crate) fn whole(src: &'a [u8]) -> Self {
        Window { base: 0, bytes: src, cbytes: src.len() }
    }

    /// `len` bytes at chunk offset `at`, when the window holds them.
    fn slice(&self, at: usize, len: usize) -> Option<&'a [u8]> {
        let s = at.checked_sub(self.base)?;
        self.bytes.get(s..s.checked_add(len)?)
    }

    fn i32_at(&self, at: usize) -> Option<i32> {
        i32_le(self.bytes, at.checked_sub(self.base)?)
    }

    fn byte_at(&self, at: usize) -> Option<u8> {
        self.bytes.get(at.checked_sub(self.base)?).copied()
    }

    /// The error for `len` bytes of `field` at `at` that the window does not hold: the chunk
    /// is truncated when they run past `cbytes`, the window is short otherwise.
    fn short(&self, at: usize, field: &'static str, len: usize) -> Error {
        let in_chunk = self.cbytes.saturating_sub(at);
        if len > in_chunk {
            return Error::truncated(at, field, len, in_chunk);
        }
        let held = (self.base + self.bytes.len()).saturating_sub(at).min(in_chunk);
        Error::new(ErrorKind::ShortInput, at, field, Expected::AtMost(num(held)), found_usize(len))
    }
}

/// One stream of a regular block.
enum Stream {
    /// A run of this byte (csize 0: zeros; negative csize with token bit 0).
    Fill(u8),
    /// `neblock` raw bytes at this offset (csize == neblock).
    Raw(usize),
    /// `len` compressed bytes at this offset.
    Coded(usize, usize),
}

/// Parses the stream whose `int32 csize` is at `pos`; returns the offset
/// after it and its kind, with every byte it covers proven in the window.
fn stream_at(win: Window<'_>, pos: usize, neblock: usize) -> Result<(usize, Stream), Error> {
    let csize = match win.i32_at(pos) {
        Some(c) => c,
        None => return Err(win.short(pos, "csize", 4)),
    };
    let data = pos + 4;
    match csize {
        0 => Ok((data, Stream::Fill(0))),
        c if c < 0 => {
            let token = win.byte_at(data).ok_or_else(|| win.short(data, "run token", 1))?;
            if token & 1 == 0 {
                return Err(Error::invalid(
                    data,
                    "run token",
                    Expected::Text("a token with bit 0 set (byte run)"),
                    Found::Value(token.into()),
                ));
            }
            if c < -255 {
                return Err(Error::invalid(
                    pos,
                    "csize",
                    Expected::InRange(-255, -1),
                    Found::Value(c.into()),
                ));
            }
            Ok((data + 1, Stream::Fill(c.unsigned_abs() as u8)))
        }
        c => {
            let len = c as usize;
            if len > win.cbytes.saturating_sub(data) {
                return Err(Error::truncated(pos, "csize", len, win.cbytes.saturating_sub(data)));
            }
            if win.slice(data, len).is_none() {
                return Err(win.short(data, "stream", len));
            }
            if len == neblock {
                Ok((data + len, Stream::Raw(data)))
            } else {
                Ok((data + len, Stream::Coded(data, len)))
            }
        }
    }
}
