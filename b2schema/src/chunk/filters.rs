//! The backward filter pipeline (c-blosc2 `pipeline_backward`).
//!
//! Filters are undone from slot 5 down to slot 0, skipping empty slots and
//! `TRUNC_PREC` / `INT_TRUNC` (lossy, nothing to undo).

use super::bitshuffle::bitunshuffle;
use super::bytedelta;
use super::delta::{self, FirstBlockRef};
use super::error::{ChunkError, Found};
use super::header::{ChunkHeader, MAX_FILTERS, filter_id, filter_offset};
use super::shuffle::unshuffle;

/// One filter to undo.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// Byte unshuffle with this element size.
    Shuffle(usize),
    /// Bit unshuffle.
    BitShuffle,
    /// XOR delta against the first block.
    Delta,
    /// Byte delta with this channel count; `true` for the fixed filter (35).
    ByteDelta(usize, bool),
}

/// The decoded pipeline of a chunk, in undo order.
pub(crate) struct Pipeline {
    steps: [Option<Step>; MAX_FILTERS],
    typesize: usize,
    version: u8,
}

impl Pipeline {
    /// Builds the pipeline from the header; unknown or plugin filters that
    /// need more than the chunk (ndcell, ndmean, user filters) are reported
    /// as unsupported.
    pub(crate) fn new(h: &ChunkHeader) -> Result<Self, ChunkError> {
        let typesize = usize::from(h.typesize);
        let mut steps = [None; MAX_FILTERS];
        let mut n = 0;
        for i in (0..MAX_FILTERS).rev() {
            let id = h.filters[i];
            let meta = usize::from(h.filters_meta[i]);
            let meta_or_ts = if meta == 0 { typesize } else { meta };
            let step = match id {
                filter_id::NOFILTER | filter_id::TRUNC_PREC | filter_id::INT_TRUNC => continue,
                filter_id::SHUFFLE => Step::Shuffle(meta_or_ts),
                filter_id::BITSHUFFLE => Step::BitShuffle,
                filter_id::DELTA => Step::Delta,
                filter_id::BYTEDELTA => Step::ByteDelta(meta_or_ts, true),
                filter_id::BYTEDELTA_BUGGY => Step::ByteDelta(meta_or_ts, false),
                other => {
                    let what = match other {
                        filter_id::NDCELL => "ndcell",
                        filter_id::NDMEAN => "ndmean",
                        5..=31 => "undefined built-in filter",
                        _ => "user-defined filter",
                    };
                    return Err(ChunkError::unsupported(
                        filter_offset(i),
                        "filters",
                        "a filter this decoder can undo (shuffle, bitshuffle, delta, trunc_prec, bytedelta, int_trunc)",
                        Found::Named(other.into(), what),
                    ));
                }
            };
            if let Some(slot) = steps.get_mut(n) {
                *slot = Some(step);
            }
            n += 1;
        }
        Ok(Pipeline { steps, typesize, version: h.version })
    }

    /// `true` when nothing has to be undone.
    pub(crate) fn is_empty(&self) -> bool {
        self.steps.iter().all(Option::is_none)
    }

    /// Undoes the pipeline for one block of `len` bytes held in `a[..len]`,
    /// using `b[..len]` as scratch.  `out` is the whole output buffer as
    /// decoded so far (the delta reference) and `offset` the block's position
    /// in it.  Returns `true` when the result ended up in `b`, `false` for `a`.
    pub(crate) fn undo(&self, a: &mut [u8], b: &mut [u8], out: &[u8], offset: usize) -> bool {
        let last = self.steps.iter().rposition(Option::is_some);
        let mut in_b = false;
        for (k, step) in self.steps.iter().enumerate() {
            let Some(step) = *step else { continue };
            let (src, dst): (&mut [u8], &mut [u8]) =
                if in_b { (&mut *b, &mut *a) } else { (&mut *a, &mut *b) };
            match step {
                Step::Shuffle(ts) => {
                    unshuffle(ts, src, dst);
                    in_b = !in_b;
                }
                Step::BitShuffle => {
                    bitunshuffle(self.typesize, self.version, src, dst);
                    in_b = !in_b;
                }
                Step::ByteDelta(ts, fixed) => {
                    bytedelta::decode(ts, fixed, src, dst);
                    in_b = !in_b;
                }
                Step::Delta => {
                    if offset == 0 {
                        let reference =
                            if Some(k) == last { FirstBlockRef::InPlace } else { FirstBlockRef::Output(out) };
                        delta::decode_first_block(self.typesize, reference, src);
                    } else {
                        delta::decode_other_block(self.typesize, out, src);
                    }
                }
            }
        }
        in_b
    }
}
