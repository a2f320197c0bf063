//! This crate's Zstandard decoder (RFC 8878), under `forbid(unsafe_code)`.
//!
//! A zstd stream of a Blosc2 chunk is one block's stream: [`Decoder::decode`] writes every frame
//! of it straight into the caller's output (the block, or one split stream of it), one frame
//! after another, as libzstd's one-shot `ZSTD_decompressDCtx` does. Matches copy from the
//! frame's earlier output or from the dictionary (its whole bytes, as libzstd's `ZSTD_DDict`
//! keeps them: `dict.rs`), so no window buffer is needed; the
//! only memory besides the output is a literal buffer of one block (128 KiB) and the tables.
//!
//! Complete for RFC 8878 frames: raw, RLE and compressed blocks; raw, RLE, Huffman (1 and 4
//! streams) and treeless literals; predefined, RLE, compressed and repeated FSE tables; repeat
//! offsets; window descriptors and single-segment frames; the content checksum (XXH64);
//! skippable frames; several frames in one stream; dictionaries with an id and entropy tables,
//! or raw content. Input is checked as libzstd checks it (the same refusals, with the
//! differences listed in the tests), and no input makes it panic, loop without bound, write
//! past the output or allocate more than the literal buffer.

mod bits;
mod dict;
mod execute;
pub(crate) mod frame;
mod fse;
mod huffman;
mod literals;
mod sequences;
mod xxhash;

#[cfg(test)]
mod tests;

use super::dispatch::Build;
use alloc::boxed::Box;
use alloc::vec::Vec;
use dict::Dict;
use execute::Out;
use huffman::HuffTable;
use literals::Literals;
use sequences::Tables;

/// Where and why a stream was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct DecodeError {
    /// Byte offset in the decoder's `input` (in the dictionary, for [`Decoder::with_dict`]).
    pub(crate) offset: usize,
    /// What was expected there.
    pub(crate) what: &'static str,
}

/// A reusable zstd decoder: tables, the literal buffer, the dictionary.
pub(crate) struct Decoder {
    lit: Vec<u8>,
    huf: Box<HuffTable>,
    huf_ok: bool,
    tables: Box<Tables>,
    rep: [u32; 3],
    dict: Option<Dict>,
    /// The current frame's block maximum size (its window, at most 128 KiB).
    block_max: usize,
    /// The build of the sequence and Huffman loops that runs.
    build: Build,
}

impl Decoder {
    /// A decoder without a dictionary.
    pub(crate) fn new() -> Self {
        Decoder {
            lit: Vec::new(),
            huf: Box::new(HuffTable::new()),
            huf_ok: false,
            tables: Box::new(Tables::new()),
            rep: [1, 4, 8],
            dict: None,
            block_max: 0,
            build: Build::Detect,
        }
    }

    /// This decoder, running the baseline build of its loops on every CPU (the tests compare
    /// both builds).
    #[cfg(test)]
    pub(crate) fn baseline(self) -> Self {
        Decoder { build: Build::Baseline, ..self }
    }

    /// `dict`: a formatted dictionary (magic 0xEC30A437, id, entropy tables, content) or raw
    /// content, as libzstd's `ZSTD_createDDict` reads either.
    pub(crate) fn with_dict(dict: &[u8]) -> Result<Self, DecodeError> {
        let d = Dict::parse(dict).map_err(|(offset, what)| DecodeError { offset, what })?;
        Ok(Decoder { dict: Some(d), ..Decoder::new() })
    }

    /// Decodes every frame of `input` (skippable frames skipped) into `output`; returns the bytes
    /// written. Output beyond `output.len()` is an error, never a write.
    pub(crate) fn decode(&mut self, input: &[u8], output: &mut [u8]) -> Result<usize, DecodeError> {
        let mut at = 0usize;
        let mut op = 0usize;
        while at < input.len() {
            let magic = frame_magic(input, at)?;
            if magic & frame::SKIPPABLE_MASK == frame::SKIPPABLE {
                let size = bits::le(input, at + 4, 4)
                    .ok_or(DecodeError { offset: at + 4, what: "the size of a skippable frame" })?;
                let end = (at + 8).checked_add(size as usize).filter(|&e| e <= input.len());
                at = end.ok_or(DecodeError { offset: at + 4, what: "a skippable frame within the input" })?;
                continue;
            }
            if frame::LEGACY.contains(&magic) {
                return Err(DecodeError { offset: at, what: frame::LEGACY_FRAME });
            }
            if magic != frame::MAGIC {
                return Err(DecodeError {
                    offset: at,
                    what: "a zstd frame magic number (0xFD2FB528) or a skippable frame",
                });
            }
            let (next_at, next_op) = self.frame(input, at, output, op)?;
            at = next_at;
            op = next_op;
        }
        Ok(op)
    }

    /// Decodes the frame at `input[at..]` into `output[op..]`: where the input and the output
    /// continue.
    fn frame(
        &mut self,
        input: &[u8],
        at: usize,
        output: &mut [u8],
        op: usize,
    ) -> Result<(usize, usize), DecodeError> {
        let h = frame::header(input, at)?;
        let frame_start = op;
        if let Some(cs) = h.content_size
            && cs > (output.len() - op) as u64
        {
            return Err(DecodeError {
                offset: at + h.len - 1,
                what: "a frame content size within the output",
            });
        }
        // Frame state: from the dictionary, else fresh.
        self.rep = [1, 4, 8];
        self.huf_ok = false;
        self.tables.ok = [false; 3];
        let history: &[u8] = match &self.dict {
            Some(d) => {
                if h.dict_id != 0 && h.dict_id != d.id {
                    return Err(DecodeError {
                        offset: at + 6,
                        what: "the dictionary id of the chunk's dictionary",
                    });
                }
                self.rep = d.rep;
                if let Some(e) = &d.entropy {
                    *self.huf = e.0.clone();
                    self.huf_ok = true;
                    // The dictionary's three tables (the predefined ones are the same).
                    let own = fse::SLOT_AT[3];
                    self.tables.seq.entries[..own].copy_from_slice(&e.1.seq.entries[..own]);
                    self.tables.seq.log[..3].copy_from_slice(&e.1.seq.log[..3]);
                    self.tables.ok = [true; 3];
                    self.tables.use_pre = [false; 3];
                }
                &d.history
            }
            None => {
                if h.dict_id != 0 {
                    return Err(DecodeError {
                        offset: at + 6,
                        what: "a frame without a dictionary id (no dictionary)",
                    });
                }
                &[]
            }
        };
        let block_max = (h.window.min(frame::MAX_BLOCK as u64)) as usize;
        self.block_max = block_max;
        let mut out = Out { buf: output, pos: op, limit: op, frame_start, dict: history };
        let mut p = at + h.len;
        loop {
            let bh = bits::le(input, p, 3)
                .ok_or(DecodeError { offset: p, what: "a block header within the input" })?
                as u32;
            let last = bh & 1 != 0;
            let kind = (bh >> 1) & 3;
            let size = (bh >> 3) as usize;
            let body = p + 3;
            let avail = out.buf.len() - out.pos;
            match kind {
                0 => {
                    if size > block_max {
                        return Err(DecodeError { offset: p, what: frame::BLOCK_TOO_LARGE });
                    }
                    let src = input
                        .get(body..body + size)
                        .ok_or(DecodeError { offset: p, what: "a raw block within the input" })?;
                    if size > avail {
                        return Err(DecodeError {
                            offset: p,
                            what: "a frame that decodes within the output",
                        });
                    }
                    out.buf[out.pos..out.pos + size].copy_from_slice(src);
                    out.pos += size;
                    p = body + size;
                }
                1 => {
                    if size > block_max {
                        return Err(DecodeError { offset: p, what: frame::BLOCK_TOO_LARGE });
                    }
                    let &v = input
                        .get(body)
                        .ok_or(DecodeError { offset: body, what: "the byte of an RLE block" })?;
                    if size > avail {
                        return Err(DecodeError {
                            offset: p,
                            what: "a frame that decodes within the output",
                        });
                    }
                    out.buf[out.pos..out.pos + size].fill(v);
                    out.pos += size;
                    p = body + 1;
                }
                2 => {
                    if size > block_max {
                        return Err(DecodeError { offset: p, what: frame::BLOCK_TOO_LARGE });
                    }
                    let src = input
                        .get(body..body + size)
                        .ok_or(DecodeError { offset: p, what: "a compressed block within the input" })?;
                    out.limit = out.pos + avail.min(block_max);
                    Self::block(
                        &mut self.lit,
                        &mut self.huf,
                        &mut self.huf_ok,
                        &mut self.tables,
                        &mut self.rep,
                        self.build,
                        block_max,
                        src,
                        body,
                        input,
                        &mut out,
                    )?;
                    p = body + size;
                }
                _ => return Err(DecodeError { offset: p, what: "a block type other than the reserved 3" }),
            }
            if last {
                break;
            }
        }
        let written = out.pos - frame_start;
        if let Some(cs) = h.content_size
            && cs != written as u64
        {
            return Err(DecodeError {
                offset: at + h.len - 1,
                what: "a frame that decodes to its content size",
            });
        }
        if h.checksum {
            let c = bits::le(input, p, 4)
                .ok_or(DecodeError { offset: p, what: "the frame's content checksum" })?;
            let want = xxhash::xxh64(&out.buf[frame_start..out.pos]) as u32;
            if c as u32 != want {
                return Err(DecodeError {
                    offset: p,
                    what: "a content checksum equal to the decoded content's",
                });
            }
            p += 4;
        }
        Ok((p, out.pos))
    }

    /// Decodes one compressed block `src` (at `base` in `input`).
    #[allow(clippy::too_many_arguments)]
    fn block(
        lit: &mut Vec<u8>,
        huf: &mut HuffTable,
        huf_ok: &mut bool,
        tables: &mut Tables,
        rep: &mut [u32; 3],
        build: Build,
        block_max: usize,
        src: &[u8],
        base: usize,
        input: &[u8],
        out: &mut Out<'_>,
    ) -> Result<(), DecodeError> {
        let (lits, n) = literals::read(src, base, block_max, huf, huf_ok, lit, build)
            .map_err(|what| DecodeError { offset: base, what })?;
        let seq_src = &src[n..];
        let (nb, h) = sequences::read_header(seq_src, tables)
            .map_err(|(o, what)| DecodeError { offset: base + n + o, what })?;
        let (lit_slice, lit_len): (&[u8], usize) = match lits {
            Literals::Input { start, len } => (&input[start..], len),
            Literals::Buffer { len } => (&lit[..], len),
        };
        let r = if nb == 0 {
            execute::copy_literals(out, lit_slice, 0, lit_len)
        } else {
            let src = &seq_src[h..];
            build.run(sequences::Decode { src, nb, t: tables, rep, lits: lit_slice, lit_len, out })
        };
        r.map_err(|what| DecodeError { offset: base + n + h, what })
    }
}

/// Whether a refusal of ours is one libzstd 1.5.7 may not share on the same input (the
/// differences the differential tests and the fuzz target accept, explained in `tests.rs`).
pub(crate) fn libzstd_may_accept(what: &str) -> bool {
    what == huffman::HUF_END
        || what == huffman::HUF_MARKER
        || what == frame::WINDOW_TOO_LARGE
        || what == frame::LEGACY_FRAME
        || what == frame::BLOCK_TOO_LARGE
}

/// For the fuzz target (`fuzz/fuzz_targets/zstd.rs`) only: decodes `input` into `output` with
/// `dict` (formatted or raw content, as [`Decoder::with_dict`]); an error is its offset, what
/// was expected, and whether libzstd may accept the input all the same.
#[doc(hidden)]
pub fn fuzz_decode(
    dict: Option<&[u8]>,
    input: &[u8],
    output: &mut [u8],
) -> Result<usize, (usize, &'static str, bool)> {
    let mut d = match dict {
        Some(x) => Decoder::with_dict(x).map_err(|e| (e.offset, e.what, false))?,
        None => Decoder::new(),
    };
    d.decode(input, output).map_err(|e| (e.offset, e.what, libzstd_may_accept(e.what)))
}

fn frame_magic(input: &[u8], at: usize) -> Result<u32, DecodeError> {
    bits::le(input, at, 4)
        .map(|m| m as u32)
        .ok_or(DecodeError { offset: at, what: "a zstd frame magic number" })
}
