//! c-blosc2's six-slot filter pipeline, both ways: [`Forward`] applies the filters in slot order
//! (`pipeline_forward`), [`Backward`] undoes them from slot 5 down to slot 0
//! (`pipeline_backward`). Both are made of the same [`Step`]s, checked once from the ids and
//! metas; a filter id that no built-in filter has is looked up in the [`Registry`].

use super::{bitshuffle, bytedelta, delta, int_trunc, ndcell, ndmean, shuffle, trunc_prec};
use crate::error::{Error, Expected, Found};
use crate::fields::{self, MAX_FILTERS};
use crate::id::Filter;
use crate::registry::{FilterPlugin, PluginContext, Registry};

/// One filter of a checked pipeline.
#[derive(Clone, Copy)]
enum Step<'r> {
    /// Byte shuffle with this element size.
    Shuffle(usize),
    /// Bit shuffle.
    BitShuffle,
    /// XOR delta against the chunk's first block.
    Delta,
    /// Mantissa truncation zeroing this many low bits (forward only).
    TruncPrec(u32),
    /// Integer truncation zeroing this many low bits (forward only).
    IntTrunc(u32),
    /// Byte delta with this channel count; `true` for the fixed filter (35).
    ByteDelta(usize, bool),
    /// A registered filter: its plugin, its meta and its slot.
    Plugin(&'r dyn FilterPlugin, u8, usize),
}

/// Which way a pipeline runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Forward,
    Backward,
}

/// The step for `id` in `slot` (`None`: nothing to do that way).
fn step<'r>(
    id: Filter,
    meta: u8,
    typesize: usize,
    slot: usize,
    way: Direction,
    registry: &'r Registry,
) -> Result<Option<Step<'r>>, Error> {
    let meta_or_ts = if meta == 0 { typesize } else { usize::from(meta) };
    let built_in = match (id, way) {
        (Filter::NoFilter, _) => return Ok(None),
        (Filter::Shuffle, _) => Some(Step::Shuffle(meta_or_ts)),
        (Filter::BitShuffle, _) => Some(Step::BitShuffle),
        (Filter::Delta, _) => Some(Step::Delta),
        (Filter::TruncPrec, Direction::Forward) => {
            Some(Step::TruncPrec(trunc_prec::zeroed_bits(meta, typesize, slot)?))
        }
        (Filter::IntTrunc, Direction::Forward) if registry.filter(id).is_none() => {
            Some(Step::IntTrunc(int_trunc::zeroed_bits(meta, typesize, slot)?))
        }
        (Filter::ByteDelta, _) => Some(Step::ByteDelta(meta_or_ts, true)),
        (Filter::ByteDeltaBuggy, Direction::Backward) => Some(Step::ByteDelta(meta_or_ts, false)),
        // Lossy filters: nothing to undo (unless a plugin is registered for them).
        (Filter::TruncPrec | Filter::IntTrunc, Direction::Backward) if registry.filter(id).is_none() => {
            return Ok(None);
        }
        _ => None,
    };
    if let Some(s) = built_in {
        return Ok(Some(s));
    }
    if let Some(plugin) = plugin(registry, id) {
        return Ok(Some(Step::Plugin(plugin, meta, slot)));
    }
    let expected = match way {
        Direction::Forward => {
            "a filter this compressor applies (shuffle, bitshuffle, delta, trunc_prec, ndcell, ndmean, bytedelta, int_trunc, or a registered plugin)"
        }
        Direction::Backward => {
            "a filter this decoder can undo (shuffle, bitshuffle, delta, trunc_prec, ndcell, ndmean, bytedelta, int_trunc, or a registered plugin)"
        }
    };
    Err(Error::unsupported(
        fields::filter_offset(slot),
        "filters",
        expected,
        Found::Named(id.id().into(), id.label()),
    ))
}

/// The plugin that runs filter `id`: the one registered for it, or else c-blosc2's own plugin
/// of that id that this crate implements (ndcell, ndmean).
fn plugin(registry: &Registry, id: Filter) -> Option<&dyn FilterPlugin> {
    registry.filter(id).or(match id {
        Filter::NdCell => Some(&ndcell::NdCell),
        Filter::NdMean => Some(&ndmean::NdMean),
        _ => None,
    })
}

/// A checked forward pipeline: the filters of the six slots, applied in slot order.
#[derive(Clone, Copy)]
pub(crate) struct Forward<'r> {
    steps: [Option<Step<'r>>; MAX_FILTERS],
    typesize: usize,
    registry: &'r Registry,
}

impl<'r> Forward<'r> {
    /// Checks the filter ids and metas against what c-blosc2 can apply for `typesize` (the
    /// header's typesize, after c-blosc2 caps types over 255 bytes to 1).
    pub(crate) fn new(
        filters: &[Filter; MAX_FILTERS],
        metas: &[u8; MAX_FILTERS],
        typesize: usize,
        registry: &'r Registry,
    ) -> Result<Self, Error> {
        let mut steps = [None; MAX_FILTERS];
        // c-blosc2 undoes a delta of the first block in place only when it is the last filter
        // undone: any other filter (trunc_prec needs no undo) before it, or a second delta,
        // makes chunks c-blosc2 itself cannot decode. They are refused.
        let mut undone_before = false;
        for (i, &id) in filters.iter().enumerate() {
            if id == Filter::Delta && undone_before {
                return Err(Error::unsupported(
                    fields::filter_offset(i),
                    "filters",
                    "delta once, before any filter but trunc_prec (c-blosc2 cannot decode it elsewhere)",
                    Found::Value(id.id().into()),
                ));
            }
            undone_before |= !matches!(id, Filter::NoFilter | Filter::TruncPrec);
        }
        for (i, (&id, &meta)) in filters.iter().zip(metas).enumerate() {
            steps[i] = step(id, meta, typesize, i, Direction::Forward, registry)?;
        }
        Ok(Forward { steps, typesize, registry })
    }

    /// `true` when no slot holds a filter.
    pub(crate) fn is_empty(&self) -> bool {
        self.steps.iter().all(Option::is_none)
    }

    /// Whether a slot holds the delta filter (whose blocks but the first are coded against
    /// the chunk's first bytes: [`Forward::apply`]'s `reference`).
    pub(crate) fn has_delta(&self) -> bool {
        self.steps.iter().flatten().any(|s| matches!(s, Step::Delta))
    }

    /// Runs the pipeline over `block` (`len` bytes); `a`, `b` and `tmp` are scratch of at
    /// least `len` bytes. `reference` is, for a block but the chunk's first, the chunk's first
    /// `len` bytes (or all of them if fewer), which delta codes against (`None` for the first
    /// block, and when no delta runs). Returns which of `a` or `b` holds the result (`None`: the
    /// block itself, no filter ran).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn apply(
        &self,
        block: &[u8],
        reference: Option<&[u8]>,
        a: &mut [u8],
        b: &mut [u8],
        tmp: &mut [u8],
        clevel: u8,
    ) -> Result<Option<bool>, Error> {
        let len = block.len();
        // `cur`: None = the input block, Some(false) = a, Some(true) = b.
        let mut cur: Option<bool> = None;
        for step in self.steps.iter().flatten() {
            let (src, dst): (&[u8], &mut [u8]) = match cur {
                None => (block, &mut a[..len]),
                Some(false) => (&a[..len], &mut b[..len]),
                Some(true) => (&b[..len], &mut a[..len]),
            };
            match *step {
                Step::Shuffle(ts) => shuffle::shuffle(ts, src, dst),
                Step::BitShuffle => bitshuffle::bitshuffle(self.typesize, src, dst, &mut tmp[..len]),
                Step::Delta => delta::encode(self.typesize, reference, src, dst),
                Step::TruncPrec(zeroed) => trunc_prec::encode(self.typesize, zeroed, src, dst),
                Step::IntTrunc(zeroed) => int_trunc::encode(self.typesize, zeroed, src, dst),
                Step::ByteDelta(ts, _) => bytedelta::encode(ts, src, dst),
                Step::Plugin(plugin, meta, slot) => {
                    let ctx = self.registry.context(PluginContext {
                        meta,
                        clevel,
                        ..PluginContext::new(self.typesize, len)
                    });
                    // The buffers are reused from block to block: what a plugin leaves is zeros.
                    dst.fill(0);
                    plugin.forward(src, dst, &ctx).map_err(|e| plugin_error(slot, e.0))?;
                }
            }
            cur = Some(cur == Some(false));
        }
        Ok(cur)
    }
}

/// A checked backward pipeline: the steps in undo order (slot 5 first).
pub(crate) struct Backward<'r> {
    steps: [Option<Step<'r>>; MAX_FILTERS],
    typesize: usize,
    version: u8,
    registry: &'r Registry,
    /// Shapes told to plugins before the registry's.
    shapes: (Option<&'r [i32]>, Option<&'r [i32]>),
}

impl<'r> Backward<'r> {
    /// The pipeline of a chunk's six filter slots; filters it cannot undo (unregistered plugin
    /// and user filters) are reported as unsupported.
    pub(crate) fn new(
        filters: &[u8; MAX_FILTERS],
        metas: &[u8; MAX_FILTERS],
        typesize: usize,
        version: u8,
        registry: &'r Registry,
    ) -> Result<Self, Error> {
        let mut steps = [None; MAX_FILTERS];
        let mut n = 0;
        for i in (0..MAX_FILTERS).rev() {
            let Some(s) =
                step(Filter::from_id(filters[i]), metas[i], typesize, i, Direction::Backward, registry)?
            else {
                continue;
            };
            if let Some(slot) = steps.get_mut(n) {
                *slot = Some(s);
            }
            n += 1;
        }
        Ok(Backward { steps, typesize, version, registry, shapes: (None, None) })
    }

    /// The pipeline telling its plugins `chunkshape` and `blockshape` (where given) before the
    /// registry's shapes.
    pub(crate) fn with_shapes(
        mut self,
        chunkshape: Option<&'r [i32]>,
        blockshape: Option<&'r [i32]>,
    ) -> Self {
        self.shapes = (chunkshape, blockshape);
        self
    }

    /// `true` when nothing has to be undone.
    pub(crate) fn is_empty(&self) -> bool {
        self.steps.iter().all(Option::is_none)
    }

    /// The item size when the whole pipeline is one byte shuffle (then a block's planes can be
    /// unshuffled from where its streams lie: [`crate::filter::shuffle::unshuffle_planes`]).
    pub(crate) fn single_shuffle(&self) -> Option<usize> {
        match self.steps {
            [Some(Step::Shuffle(ts)), None, None, None, None, None] => Some(ts),
            _ => None,
        }
    }

    /// `true` when a delta is undone: every block but the first needs the first block's output.
    pub(crate) fn has_delta(&self) -> bool {
        self.steps.iter().any(|s| matches!(s, Some(Step::Delta)))
    }

    /// `true` when [`Backward::undo`] needs its third scratch buffer.
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
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn undo(
        &self,
        a: &mut [u8],
        b: &mut [u8],
        tmp: &mut [u8],
        dst: &mut [u8],
        reference: &[u8],
        first_block: bool,
    ) -> Result<(), Error> {
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
        // A bytedelta undone straight before the byte shuffle of its typesize (4 or 8): both
        // in one pass, at the shuffle's step.
        let mut bytedelta_first = None;
        for (k, step) in self.steps.iter().enumerate() {
            let Some(step) = *step else { continue };
            if let Step::ByteDelta(ts, fixed) = step
                && matches!(ts, 4 | 8)
                && matches!(self.steps.get(k + 1), Some(Some(Step::Shuffle(t))) if *t == ts)
            {
                bytedelta_first = Some(fixed);
                continue;
            }
            if let Step::Delta = step {
                let buf: &mut [u8] = match cur {
                    Loc::A => a,
                    Loc::B => b,
                    Loc::D => dst,
                };
                if !first_block {
                    delta::decode_other_block(self.typesize, reference, buf);
                } else if Some(k) == last_any {
                    delta::decode_first_block(self.typesize, delta::FirstBlockRef::InPlace, buf);
                } else {
                    delta::decode_first_block(self.typesize, delta::FirstBlockRef::Output(&[]), buf);
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
                Step::Shuffle(ts) => match bytedelta_first.take() {
                    Some(fixed) => bytedelta::decode_unshuffle(ts, fixed, src, out),
                    None => shuffle::unshuffle(ts, src, out),
                },
                Step::BitShuffle => bitshuffle::bitunshuffle(self.typesize, self.version, src, out, tmp),
                Step::ByteDelta(ts, fixed) => bytedelta::decode(ts, fixed, src, out),
                Step::Plugin(plugin, meta, slot) => {
                    let ctx = self
                        .registry
                        .context(PluginContext { meta, ..PluginContext::new(self.typesize, src.len()) });
                    plugin.backward(src, out, &ctx).map_err(|e| plugin_error(slot, e.0))?;
                }
                Step::Delta | Step::TruncPrec(_) | Step::IntTrunc(_) => {}
            }
            cur = to;
        }
        match cur {
            Loc::A => dst.copy_from_slice(a),
            Loc::B => dst.copy_from_slice(b),
            Loc::D => {}
        }
        Ok(())
    }
}

/// The error of a filter plugin that failed on the block.
fn plugin_error(slot: usize, what: &'static str) -> Error {
    Error::invalid(
        fields::filter_offset(slot),
        "filters",
        Expected::Text(what),
        Found::Text("a block the registered filter refuses"),
    )
}
