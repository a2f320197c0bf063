//! NDLZ encoding: c-blosc2's `ndlz4_compress` / `ndlz8_compress`, the same XXH32 hashes (seed 1,
//! top 12 bits) into the same three tables (cells, three rows, two rows), the same order of
//! tries and the same table updates after a literal cell, so the streams are c-blosc2's byte
//! for byte. 0 when the stream would not be smaller than the block or not fit `dst` (c-blosc2
//! then stores the block as it is).

use alloc::vec;

use super::decode::HEADER_LEN;
use super::xxh32::xxh32;

/// c-blosc2's `MAX_DISTANCE`.
const MAX_DISTANCE: usize = 65535;

/// The table slot of `bytes` (`XXH32(bytes, len, 1) >> (32 - 12)`).
fn slot(bytes: &[u8]) -> usize {
    (xxh32(bytes, 1) >> 20) as usize
}

/// `rows` one after the other, on the stack.
fn join<const N: usize>(rows: &[&[u8]]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    for r in rows {
        out[at..at + r.len()].copy_from_slice(r);
        at += r.len();
    }
    out
}

/// The output and its position, with the tables the encoder keeps.
struct State<'a> {
    out: &'a mut [u8],
    op: usize,
    tab_cell: alloc::vec::Vec<u32>,
    tab_triple: alloc::vec::Vec<u32>,
    tab_pair: alloc::vec::Vec<u32>,
}

impl State<'_> {
    fn put(&mut self, bytes: &[u8]) {
        self.out[self.op..self.op + bytes.len()].copy_from_slice(bytes);
        self.op += bytes.len();
    }

    /// Whether the table entry `tab` (0: empty) holds `bytes`.
    fn holds(&self, tab: u32, bytes: &[u8]) -> bool {
        let at = tab as usize;
        tab != 0 && self.out.get(at..at + bytes.len()) == Some(bytes)
    }
}

/// Encodes the block `src` of `b0` x `b1` items into `dst`; the stream's length or 0.
pub(super) fn encode(src: &[u8], dst: &mut [u8], b0: i32, b1: i32, side: usize) -> usize {
    let cell = side * side;
    let (n0, n1) = (b0 as usize, b1 as usize);
    // c-blosc2's guard, in its int arithmetic.
    let overhead = 17i64 + (i64::from(b0) * i64::from(b1) / cell as i64 - 1) * 2;
    if src.len() < cell || (dst.len() as i64) < overhead || dst.len() < HEADER_LEN {
        return 0;
    }
    let mut s = State {
        out: dst,
        op: 0,
        tab_cell: vec![0; 1 << 12],
        tab_triple: vec![0; 1 << 12],
        tab_pair: vec![0; 1 << 12],
    };
    s.put(&[2]);
    s.put(&b0.to_le_bytes());
    s.put(&b1.to_le_bytes());
    let limit = s.out.len();
    // Kept from cell to cell, as c-blosc2 keeps them.
    let mut hash_triple = [0usize; 6];
    let mut hash_pair = [0usize; 7];
    let mut buf = [0u8; 64];
    for i0 in 0..n0.div_ceil(side) {
        for i1 in 0..n1.div_ceil(side) {
            let mut update_triple = [0u32; 6];
            let mut update_pair = [0u32; 7];
            if s.op + cell + 1 > limit {
                return 0;
            }
            let orig = i0 * side * n1 + i1 * side;
            let pad0 = (n0 - i0 * side).min(side);
            let pad1 = (n1 - i1 * side).min(side);
            if pad0 < side || pad1 < side {
                s.put(&[0]);
                for r in 0..pad0 {
                    s.put(&src[orig + r * n1..orig + r * n1 + pad1]);
                }
            } else {
                for r in 0..side {
                    buf[r * side..(r + 1) * side].copy_from_slice(&src[orig + r * n1..orig + r * n1 + side]);
                }
                let cellb = &buf[..cell];
                let anchor = s.op;
                let hash_cell = slot(cellb);
                let tab = s.tab_cell[hash_cell];
                let distance = if s.holds(tab, cellb) { anchor - tab as usize } else { 0 };
                if cellb.iter().all(|&b| b == cellb[0]) {
                    s.put(&[0x40, cellb[0]]);
                } else if distance == 0 || distance >= MAX_DISTANCE {
                    let matched = if side == 4 {
                        rows4(
                            &mut s,
                            cellb,
                            anchor,
                            &mut hash_triple,
                            &mut hash_pair,
                            &mut update_triple,
                            &mut update_pair,
                        )
                    } else {
                        rows8(
                            &mut s,
                            cellb,
                            anchor,
                            &mut hash_triple,
                            &mut hash_pair,
                            &mut update_triple,
                            &mut update_pair,
                        )
                    };
                    if !matched {
                        s.tab_cell[hash_cell] = (anchor + 1) as u32;
                        let (nt, np) = if side == 4 { (2, 3) } else { (6, 7) };
                        if update_triple[0] != 0 {
                            for h in 0..nt {
                                s.tab_triple[hash_triple[h]] = update_triple[h];
                            }
                        }
                        if update_pair[0] != 0 {
                            for h in 0..np {
                                s.tab_pair[hash_pair[h]] = update_pair[h];
                            }
                        }
                        s.put(&[0]);
                        s.put(cellb);
                    }
                } else {
                    s.put(&[0xc0]);
                    s.put(&((anchor - tab as usize) as u16).to_le_bytes());
                }
            }
            if s.op > src.len() {
                return 0;
            }
        }
    }
    s.op
}

/// The row matches of a 4x4 cell (two pairs, three rows, one pair, in c-blosc2's order);
/// `false` when none was written (the cell is then a literal).
#[allow(clippy::too_many_arguments)]
fn rows4(
    s: &mut State<'_>,
    cell: &[u8],
    anchor: usize,
    hash_triple: &mut [usize; 6],
    hash_pair: &mut [usize; 7],
    update_triple: &mut [u32; 6],
    update_pair: &mut [u32; 7],
) -> bool {
    let row = |r: usize| &cell[r * 4..r * 4 + 4];
    let near = |d: usize| d != 0 && d < MAX_DISTANCE;
    // Two pairs of rows: (0, j) and the other two.
    for j in 1..4 {
        let pair: [u8; 8] = join(&[row(0), row(j)]);
        let tab = s.tab_pair[slot(&pair)];
        let distance = if s.holds(tab, &pair) { anchor - tab as usize } else { 0 };
        if near(distance) {
            let mut others = (1..4).filter(|&k| k != j);
            let (l, m) = (others.next().unwrap_or(1), others.next().unwrap_or(1));
            let pair2: [u8; 8] = join(&[row(l), row(m)]);
            let tab2 = s.tab_pair[slot(&pair2)];
            let distance2 =
                if s.holds(tab2, &pair2) { (anchor + l * 4).wrapping_sub(tab2 as usize) } else { 0 };
            if near(distance2) {
                s.put(&[(1 << 5) | (j << 3) as u8]);
                s.put(&((anchor - tab as usize) as u16).to_le_bytes());
                s.put(&((anchor - tab2 as usize) as u16).to_le_bytes());
                return true;
            }
        }
    }
    // Three rows from one earlier place.
    for i in 0..2 {
        for j in i + 1..3 {
            for k in j + 1..4 {
                let triple: [u8; 12] = join(&[row(i), row(j), row(k)]);
                let h = slot(&triple);
                let tab = s.tab_triple[h];
                let same = s.holds(tab, &triple);
                if tab == 0 && j - i == 1 && k - j == 1 {
                    update_triple[i] = (anchor + 1 + i * 4) as u32;
                    hash_triple[i] = h;
                }
                let distance = if same { (anchor + i * 4).wrapping_sub(tab as usize) } else { 0 };
                if near(distance) {
                    let token = if i == 1 { 7 << 5 } else { (7 << 5) | ((j + k - 2) << 3) as u8 };
                    s.put(&[token]);
                    s.put(&((anchor - tab as usize) as u16).to_le_bytes());
                    if let Some(l) = (0..4).find(|&l| l != i && l != j && l != k) {
                        s.put(row(l));
                    }
                    return true;
                }
            }
        }
    }
    // One pair of rows.
    for i in 0..3 {
        for j in i + 1..4 {
            let pair: [u8; 8] = join(&[row(i), row(j)]);
            let h = slot(&pair);
            let tab = s.tab_pair[h];
            let same = s.holds(tab, &pair);
            if tab == 0 && j - i == 1 {
                update_pair[i] = (anchor + 1 + i * 4) as u32;
                hash_pair[i] = h;
            }
            let distance = if same { (anchor + i * 4).wrapping_sub(tab as usize) } else { 0 };
            if near(distance) {
                let token = if i == 2 { 1 << 7 } else { (1 << 7) | (i << 5) as u8 | (j << 3) as u8 };
                s.put(&[token]);
                s.put(&((anchor - tab as usize) as u16).to_le_bytes());
                for k in (0..4).filter(|&k| k != i && k != j) {
                    s.put(row(k));
                }
                return true;
            }
        }
    }
    false
}

/// The row matches of an 8x8 cell (three rows, then two, from each row on).
#[allow(clippy::too_many_arguments)]
fn rows8(
    s: &mut State<'_>,
    cell: &[u8],
    anchor: usize,
    hash_triple: &mut [usize; 6],
    hash_pair: &mut [usize; 7],
    update_triple: &mut [u32; 6],
    update_pair: &mut [u32; 7],
) -> bool {
    let near = |d: usize| d != 0 && d < MAX_DISTANCE;
    for (n, token_kind) in [(3usize, 21u8), (2, 17)] {
        for i in 0..=8 - n {
            let start = i * 8;
            let rows = &cell[start..start + n * 8];
            let h = slot(rows);
            let tab = if n == 3 { s.tab_triple[h] } else { s.tab_pair[h] };
            let same = s.holds(tab, rows);
            if tab == 0 {
                if n == 3 {
                    update_triple[i] = (anchor + 1 + start) as u32;
                    hash_triple[i] = h;
                } else {
                    update_pair[i] = (anchor + 1 + start) as u32;
                    hash_pair[i] = h;
                }
            }
            let distance = if same { (anchor + start).wrapping_sub(tab as usize) } else { 0 };
            if near(distance) {
                s.put(&[(token_kind << 3) | i as u8]);
                s.put(&((anchor - tab as usize) as u16).to_le_bytes());
                for l in (0..8).filter(|&l| l < i || l >= i + n) {
                    s.put(&cell[l * 8..l * 8 + 8]);
                }
                return true;
            }
        }
    }
    false
}
