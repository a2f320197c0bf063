//! BloscLZ compressor: the encoder of the format [`super::super::blosclz`] decodes, following
//! c-blosc2's `blosclz_compress` step by step (same hash, same entropy probe, same match and
//! literal rules) so that the output is byte-identical to c-blosc2's for the same block and
//! output limit.
//!
//! The encoder first *probes* a tail of the block (an eighth at clevel 1, a quarter at 2-3, a
//! half at 4-6, all of it from 7 on) with a cheap estimate of the compressed size; when the
//! estimated ratio is under the level's threshold the block is declared incompressible (`0`)
//! and the caller stores it raw. Then a FastLZ-style greedy pass: a 4-byte hash finds a
//! candidate, matches of at least 4 bytes (6 when far) become match tokens, everything else
//! literal runs of at most 32 bytes.

/// Longest literal run of one token.
const MAX_COPY: usize = 32;
/// Matches at a distance of at least this use the far (16-bit) form.
const MAX_DISTANCE: usize = 8191;
/// Matches this far or farther are not taken.
const MAX_FARDISTANCE: usize = 65535 + MAX_DISTANCE - 1;
/// Bits of the hash table of levels 3 to 9 (levels 1 and 2 use 12 and 13).
const HASH_LOG: u32 = 14;
/// How far the match end is moved back before encoding (and the shortest match kept).
const IPSHIFT: usize = 4;
/// Shortest match worth a token.
const MINLEN: usize = 4;
/// Hash bits of BloscLZ 2.5.1's entropy probe (`HASH_LOG2`).
const PROBE_HASH_LOG_1X: u32 = 12;
/// BloscLZ 2.5.1 (c-blosc 1.x) shortens matches and their minimum by one on blocks that are not
/// split or whose probed ratio is under this.
const SPLIT_CRATIO_1X: f64 = 4.0;
/// Hash bits per clevel.
const HASHLOG: [u32; 10] =
    [0, HASH_LOG - 2, HASH_LOG - 1, HASH_LOG, HASH_LOG, HASH_LOG, HASH_LOG, HASH_LOG, HASH_LOG, HASH_LOG];
/// Smallest probed ratio per clevel under which the block is stored raw.
const MIN_CRATIO: [f64; 10] = [0.0, 2.0, 1.5, 1.2, 1.2, 1.2, 1.2, 1.15, 1.1, 1.0];

#[inline]
fn read_u32(buf: &[u8], at: usize) -> u32 {
    buf.get(at..at + 4).and_then(|s| <[u8; 4]>::try_from(s).ok()).map_or(0, u32::from_le_bytes)
}

#[inline]
fn hash(seq: u32, log: u32) -> usize {
    (seq.wrapping_mul(2_654_435_761) >> (32 - log)) as usize
}

#[inline]
fn read_u64(buf: &[u8], at: usize) -> u64 {
    buf.get(at..at + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()).map_or(0, u64::from_le_bytes)
}

/// End of a match starting at `ip` against `rf` (`rf < ip`): one past the first differing
/// byte, or `bound` when everything up to it matches. Compares 8 bytes at a time.
#[inline]
fn match_end(buf: &[u8], mut ip: usize, bound: usize, mut rf: usize) -> usize {
    while ip + 8 <= bound {
        let diff = read_u64(buf, ip) ^ read_u64(buf, rf);
        if diff != 0 {
            return ip + (diff.trailing_zeros() / 8) as usize + 1;
        }
        ip += 8;
        rf += 8;
    }
    while ip < bound {
        let same = buf.get(ip) == buf.get(rf);
        ip += 1;
        rf += 1;
        if !same {
            return ip;
        }
    }
    ip
}

/// End of a run of the byte before `ip`, compared from `rf`: the first position whose byte
/// differs, or `bound`. Compares 8 bytes at a time.
#[inline]
fn run_end(buf: &[u8], mut ip: usize, bound: usize, mut rf: usize) -> usize {
    let x = buf.get(ip.wrapping_sub(1)).copied();
    let pattern = u64::from(x.unwrap_or(0)) * 0x0101_0101_0101_0101;
    while ip + 8 <= bound {
        let diff = read_u64(buf, rf) ^ pattern;
        if diff != 0 {
            return ip + (diff.trailing_zeros() / 8) as usize;
        }
        ip += 8;
        rf += 8;
    }
    while ip < bound && buf.get(rf).copied() == x {
        ip += 1;
        rf += 1;
    }
    ip
}

/// The entropy probe (`get_cratio`): an estimate of the ratio of `block` with the same
/// parsing as the encoder, counting output bytes instead of writing them.
fn probe_ratio(block: &[u8], htab: &mut [u32], hashlog: u32, ipshift: usize, minlen: usize) -> f64 {
    let hashlen = 1usize << hashlog;
    let limit = block.len().min(hashlen);
    let Some(ip_limit) = limit.checked_sub(12) else {
        return 0.0;
    };
    let ip_bound = limit - 1;
    htab[..hashlen].fill(0);
    let mut oc: i64 = 5;
    let mut copy: u8 = 4;
    let mut ip = 0usize;
    let literal = |ip: &mut usize, anchor: usize, copy: &mut u8, oc: &mut i64| {
        *oc += 1;
        *ip = anchor + 1;
        *copy += 1;
        if usize::from(*copy) == MAX_COPY {
            *copy = 0;
            *oc += 1;
        }
    };
    while ip < ip_limit {
        let anchor = ip;
        let seq = read_u32(block, ip);
        let h = hash(seq, hashlog);
        let rf = htab[h] as usize;
        let distance = anchor - rf;
        htab[h] = anchor as u32;
        if distance == 0 || distance >= MAX_FARDISTANCE || read_u32(block, rf) != read_u32(block, ip) {
            literal(&mut ip, anchor, &mut copy, &mut oc);
            continue;
        }
        let end = if distance == 1 {
            run_end(block, anchor + 4, ip_bound, rf + 4)
        } else {
            match_end(block, anchor + 4, ip_bound, rf + 4)
        };
        ip = end - ipshift;
        let len = ip - anchor;
        if len < minlen {
            literal(&mut ip, anchor, &mut copy, &mut oc);
            continue;
        }
        if copy == 0 {
            oc -= 1;
        }
        copy = 0;
        let dist = distance - 1;
        if len >= 7 {
            oc += ((len - 7) / 255) as i64 + 1;
        }
        oc += if dist < MAX_DISTANCE { 2 } else { 4 };
        let seq = read_u32(block, ip);
        htab[hash(seq, hashlog)] = ip as u32;
        ip += 2;
        oc += 1;
    }
    ip as f64 / oc as f64
}

/// Output cursor that fails (like c-blosc2's `goto out`) when a write would pass `limit`.
struct Out<'a> {
    buf: &'a mut [u8],
    op: usize,
    limit: usize,
}

impl Out<'_> {
    /// `true` when `n` more bytes fit under the limit.
    #[inline]
    fn room(&self, n: usize) -> bool {
        self.op + n <= self.limit
    }

    #[inline]
    fn push(&mut self, b: u8) {
        if let Some(slot) = self.buf.get_mut(self.op) {
            *slot = b;
        }
        self.op += 1;
    }

    #[inline]
    fn set(&mut self, at: usize, b: u8) {
        if let Some(slot) = self.buf.get_mut(at) {
            *slot = b;
        }
    }
}

/// Compresses `input` into `output` at `clevel` (1 to 9); returns the compressed length, or
/// 0 when the block does not compress (the probe says so, it is shorter than 16 bytes,
/// `output` is shorter than 66 bytes, or the output would not fit in `output`).
pub(crate) fn compress(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    compress_as(clevel, input, output, None)
}

/// [`compress`] as c-blosc 1.x's BloscLZ 2.5.1 does (`split`: the block is split into streams):
/// it probes the last quarter of every block with a 12-bit hash, and shortens matches by 3
/// instead of 4 (and keeps matches of 3) on blocks not split or whose probed ratio is under 4.
pub(crate) fn compress_1x(clevel: u8, split: bool, input: &[u8], output: &mut [u8]) -> usize {
    compress_as(clevel, input, output, Some(split))
}

/// The encoder of c-blosc2 (`v1_split` `None`) or of c-blosc 1.x (`Some(split)`).
fn compress_as(clevel: u8, input: &[u8], output: &mut [u8], v1_split: Option<bool>) -> usize {
    let clevel = usize::from(clevel.clamp(1, 9));
    let hashlog = HASHLOG[clevel];
    let mut htab = alloc::vec![0u32; 1 << HASH_LOG];
    let length = input.len();
    let maxlen = match (v1_split, clevel) {
        (Some(_), _) => length / 4,
        (None, 0..=1) => length / 8,
        (None, 2..=3) => length / 4,
        (None, 4..=6) => length / 2,
        (None, _) => length,
    };
    let shift = length - maxlen;
    let (ipshift, minlen) = match v1_split {
        None => {
            if probe_ratio(&input[shift..], &mut htab, hashlog, IPSHIFT, MINLEN) < MIN_CRATIO[clevel] {
                return 0;
            }
            (IPSHIFT, MINLEN)
        }
        Some(split) => {
            let cratio = probe_ratio(&input[shift..], &mut htab, PROBE_HASH_LOG_1X, 3, 3);
            if cratio < MIN_CRATIO[clevel] {
                return 0;
            }
            if !split || cratio < SPLIT_CRATIO_1X { (3, 3) } else { (IPSHIFT, MINLEN) }
        }
    };
    if length < 16 || output.len() < 66 {
        return 0;
    }
    let ip_bound = length - 1;
    let ip_limit = length - 12;
    let limit = output.len();
    let mut out = Out { buf: output, op: 0, limit };
    htab[..1 << hashlog].fill(0);

    let mut copy: usize = 4;
    out.push((MAX_COPY - 1) as u8);
    for &b in &input[..4] {
        out.push(b);
    }
    let mut ip = 4usize;
    while ip < ip_limit {
        let anchor = ip;
        let seq = read_u32(input, ip);
        let h = hash(seq, hashlog);
        let rf = htab[h] as usize;
        let distance = anchor - rf;
        htab[h] = anchor as u32;
        let mut is_match =
            distance != 0 && distance < MAX_FARDISTANCE && read_u32(input, rf) == read_u32(input, ip);
        let mut len = 0;
        let dist = distance.wrapping_sub(1);
        if is_match {
            let end = if dist == 0 {
                run_end(input, anchor + 4, ip_bound, rf + 4)
            } else {
                match_end(input, anchor + 4, ip_bound, rf + 4)
            };
            ip = end - ipshift;
            len = ip - anchor;
            if len < minlen || (len <= 5 && dist >= MAX_DISTANCE) {
                is_match = false;
            }
        }
        if !is_match {
            // LITERAL
            if !out.room(2) {
                return 0;
            }
            out.push(input[anchor]);
            ip = anchor + 1;
            copy += 1;
            if copy == MAX_COPY {
                copy = 0;
                out.push((MAX_COPY - 1) as u8);
            }
            continue;
        }
        if copy > 0 {
            out.set(out.op - copy - 1, (copy - 1) as u8);
        } else {
            out.op -= 1;
        }
        copy = 0;
        let (far, d) = if dist < MAX_DISTANCE { (false, dist) } else { (true, dist - MAX_DISTANCE) };
        if len < 7 {
            let need = if far { 4 } else { 2 };
            if !out.room(need) {
                return 0;
            }
            if far {
                out.push(((len << 5) + 31) as u8);
                out.push(255);
                out.push((d >> 8) as u8);
                out.push((d & 255) as u8);
            } else {
                out.push(((len << 5) + (d >> 8)) as u8);
                out.push((d & 255) as u8);
            }
        } else {
            if !out.room(1) {
                return 0;
            }
            out.push(if far { (7 << 5) + 31 } else { ((7 << 5) + (d >> 8)) as u8 });
            let mut rest = len - 7;
            while rest >= 255 {
                if !out.room(1) {
                    return 0;
                }
                out.push(255);
                rest -= 255;
            }
            if far {
                if !out.room(4) {
                    return 0;
                }
                out.push(rest as u8);
                out.push(255);
                out.push((d >> 8) as u8);
                out.push((d & 255) as u8);
            } else {
                if !out.room(2) {
                    return 0;
                }
                out.push(rest as u8);
                out.push((d & 255) as u8);
            }
        }
        let seq = read_u32(input, ip);
        htab[hash(seq, hashlog)] = ip as u32;
        ip += 1;
        if clevel == 9 {
            htab[hash(seq >> 8, hashlog)] = ip as u32;
        }
        ip += 1;
        if !out.room(1) {
            return 0;
        }
        out.push((MAX_COPY - 1) as u8);
    }
    while ip <= ip_bound {
        if !out.room(2) {
            return 0;
        }
        out.push(input[ip]);
        ip += 1;
        copy += 1;
        if copy == MAX_COPY {
            copy = 0;
            out.push((MAX_COPY - 1) as u8);
        }
    }
    if copy > 0 {
        out.set(out.op - copy - 1, (copy - 1) as u8);
    } else {
        out.op -= 1;
    }
    let n = out.op;
    if let Some(first) = out.buf.first_mut() {
        *first |= 1 << 5;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::compress;
    use alloc::vec;
    use alloc::vec::Vec;

    fn roundtrip(data: &[u8], clevel: u8) -> Option<usize> {
        let mut out = vec![0u8; data.len()];
        let n = compress(clevel, data, &mut out);
        if n == 0 {
            return None;
        }
        let mut back = vec![0u8; data.len()];
        let m = super::super::decode::decompress(&out[..n], &mut back);
        assert_eq!(m, Some(data.len()), "clevel {clevel}");
        assert_eq!(back, data, "clevel {clevel}");
        Some(n)
    }

    #[test]
    fn compressible_data_roundtrips_at_every_level() {
        let data: Vec<u8> = (0..70_000u32).map(|i| (i % 64) as u8 ^ (i / 4096) as u8).collect();
        for clevel in 1..=9 {
            let n = roundtrip(&data, clevel).expect("compresses");
            assert!(n < data.len() / 2, "clevel {clevel}: {n}");
        }
        let runs = vec![9u8; 100_000];
        assert!(roundtrip(&runs, 5).unwrap() < 2000);
    }
}
