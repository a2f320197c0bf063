//! The backward filter pipeline (c-blosc2 `pipeline_backward`).
//!
//! Filters are undone from slot 5 down to slot 0, skipping empty slots and
//! `TRUNC_PREC` / `INT_TRUNC` (lossy, nothing to undo).

use super::bitshuffle::bitunshuffle;
use super::bytedelta;
use super::delta::{self, FirstBlockRef};
use super::error::{Error, Found};
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
    pub(crate) fn new(h: &ChunkHeader) -> Result<Self, Error> {
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
                    return Err(Error::unsupported(
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

    /// `true` when a delta is undone: every block but the first needs the first block's output.
    pub(crate) fn has_delta(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Some(Step::Delta)))
    }

    /// `true` when [`Pipeline::undo`] needs its third scratch buffer.
    pub(crate) fn needs_tmp(&self) -> bool {
        self.typesize > 1 && self.steps.iter().any(|s| matches!(s, Some(Step::BitShuffle)))
    }

    /// Undoes the pipeline for one block whose decoded streams are in `a`,
    /// writing the result to `dst` (all slices of the block's length; `b`
    /// and `tmp` are scratch).  `reference` is the output decoded so far,
    /// before this block: the delta reference.  For the first block
    /// (`first_block`) a delta that is the last filter undone works in place
    /// like c-blosc2's; in the (broken in c-blosc2) case of a delta undone
    /// before another filter, and where c-blosc2 would read output bytes it
    /// has not written yet, zeros are used.
    pub(crate) fn undo(
        &self,
        a: &mut [u8],
        b: &mut [u8],
        tmp: &mut [u8],
        dst: &mut [u8],
        reference: &[u8],
        first_block: bool,
    ) {
        #[derive(Clone, Copy, PartialEq, Eq)]
        enum Loc {
            A,
            B,
            D,
        }
        let last_any = self.steps.iter().rposition(Option::is_some);
        let last_transform =
            self.steps.iter().rposition(|s| matches!(s, Some(st) if !matches!(st, Step::Delta)));
        let mut cur = Loc::A;
        for (k, step) in self.steps.iter().enumerate() {
            let Some(step) = *step else { continue };
            if let Step::Delta = step {
                let buf: &mut [u8] = match cur {
                    Loc::A => a,
                    Loc::B => b,
                    Loc::D => dst,
                };
                if !first_block {
                    delta::decode_other_block(self.typesize, reference, buf);
                } else if Some(k) == last_any {
                    delta::decode_first_block(self.typesize, FirstBlockRef::InPlace, buf);
                } else {
                    delta::decode_first_block(self.typesize, FirstBlockRef::Output(&[]), buf);
                }
                continue;
            }
            let to = if Some(k) == last_transform {
                Loc::D
            } else if cur == Loc::A {
                Loc::B
            } else {
                Loc::A
            };
            let (src, out): (&[u8], &mut [u8]) = match (cur, to) {
                (Loc::A, Loc::B) => (a, b),
                (Loc::B, Loc::A) => (b, a),
                (Loc::A, Loc::D) => (a, dst),
                (Loc::B, Loc::D) => (b, dst),
                // Nothing follows the last transform but deltas.
                _ => continue,
            };
            match step {
                Step::Shuffle(ts) => unshuffle(ts, src, out),
                Step::BitShuffle => bitunshuffle(self.typesize, self.version, src, out, tmp),
                Step::ByteDelta(ts, fixed) => bytedelta::decode(ts, fixed, src, out),
                Step::Delta => {}
            }
            cur = to;
        }
        match cur {
            Loc::A => dst.copy_from_slice(a),
            Loc::B => dst.copy_from_slice(b),
            Loc::D => {}
        }
    }
}
