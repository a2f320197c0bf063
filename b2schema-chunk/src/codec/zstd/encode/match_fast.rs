//! The `fast` and `dfast` match finders (libzstd's `ZSTD_compressBlock_fast` and
//! `ZSTD_compressBlock_doubleFast`): one hash table of `minMatch` bytes, or a table of 8 bytes
//! and one of `minMatch` bytes; the repeat offset tried one byte ahead first; positions skipped
//! faster the longer no match is found (`kSearchStrength`).

use super::block::Store;
use super::matching::{EMPTY, READ, count, hash_n, read32, read64};

/// libzstd's `kSearchStrength`.
pub(crate) const SEARCH_STRENGTH: u32 = 8;

/// The window of one block's search: the block `[start, end)` of `src`, matches no farther
/// back than `max_dist` and not before `low`.
pub(crate) struct Window<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) start: usize,
    pub(crate) end: usize,
    pub(crate) low: usize,
    pub(crate) max_dist: usize,
}

impl Window<'_> {
    /// Whether a table entry `cand` may be a match for position `cur`.
    #[inline(always)]
    pub(crate) fn valid(&self, cand: u32, cur: usize) -> bool {
        cand != EMPTY
            && (cand as usize) < cur
            && cand as usize >= self.low
            && cur - cand as usize <= self.max_dist
    }

    /// The first position searched: one past the start of the frame's data.
    pub(crate) fn first(&self) -> usize {
        self.start + usize::from(self.start == self.low)
    }

    /// The last position a finder searches (libzstd's `ilimit`), or `None` when the block is too
    /// short to search: then all of it is literals, stored.
    pub(crate) fn limit(&self, store: &mut Store) -> Option<usize> {
        let limit = self.end.checked_sub(READ).filter(|&l| l > self.start);
        if limit.is_none() {
            store.lits.extend_from_slice(&self.src[self.start..self.end]);
        }
        limit
    }

    /// Whether the repeat offset `r` is usable at `at`.
    #[inline(always)]
    pub(crate) fn rep_ok(&self, r: u32, at: usize) -> bool {
        r > 0 && r as usize <= at - self.low && r as usize <= self.max_dist
    }
}

/// Extends a match at `ip` from `m` backward over equal bytes down to `anchor` and `low`.
#[inline(always)]
pub(crate) fn catch_up(w: &Window<'_>, mut ip: usize, mut m: usize, anchor: usize, len: &mut usize) -> usize {
    while ip > anchor && m > w.low && w.src[ip - 1] == w.src[m - 1] {
        ip -= 1;
        m -= 1;
        *len += 1;
    }
    ip
}

/// libzstd's `fast` strategy over one block (`ZSTD_compressBlock_fast_noDict_generic`, 1.5):
/// positions searched in adjacent pairs, the gap between pairs growing by one every 128 bytes
/// without a match; the repeat offset tried at the next pair.
pub(crate) fn fast(
    w: &Window<'_>,
    table: &mut [u32],
    hlog: u32,
    mls: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    match mls {
        5 => fast_n::<5>(w, table, hlog, rep, store),
        6 => fast_n::<6>(w, table, hlog, rep, store),
        7 => fast_n::<7>(w, table, hlog, rep, store),
        _ => fast_n::<4>(w, table, hlog, rep, store),
    }
}

/// The growth of the gap between searched pairs (libzstd's `kStepIncr`).
const STEP_INCR: usize = 1 << (SEARCH_STRENGTH - 1);

fn fast_n<const MLS: u32>(
    w: &Window<'_>,
    table: &mut [u32],
    hlog: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    let s = w.src;
    let end = w.end;
    let Some(limit) = w.limit(store) else {
        return;
    };
    let h = |at: usize| hash_n::<MLS>(s, at, hlog);
    let (mut off1, mut off2) = (rep[0], rep[1]);
    let mut ip0 = w.first();
    let mut anchor = w.start;
    'search: loop {
        let mut step = 2usize;
        let mut next_step = ip0 + STEP_INCR;
        let mut ip1 = ip0 + 1;
        let mut ip2 = ip0 + step;
        let mut ip3 = ip2 + 1;
        if ip3 >= limit {
            break;
        }
        let mut hash0 = h(ip0);
        let mut hash1 = h(ip1);
        let mut idx = table[hash0];
        // The match: where it starts, where it points, whether at the repeat offset.
        let (at, m, is_rep) = loop {
            table[hash0] = ip0 as u32;
            if w.rep_ok(off1, ip2) && read32(s, ip2) == read32(s, ip2 - off1 as usize) {
                let back = usize::from(s[ip2 - 1] == s[ip2 - 1 - off1 as usize]);
                table[hash1] = ip1 as u32;
                break (ip2 - back, ip2 - back - off1 as usize, true);
            }
            if w.valid(idx, ip0) && read32(s, idx as usize) == read32(s, ip0) {
                table[hash1] = ip1 as u32;
                break (ip0, idx as usize, false);
            }
            idx = table[hash1];
            hash0 = hash1;
            hash1 = h(ip2);
            ip0 = ip1;
            ip1 = ip2;
            ip2 = ip3;
            table[hash0] = ip0 as u32;
            if w.valid(idx, ip0) && read32(s, idx as usize) == read32(s, ip0) {
                if step <= 4 {
                    table[hash1] = ip1 as u32;
                }
                break (ip0, idx as usize, false);
            }
            idx = table[hash1];
            hash0 = hash1;
            hash1 = h(ip2);
            ip0 = ip1;
            ip1 = ip2;
            ip2 = ip0 + step;
            ip3 = ip1 + step;
            if ip2 >= next_step {
                step += 1;
                next_step += STEP_INCR;
            }
            if ip3 >= limit {
                break 'search;
            }
        };
        let cur = ip0;
        let (mut start, mut len) = (at, 4usize);
        if !is_rep {
            off2 = off1;
            off1 = (at - m) as u32;
            start = catch_up(w, at, m, anchor, &mut len);
        }
        let dist = off1 as usize;
        len += count(s, start + len, start + len - dist, end);
        store.push(&s[anchor..start], len, off1 as usize);
        ip0 = start + len;
        anchor = ip0;
        if ip0 <= limit {
            table[h(cur + 2)] = (cur + 2) as u32;
            table[h(ip0 - 2)] = (ip0 - 2) as u32;
            while ip0 <= limit && w.rep_ok(off2, ip0) && read32(s, ip0) == read32(s, ip0 - off2 as usize) {
                let r = count(s, ip0 + 4, ip0 + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                table[h(ip0)] = ip0 as u32;
                store.push(&[], r, off1 as usize);
                ip0 += r;
                anchor = ip0;
            }
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = [off1, off2];
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
    match mls {
        5 => dfast_n::<5>(w, long, short, (hl, hs), rep, store),
        6 => dfast_n::<6>(w, long, short, (hl, hs), rep, store),
        7 => dfast_n::<7>(w, long, short, (hl, hs), rep, store),
        _ => dfast_n::<4>(w, long, short, (hl, hs), rep, store),
    }
}

fn dfast_n<const MLS: u32>(
    w: &Window<'_>,
    long: &mut [u32],
    short: &mut [u32],
    (hl, hs): (u32, u32),
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    let s = w.src;
    let end = w.end;
    let Some(limit) = w.limit(store) else {
        return;
    };
    let (mut off1, mut off2) = (rep[0], rep[1]);
    let mut ip = w.first();
    let mut anchor = w.start;
    while ip < limit {
        let h2 = hash_n::<8>(s, ip, hl);
        let h = hash_n::<MLS>(s, ip, hs);
        let cand_l = long[h2];
        let cand_s = short[h];
        long[h2] = ip as u32;
        short[h] = ip as u32;
        let mut len;
        if w.rep_ok(off1, ip + 1) && read32(s, ip + 1) == read32(s, ip + 1 - off1 as usize) {
            len = count(s, ip + 5, ip + 5 - off1 as usize, end) + 4;
            ip += 1;
            store.push(&s[anchor..ip], len, off1 as usize);
        } else {
            let found = if w.valid(cand_l, ip) && read64(s, cand_l as usize) == read64(s, ip) {
                let m = cand_l as usize;
                Some((ip, m, count(s, ip + 8, m + 8, end) + 8))
            } else if w.valid(cand_s, ip) && read32(s, cand_s as usize) == read32(s, ip) {
                let h3 = hash_n::<8>(s, ip + 1, hl);
                let cand3 = long[h3];
                long[h3] = (ip + 1) as u32;
                if w.valid(cand3, ip + 1) && read64(s, cand3 as usize) == read64(s, ip + 1) {
                    let m = cand3 as usize;
                    Some((ip + 1, m, count(s, ip + 9, m + 8, end) + 8))
                } else {
                    let m = cand_s as usize;
                    Some((ip, m, count(s, ip + 4, m + 4, end) + 4))
                }
            } else {
                None
            };
            let Some((at, m, l)) = found else {
                ip += ((ip - anchor) >> SEARCH_STRENGTH) + 1;
                continue;
            };
            len = l;
            let off = at - m;
            ip = catch_up(w, at, m, anchor, &mut len);
            off2 = off1;
            off1 = off as u32;
            store.push(&s[anchor..ip], len, off);
        }
        let cur = ip;
        ip += len;
        anchor = ip;
        if ip <= limit {
            let at = cur + 2;
            long[hash_n::<8>(s, at, hl)] = at as u32;
            long[hash_n::<8>(s, ip - 2, hl)] = (ip - 2) as u32;
            short[hash_n::<MLS>(s, at, hs)] = at as u32;
            short[hash_n::<MLS>(s, ip - 1, hs)] = (ip - 1) as u32;
            while ip <= limit && w.rep_ok(off2, ip) && read32(s, ip) == read32(s, ip - off2 as usize) {
                let r = count(s, ip + 4, ip + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                short[hash_n::<MLS>(s, ip, hs)] = ip as u32;
                long[hash_n::<8>(s, ip, hl)] = ip as u32;
                store.push(&[], r, off1 as usize);
                ip += r;
                anchor = ip;
            }
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = [off1, off2];
}
