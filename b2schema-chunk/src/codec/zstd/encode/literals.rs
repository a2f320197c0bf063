//! The literals section (RFC 8878 §3.1.1.3.1): raw, RLE, Huffman-compressed with a new table or
//! with the previous block's (treeless), whichever libzstd's rules pick.

use super::huffman::HufCode;
use alloc::vec::Vec;

/// The Huffman code a later block may reuse.
#[derive(Clone)]
pub(crate) struct HufState {
    pub(crate) code: HufCode,
    pub(crate) valid: bool,
}

impl HufState {
    pub(crate) fn new() -> Self {
        HufState { code: HufCode::new(), valid: false }
    }
}

/// Appends a raw (type 0) or RLE (type 1) section header for `n` bytes.
fn plain_header(out: &mut Vec<u8>, kind: u8, n: usize) {
    let n32 = n as u32;
    if n < 32 {
        out.push(kind | (n32 << 3) as u8);
    } else if n < 4096 {
        out.extend_from_slice(&((u32::from(kind) | 1 << 2 | n32 << 4) as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(u32::from(kind) | 3 << 2 | n32 << 4).to_le_bytes()[..3]);
    }
}

fn raw(out: &mut Vec<u8>, lits: &[u8]) {
    plain_header(out, 0, lits.len());
    out.extend_from_slice(lits);
}

/// The size of the raw section of `n` literals, header included ([`plain_header`]).
fn raw_size(n: usize) -> usize {
    n + 1 + usize::from(n >= 32) + usize::from(n >= 4096)
}

/// [`raw`] when the section is smaller than `limit`; otherwise nothing written and false.
fn raw_below(out: &mut Vec<u8>, lits: &[u8], limit: usize) -> bool {
    if raw_size(lits.len()) >= limit {
        return false;
    }
    raw(out, lits);
    true
}

/// libzstd's `SUSPECT_INCOMPRESSIBLE_SAMPLE_SIZE` and `_RATIO` (huf_compress.c).
const SAMPLE: usize = 4096;
const SAMPLE_RATIO: usize = 10;

/// Appends the literals section of `lits`; `prev` is the reusable code, updated when a new one
/// is written (the caller commits it only with the block). `min_gain_log` as libzstd's
/// `ZSTD_minGain`. `suspect`: the block has at least 20 literals a sequence (libzstd's
/// `suspectUncompressible`): then literals of 40 KiB or more whose first and last 4 KiB are flat
/// are stored raw without counting the rest, as libzstd's `HUF_compress_internal`.
///
/// `raw_limit`: a raw section of that size or more is not written (false returned, `out` as it
/// was): the caller's block would then be stored raw whatever follows (the literals of an
/// incompressible block are not copied once more only to be dropped).
pub(crate) fn encode(
    out: &mut Vec<u8>,
    lits: &[u8],
    prev: &mut HufState,
    min_gain_log: u32,
    suspect: bool,
    raw_limit: usize,
) -> bool {
    let n = lits.len();
    let min_size = if prev.valid { 6 } else { 63 };
    if n <= min_size {
        if n > 0 && lits.iter().all(|&b| b == lits[0]) && n > 2 {
            plain_header(out, 1, n);
            out.push(lits[0]);
            return true;
        }
        return raw_below(out, lits, raw_limit);
    }
    if suspect && n >= SAMPLE * SAMPLE_RATIO {
        let largest = |part: &[u8]| histogram(part).iter().copied().max().unwrap_or(0) as usize;
        if largest(&lits[..SAMPLE]) + largest(&lits[n - SAMPLE..]) <= ((2 * SAMPLE) >> 7) + 4 {
            return raw_below(out, lits, raw_limit);
        }
    }
    let count = histogram(lits);
    let max_symbol = count.iter().rposition(|&c| c > 0).unwrap_or(0);
    let largest = count.iter().copied().max().unwrap_or(0) as usize;
    if largest == n {
        plain_header(out, 1, n);
        out.push(lits[0]);
        return true;
    }
    // libzstd: a histogram this flat is not worth a table.
    if largest <= (n >> 7) + 4 {
        return raw_below(out, lits, raw_limit);
    }
    let four = n >= 256;
    let header_len = 3 + usize::from(n >= 1024) + usize::from(n >= 16 * 1024);
    let at = out.len();
    out.resize(at + header_len, 0);
    let mut new = HufCode::new();
    new.build(&count, max_symbol);
    // The new code's description, written where it goes and taken back when the previous code
    // is reused.
    let table_at = out.len();
    let new_ok = new.write(out);
    let table_len = out.len() - table_at;
    let new_bits = new.cost(&count, max_symbol);
    let old_bits = if prev.valid && prev.code.covers(&count, max_symbol) {
        Some(prev.code.cost(&count, max_symbol))
    } else {
        None
    };
    let reuse = old_bits
        .is_some_and(|old_bits| !new_ok || old_bits <= new_bits + table_len * 8 || table_len + 12 >= n);
    let ok = if let (true, Some(old_bits)) = (reuse, old_bits) {
        out.truncate(table_at);
        prev.code.encode(out, lits, four, old_bits)
    } else if new_ok {
        new.encode(out, lits, four, new_bits)
    } else {
        false
    };
    let csize = out.len() - at - header_len;
    let min_gain = (n >> min_gain_log) + 2;
    if !ok || csize + header_len >= n.saturating_sub(min_gain) || csize >= 1 << 18 {
        out.truncate(at);
        return raw_below(out, lits, raw_limit);
    }
    let kind: u32 = if reuse { 3 } else { 2 };
    let (sf, bits): (u32, u32) = match header_len {
        3 if !four => (0, 10),
        3 => (1, 10),
        4 => (2, 14),
        _ => (3, 18),
    };
    let h = u64::from(kind | sf << 2) | (n as u64) << 4 | (csize as u64) << (4 + bits);
    out[at..at + header_len].copy_from_slice(&h.to_le_bytes()[..header_len]);
    if !reuse {
        prev.code = new;
        prev.valid = true;
    }
    true
}

/// The count of each byte value, in four interleaved tables (no store-to-load stall on runs).
fn histogram(lits: &[u8]) -> [u32; 256] {
    let mut t = [[0u32; 256]; 4];
    let mut chunks = lits.chunks_exact(4);
    for c in chunks.by_ref() {
        t[0][c[0] as usize] += 1;
        t[1][c[1] as usize] += 1;
        t[2][c[2] as usize] += 1;
        t[3][c[3] as usize] += 1;
    }
    for &b in chunks.remainder() {
        t[0][b as usize] += 1;
    }
    let mut count = [0u32; 256];
    for (i, c) in count.iter_mut().enumerate() {
        *c = t[0][i] + t[1][i] + t[2][i] + t[3][i];
    }
    count
}

#[cfg(test)]
mod tests {
    use super::{HufState, encode, raw_size};
    use crate::test_data::noise;
    use alloc::vec::Vec;

    /// Flat literals (noise) go raw; their raw section is written only when smaller than the
    /// limit, and then as its header and the literals.
    #[test]
    fn raw_literals_reaching_the_limit_are_not_written() {
        for n in [20usize, 100, 5000, 50_000] {
            let lits = noise(n, n as u64);
            let size = raw_size(n);
            for suspect in [false, true] {
                let mut out = Vec::from([9u8]);
                assert!(!encode(&mut out, &lits, &mut HufState::new(), 6, suspect, size), "n {n}");
                assert_eq!(out, [9u8], "n {n}: nothing written");
                assert!(encode(&mut out, &lits, &mut HufState::new(), 6, suspect, size + 1), "n {n}");
                assert_eq!(out.len(), 1 + size, "n {n}");
                assert_eq!(out[out.len() - n..], lits[..], "n {n}");
                // The raw header (RFC 8878 §3.1.1.3.1.1): type 0, the size format and `n`.
                let h = u32::from_le_bytes([out[1], *out.get(2).unwrap_or(&0), *out.get(3).unwrap_or(&0), 0]);
                let (fmt, shift) = if n < 32 {
                    (0, 3)
                } else if n < 4096 {
                    (1, 4)
                } else {
                    (3, 4)
                };
                assert_eq!(h & 3, 0, "n {n}");
                assert_eq!((h >> 2) & if n < 32 { 1 } else { 3 }, fmt, "n {n}");
                assert_eq!((h >> shift) as usize & ((1 << ((size - n) * 8 - shift)) - 1), n, "n {n}");
            }
        }
    }
}
