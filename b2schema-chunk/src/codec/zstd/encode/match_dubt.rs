//! btlazy2's match finder: libzstd 1.5.7's deferred-update binary tree (zstd_lazy.c,
//! `ZSTD_updateDUBT`, `ZSTD_insertDUBT1`, `ZSTD_DUBT_findBestMatch`). Positions go into the
//! table as a hash chain marked "unsorted" (two stores each); a search first sorts into the tree
//! the unsorted candidates of its hash it meets (up to `1 << searchLog` of them, newest last),
//! then walks the tree as [`super::match_bt`]'s does and keeps the best match by libzstd's
//! length-against-offset rule. Positions no search meets are never sorted: on data without
//! matches most positions cost two stores, where [`super::match_bt`] walks the tree for each.
//!
//! Measured with callgrind (instructions of `zstd_own` with `ZSTD_OWN_ONLY=ours
//! ZSTD_OWN_PASSES=1 ZSTD_OWN_STREAMS=16 ZSTD_OWN_DATA=...` at level 9, less the run with
//! `ZSTD_OWN_PASSES=0`): the walks' tree indices masked by the table's length, their compare in
//! line, the chaining out of line, float64 normal 648.2 -> 581.5 M instructions a pass, text
//! 2258.4 -> 1975.0 M (libzstd 473.7 M and 1555.3 M). Then (callgrind with
//! `--toggle-collect='*frame::compress_onto*'` on the own encoder, `ZSTD_compress2` on
//! libzstd's, `ZSTD_OWN_SPLIT=1`): the walks with their own branches ([`Walk`]), the first word
//! compared in line with 32-bit sums, the window and end tests cheaper ([`in_window`],
//! [`compare_word`], the search's end test only after a longer match, as libzstd's), the
//! chaining's stamp counted along: float64 normal 578.0 -> 525.7 M, text 1973.5 -> 1780.0 M
//! (libzstd 478.4 M and 1571.9 M in that run).
//!
//! Entries are positions plus the frame's base (as the other finders'); "empty" and "unsorted"
//! are two values no position of a frame reaches, so that an entry minus the base that is not
//! below the searched position is never a candidate.

use super::fse::highbit;
use super::match_fast::Window;
use super::match_lazy::Search;
use super::matching::{EMPTY, count, hash_n, hash_v, stamp, unstamp};

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
    /// the tree's [`Dubt::mls`]. The tables are powers of two long (`1 << hash_log` hashes,
    /// `bt_mask + 1` nodes): indices masked by their lengths are the same and spare the bounds
    /// checks; the 8 bytes hashed at each position are read from one slice's windows where all
    /// are in the source (24 -> 16 instructions a position, callgrind as in the module's notes).
    /// Out of line: in line, the search's values crowded its loop's registers.
    #[inline(never)]
    fn update<const MLS: u32>(&mut self, s: &[u8], ip: usize) {
        let (log, base, next) = (self.hash_log, self.base, self.next);
        let (nodes, _) = self.bt.as_chunks_mut::<2>();
        let hash = &mut *self.hash;
        let (nmask, hmask) = (nodes.len().wrapping_sub(1), hash.len().wrapping_sub(1));
        debug_assert_eq!(nmask, self.bt_mask);
        if !nodes.is_empty() && !hash.is_empty() {
            let mut chain = |at: usize, h: usize| {
                let head = &mut hash[h & hmask];
                nodes[at & nmask] = [*head, UNSORTED];
                *head = stamp(at, base);
            };
            match s.get(next..ip.wrapping_add(7)) {
                Some(t) if next < ip => {
                    // The stamp counted along (one register less than `at` stamped at each).
                    let mut st = stamp(next, base);
                    for (at, w) in (next..).zip(t.windows(8)) {
                        let v = u64::from_le_bytes(w.try_into().unwrap_or_default());
                        let head = &mut hash[hash_v::<MLS>(v, log) & hmask];
                        nodes[at & nmask] = [*head, UNSORTED];
                        *head = st;
                        st = st.wrapping_add(1);
                    }
                }
                _ => (next..ip).for_each(|at| chain(at, hash_n::<MLS>(s, at, log))),
            }
        }
        self.next = next.max(ip);
    }

    /// Sorts the chained position `cur` into the tree below it (`ZSTD_insertDUBT1`): at most
    /// `compares` nodes, none at or below `bt_low`, bytes compared up to the end of `s` (`w`'s
    /// source cut at its end).
    #[inline(always)]
    fn sort(&mut self, s: &[u8], w: &Window<'_>, cur: usize, compares: u32, bt_low: usize) {
        let end = s.len();
        let base = self.base;
        let bt = &mut *self.bt;
        // The table is `2 * (bt_mask + 1)` entries long: a node's index `2 * (m & bt_mask)` is
        // `(m << 1)` masked by the length, which spares the bounds checks.
        let lm = bt.len().wrapping_sub(1);
        let node = (cur << 1) & lm;
        // The next sorted candidate is in the position's first entry (its second held the
        // unsorted chain, already taken).
        let Some(&first) = bt.get(node) else {
            return;
        };
        let low = w.low.max(cur.saturating_sub(w.max_dist));
        let (lo, span) = in_window(cur, low, base);
        let mut walk = Walk::of_node(node);
        let mut v = first;
        for _ in 0..compares {
            if v.wrapping_sub(lo) >= span {
                break;
            }
            let m = unstamp(v, base);
            let next = (m << 1) & lm;
            let mut len = walk.common();
            debug_assert!(s[m..m + len] == s[cur..cur + len], "tree out of order at {m} for {cur}");
            let smaller;
            (len, smaller) = match compare_word(s, cur, m, len) {
                Ok(r) => r,
                Err(from) => {
                    let r = compare_from(s, cur, m, from);
                    if cur + r.0 >= end {
                        break;
                    }
                    r
                }
            };
            let Some(n) = walk.step(bt, v, next, len, smaller, m, bt_low) else {
                break;
            };
            v = n;
        }
        walk.close(bt, EMPTY);
    }

    /// The walk of [`Search::best`] from the tree's newest node `head` (stamped) of `ip`'s hash, inserting
    /// `ip` (the second half of `ZSTD_DUBT_findBestMatch`): its best match's length and offset
    /// base (`999 999 999` when none), and where the longest match met ends. In line: out of
    /// line, its call cost more than its loop gained over float64 normal 16 KiB streams.
    #[inline(always)]
    fn search(&mut self, s: &[u8], ip: usize, head: u32, low: usize, bt_low: usize) -> (usize, u32, usize) {
        let end = s.len();
        let base = self.base;
        let bt = &mut *self.bt;
        let lm = bt.len().wrapping_sub(1);
        let node = (ip << 1) & lm;
        let mut match_end = ip + 9;
        let mut best = 0usize;
        // libzstd starts from an offset base of 999 999 999 (its highest bit 29).
        let mut off = 999_999_999u32;
        if bt.get(node).is_none() {
            return (best, off, match_end);
        }
        let mut walk = Walk::of_node(node);
        let (lo, span) = in_window(ip, low, base);
        let mut v = head;
        for _ in 0..self.compares {
            if v.wrapping_sub(lo) >= span {
                break;
            }
            let m = unstamp(v, base);
            let next = (m << 1) & lm;
            let mut len = walk.common();
            debug_assert!(s[m..m + len] == s[ip..ip + len], "tree out of order at {m} for {ip}");
            let smaller;
            (len, smaller) = match compare_word(s, ip, m, len) {
                Ok(r) => r,
                Err(from) => compare_from(s, ip, m, from),
            };
            if len > best {
                if len > match_end - m {
                    match_end = m + len;
                }
                let dist = (ip - m) as u32;
                if 4 * (len as i64 - best as i64) > i64::from(highbit(dist + 1)) - i64::from(highbit(off)) {
                    best = len;
                    off = dist + 3;
                }
                // Tested here only, as libzstd: a node not longer than `best` cannot reach the
                // end (the node `best` came from was as long and was tested).
                if ip + len >= end {
                    break;
                }
            }
            let Some(n) = walk.step(bt, v, next, len, smaller, m, bt_low) else {
                break;
            };
            v = n;
        }
        walk.close(bt, EMPTY);
        (best, off, match_end)
    }
}

/// The walks' test of a node: its position `m` in `(low, cur)` (from `cur` on an entry is
/// stale), one compare of its stamp `v` in 32 bits, `v - lo < span` (positions are below `2^32`,
/// [`super::matching::read32`]): `lo` is `low + 1` stamped, `span` the positions from there to
/// `cur` (0 when none).
#[inline(always)]
fn in_window(cur: usize, low: usize, base: u32) -> (u32, u32) {
    (stamp(low + 1, base), cur.saturating_sub(low + 1) as u32)
}

/// The common prefix of `s[ip..]` and `s[m..]` (`m < ip`) known to be at least `len` long, and
/// whether the first byte after it is smaller at `m` than at `ip` (meaningful when the prefix
/// ends before the end of `s`): as [`super::match_bt::compare`] with `end` the length of `s`
/// (libzstd's `ZSTD_count` in its tree walks).
#[cfg(test)]
fn compare_to_end(s: &[u8], ip: usize, m: usize, len: usize) -> (usize, bool) {
    compare_word(s, ip, m, len).unwrap_or_else(|from| compare_from(s, ip, m, from))
}

/// The compare of the walks (`compare_to_end`, the tests' reference, built for them only) when
/// the prefix ends within the next 8 bytes at `ip + len` and those at
/// `ip + len` and `m + len` are all in `s`, else `Err` with the length known equal to go on
/// from with [`compare_from`] (8 more when those bytes are all equal); in line: most compares
/// of the walks end there, their order that of the two words read big-endian, and the prefix
/// then ends before the end of `s` (the walks test that only after [`compare_from`]).
/// Positions are below `2^32` ([`super::matching::read32`]): the sums in 32 bits come
/// zero-extended and their reads' ends cannot wrap (one compare each).
#[inline(always)]
fn compare_word(s: &[u8], ip: usize, m: usize, len: usize) -> Result<(usize, bool), usize> {
    let a = (ip as u32).wrapping_add(len as u32) as usize;
    let b = (m as u32).wrapping_add(len as u32) as usize;
    let (Some(x), Some(y)) = (s.get(a..a + 8), s.get(b..b + 8)) else {
        return Err(len);
    };
    let (Some(x), Some(y)) = (x.first_chunk::<8>(), y.first_chunk::<8>()) else {
        return Err(len);
    };
    let (x, y) = (u64::from_le_bytes(*x), u64::from_le_bytes(*y));
    let d = x ^ y;
    if d == 0 {
        return Err(len + 8);
    }
    Ok((len + (d.trailing_zeros() >> 3) as usize, y.swap_bytes() < x.swap_bytes()))
}

/// The 8 bytes at `at`, if all are in `s` (`at` cut to 32 bits as [`compare_word`]'s).
#[inline(always)]
fn word(s: &[u8], at: usize) -> Option<u64> {
    let at = at as u32 as usize;
    s.get(at..at + 8).map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
}

/// The compare of the walks (`compare_to_end`) past its first `len` bytes, equal: the next 8
/// bytes as its first, then
/// [`compare_rest`] (its loop's setup pays for itself on long matches only: callgrind as in the
/// module's notes, int64 counters 34.4 -> 31.9 M instructions with `count`
/// alone, text 1979 -> 2042 M; with the word first, both gain). Out of line: the few compares
/// that reach it would weigh on the walks' registers in line.
#[inline(never)]
fn compare_from(s: &[u8], ip: usize, m: usize, len: usize) -> (usize, bool) {
    if let (Some(a), Some(b)) = (word(s, ip + len), word(s, m + len)) {
        let d = a ^ b;
        if d != 0 {
            return (len + (d.trailing_zeros() >> 3) as usize, b.swap_bytes() < a.swap_bytes());
        }
        return compare_rest(s, ip, m, len + 8);
    }
    compare_rest(s, ip, m, len)
}

/// [`compare_from`] past its first `len` bytes, equal: [`count`] and the next bytes' order. Out
/// of line: the registers its loop saves would cost every call of [`compare_from`] (text 16 KiB
/// streams: 95 % of them end in their word).
#[inline(never)]
fn compare_rest(s: &[u8], ip: usize, m: usize, len: usize) -> (usize, bool) {
    let len = len + count(s, ip + len, m + len, s.len());
    let byte = |at: usize| s.get(at).copied().unwrap_or(0);
    (len, byte(m + len) < byte(ip + len))
}

/// The two open branches of a walk down the tree from a position (libzstd's `smallerPtr` and
/// `largerPtr` with `commonLengthSmaller` and `commonLengthLarger`), as
/// [`super::match_bt::Branches`] but for the walks here: the slots are kept masked by the
/// table's length, and a branch cut at the tree's low end is pointed at the other one (libzstd
/// points it at a dummy): both are closed at the end, the other once more changes nothing.
/// Fewer values than `Branches`' in the walks' loops, which spilled to the stack.
struct Walk {
    smaller: usize,
    larger: usize,
    common_s: usize,
    common_l: usize,
}

impl Walk {
    /// The walk of the position whose node is at `node` (masked).
    #[inline(always)]
    fn of_node(node: usize) -> Self {
        Walk { smaller: node, larger: node + 1, common_s: 0, common_l: 0 }
    }

    /// The prefix every node still below holds in common with the position.
    #[inline(always)]
    fn common(&self) -> usize {
        self.common_s.min(self.common_l)
    }

    /// Links the node `m` stamped `v` (its children at `next` and `next + 1`, masked), whose
    /// first `len` bytes are the position's, on the side `smaller` says, and goes down the other
    /// way: the next node's stamp, or `None` when `m` is at the tree's low end `bt_low` (the
    /// branch ends there). The low end tested on each side: tested once before, its flag took a
    /// register.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn step(
        &mut self,
        bt: &mut [u32],
        v: u32,
        next: usize,
        len: usize,
        smaller: bool,
        m: usize,
        bt_low: usize,
    ) -> Option<u32> {
        let lm = bt.len().wrapping_sub(1);
        if smaller {
            bt[self.smaller & lm] = v;
            self.common_s = len;
            if m <= bt_low {
                self.smaller = self.larger;
                return None;
            }
            self.smaller = (next + 1) & lm;
            Some(bt[self.smaller])
        } else {
            bt[self.larger & lm] = v;
            self.common_l = len;
            if m <= bt_low {
                self.larger = self.smaller;
                return None;
            }
            self.larger = next & lm;
            Some(bt[self.larger])
        }
    }

    /// Ends the two open branches.
    #[inline(always)]
    fn close(self, bt: &mut [u32], empty: u32) {
        let lm = bt.len().wrapping_sub(1);
        if let Some(e) = bt.get_mut(self.smaller & lm) {
            *e = empty;
        }
        if let Some(e) = bt.get_mut(self.larger & lm) {
            *e = empty;
        }
    }
}

impl Search for Dubt<'_> {
    /// The best match at `ip` (`ZSTD_BtFindBestMatch`): its length and offset base, or
    /// `(0, 0)` (also at a position a long repetition skipped).
    fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        if ip < self.next {
            return (0, 0);
        }
        debug_assert_eq!(MLS, self.mls);
        debug_assert_eq!(self.bt.len(), 2 * (self.bt_mask + 1));
        if self.next < ip {
            self.update::<MLS>(w.src, ip);
        }
        // The source cut once at the window's end: the walks compare up to its length.
        let Some(s) = w.src.get(..w.end) else {
            return (0, 0);
        };
        // Hashed from the whole source, as the chain's hashes (bytes past the end too).
        let h = hash_n::<MLS>(w.src, ip, self.hash_log);
        let Some(hp) = self.hash.get(h) else {
            return (0, 0);
        };
        let head = *hp;
        let mask = self.bt_mask;
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let bt_low = ip.saturating_sub(mask);
        let unsort_limit = bt_low.max(low);
        // The fields in locals: behind `&mut self` they would be reloaded after every store.
        let (base, compares) = (self.base, self.compares);
        let pos = |v: u32| unstamp(v, base);
        let stamp = |p: usize| stamp(p, base);
        // A node's index `2 * (m & bt_mask)` is `(m << 1)` masked by the table's length (see
        // [`Dubt::sort`]).
        let lm = self.bt.len().wrapping_sub(1);
        // The unsorted candidates, newest first, their marks turned into a chain back up.
        let mut m = pos(head);
        let mut candidates = compares;
        let mut stacked = EMPTY;
        {
            let bt = &mut *self.bt;
            let unsorted = |bt: &[u32], m: usize| bt.get(((m << 1) | 1) & lm) == Some(&UNSORTED);
            while m > unsort_limit && m < ip && unsorted(bt, m) && candidates > 1 {
                let node = (m << 1) & lm;
                bt[node | 1] = stacked;
                stacked = stamp(m);
                m = pos(bt[node]);
                candidates -= 1;
            }
            if m > unsort_limit && m < ip && unsorted(bt, m) {
                // The oldest one still unsorted is dropped (libzstd: for speed).
                let node = (m << 1) & lm;
                bt[node] = EMPTY;
                bt[node | 1] = EMPTY;
            }
        }
        // Sorted oldest first.
        let mut at = pos(stacked);
        while at < ip {
            let Some(&up) = self.bt.get(((at << 1) | 1) & lm) else {
                break;
            };
            self.sort(s, w, at, candidates, unsort_limit);
            at = pos(up);
            candidates += 1;
        }
        // The search, inserting `ip`.
        let Some(hp) = self.hash.get_mut(h) else {
            return (0, 0);
        };
        let head = *hp;
        *hp = stamp(ip);
        let (best, off, match_end) = self.search(s, ip, head, low, bt_low);
        self.next = match_end - 8;
        if best < 4 || off == 999_999_999 { (0, 0) } else { (best, off) }
    }

    #[inline(always)]
    fn skip<const MLS: u32>(&mut self, _: &[u8], _: bool) {}
}

#[cfg(test)]
mod tests {
    use super::{Dubt, UNSORTED, compare_to_end};
    use crate::codec::zstd::encode::matching::{EMPTY, count, hash_n};
    use crate::test_data::noise;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The walks' compare is `count` up to the end of the source with the order of the first
    /// differing byte, at every pair of positions of buffers of few symbols cut at several
    /// ends, and of a period of 29 bytes with rare changes (prefixes ending within the first 8
    /// bytes, within the next 8, past 16, at the end).
    #[test]
    fn compare_to_end_is_count_with_the_next_bytes_order() {
        let r = noise(120, 9);
        let periodic: Vec<u8> = (0..120).map(|i| if r[i] < 12 { r[i] } else { r[i % 29] }).collect();
        for symbols in [2u8, 3, 255, 0] {
            let full: Vec<u8> = match symbols {
                0 => periodic.clone(),
                _ => noise(120, u64::from(symbols)).iter().map(|b| b % symbols).collect(),
            };
            for end in [full.len(), full.len() - 5, 41, 9] {
                let s = &full[..end];
                for ip in 1..end {
                    for m in 0..ip {
                        let len = count(s, ip, m, end);
                        // From every prefix known equal (0, some, all).
                        for known in [0, len.min(3), len] {
                            let (got, smaller) = compare_to_end(s, ip, m, known);
                            assert_eq!(got, len, "length at {ip} {m} {end} from {known}");
                            if ip + len < end {
                                assert_eq!(smaller, s[m + len] < s[ip + len], "order at {ip} {m} {end}");
                            }
                        }
                    }
                }
            }
        }
    }

    /// The chaining puts each position at the head of its hash, its node holding the previous
    /// head and the unsorted mark, the same whether its bytes are read from the windows of one
    /// slice (the positions 8 bytes before the end) or one at a time (the last ones): the
    /// tables after chaining a buffer in steps of every length are those of the plain loop.
    #[test]
    fn chaining_puts_each_position_at_its_hash_head() {
        let s: Vec<u8> = noise(300, 7).iter().map(|b| b & 7).collect();
        let (hash_log, bt_mask, base) = (6u32, 63usize, 1000u32);
        for step in [1usize, 3, 8, 50, 300] {
            let mut hash = vec![EMPTY; 1 << hash_log];
            let mut bt = vec![EMPTY; 2 * (bt_mask + 1)];
            let mut d =
                Dubt { hash: &mut hash, bt: &mut bt, hash_log, bt_mask, compares: 4, mls: 5, base, next: 0 };
            let mut ip = 0;
            while ip < s.len() {
                ip = (ip + step).min(s.len());
                d.update::<5>(&s, ip);
            }
            assert_eq!(d.next, s.len());
            let mut want_hash = vec![EMPTY; 1 << hash_log];
            let mut want_bt = vec![EMPTY; 2 * (bt_mask + 1)];
            for at in 0..s.len() {
                let h = hash_n::<5>(&s, at, hash_log);
                want_bt[2 * (at & bt_mask)] = want_hash[h];
                want_bt[2 * (at & bt_mask) + 1] = UNSORTED;
                want_hash[h] = at as u32 + base;
            }
            assert_eq!(hash, want_hash, "heads, steps of {step}");
            assert_eq!(bt, want_bt, "nodes, steps of {step}");
        }
    }
}
