//! A safe deflate encoder producing exactly zlib-rs 0.6.8's bytes (zlib-ng's algorithms) for
//! zlib's `compress2` at levels 1-9: zlib wrapper, 32 KiB window (windowBits 15), memLevel 8
//! (16 Ki symbols a block), default strategy. One shot: the whole input is in memory and the
//! stream goes straight into the caller's slice, but the window, its slide, the hash tables and
//! the block flushes are zlib-rs's, so that every match and block boundary is the same.
//!
//! Files: [`config`] (the level table), [`window`] (`fill_window`, the slide), [`hash`] (the two
//! hash functions and insertion), [`longest_match`], the level loops [`quick`] (1), [`fast`] (2),
//! [`medium`] (3-6), [`slow`] (7-9), [`trees`] (blocks: counts, block choice, emission), [`huffman`] (tree build), [`tables`] (the
//! format's fixed tables), [`bits`] (the bit writer), [`adler32`].
//!
//! Speed (callgrind, instructions per MiB at clevel 5 on 128 KiB blocks, 2026-11-30): shuffled
//! float64 normal 125.0 M (zlib-ng as c-blosc2 3.3.5 runs it: 160.4 M; zlib-rs 191.1 M), smooth
//! 87.0 M (110.1 M), text 77.0 M (73.4 M); CPU time 1.04-1.16x c-blosc2's speed on the `pack`
//! table's data (`scripts/bench_codec.py --codec zlib`). BENCHMARKS.md has the figures.

mod adler32;
mod bits;
mod config;
mod fast;
mod hash;
mod huffman;
mod longest_match;
mod medium;
mod quick;
mod slow;
mod tables;
mod trees;
mod window;

use alloc::boxed::Box;
use bits::BitWriter;
use config::{Algorithm, CONFIGURATION_TABLE};
use trees::Block;

/// log2 of the window (windowBits 15).
const W_BITS: usize = 15;
/// The LZ77 window: 32 KiB.
const W_SIZE: usize = 1 << W_BITS;
const W_MASK: usize = W_SIZE - 1;
/// The window buffer: two windows (the upper half slides down).
const WINDOW_SIZE: usize = 2 * W_SIZE;
/// Bytes after the window buffer that reads of 8 or 256 bytes at any 16-bit position may reach
/// (always zero; zlib-rs never reads them for a match it keeps).
const WINDOW_PAD: usize = 2 * STD_MAX_MATCH + 8;
/// The window buffer with its padding.
const WINDOW_BUF: usize = WINDOW_SIZE + WINDOW_PAD;
/// Entries of the hash head table (16-bit hashes).
const HASH_SIZE: usize = 1 << 16;
/// memLevel 8: symbols of a block (`lit_bufsize`).
const LIT_BUFSIZE: usize = 1 << (8 + 6);
/// Deflate's shortest and longest matches.
const STD_MIN_MATCH: usize = 3;
const STD_MAX_MATCH: usize = 258;
/// The shortest match the levels take.
const WANT_MIN_MATCH: usize = 4;
/// Look-ahead kept while input remains: a longest match plus a minimum one plus one.
const MIN_LOOKAHEAD: usize = STD_MAX_MATCH + STD_MIN_MATCH + 1;
/// Farthest match distance (matches never reach into the bytes a slide may bring in).
const MAX_DIST: usize = W_SIZE - MIN_LOOKAHEAD;
/// Level 9 (a chain longer than this) hashes with the rolling hash.
const ROLL_CHAIN: u16 = 1024;

/// The compressor's state: the window over the input, the hash chains, the match state of the
/// lazy levels, the block being gathered and the bit writer.
struct State<'a> {
    input: &'a [u8],
    /// Input bytes already copied into the window.
    next_in: usize,
    window: Box<[u8; WINDOW_BUF]>,
    prev: Box<[u16; W_SIZE]>,
    head: Box<[u16; HASH_SIZE]>,
    level: u8,
    good_match: u16,
    nice_match: u16,
    max_lazy_match: u16,
    max_chain_length: u16,
    /// The rolling hash (level 9) in place of the multiplicative one.
    roll: bool,
    ins_h: u32,
    strstart: usize,
    /// Window position where the current block starts (negative once slid past).
    block_start: isize,
    lookahead: usize,
    insert: usize,
    match_start: u16,
    prev_match: u16,
    prev_length: u16,
    match_available: bool,
    block: Block,
    bits: BitWriter<'a>,
}

/// Why a level loop stopped early: the output slice is full.
struct Full;

/// zlib's `compress2(output, input, level)` as zlib-rs 0.6.8 writes it; the stream's length, or
/// 0 when it does not fit in `output` (nothing is written past it). `level` 1-9 (others are
/// clamped into it).
pub fn compress(level: u8, input: &[u8], output: &mut [u8]) -> usize {
    let level = level.clamp(1, 9);
    let cfg = &CONFIGURATION_TABLE[usize::from(level - 1)];
    let mut s = State {
        input,
        next_in: 0,
        window: Box::new([0; WINDOW_BUF]),
        prev: Box::new([0; W_SIZE]),
        head: Box::new([0; HASH_SIZE]),
        level,
        good_match: cfg.good_length,
        nice_match: cfg.nice_length,
        max_lazy_match: cfg.max_lazy,
        max_chain_length: cfg.max_chain,
        roll: cfg.max_chain > ROLL_CHAIN,
        ins_h: 0,
        strstart: 0,
        block_start: 0,
        lookahead: 0,
        insert: 0,
        match_start: 0,
        prev_match: 0,
        prev_length: 0,
        match_available: false,
        block: Block::new(LIT_BUFSIZE),
        bits: BitWriter::new(output),
    };
    s.bits.put_bytes(&header(level).to_be_bytes());
    let done = match cfg.algorithm {
        Algorithm::Quick => s.deflate_quick(),
        Algorithm::Fast => s.deflate_fast(),
        Algorithm::Medium => s.deflate_medium(),
        Algorithm::Slow => s.deflate_slow(),
    };
    if done.is_err() {
        return 0;
    }
    s.bits.put_bytes(&adler32::adler32(input).to_be_bytes());
    if s.bits.overflowed() { 0 } else { s.bits.written() }
}

/// The zlib header: deflate, 32 KiB window, the level's FLEVEL, no dictionary, FCHECK.
fn header(level: u8) -> u16 {
    const Z_DEFLATED: u16 = 8;
    let level_flags = match level {
        0 | 1 => 0,
        2..=5 => 1,
        6 => 2,
        _ => 3,
    };
    let h = ((Z_DEFLATED + ((W_BITS as u16 - 8) << 4)) << 8) | (level_flags << 6);
    h + 31 - (h % 31)
}

impl State<'_> {
    /// Ends the current block (zlib's `flush_block_only`); `Err` once the output is full.
    fn flush_block(&mut self, last: bool) -> Result<(), Full> {
        let stored_len = (self.strstart as isize).wrapping_sub(self.block_start) as u32;
        let stored = usize::try_from(self.block_start)
            .ok()
            .and_then(|start| self.window.get(start..start.checked_add(stored_len as usize)?));
        self.block.flush(&mut self.bits, stored, stored_len, last);
        self.block_start = self.strstart as isize;
        self.bits.flush_bits();
        if self.bits.overflowed() { Err(Full) } else { Ok(()) }
    }

    /// The bytes left to insert, the last block, as the level loops end.
    fn finish(&mut self) -> Result<(), Full> {
        self.insert = self.strstart.min(STD_MIN_MATCH - 1);
        self.flush_block(true)
    }
}

#[cfg(test)]
mod tests;
