//! Huffman coding of literals (RFC 8878 §4.2): code lengths limited to 11 bits, the table's
//! description (FSE-compressed or direct 4-bit weights) and the streams (1 or 4), written
//! backward so that the decoder reads the first literal first.

use super::bits::write_bits;
use super::fse::{self, CTable};
use crate::codec::zstd::dispatch::{Build, Hot};
use alloc::vec::Vec;

/// The longest code (libzstd's `HUF_TABLELOG_DEFAULT`).
pub(crate) const MAX_BITS: u32 = 11;

/// A Huffman code: each symbol's code and length (0: absent), the largest symbol and the depth.
#[derive(Clone)]
pub(crate) struct HufCode {
    code: [u16; 256],
    pub(crate) len: [u8; 256],
    max_symbol: usize,
    log: u32,
}

impl HufCode {
    pub(crate) fn new() -> Self {
        HufCode { code: [0; 256], len: [0; 256], max_symbol: 0, log: 0 }
    }

    /// The code of `count` (at least two symbols present; `max_symbol` the largest).
    pub(crate) fn build(&mut self, count: &[u32; 256], max_symbol: usize) {
        let mut order: Vec<(u32, u8)> =
            (0..=max_symbol).filter(|&s| count[s] > 0).map(|s| (count[s], s as u8)).collect();
        order.sort_unstable();
        let n = order.len();
        let mut lens = tree_depths(&order);
        limit(&mut lens, MAX_BITS);
        self.len = [0; 256];
        let log = lens.iter().copied().max().unwrap_or(1);
        for (i, &(_, s)) in order.iter().enumerate() {
            self.len[s as usize] = lens[i];
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
        for s in 0..=self.max_symbol {
            if self.len[s] > 0 {
                ranks[(log + 1 - u32::from(self.len[s])) as usize] += 1;
            }
        }
        let mut start = [0u32; 13];
        let mut next = 0u32;
        for w in 1..=log as usize {
            start[w] = next;
            next += ranks[w] << (w - 1);
        }
        for s in 0..=self.max_symbol {
            let l = u32::from(self.len[s]);
            if l > 0 {
                let w = (log + 1 - l) as usize;
                self.code[s] = (start[w] >> (w - 1)) as u16;
                start[w] += 1 << (w - 1);
            }
        }
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

    /// Appends one stream of `lits`, as [`super::bits::write_bits`] would write their codes
    /// (the first literal's code last) with the end marker, but with libzstd's container
    /// (`HUF_CStream_t`): each code enters at the top of a 64-bit word that shifts right by its
    /// length, and a flush writes the word's top bits. Each symbol's code is kept at the top of
    /// a `u64` with its length in the low byte (`HUF_CElt`), so that a symbol costs one load, a
    /// shift, an `or` and an add: the length's byte in the container's low bits is never among
    /// the bits written while at most 60 are held, and the count of bits held is the low byte
    /// of the sum of the entries.
    #[inline(always)]
    fn stream(&self, out: &mut Vec<u8>, lits: &[u8]) -> bool {
        let mut elt = [0u64; 256];
        for (s, e) in elt.iter_mut().enumerate().take(self.max_symbol + 1) {
            let l = u32::from(self.len[s]);
            if l > 0 {
                *e = u64::from(self.code[s]) << (64 - l) | u64::from(l);
            }
        }
        let bound = lits.len() * MAX_BITS as usize / 8 + 8;
        let at = out.len();
        out.resize(at + bound + 8, 0);
        let buf = &mut out[..];
        let (mut pos, mut c, mut n) = (at, 0u64, 0u64);
        // Writes the whole bytes of the `n & 255` bits held (1 to 62: a flush follows codes),
        // the oldest first. A write past the end is skipped: the position only grows, so the
        // end checks it once.
        let mut flush = |c: u64, n: &mut u64| {
            let held = (*n & 255) as u32;
            if let Some(d) = buf.get_mut(pos..).and_then(<[u8]>::first_chunk_mut::<8>) {
                *d = (c >> (held.wrapping_neg() & 63)).to_le_bytes();
            }
            pos += (held >> 3) as usize;
            *n &= 7;
        };
        // Five codes of at most 11 bits a flush: 55 bits on top of the at most 7 held; the
        // fifth's length byte is cleared (up to 62 bits held then). Ten a round, the second
        // five in a container of their own then merged (libzstd's `HUF_mergeIndex1`), so that
        // the two chains of shifts run side by side.
        let mut tens = lits.rchunks_exact(10);
        for t in tens.by_ref() {
            for &b in t[6..].iter().rev() {
                let e = elt[b as usize];
                c = (c >> (e & 63)) | e;
                n = n.wrapping_add(e);
            }
            let e = elt[t[5] as usize];
            c = (c >> (e & 63)) | (e & !255);
            n = n.wrapping_add(e);
            flush(c, &mut n);
            let (mut c1, mut n1) = (0u64, 0u64);
            for &b in t[1..5].iter().rev() {
                let e = elt[b as usize];
                c1 = (c1 >> (e & 63)) | e;
                n1 = n1.wrapping_add(e);
            }
            let e = elt[t[0] as usize];
            c1 = (c1 >> (e & 63)) | (e & !255);
            n1 = n1.wrapping_add(e);
            c = (c >> (n1 & 63)) | c1;
            n = n.wrapping_add(n1);
            flush(c, &mut n);
        }
        for five in tens.remainder().rchunks(5) {
            for &b in five.iter().rev() {
                let e = elt[b as usize];
                c = (c >> (e & 63)) | (e & !255);
                n = n.wrapping_add(e);
            }
            flush(c, &mut n);
        }
        // The end marker: one 1 bit.
        c = (c >> 1) | 1 << 63;
        n = n.wrapping_add(1);
        flush(c, &mut n);
        if pos + 8 > out.len() {
            out.truncate(at);
            return false;
        }
        out.truncate(pos + usize::from(n & 7 > 0));
        true
    }

    /// Appends `lits` as one stream, or four behind their jump table; `false` when a stream is
    /// too long for the jump table.
    pub(crate) fn encode(&self, out: &mut Vec<u8>, lits: &[u8], four: bool) -> bool {
        self.encode_in(Build::Detect, out, lits, four)
    }

    /// [`HufCode::encode`] in `build`: the x86-64-v3 one where the CPU has it, as libzstd's
    /// `HUF_compress1X_usingCTable_internal_bmi2` (BMI2's `shrx`: the shift by each code's
    /// length needs no move to CL); the same bytes.
    fn encode_in(&self, build: Build, out: &mut Vec<u8>, lits: &[u8], four: bool) -> bool {
        build.run(Streams { code: self, out, lits, four })
    }

    #[inline(always)]
    fn encode_streams(&self, out: &mut Vec<u8>, lits: &[u8], four: bool) -> bool {
        if !four {
            return self.stream(out, lits);
        }
        let seg = lits.len().div_ceil(4);
        let table = out.len();
        out.extend_from_slice(&[0; 6]);
        for (i, part) in lits.chunks(seg).enumerate() {
            let at = out.len();
            if !self.stream(out, part) {
                return false;
            }
            if i < 3 {
                let Ok(size) = u16::try_from(out.len() - at) else {
                    return false;
                };
                out[table + 2 * i..table + 2 * i + 2].copy_from_slice(&size.to_le_bytes());
            }
        }
        // Fewer than four parts only when `lits` is tiny; never asked (four streams from 256).
        lits.len() >= 4
    }
}

/// The streams of [`HufCode::encode`], the loop [`Build::run`] compiles for the CPU.
struct Streams<'a> {
    code: &'a HufCode,
    out: &'a mut Vec<u8>,
    lits: &'a [u8],
    four: bool,
}

impl Hot for Streams<'_> {
    type Output = bool;

    #[inline(always)]
    fn run(self) -> bool {
        self.code.encode_streams(self.out, self.lits, self.four)
    }
}

/// The depths of a Huffman tree over `order` (counts ascending), by the two-queue method.
fn tree_depths(order: &[(u32, u8)]) -> Vec<u8> {
    let n = order.len();
    let mut weight: Vec<u64> = order.iter().map(|&(c, _)| u64::from(c)).collect();
    weight.resize(2 * n - 1, 0);
    let mut parent = alloc::vec![0usize; 2 * n - 1];
    let (mut leaf, mut inner) = (0usize, n);
    for k in n..2 * n - 1 {
        let mut pick = || {
            if leaf < n && (inner >= k || weight[leaf] <= weight[inner]) {
                leaf += 1;
                leaf - 1
            } else {
                inner += 1;
                inner - 1
            }
        };
        let (a, b) = (pick(), pick());
        weight[k] = weight[a] + weight[b];
        parent[a] = k;
        parent[b] = k;
    }
    let mut depth = alloc::vec![0u8; 2 * n - 1];
    for i in (0..2 * n - 2).rev() {
        depth[i] = depth[parent[i]].saturating_add(1);
    }
    depth.truncate(n);
    depth
}

/// Limits `lens` (of symbols by ascending count) to `max` bits, keeping the code complete.
fn limit(lens: &mut [u8], max: u32) {
    let max8 = max as u8;
    let cap = 1u64 << max;
    let unit = |l: u8| 1u64 << (max - u32::from(l));
    let mut kraft: u64 = 0;
    for l in lens.iter_mut() {
        *l = (*l).min(max8);
        kraft += unit(*l);
    }
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
                w.add(u64::from(code.code[b as usize]), u32::from(code.len[b as usize]));
                w.flush();
            }
        }));
        out
    }

    proptest! {
        /// Libzstd's container (codes entering at the top, two containers merged, lengths in
        /// the entries' low bytes) writes the plain writer's bytes, in both builds, one stream
        /// or four: codes of counts halving from symbol to symbol (lengths up to the 11-bit
        /// limit), literals drawn from the symbols with a code, mostly or evenly (most codes
        /// long then: rounds of 62 bits), of any length (every remainder of the rounds).
        #[test]
        fn the_huffman_streams_are_the_plain_writers_bytes(
            n in 256usize..3000,
            seed in any::<u64>(),
            symbols in 2usize..256,
            even in any::<bool>(),
        ) {
            let mut count = [0u32; 256];
            for (k, c) in count.iter_mut().take(symbols).enumerate() {
                *c = 1 + ((1u32 << 24) >> k.min(24));
            }
            let max_symbol = symbols - 1;
            let r = noise(n, seed);
            let lits: Vec<u8> = if even {
                r.iter().map(|&b| (usize::from(b) % symbols) as u8).collect()
            } else {
                r.iter().map(|&b| (u32::from(b).leading_zeros() - 24).min(max_symbol as u32) as u8).collect()
            };
            let mut code = HufCode::new();
            code.build(&count, max_symbol);
            for build in [Build::Detect, Build::Baseline] {
                let mut one = alloc::vec![9u8];
                prop_assert!(code.encode_in(build, &mut one, &lits, false));
                prop_assert_eq!(&one[1..], &plain_stream(&code, &lits)[..]);
                let mut four = Vec::new();
                prop_assert!(code.encode_in(build, &mut four, &lits, true));
                let seg = n.div_ceil(4);
                let mut want = alloc::vec![0u8; 6];
                for (i, part) in lits.chunks(seg).enumerate() {
                    let s = plain_stream(&code, part);
                    if i < 3 {
                        want[2 * i..2 * i + 2].copy_from_slice(&(s.len() as u16).to_le_bytes());
                    }
                    want.extend_from_slice(&s);
                }
                prop_assert_eq!(four, want);
            }
        }
    }
}
