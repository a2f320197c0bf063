//! FSE (tANS) on the encoder's side (RFC 8878 §4.1): normalized counts as libzstd's
//! `FSE_normalizeCount` computes them, their description (`FSE_writeNCount`), the compression
//! table (`FSE_buildCTable`) and the state steps, plus the cost estimates that choose a table.

use super::bits::BitWriter;
use alloc::vec::Vec;

/// The largest accuracy log of the encoder's tables (the sequences' 9; Huffman weights 6).
pub(crate) const MAX_LOG: u32 = 9;
const MIN_LOG: u32 = 5;

/// `floor(log2(v))` of a nonzero value.
#[inline(always)]
pub(crate) const fn highbit(v: u32) -> u32 {
    31 - (v | 1).leading_zeros()
}

/// libzstd's `FSE_optimalTableLog`.
pub(crate) fn optimal_log(max_log: u32, total: usize, max_symbol: usize) -> u32 {
    let total = total.min(u32::MAX as usize) as u32;
    let max_bits_src = highbit(total.saturating_sub(1).max(1)).saturating_sub(2);
    let min_bits = (highbit(total) + 1).min(highbit(max_symbol as u32) + 2);
    let mut log = max_log;
    if max_bits_src < log {
        log = max_bits_src;
    }
    if min_bits > log {
        log = min_bits;
    }
    log.clamp(MIN_LOG, max_log)
}

/// Normalizes `count` (symbols `0..count.len()`, `total` in all) to sum to `1 << log`, as
/// libzstd's `FSE_normalizeCount`: `None` when one symbol holds every count or no table fits.
pub(crate) fn normalize(
    norm: &mut [i16],
    count: &[u32],
    total: usize,
    log: u32,
    low_prob: bool,
) -> Option<()> {
    const RTB: [u64; 8] = [0, 473_195, 504_333, 520_860, 550_000, 700_000, 750_000, 830_000];
    let total = total as u64;
    if total == 0 {
        return None;
    }
    let low_count: i16 = if low_prob { -1 } else { 1 };
    let scale = 62 - u64::from(log);
    let step = (1u64 << 62) / total;
    let v_step = 1u64 << (scale - 20);
    let mut still: i64 = 1 << log;
    let low_threshold = total >> log;
    let (mut largest, mut largest_p) = (0usize, 0i16);
    for (s, &c) in count.iter().enumerate() {
        let c = u64::from(c);
        if c == total {
            return None;
        }
        if c == 0 {
            norm[s] = 0;
            continue;
        }
        if c <= low_threshold {
            norm[s] = low_count;
            still -= 1;
        } else {
            let mut p = (c * step) >> scale;
            if p < 8 {
                let rest_to_beat = v_step * RTB[p as usize];
                p += u64::from(c * step - (p << scale) > rest_to_beat);
            }
            let p = p as i16;
            if p > largest_p {
                largest_p = p;
                largest = s;
            }
            norm[s] = p;
            still -= i64::from(p);
        }
    }
    if -still >= i64::from(norm[largest] >> 1) {
        normalize_m2(norm, count, total, log, low_count)
    } else {
        norm[largest] += still as i16;
        Some(())
    }
}

/// libzstd's `FSE_normalizeM2`: the fallback when the largest symbol cannot absorb the rounding.
fn normalize_m2(norm: &mut [i16], count: &[u32], mut total: u64, log: u32, low_count: i16) -> Option<()> {
    const NOT_YET: i16 = -2;
    let mut distributed = 0u32;
    let low_threshold = total >> log;
    let mut low_one = (total * 3) >> (log + 1);
    for (s, &c) in count.iter().enumerate() {
        let c = u64::from(c);
        if c == 0 {
            norm[s] = 0;
        } else if c <= low_threshold {
            norm[s] = low_count;
            distributed += 1;
            total -= c;
        } else if c <= low_one {
            norm[s] = 1;
            distributed += 1;
            total -= c;
        } else {
            norm[s] = NOT_YET;
        }
    }
    let mut to_distribute = (1u32 << log).checked_sub(distributed)?;
    if to_distribute == 0 {
        return Some(());
    }
    if total / u64::from(to_distribute) > low_one {
        low_one = (total * 3) / (u64::from(to_distribute) * 2);
        for (s, &c) in count.iter().enumerate() {
            if norm[s] == NOT_YET && u64::from(c) <= low_one {
                norm[s] = 1;
                distributed += 1;
                total -= u64::from(c);
            }
        }
        to_distribute = (1u32 << log).checked_sub(distributed)?;
    }
    if distributed as usize == count.len() {
        let max = (0..count.len()).max_by_key(|&s| (count[s], core::cmp::Reverse(s)))?;
        norm[max] += to_distribute as i16;
        return Some(());
    }
    if total == 0 {
        let mut s = 0;
        while to_distribute > 0 {
            if norm[s] > 0 {
                to_distribute -= 1;
                norm[s] += 1;
            }
            s = (s + 1) % count.len();
        }
        return Some(());
    }
    let v_step_log = 62 - u64::from(log);
    let mid = (1u64 << (v_step_log - 1)) - 1;
    let r_step = ((1u64 << v_step_log) * u64::from(to_distribute) + mid) / total;
    let mut tmp = mid;
    for (s, &c) in count.iter().enumerate() {
        if norm[s] == NOT_YET {
            let end = tmp + u64::from(c) * r_step;
            let weight = (end >> v_step_log) - (tmp >> v_step_log);
            if weight < 1 {
                return None;
            }
            norm[s] = weight as i16;
            tmp = end;
        }
    }
    Some(())
}

/// Writes the description of `norm` (libzstd's `FSE_writeNCount`) to `out`.
pub(crate) fn write_ncount(out: &mut Vec<u8>, norm: &[i16], log: u32) {
    let mut acc: u64 = u64::from(log - MIN_LOG);
    let mut n = 4u32;
    let table = 1i32 << log;
    let mut remaining = table + 1;
    let mut threshold = table;
    let mut nb = log + 1;
    let mut s = 0usize;
    let mut previous0 = false;
    let flush16 = |out: &mut Vec<u8>, acc: &mut u64, n: &mut u32| {
        while *n >= 16 {
            out.extend_from_slice(&(*acc as u16).to_le_bytes());
            *acc >>= 16;
            *n -= 16;
        }
    };
    while s < norm.len() && remaining > 1 {
        if previous0 {
            let mut start = s;
            while s < norm.len() && norm[s] == 0 {
                s += 1;
            }
            if s == norm.len() {
                break;
            }
            while s >= start + 24 {
                start += 24;
                acc |= 0xFFFF << n;
                n += 16;
                flush16(out, &mut acc, &mut n);
            }
            while s >= start + 3 {
                start += 3;
                acc |= 3 << n;
                n += 2;
            }
            acc |= ((s - start) as u64) << n;
            n += 2;
            flush16(out, &mut acc, &mut n);
        }
        let c = i32::from(norm[s]);
        s += 1;
        let max = (2 * threshold - 1) - remaining;
        remaining -= c.abs();
        let mut v = c + 1;
        if v >= threshold {
            v += max;
        }
        acc |= (v as u64) << n;
        n += nb;
        n -= u32::from(v < max);
        previous0 = v == 1;
        while remaining < threshold {
            nb -= 1;
            threshold >>= 1;
        }
        flush16(out, &mut acc, &mut n);
    }
    while n > 0 {
        out.push(acc as u8);
        acc >>= 8;
        n = n.saturating_sub(8);
    }
}

/// One symbol's transform (libzstd's `FSE_symbolCompressionTransform`).
#[derive(Clone, Copy, Default)]
struct Transform {
    delta_nb_bits: u32,
    delta_find_state: i32,
}

/// The symbols a compression table codes: the sequences' codes (below 53) and the Huffman
/// weights (below 13); a symbol is taken modulo this (a const power of two: no bounds check).
const SYMBOLS: usize = 64;

/// A compression table: the next states and each symbol's transform.
#[derive(Clone)]
pub(crate) struct CTable {
    pub(crate) log: u32,
    states: [u16; 1 << MAX_LOG],
    symbols: [Transform; SYMBOLS],
}

impl CTable {
    pub(crate) fn new() -> Self {
        CTable { log: 0, states: [0; 1 << MAX_LOG], symbols: [Transform::default(); SYMBOLS] }
    }

    /// Builds the table of `norm` (as the decoder spreads it).
    pub(crate) fn build(&mut self, norm: &[i16], log: u32) {
        let size = 1usize << log;
        let mask = size - 1;
        debug_assert!(norm.len() <= SYMBOLS, "{} symbols in an FSE table", norm.len());
        let norm = &norm[..norm.len().min(SYMBOLS)];
        let mut spread = [0u8; 1 << MAX_LOG];
        let mut cumul = [0u32; SYMBOLS + 1];
        let mut high = size - 1;
        for (s, &c) in norm.iter().enumerate() {
            if c == -1 {
                cumul[s + 1] = cumul[s] + 1;
                spread[high] = s as u8;
                high = high.wrapping_sub(1);
            } else {
                cumul[s + 1] = cumul[s] + c.max(0) as u32;
            }
        }
        let step = (size >> 1) + (size >> 3) + 3;
        let mut pos = 0usize;
        for (s, &c) in norm.iter().enumerate() {
            for _ in 0..c.max(0) {
                spread[pos] = s as u8;
                pos = (pos + step) & mask;
                while pos > high {
                    pos = (pos + step) & mask;
                }
            }
        }
        for (u, &s) in spread[..size].iter().enumerate() {
            let at = &mut cumul[s as usize & (SYMBOLS - 1)];
            self.states[*at as usize & mask] = (size + u) as u16;
            *at += 1;
        }
        let mut total = 0i32;
        for (s, &c) in norm.iter().enumerate() {
            let t = &mut self.symbols[s];
            match c {
                0 => t.delta_nb_bits = ((log + 1) << 16) - (1 << log),
                -1 | 1 => {
                    t.delta_nb_bits = (log << 16) - (1 << log);
                    t.delta_find_state = total - 1;
                    total += 1;
                }
                c => {
                    let c = c as u32;
                    let max_bits_out = log - highbit(c - 1);
                    let min_state_plus = c << max_bits_out;
                    t.delta_nb_bits = (max_bits_out << 16).wrapping_sub(min_state_plus);
                    t.delta_find_state = total - c as i32;
                    total += c as i32;
                }
            }
        }
        self.log = log;
    }

    /// The first state, for the last symbol encoded (libzstd's `FSE_initCState2`).
    #[inline(always)]
    pub(crate) fn init(&self, s: u8) -> u32 {
        let t = self.symbols[s as usize & (SYMBOLS - 1)];
        let nb_out = (t.delta_nb_bits + (1 << 15)) >> 16;
        let value = (nb_out << 16).wrapping_sub(t.delta_nb_bits);
        let at = ((value >> nb_out) as i32 + t.delta_find_state) as usize;
        u32::from(self.states[at & ((1 << MAX_LOG) - 1)])
    }

    /// Encodes `s` from `state`.
    #[inline(always)]
    pub(crate) fn encode(&self, w: &mut BitWriter<'_>, state: &mut u32, s: u8) {
        let t = self.symbols[s as usize & (SYMBOLS - 1)];
        let nb_out = (*state + t.delta_nb_bits) >> 16;
        w.add(u64::from(*state), nb_out);
        let at = ((*state >> nb_out) as i32 + t.delta_find_state) as usize;
        *state = u32::from(self.states[at & ((1 << MAX_LOG) - 1)]);
    }

    /// Writes the final state.
    #[inline(always)]
    pub(crate) fn finish(&self, w: &mut BitWriter<'_>, state: u32) {
        w.add(u64::from(state), self.log);
    }
}

/// `log2(v)` in 1/256 bits (v nonzero).
const fn log2_fp(v: u32) -> u32 {
    let ip = highbit(v);
    let mut x = ((v as u64) << 16) >> ip;
    let mut frac = 0u32;
    let mut i = 0;
    while i < 8 {
        x = (x * x) >> 16;
        frac <<= 1;
        if x >= 2 << 16 {
            x >>= 1;
            frac |= 1;
        }
        i += 1;
    }
    ip << 8 | frac
}

/// [`log2_fp`] of every normalized count of a table (at most `1 << MAX_LOG`), computed once.
const LOG2_FP: [u32; (1 << MAX_LOG) + 1] = {
    let mut t = [0u32; (1 << MAX_LOG) + 1];
    let mut v = 1;
    while v < t.len() {
        t[v] = log2_fp(v as u32);
        v += 1;
    }
    t
};

/// [`log2_fp`] from [`LOG2_FP`] where it holds `v`.
#[inline(always)]
fn log2_fp_of(v: u32) -> u32 {
    match LOG2_FP.get(v as usize) {
        Some(&l) => l,
        None => log2_fp(v),
    }
}

/// The cost in 1/256 bits of coding `count` with the table of `norm` (accuracy `log`), `None`
/// when a counted symbol has no state in it.
pub(crate) fn table_cost(norm: &[i16], log: u32, count: &[u32]) -> Option<u64> {
    let mut bits = 0u64;
    for (s, &c) in count.iter().enumerate() {
        if c == 0 {
            continue;
        }
        let n = *norm.get(s)?;
        let n = match n {
            0 => return None,
            -1 => 1,
            n => n as u32,
        };
        bits += u64::from(c) * u64::from((log << 8) - log2_fp_of(n));
    }
    Some(bits)
}

impl CTable {
    /// The table of RLE mode: one symbol, no bits.
    pub(crate) fn build_rle(&mut self, s: u8) {
        self.log = 0;
        self.states[0] = 0;
        self.symbols[s as usize & (SYMBOLS - 1)] = Transform { delta_nb_bits: 0, delta_find_state: 0 };
    }
}
