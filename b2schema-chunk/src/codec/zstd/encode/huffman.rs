//! Huffman coding of literals (RFC 8878 §4.2): code lengths limited to 11 bits, the table's
//! description (FSE-compressed or direct 4-bit weights) and the streams (1 or 4), written
//! backward so that the decoder reads the first literal first.

use super::bits::write_bits;
use super::fse::{self, CTable};
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

    /// Appends one stream of `lits`.
    fn stream(&self, out: &mut Vec<u8>, lits: &[u8]) -> bool {
        // Each symbol's code and length in one entry: one load a symbol.
        let mut elt = [0u32; 256];
        for (s, e) in elt.iter_mut().enumerate().take(self.max_symbol + 1) {
            *e = u32::from(self.code[s]) << 8 | u32::from(self.len[s]);
        }
        write_bits(out, lits.len() * MAX_BITS as usize / 8 + 8, |w| {
            // Five codes of at most 11 bits a flush: 55 bits on top of the at most 7 held.
            let mut chunks = lits.rchunks_exact(5);
            for c in chunks.by_ref() {
                for &b in c.iter().rev() {
                    let e = elt[b as usize];
                    w.add_exact(u64::from(e >> 8), e & 255);
                }
                w.flush();
            }
            for &b in chunks.remainder().iter().rev() {
                let e = elt[b as usize];
                w.add_exact(u64::from(e >> 8), e & 255);
            }
        })
    }

    /// Appends `lits` as one stream, or four behind their jump table; `false` when a stream is
    /// too long for the jump table.
    pub(crate) fn encode(&self, out: &mut Vec<u8>, lits: &[u8], four: bool) -> bool {
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
