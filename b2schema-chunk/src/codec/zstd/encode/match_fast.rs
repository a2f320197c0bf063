//! The `fast` and `dfast` match finders (libzstd's `ZSTD_compressBlock_fast` and
//! `ZSTD_compressBlock_doubleFast`): one hash table of `minMatch` bytes, or a table of 8 bytes
//! and one of `minMatch` bytes; the repeat offset tried one byte ahead first; positions skipped
//! faster the longer no match is found (`kSearchStrength`).

use super::block::Store;
use super::matching::{READ, count, count_rest, hash_n, hash_v, read4_upto, read8_upto, read32, read64};
use crate::codec::zstd::dispatch::{Build, Hot};

/// libzstd's `kSearchStrength`.
pub(crate) const SEARCH_STRENGTH: u32 = 8;

/// The window of one block's search: the block `[start, end)` of `src`, matches no farther
/// back than `max_dist` and not before `low`; the finders' tables hold positions plus `base`
/// (see [`Window::stamp`]).
pub(crate) struct Window<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) low: usize,
    pub(crate) max_dist: usize,
    /// What the frame adds to its positions in the tables ([`super::context::Context::base`]).
    pub(crate) base: u32,
}

impl Window<'_> {
    /// The table entry of position `pos`: `pos + base`. The tables are not emptied between
    /// the frames of one context (as libzstd's index continuation): each frame's base is past
    /// every entry of the frames before it, so those entries minus the base wrap to positions of
    /// at least `2^32 - base`, beyond any position of this frame (the context keeps
    /// `base + src.len()` below `2^31`), and never pass the prefix test ([`Cands`]) nor the
    /// chain's bounds.
    #[inline(always)]
    pub(crate) fn stamp(&self, pos: usize) -> u32 {
        super::matching::stamp(pos, self.base)
    }

    /// The first position searched: one past the start of the frame's data.
    pub(crate) fn first(&self) -> usize {
        self.start + usize::from(self.start == self.low)
    }

    /// The last position a finder searches (libzstd's `ilimit`), or `None` when the block is too
    /// short to search: then all of it is literals, stored.
    pub(crate) fn limit(&self, store: &mut Store) -> Option<usize> {
        self.limit_by(READ, store)
    }

    /// [`Window::limit`] `read` bytes from the end.
    pub(crate) fn limit_by(&self, read: usize, store: &mut Store) -> Option<usize> {
        let limit = self.end.checked_sub(read).filter(|&l| l > self.start);
        if limit.is_none() {
            store.lits.extend_from_slice(&self.src[self.start..self.end]);
        }
        limit
    }

    /// What the fast finders search: the candidates' test ([`Cands`]), the source from the
    /// prefix's start `lo` to the block's end, and `limit`, the last position searched (the
    /// window's less `lo`), taken from the source's length by `checked_sub` so that the
    /// compiler knows `limit + READ` is that length; `None` (the block stored as literals) when
    /// the block is too short to search.
    #[inline(always)]
    pub(crate) fn searched(&self, store: &mut Store) -> Option<(Cands, &[u8], usize)> {
        self.limit(store)?;
        let c = self.cands();
        let s = &self.src[c.lo..self.end];
        let limit = s.len().checked_sub(READ)?;
        Some((c, s, limit))
    }

    /// The first position where the repeat offset `r` is usable (`r` not 0, within `max_dist`,
    /// and not reaching before `low`), `usize::MAX` where it is not at all: a parser whose
    /// offsets change only at matches tests a position with one compare.
    #[inline(always)]
    pub(crate) fn rep_from(&self, r: u32) -> usize {
        if r > 0 && r as usize <= self.max_dist { self.low + r as usize } else { usize::MAX }
    }

    /// The fast finders' candidate test for this block ([`Cands`]).
    pub(crate) fn cands(&self) -> Cands {
        // libzstd's `prefixStartIndex` (`ZSTD_getLowestPrefixIndex` of the block's end): every
        // position of the block is within `max_dist` of it.
        let lo = self.low.max(self.end.saturating_sub(self.max_dist));
        debug_assert!(lo <= self.start, "a block longer than the window");
        Cands { lo, lo_stamp: self.stamp(lo) }
    }

    /// The repeat offsets `rep` as the fast finders use them in this block, and the ones to give
    /// back at its end: as libzstd's fast loops, an offset reaching before the prefix from the
    /// first position searched is off (0) for the whole block, so that in the loop an offset is
    /// usable wherever it is not 0.
    pub(crate) fn reps(&self, rep: [u32; 2], c: &Cands) -> ([u32; 2], [u32; 2]) {
        let max = self.first().saturating_sub(c.lo);
        let cut = |r: u32| if r as usize > max { (0, r) } else { (r, 0) };
        let ((r1, s1), (r2, s2)) = (cut(rep[0]), cut(rep[1]));
        ([r1, r2], [s1, s2])
    }
}

/// Which table entries the fast finders take as candidates in one block: positions from the
/// prefix `lo` up to (not including) the position searched.
///
/// The finders count positions from `lo`, in the source cut there: an entry less `lo_stamp`
/// (`lo`'s entry) is then at once the candidate's position and, from `2^31` up, the sign that
/// it is out of the prefix. The fast finders' tables hold no position at or after the one
/// searched (an entry is written before the next position's is read, and after a match only
/// positions before its end; checked by `debug_assert!` at each match), so an entry of the
/// prefix (libzstd's `matchIdx >= prefixStartIndex`) gives a position below `2^31`, and every
/// stale entry (below the base) and `EMPTY` wraps to `2^31` or more: the prefix test is
/// `d >> 31 == 0`, folded into the candidate's compare (an `or` of the two, one branch).
///
/// The candidate's read is clamped into the source (`at.min(limit)`), not chosen by a branch:
/// stale entries are common in the first positions of a frame (the tables keep the earlier
/// frames' entries) and whether an entry is one is random; as a branch (on the prefix test or
/// on the read's bounds), it was mispredicted half of dfast's mispredictions on smooth floats
/// (`valgrind --tool=cachegrind --branch-sim=yes`: 1.52 -> 0.88 million a pass at level 3,
/// libzstd 0.77). The clamps change no position a finder reads (each is within them already,
/// the candidates out of the prefix aside, which the prefix test turns down), but they show the
/// compiler the reads within the source: a conditional move where a compare and a branch were.
pub(crate) struct Cands {
    lo: usize,
    lo_stamp: u32,
}

/// The length of the common prefix at `a` and `m` (`m` before `a`) in `s`, whose last 8 bytes
/// start at `limit`: the first 8 bytes by reads clamped at `limit` while `a` is at most
/// `limit` ([`Cands`]), the rest out of line, 16 bytes a step; [`count`] near the end.
/// [`count`]'s reads each check their bounds (level 1 over 64 KiB split streams, callgrind of
/// `zstd_own`: float64 smooth 42.3 -> 41.5 M instructions a pass, text 210.4 -> 205.3 M, int64
/// counter 11.4 -> 9.6 M).
#[inline(always)]
fn count_clamped(s: &[u8], limit: usize, a: usize, m: usize) -> usize {
    if a <= limit {
        match read8_upto(s, limit, a) ^ read8_upto(s, limit, m) {
            0 => 8 + count_rest(s, a + 8, m + 8, s.len()),
            x => (x.trailing_zeros() >> 3) as usize,
        }
    } else {
        count(s, a, m, s.len())
    }
}

/// The repeat offsets given back at the end of a block (libzstd 1.5.7's fast loops): an offset
/// left off (0) is replaced by the one the block left off, the first's moving to second place
/// when the block found an offset of its own.
#[inline(always)]
fn given_back(live: [u32; 2], saved: [u32; 2]) -> [u32; 2] {
    let saved2 = if saved[0] != 0 && live[0] != 0 { saved[0] } else { saved[1] };
    [if live[0] == 0 { saved[0] } else { live[0] }, if live[1] == 0 { saved2 } else { live[1] }]
}

/// Extends a match at `ip` from `m` backward over the equal bytes of `s` before them, down to
/// `anchor` (for `ip`) and `low` (for `m`); the match's start.
#[inline(always)]
pub(crate) fn catch_up(
    s: &[u8],
    low: usize,
    mut ip: usize,
    mut m: usize,
    anchor: usize,
    len: &mut usize,
) -> usize {
    while ip > anchor && m > low && s[ip - 1] == s[m - 1] {
        ip -= 1;
        m -= 1;
        *len += 1;
    }
    ip
}

/// libzstd's `fast` strategy over one block (`ZSTD_compressBlock_fast_noDict_generic`, 1.5):
/// positions searched in adjacent pairs, the gap between pairs growing by one every 128 bytes
/// without a match; the repeat offset tried at the next pair.
///
/// The table sizes of levels 1 and 2 at Blosc's stream sizes (`hashLog` 13 to 15; level 1's
/// 16 KiB streams have 15) are constants of their own copies of the loop: their hashes then
/// index the table without a bounds check and shift by an immediate (level 1 at 16 KiB,
/// callgrind of `ZSTD_OWN_ONLY=ours ZSTD_OWN_PASSES=1 ZSTD_OWN_STREAMS=16 zstd_own 1` less the
/// run with 0 passes: text 268.4 -> 259.2 M instructions a pass, float64 normal 110.5 -> 108.3 M).
pub(crate) fn fast(
    w: &Window<'_>,
    table: &mut [u32],
    hlog: u32,
    mls: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    Build::Detect.run(Fast { w, table, hlog, mls, rep, store });
}

/// [`fast`]'s loop, as [`Build::run`] compiles it for the CPU (x86-64-v3 where the CPU has it:
/// BMI2's shifts and flag-free moves); the same matches.
struct Fast<'a, 'w> {
    w: &'a Window<'w>,
    table: &'a mut [u32],
    hlog: u32,
    mls: u32,
    rep: &'a mut [u32; 2],
    store: &'a mut Store,
}

impl Hot for Fast<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let Fast { w, table, hlog, mls, rep, store } = self;
        fast_in(w, table, hlog, mls, rep, store);
    }
}

#[inline(always)]
fn fast_in(w: &Window<'_>, table: &mut [u32], hlog: u32, mls: u32, rep: &mut [u32; 2], store: &mut Store) {
    match (mls, hlog) {
        (5, 13) => fast_n::<5, 13>(w, table, hlog, rep, store),
        (5, 14) => fast_n::<5, 14>(w, table, hlog, rep, store),
        (5, 15) => fast_n::<5, 15>(w, table, hlog, rep, store),
        (6, 13) => fast_n::<6, 13>(w, table, hlog, rep, store),
        (6, 14) => fast_n::<6, 14>(w, table, hlog, rep, store),
        (7, 14) => fast_n::<7, 14>(w, table, hlog, rep, store),
        (5, _) => fast_n::<5, 0>(w, table, hlog, rep, store),
        (6, _) => fast_n::<6, 0>(w, table, hlog, rep, store),
        (7, _) => fast_n::<7, 0>(w, table, hlog, rep, store),
        _ => fast_n::<4, 0>(w, table, hlog, rep, store),
    }
}

/// The growth of the gap between searched pairs (libzstd's `kStepIncr`).
const STEP_INCR: usize = 1 << (SEARCH_STRENGTH - 1);

/// [`fast`] for `MLS`-byte hashes into a table of `2^LOG` entries (`LOG` 0: of `2^hlog`).
///
/// Positions here count from the prefix's start `lo`, in the source cut there ([`Cands`]): the
/// frame's base leaves the loop (one register and one subtraction a candidate fewer). The
/// catch-up stops at `lo`, as libzstd's (`match0 > prefixStart`).
#[inline(always)]
fn fast_n<const MLS: u32, const LOG: u32>(
    w: &Window<'_>,
    table: &mut [u32],
    hlog: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    // The loop hashes at most 7 bytes of the 8 it reads (see `v3` below).
    const { assert!(MLS <= 7) };
    // The loop's exits are written `q >= limit - 1` (`limit` is above the block's start: at
    // least 1).
    let Some((c, s, limit)) = w.searched(store) else {
        return;
    };
    let (lo, end) = (c.lo, s.len());
    // Reads whose positions are clamped into the source ([`Cands`]): at `limit` (8 bytes from
    // the end) for the positions searched, at `end - 4` for a candidate (level 1 over 64 KiB
    // split streams, callgrind of `zstd_own`, with the positions from `lo`: float64 smooth
    // 45.3 -> 42.3 M instructions a pass, text 216.4 -> 210.4 M; mispredicted branches
    // unchanged), by `read8_upto` and `read4_upto` with the bound as an argument. Methods of a
    // type holding the source and `limit` took more instructions in both loops (level 1 smooth
    // 41.5 -> 42.5 M, level 3 68.8 -> 73.0 M).
    let last4 = end - 4;
    let cand = |d: u32| read4_upto(s, last4, d as usize);
    let log = if LOG == 0 { hlog } else { LOG };
    let table = &mut table[..1 << log];
    let h = |at: usize| hash_n::<MLS>(s, at, log);
    let lo_stamp = c.lo_stamp;
    let stamp = |pos: usize| super::matching::stamp(pos, lo_stamp);
    let ([mut off1, mut off2], saved) = w.reps(*rep, &c);
    let mut ip0 = w.first() - lo;
    let mut anchor = w.start - lo;
    'search: loop {
        // libzstd's `ip0` is `p` at the top of the loop, its `ip1` `p + 1` and `ip2` `q`
        // (`ip3` is always `q + 1`): two positions kept, not three. The loop ends when `q`
        // reaches `limit - 1`.
        let mut step = 2usize;
        let mut p = ip0;
        let mut q = p + step;
        let mut next_step = p + STEP_INCR;
        if q >= limit - 1 {
            break;
        }
        // The 8 bytes at `p`, read once for its hash and its compares; those at `p + 1` are
        // the same shifted by a byte (only the first `MLS`, at most 7, are hashed and 4
        // compared), as are those at `q + 1` from those at `q` (every position searched is
        // below `limit`: 8 bytes from the end).
        let mut v0 = read64(s, p);
        let mut hash0 = hash_v::<MLS>(v0, log);
        let mut hash1 = hash_v::<MLS>(v0 >> 8, log);
        // An entry less `lo`'s stamp: the candidate's position when below `2^31`.
        let mut d = table[hash0].wrapping_sub(lo_stamp);
        // The match: where it starts, where it points, whether at the repeat offset, and the
        // position searched last.
        let (at, m, is_rep, cur) = loop {
            let v2 = read8_upto(s, limit, q);
            // The 4 bytes `off1` before `q`, or at 0 where `off1` reaches past it.
            let rval = read4_upto(s, limit, q.min(limit).saturating_sub(off1 as usize));
            table[hash0] = stamp(p);
            // The repeat offset compared first and tested after (libzstd's order): an offset
            // of 0 compares a position with itself.
            if v2 as u32 == rval && off1 > 0 {
                let back = usize::from(s[q - 1] == s[q - 1 - off1 as usize]);
                table[hash1] = stamp(p + 1);
                break (q - back, q - back - off1 as usize, true, p);
            }
            // Every entry is of a position before the one searched: the prefix test is
            // enough (libzstd's `ZSTD_match4Found_cmov`), folded into the compare's result
            // (`d >> 31`), so that one branch decides.
            if (cand(d) ^ v0 as u32) | (d >> 31) == 0 {
                table[hash1] = stamp(p + 1);
                break (p, d as usize, false, p);
            }
            d = table[hash1].wrapping_sub(lo_stamp);
            hash0 = hash1;
            hash1 = hash_v::<MLS>(v2, log);
            table[hash0] = stamp(p + 1);
            if (cand(d) ^ (v0 >> 8) as u32) | (d >> 31) == 0 {
                if step <= 4 {
                    table[hash1] = stamp(q);
                }
                break (p + 1, d as usize, false, p + 1);
            }
            d = table[hash1].wrapping_sub(lo_stamp);
            hash0 = hash1;
            hash1 = hash_v::<MLS>(v2 >> 8, log);
            p = q;
            v0 = v2;
            q = p + step;
            if q >= next_step {
                step += 1;
                next_step += STEP_INCR;
            }
            if q >= limit - 1 {
                break 'search;
            }
        };
        debug_assert!(m < at, "a candidate at or after the position searched");
        let (mut start, mut len) = (at, 4usize);
        if !is_rep {
            off2 = off1;
            off1 = (at - m) as u32;
            // Backward over equal bytes, down to the anchor and the prefix's start.
            start = catch_up(s, 0, at, m, anchor, &mut len);
        }
        let dist = off1 as usize;
        // The hash insertions and the repeat test below were tried with the clamped reads
        // too: more instructions (the loop's registers change).
        len += count_clamped(s, limit, start + len, start + len - dist);
        store.push_from(s, anchor, start, len, off1 as usize);
        ip0 = start + len;
        anchor = ip0;
        if ip0 <= limit {
            table[h(cur + 2)] = stamp(cur + 2);
            table[h(ip0 - 2)] = stamp(ip0 - 2);
            while ip0 <= limit && off2 > 0 && read32(s, ip0) == read32(s, ip0 - off2 as usize) {
                let r = count(s, ip0 + 4, ip0 + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                table[h(ip0)] = stamp(ip0);
                store.push(&[], r, off1 as usize);
                ip0 += r;
                anchor = ip0;
            }
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = given_back([off1, off2], saved);
}

/// libzstd's `dfast` strategy over one block: `long` hashes 8 bytes (`hashLog`), `short`
/// `mls` bytes (`chainLog`).
pub(crate) fn dfast(
    w: &Window<'_>,
    long: &mut [u32],
    short: &mut [u32],
    (hl, hs, mls): (u32, u32, u32),
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    Build::Detect.run(DFast { w, long, short, logs: (hl, hs, mls), rep, store });
}

/// [`dfast`]'s loop, as [`Build::run`] compiles it for the CPU (x86-64-v3 where the CPU has
/// it), as [`Fast`]; the same matches.
struct DFast<'a, 'w> {
    w: &'a Window<'w>,
    long: &'a mut [u32],
    short: &'a mut [u32],
    logs: (u32, u32, u32),
    rep: &'a mut [u32; 2],
    store: &'a mut Store,
}

impl Hot for DFast<'_, '_> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let DFast { w, long, short, logs, rep, store } = self;
        dfast_in(w, long, short, logs, rep, store);
    }
}

#[inline(always)]
fn dfast_in(
    w: &Window<'_>,
    long: &mut [u32],
    short: &mut [u32],
    (hl, hs, mls): (u32, u32, u32),
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    let logs = (hl, hs);
    // The table sizes of level 3 (c-blosc2's clevel 2) at Blosc's stream sizes are constants
    // of their own copies of the loop, as in [`fast`].
    match (mls, hl, hs) {
        (4, 14, 13) => dfast_n::<4, 14, 13>(w, long, short, logs, rep, store),
        (4, 16, 16) => dfast_n::<4, 16, 16>(w, long, short, logs, rep, store),
        (5, 16, 15) => dfast_n::<5, 16, 15>(w, long, short, logs, rep, store),
        (5, 17, 16) => dfast_n::<5, 17, 16>(w, long, short, logs, rep, store),
        (5, ..) => dfast_n::<5, 0, 0>(w, long, short, logs, rep, store),
        (6, ..) => dfast_n::<6, 0, 0>(w, long, short, logs, rep, store),
        (7, ..) => dfast_n::<7, 0, 0>(w, long, short, logs, rep, store),
        _ => dfast_n::<4, 0, 0>(w, long, short, logs, rep, store),
    }
}

/// How many positions dfast searches before its step grows by one (libzstd's `kStepIncr` in
/// `ZSTD_compressBlock_doubleFast_noDict_generic`).
const DFAST_STEP_INCR: usize = 1 << SEARCH_STRENGTH;

/// What dfast's search loop found.
enum Hit {
    /// The repeat offset one position ahead.
    Rep,
    /// A match at `at` from `m`, `len` bytes (before the backward extension), or at least `len`
    /// bytes when not `whole` (counted on after the loop).
    Match { at: usize, m: usize, len: usize, whole: bool, hl1: usize },
}

/// libzstd 1.5.7's `ZSTD_compressBlock_doubleFast_noDict_generic`: at each position the repeat
/// offset one ahead, the long (8-byte) candidate, then the short one, which gives way to the
/// next position's long candidate when that is longer; the step grows every 256 positions
/// without a match.
///
/// `HL` and `HS` are the tables' logs when constants (0: `hl` and `hs`).
#[inline(always)]
fn dfast_n<const MLS: u32, const HL: u32, const HS: u32>(
    w: &Window<'_>,
    long: &mut [u32],
    short: &mut [u32],
    (hl, hs): (u32, u32),
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    // Positions from the prefix's start, reads clamped into the source and the prefix tests
    // folded into the compares, as in [`fast_n`].
    let Some((c, s, limit)) = w.searched(store) else {
        return;
    };
    let (lo, end) = (c.lo, s.len());
    let read8 = |at: usize| read8_upto(s, limit, at);
    let read4 = |at: usize| read4_upto(s, limit, at);
    let hl = if HL == 0 { hl } else { HL };
    let hs = if HS == 0 { hs } else { HS };
    let long = &mut long[..1 << hl];
    let short = &mut short[..1 << hs];
    let h8 = |at: usize| hash_n::<8>(s, at, hl);
    let hm = |at: usize| hash_n::<MLS>(s, at, hs);
    let lo_stamp = c.lo_stamp;
    let stamp = |pos: usize| super::matching::stamp(pos, lo_stamp);
    // A match's length by [`count_clamped`], called in one place, after the loop: inlined at
    // each of the loop's four compares, the loop took more instructions (level 3, float64
    // smooth 64 KiB split: 81.9 M a pass against 68.8 M; 69.5 M with `count` alone).
    let count8 = |a: usize, m: usize| count_clamped(s, limit, a, m);
    let ([mut off1, mut off2], saved) = w.reps(*rep, &c);
    let mut ip = w.first() - lo;
    let mut anchor = w.start - lo;
    'search: loop {
        let mut step = 1usize;
        let mut next_step = ip + DFAST_STEP_INCR;
        let mut ip1 = ip + 1;
        if ip1 > limit {
            break;
        }
        // The 8 bytes at `ip`, read once for both hashes, both compares and the repeat offset's
        // compare one byte ahead (`ip` and `ip1` are at most `limit`: 8 bytes from the end).
        let mut v0 = read8(ip);
        let mut hl0 = hash_v::<8>(v0, hl);
        // Entries less `lo`'s stamp: a candidate's position when below `2^31`.
        let mut dl0 = long[hl0].wrapping_sub(lo_stamp);
        let mut curr;
        let hit = loop {
            let hs0 = hash_v::<MLS>(v0, hs);
            let ds0 = short[hs0].wrapping_sub(lo_stamp);
            curr = ip;
            long[hl0] = stamp(ip);
            short[hs0] = stamp(ip);
            if read4((ip + 1).saturating_sub(off1 as usize)) == (v0 >> 8) as u32 && off1 > 0 {
                break Hit::Rep;
            }
            let v1 = read8(ip1);
            let hl1 = hash_v::<8>(v1, hl);
            if (read8(dl0 as usize) ^ v0) | u64::from(dl0 >> 31) == 0 {
                break Hit::Match { at: ip, m: dl0 as usize, len: 8, whole: false, hl1 };
            }
            let dl1 = long[hl1].wrapping_sub(lo_stamp);
            if (read4(ds0 as usize) ^ v0 as u32) | (ds0 >> 31) == 0 {
                let m = ds0 as usize;
                // The next position's long candidate, when it is longer (both lengths counted
                // here; otherwise the short match's after the loop).
                if (read8(dl1 as usize) ^ v1) | u64::from(dl1 >> 31) == 0 {
                    let len = count(s, ip + 4, m + 4, end) + 4;
                    let m1 = dl1 as usize;
                    let len1 = count(s, ip1 + 8, m1 + 8, end) + 8;
                    if len1 > len {
                        break Hit::Match { at: ip1, m: m1, len: len1, whole: true, hl1 };
                    }
                    break Hit::Match { at: ip, m, len, whole: true, hl1 };
                }
                break Hit::Match { at: ip, m, len: 4, whole: false, hl1 };
            }
            if ip1 >= next_step {
                step += 1;
                next_step += DFAST_STEP_INCR;
            }
            ip = ip1;
            ip1 += step;
            hl0 = hl1;
            dl0 = dl1;
            v0 = v1;
            if ip1 > limit {
                break 'search;
            }
        };
        let len = match hit {
            Hit::Rep => {
                let len = count(s, ip + 5, ip + 5 - off1 as usize, end) + 4;
                ip += 1;
                store.push_from(s, anchor, ip, len, off1 as usize);
                len
            }
            Hit::Match { at, m, mut len, whole, hl1 } => {
                debug_assert!(m < at, "a candidate at or after the position searched");
                if !whole {
                    len += count8(at + len, m + len);
                }
                let off = at - m;
                // Backward over equal bytes, down to the anchor and the prefix's start.
                ip = catch_up(s, 0, at, m, anchor, &mut len);
                off2 = off1;
                off1 = off as u32;
                // ip1 is before the match's end while the step is below 4 (a match is 4 bytes).
                if step < 4 {
                    long[hl1] = stamp(ip1);
                }
                store.push_from(s, anchor, ip, len, off);
                len
            }
        };
        ip += len;
        anchor = ip;
        if ip <= limit {
            let at = curr + 2;
            long[h8(at)] = stamp(at);
            long[h8(ip - 2)] = stamp(ip - 2);
            short[hm(at)] = stamp(at);
            short[hm(ip - 1)] = stamp(ip - 1);
            while ip <= limit && off2 > 0 && read32(s, ip) == read32(s, ip - off2 as usize) {
                let r = count(s, ip + 4, ip + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                short[hm(ip)] = stamp(ip);
                long[h8(ip)] = stamp(ip);
                store.push(&[], r, off1 as usize);
                ip += r;
                anchor = ip;
            }
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = given_back([off1, off2], saved);
}

#[cfg(test)]
mod build_tests {
    use super::{Build, DFast, Fast, Window};
    use crate::codec::zstd::encode::block::Store;
    use crate::codec::zstd::encode::own_tests::input;
    use alloc::format;
    use alloc::vec;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        /// The fast finder's two builds find the same matches and leave the same table, at the
        /// table sizes with a loop of their own and at others, on every kind of input.
        #[test]
        fn the_fast_finders_builds_find_the_same_matches(
            kind in 0u8..6,
            n in 20usize..40_000,
            seed in any::<u64>(),
            shape in prop_oneof![Just((6u32, 13u32)), Just((5, 14)), Just((7, 14)), Just((4, 11)), Just((5, 12))],
        ) {
            let s = input(kind, n, seed);
            let (mls, hlog) = shape;
            let w = Window { src: &s, start: 0, end: s.len(), low: 0, max_dist: 1 << 17, base: 7 };
            let run = |build: Build| {
                let (mut table, mut rep, mut store) = (vec![u32::MAX; 1 << hlog], [1u32, 4], Store::new());
                build.run(Fast { w: &w, table: &mut table, hlog, mls, rep: &mut rep, store: &mut store });
                (table, rep, store.lits, format!("{:?}", store.matches))
            };
            prop_assert_eq!(run(Build::Detect), run(Build::Baseline));
        }

        /// The double-fast finder's two builds likewise, at level 3's and 4's table sizes with
        /// a loop of their own and at others.
        #[test]
        fn the_double_fast_finders_builds_find_the_same_matches(
            kind in 0u8..6,
            n in 20usize..40_000,
            seed in any::<u64>(),
            shape in prop_oneof![
                Just((4u32, 14u32, 13u32)), Just((5, 16, 15)), Just((4, 16, 16)), Just((6, 12, 11)), Just((5, 13, 12))
            ],
        ) {
            let s = input(kind, n, seed);
            let (mls, hl, hs) = shape;
            let w = Window { src: &s, start: 0, end: s.len(), low: 0, max_dist: 1 << 17, base: 7 };
            let run = |build: Build| {
                let (mut long, mut short) = (vec![u32::MAX; 1 << hl], vec![u32::MAX; 1 << hs]);
                let (mut rep, mut store) = ([1u32, 4], Store::new());
                build.run(DFast {
                    w: &w,
                    long: &mut long,
                    short: &mut short,
                    logs: (hl, hs, mls),
                    rep: &mut rep,
                    store: &mut store,
                });
                (long, short, rep, store.lits, format!("{:?}", store.matches))
            };
            prop_assert_eq!(run(Build::Detect), run(Build::Baseline));
        }
    }
}
