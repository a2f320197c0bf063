//! libzstd's binary tree match finder (zstd_opt.c of 1.5.7: `ZSTD_insertBt1`,
//! `ZSTD_updateTree`, `ZSTD_insertBtAndGetAllMatches` and its 3-byte hash): each position is a
//! node of a tree of the earlier positions of the same hash, sorted by the bytes that follow
//! them, the most recent at the root. Searching a position walks down from the root, inserting
//! the position as it goes, and meets every candidate longer than all those before it.
//!
//! The optimal parsers ([`super::opt`]) take every such match (with the repeat offsets first).
//! btlazy2 runs libzstd's deferred-update variant ([`super::match_dubt`]).
//!
//! The tables hold positions plus the frame's base, as the other finders' ([`Window::stamp`]):
//! an entry minus the base that is not below the searched position is stale or empty, never a
//! candidate. Every position read is checked against the window or is below the searched one.

use super::match_fast::Window;
use super::matching::{EMPTY, count, hash_n, hash_v, prefetch, read32, read64, stamp, unstamp};

/// libzstd's `ZSTD_OPT_NUM`: the optimal parser's horizon; a match longer ends a search.
pub(crate) const OPT_NUM: usize = 1 << 12;

/// The largest 3-byte hash table (libzstd's `ZSTD_HASHLOG3_MAX`).
pub(crate) const HASH_LOG3_MAX: u32 = 17;

/// One match found: its length and offset base (1 to 3 repeat codes, otherwise offset + 3).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Cand {
    pub(crate) len: u32,
    pub(crate) off: u32,
}

/// The tree's tables and state over one frame.
pub(crate) struct Tree<'t> {
    /// The most recent position of each hash (the roots).
    pub(crate) hash: &'t mut [u32],
    /// Two children per position: `2 * (pos & bt_mask)` the smaller, `+ 1` the larger.
    pub(crate) bt: &'t mut [u32],
    /// The 3-byte hash's most recent positions (minimum match 3 only; empty otherwise).
    pub(crate) hash3: &'t mut [u32],
    pub(crate) hash_log: u32,
    pub(crate) hash_log3: u32,
    pub(crate) bt_mask: usize,
    /// Nodes visited at most per search (`1 << searchLog`).
    pub(crate) compares: u32,
    /// The hashed length (3 to 6).
    pub(crate) mls: u32,
    /// The longest match that ends a search early (`min(targetLength, OPT_NUM - 1)`).
    pub(crate) sufficient: usize,
    pub(crate) base: u32,
    /// The next position to insert, and the 3-byte hash's.
    pub(crate) next: usize,
    pub(crate) next3: usize,
}

/// The two open branches of a walk down a binary tree from a position (libzstd's `smallerPtr`
/// and `largerPtr` with `commonLengthSmaller` and `commonLengthLarger`): the slots where the next
/// node smaller and larger than the position is linked, and the prefix the nodes below each share
/// with it. A local of each walk, so that its fields stay in registers.
pub(super) struct Branches {
    smaller: usize,
    larger: usize,
    common_s: usize,
    common_l: usize,
}

impl Branches {
    /// The walk of the position `cur`, whose node is at `2 * (cur & mask)`.
    #[inline(always)]
    pub(super) fn of(cur: usize, mask: usize) -> Self {
        Self::of_node(2 * (cur & mask))
    }

    /// The walk of the position whose node is at `node`.
    #[inline(always)]
    pub(super) fn of_node(node: usize) -> Self {
        Branches { smaller: node, larger: node + 1, common_s: 0, common_l: 0 }
    }

    /// The prefix every node still below holds in common with the position.
    #[inline(always)]
    pub(super) fn common(&self) -> usize {
        self.common_s.min(self.common_l)
    }

    /// Links the node `m` (stamped `stamp`; its children at `next` and `next + 1`), whose first
    /// `len` bytes are the position's, on the side `smaller` says, and goes down the other way:
    /// the next node's stamp, or `None` when `m` is at the tree's low end `bt_low` (the branch
    /// is cut there).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn step(
        &mut self,
        bt: &mut [u32],
        m: usize,
        stamp: u32,
        next: usize,
        len: usize,
        smaller: bool,
        bt_low: usize,
    ) -> Option<u32> {
        // Both trees' tables are `2^chainLog` entries long and every index here is below that:
        // the mask by the length changes no index and spares the bounds checks (once the
        // caller has read an entry, the length is known not 0).
        debug_assert!(bt.len().is_power_of_two());
        let lm = bt.len().wrapping_sub(1);
        if smaller {
            bt[self.smaller & lm] = stamp;
            self.common_s = len;
            if m <= bt_low {
                self.smaller = usize::MAX;
                return None;
            }
            self.smaller = next + 1;
            Some(bt[(next + 1) & lm])
        } else {
            bt[self.larger & lm] = stamp;
            self.common_l = len;
            if m <= bt_low {
                self.larger = usize::MAX;
                return None;
            }
            self.larger = next;
            Some(bt[next & lm])
        }
    }

    /// Ends the two open branches (a branch cut at the low end has none).
    #[inline(always)]
    pub(super) fn close(self, bt: &mut [u32], empty: u32) {
        // Masked as in [`Branches::step`].
        let lm = bt.len().wrapping_sub(1);
        for at in [self.smaller, self.larger] {
            if at != usize::MAX
                && let Some(e) = bt.get_mut(at & lm)
            {
                *e = empty;
            }
        }
    }
}

/// The table sizes of a tree: its hash table, its tree (two entries per position of the
/// `2^(chainLog-1)` it keeps) and its 3-byte hash table.
pub(crate) fn sizes(hash_log: u32, chain_log: u32, min_match: u32, window_log: u32) -> (usize, usize, usize) {
    let log3 = if min_match == 3 { HASH_LOG3_MAX.min(window_log) } else { 0 };
    (1 << hash_log, 1 << chain_log, if log3 > 0 { 1 << log3 } else { 0 })
}

/// [`count`] past a first step of 8 bytes, out of line: most compares end within their first
/// 8 bytes, and the loop's setup inlined would weigh on every search.
#[inline(never)]
fn count_rest(s: &[u8], a: usize, b: usize, end: usize) -> usize {
    count(s, a, b, end)
}

/// The common prefix of `s[ip..end]` and `s[m..]` (`m < ip`) as [`count`], and whether the
/// first byte after it is smaller at `m` than at `ip` (meaningful when the prefix ends before
/// `end`): from the 8 bytes read at each when the prefix ends within them, without reading the
/// bytes again.
#[inline(always)]
pub(super) fn compare(s: &[u8], ip: usize, m: usize, end: usize) -> (usize, bool) {
    let lim = end.min(s.len());
    // `ip + 8 <= lim`, no wrap; both reads from one slice `s[m..ip + 8]` (`m < ip`), its last and
    // first 8 bytes: one bounds check.
    let both = if m < ip && ip < lim.saturating_sub(7) { s.get(m..ip + 8) } else { None };
    if let Some((Some(a), Some(b))) = both.map(|w| (w.last_chunk::<8>(), w.first_chunk::<8>())) {
        let (a, b) = (u64::from_le_bytes(*a), u64::from_le_bytes(*b));
        let d = a ^ b;
        if d != 0 {
            let k = d.trailing_zeros() & !7;
            return ((k >> 3) as usize, ((b >> k) as u8) < ((a >> k) as u8));
        }
        let len = 8 + count_rest(s, ip + 8, m + 8, end);
        return (len, byte(s, m + len) < byte(s, ip + len));
    }
    let len = count_rest(s, ip, m, end);
    (len, byte(s, m + len) < byte(s, ip + len))
}

/// The byte at `at` (0 past the end).
#[inline(always)]
fn byte(s: &[u8], at: usize) -> u8 {
    s.get(at).copied().unwrap_or(0)
}

/// What a tree walk does with each candidate longer than every one before it.
trait Sink {
    /// Candidate of `len` bytes at distance `dist`; `best` is the length to beat (updated by
    /// the sink). Returns whether the walk stops here.
    fn longer(&mut self, len: usize, dist: usize, best: &mut usize) -> bool;
}

/// The optimal parsers' sink: every longer match, in order (a match reaching the end stops
/// the walk there, the walk's own test).
struct All<'m> {
    out: &'m mut alloc::vec::Vec<Cand>,
}

impl Sink for All<'_> {
    #[inline(always)]
    fn longer(&mut self, len: usize, dist: usize, best: &mut usize) -> bool {
        *best = len;
        self.out.push(Cand { len: len as u32, off: dist as u32 + 3 });
        len > OPT_NUM
    }
}

/// The tree's update: the longest length met, nothing kept.
struct Insert;

impl Sink for Insert {
    #[inline(always)]
    fn longer(&mut self, len: usize, _: usize, best: &mut usize) -> bool {
        *best = len;
        false
    }
}

impl Tree<'_> {
    #[inline(always)]
    fn stamp(&self, pos: usize) -> u32 {
        stamp(pos, self.base)
    }

    /// Inserts `ip` into the tree (`ZSTD_insertBt1`), comparing up to `end`, candidates from
    /// `low`; returns how many positions the caller may skip (past a long repetition).
    fn insert<const MLS: u32>(&mut self, s: &[u8], ip: usize, end: usize, low: usize) -> usize {
        let roots = (hash_n::<MLS>(s, ip, self.hash_log), hash_n::<MLS>(s, ip + 1, self.hash_log));
        let (best, match_end) = self.descend::<MLS, _>(s, ip, end, low, 8, roots, &mut Insert);
        let positions = if best > 384 { (best - 384).min(192) } else { 0 };
        positions.max(match_end - (ip + 8))
    }

    /// Walks the tree from the root of `ip`'s hash, inserting `ip`: at most `compares` nodes,
    /// from `low`, bytes compared up to `end`; `sink` takes each candidate longer than `best`.
    /// `roots`: the hashes of `ip` and of `ip + 1`, the latter's root
    /// prefetched only. Returns the best length and the farthest end of a match met (at least
    /// `ip + 9`). The fields in locals: behind `&mut self` they would be reloaded after every
    /// store.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn descend<const MLS: u32, S: Sink>(
        &mut self,
        s: &[u8],
        ip: usize,
        end: usize,
        low: usize,
        mut best: usize,
        roots: (usize, usize),
        sink: &mut S,
    ) -> (usize, usize) {
        let (mask, base) = (self.bt_mask, self.base);
        let pos = |v: u32| unstamp(v, base);
        let stamp = |p: usize| stamp(p, base);
        // The next position's root, most often the next one searched or inserted: its line
        // arrives while this walk runs (libzstd waits for it; the same result).
        if let Some(next_root) = self.hash.get(roots.1) {
            prefetch(next_root);
        }
        let root = &mut self.hash[roots.0];
        let mut v = *root;
        let mut m = pos(v);
        *root = stamp(ip);
        // `m` in `[low, ip)`, one compare: below `low` it is too far, from `ip` on stale.
        let span = ip.saturating_sub(low);
        let mut match_end = ip + 9;
        if ip.wrapping_sub(m).wrapping_sub(1) >= span || self.compares == 0 {
            // No candidate (most searches on data with few repeats): the node's two
            // branches end at once, without the walk's setup.
            Branches::of(ip, mask).close(self.bt, EMPTY);
            return (best, match_end);
        }
        let bt_low = ip.saturating_sub(mask);
        let bt = &mut *self.bt;
        let mut branches = Branches::of(ip, mask);
        let mut compares = self.compares;
        while compares > 0 && ip.wrapping_sub(m).wrapping_sub(1) < span {
            let next = 2 * (m & mask);
            let mut len = branches.common();
            // The tree's order: every node below one met holds its common prefix with `ip`.
            debug_assert!(s[m..m + len] == s[ip..ip + len], "tree out of order at {m} for {ip}");
            let (more, smaller) = compare(s, ip + len, m + len, end);
            len += more;
            if len > best {
                if len > match_end - m {
                    match_end = m + len;
                }
                if sink.longer(len, ip - m, &mut best) {
                    break;
                }
            }
            if ip + len >= end {
                break;
            }
            // `v` is `m` stamped.
            let Some(child) = branches.step(bt, m, v, next, len, smaller, bt_low) else {
                break;
            };
            v = child;
            m = pos(v);
            compares -= 1;
        }
        branches.close(bt, EMPTY);
        (best, match_end)
    }

    /// Inserts every position from the next one up to `ip` (excluded), comparing up to `end`
    /// (`ZSTD_updateTree`). Out of line: most searches follow the last one and insert nothing.
    #[inline(never)]
    fn update<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize, end: usize) {
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let mut at = self.next;
        while at < ip {
            at += self.insert::<MLS>(w.src, at, end, low);
        }
        self.next = ip;
    }

    /// Every match at `ip` longer than the one before it, shortest first, into `out` (cleared):
    /// the repeat offsets `rep` first (rep code 0 left out after a literal length of 0, and
    /// `rep[0] - 1` added then), then the 3-byte hash's candidate when nothing of 3 bytes was
    /// found, then the tree's; none shorter than the minimum match (3 when the hashed length
    /// `MLS` is 3, else 4). Nothing at a position a long repetition skipped
    /// (`ZSTD_btGetAllMatches`). `MLS` must be the tree's [`Tree::mls`].
    pub(crate) fn all_matches<const MLS: u32>(
        &mut self,
        w: &Window<'_>,
        ip: usize,
        rep: &[u32; 3],
        ll0: bool,
        out: &mut alloc::vec::Vec<Cand>,
    ) {
        debug_assert_eq!(MLS, self.mls);
        let min_match: usize = if MLS == 3 { 3 } else { 4 };
        out.clear();
        if ip < self.next {
            return;
        }
        let s = w.src;
        let end = w.end;
        if self.next < ip {
            self.update::<MLS>(w, ip, end);
        }
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let mut best = min_match - 1;
        let ll0 = usize::from(ll0);
        let reps = [rep[0], rep[1], rep[2], rep[0].wrapping_sub(1)];
        // The position's first 8 bytes, read once: a repeat offset's first `min_match` bytes
        // and, most often, its whole length come from one compare (`ZSTD_count`'s first step).
        let whole8 = ip + 8 <= end.min(s.len());
        let here = read64(s, ip);
        let min_mask: u64 = if MLS == 3 { 0xFF_FFFF } else { 0xFFFF_FFFF };
        let read_min = |at: usize| if MLS == 3 { read32(s, at) & 0xFF_FFFF } else { read32(s, at) };
        for (code, &off) in reps.iter().enumerate().skip(ll0).take(3) {
            let off = off as usize;
            if off.wrapping_sub(1) >= ip - w.low || ip - off < low {
                continue;
            }
            let len = if whole8 {
                let d = here ^ read64(s, ip - off);
                if d & min_mask != 0 {
                    continue;
                }
                if d != 0 {
                    (d.trailing_zeros() >> 3) as usize
                } else {
                    8 + count_rest(s, ip + 8, ip + 8 - off, end)
                }
            } else {
                if read_min(ip) != read_min(ip - off) {
                    continue;
                }
                count_rest(s, ip + min_match, ip + min_match - off, end) + min_match
            };
            if len > best {
                best = len;
                out.push(Cand { len: len as u32, off: (code - ll0 + 1) as u32 });
                if len > self.sufficient || ip + len == end {
                    return;
                }
            }
        }
        if MLS == 3 && best < 3 {
            let log3 = self.hash_log3;
            let (h3, h3_next) = if whole8 {
                (hash_v::<3>(here, log3), hash_v::<3>(here >> 8, log3))
            } else {
                (hash_n::<3>(s, ip, log3), hash_n::<3>(s, ip + 1, log3))
            };
            if let Some(next_head) = self.hash3.get(h3_next) {
                prefetch(next_head);
            }
            let mut at = self.next3;
            while at < ip {
                let h = hash_n::<3>(s, at, log3);
                let v = self.stamp(at);
                if let Some(e) = self.hash3.get_mut(h) {
                    *e = v;
                }
                at += 1;
            }
            // The searches come in increasing order: `ip` is inserted now (after its lookup)
            // rather than by the next search, which then most often inserts nothing; every
            // lookup sees the table libzstd's sees.
            debug_assert!(ip >= self.next3, "3-byte hash searched backwards at {ip}");
            let stamped = self.stamp(ip);
            let m = self
                .hash3
                .get_mut(h3)
                .map_or(usize::MAX, |e| unstamp(core::mem::replace(e, stamped), self.base));
            self.next3 = ip + 1;
            if m >= low.max(1) && m < ip && ip - m < 1 << 18 {
                let len = compare(s, ip, m, end).0;
                if len >= 3 {
                    best = len;
                    out.push(Cand { len: len as u32, off: (ip - m) as u32 + 3 });
                    if len > self.sufficient || ip + len == end {
                        self.next = ip + 1;
                        return;
                    }
                }
            }
        }
        let mut sink = All { out };
        // From the 8 bytes read (the next position's only prefetched: any value would do).
        let log = self.hash_log;
        let roots = if whole8 {
            (hash_v::<MLS>(here, log), hash_v::<MLS>(here >> 8, log))
        } else {
            (hash_n::<MLS>(s, ip, log), hash_n::<MLS>(s, ip + 1, log))
        };
        let (_, match_end) = self.descend::<MLS, _>(s, ip, end, low, best, roots, &mut sink);
        self.next = match_end - 8;
    }
}

#[cfg(test)]
mod tests {
    use super::{compare, count};

    /// The tree walk's compare is `count` with the order of the first differing byte, at every
    /// pair of positions of buffers of few symbols (long and short common prefixes, prefixes
    /// ending within and past the first 8 bytes, at and before `end`).
    #[test]
    fn compare_is_count_with_the_next_bytes_order() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for symbols in [2u64, 3, 256] {
            let s: alloc::vec::Vec<u8> = (0..96)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    (x % symbols) as u8
                })
                .collect();
            for end in [s.len(), s.len() - 5, 40] {
                for ip in 1..s.len() {
                    for m in 0..ip {
                        let len = count(&s, ip, m, end);
                        let (got, smaller) = compare(&s, ip, m, end);
                        assert_eq!(got, len, "length at {ip} {m} {end}");
                        if ip + len < end {
                            assert_eq!(smaller, s[m + len] < s[ip + len], "order at {ip} {m} {end}");
                        }
                    }
                }
            }
        }
    }
}
