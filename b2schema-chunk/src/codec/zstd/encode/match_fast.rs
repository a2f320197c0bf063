//! The `fast` and `dfast` match finders (libzstd's `ZSTD_compressBlock_fast` and
//! `ZSTD_compressBlock_doubleFast`): one hash table of `minMatch` bytes, or a table of 8 bytes
//! and one of `minMatch` bytes; the repeat offset tried one byte ahead first; positions skipped
//! faster the longer no match is found (`kSearchStrength`).

use super::block::Store;
use super::matching::{EMPTY, READ, count, hash, read32, read64};

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

/// libzstd's `fast` strategy over one block.
pub(crate) fn fast(
    w: &Window<'_>,
    table: &mut [u32],
    hlog: u32,
    mls: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    let s = w.src;
    let end = w.end;
    let Some(limit) = end.checked_sub(READ) else {
        store.lits.extend_from_slice(&s[w.start..end]);
        return;
    };
    let (mut off1, mut off2) = (rep[0], rep[1]);
    let mut ip = w.first();
    let mut anchor = w.start;
    while ip < limit {
        let h = hash(s, ip, hlog, mls);
        let cand = table[h];
        table[h] = ip as u32;
        let mut len;
        if w.rep_ok(off1, ip + 1) && read32(s, ip + 1) == read32(s, ip + 1 - off1 as usize) {
            len = count(s, ip + 5, ip + 5 - off1 as usize, end) + 4;
            ip += 1;
            store.push(&s[anchor..ip], len, off1 as usize);
        } else if w.valid(cand, ip) && read32(s, cand as usize) == read32(s, ip) {
            let m = cand as usize;
            len = count(s, ip + 4, m + 4, end) + 4;
            let off = ip - m;
            ip = catch_up(w, ip, m, anchor, &mut len);
            off2 = off1;
            off1 = off as u32;
            store.push(&s[anchor..ip], len, off);
        } else {
            ip += ((ip - anchor) >> SEARCH_STRENGTH) + 1;
            continue;
        }
        let cur = ip;
        ip += len;
        anchor = ip;
        if ip <= limit {
            table[hash(s, cur + 2, hlog, mls)] = (cur + 2) as u32;
            table[hash(s, ip - 2, hlog, mls)] = (ip - 2) as u32;
            while ip <= limit && w.rep_ok(off2, ip) && read32(s, ip) == read32(s, ip - off2 as usize) {
                let r = count(s, ip + 4, ip + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                table[hash(s, ip, hlog, mls)] = ip as u32;
                store.push(&[], r, off1 as usize);
                ip += r;
                anchor = ip;
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
    let s = w.src;
    let end = w.end;
    let Some(limit) = end.checked_sub(READ) else {
        store.lits.extend_from_slice(&s[w.start..end]);
        return;
    };
    let (mut off1, mut off2) = (rep[0], rep[1]);
    let mut ip = w.first();
    let mut anchor = w.start;
    while ip < limit {
        let h2 = hash(s, ip, hl, 8);
        let h = hash(s, ip, hs, mls);
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
                let h3 = hash(s, ip + 1, hl, 8);
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
            long[hash(s, at, hl, 8)] = at as u32;
            long[hash(s, ip - 2, hl, 8)] = (ip - 2) as u32;
            short[hash(s, at, hs, mls)] = at as u32;
            short[hash(s, ip - 1, hs, mls)] = (ip - 1) as u32;
            while ip <= limit && w.rep_ok(off2, ip) && read32(s, ip) == read32(s, ip - off2 as usize) {
                let r = count(s, ip + 4, ip + 4 - off2 as usize, end) + 4;
                core::mem::swap(&mut off1, &mut off2);
                short[hash(s, ip, hs, mls)] = ip as u32;
                long[hash(s, ip, hl, 8)] = ip as u32;
                store.push(&[], r, off1 as usize);
                ip += r;
                anchor = ip;
            }
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = [off1, off2];
}
