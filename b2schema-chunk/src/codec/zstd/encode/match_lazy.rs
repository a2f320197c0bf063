//! The `greedy`, `lazy` and `lazy2` parsers (libzstd's `ZSTD_compressBlock_lazy_generic`, depth
//! 0, 1, 2) over a hash chain finder (`ZSTD_HcFindBestMatch`): at each position the repeat
//! offset and the best of `1 << searchLog` chained candidates; the lazy ones then try the next
//! one or two positions and keep a later match when its estimated gain is larger. The same
//! parser runs over libzstd's row finder ([`super::match_row`]) where libzstd runs that one.

use super::block::Store;
use super::fse::highbit;
use super::match_fast::{SEARCH_STRENGTH, Window, catch_up};
use super::matching::{count, count_split, hash_n, read32};
use crate::codec::zstd::dispatch::{Build, Hot};

/// A match finder the lazy parser runs over.
pub(crate) trait Search {
    /// The longest match at `ip` (at least 4 bytes): its length and offset base (offset + 3),
    /// or `(0, 0)`; every position up to `ip` inserted first (except while skipping).
    fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32);
    /// Turns libzstd's `lazySkipping` on or off (`s`: the frame's source, whose hashes a finder
    /// may compute ahead when it turns off).
    fn skip<const MLS: u32>(&mut self, s: &[u8], on: bool);
}

/// The hash chain: heads per hash, and each position's previous one of the same hash.
pub(crate) struct Chain<'t> {
    pub(crate) head: &'t mut [u32],
    pub(crate) prev: &'t mut [u32],
    pub(crate) hash_log: u32,
    pub(crate) chain_mask: usize,
    pub(crate) attempts: u32,
    /// What the frame adds to positions in the tables (as [`Window::stamp`]).
    pub(crate) base: u32,
    /// The next position to insert.
    pub(crate) next: usize,
    /// libzstd's `lazySkipping`: after long runs without a match, only the searched positions
    /// are inserted.
    pub(crate) skipping: bool,
}

impl Chain<'_> {
    /// Inserts every position up to `ip` (excluded) and returns the head for `ip`. The tables
    /// are not empty; both are powers of two long (`1 << hash_log`, `chain_mask + 1`): the
    /// masks by their lengths change no index and spare the bounds checks.
    #[inline(always)]
    fn insert<const MLS: u32>(&mut self, s: &[u8], ip: usize) -> u32 {
        // The fields in locals: behind `&mut self` they would be reloaded after every store.
        let (head, prev) = (&mut *self.head, &mut *self.prev);
        let (hmask, pmask) = (head.len().wrapping_sub(1), prev.len().wrapping_sub(1));
        let (log, base) = (self.hash_log, self.base);
        let mut next = self.next;
        if self.skipping {
            if next < ip {
                let h = hash_n::<MLS>(s, next, log) & hmask;
                prev[next & pmask] = head[h];
                head[h] = (next as u32).wrapping_add(base);
                next = ip;
            }
        } else {
            while next < ip {
                let h = hash_n::<MLS>(s, next, log) & hmask;
                prev[next & pmask] = head[h];
                head[h] = (next as u32).wrapping_add(base);
                next += 1;
            }
        }
        self.next = next;
        head[hash_n::<MLS>(s, ip, log) & hmask].wrapping_sub(base)
    }
}

impl Search for Chain<'_> {
    #[inline(always)]
    fn skip<const MLS: u32>(&mut self, _: &[u8], on: bool) {
        self.skipping = on;
    }

    #[inline(always)]
    fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        self.search::<MLS>(w, ip)
    }
}

impl Chain<'_> {
    /// [`Search::best`], out of line as libzstd's `ZSTD_HcFindBestMatch` (and so compiled for
    /// the baseline CPU, the exception to [`crate::codec::zstd::dispatch`]'s rule): inlined
    /// twice into the lazy parser, among its many live values, its loops kept their own values
    /// on the stack.
    #[inline(never)]
    fn search<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        let s = w.src;
        if self.head.is_empty() || self.prev.is_empty() {
            return (0, 0);
        }
        let min_chain = ip.saturating_sub(self.prev.len());
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let mut mu = self.insert::<MLS>(s, ip) as usize;
        let (prev, base) = (&*self.prev, self.base);
        // Not empty (checked above).
        let mask = prev.len() - 1;
        debug_assert_eq!(mask, self.chain_mask);
        let mut ml = 3usize;
        let mut off = 0u32;
        let mut attempts = self.attempts;
        // The window `[low, ip)` as one compare: `mu - low` (wrapping) below `span`; an entry of
        // an earlier frame (below the base) wraps past `ip`.
        let span = ip - low;
        // libzstd's filter: the four bytes ending where a longer match would end, read at `ip`
        // once for each length to beat, and at each candidate from `at`: the source from
        // `ml - 3` on, cut once for each length (then a candidate's read is one compare: `mu`
        // is 32 bits).
        let mut want = read32(s, ip + ml - 3);
        let mut at = s.get(ml - 3..).unwrap_or_default();
        while mu.wrapping_sub(low) < span && attempts > 0 {
            let there = match at.get(mu..mu + 4) {
                Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                None => 0,
            };
            if there == want {
                let l = count(s, ip, mu, w.end);
                if l > ml {
                    ml = l;
                    off = (ip - mu) as u32 + 3;
                    if ip + l == w.end {
                        break;
                    }
                    want = read32(s, ip + ml - 3);
                    at = s.get(ml - 3..).unwrap_or_default();
                }
            }
            if mu <= min_chain {
                break;
            }
            mu = prev[mu & mask].wrapping_sub(base) as usize;
            attempts -= 1;
        }
        if off == 0 { (0, 0) } else { (ml, off) }
    }
}

/// Whether the 4 bytes at `at` are the 4 bytes `off` before them (false past the end or for
/// `off > at`): one slice cut and its two ends compared, not two reads checked each (the lazy
/// parser's repeat tests, at every position; callgrind as [`count_split`], level 9 over 512 KiB
/// streams: text 971.9 -> 965.0 M instructions a pass, float64 smooth 224.4 -> 222.4 M).
#[inline(always)]
fn repeats4(s: &[u8], at: usize, off: usize) -> bool {
    // An `off` past `at` wraps to a start past the end: `None`.
    match s.get(at.wrapping_sub(off)..at + 4) {
        Some(t) => t.first_chunk::<4>() == t.last_chunk::<4>(),
        None => false,
    }
}

/// libzstd's `kLazySkippingStep`.
const LAZY_SKIPPING_STEP: usize = 8;

/// One block parsed with lookahead `depth` (0 greedy, 1 lazy, 2 lazy2) over finder `c` of
/// `mls`-byte hashes, searching no closer than `read` bytes to the block's end.
pub(crate) fn lazy<S: Search>(
    w: &Window<'_>,
    c: &mut S,
    mls: u32,
    read: usize,
    depth: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    Build::Detect.run(Lazy { w, c, mls, read, depth, rep, store });
}

/// [`lazy`]'s parser and its finder, as [`Build::run`] compiles them for the CPU (x86-64-v3
/// where the CPU has it: BMI2's shifts and bit scans, as libzstd's `_bmi2` builds); the same
/// matches.
struct Lazy<'a, 'w, S> {
    w: &'a Window<'w>,
    c: &'a mut S,
    mls: u32,
    read: usize,
    depth: u32,
    rep: &'a mut [u32; 2],
    store: &'a mut Store,
}

impl<S: Search> Hot for Lazy<'_, '_, S> {
    type Output = ();

    #[inline(always)]
    fn run(self) {
        let Lazy { w, c, mls, read, depth, rep, store } = self;
        match mls {
            5 => lazy_n::<5, S>(w, c, read, depth, rep, store),
            6 => lazy_n::<6, S>(w, c, read, depth, rep, store),
            _ => lazy_n::<4, S>(w, c, read, depth, rep, store),
        }
    }
}

#[inline(always)]
fn lazy_n<const MLS: u32, S: Search>(
    w: &Window<'_>,
    c: &mut S,
    read: usize,
    depth: u32,
    rep: &mut [u32; 2],
    store: &mut Store,
) {
    let s = w.src;
    let end = w.end;
    let Some(limit) = w.limit_by(read, store) else {
        return;
    };
    let (mut off1, mut off2) = (rep[0], rep[1]);
    // Where each repeat offset becomes usable ([`Window::rep_from`]), kept beside it: a position's
    // repeat test is one compare, not three with `low` and `max_dist` reloaded (callgrind, level
    // 9 over float64 smooth 512 KiB streams, `zstd_own` with `ZSTD_OWN_ONLY=ours
    // ZSTD_OWN_PASSES=1` less the run with 0 passes: 240.1 -> 234.4 M instructions a pass).
    let usable = |r: u32| w.rep_from(r);
    let (mut from1, mut from2) = (usable(off1), usable(off2));
    let mut ip = w.first();
    let mut anchor = w.start;
    let hb = |o: u32| highbit(o) as i64;
    while ip < limit {
        let mut len = 0usize;
        let mut off = 0u32; // offset base: 1 the repeat offset, else offset + 3
        let mut start = ip + 1;
        if ip + 1 >= from1 && repeats4(s, ip + 1, off1 as usize) {
            len = count_split(s, ip + 5, ip + 5 - off1 as usize, end) + 4;
            off = 1;
        }
        if !(depth == 0 && len > 0) {
            let (l2, o2) = c.best::<MLS>(w, ip);
            if l2 > len {
                len = l2;
                off = o2;
                start = ip;
            }
            if len < 4 {
                let step = ((ip - anchor) >> SEARCH_STRENGTH) + 1;
                ip += step;
                c.skip::<MLS>(s, step > LAZY_SKIPPING_STEP);
                continue;
            }
            let mut d = 0;
            while d < depth && ip < limit {
                d += 1;
                ip += 1;
                let mut better = false;
                if off != 0 && ip >= from1 && repeats4(s, ip, off1 as usize) {
                    let ml_rep = count_split(s, ip + 4, ip + 4 - off1 as usize, end) + 4;
                    let gain2 = ml_rep as i64 * if d == 1 { 3 } else { 4 };
                    let gain1 = len as i64 * if d == 1 { 3 } else { 4 } - hb(off) + 1;
                    if ml_rep >= 4 && gain2 > gain1 {
                        len = ml_rep;
                        off = 1;
                        start = ip;
                    }
                }
                let (l2, o2) = c.best::<MLS>(w, ip);
                if l2 >= 4 {
                    let gain2 = l2 as i64 * 4 - hb(o2);
                    let gain1 = len as i64 * 4 - hb(off) + if d == 1 { 4 } else { 7 };
                    if gain2 > gain1 {
                        len = l2;
                        off = o2;
                        start = ip;
                        better = true;
                    }
                }
                if better {
                    d = 0;
                    continue;
                }
                if d == 1 && depth == 2 {
                    continue;
                }
                break;
            }
        }
        let dist;
        if off > 3 {
            dist = (off - 3) as usize;
            start = catch_up(w.src, w.low, start, start - dist, anchor, &mut len);
            off2 = off1;
            off1 = dist as u32;
            from2 = from1;
            from1 = usable(off1);
        } else {
            dist = off1 as usize;
        }
        c.skip::<MLS>(s, false);
        store.push_from(s, anchor, start, len, dist);
        ip = start + len;
        anchor = ip;
        while ip <= limit && ip >= from2 && repeats4(s, ip, off2 as usize) {
            let r = count_split(s, ip + 4, ip + 4 - off2 as usize, end) + 4;
            core::mem::swap(&mut off1, &mut off2);
            core::mem::swap(&mut from1, &mut from2);
            store.push(&[], r, off1 as usize);
            ip += r;
            anchor = ip;
        }
    }
    store.lits.extend_from_slice(&s[anchor..end]);
    *rep = [off1, off2];
}

#[cfg(test)]
mod tests {
    use super::{Chain, Search};
    use crate::codec::zstd::encode::match_fast::Window;
    use crate::codec::zstd::encode::matching::{count, hash_n};
    use crate::test_data::{finder_input, finder_max_dist, finder_steps, noise};
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The hash chain as a plain model: each hash's positions, newest first; the same inserts
    /// (all positions, or only the next one while skipping) and the same walk (newest first, at
    /// most `attempts`, ending out of the window or after the first position a chain of
    /// `chain` entries may have overwritten), without the ring, the heads or the stamps.
    struct Model {
        lists: Vec<Vec<usize>>,
        hash_log: u32,
        chain: usize,
        attempts: u32,
        next: usize,
        skipping: bool,
    }

    impl Model {
        fn put<const MLS: u32>(&mut self, s: &[u8], p: usize) {
            self.lists[hash_n::<MLS>(s, p, self.hash_log)].insert(0, p);
        }

        fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
            let s = w.src;
            if self.skipping {
                if self.next < ip {
                    self.put::<MLS>(s, self.next);
                }
            } else {
                (self.next..ip).for_each(|p| self.put::<MLS>(s, p));
            }
            self.next = self.next.max(ip);
            let low = w.low.max(ip.saturating_sub(w.max_dist));
            let min_chain = ip.saturating_sub(self.chain);
            let (mut ml, mut off) = (3, 0);
            let list = &self.lists[hash_n::<MLS>(s, ip, self.hash_log)];
            for &p in list.iter().take(self.attempts as usize) {
                if p < low || p >= ip {
                    break;
                }
                let l = count(s, ip, p, w.end);
                if l > ml {
                    (ml, off) = (l, (ip - p) as u32 + 3);
                    if ip + l == w.end {
                        break;
                    }
                }
                if p <= min_chain {
                    break;
                }
            }
            if off == 0 { (0, 0) } else { (ml, off) }
        }
    }

    fn walk<const MLS: u32>(
        s: &[u8],
        logs: (u32, u32, u32),
        max_dist: usize,
        steps: &[(usize, bool)],
        seed: u64,
    ) -> Result<(), TestCaseError> {
        let (hash_log, chain_log, search_log) = logs;
        // An earlier frame's entries: below the base.
        let base = 1u32 << 24;
        let junk = noise(4 << hash_log.max(chain_log), seed);
        let word =
            |i: usize| u32::from_le_bytes([junk[4 * i], junk[4 * i + 1], junk[4 * i + 2], junk[4 * i + 3]]);
        let mut head: Vec<u32> = (0..1usize << hash_log).map(|i| word(i) % base).collect();
        let mut prev: Vec<u32> = (0..1usize << chain_log).map(|i| word(i) % base).collect();
        let mut chain = Chain {
            head: &mut head,
            prev: &mut prev,
            hash_log,
            chain_mask: (1 << chain_log) - 1,
            attempts: 1 << search_log,
            base,
            next: 0,
            skipping: false,
        };
        let mut model = Model {
            lists: vec![Vec::new(); 1 << hash_log],
            hash_log,
            chain: 1 << chain_log,
            attempts: 1 << search_log,
            next: 0,
            skipping: false,
        };
        let w = Window { src: s, start: 0, end: s.len(), low: 0, max_dist, base };
        let limit = s.len().saturating_sub(8);
        let mut ip = 1;
        for &(step, skip) in steps.iter().cycle() {
            if ip >= limit {
                break;
            }
            chain.skip::<MLS>(s, skip);
            model.skipping = skip;
            let got = chain.best::<MLS>(&w, ip);
            let want = model.best::<MLS>(&w, ip);
            prop_assert_eq!(got, want, "position {}", ip);
            ip += step;
        }
        Ok(())
    }

    /// The repeat test is the compare of two 4-byte reads wherever both are in the source, and
    /// false for an offset past the position or a read past the end.
    #[test]
    fn repeats4_compares_the_four_bytes_an_offset_apart() {
        use crate::codec::zstd::encode::matching::read32;
        let s: Vec<u8> = noise(300, 5).iter().map(|b| b & 1).collect();
        for at in 0..s.len() + 2 {
            for off in 0..at + 3 {
                let want = off <= at && at + 4 <= s.len() && read32(&s, at) == read32(&s, at - off);
                assert_eq!(super::repeats4(&s, at, off), want, "at {at}, off {off}");
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// The chain finds what the model finds at every position searched: chains longer than
        /// their ring (its entries overwritten), hashes shared by other bytes, the skipping mode,
        /// windows shorter than the data, tables holding an earlier frame's entries. A walk not
        /// newest first, not stopped at the window or the ring's end, or a filter reading the
        /// wrong bytes finds other matches than the model's.
        #[test]
        fn the_chain_finds_what_the_model_finds(
            kind in 0u8..4,
            n in 100usize..5000,
            seed in any::<u64>(),
            hash_log in 4u32..12,
            chain_log in 1u32..10,
            search_log in 0u32..7,
            mls in 4u32..7,
            max_dist in finder_max_dist(),
            steps in finder_steps(),
        ) {
            let s = finder_input(kind, n, seed);
            let logs = (hash_log, chain_log, search_log);
            match mls {
                4 => walk::<4>(&s, logs, max_dist, &steps, seed)?,
                5 => walk::<5>(&s, logs, max_dist, &steps, seed)?,
                _ => walk::<6>(&s, logs, max_dist, &steps, seed)?,
            }
        }
    }
}
