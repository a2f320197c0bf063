//! One zstd frame as libzstd's one-shot `ZSTD_compressCCtx` writes it (RFC 8878 §3.1.1): the
//! header with the content size (single segment when the window covers the content; no
//! checksum; the dictionary's id when it has one), then blocks of at most 128 KiB (cut shorter
//! where libzstd 1.5.7's pre-splitter would, [`super::presplit`]), each parsed by the level's
//! match finder and written by [`super::block`] (btopt and above: in parts where libzstd's
//! post-splitter would cut it, [`super::postsplit`]).

use super::block::{self, Blocks, MAX_BLOCK, Store};
use super::context::Context;
use super::match_bt::{self, OPT_NUM, Tree};
use super::match_dubt::Dubt;
use super::match_fast::{Window, dfast, fast};
use super::match_lazy::{Chain, lazy};
use super::match_row::{CACHE, ROW_READ, Rows, TAG_BITS, aligned, row_log, salt};
use super::matching::{EMPTY, READ, hash, mls};
use super::opt::{Opt, Scratch};
use super::params::{Params, Strategy, params};
use super::postsplit::{self, Split};
use super::presplit;
use super::sequences::Defaults;
use alloc::vec::Vec;

use super::super::FRAME_MAGIC as MAGIC;

/// The strongest strategy this encoder runs (all of zstd's).
pub(crate) const STRONGEST: Strategy = Strategy::BtUltra2;

/// The frame of `input` at `level` (with the raw-content dictionary `dict`, whose id is
/// `dict_id`, 0 for none); `None` when the level's strategy is not this encoder's or the input
/// is too large for its 32-bit positions.
#[cfg(test)]
pub(crate) fn compress(level: i32, input: &[u8], dict: &[u8], dict_id: u32) -> Option<Vec<u8>> {
    super::context::with_context(|ctx| compress_with(ctx, level, input, dict, dict_id).map(<[u8]>::to_vec))
}

/// The frame of `input` at `level` (with the raw-content dictionary `dict`, whose id is
/// `dict_id`, 0 for none), made with the tables, buffers and output of `ctx` (kept by the caller
/// from frame to frame, as libzstd's `ZSTD_CCtx`), in `ctx`'s output buffer; `None` when the
/// level's strategy is not this encoder's or the input is too large for its 32-bit positions.
pub(crate) fn compress_with<'c>(
    ctx: &'c mut Context,
    level: i32,
    input: &[u8],
    dict: &[u8],
    dict_id: u32,
) -> Option<&'c [u8]> {
    let mut out = core::mem::take(&mut ctx.out);
    out.clear();
    let done = compress_onto(ctx, level, input, dict, dict_id, &mut out).is_some();
    ctx.out = out;
    done.then_some(&ctx.out[..])
}

/// The most bytes a frame of `n` bytes of input takes: every block stored raw in the
/// pre-splitter's smallest blocks (8 KiB), with the frame's header.
pub(crate) const fn bound(n: usize) -> usize {
    n + 3 * n.div_ceil(8 * 1024) + 32
}

/// [`compress_with`] appending the frame to `out` (after the bytes it holds: a chunk's, so
/// that the frame is not copied there); its length, or `None` as [`compress_with`]. `out` is
/// grown to hold [`bound`] more bytes first if it has not the room.
pub(crate) fn compress_onto(
    ctx: &mut Context,
    level: i32,
    input: &[u8],
    dict: &[u8],
    dict_id: u32,
    out: &mut Vec<u8>,
) -> Option<usize> {
    let p = params(level, input.len(), dict.len());
    if p.strategy > STRONGEST || input.len() as u64 + dict.len() as u64 >= u64::from(u32::MAX - 64) {
        return None;
    }
    let Context { first, second, third, rows, tags, store, seqs, out: _, base: next_base, defaults, opt } =
        ctx;
    // Room for the frame stored raw in the pre-splitter's smallest blocks (8 KiB): no
    // reallocation whatever the blocks become.
    let start = out.len();
    out.reserve(bound(input.len()));
    header(out, &p, input.len(), dict_id);
    let src: alloc::borrow::Cow<'_, [u8]> = if dict.is_empty() {
        alloc::borrow::Cow::Borrowed(input)
    } else {
        let mut v = Vec::with_capacity(dict.len() + input.len());
        v.extend_from_slice(dict);
        v.extend_from_slice(input);
        alloc::borrow::Cow::Owned(v)
    };
    let src = &src[..];
    let window = 1usize << p.window_log;
    let block_max = MAX_BLOCK.min(window);
    if input.is_empty() {
        out.extend_from_slice(&1u32.to_le_bytes()[..3]);
        return Some(out.len() - start);
    }
    // The tables keep the entries of earlier frames, below this frame's base ([`Window::stamp`]);
    // emptied only when the positions would come near 2^31.
    // btultra2's first pass over the first block is forgotten by a second base past it.
    let two_passes = first_pass(&p, input, dict);
    let passes = 1 + u64::from(two_passes);
    let mut base = *next_base;
    if u64::from(base) + passes * src.len() as u64 >= 1 << 31 {
        first.fill(EMPTY);
        second.fill(EMPTY);
        third.fill(EMPTY);
        rows.fill(EMPTY);
        base = 0;
    }
    *next_base = base + (passes * src.len() as u64) as u32;
    let tables = Tables { first, second, third, rows, tags, scratch: opt };
    let mut finder = Finder::new(&p, src, dict.len(), base, tables, two_passes);
    let mut blocks = Blocks::new(core::mem::take(seqs), defaults.get_or_insert_with(Defaults::new));
    let mut rep = [1u32, 4];
    let mut pos = dict.len();
    let header_len = out.len();
    // btopt and above: each block's sequences cut where the parts cost less ([`postsplit`]).
    let post_split = postsplit::enabled(&p);
    let mut split = Split::new();
    while pos < src.len() {
        // libzstd 1.5.7's `ZSTD_optimalBlockSize`: a full block may be cut shorter where its
        // statistics change, once the frame has saved 3 bytes ([`presplit`]).
        let saved = (pos - dict.len()) as i64 - (out.len() - header_len) as i64;
        let size = presplit::block_size(&src[pos..], block_max, p.strategy, saved);
        let end = (pos + size).min(src.len());
        store.clear();
        let w = Window { src, start: pos, end, low: 0, max_dist: window, base };
        finder.run(&w, &mut rep, store);
        if post_split {
            split.write(out, &src[pos..end], store, end == src.len(), &mut blocks);
        } else {
            block::write(out, &src[pos..end], store, end == src.len(), &mut blocks);
        }
        pos = end;
    }
    *seqs = blocks.seqs;
    Some(out.len() - start)
}

/// Whether btultra2 gathers the first block's statistics by a first pass over it (libzstd's
/// `ZSTD_initStats_ultra`: no dictionary, more than 8 bytes).
fn first_pass(p: &Params, input: &[u8], dict: &[u8]) -> bool {
    p.strategy == Strategy::BtUltra2 && dict.is_empty() && input.len() > 8
}

/// The context's tables a finder takes.
struct Tables<'t> {
    first: &'t mut Vec<u32>,
    second: &'t mut Vec<u32>,
    third: &'t mut Vec<u32>,
    rows: &'t mut Vec<u32>,
    tags: &'t mut Vec<u8>,
    scratch: &'t mut Scratch,
}

/// The first `1 << log` entries of `table`, grown with empty entries when shorter (what the
/// entries of earlier frames hold is below the frame's base: stale, whatever the slice).
fn kept(table: &mut Vec<u32>, log: u32) -> &mut [u32] {
    let n = 1usize << log;
    if table.len() < n {
        table.resize(n, EMPTY);
    }
    &mut table[..n]
}

/// The frame header (RFC 8878 §3.1.1.1) as libzstd's `ZSTD_writeFrameHeader`.
fn header(out: &mut Vec<u8>, p: &Params, n: usize, dict_id: u32) {
    out.extend_from_slice(&MAGIC.to_le_bytes());
    let n64 = n as u64;
    let single = (1u64 << p.window_log) >= n64;
    let fcs: u8 = u8::from(n64 >= 256) + u8::from(n64 >= 65_536 + 256) + u8::from(n64 >= 0xFFFF_FFFF);
    let did: u8 = match dict_id {
        0 => 0,
        1..=255 => 1,
        256..=65_535 => 2,
        _ => 3,
    };
    out.push(did | u8::from(single) << 5 | fcs << 6);
    if !single {
        out.push(((p.window_log - 10) << 3) as u8);
    }
    match did {
        0 => {}
        1 => out.push(dict_id as u8),
        2 => out.extend_from_slice(&(dict_id as u16).to_le_bytes()),
        _ => out.extend_from_slice(&dict_id.to_le_bytes()),
    }
    match fcs {
        0 if single => out.push(n as u8),
        0 => {}
        1 => out.extend_from_slice(&((n - 256) as u16).to_le_bytes()),
        2 => out.extend_from_slice(&(n as u32).to_le_bytes()),
        _ => out.extend_from_slice(&n64.to_le_bytes()),
    }
}

/// A level's match finder and its tables (in a [`Context`]'s).
enum Finder<'t> {
    Fast {
        table: &'t mut [u32],
        hlog: u32,
        mls: u32,
    },
    DFast {
        long: &'t mut [u32],
        short: &'t mut [u32],
        logs: (u32, u32, u32),
    },
    Lazy {
        head: &'t mut [u32],
        prev: &'t mut [u32],
        parse: Parse,
    },
    /// The lazy parsers over rows ([`super::match_row`]); `fill`: the dictionary's positions,
    /// inserted before the first block.
    Row {
        table: &'t mut [u32],
        tags: &'t mut [u8],
        parse: Parse,
        fill: usize,
    },
    /// btlazy2: the lazy2 parser over the deferred-update tree ([`super::match_dubt`]).
    Bt {
        tree: Dubt<'t>,
        mls: u32,
        /// Whether the next block is the frame's first.
        first: bool,
    },
    /// The optimal parsers ([`super::opt`]); `restart`: for btultra2's first block, the base
    /// its second pass takes (the first one's tree entries then below it).
    Opt {
        tree: Tree<'t>,
        opt: alloc::boxed::Box<Opt>,
        scratch: &'t mut Scratch,
        restart: Option<u32>,
    },
}

/// What a lazy parser keeps from block to block: the frame's base, the level's parameters, the
/// lookahead (0 greedy, 1 lazy, 2 lazy2) and the next position its finder inserts.
struct Parse {
    base: u32,
    p: Params,
    depth: u32,
    next: usize,
}

/// Whether libzstd 1.5.x runs its row finder for `p` (`ZSTD_resolveRowMatchFinderMode`: greedy
/// to lazy2 with a window over 16 KiB).
pub(crate) fn uses_rows(p: &Params) -> bool {
    (Strategy::Greedy..=Strategy::Lazy2).contains(&p.strategy) && p.window_log > 14
}

impl<'t> Finder<'t> {
    /// The finder of `p` over the context's `tables`, emptied and then filled with the
    /// dictionary's positions (`src[..dict]`); `two_passes`: btultra2's first pass over the
    /// first block ([`first_pass`]), whose entries the second pass leaves below `base +
    /// src.len()`.
    fn new(p: &Params, src: &[u8], dict: usize, base: u32, tables: Tables<'t>, two_passes: bool) -> Self {
        let Tables { first, second, third, rows, tags, scratch } = tables;
        match p.strategy {
            Strategy::Fast => {
                let (hlog, mls) = (p.hash_log, mls(p.min_match, 7));
                let table = kept(first, hlog);
                for i in 0..dict.saturating_sub(8) {
                    table[hash(src, i, hlog, mls)] = (i as u32).wrapping_add(base);
                }
                Finder::Fast { table, hlog, mls }
            }
            Strategy::DFast => {
                let logs = (p.hash_log, p.chain_log, mls(p.min_match, 7));
                let long = kept(first, logs.0);
                let short = kept(second, logs.1);
                for i in 0..dict.saturating_sub(8) {
                    long[hash(src, i, logs.0, 8)] = (i as u32).wrapping_add(base);
                    short[hash(src, i, logs.1, logs.2)] = (i as u32).wrapping_add(base);
                }
                Finder::DFast { long, short, logs }
            }
            Strategy::BtLazy2 | Strategy::BtOpt | Strategy::BtUltra | Strategy::BtUltra2 => {
                if p.strategy == Strategy::BtLazy2 {
                    let tree = Dubt {
                        hash: kept(first, p.hash_log),
                        bt: kept(second, p.chain_log),
                        hash_log: p.hash_log,
                        bt_mask: (1 << (p.chain_log - 1)) - 1,
                        compares: 1 << p.search_log,
                        mls: mls(p.min_match, 6),
                        base,
                        next: 0,
                    };
                    return Finder::Bt { tree, mls: mls(p.min_match, 6), first: true };
                }
                let (_, _, n3) = match_bt::sizes(p.hash_log, p.chain_log, p.min_match, p.window_log);
                let sufficient = (p.target_length as usize).min(OPT_NUM - 1);
                let tree = Tree {
                    hash: kept(first, p.hash_log),
                    bt: kept(second, p.chain_log),
                    hash3: if n3 == 0 { &mut [] } else { kept(third, n3.trailing_zeros()) },
                    hash_log: p.hash_log,
                    hash_log3: if n3 == 0 { 0 } else { n3.trailing_zeros() },
                    bt_mask: (1 << (p.chain_log - 1)) - 1,
                    compares: 1 << p.search_log,
                    mls: p.min_match.clamp(3, 6),
                    sufficient,
                    base,
                    next: 0,
                    next3: 0,
                };
                let level = if p.strategy == Strategy::BtOpt { 0 } else { 2 };
                let opt = alloc::boxed::Box::new(Opt {
                    stats: super::opt::Stats::new(level),
                    rep: [1, 4, 8],
                    sufficient,
                });
                let restart = two_passes.then(|| base.wrapping_add(src.len() as u32));
                Finder::Opt { tree, opt, scratch, restart }
            }
            s => {
                let depth = match s {
                    Strategy::Greedy => 0,
                    Strategy::Lazy => 1,
                    _ => 2,
                };
                let parse = Parse { base, p: *p, depth, next: 0 };
                if uses_rows(p) {
                    // The entries of earlier frames are below the base, whatever their layout.
                    let n = 1usize << p.hash_log;
                    return Finder::Row {
                        table: aligned(rows, n, EMPTY),
                        tags: aligned(tags, n, 0),
                        parse,
                        fill: dict.saturating_sub(READ),
                    };
                }
                Finder::Lazy { head: kept(first, p.hash_log), prev: kept(second, p.chain_log), parse }
            }
        }
    }

    fn run(&mut self, w: &Window<'_>, rep: &mut [u32; 2], store: &mut Store) {
        match self {
            Finder::Fast { table, hlog, mls } => fast(w, table, *hlog, *mls, rep, store),
            Finder::DFast { long, short, logs } => dfast(w, long, short, *logs, rep, store),
            Finder::Lazy { head, prev, parse } => {
                let Parse { base, p, depth, next } = parse;
                let mut c = Chain {
                    head,
                    prev,
                    base: *base,
                    hash_log: p.hash_log,
                    chain_mask: (1 << p.chain_log) - 1,
                    attempts: 1 << p.search_log,
                    next: *next,
                    skipping: false,
                };
                lazy(w, &mut c, mls(p.min_match, 6), READ, *depth, rep, store);
                *next = c.next;
            }
            Finder::Bt { tree, mls, first } => {
                // libzstd's first block starts where its dictionary's positions end (all
                // sorted when loaded): no gap to skip there (ours are chained by the first search).
                if !core::mem::take(first) {
                    tree.start_block(w.start);
                }
                lazy(w, tree, *mls, READ, 2, rep, store);
            }
            Finder::Opt { tree, opt, scratch, restart } => {
                if let Some(b) = restart.take() {
                    // btultra2: the first block parsed once for its statistics only, its
                    // sequences dropped and its tree entries left below the new base.
                    opt.block(w, tree, scratch, store);
                    store.clear();
                    tree.base = b;
                    tree.next = 0;
                    tree.next3 = 0;
                    opt.rep = [1, 4, 8];
                }
                opt.block(w, tree, scratch, store);
            }
            Finder::Row { table, tags, parse, fill } => {
                let fill = core::mem::take(fill);
                match row_log(parse.p.search_log) {
                    4 => parse.rows::<16>(w, table, tags, fill, rep, store),
                    5 => parse.rows::<32>(w, table, tags, fill, rep, store),
                    _ => parse.rows::<64>(w, table, tags, fill, rep, store),
                }
            }
        }
    }
}

impl Parse {
    /// One block parsed over rows of `ROW` entries, after the positions up to `fill`.
    fn rows<const ROW: usize>(
        &mut self,
        w: &Window<'_>,
        table: &mut [u32],
        tags: &mut [u8],
        fill: usize,
        rep: &mut [u32; 2],
        store: &mut Store,
    ) {
        let row_log = ROW.trailing_zeros();
        let mls = mls(self.p.min_match, 6);
        let hash_bits = self.p.hash_log - row_log + TAG_BITS;
        let mut rows = Rows::<ROW> {
            table: table.as_chunks_mut::<ROW>().0,
            tags: tags.as_chunks_mut::<ROW>().0,
            hash_bits,
            attempts: 1 << self.p.search_log.min(row_log),
            base: self.base,
            next: self.next,
            skipping: false,
            cache: [0; CACHE],
            salt: salt(self.base, hash_bits),
        };
        rows.fill(w.src, mls, fill);
        rows.start(w.src, mls);
        lazy(w, &mut rows, mls, ROW_READ, self.depth, rep, store);
        self.next = rows.next;
    }
}
