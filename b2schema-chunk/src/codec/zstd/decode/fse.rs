//! FSE (tANS) tables (RFC 8878 §4.1): the normalized counts of a table description, the
//! decoding table they spread to, and the sequence tables of literal lengths, match lengths and
//! offsets with each symbol's base value and extra bits folded into its entries.

/// The largest accuracy log of any FSE table (match lengths, literal lengths).
pub(crate) const MAX_LOG: u32 = 9;

/// Reads a table description (normalized counts) from the start of `src`: the counts of symbols
/// 0..=`max_symbol` (`-1` for "less than one"), the accuracy log and the bytes read. Follows
/// RFC 8878 §4.1.1 and libzstd's `FSE_readNCount` (the same inputs are refused).
pub(crate) fn read_ncount(
    src: &[u8],
    norm: &mut [i16; 256],
    max_symbol: usize,
    max_log: u32,
) -> Result<(u32, usize), &'static str> {
    // A forward reader with zero padding past the end; bytes past the end found below.
    let bits = |at: usize| -> u32 {
        let i = at >> 3;
        let mut b = [0u8; 4];
        for (k, x) in b.iter_mut().enumerate() {
            *x = src.get(i + k).copied().unwrap_or(0);
        }
        u32::from_le_bytes(b) >> (at & 7)
    };
    if src.is_empty() {
        return Err("an FSE table description");
    }
    let log = (src[0] & 15) as u32 + 5;
    if log > max_log {
        return Err("an FSE table accuracy log within the limit of its table");
    }
    let mut at = 4usize;
    let mut remaining: i32 = (1 << log) + 1;
    let mut threshold: i32 = 1 << log;
    let mut nbits = log + 1;
    let mut symbol = 0usize;
    let mut previous0 = false;
    norm.fill(0);
    while remaining > 1 && symbol <= max_symbol {
        if previous0 {
            loop {
                let r = bits(at) & 3;
                at += 2;
                symbol += r as usize;
                if r != 3 {
                    break;
                }
                if symbol > max_symbol {
                    return Err("FSE table zero-repeat flags within the symbol range");
                }
            }
            if symbol > max_symbol {
                return Err("FSE table zero-repeat flags within the symbol range");
            }
            if at > src.len() * 8 + 32 {
                return Err("an FSE table description within its block");
            }
        }
        let max = 2 * threshold - 1 - remaining;
        let v = bits(at) as i32;
        let mut count;
        if (v & (threshold - 1)) < max {
            count = v & (threshold - 1);
            at += nbits as usize - 1;
        } else {
            count = v & (2 * threshold - 1);
            if count >= threshold {
                count -= max;
            }
            at += nbits as usize;
        }
        count -= 1;
        remaining -= count.abs();
        norm[symbol] = count as i16;
        symbol += 1;
        previous0 = count == 0;
        if remaining < threshold {
            if remaining <= 1 {
                break;
            }
            nbits = 32 - (remaining as u32).leading_zeros();
            threshold = 1 << (nbits - 1);
        }
    }
    if remaining != 1 {
        return Err("FSE table counts that add up to the table size");
    }
    let read = at.div_ceil(8);
    if read > src.len() {
        return Err("an FSE table description within its block");
    }
    Ok((log, read))
}

/// Spreads the counts to the symbol of each state (`symbols[..1 << log]`) and sets `next[s]`
/// to the first state number of each symbol (its count, 1 for "less than one").
///
/// The same table as RFC 8878 §4.1.1's walk (which skips the positions kept for "less than one"
/// symbols, and so branches once per symbol and per skip), with a branch only for counts over
/// eight: as libzstd's `FSE_buildDTable_internal` lays symbols down for tables without "less
/// than one" symbols, here for all tables, the symbols are first written in order, eight bytes
/// at a time; the "less than one" symbols are written from the table's end down (each symbol is
/// written at the next free position there, which only a "less than one" one keeps); then the
/// walk visits every position, writing the next symbol in order at positions below the kept
/// ones and into the spare last byte of `symbols` at the others.
fn spread(norm: &[i16], log: u32, symbols: &mut Symbols, next: &mut [u32; 256]) -> Result<(), &'static str> {
    const M: usize = (1 << MAX_LOG) - 1;
    let size = 1usize << log;
    // The symbols of positive count, in order (then at most 7 bytes past them).
    let mut sorted = [0u8; (1 << MAX_LOG) + 8];
    let mut valid = 0usize;
    let mut lows = 0usize;
    for (s, &c) in norm.iter().enumerate() {
        let low = c == -1;
        next[s & 255] = if low { 1 } else { c.max(0) as u32 };
        symbols[size.wrapping_sub(lows + 1) & M] = s as u8;
        lows += usize::from(low);
        let run = [s as u8; 8];
        let c = c.max(0) as usize;
        // Eight bytes whatever the count (the next symbol's overwrite those past it).
        let Some(d) = sorted.get_mut(valid..valid + 8) else {
            return Err(SPREAD);
        };
        d.copy_from_slice(&run);
        let mut i = 8;
        while i < c {
            let Some(d) = sorted.get_mut(valid + i..valid + i + 8) else {
                return Err(SPREAD);
            };
            d.copy_from_slice(&run);
            i += 8;
        }
        valid += c;
    }
    if valid + lows != size {
        return Err(SPREAD);
    }
    let step = (size >> 1) + (size >> 3) + 3;
    let mask = size - 1;
    let mut pos = 0usize;
    let mut j = 0usize;
    // Four positions a round (tables have 32 states at least), computed each from `pos`.
    for _ in 0..size / 4 {
        let p = [pos, (pos + step) & mask, (pos + 2 * step) & mask, (pos + 3 * step) & mask];
        for q in p {
            let keep = q < valid;
            symbols[if keep { q } else { 1 << MAX_LOG }] = sorted[j & M];
            j += usize::from(keep);
        }
        pos = (pos + 4 * step) & mask;
    }
    Ok(())
}

/// The symbol of each state, and a spare byte ([`spread`]).
type Symbols = [u8; (1 << MAX_LOG) + 1];

const SPREAD: &str = "FSE table counts that spread over the whole table";

/// The number of bits and the next state's base for a state whose symbol's counter is `n`.
#[inline(always)]
fn transition(n: u32, log: u32) -> (u32, u16) {
    let nb = log - (31 - (n | 1).leading_zeros());
    (nb, ((n << nb) as usize).wrapping_sub(1 << log) as u16)
}

/// An FSE decoding table of plain symbols (the Huffman weights).
#[derive(Clone)]
pub(crate) struct SymbolTable {
    /// `symbol | nb_bits << 8 | base << 16` per state.
    pub(crate) entries: [u32; 1 << 6],
}

impl SymbolTable {
    pub(crate) fn build(norm: &[i16], log: u32) -> Result<Self, &'static str> {
        let mut t = SymbolTable { entries: [0; 1 << 6] };
        let mut symbols = [0u8; (1 << MAX_LOG) + 1];
        let mut next = [0u32; 256];
        spread(norm, log, &mut symbols, &mut next)?;
        for (state, &s) in symbols[..1 << log].iter().enumerate() {
            let n = next[s as usize];
            next[s as usize] += 1;
            let (nb, base) = transition(n, log);
            t.entries[state & 63] = u32::from(s) | nb << 8 | u32::from(base) << 16;
        }
        Ok(t)
    }
}

/// One state of a sequence table: the base value and extra bits of its symbol, and the
/// transition to the next state.
#[derive(Clone, Copy, Default)]
pub(crate) struct SeqEntry {
    pub(crate) base: u32,
    pub(crate) next: u16,
    pub(crate) nb_bits: u8,
    pub(crate) extra: u8,
}

/// The sequence decoding tables of a frame in one array, so that the decoding loop holds one
/// base address: the literal length, offset and match length tables (slots 0, 1, 2) and the
/// predefined ones (slots 3, 4, 5). States are indices into the whole array.
#[derive(Clone)]
pub(crate) struct SeqTables {
    pub(crate) entries: [SeqEntry; SEQ_ENTRIES],
    /// The accuracy log of each slot.
    pub(crate) log: [u32; 6],
}

/// Entries of [`SeqTables`] (a power of two: states are masked with `SEQ_ENTRIES - 1`).
pub(crate) const SEQ_ENTRIES: usize = 2048;

/// Where each slot of [`SeqTables`] starts.
pub(crate) const SLOT_AT: [usize; 6] = [0, 512, 1024, 1536, 1600, 1632];

use crate::codec::zstd::tables::{LL_BASE, LL_BITS, LL_DEFAULT, ML_BASE, ML_BITS, ML_DEFAULT, OF_DEFAULT};

/// Which of the three sequence tables (RFC 8878 §3.1.1.3.2.1).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    LiteralLengths,
    Offsets,
    MatchLengths,
}

impl Kind {
    /// The largest symbol and accuracy log of the table.
    pub(crate) fn limits(self) -> (usize, u32) {
        match self {
            Kind::LiteralLengths => (35, 9),
            Kind::Offsets => (31, 8),
            Kind::MatchLengths => (52, 9),
        }
    }

    fn symbol(self, s: u8) -> (u32, u8) {
        match self {
            Kind::LiteralLengths => (LL_BASE[s as usize % 36], LL_BITS[s as usize % 36]),
            Kind::MatchLengths => (ML_BASE[s as usize % 53], ML_BITS[s as usize % 53]),
            // Offset code n: 2^n + n extra bits (the offset value, repeat codes included).
            Kind::Offsets => (1u32 << (s & 31), s & 31),
        }
    }
}

impl Kind {
    /// The slot of the table of this kind in [`SeqTables`] (plus 3: the predefined one).
    pub(crate) fn slot(self) -> usize {
        match self {
            Kind::LiteralLengths => 0,
            Kind::Offsets => 1,
            Kind::MatchLengths => 2,
        }
    }
}

impl SeqTables {
    /// Empty tables but the predefined ones.
    pub(crate) fn new() -> Self {
        let mut t = SeqTables { entries: [SeqEntry::default(); SEQ_ENTRIES], log: [0; 6] };
        let r = [
            t.build(3, Kind::LiteralLengths, &LL_DEFAULT, 6),
            t.build(4, Kind::Offsets, &OF_DEFAULT, 5),
            t.build(5, Kind::MatchLengths, &ML_DEFAULT, 6),
        ];
        debug_assert!(r.iter().all(Result::is_ok));
        t
    }

    /// Builds the table of `slot` (at most 512 states, 64 for the predefined slots).
    pub(crate) fn build(
        &mut self,
        slot: usize,
        kind: Kind,
        norm: &[i16],
        log: u32,
    ) -> Result<(), &'static str> {
        let at = SLOT_AT[slot % 6];
        self.log[slot % 6] = log;
        let mut symbols = [0u8; (1 << MAX_LOG) + 1];
        let mut next = [0u32; 256];
        spread(norm, log, &mut symbols, &mut next)?;
        // Each symbol's entry but for the transition, copied to its states.
        let mut info = [SeqEntry::default(); 64];
        for (s, x) in info.iter_mut().enumerate().take(norm.len()) {
            let (base, extra) = kind.symbol(s as u8);
            *x = SeqEntry { base, next: 0, nb_bits: 0, extra };
        }
        for (e, &s) in self.entries[at..].iter_mut().zip(&symbols[..1 << log]) {
            let n = next[s as usize];
            next[s as usize] = n + 1;
            let (nb, next_state) = transition(n, log);
            *e = SeqEntry {
                next: next_state.wrapping_add(at as u16),
                nb_bits: nb as u8,
                ..info[s as usize & 63]
            };
        }
        Ok(())
    }

    /// The table of a single symbol (RLE mode) in `slot`.
    pub(crate) fn rle(&mut self, slot: usize, kind: Kind, s: u8) {
        let (base, extra) = kind.symbol(s);
        let at = SLOT_AT[slot % 6];
        self.log[slot % 6] = 0;
        self.entries[at] = SeqEntry { base, next: at as u16, nb_bits: 0, extra };
    }

    /// Reads a table description (compressed mode) from `src` into the slot of `kind`: the
    /// bytes read.
    pub(crate) fn read(&mut self, kind: Kind, src: &[u8]) -> Result<usize, &'static str> {
        let (max_symbol, max_log) = kind.limits();
        let mut norm = [0i16; 256];
        let (log, n) = read_ncount(src, &mut norm, max_symbol, max_log)?;
        self.build(kind.slot(), kind, &norm[..=max_symbol], log)?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// RFC 8878 §4.1.1's walk, as this decoder spread the counts before (the reference of
    /// [`spread`]).
    fn spread_reference(
        norm: &[i16],
        log: u32,
        symbols: &mut [u8; 1 << MAX_LOG],
        next: &mut [u32; 256],
    ) -> Result<(), &'static str> {
        let size = 1usize << log;
        let mut high = size - 1;
        for (s, &c) in norm.iter().enumerate() {
            if c == -1 {
                symbols[high & ((1 << MAX_LOG) - 1)] = s as u8;
                high = high.wrapping_sub(1);
                next[s] = 1;
            } else {
                next[s] = c.max(0) as u32;
            }
        }
        let step = (size >> 1) + (size >> 3) + 3;
        let mask = size - 1;
        let mut pos = 0usize;
        if high == size - 1 {
            // No "less than one" symbol: every position is taken in turn.
            for (s, &c) in norm.iter().enumerate() {
                for _ in 0..c.max(0) {
                    symbols[pos & ((1 << MAX_LOG) - 1)] = s as u8;
                    pos = (pos + step) & mask;
                }
            }
        } else {
            for (s, &c) in norm.iter().enumerate() {
                for _ in 0..c.max(0) {
                    symbols[pos & ((1 << MAX_LOG) - 1)] = s as u8;
                    pos = (pos + step) & mask;
                    while pos > high {
                        pos = (pos + step) & mask;
                    }
                }
            }
        }
        if pos != 0 {
            return Err("FSE table counts that spread over the whole table");
        }
        Ok(())
    }

    /// Valid counts (they add up to the table size) of `n` symbols at accuracy `log`: those in
    /// `low` "less than one" (but symbol 0), the rest of the table dealt to the others by `seed`.
    fn counts(log: u32, n: usize, low: &[bool], seed: u64) -> Vec<i16> {
        let size = 1usize << log;
        let mut norm = alloc::vec![0i16; n];
        let mut x = seed | 1;
        let mut lows = 0;
        // Symbol 0 always has a count of its own: the others get the rest.
        for (c, &l) in norm.iter_mut().zip(low).skip(1) {
            if l && lows + 1 < size {
                *c = -1;
                lows += 1;
            }
        }
        let others: Vec<usize> = (0..n).filter(|&i| norm[i] != -1).collect();
        for _ in 0..size - lows {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Skewed: the first symbols get most of the table, as in real tables.
            let k = (x % others.len() as u64) as usize;
            let k = if x >> 60 < 12 { k % (others.len() / 4 + 1) } else { k };
            norm[others[k]] += 1;
        }
        norm
    }

    proptest! {
        #[test]
        fn spread_is_the_rfc_walk(log in 5u32..=9, n in 1usize..=64, low in proptest::collection::vec(any::<bool>(), 64), seed in any::<u64>()) {
            let norm = counts(log, n, &low, seed);
            let (mut a, mut na) = ([0u8; (1 << MAX_LOG) + 1], [0u32; 256]);
            let (mut b, mut nb) = ([0u8; 1 << MAX_LOG], [0u32; 256]);
            prop_assert_eq!(spread(&norm, log, &mut a, &mut na), Ok(()));
            prop_assert_eq!(spread_reference(&norm, log, &mut b, &mut nb), Ok(()));
            prop_assert!(a[..1 << log] == b[..1 << log], "symbols differ");
            prop_assert!(na == nb, "first states differ");
        }

        #[test]
        fn bad_sums_are_refused(log in 5u32..=9, n in 1usize..=64, low in proptest::collection::vec(any::<bool>(), 64), seed in any::<u64>(), i in 0usize..64, d in prop_oneof![Just(-1i16), Just(1)]) {
            let mut norm = counts(log, n, &low, seed);
            let i = i % n;
            norm[i] = (norm[i] + d).max(-1);
            let sum: i32 = norm.iter().map(|&c| i32::from(c).abs()).sum();
            let mut a = [0u8; (1 << MAX_LOG) + 1];
            let r = spread(&norm, log, &mut a, &mut [0u32; 256]);
            prop_assert_eq!(r.is_ok(), sum == 1 << log);
        }
    }

    #[test]
    fn predefined_distributions_fill_their_tables() {
        for (d, log) in [(&LL_DEFAULT[..], 6), (&ML_DEFAULT[..], 6), (&OF_DEFAULT[..], 5)] {
            let sum: i32 = d.iter().map(|&c| i32::from(c).abs()).sum();
            assert_eq!(sum, 1 << log);
        }
        let t = SeqTables::new();
        assert_eq!(t.log[3..], [6, 5, 6]);
    }
}
