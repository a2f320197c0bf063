//! LZ4HC: an LZ4 block (the format `lz4_flex` and liblz4 decode) found with a hash-chain
//! matcher that tries many candidates per position, as liblz4's high-compression mode does.
//!
//! c-blosc2 passes its clevel straight to `LZ4_compress_HC`; here the clevel sets how many
//! chain links are followed per position (`2^(clevel-1)`, 256 at clevel 9) and a one-step
//! lazy match (a literal is emitted when the next position has a longer match). The parser is
//! b2schema's own and simpler than liblz4's (no optimal parsing at levels 10-12, which c-blosc2
//! never asks for), so the output is valid LZ4 but not liblz4's bytes.

use alloc::vec;

/// Shortest match of the LZ4 format.
const MINMATCH: usize = 4;
/// The last 5 bytes are always literals.
const LASTLITERALS: usize = 5;
/// A match must start at least 12 bytes before the end.
const MFLIMIT: usize = 12;
/// Largest match distance (16-bit offsets).
const MAX_DISTANCE: usize = 65_535;
/// Bits of the hash table.
const HASH_LOG: u32 = 15;

#[inline]
fn read_u32(buf: &[u8], at: usize) -> u32 {
    buf.get(at..at + 4).and_then(|s| <[u8; 4]>::try_from(s).ok()).map_or(0, u32::from_le_bytes)
}

#[inline]
fn hash(v: u32) -> usize {
    (v.wrapping_mul(2_654_435_761) >> (32 - HASH_LOG)) as usize
}

/// The hash chains: `head[h]` the last position with hash `h` (plus one, 0 = none),
/// `prev[p % 64K]` the distance to the previous position with the same hash.
struct Chains {
    head: alloc::vec::Vec<u32>,
    prev: alloc::vec::Vec<u16>,
    next_insert: usize,
}

impl Chains {
    fn insert_upto(&mut self, input: &[u8], upto: usize) {
        while self.next_insert < upto {
            let p = self.next_insert;
            let h = hash(read_u32(input, p));
            let last = self.head[h] as usize;
            let delta = if last == 0 { 0 } else { (p + 1 - last).min(u16::MAX as usize) };
            self.prev[p & 0xFFFF] = delta as u16;
            self.head[h] = (p + 1) as u32;
            self.next_insert += 1;
        }
    }

    /// The longest match for position `p` (whose bytes up to `limit` may be matched), looking
    /// at up to `attempts` earlier positions: `(length, distance)`.
    fn best(&mut self, input: &[u8], p: usize, limit: usize, attempts: usize) -> (usize, usize) {
        self.insert_upto(input, p);
        let seq = read_u32(input, p);
        let mut cand = self.head[hash(seq)] as usize;
        let mut best = (0, 0);
        let mut tries = attempts;
        while cand > 0 && tries > 0 {
            let c = cand - 1;
            let dist = p - c;
            if dist > MAX_DISTANCE {
                break;
            }
            tries -= 1;
            if read_u32(input, c) == seq && input.get(c + best.0) == input.get(p + best.0) {
                let mut len = MINMATCH;
                while p + len < limit && input[c + len] == input[p + len] {
                    len += 1;
                }
                if len > best.0 {
                    best = (len, dist);
                    if p + len >= limit {
                        break;
                    }
                }
            }
            let step = self.prev[c & 0xFFFF] as usize;
            if step == 0 {
                break;
            }
            cand = cand.saturating_sub(step);
        }
        best
    }
}

/// Output that fails once it would pass its limit.
struct Out<'a> {
    buf: &'a mut [u8],
    op: usize,
}

impl Out<'_> {
    fn push(&mut self, b: u8) -> Option<()> {
        *self.buf.get_mut(self.op)? = b;
        self.op += 1;
        Some(())
    }

    fn extend(&mut self, s: &[u8]) -> Option<()> {
        self.buf.get_mut(self.op..self.op + s.len())?.copy_from_slice(s);
        self.op += s.len();
        Some(())
    }

    fn length(&mut self, mut n: usize) -> Option<()> {
        while n >= 255 {
            self.push(255)?;
            n -= 255;
        }
        self.push(n as u8)
    }

    /// One sequence: `literals`, then a match of `mlen` at `dist` (`mlen == 0`: the last
    /// sequence, literals only).
    fn sequence(&mut self, literals: &[u8], mlen: usize, dist: usize) -> Option<()> {
        let ll = literals.len();
        let ml = mlen.saturating_sub(MINMATCH);
        let token = ((ll.min(15) as u8) << 4) | if mlen == 0 { 0 } else { ml.min(15) as u8 };
        self.push(token)?;
        if ll >= 15 {
            self.length(ll - 15)?;
        }
        self.extend(literals)?;
        if mlen > 0 {
            self.extend(&(dist as u16).to_le_bytes())?;
            if ml >= 15 {
                self.length(ml - 15)?;
            }
        }
        Some(())
    }
}

/// Compresses `input` as one LZ4 block into `output`; 0 when it does not fit.
pub(crate) fn compress(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    encode(clevel, input, output).unwrap_or(0)
}

fn encode(clevel: u8, input: &[u8], output: &mut [u8]) -> Option<usize> {
    let attempts = 1usize << (clevel.clamp(1, 9) - 1);
    let n = input.len();
    let mut out = Out { buf: output, op: 0 };
    if n < MFLIMIT + 1 {
        out.sequence(input, 0, 0)?;
        return Some(out.op);
    }
    let mut chains = Chains { head: vec![0; 1 << HASH_LOG], prev: vec![0; 1 << 16], next_insert: 0 };
    let match_limit = n - LASTLITERALS;
    let last_start = n - MFLIMIT;
    let mut anchor = 0;
    let mut ip = 0;
    while ip < last_start {
        let (len, dist) = chains.best(input, ip, match_limit, attempts);
        if len < MINMATCH {
            ip += 1;
            continue;
        }
        // One-step lazy: a longer match right after wins over this one.
        if ip + 1 < last_start {
            let (next_len, _) = chains.best(input, ip + 1, match_limit, attempts);
            if next_len > len + 1 {
                ip += 1;
                continue;
            }
        }
        out.sequence(&input[anchor..ip], len, dist)?;
        ip += len;
        anchor = ip;
    }
    out.sequence(&input[anchor..], 0, 0)?;
    Some(out.op)
}

#[cfg(test)]
mod tests {
    use super::compress;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn roundtrips_through_lz4_flex() {
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 5], vec![3; 100_000]];
        inputs.push((0..70_000u32).map(|i| ((i / 5) % 253) as u8 ^ (i % 7) as u8).collect());
        inputs.push((0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect());
        for data in inputs {
            for clevel in [1u8, 5, 9] {
                let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                let n = compress(clevel, &data, &mut out);
                assert!(n > 0);
                let mut back = vec![0u8; data.len()];
                assert_eq!(lz4_flex::block::decompress_into(&out[..n], &mut back).unwrap(), data.len());
                assert_eq!(back, data);
            }
        }
    }
}
