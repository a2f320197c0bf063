//! libzstd 1.5.7's post-splitter (`ZSTD_compressBlock_splitBlock`, `ZSTD_deriveBlockSplits` in
//! zstd_compress.c), on for btopt and the stronger strategies with a window of 128 KiB or more
//! (`ZSTD_resolveBlockSplitterMode`): once a block is parsed, its sequences are cut in half
//! while the two halves cost less than the whole (recursively, down to 300 sequences a part), and
//! each part is written as a block of its own.
//!
//! libzstd estimates a part's cost from its entropy statistics (`ZSTD_estimateBlockSize`);
//! here each part is encoded, from the tables and repeat offsets of the blocks written before
//! the whole block, and its size taken: the same comparison, measured rather than estimated
//! (so a cut may differ where the two are within a few bytes). The repeat offsets of each part
//! are resolved when it is written ([`block::write_part`]), as libzstd's
//! `ZSTD_seqStore_resolveOffCodes` does.

use super::block::{self, Blocks, Store};
use super::params::{Params, Strategy};
use alloc::vec::Vec;

/// A part of fewer sequences is not cut (libzstd's `MIN_SEQUENCES_BLOCK_SPLITTING`).
const MIN_SEQS: usize = 300;

/// At most this many cuts a block (libzstd's `ZSTD_MAX_NB_BLOCK_SPLITS`).
const MAX_CUTS: usize = 196;

/// Whether libzstd 1.5.7 post-splits the blocks of `p`.
pub(crate) fn enabled(p: &Params) -> bool {
    p.strategy >= Strategy::BtOpt && p.window_log >= 17
}

/// The splitter's buffers, kept from block to block of a frame.
pub(crate) struct Split {
    /// Per sequence (and one past the last): where its literals start in the store's literals
    /// and where it starts in the block.
    lit_at: Vec<u32>,
    src_at: Vec<u32>,
    /// The sequence indices where the block is cut, in order.
    cuts: Vec<usize>,
    /// The trial encodings.
    scratch: Vec<u8>,
}

impl Split {
    pub(crate) fn new() -> Self {
        Split { lit_at: Vec::new(), src_at: Vec::new(), cuts: Vec::new(), scratch: Vec::new() }
    }

    /// Appends the block `src` (`last`: the frame's last), parsed into `store`, as one block or
    /// as the parts that cost less.
    pub(crate) fn write(
        &mut self,
        out: &mut Vec<u8>,
        src: &[u8],
        store: &Store,
        last: bool,
        b: &mut Blocks<'_>,
    ) {
        let n = store.matches.len();
        self.cuts.clear();
        if n >= MIN_SEQS {
            self.lit_at.clear();
            self.src_at.clear();
            let (mut lit, mut at) = (0u32, 0u32);
            for m in &store.matches {
                self.lit_at.push(lit);
                self.src_at.push(at);
                lit = lit.saturating_add(m.lit_len);
                at = at.saturating_add(m.lit_len).saturating_add(m.len);
            }
            self.lit_at.push(lit);
            self.src_at.push(at);
            self.derive(0, n, None, store, b);
        }
        // The parts' bounds must follow each other inside the block, or it is written whole.
        let fits = self.src_at.last().is_some_and(|&e| e as usize <= src.len())
            && self.lit_at.last().is_some_and(|&e| e as usize <= store.lits.len());
        if self.cuts.is_empty() || !fits {
            block::write(out, src, store, last, b);
            return;
        }
        let mut from = 0;
        for k in 0..=self.cuts.len() {
            let to = self.cuts.get(k).copied().unwrap_or(n);
            let end = to == n;
            let lits = &store.lits[self.lit_at[from] as usize..self.lits_end(to, n, store)];
            let part =
                &src[self.src_at[from] as usize..if end { src.len() } else { self.src_at[to] as usize }];
            block::write_part(out, part, lits, &store.matches[from..to], last && end, b);
            from = to;
        }
    }

    /// Where the literals of the part ending before sequence `to` end (the last part takes
    /// the literals after the last match).
    fn lits_end(&self, to: usize, n: usize, store: &Store) -> usize {
        if to == n { store.lits.len() } else { self.lit_at[to] as usize }
    }

    /// The size of sequences `from..to` written as one block; `None` when they cannot be.
    fn cost(&mut self, from: usize, to: usize, store: &Store, b: &mut Blocks<'_>) -> Option<usize> {
        let n = store.matches.len();
        let lits = store.lits.get(self.lit_at[from] as usize..self.lits_end(to, n, store))?;
        block::trial(&mut self.scratch, lits, &store.matches[from..to], b)
    }

    /// libzstd's `ZSTD_deriveBlockSplitsHelper`: sequences `from..to`, whose block costs
    /// `whole` (measured when `None`), cut in half when the halves cost less than the whole, then
    /// each half in turn (with the cost measured here: libzstd measures it again).
    fn derive(&mut self, from: usize, to: usize, whole: Option<usize>, store: &Store, b: &mut Blocks<'_>) {
        if to - from < MIN_SEQS || self.cuts.len() >= MAX_CUTS {
            return;
        }
        let mid = from + (to - from) / 2;
        let whole = whole.or_else(|| self.cost(from, to, store, b));
        let (Some(whole), Some(first), Some(second)) =
            (whole, self.cost(from, mid, store, b), self.cost(mid, to, store, b))
        else {
            return;
        };
        if first + second < whole {
            self.derive(from, mid, Some(first), store, b);
            self.cuts.push(mid);
            self.derive(mid, to, Some(second), store, b);
        }
    }
}
