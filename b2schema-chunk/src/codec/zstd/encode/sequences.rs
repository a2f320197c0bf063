//! The sequences section (RFC 8878 §3.1.1.3.2): each sequence's literal length, match length
//! and offset codes, the table mode of each of the three (predefined, RLE, compressed or the
//! previous block's) chosen by estimated cost as libzstd's `ZSTD_selectEncodingType`, and the
//! backward bitstream.

use super::bits::{BitWriter, write_bits};
use super::fse::{self, CTable, highbit};
use crate::codec::zstd::dispatch::{Build, Hot};
use crate::codec::zstd::tables::{LL_BASE, LL_BITS, LL_DEFAULT, ML_BASE, ML_BITS, ML_DEFAULT, OF_DEFAULT};
use alloc::rc::Rc;
use alloc::vec::Vec;

/// One sequence: literals before it, the match length (at least 3) and the offset value
/// (1-3 repeat codes, otherwise the offset plus 3), with its three codes (literal length, match
/// length, offset), computed with it in one pass ([`Seq::new`]) as libzstd's `ZSTD_storeSeq`
/// stores the values the codes are taken from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Seq {
    pub(crate) lit_len: u32,
    pub(crate) match_len: u32,
    pub(crate) off_base: u32,
    pub(crate) codes: [u8; 3],
}

impl Seq {
    #[inline(always)]
    pub(crate) fn new(lit_len: u32, match_len: u32, off_base: u32) -> Self {
        let codes = [ll_code(lit_len), ml_code(match_len), highbit(off_base) as u8];
        Seq { lit_len, match_len, off_base, codes }
    }
}

/// The literal length code of `v` (the largest baseline not above it).
#[inline(always)]
pub(crate) fn ll_code(v: u32) -> u8 {
    if v < 64 { LL_CODE[v as usize] } else { (highbit(v) + 19) as u8 }
}

/// The match length code of a match of `len` bytes (at least 3).
#[inline(always)]
pub(crate) fn ml_code(len: u32) -> u8 {
    let v = len - 3;
    if v < 128 { ML_CODE[v as usize] } else { (highbit(v) + 36) as u8 }
}

const LL_CODE: [u8; 64] = codes::<64, 36>(&LL_BASE, 0);
const ML_CODE: [u8; 128] = codes::<128, 53>(&ML_BASE, 3);

const fn codes<const N: usize, const B: usize>(base: &[u32; B], shift: u32) -> [u8; N] {
    let mut t = [0u8; N];
    let mut v = 0;
    while v < N {
        let mut c = 0;
        while c + 1 < B && base[c + 1] - shift <= v as u32 {
            c += 1;
        }
        t[v] = c as u8;
        v += 1;
    }
    t
}

/// Which table a kind of code used in the last block that had sequences.
#[derive(Clone)]
pub(crate) enum Prev {
    None,
    Table { norm: [i16; 53], log: u32, table: Rc<CTable> },
}

/// One of the three kinds of codes: its limits and predefined table.
struct KindInfo {
    max_log: u32,
    default: &'static [i16],
    default_log: u32,
}

const LL: KindInfo = KindInfo { max_log: 9, default: &LL_DEFAULT, default_log: 6 };
const OF: KindInfo = KindInfo { max_log: 8, default: &OF_DEFAULT, default_log: 5 };
const ML: KindInfo = KindInfo { max_log: 9, default: &ML_DEFAULT, default_log: 6 };

/// The predefined tables, built once per context (shared, as the tables a block repeats: the
/// state carried from block to block is cloned per block and holds them by reference count).
pub(crate) struct Defaults {
    ll: Rc<CTable>,
    of: Rc<CTable>,
    ml: Rc<CTable>,
}

impl Defaults {
    pub(crate) fn new() -> Self {
        let built = |norm: &[i16], log: u32| {
            let mut t = CTable::new();
            t.build(norm, log);
            Rc::new(t)
        };
        Defaults { ll: built(&LL_DEFAULT, 6), of: built(&OF_DEFAULT, 5), ml: built(&ML_DEFAULT, 6) }
    }
}

/// The tables a later block may repeat.
#[derive(Clone)]
pub(crate) struct SeqState {
    pub(crate) prev: [Prev; 3],
}

impl SeqState {
    pub(crate) fn new() -> Self {
        SeqState { prev: [Prev::None, Prev::None, Prev::None] }
    }
}

/// Picks and describes the table of one kind; returns its mode and the table (`None`: no table
/// could describe the codes, the block is then stored raw).
fn select(
    out: &mut Vec<u8>,
    codes: &Counted,
    k: &KindInfo,
    default: &Rc<CTable>,
    prev: &mut Prev,
    scratch: &mut Vec<u8>,
) -> (u8, Option<Rc<CTable>>) {
    let Counted { count, n, last } = *codes;
    let max_symbol = count.iter().rposition(|&c| c > 0).unwrap_or(0);
    let most = count.iter().copied().max().unwrap_or(0) as usize;
    let count = &count[..=max_symbol];
    let basic =
        if max_symbol < k.default.len() { fse::table_cost(k.default, k.default_log, count) } else { None };
    if most == n && !(n <= 2 && basic.is_some()) {
        out.push(last);
        let mut t = CTable::new();
        t.build_rle(last);
        *prev = Prev::None;
        return (1, Some(Rc::new(t)));
    }
    let repeat = match prev {
        Prev::Table { norm, log, .. } => fse::table_cost(&norm[..], *log, count),
        Prev::None => None,
    };
    // A new table: normalized without the last sequence's code (its state costs no bits).
    let mut counted = [0u32; 53];
    counted[..=max_symbol].copy_from_slice(count);
    let mut total = n;
    let last = usize::from(last);
    if counted[last] > 1 {
        counted[last] -= 1;
        total -= 1;
    }
    let log = fse::optimal_log(k.max_log, total, max_symbol);
    let mut norm = [0i16; 53];
    let fresh = fse::normalize(&mut norm[..=max_symbol], &counted[..=max_symbol], total, log, total >= 2048)
        .and_then(|()| {
            scratch.clear();
            fse::write_ncount(scratch, &norm[..=max_symbol], log);
            fse::table_cost(&norm[..=max_symbol], log, count).map(|c| c + scratch.len() as u64 * 8 * 256)
        });
    let best = [basic, repeat, fresh].into_iter().flatten().min();
    match best {
        Some(b) if Some(b) == basic => {
            *prev = Prev::Table { norm: pad(k.default), log: k.default_log, table: Rc::clone(default) };
            (0, Some(Rc::clone(default)))
        }
        Some(b) if Some(b) == repeat => match prev {
            Prev::Table { table, .. } => (3, Some(Rc::clone(table))),
            Prev::None => (0, None),
        },
        None => (0, None),
        _ => {
            out.extend_from_slice(scratch);
            let mut t = CTable::new();
            t.build(&norm[..=max_symbol], log);
            let t = Rc::new(t);
            *prev = Prev::Table { norm, log, table: Rc::clone(&t) };
            (2, Some(t))
        }
    }
}

/// The codes of one kind over a block: how often each (all below 53), how many, the last one.
#[derive(Clone, Copy)]
struct Counted {
    count: [u32; 53],
    n: usize,
    last: u8,
}

/// The counts of each sequence's literal length, match length and offset codes
/// (libzstd's `HIST_countFast`): two tables a kind, for the even and the odd sequences, so
/// that runs of one code (common in match lengths and offsets) do not wait on the store of the
/// previous count.
fn code_counts(seqs: &[Seq]) -> [Counted; 3] {
    let mut t = [[[0u32; 64]; 2]; 3];
    let (pairs, rest) = seqs.as_chunks::<2>();
    for [a, b] in pairs {
        for k in 0..3 {
            t[k][0][usize::from(a.codes[k] & 63)] += 1;
            t[k][1][usize::from(b.codes[k] & 63)] += 1;
        }
    }
    for c in rest {
        for k in 0..3 {
            t[k][0][usize::from(c.codes[k] & 63)] += 1;
        }
    }
    let last = seqs.last().map(|s| s.codes).unwrap_or_default();
    core::array::from_fn(|k| Counted {
        count: core::array::from_fn(|i| t[k][0][i] + t[k][1][i]),
        n: seqs.len(),
        last: last[k],
    })
}

fn pad(norm: &[i16]) -> [i16; 53] {
    let mut p = [0i16; 53];
    p[..norm.len()].copy_from_slice(norm);
    p
}

/// Appends the sequences section of `seqs`; `None` when no table describes them (the caller
/// stores the block raw).
pub(crate) fn encode(out: &mut Vec<u8>, seqs: &[Seq], state: &mut SeqState, d: &Defaults) -> Option<()> {
    encode_in(out, seqs, state, d, false)
}

/// [`encode`], with room for 12 bytes a sequence when `loose` (the tests' reference: 26 state
/// bits and 16 + 16 + 31 extra bits at most) rather than [`stream_bound`].
fn encode_in(out: &mut Vec<u8>, seqs: &[Seq], state: &mut SeqState, d: &Defaults, loose: bool) -> Option<()> {
    let n = seqs.len();
    if n < 128 {
        out.push(n as u8);
    } else if n < 0x7F00 {
        out.extend_from_slice(&[(n >> 8) as u8 + 0x80, n as u8]);
    } else {
        out.push(0xFF);
        out.extend_from_slice(&((n - 0x7F00) as u16).to_le_bytes());
    }
    if n == 0 {
        return Some(());
    }
    let [c_ll, c_ml, c_of] = code_counts(seqs);
    let modes_at = out.len();
    out.push(0);
    let mut scratch = Vec::new();
    let [p_ll, p_of, p_ml] = &mut state.prev;
    let (m_ll, t_ll) = select(out, &c_ll, &LL, &d.ll, p_ll, &mut scratch);
    let (m_of, t_of) = select(out, &c_of, &OF, &d.of, p_of, &mut scratch);
    let (m_ml, t_ml) = select(out, &c_ml, &ML, &d.ml, p_ml, &mut scratch);
    out[modes_at] = m_ll << 6 | m_of << 4 | m_ml << 2;
    let (t_ll, t_of, t_ml) = (t_ll?, t_of?, t_ml?);
    let bound = if loose {
        n * 12 + 8
    } else {
        stream_bound(n, [&c_ll, &c_ml, &c_of], [t_ll.log, t_ml.log, t_of.log])
    };
    let stream = Stream { out, seqs, t_ll: &t_ll, t_ml: &t_ml, t_of: &t_of, bound };
    Build::Detect.run(stream).then_some(())
}

/// The most bytes the sequences' bitstream of `n` sequences takes, from their codes' counts
/// and the tables' logs: a state's bits at most its table's log a sequence (and the final
/// states), the extra bits each code says, the end marker. (It was `12 n + 8`, zeroed before
/// the stream was written: 6.3 MB a pass of level 1 over 4 MiB of text in 64 KiB split
/// streams, about 5 of each 12 bytes written.)
fn stream_bound(n: usize, counts: [&Counted; 3], logs: [u32; 3]) -> usize {
    let [ll, ml, of] = counts;
    // An offset code is its count of extra bits; the length codes' are the tables the loop reads.
    const OF_BITS_BY_CODE: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = i as u8;
            i += 1;
        }
        t
    };
    let extra = |c: &Counted, bits: &[u8; 256]| -> u64 {
        c.count.iter().zip(bits).map(|(&k, &b)| u64::from(k) * u64::from(b)).sum()
    };
    let extras = extra(ll, &LL_BITS_BY_BYTE) + extra(ml, &ML_BITS_BY_BYTE) + extra(of, &OF_BITS_BY_CODE);
    let states = (n as u64 + 1) * u64::from(logs[0] + logs[1] + logs[2]);
    ((states + extras + 1).div_ceil(8) + 1) as usize
}

/// The sequences' bitstream, the loop [`Build::run`] compiles for the CPU (the x86-64-v3
/// build where the CPU has it, as libzstd's `ZSTD_encodeSequences_bmi2`: its shifts by the
/// states' bit counts need no move to CL); the same bytes.
struct Stream<'a> {
    out: &'a mut Vec<u8>,
    seqs: &'a [Seq],
    t_ll: &'a CTable,
    t_ml: &'a CTable,
    t_of: &'a CTable,
    /// The stream's largest size ([`stream_bound`]).
    bound: usize,
}

impl Hot for Stream<'_> {
    type Output = bool;

    #[inline(always)]
    fn run(self) -> bool {
        let Stream { out, seqs, t_ll, t_ml, t_of, bound } = self;
        // The three tables copied side by side on the stack (4.6 KB a block): the loop's loads
        // from them at constant offsets from the stack pointer, not from three addresses the
        // loop kept on the stack and reloaded every sequence (level 1 over 64 KiB split text
        // streams 199.0 -> 193.7 M instructions a pass, level 3 166.4 -> 162.4 M; 8 KiB
        // smooth float64 streams, few sequences a block, 54.6 -> 54.2 M).
        let three = [t_ll.clone(), t_ml.clone(), t_of.clone()];
        let [t_ll, t_ml, t_of] = &three;
        let Some((last, seqs)) = seqs.split_last() else {
            return false;
        };
        write_bits(out, bound, |w| {
            let [l, m, o] = last.codes;
            let mut s_ml = t_ml.init(m);
            let mut s_of = t_of.init(o);
            let mut s_ll = t_ll.init(l);
            extras(w, last);
            for seq in seqs.iter().rev() {
                let [l, m, o] = seq.codes;
                t_of.encode(w, &mut s_of, o);
                t_ml.encode(w, &mut s_ml, m);
                t_ll.encode(w, &mut s_ll, l);
                extras(w, seq);
            }
            t_ml.finish(w, s_ml);
            t_of.finish(w, s_of);
            t_ll.finish(w, s_ll);
        })
    }
}

/// A code's extra bits ([`LL_BITS`], [`ML_BITS`]) by any byte (0 past the codes), so that
/// the sequence loop reads them without a bounds check.
const fn by_byte(bits: &[u8]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < bits.len() {
        t[i] = bits[i];
        i += 1;
    }
    t
}

const LL_BITS_BY_BYTE: [u8; 256] = by_byte(&LL_BITS);
const ML_BITS_BY_BYTE: [u8; 256] = by_byte(&ML_BITS);

/// The extra bits of one sequence: literal length, match length, offset, after at most 33
/// bits held (7 and the three states' 26); flushed where they could pass 63.
#[inline(always)]
fn extras(w: &mut BitWriter<'_>, s: &Seq) {
    let [ll, ml, of] = s.codes;
    let (llb, mlb) = (u32::from(LL_BITS_BY_BYTE[ll as usize]), u32::from(ML_BITS_BY_BYTE[ml as usize]));
    if llb + mlb > 30 {
        w.flush();
    }
    // Every baseline with extra bits is a multiple of 2^bits (the match lengths' counted from
    // 3): the low bits of the value are its extra bits, as libzstd's `BIT_addBits` takes them.
    w.add(u64::from(s.lit_len), llb);
    w.add(u64::from(s.match_len - 3), mlb);
    if 33 + llb + mlb + u32::from(of) > 63 {
        w.flush();
    }
    w.add(u64::from(s.off_base), u32::from(of));
    w.flush();
}

#[cfg(test)]
mod tests {
    use super::{Defaults, Seq, SeqState, encode_in};
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// A sequence of any literal length and match length a block can hold and any offset
    /// value (repeat codes and offsets up to 2^31), mostly short as most are, some at the limits.
    fn seq() -> impl Strategy<Value = Seq> {
        let len = prop_oneof![4 => 0u32..40, 1 => 0u32..(128 << 10)];
        let off = prop_oneof![1 => 1u32..4, 2 => 4u32..1 << 16, 1 => 4u32..=(1 << 31)];
        (len.clone(), len, off).prop_map(|(ll, ml, of)| Seq::new(ll, ml + 3, of))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// The bitstream's bound from the codes' counts and the tables' logs is never short: the
        /// section written within it is the one written with 12 bytes a sequence of room, over
        /// any sequences, from a fresh state and from one a first section left (repeated tables).
        #[test]
        fn the_stream_bound_is_never_short(
            first in proptest::collection::vec(seq(), 1..1500),
            second in proptest::collection::vec(seq(), 1..300),
        ) {
            let d = Defaults::new();
            let (mut tight, mut loose) = (SeqState::new(), SeqState::new());
            for seqs in [&first, &second] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let got = encode_in(&mut a, seqs, &mut tight, &d, false);
                let want = encode_in(&mut b, seqs, &mut loose, &d, true);
                prop_assert!(want.is_some());
                prop_assert_eq!(got, want);
                prop_assert_eq!(a, b);
            }
        }
    }
}
