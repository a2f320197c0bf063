//! One zstd block from the match finder's sequences (RFC 8878 §3.1.1.2-3): the repeat offsets
//! resolved as the decoder will (rep codes 1-3, shifted by one when the literal length is 0),
//! then the literals and sequences sections; a raw or RLE block when that is not smaller by
//! libzstd's margin (`ZSTD_minGain`). Entropy tables and repeat offsets change only with a
//! compressed block, as the decoder's do.

use super::literals::{self, HufState};
use super::sequences::{self, Defaults, Seq, SeqState};
use alloc::vec::Vec;

/// The largest block (RFC 8878 `Block_Maximum_Size`).
pub(crate) const MAX_BLOCK: usize = 128 * 1024;

/// A match as the finders report it: the literals before it, its length and its distance.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Match {
    pub(crate) lit_len: u32,
    pub(crate) len: u32,
    pub(crate) offset: u32,
}

/// What a finder found in one block: its matches and all its literals (the last ones after the
/// last match).
pub(crate) struct Store {
    pub(crate) lits: Vec<u8>,
    pub(crate) matches: Vec<Match>,
}

impl Store {
    pub(crate) fn new() -> Self {
        Store { lits: Vec::new(), matches: Vec::new() }
    }

    pub(crate) fn clear(&mut self) {
        self.lits.clear();
        self.matches.clear();
    }

    /// Records the literals `lits` and then a match.
    #[inline(always)]
    pub(crate) fn push(&mut self, lits: &[u8], len: usize, offset: usize) {
        self.lits.extend_from_slice(lits);
        self.matches.push(Match { lit_len: lits.len() as u32, len: len as u32, offset: offset as u32 });
    }

    /// Records the literals `src[from..to]` and then a match. Runs of at most 16 literals (most
    /// of them) are copied as 16 bytes and cut back, as libzstd's `ZSTD_wildcopy`: one vector
    /// move instead of a call to `memcpy`.
    #[inline(always)]
    pub(crate) fn push_from(&mut self, src: &[u8], from: usize, to: usize, len: usize, offset: usize) {
        let n = to - from;
        match src.get(from..).and_then(<[u8]>::first_chunk::<16>) {
            // No literal (most matches over repetitive data: 97 % of level 1's over the text
            // streams): no copy, the vector's length untouched (level 1 text 64 KiB split
            // 193.7 -> 185.8 M instructions a pass, 0.152 -> 0.162 M mispredicted branches;
            // float64 smooth 37.8 M either way, 0.099 -> 0.103 M).
            _ if n == 0 => {}
            Some(w) if n <= 16 => {
                let at = self.lits.len();
                self.lits.extend_from_slice(w);
                self.lits.truncate(at + n);
            }
            _ => self.lits.extend_from_slice(&src[from..to]),
        }
        self.matches.push(Match { lit_len: n as u32, len: len as u32, offset: offset as u32 });
    }
}

/// The state the decoder keeps from block to block.
#[derive(Clone)]
pub(crate) struct Carried {
    pub(crate) huf: HufState,
    pub(crate) seq: SeqState,
    pub(crate) rep: [u32; 3],
}

impl Carried {
    pub(crate) fn new() -> Self {
        Carried { huf: HufState::new(), seq: SeqState::new(), rep: [1, 4, 8] }
    }
}

/// The offset value of a match of distance `off` after `ll` literals, with the repeat offsets
/// `rep` updated as the decoder updates them (RFC 8878 §3.1.2.5).
///
/// Written as selects in reverse order of precedence, the last that holds winning (conditional
/// moves, no branches; the RFC's cascade of compares is the tests' reference, `off_base_rfc`).
/// With [`to_seqs`], the conversion of level 1's matches over text in 16 KiB streams went from
/// 44 to 36 instructions a sequence (callgrind of `ZSTD_OWN_ONLY=ours ZSTD_OWN_PASSES=3
/// ZSTD_OWN_DATA=text ZSTD_OWN_STREAMS=16 zstd_own 1`, 1.75 million sequences).
#[inline(always)]
pub(crate) fn off_base(ll: u32, off: u32, rep: &mut [u32; 3]) -> u32 {
    let [r0, r1, r2] = *rep;
    let ll0 = ll == 0;
    // A new offset: [off, r0, r1].
    let mut code = off + 3;
    let mut third = r1;
    // Literal length 0: repeat code 3 is the first offset minus one, last in precedence.
    if ll0 && off == r0.wrapping_sub(1) {
        code = 3;
    }
    if off == r2 {
        code = 3 - u32::from(ll0);
    }
    if off == r1 {
        code = 2 - u32::from(ll0);
        third = r2;
    }
    // After literals, the first offset comes first and changes nothing.
    let same = !ll0 && off == r0;
    if same {
        code = 1;
    }
    *rep = if same { [r0, r1, r2] } else { [off, r0, third] };
    code
}

/// `matches` as sequences into `seqs` (scratch whose length only grows: no emptying, no
/// capacity test a sequence), the repeat offsets `rep` updated; the sequences written.
fn to_seqs<'s>(seqs: &'s mut Vec<Seq>, matches: &[Match], rep: &mut [u32; 3]) -> &'s [Seq] {
    let n = matches.len();
    if seqs.len() < n {
        seqs.resize(n, Seq::new(0, 3, 1));
    }
    let seqs = &mut seqs[..n];
    // The repeat offsets in a local, not behind `rep`: held in registers through the loop.
    let mut r = *rep;
    for (s, m) in seqs.iter_mut().zip(matches) {
        *s = Seq::new(m.lit_len, m.len, off_base(m.lit_len, m.offset, &mut r));
    }
    *rep = r;
    seqs
}

/// What the blocks of one frame share: the decoder's state, the predefined tables, scratch.
pub(crate) struct Blocks<'d> {
    pub(crate) carried: Carried,
    pub(crate) defaults: &'d Defaults,
    pub(crate) seqs: Vec<Seq>,
    /// libzstd's `ZSTD_minGain`: a compressed block must save `(size >> min_gain_log) + 2`.
    pub(crate) min_gain_log: u32,
}

impl<'d> Blocks<'d> {
    /// The state of a frame's first block, with `seqs` (scratch; its length only grows) and
    /// the predefined tables `defaults` (built once per context).
    pub(crate) fn new(seqs: Vec<Seq>, defaults: &'d Defaults) -> Self {
        Blocks { carried: Carried::new(), defaults, seqs, min_gain_log: 6 }
    }
}

/// Appends one block of `src` (`last`: the frame's last) from `store`.
pub(crate) fn write(out: &mut Vec<u8>, src: &[u8], store: &Store, last: bool, b: &mut Blocks<'_>) {
    write_part(out, src, &store.lits, &store.matches, last, b);
}

/// Appends one block of `src` (`last`: the frame's last) from the matches `matches` and the
/// literals `lits` (those before each match, then those after the last one, if any).
pub(crate) fn write_part(
    out: &mut Vec<u8>,
    src: &[u8],
    lits: &[u8],
    matches: &[Match],
    last: bool,
    b: &mut Blocks<'_>,
) {
    let min_gain_log = b.min_gain_log;
    let at = out.len();
    // libzstd's `ZSTD_maybeRLE`: only a block of few sequences and literals can be one byte.
    if src.len() > 1 && matches.len() < 4 && lits.len() < 10 && is_run(src) {
        header(out, last, 1, src.len());
        out.push(src[0]);
        return;
    }
    out.extend_from_slice(&[0; 3]);
    let mut next = b.carried.clone();
    let min_gain = (src.len() >> min_gain_log) + 2;
    let below = src.len().saturating_sub(min_gain);
    // The sections are at least the literals' and a byte: raw literals of `below - 1` bytes or
    // more leave the block raw, and are not written ([`literals::encode`]): an incompressible
    // block is copied once less (`valgrind --tool=callgrind` of `ZSTD_OWN_ONLY=ours
    // ZSTD_OWN_PASSES=1 ZSTD_OWN_DATA=random ZSTD_OWN_STREAMS=512 zstd_own 1`: the frames take
    // 15.9 million instructions, were 20.1; libzstd's 16.1).
    let ok = sections(out, lits, matches, &mut next, b, below.saturating_sub(1));
    let size = out.len() - at - 3;
    if ok && size < below {
        let h = u32::from(last) | 2 << 1 | (size as u32) << 3;
        out[at..at + 3].copy_from_slice(&h.to_le_bytes()[..3]);
        b.carried = next;
    } else {
        out.truncate(at);
        header(out, last, 0, src.len());
        out.extend_from_slice(src);
    }
}

/// The size of the compressed block (header included) of `matches` and `lits` after the blocks
/// written so far, written into `scratch` and forgotten; `None` when no table describes them.
pub(crate) fn trial(
    scratch: &mut Vec<u8>,
    lits: &[u8],
    matches: &[Match],
    b: &mut Blocks<'_>,
) -> Option<usize> {
    scratch.clear();
    let mut next = b.carried.clone();
    sections(scratch, lits, matches, &mut next, b, usize::MAX).then(|| scratch.len() + 3)
}

/// Appends the literals and sequences sections, `next` the decoder's state they leave; false
/// when no table describes the sequences, or when the literals stored raw would be
/// `raw_limit` bytes or more (then not written).
fn sections(
    out: &mut Vec<u8>,
    lits: &[u8],
    matches: &[Match],
    next: &mut Carried,
    b: &mut Blocks<'_>,
    raw_limit: usize,
) -> bool {
    // libzstd's `SUSPECT_UNCOMPRESSIBLE_LITERAL_RATIO`.
    let suspect = matches.is_empty() || lits.len() / matches.len() >= 20;
    if !literals::encode(out, lits, &mut next.huf, b.min_gain_log, suspect, raw_limit) {
        return false;
    }
    let seqs = to_seqs(&mut b.seqs, matches, &mut next.rep);
    sequences::encode(out, seqs, &mut next.seq, b.defaults).is_some()
}

fn header(out: &mut Vec<u8>, last: bool, kind: u32, size: usize) {
    let h = u32::from(last) | kind << 1 | (size as u32) << 3;
    out.extend_from_slice(&h.to_le_bytes()[..3]);
}

/// Whether every byte of `src` (not empty) is its first, 64 bytes at a time (a vector compare).
fn is_run(src: &[u8]) -> bool {
    let b = src[0];
    let (chunks, rest) = src.as_chunks::<64>();
    chunks.iter().all(|c| c.iter().fold(0u8, |a, &x| a | (x ^ b)) == 0) && rest.iter().all(|&x| x == b)
}
