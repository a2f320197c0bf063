//! Huffman coding of literals (RFC 8878 §4.2): code lengths limited to 11 bits, the table's
//! description (FSE-compressed or direct 4-bit weights) and the streams (1 or 4), written
//! backward so that the decoder reads the first literal first.

use super::bits::write_bits;
use super::fse::{self, CTable};
use crate::codec::zstd::dispatch::{Build, Hot};
use alloc::vec::Vec;

/// The longest code (libzstd's `HUF_TABLELOG_DEFAULT`).
pub(crate) const MAX_BITS: u32 = 11;

/// A Huffman code: each symbol's entry (below) and length (0: absent), the largest symbol and
/// the depth.
#[derive(Clone)]
pub(crate) struct HufCode {
    /// Each symbol's code at the top of a `u64`, its length in the low byte (libzstd's
    /// `HUF_CElt`), the form [`HufCode::encode`] reads; 0 for an absent symbol.
    elt: [u64; 256],
    pub(crate) len: [u8; 256],
    max_symbol: usize,
    log: u32,
}

impl HufCode {
    pub(crate) fn new() -> Self {
        HufCode { elt: [0; 256], len: [0; 256], max_symbol: 0, log: 0 }
    }

    /// The code of `count` (at least two symbols present; `max_symbol` the largest).
    pub(crate) fn build(&mut self, count: &[u32; 256], max_symbol: usize) {
        // The symbols present by count, then symbol, ascending: one `u64` key each.
        let mut keys = [0u64; 256];
        let mut n = 0;
        for (s, &c) in count.iter().enumerate().take(max_symbol + 1) {
            keys[n & 255] = u64::from(c) << 8 | s as u64;
            n += usize::from(c > 0);
        }
        let keys = &mut keys[..n.min(256)];
        sort_by_count(keys);
        let mut lens = [0u8; 256];
        let lens = &mut lens[..keys.len()];
        tree_depths(keys, lens);
        limit(lens, MAX_BITS);
        self.len = [0; 256];
        let log = lens.iter().copied().max().unwrap_or(1);
        for (&k, &l) in keys.iter().zip(lens.iter()) {
            self.len[(k & 255) as usize] = l;
        }
        debug_assert!(n >= 2);
        self.max_symbol = max_symbol;
        self.log = u32::from(log);
        self.assign_codes();
    }

    /// Canonical codes as the decoder lays them out: by weight (`log + 1 - len`) ascending,
    /// then by symbol.
    fn assign_codes(&mut self) {
        let log = self.log;
        let mut ranks = [0u32; 13];
        for &l in &self.len[..=self.max_symbol] {
            if l > 0 {
                ranks[(log + 1 - u32::from(l)) as usize] += 1;
            }
        }
        let mut start = [0u32; 13];
        let mut next = 0u32;
        for w in 1..=log as usize {
            start[w] = next;
            next += ranks[w] << (w - 1);
        }
        self.elt = [0; 256];
        for (e, &l) in self.elt.iter_mut().zip(&self.len[..=self.max_symbol]) {
            let l = u32::from(l);
            if l > 0 {
                let w = (log + 1 - l) as usize;
                let code = start[w] >> (w - 1);
                start[w] += 1 << (w - 1);
                *e = u64::from(code) << (64 - l) | u64::from(l);
            }
        }
    }

    /// The code of symbol `s` (its length in `len`).
    #[cfg(test)]
    fn code(&self, s: u8) -> u64 {
        let l = u32::from(self.len[s as usize]);
        if l == 0 { 0 } else { self.elt[s as usize] >> (64 - l) }
    }

    /// Whether every symbol of `count` has a code.
    pub(crate) fn covers(&self, count: &[u32; 256], max_symbol: usize) -> bool {
        max_symbol <= self.max_symbol && (0..=max_symbol).all(|s| count[s] == 0 || self.len[s] > 0)
    }

    /// The bits of `count`'s literals under this code.
    pub(crate) fn cost(&self, count: &[u32; 256], max_symbol: usize) -> usize {
        (0..=max_symbol).map(|s| count[s] as usize * usize::from(self.len[s])).sum()
    }

    /// Appends the table's description (RFC 8878 §4.2.1.1); `false` when it has none.
    pub(crate) fn write(&self, out: &mut Vec<u8>) -> bool {
        let count = self.max_symbol;
        let mut weights = [0u8; 256];
        for (s, w) in weights[..count].iter_mut().enumerate() {
            let l = u32::from(self.len[s]);
            *w = if l == 0 { 0 } else { (self.log + 1 - l) as u8 };
        }
        let at = out.len();
        out.push(0);
        if compress_weights(out, &weights[..count]) {
            let size = out.len() - at - 1;
            if size > 1 && size < count / 2 {
                out[at] = size as u8;
                return true;
            }
        }
        out.truncate(at);
        if count > 128 {
            return false;
        }
        out.push(127 + count as u8);
        for pair in weights[..count].chunks(2) {
            out.push(pair[0] << 4 | pair.get(1).copied().unwrap_or(0));
        }
        true
    }

    /// Writes one stream of `lits` into `buf` from `at` and returns its end, as
    /// [`super::bits::write_bits`] would write their codes (the first literal's code last) with
    /// the end marker, but with libzstd's container (`HUF_CStream_t`): each code enters at the
    /// top of a 64-bit word that shifts right by its length, and a flush writes the word's top
    /// bits (8 bytes, the whole ones held kept: `buf` needs no zeros). The entries ([`HufCode`]'s
    /// `elt`) make a symbol cost one load, a shift, an `or` and an add: the length's byte in the
    /// container's low bits is never among the bits written while at most 60 are held, and the
    /// count of bits held is the low byte of the sum of the entries. `K` codes a flush, as many
    /// as the depth allows ([`HufCode::stream_for_depth`]). `None` when `buf` is too short (no
    /// write past it).
    #[inline(always)]
    fn stream<const K: usize>(&self, buf: &mut [u8], at: usize, lits: &[u8]) -> Option<usize> {
        let elt = &self.elt;
        let (mut pos, mut c, mut n) = (at, 0u64, 0u64);
        // The bytes of the `n & 255` bits held (1 to 62: a flush follows codes), the oldest
        // first, at the start of `d`; how many whole ones.
        let put = |d: &mut [u8; 8], c: u64, n: u64| {
            let held = (n & 255) as u32;
            *d = (c >> (held.wrapping_neg() & 63)).to_le_bytes();
            (held >> 3) as usize
        };
        // `K` codes a flush: at most 60 bits held before the last (the length bytes, at most 11
        // in the low 4 bits, stay below the bits written), whose length byte is cleared (up to
        // 64 bits held then, at most 7 bytes written: 7 + 5 * 11 = 62, 7 + 6 * 9 = 61, 7 + 7 * 8
        // and 7 + 8 * 7 = 63, 7 + 9 * 6 = 61). `2 * K` a round, the second `K` in a container of
        // their own then merged (libzstd's `HUF_mergeIndex1`), so that the two chains of shifts
        // run side by side; the round's two flushes land in one 16-byte window, checked once.
        let mut tens = lits.rchunks_exact(2 * K);
        for t in tens.by_ref() {
            let win = buf.get_mut(pos..).and_then(<[u8]>::first_chunk_mut::<16>)?;
            for &b in t[K + 1..].iter().rev() {
                let e = elt[b as usize];
                c = (c >> (e & 63)) | e;
                n = n.wrapping_add(e);
            }
            let e = elt[t[K] as usize];
            c = (c >> (e & 63)) | (e & !255);
            n = n.wrapping_add(e);
            let (head, _) = win.split_first_chunk_mut::<8>()?;
            let k = put(head, c, n) & 7;
            n &= 7;
            let (mut c1, mut n1) = (0u64, 0u64);
            for &b in t[1..K].iter().rev() {
                let e = elt[b as usize];
                c1 = (c1 >> (e & 63)) | e;
                n1 = n1.wrapping_add(e);
            }
            let e = elt[t[0] as usize];
            c1 = (c1 >> (e & 63)) | (e & !255);
            n1 = n1.wrapping_add(e);
            c = (c >> (n1 & 63)) | c1;
            n = n.wrapping_add(n1);
            let (_, tail) = win.split_at_mut(k);
            let k2 = put(tail.first_chunk_mut::<8>()?, c, n);
            n &= 7;
            pos += k + k2;
        }
        let mut flush = |c: u64, n: &mut u64| {
            let d = buf.get_mut(pos..).and_then(<[u8]>::first_chunk_mut::<8>)?;
            pos += put(d, c, *n);
            *n &= 7;
            Some(())
        };
        for five in tens.remainder().rchunks(K) {
            for &b in five.iter().rev() {
                let e = elt[b as usize];
                c = (c >> (e & 63)) | (e & !255);
                n = n.wrapping_add(e);
            }
            flush(c, &mut n)?;
        }
        // The end marker: one 1 bit.
        c = (c >> 1) | 1 << 63;
        n = n.wrapping_add(1);
        flush(c, &mut n)?;
        Some(pos + usize::from(n & 7 > 0))
    }

    /// Appends `lits` as one stream, or four behind their jump table; `bits` at least the bits
    /// of their codes ([`HufCode::cost`]), the room the streams are given; `false` when a stream
    /// is too long for the jump table or the room too small.
    pub(crate) fn encode(&self, out: &mut Vec<u8>, lits: &[u8], four: bool, bits: usize) -> bool {
        self.encode_in(Build::Detect, out, lits, four, bits)
    }

    /// [`HufCode::encode`] in `build`: the x86-64-v3 one where the CPU has it, as libzstd's
    /// `HUF_compress1X_usingCTable_internal_bmi2` (BMI2's `shrx`: the shift by each code's
    /// length needs no move to CL); the same bytes.
    fn encode_in(&self, build: Build, out: &mut Vec<u8>, lits: &[u8], four: bool, bits: usize) -> bool {
        let at = out.len();
        // The jump table, each stream's codes, end marker and last partial byte, and the last
        // flush's 16-byte window.
        let room = 6 + bits / 8 + 4 * 2 + 16;
        out.resize(at + room, 0);
        let end = build.run(Streams { code: self, buf: &mut out[..], at, lits, four });
        match end {
            Some(end) => {
                out.truncate(end);
                true
            }
            None => {
                out.truncate(at);
                false
            }
        }
    }

    /// [`HufCode::stream`] with as many codes a flush as the depth allows (libzstd's
    /// `kUnroll` in `HUF_compress1X_usingCTable_internal_body`): fewer flushes for shallow codes.
    #[inline(always)]
    fn stream_for_depth(&self, buf: &mut [u8], at: usize, lits: &[u8]) -> Option<usize> {
        match self.log {
            0..=6 => self.stream::<9>(buf, at, lits),
            7 => self.stream::<8>(buf, at, lits),
            8 => self.stream::<7>(buf, at, lits),
            9 => self.stream::<6>(buf, at, lits),
            _ => self.stream::<5>(buf, at, lits),
        }
    }

    /// The streams from `at` in `buf` (and the jump table before four); their end.
    #[inline(always)]
    fn encode_streams(&self, buf: &mut [u8], at: usize, lits: &[u8], four: bool) -> Option<usize> {
        if !four {
            return self.stream_for_depth(buf, at, lits);
        }
        // Fewer than four parts only when `lits` is tiny; never asked (four streams from 256).
        if lits.len() < 4 {
            return None;
        }
        let seg = lits.len().div_ceil(4);
        let mut pos = at + 6;
        for (i, part) in lits.chunks(seg).enumerate() {
            let end = self.stream_for_depth(buf, pos, part)?;
            if i < 3 {
                let size = u16::try_from(end - pos).ok()?;
                buf.get_mut(at + 2 * i..at + 2 * i + 2)?.copy_from_slice(&size.to_le_bytes());
            }
            pos = end;
        }
        Some(pos)
    }
}

/// The streams of [`HufCode::encode`], the loop [`Build::run`] compiles for the CPU.
struct Streams<'a> {
    code: &'a HufCode,
    buf: &'a mut [u8],
    at: usize,
    lits: &'a [u8],
    four: bool,
}

impl Hot for Streams<'_> {
    type Output = Option<usize>;

    #[inline(always)]
    fn run(self) -> Option<usize> {
        self.code.encode_streams(self.buf, self.at, self.lits, self.four)
    }
}

/// The depths (into `depth`, as long) of a Huffman tree over `keys` (count `<< 8 |` symbol,
/// ascending), by the two-queue method; the nodes in arrays of 512 (at most 511 nodes) indexed
/// through a mask.
fn tree_depths(keys: &[u64], depth: &mut [u8]) {
    const NODES: usize = 512;
    const M: usize = NODES - 1;
    let n = keys.len().min(256);
    if n < 2 {
        depth.fill(0);
        return;
    }
    let mut weight = [0u64; NODES];
    for (w, &k) in weight.iter_mut().zip(keys) {
        *w = k >> 8;
    }
    let mut parent = [0u16; NODES];
    let (mut leaf, mut inner) = (0usize, n);
    for k in n..2 * n - 1 {
        let mut pick = || {
            if leaf < n && (inner >= k || weight[leaf & M] <= weight[inner & M]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (pick(), pick());
        weight[k & M] = weight[a & M] + weight[b & M];
        parent[a & M] = k as u16;
        parent[b & M] = k as u16;
    }
    let mut d = [0u8; NODES];
    for i in (0..2 * n - 2).rev() {
        d[i & M] = d[usize::from(parent[i & M]) & M].saturating_add(1);
    }
    for (o, &x) in depth.iter_mut().zip(&d[..n]) {
        *o = x;
    }
}

/// Sorts `keys` (count `<< 8 |` symbol, in ascending symbol order, at most 256) ascending, as
/// `sort_unstable` would (the keys are distinct): a stable radix sort on the count, a byte a
/// pass, as many passes as the largest count has bytes (2 for a 16 KiB stream). A tenth of the
/// instructions of `sort_unstable` on 256 keys, which took 8 % of zstd level 1 on 16 KiB
/// streams of bytedelta'd floats (callgrind). Fewer than 64 keys: `sort_unstable`.
fn sort_by_count(keys: &mut [u64]) {
    let n = keys.len().min(256);
    if n < 64 {
        // Few symbols (text): a pass's 256 buckets cost more than the sort.
        keys.sort_unstable();
        return;
    }
    let most = keys.iter().map(|&k| k >> 8).max().unwrap_or(0);
    let (mut a, mut b) = ([0u64; 256], [0u64; 256]);
    a[..n].copy_from_slice(&keys[..n]);
    let mut shift = 8;
    while shift < 64 && most >> (shift - 8) != 0 {
        let mut start = [0u16; 256];
        for &k in &a[..n] {
            start[((k >> shift) & 255) as usize] += 1;
        }
        let mut at = 0u16;
        for s in start.iter_mut() {
            (*s, at) = (at, at + *s);
        }
        for &k in &a[..n] {
            let d = ((k >> shift) & 255) as usize;
            b[usize::from(start[d]) & 255] = k;
            start[d] += 1;
        }
        core::mem::swap(&mut a, &mut b);
        shift += 8;
    }
    keys[..n].copy_from_slice(&a[..n]);
}

/// Limits `lens` (of symbols by ascending count) to `max` bits, keeping the code complete.
fn limit(lens: &mut [u8], max: u32) {
    let max8 = max as u8;
    let unit = |l: u8| 1u64 << (max - u32::from(l));
    let mut kraft: u64 = 0;
    for l in lens.iter_mut() {
        *l = (*l).min(max8);
        kraft += unit(*l);
    }
    if max <= 15 && lens.windows(2).all(|w| w[0] >= w[1]) {
        limit_runs(lens, max8, kraft);
    } else {
        limit_scanning(lens, max8, kraft);
    }
}

/// The steps of [`limit`] on `lens` clamped to `max8`, whose Kraft sum is `kraft`, for lengths
/// in any order: each step scans `lens` for the code to change.
fn limit_scanning(lens: &mut [u8], max8: u8, mut kraft: u64) {
    let max = u32::from(max8);
    let cap = 1u64 << max;
    let unit = |l: u8| 1u64 << (max - u32::from(l));
    while kraft > cap {
        // Lengthen the least frequent of the longest codes below the limit.
        let Some(longest) = lens.iter().copied().filter(|&l| l < max8).max() else {
            return;
        };
        let Some(i) = lens.iter().position(|&l| l == longest) else {
            return;
        };
        kraft -= unit(lens[i]) / 2;
        lens[i] += 1;
    }
    while kraft < cap {
        // Shorten the most frequent of the longest codes (the smallest step).
        let Some(longest) = lens.iter().copied().max() else {
            return;
        };
        let Some(i) = lens.iter().rposition(|&l| l == longest) else {
            return;
        };
        if longest <= 1 || kraft + unit(longest) > cap {
            return;
        }
        kraft += unit(longest);
        lens[i] -= 1;
    }
}

/// [`limit`] of `lens` in non-increasing order (the tree's depths of symbols by ascending
/// count), each at most `max` (at most 15), whose Kraft sum (in units of `2^-max`) is `kraft`:
/// the same lengths, found from the count of each length instead of scanning `lens` at every
/// step (the first of a run of equal lengths sits after the longer ones, the last before the
/// shorter). Steps scanning 256 lengths each were 8 % of the literals' encoding.
fn limit_runs(lens: &mut [u8], max8: u8, mut kraft: u64) {
    let cap = 1u64 << max8;
    let unit = |l: usize| 1u64 << (usize::from(max8) - l);
    let top = usize::from(max8);
    let mut count = [0usize; 16];
    for &l in lens.iter() {
        count[usize::from(l) & 15] += 1;
    }
    while kraft > cap {
        // Lengthen the least frequent of the longest codes below the limit: the first of them.
        let Some(longest) = (0..top).rev().find(|&l| count[l] > 0) else {
            return;
        };
        let i: usize = count[longest + 1..=top].iter().sum();
        kraft -= unit(longest) / 2;
        lens[i] += 1;
        count[longest] -= 1;
        count[longest + 1] += 1;
    }
    while kraft < cap {
        // Shorten the most frequent of the longest codes: the last of them.
        let Some(longest) = (0..=top).rev().find(|&l| count[l] > 0) else {
            return;
        };
        if longest <= 1 || kraft + unit(longest) > cap {
            return;
        }
        kraft += unit(longest);
        lens[count[longest] - 1] -= 1;
        count[longest] -= 1;
        count[longest - 1] += 1;
    }
}

/// Appends `weights` FSE-compressed (accuracy at most 6, two interleaved states), as libzstd's
/// `HUF_compressWeights`; `false` when that does not apply.
fn compress_weights(out: &mut Vec<u8>, weights: &[u8]) -> bool {
    let n = weights.len();
    if n <= 2 {
        return false;
    }
    let mut count = [0u32; 13];
    for &w in weights {
        count[w as usize] += 1;
    }
    let max_symbol = count.iter().rposition(|&c| c > 0).unwrap_or(0);
    let max_count = count.iter().copied().max().unwrap_or(0) as usize;
    if max_count == n || max_count == 1 {
        return false;
    }
    let log = fse::optimal_log(6, n, max_symbol);
    let mut norm = [0i16; 13];
    if fse::normalize(&mut norm[..=max_symbol], &count[..=max_symbol], n, log, false).is_none() {
        return false;
    }
    fse::write_ncount(out, &norm[..=max_symbol], log);
    let mut t = CTable::new();
    t.build(&norm[..=max_symbol], log);
    write_bits(out, n + 8, |w| {
        let mut rest = weights;
        let (mut s1, mut s2);
        if n % 2 == 1 {
            s1 = t.init(rest[n - 1]);
            s2 = t.init(rest[n - 2]);
            t.encode(w, &mut s1, rest[n - 3]);
            rest = &rest[..n - 3];
        } else {
            s2 = t.init(rest[n - 1]);
            s1 = t.init(rest[n - 2]);
            rest = &rest[..n - 2];
        }
        w.flush();
        for pair in rest.rchunks_exact(2) {
            t.encode(w, &mut s2, pair[1]);
            t.encode(w, &mut s1, pair[0]);
            w.flush();
        }
        t.finish(w, s2);
        t.finish(w, s1);
    })
}

#[cfg(test)]
mod tests {
    use super::{Build, HufCode, write_bits};
    use crate::test_data::noise;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// The stream of `lits` through the plain bit writer: each code appended low bits first, the
    /// last literal's first, a flush after each, the end marker.
    fn plain_stream(code: &HufCode, lits: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        assert!(write_bits(&mut out, lits.len() * 2 + 8, |w| {
            for &b in lits.iter().rev() {
                w.add(code.code(b), u32::from(code.len[b as usize]));
                w.flush();
            }
        }));
        out
    }

    /// The check of the property below: `symbols` codes of counts halving from symbol to
    /// symbol, `n` literals drawn (`mode`) evenly, mostly the first, or from the three deepest.
    fn same_bytes_as_the_plain_writer(n: usize, seed: u64, symbols: usize, mode: u8) {
        let mut count = [0u32; 256];
        for (k, c) in count.iter_mut().take(symbols).enumerate() {
            *c = 1 + ((1u32 << 24) >> k.min(24));
        }
        let max_symbol = symbols - 1;
        let r = noise(n, seed);
        let lits: Vec<u8> = match mode {
            0 => r.iter().map(|&b| (usize::from(b) % symbols) as u8).collect(),
            1 => {
                r.iter().map(|&b| (u32::from(b).leading_zeros() - 24).min(max_symbol as u32) as u8).collect()
            }
            // The three deepest codes only (two of the depth, one shorter: the bits held
            // before a flush take every value): flushes as full as the depth allows.
            _ => r.iter().map(|&b| (max_symbol - usize::from(b % 3).min(max_symbol)) as u8).collect(),
        };
        let mut code = HufCode::new();
        code.build(&count, max_symbol);
        // The room the literals section gives: the codes' bits, exactly.
        let mut hist = [0u32; 256];
        for &b in &lits {
            hist[b as usize] += 1;
        }
        let bits = code.cost(&hist, max_symbol);
        for build in [Build::Detect, Build::Baseline] {
            let mut one = alloc::vec![9u8];
            assert!(code.encode_in(build, &mut one, &lits, false, bits));
            assert_eq!(&one[1..], &plain_stream(&code, &lits)[..]);
            let mut four = Vec::new();
            assert!(code.encode_in(build, &mut four, &lits, true, bits));
            let seg = n.div_ceil(4);
            let mut want = alloc::vec![0u8; 6];
            for (i, part) in lits.chunks(seg).enumerate() {
                let s = plain_stream(&code, part);
                if i < 3 {
                    want[2 * i..2 * i + 2].copy_from_slice(&(s.len() as u16).to_le_bytes());
                }
                want.extend_from_slice(&s);
            }
            assert_eq!(four, want);
        }
    }

    /// Every depth up to the limit, its flushes full: each count of codes a flush (5 to 9) at
    /// the edge of the container.
    #[test]
    fn every_depth_fills_its_flushes() {
        for symbols in 2..=13 {
            same_bytes_as_the_plain_writer(1000 + symbols, symbols as u64, symbols, 2);
        }
    }

    proptest! {
        /// Libzstd's container (codes entering at the top, two containers merged, lengths in
        /// the entries' low bytes) writes the plain writer's bytes, in both builds, one stream
        /// or four: codes of counts halving from symbol to symbol (lengths up to the 11-bit
        /// limit), literals drawn from the symbols with a code, mostly, evenly (most codes
        /// long then) or from the three deepest (full flushes), of any length (every remainder of the rounds); half the
        /// cases of at most 12 symbols (each depth, so each count of codes a flush, often); the
        /// streams' room no more than their codes' bits need.
        #[test]
        fn the_huffman_streams_are_the_plain_writers_bytes(
            n in 256usize..3000,
            seed in any::<u64>(),
            symbols in prop_oneof![2usize..13, 2usize..256],
            mode in 0u8..3,
        ) {
            same_bytes_as_the_plain_writer(n, seed, symbols, mode);
        }

        /// The radix sort by count is `sort_unstable` of the keys (count `<< 8 |` symbol, in
        /// symbol order): counts of every size (one to three bytes, ties), 2 to 256 symbols.
        #[test]
        fn keys_sorted_by_count_are_the_keys_sorted(
            counts in prop::collection::vec(prop_oneof![0u32..4, 0u32..300, 0u32..70_000, 0u32..(1 << 26)], 2..=256),
        ) {
            let keys: Vec<u64> = counts.iter().enumerate().map(|(s, &c)| u64::from(c) << 8 | s as u64).collect();
            let mut want = keys.clone();
            want.sort_unstable();
            let mut got = keys;
            super::sort_by_count(&mut got);
            prop_assert_eq!(got, want);
        }

        /// Lengths limited by counts of each length are those limited by scanning them, for
        /// the depths of Huffman trees over any counts (2 to 256 symbols, deep trees from
        /// counts spread over many octaves) and for any non-increasing lengths.
        #[test]
        fn limits_by_runs_are_limits_by_scanning(
            counts in prop::collection::vec(prop_oneof![1u32..4, 1u32..1000, 1u32..(1 << 24)], 2..=256),
            raw in prop::collection::vec(1u8..20, 1..=256),
            max in prop_oneof![Just(11u32), 1u32..=15],
        ) {
            let mut keys: Vec<u64> = counts.iter().enumerate().map(|(s, &c)| u64::from(c) << 8 | s as u64).collect();
            keys.sort_unstable();
            let mut depths = alloc::vec![0u8; keys.len()];
            super::tree_depths(&keys, &mut depths);
            let mut sorted = raw;
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            for lens in [depths, sorted] {
                let max8 = max as u8;
                let clamped: Vec<u8> = lens.iter().map(|&l| l.min(max8)).collect();
                let kraft: u64 = clamped.iter().map(|&l| 1u64 << (max - u32::from(l))).sum();
                let (mut runs, mut scanned) = (clamped.clone(), clamped);
                super::limit_runs(&mut runs, max8, kraft);
                super::limit_scanning(&mut scanned, max8, kraft);
                prop_assert_eq!(&runs, &scanned, "lens {:?}, max {}", lens, max);
            }
        }
    }
}
