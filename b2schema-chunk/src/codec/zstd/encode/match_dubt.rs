//! btlazy2's match finder: libzstd 1.5.7's deferred-update binary tree (zstd_lazy.c,
//! `ZSTD_updateDUBT`, `ZSTD_insertDUBT1`, `ZSTD_DUBT_findBestMatch`). Positions go into the
//! table as a hash chain marked "unsorted" (two stores each); a search first sorts into the tree
//! the unsorted candidates of its hash it meets (up to `1 << searchLog` of them, newest last),
//! then walks the tree as [`super::match_bt`]'s does and keeps the best match by libzstd's
//! length-against-offset rule. Positions no search meets are never sorted: on data without
//! matches most positions cost two stores, where [`super::match_bt`] walks the tree for each.
//!
//! Entries are positions plus the frame's base (as the other finders'); "empty" and "unsorted"
//! are two values no position of a frame reaches, so that an entry minus the base that is not
//! below the searched position is never a candidate.

use super::fse::highbit;
use super::match_bt::{Branches, compare};
use super::match_fast::Window;
use super::match_lazy::Search;
use super::matching::{EMPTY, hash_n, stamp, unstamp};

/// The mark of a position in the chain, not yet in the tree (libzstd's
/// `ZSTD_DUBT_UNSORTED_MARK`).
pub(crate) const UNSORTED: u32 = EMPTY - 1;

/// A gap of positions not yet chained, at a block's start, above which part is skipped
/// ([`Dubt::start_block`]).
const GAP: usize = 384;

/// The positions at most chained before a block's start after a longer gap.
const CATCH_UP: usize = 192;

/// The tree's tables and state over one frame.
pub(crate) struct Dubt<'t> {
    /// The most recent position of each hash.
    pub(crate) hash: &'t mut [u32],
    /// Two entries per position (`2 * (pos & bt_mask)`): sorted, its smaller and larger
    /// children; unsorted, the previous position of its hash and [`UNSORTED`].
    pub(crate) bt: &'t mut [u32],
    pub(crate) hash_log: u32,
    pub(crate) bt_mask: usize,
    /// Nodes visited at most per search (`1 << searchLog`).
    pub(crate) compares: u32,
    /// The hashed length (4 to 6).
    pub(crate) mls: u32,
    pub(crate) base: u32,
    /// The next position to put in the chain.
    pub(crate) next: usize,
}

impl Dubt<'_> {
    #[inline(always)]
    fn stamp(&self, pos: usize) -> u32 {
        stamp(pos, self.base)
    }

    #[inline(always)]
    fn pos(&self, v: u32) -> usize {
        unstamp(v, self.base)
    }

    /// Called at the start of each block after the first (`start`: its first position): libzstd
    /// 1.5.7's "limited update after a very long match" (`ZSTD_buildSeqStore`). When more than
    /// [`GAP`] positions lie between the next one to chain and the block's start (a match ran
    /// to the end of the previous block), only the last [`CATCH_UP`] of them at most are chained.
    /// Chaining them all would fill the hash chains with thousands of unsorted positions whose
    /// oldest the next search drops, cutting the tree off from the older matches (pre-split 8 KiB
    /// blocks of int32 counters then lost their matches 64 KiB back).
    pub(crate) fn start_block(&mut self, start: usize) {
        if start > self.next + GAP {
            self.next = start - CATCH_UP.min(start - self.next - GAP);
        }
    }

    /// Chains every position from the next one up to `ip` (excluded), unsorted. `MLS` must be
    /// the tree's [`Dubt::mls`].
    fn update<const MLS: u32>(&mut self, s: &[u8], ip: usize) {
        let (mask, log, base) = (self.bt_mask, self.hash_log, self.base);
        // The nodes as pairs: one bounds check and one store per position.
        let (nodes, _) = self.bt.as_chunks_mut::<2>();
        let hash = &mut *self.hash;
        for at in self.next..ip {
            let h = hash_n::<MLS>(s, at, log);
            if let (Some(head), Some(node)) = (hash.get_mut(h), nodes.get_mut(at & mask)) {
                *node = [*head, UNSORTED];
                *head = stamp(at, base);
            }
        }
        self.next = self.next.max(ip);
    }

    /// Sorts the chained position `cur` into the tree below it (`ZSTD_insertDUBT1`): at most
    /// `compares` nodes, none at or below `bt_low`, bytes compared up to `end`.
    fn sort(&mut self, w: &Window<'_>, cur: usize, end: usize, mut compares: u32, bt_low: usize) {
        let s = w.src;
        let (mask, base) = (self.bt_mask, self.base);
        let pos = |v: u32| unstamp(v, base);
        let stamp = |p: usize| stamp(p, base);
        let bt = &mut *self.bt;
        let mut branches = Branches::of(cur, mask);
        // The next sorted candidate is in the position's first entry (its second held the
        // unsorted chain, already taken).
        let mut m = pos(bt[2 * (cur & mask)]);
        let low = w.low.max(cur.saturating_sub(w.max_dist));
        // `m` in `(low, cur)`, one compare: from `cur` on it is stale.
        let span = cur.saturating_sub(low + 1);
        while compares > 0 && cur.wrapping_sub(m).wrapping_sub(1) < span {
            let next = 2 * (m & mask);
            let mut len = branches.common();
            debug_assert!(s[m..m + len] == s[cur..cur + len], "tree out of order at {m} for {cur}");
            let (more, smaller) = compare(s, cur + len, m + len, end);
            len += more;
            if cur + len >= end {
                break;
            }
            let Some(v) = branches.step(bt, m, stamp(m), next, len, smaller, bt_low) else {
                break;
            };
            m = pos(v);
            compares -= 1;
        }
        branches.close(bt, EMPTY);
    }
}

impl Search for Dubt<'_> {
    /// The best match at `ip` (`ZSTD_BtFindBestMatch`): its length and offset base, or
    /// `(0, 0)` (also at a position a long repetition skipped).
    fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        if ip < self.next {
            return (0, 0);
        }
        let s = w.src;
        let end = w.end;
        debug_assert_eq!(MLS, self.mls);
        self.update::<MLS>(s, ip);
        let mask = self.bt_mask;
        let h = hash_n::<MLS>(s, ip, self.hash_log);
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let bt_low = ip.saturating_sub(mask);
        let unsort_limit = bt_low.max(low);
        // The unsorted candidates, newest first, their marks turned into a chain back up.
        let mut m = self.pos(self.hash[h]);
        let mut candidates = self.compares;
        let mut stacked = EMPTY;
        while m > unsort_limit && m < ip && self.bt[2 * (m & mask) + 1] == UNSORTED && candidates > 1 {
            let node = 2 * (m & mask);
            self.bt[node + 1] = stacked;
            stacked = self.stamp(m);
            m = self.pos(self.bt[node]);
            candidates -= 1;
        }
        if m > unsort_limit && m < ip && self.bt[2 * (m & mask) + 1] == UNSORTED {
            // The oldest one still unsorted is dropped (libzstd: for speed).
            let node = 2 * (m & mask);
            self.bt[node] = EMPTY;
            self.bt[node + 1] = EMPTY;
        }
        // Sorted oldest first.
        let mut at = self.pos(stacked);
        while at < ip {
            let up = self.bt[2 * (at & mask) + 1];
            self.sort(w, at, end, candidates, unsort_limit);
            at = self.pos(up);
            candidates += 1;
        }
        // The search, inserting `ip` (the fields in locals: behind `&mut self` they would be
        // reloaded after every store).
        let base = self.base;
        let pos = |v: u32| unstamp(v, base);
        let stamp = |p: usize| stamp(p, base);
        let mut m = pos(self.hash[h]);
        self.hash[h] = stamp(ip);
        let bt = &mut *self.bt;
        let mut branches = Branches::of(ip, mask);
        let mut match_end = ip + 9;
        let mut best = 0usize;
        // libzstd starts from an offset base of 999 999 999 (its highest bit 29).
        let mut off = 999_999_999u32;
        let mut compares = self.compares;
        let span = ip.saturating_sub(low + 1);
        while compares > 0 && ip.wrapping_sub(m).wrapping_sub(1) < span {
            let next = 2 * (m & mask);
            let mut len = branches.common();
            debug_assert!(s[m..m + len] == s[ip..ip + len], "tree out of order at {m} for {ip}");
            let (more, smaller) = compare(s, ip + len, m + len, end);
            len += more;
            if len > best {
                if len > match_end - m {
                    match_end = m + len;
                }
                let dist = (ip - m) as u32;
                if 4 * (len as i64 - best as i64) > i64::from(highbit(dist + 1)) - i64::from(highbit(off)) {
                    best = len;
                    off = dist + 3;
                }
            }
            if ip + len >= end {
                break;
            }
            let Some(v) = branches.step(bt, m, stamp(m), next, len, smaller, bt_low) else {
                break;
            };
            m = pos(v);
            compares -= 1;
        }
        branches.close(bt, EMPTY);
        self.next = match_end - 8;
        if best < 4 || off == 999_999_999 { (0, 0) } else { (best, off) }
    }

    #[inline(always)]
    fn skip<const MLS: u32>(&mut self, _: &[u8], _: bool) {}
}
