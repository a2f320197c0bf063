//! Whole-chunk decompression (c-blosc2 `blosc_run_decompression_with_context`,
//! `initialize_context_decompression`, `serial_blosc` and `blosc_d`).
//!
//! Decoding happens in two passes over the blocks section: the first only
//! walks the structure (bstarts table, dictionary, every stream's size
//! field) and proves that the chunk holds what its header claims; only then
//! is the output allocated and the second pass decodes.

use alloc::vec::Vec;

use super::bytes::i32_le;
use super::codecs::StreamDecoder;
use super::error::{ChunkError, ErrorKind, Expected, Found, num};
use super::filters::Pipeline;
use super::header::{ChunkHeader, Special, found_usize};

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
pub fn decompress(chunk: &[u8]) -> Result<Vec<u8>, ChunkError> {
    decompress_with_limit(chunk, DEFAULT_MAX_NBYTES)
}

/// Decompresses a whole chunk into a new vector, refusing (with
/// [`ErrorKind::LimitExceeded`]) chunks whose `nbytes` exceeds `max_nbytes`.
///
/// Nothing is allocated before the chunk's structure has been validated.
pub fn decompress_with_limit(chunk: &[u8], max_nbytes: usize) -> Result<Vec<u8>, ChunkError> {
    let plan = Plan::new(chunk)?;
    let n = plan.header.uncompressed_len();
    if n > max_nbytes {
        return Err(ChunkError::new(
            ErrorKind::LimitExceeded,
            4,
            "nbytes",
            Expected::AtMost(num(max_nbytes)),
            found_usize(n),
        ));
    }
    let mut out = Vec::new();
    out.try_reserve_exact(n).map_err(|_| {
        ChunkError::new(
            ErrorKind::LimitExceeded,
            4,
            "nbytes",
            Expected::Text("an allocatable output size"),
            found_usize(n),
        )
    })?;
    out.resize(n, 0);
    plan.run(&mut out)?;
    Ok(out)
}

/// Decompresses a whole chunk into `dest`, which must hold at least `nbytes`
/// bytes; returns `nbytes`.  Only `dest[..nbytes]` is written (UNINIT
/// special chunks write zeros, where c-blosc2 leaves `dest` untouched).
pub fn decompress_into(chunk: &[u8], dest: &mut [u8]) -> Result<usize, ChunkError> {
    let plan = Plan::new(chunk)?;
    let n = plan.header.uncompressed_len();
    let avail = dest.len();
    let Some(out) = dest.get_mut(..n) else {
        return Err(ChunkError::new(
            ErrorKind::OutputTooSmall,
            4,
            "nbytes",
            Expected::AtMost(num(avail)),
            found_usize(n),
        ));
    };
    plan.run(out)?;
    Ok(n)
}

/// Uncompressed sizes of the blocks of a VL-block chunk (format version 6),
/// in order; `decompress` returns their concatenation.
pub fn vl_block_lens(chunk: &[u8]) -> Result<Vec<usize>, ChunkError> {
    let plan = Plan::new(chunk)?;
    match &plan.layout {
        Layout::Blocks(blocks) if blocks.vl => {
            (0..blocks.nblocks).map(|j| blocks.vl_block(plan.src, j).map(|(_, len, _)| len)).collect()
        }
        _ => Err(ChunkError::invalid(
            30,
            "blosc2_flags2",
            Expected::Text("a VL-block chunk (bit 0 set)"),
            Found::Value(plan.header.blosc2_flags2.into()),
        )),
    }
}

/// What kind of body the chunk has.
enum Layout {
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
struct Blocks {
    header_len: usize,
    nblocks: usize,
    /// Regular block size (clamped to nbytes); unused for VL blocks.
    blocksize: usize,
    typesize: usize,
    dont_split: bool,
    vl: bool,
    /// Position and length of the embedded dictionary.
    dict: Option<(usize, usize)>,
    /// Largest block, for scratch buffers.
    max_block: usize,
}

/// A chunk whose structure has been validated.
struct Plan<'a> {
    header: ChunkHeader,
    /// The chunk cut to `cbytes`.
    src: &'a [u8],
    layout: Layout,
}

impl<'a> Plan<'a> {
    fn new(chunk: &'a [u8]) -> Result<Self, ChunkError> {
        let header = ChunkHeader::parse(chunk)?;
        let special = header.special();
        if header.is_lazy() && special == Special::None {
            return Err(ChunkError::unsupported(
                31,
                "blosc2_flags",
                "a chunk with its data (lazy chunks only exist inside c-blosc2)",
                Found::Value(header.blosc2_flags.into()),
            ));
        }
        if header.is_instrumented() {
            return Err(ChunkError::unsupported(
                31,
                "blosc2_flags",
                "data, not instrumented-codec statistics",
                Found::Value(header.blosc2_flags.into()),
            ));
        }
        let src = chunk.get(..header.compressed_len()).unwrap_or(chunk);
        let layout = if special != Special::None {
            if special == Special::Nan && !matches!(header.typesize, 4 | 8) {
                return Err(ChunkError::unsupported(
                    3,
                    "typesize",
                    "typesize 4 or 8 for a NaN chunk",
                    Found::Value(header.typesize.into()),
                ));
            }
            Layout::Special(special)
        } else if header.is_memcpyed() {
            Layout::Memcpy
        } else if header.nbytes == 0 {
            Layout::Empty
        } else {
            let blocks = Blocks::new(&header, src)?;
            blocks.validate(src, &header)?;
            Layout::Blocks(blocks)
        };
        Ok(Plan { header, src, layout })
    }

    /// Second pass: writes exactly `nbytes` bytes into `out`.
    fn run(&self, out: &mut [u8]) -> Result<(), ChunkError> {
        match &self.layout {
            Layout::Empty => Ok(()),
            Layout::Special(kind) => {
                fill_special(&self.header, *kind, self.src, out);
                Ok(())
            }
            Layout::Memcpy => {
                let hl = self.header.header_len();
                let data = self.src.get(hl..hl + out.len()).ok_or_else(|| {
                    ChunkError::truncated(hl, "data", out.len(), self.src.len().saturating_sub(hl))
                })?;
                out.copy_from_slice(data);
                Ok(())
            }
            Layout::Blocks(b) => b.decode(&self.header, self.src, out),
        }
    }
}

/// Fills `out` for a special-value chunk.
fn fill_special(h: &ChunkHeader, kind: Special, src: &[u8], out: &mut [u8]) {
    match kind {
        Special::Zero | Special::Uninit | Special::None => out.fill(0),
        Special::Nan => {
            if h.typesize == 4 {
                fill_pattern(out, &f32::NAN.to_bits().to_le_bytes());
            } else {
                fill_pattern(out, &f64::NAN.to_bits().to_le_bytes());
            }
        }
        Special::Value => {
            let start = h.header_len();
            let value = src.get(start..start + h.special_value_len()).unwrap_or(&[]);
            fill_pattern(out, value);
        }
    }
}

/// Repeats `pattern` over `out` (a trailing partial copy is written too).
fn fill_pattern(out: &mut [u8], pattern: &[u8]) {
    if pattern.is_empty() {
        out.fill(0);
        return;
    }
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
    fn new(h: &ChunkHeader, src: &[u8]) -> Result<Self, ChunkError> {
        let header_len = h.header_len();
        let nblocks = h.nblocks();
        let table = nblocks.checked_mul(4).and_then(|t| t.checked_add(header_len));
        let bstarts_end = match table {
            Some(end) if end <= src.len() => end,
            _ => {
                return Err(ChunkError::truncated(
                    header_len,
                    "bstarts",
                    nblocks.saturating_mul(4),
                    src.len() - header_len,
                ));
            }
        };
        let dict = if h.uses_dict() {
            let size = i32_le(src, bstarts_end)
                .ok_or_else(|| ChunkError::truncated(bstarts_end, "dict_size", 4, src.len() - bstarts_end))?;
            if size <= 0 || size > MAX_DICT_SIZE {
                return Err(ChunkError::invalid(
                    bstarts_end,
                    "dict_size",
                    Expected::InRange(1, MAX_DICT_SIZE.into()),
                    Found::Value(size.into()),
                ));
            }
            let start = bstarts_end + 4;
            let len = size as usize;
            if start + len > src.len() {
                return Err(ChunkError::truncated(start, "dictionary", len, src.len() - start));
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
            max_block: if h.is_vl_blocks() { 0 } else { blocksize },
        })
    }

    /// Offset of the bstarts entry of block `j`.
    fn bstart_pos(&self, j: usize) -> usize {
        self.header_len + 4 * j
    }

    /// Reads and range-checks `bstarts[j]` of a regular chunk
    /// (c-blosc2: `0 < bstart < srcsize`).
    fn bstart(&self, src: &[u8], j: usize) -> Result<usize, ChunkError> {
        let pos = self.bstart_pos(j);
        let v = i32_le(src, pos).ok_or_else(|| ChunkError::truncated(pos, "bstarts", 4, 0))?;
        match usize::try_from(v) {
            Ok(off) if off > 0 && off < src.len() => Ok(off),
            _ => Err(ChunkError::invalid(
                pos,
                "bstarts",
                Expected::InRange(1, num(src.len()) - 1),
                Found::Value(v.into()),
            )),
        }
    }

    /// Start, uncompressed length and compressed span (size field included)
    /// of VL block `j`, validated like c-blosc2's
    /// `initialize_context_decompression`.
    fn vl_block(&self, src: &[u8], j: usize) -> Result<(usize, usize, usize), ChunkError> {
        let pos = self.bstart_pos(j);
        let table_end = self.bstart_pos(self.nblocks);
        let read = |p: usize| i32_le(src, p).ok_or_else(|| ChunkError::truncated(p, "bstarts", 4, 0));
        let start = read(pos)?;
        let next =
            if j + 1 < self.nblocks { read(pos + 4)? } else { i32::try_from(src.len()).unwrap_or(i32::MAX) };
        let prev = if j > 0 { read(pos - 4)? } else { 0 };
        let start_ok = usize::try_from(start)
            .ok()
            .filter(|&s| s >= table_end && start > prev && next > start && s + 4 <= src.len());
        let next_ok = usize::try_from(next).ok().filter(|&n| n <= src.len());
        let (Some(s), Some(n)) = (start_ok, next_ok) else {
            return Err(ChunkError::invalid(
                pos,
                "bstarts",
                Expected::Text("strictly increasing VL-block offsets after the table, inside cbytes"),
                Found::Value(start.into()),
            ));
        };
        let len = i32_le(src, s).unwrap_or(0);
        if len <= 0 {
            return Err(ChunkError::invalid(
                s,
                "block nbytes",
                Expected::AtLeast(1),
                Found::Value(len.into()),
            ));
        }
        let span = n - s;
        if span <= 4 {
            return Err(ChunkError::invalid(
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
    fn validate(&self, src: &[u8], h: &ChunkHeader) -> Result<(), ChunkError> {
        if self.vl {
            let mut total: u64 = 0;
            for j in 0..self.nblocks {
                let (_, len, _) = self.vl_block(src, j)?;
                total += len as u64;
            }
            if total != h.uncompressed_len() as u64 {
                return Err(ChunkError::invalid(
                    4,
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
                return Err(ChunkError::invalid(
                    8,
                    "blocksize",
                    Expected::AtLeast(num(nstreams)),
                    found_usize(bsize),
                ));
            }
            let mut pos = self.bstart(src, j)?;
            for _ in 0..nstreams {
                let (next, _) = stream_at(src, pos, neblock)?;
                pos = next;
            }
        }
        Ok(())
    }

    /// Second pass: decodes all blocks into `out` (`out.len() == nbytes`).
    fn decode(&self, h: &ChunkHeader, src: &[u8], out: &mut [u8]) -> Result<(), ChunkError> {
        let dict = self.dict.and_then(|(s, l)| src.get(s..s + l));
        let mut codec = StreamDecoder::new(h, dict, self.dict.map_or(0, |d| d.0))?;
        let pipeline = Pipeline::new(h)?;
        let mut max_block = self.max_block;
        if self.vl {
            for j in 0..self.nblocks {
                max_block = max_block.max(self.vl_block(src, j)?.1);
            }
        }
        let scratch_len = if pipeline.is_empty() { 0 } else { max_block };
        let tmp_len = if pipeline.needs_tmp() { max_block } else { 0 };
        let mut a = Vec::new();
        let mut b = Vec::new();
        let mut tmp = Vec::new();
        for (buf, len) in [(&mut a, scratch_len), (&mut b, scratch_len), (&mut tmp, tmp_len)] {
            buf.try_reserve_exact(len).map_err(|_| {
                ChunkError::new(
                    ErrorKind::LimitExceeded,
                    8,
                    "blocksize",
                    Expected::Text("an allocatable block size"),
                    found_usize(len),
                )
            })?;
            buf.resize(len, 0);
        }
        let mut off = 0usize;
        for j in 0..self.nblocks {
            let (bsize, nstreams, start) = if self.vl {
                let (s, len, _) = self.vl_block(src, j)?;
                (len, 1, s)
            } else {
                let (bsize, nstreams) = self.regular_block(h, j);
                (bsize, nstreams, self.bstart(src, j)?)
            };
            let end = off.checked_add(bsize).filter(|&e| e <= out.len()).ok_or_else(|| {
                ChunkError::invalid(4, "nbytes", Expected::AtLeast(num(off + bsize)), found_usize(out.len()))
            })?;
            if pipeline.is_empty() {
                let dst = &mut out[off..end];
                self.decode_streams(src, j, start, nstreams, dst, &mut codec)?;
            } else {
                let (a_blk, b_blk) = (&mut a[..bsize], &mut b[..bsize]);
                let tmp_blk = tmp.get_mut(..bsize).unwrap_or(&mut []);
                self.decode_streams(src, j, start, nstreams, a_blk, &mut codec)?;
                let (before, rest) = out.split_at_mut(off);
                let dst = &mut rest[..bsize];
                pipeline.undo(a_blk, b_blk, tmp_blk, dst, before, off == 0);
            }
            off = end;
        }
        Ok(())
    }

    /// Decodes the streams of one block into `dst` (`dst.len()` = block size).
    fn decode_streams(
        &self,
        src: &[u8],
        j: usize,
        start: usize,
        nstreams: usize,
        dst: &mut [u8],
        codec: &mut StreamDecoder<'_>,
    ) -> Result<(), ChunkError> {
        if self.vl {
            let (_, _, span) = self.vl_block(src, j)?;
            let data = src.get(start + 4..start + span).unwrap_or(&[]);
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
            let (next, kind) = stream_at(src, pos, neblock)?;
            match kind {
                Stream::Fill(v) => target.fill(v),
                Stream::Raw(at) => target.copy_from_slice(&src[at..at + neblock]),
                Stream::Coded(at, len) => codec.decode(&src[at..at + len], target, at)?,
            }
            pos = next;
        }
        // c-blosc2 leaves these bytes (block size not a multiple of the
        // stream count) unwritten; this decoder zeroes them.
        dst[used..].fill(0);
        Ok(())
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
/// after it and its kind, with every byte it covers proven in range.
fn stream_at(src: &[u8], pos: usize, neblock: usize) -> Result<(usize, Stream), ChunkError> {
    let avail = src.len().saturating_sub(pos);
    let csize = i32_le(src, pos).ok_or_else(|| ChunkError::truncated(pos, "csize", 4, avail))?;
    let data = pos + 4;
    match csize {
        0 => Ok((data, Stream::Fill(0))),
        c if c < 0 => {
            let token = *src.get(data).ok_or_else(|| ChunkError::truncated(data, "run token", 1, 0))?;
            if token & 1 == 0 {
                return Err(ChunkError::invalid(
                    data,
                    "run token",
                    Expected::Text("a token with bit 0 set (byte run)"),
                    Found::Value(token.into()),
                ));
            }
            if c < -255 {
                return Err(ChunkError::invalid(
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
            if len > src.len() - data.min(src.len()) {
                return Err(ChunkError::truncated(pos, "csize", len, src.len().saturating_sub(data)));
            }
            if len == neblock {
                Ok((data + len, Stream::Raw(data)))
            } else {
                Ok((data + len, Stream::Coded(data, len)))
            }
        }
    }
}
