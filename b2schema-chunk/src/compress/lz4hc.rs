//! LZ4HC as liblz4 1.10.0's `lz4hc.c` does it, for the levels c-blosc2 uses (1 to 9).
//!
//! c-blosc2 calls `LZ4_compress_HC(src, dst, neblock, maxout, clevel)` per stream (no
//! dictionary), with `maxout` below `LZ4_compressBound`, so liblz4 runs in limited-output mode
//! and gives up (0) when a sequence might not fit. The level picks the strategy (`k_clTable`):
//!
//! * **levels 1 and 2, `lz4mid`** ([`mid`]): two tables of 2^14 positions, one hashing 8 bytes
//!   (`LZ4MID_hash7` of the low 7), one hashing 4; the long one is tried first, a short match
//!   checks the next position's long candidate; misses skip faster the longer the literal run
//!   (`1 + run / 512`); a few positions inside each match are hashed in;
//! * **levels 3 to 9, hash chains** ([`hash_chain`]): a 2^15-entry head table and 64 Ki 16-bit
//!   chain links, `1 << (level - 1)` candidates per search (`nbSearches`), and the overlapping
//!   match logic of `LZ4HC_compress_hashChain` (ML1, ML2, ML3 with the `OPTIMAL_ML` squeeze);
//!   at level 9 (256 attempts) the repeated-pattern analysis of `LZ4HC_InsertAndGetWiderMatch`.
//!
//! Positions are kept as liblz4's indexes (`position + 64 KiB`, its fresh-state
//! `dictLimit`), so that an empty table slot (0) is always out of reach and the 16-bit chain
//! table aliases exactly as liblz4's does. Levels 10-12 (the optimal parser) are not
//! implemented: c-blosc2's clevel stops at 9.

use alloc::vec::Vec;

use super::lz4::{
    LASTLITERALS, LEN_MASK, MAX_DISTANCE, MFLIMIT, MIN_LENGTH, MINMATCH, Out, PRIME32, count, read_u32,
    read_u64,
};

/// Index of the first byte (`LZ4HC_init_internal`'s starting offset of a fresh state).
const PREFIX: u32 = 65_536;
/// `LZ4HC_HASH_LOG`.
const HC_HASH_LOG: u32 = 15;
/// `LZ4MID_HASHLOG`.
const MID_HASH_LOG: u32 = HC_HASH_LOG - 1;
/// The 64-bit multiplier of `LZ4MID_hash7`.
const PRIME7: u64 = 58_295_818_150_454_627;
/// `LZ4HC_DICTIONARY_LOGSIZE`: chain links are indexed by the low 16 bits.
const CHAIN_SIZE: usize = 1 << 16;
/// `OPTIMAL_ML`: `(ML_MASK - 1) + MINMATCH`.
const OPTIMAL_ML: isize = (LEN_MASK - 1 + MINMATCH) as isize;
/// Chains longer than this get the repeated-pattern analysis (level 9).
const PATTERN_ANALYSIS_ABOVE: u32 = 128;
/// The last level of the `lz4mid` strategy.
const MID_LEVEL_MAX: u8 = 2;

/// Compresses `input` as one LZ4 block into `output` (whose length is the limit) as
/// `LZ4_compress_HC(.., clevel)` does; 0 when it gives up.
pub(crate) fn compress(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    if input.len() > i32::MAX as usize - PREFIX as usize {
        return 0;
    }
    let level = clevel.clamp(1, 9);
    let mut out = Out { buf: output, op: 0 };
    let r = if level <= MID_LEVEL_MAX {
        mid(input, &mut out)
    } else {
        hash_chain(input, &mut out, 1 << (level - 1))
    };
    r.unwrap_or(0)
}

fn zeroed<T: Clone + Default>(n: usize) -> Option<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).ok()?;
    v.resize(n, T::default());
    Some(v)
}

/// One sequence as `LZ4HC_encodeSequence` writes it in limited-output mode: the literals
/// `input[anchor..ip]`, then a match of `mlen` at distance `dist`; `None` when liblz4's bound
/// says it might not fit.
fn sequence(
    out: &mut Out<'_>,
    input: &[u8],
    anchor: usize,
    ip: usize,
    mlen: usize,
    dist: usize,
) -> Option<()> {
    let ll = ip.checked_sub(anchor)?;
    let oend = out.buf.len();
    if out.op + 1 + ll / 255 + ll + (2 + 1 + LASTLITERALS) > oend {
        return None;
    }
    let token = out.literals(input.get(anchor..ip)?)?;
    out.match_offset(dist)?;
    let code = mlen.checked_sub(MINMATCH)?;
    if out.op + code / 255 + (1 + LASTLITERALS) > oend {
        return None;
    }
    out.match_length(token, mlen)
}

/// The last literals, `None` when they do not fit.
fn last_literals(out: &mut Out<'_>, input: &[u8], anchor: usize) -> Option<usize> {
    let run = input.len() - anchor;
    if out.op + 1 + (run + 255 - LEN_MASK) / 255 + run > out.buf.len() {
        return None;
    }
    out.last_literals(input.get(anchor..)?)?;
    Some(out.op)
}

// ---------------------------------------------------------------------------------------------
// lz4mid (levels 1-2)

#[inline(always)]
fn mid_hash4(input: &[u8], p: usize) -> usize {
    (read_u32(input, p).wrapping_mul(PRIME32) >> (32 - MID_HASH_LOG)) as usize
}

#[inline(always)]
fn mid_hash8(input: &[u8], p: usize) -> usize {
    ((read_u64(input, p) << 8).wrapping_mul(PRIME7) >> (64 - MID_HASH_LOG)) as usize
}

#[inline(always)]
fn put(table: &mut [u32], h: usize, idx: u32) {
    if let Some(slot) = table.get_mut(h) {
        *slot = idx;
    }
}

#[inline(always)]
fn get(table: &[u32], h: usize) -> u32 {
    table.get(h).copied().unwrap_or(0)
}

/// `LZ4MID_compress` without dictionary, limited output.
fn mid(input: &[u8], out: &mut Out<'_>) -> Option<usize> {
    let n = input.len();
    let mut anchor = 0usize;
    if n >= MIN_LENGTH {
        let mut h4t: Vec<u32> = zeroed(1 << MID_HASH_LOG)?;
        let mut h8t: Vec<u32> = zeroed(1 << MID_HASH_LOG)?;
        let mflimit = n - MFLIMIT;
        let matchlimit = n - LASTLITERALS;
        let ilimit_idx = (n - 8) as u32 + PREFIX;
        let idx = |p: usize| p as u32 + PREFIX;
        let mut ip = 0usize;
        while ip <= mflimit {
            let ip_index = idx(ip);
            let mut found: Option<(usize, u32)> = None;
            // Long match first.
            let h8 = mid_hash8(input, ip);
            let pos8 = get(&h8t, h8);
            put(&mut h8t, h8, ip_index);
            if ip_index.wrapping_sub(pos8) <= MAX_DISTANCE as u32 && pos8 >= PREFIX {
                let ml = count(input, ip, (pos8 - PREFIX) as usize, matchlimit);
                if ml >= MINMATCH {
                    found = Some((ml, ip_index - pos8));
                }
            }
            if found.is_none() {
                let h4 = mid_hash4(input, ip);
                let pos4 = get(&h4t, h4);
                put(&mut h4t, h4, ip_index);
                if ip_index.wrapping_sub(pos4) <= MAX_DISTANCE as u32 && pos4 >= PREFIX {
                    let ml = count(input, ip, (pos4 - PREFIX) as usize, matchlimit);
                    if ml >= MINMATCH {
                        // A short match: the next position's long candidate may be longer.
                        let h8b = mid_hash8(input, ip + 1);
                        let pos8b = get(&h8t, h8b);
                        let m2_dist = (ip_index + 1).wrapping_sub(pos8b);
                        let mut best = (ml, ip_index - pos4);
                        if m2_dist <= MAX_DISTANCE as u32 && pos8b >= PREFIX && ip < mflimit {
                            let ml2 = count(input, ip + 1, (pos8b - PREFIX) as usize, matchlimit);
                            if ml2 > ml {
                                put(&mut h8t, h8b, ip_index + 1);
                                ip += 1;
                                best = (ml2, m2_dist);
                            }
                        }
                        found = Some(best);
                    }
                }
            }
            let Some((mut ml, dist)) = found else {
                ip += 1 + ((ip - anchor) >> 9);
                continue;
            };
            let d = dist as usize;
            // Catch back.
            while ip > anchor && ip > d && input.get(ip - 1) == input.get(ip - d - 1) {
                ip -= 1;
                ml += 1;
            }
            // liblz4 hashes the positions after the (possibly moved) start with the indexes
            // counted from where the search began.
            put(&mut h8t, mid_hash8(input, ip + 1), ip_index + 1);
            put(&mut h8t, mid_hash8(input, ip + 2), ip_index + 2);
            put(&mut h4t, mid_hash4(input, ip + 1), ip_index + 1);
            sequence(out, input, anchor, ip, ml, d)?;
            ip += ml;
            anchor = ip;
            let end_idx = idx(ip);
            if end_idx - 2 < ilimit_idx {
                if ip > 5 {
                    put(&mut h8t, mid_hash8(input, ip - 5), end_idx - 5);
                }
                put(&mut h8t, mid_hash8(input, ip - 3), end_idx - 3);
                put(&mut h8t, mid_hash8(input, ip - 2), end_idx - 2);
                put(&mut h4t, mid_hash4(input, ip - 2), end_idx - 2);
                put(&mut h4t, mid_hash4(input, ip - 1), end_idx - 1);
            }
        }
    }
    last_literals(out, input, anchor)
}

// ---------------------------------------------------------------------------------------------
// Hash chains (levels 3-9)

/// A match: length, distance, and how far it reaches back before the searched position (<= 0).
#[derive(Clone, Copy, Default)]
struct Match {
    len: isize,
    off: usize,
    back: isize,
}

/// liblz4's HC tables over one input.
struct Chains<'a> {
    input: &'a [u8],
    head: Vec<u32>,
    chain: Vec<u16>,
    next_to_update: u32,
}

#[inline(always)]
fn hc_hash(input: &[u8], p: usize) -> usize {
    (read_u32(input, p).wrapping_mul(PRIME32) >> (32 - HC_HASH_LOG)) as usize
}

/// Bytes from `p` on that repeat `pattern` (its little-endian bytes in turn), before `end`.
fn count_pattern(input: &[u8], p: usize, end: usize, pattern: u32) -> usize {
    let bytes = pattern.to_le_bytes();
    let mut k = 0;
    while p + k < end && input.get(p + k) == Some(&bytes[k % 4]) {
        k += 1;
    }
    k
}

/// Bytes before `p` (down to `low`) that repeat `pattern` backwards (`LZ4HC_reverseCountPattern`).
fn reverse_count_pattern(input: &[u8], p: usize, low: usize, pattern: u32) -> usize {
    let mut q = p;
    while q >= low + 4 && read_u32(input, q - 4) == pattern {
        q -= 4;
    }
    let bytes = pattern.to_le_bytes();
    let mut j = 4;
    while q > low && j > 0 && input.get(q - 1) == Some(&bytes[j - 1]) {
        q -= 1;
        j -= 1;
    }
    p - q
}

/// Equal bytes right before `ip` and `m`, at most down to `ip_min` and `m_min`, as a
/// negative count (`LZ4HC_countBack`).
fn count_back(input: &[u8], ip: usize, m: usize, ip_min: usize, m_min: usize) -> isize {
    let limit = (ip - ip_min).min(m - m_min);
    let mut k = 0;
    while k < limit && input.get(ip - 1 - k) == input.get(m - 1 - k) {
        k += 1;
    }
    -(k as isize)
}

#[inline(always)]
fn read_u16(buf: &[u8], at: usize) -> Option<[u8; 2]> {
    buf.get(at..at + 2).map(|s| [s[0], s[1]])
}

/// `LZ4HC_protectDictEnd` for a dictionary that ends at `PREFIX`.
fn protect_dict_end(match_index: u32) -> bool {
    (PREFIX - 1).wrapping_sub(match_index) >= 3
}

impl Chains<'_> {
    #[inline(always)]
    fn link(&self, index: u32) -> u32 {
        u32::from(self.chain.get(index as u16 as usize).copied().unwrap_or(0))
    }

    /// `LZ4HC_Insert`: hashes every position before `ip` not yet in the tables.
    fn insert(&mut self, ip: usize) {
        let target = ip as u32 + PREFIX;
        let mut idx = self.next_to_update;
        while idx < target {
            let h = hc_hash(self.input, (idx - PREFIX) as usize);
            let delta = idx.wrapping_sub(get(&self.head, h)).min(MAX_DISTANCE as u32);
            if let Some(slot) = self.chain.get_mut(idx as u16 as usize) {
                *slot = delta as u16;
            }
            put(&mut self.head, h, idx);
            idx += 1;
        }
        self.next_to_update = target;
    }

    /// `LZ4HC_InsertAndGetWiderMatch` (no dictionary, no chain swap, favouring ratio): the
    /// longest match around `ip` that may start as far back as `i_low`, longer than `longest`.
    fn wider_match(
        &mut self,
        ip: usize,
        i_low: usize,
        i_high: usize,
        mut longest: isize,
        attempts: u32,
        pattern_analysis: bool,
    ) -> Match {
        let input = self.input;
        let ip_index = ip as u32 + PREFIX;
        let lowest =
            if PREFIX + MAX_DISTANCE as u32 + 1 > ip_index { PREFIX } else { ip_index - MAX_DISTANCE as u32 };
        let look_back = ip - i_low;
        let mut attempts_left = attempts;
        let pattern = read_u32(input, ip);
        let mut repeat: Option<bool> = None;
        let mut src_pattern_len = 0usize;
        let mut offset = 0usize;
        let mut s_back = 0isize;
        self.insert(ip);
        let mut match_index = get(&self.head, hc_hash(input, ip));
        while match_index >= lowest && attempts_left > 0 {
            attempts_left -= 1;
            let m = (match_index - PREFIX) as usize;
            let probe = (longest - 1) as usize;
            if read_u16(input, i_low + probe) == read_u16(input, (m + probe).wrapping_sub(look_back))
                && read_u32(input, m) == pattern
            {
                let back = if look_back > 0 { count_back(input, ip, m, i_low, 0) } else { 0 };
                let len = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize - back;
                if len > longest {
                    longest = len;
                    offset = ip_index.wrapping_sub(match_index) as usize;
                    s_back = back;
                }
            }
            let dist_next = self.link(match_index);
            if pattern_analysis && dist_next == 1 {
                let candidate = match_index - 1;
                if repeat.is_none() {
                    let confirmed =
                        (pattern & 0xFFFF) == (pattern >> 16) && (pattern & 0xFF) == (pattern >> 24);
                    repeat = Some(confirmed);
                    if confirmed {
                        src_pattern_len = count_pattern(input, ip + 4, i_high, pattern) + 4;
                    }
                }
                if repeat == Some(true) && candidate >= lowest && protect_dict_end(candidate) {
                    let mp = (candidate - PREFIX) as usize;
                    if read_u32(input, mp) == pattern {
                        let forward = count_pattern(input, mp + 4, i_high, pattern) + 4;
                        let back_len = reverse_count_pattern(input, mp, 0, pattern);
                        let back_len = candidate - candidate.wrapping_sub(back_len as u32).max(lowest);
                        let segment = back_len as usize + forward;
                        if segment >= src_pattern_len && forward <= src_pattern_len {
                            let new_index =
                                candidate.wrapping_add(forward as u32).wrapping_sub(src_pattern_len as u32);
                            match_index = if protect_dict_end(new_index) { new_index } else { PREFIX };
                        } else {
                            let new_index = candidate - back_len;
                            if !protect_dict_end(new_index) {
                                match_index = PREFIX;
                            } else {
                                match_index = new_index;
                                if look_back == 0 {
                                    let max_ml = segment.min(src_pattern_len);
                                    if (longest as usize) < max_ml {
                                        if (ip as u32 + PREFIX).wrapping_sub(match_index)
                                            > MAX_DISTANCE as u32
                                        {
                                            break;
                                        }
                                        longest = max_ml as isize;
                                        offset = (ip_index - match_index) as usize;
                                    }
                                    let to_next = self.link(match_index);
                                    if to_next > match_index {
                                        break;
                                    }
                                    match_index -= to_next;
                                }
                            }
                        }
                        continue;
                    }
                }
            }
            match_index = match_index.wrapping_sub(dist_next);
        }
        Match { len: longest, off: offset, back: s_back }
    }
}

/// `LZ4HC_compress_hashChain` without dictionary, limited output.
fn hash_chain(input: &[u8], out: &mut Out<'_>, attempts: u32) -> Option<usize> {
    let n = input.len();
    let mut anchor = 0usize;
    if n >= MIN_LENGTH {
        let pattern_analysis = attempts > PATTERN_ANALYSIS_ABOVE;
        let mut c = Chains {
            input,
            head: zeroed(1 << HC_HASH_LOG)?,
            chain: zeroed(CHAIN_SIZE)?,
            next_to_update: PREFIX,
        };
        let mflimit = n - MFLIMIT;
        let matchlimit = n - LASTLITERALS;
        let nomatch = Match::default();
        let mut ip = 0usize;
        // Positions are signed where liblz4 subtracts pointers.
        let at = |p: usize, d: isize| p.wrapping_add_signed(d);
        while ip <= mflimit {
            let mut m1 = c.wider_match(ip, ip, matchlimit, MINMATCH as isize - 1, attempts, pattern_analysis);
            if m1.len < MINMATCH as isize {
                ip += 1;
                continue;
            }
            let mut start0 = ip;
            let mut m0 = m1;
            let mut start2;
            let mut m2;
            let mut start3;
            let mut m3;
            // _Search2
            'search2: loop {
                if at(ip, m1.len) <= mflimit {
                    start2 = at(ip, m1.len - 2);
                    m2 = c.wider_match(start2, ip, matchlimit, m1.len, attempts, pattern_analysis);
                    start2 = at(start2, m2.back);
                } else {
                    start2 = 0;
                    m2 = nomatch;
                }
                if m2.len <= m1.len {
                    sequence(out, input, anchor, ip, m1.len as usize, m1.off)?;
                    ip = at(ip, m1.len);
                    anchor = ip;
                    break 'search2;
                }
                if start0 < ip && start2 < at(ip, m0.len) {
                    ip = start0;
                    m1 = m0;
                }
                if (start2 as isize - ip as isize) < 3 {
                    ip = start2;
                    m1 = m2;
                    continue 'search2;
                }
                // _Search3
                loop {
                    if (start2 as isize - ip as isize) < OPTIMAL_ML {
                        let mut new_ml = m1.len.min(OPTIMAL_ML);
                        if at(ip, new_ml) as isize > start2 as isize + m2.len - MINMATCH as isize {
                            new_ml = start2 as isize - ip as isize + m2.len - MINMATCH as isize;
                        }
                        let correction = new_ml - (start2 as isize - ip as isize);
                        if correction > 0 {
                            start2 = at(start2, correction);
                            m2.len -= correction;
                        }
                    }
                    if at(start2, m2.len) <= mflimit {
                        start3 = at(start2, m2.len - 3);
                        m3 = c.wider_match(start3, start2, matchlimit, m2.len, attempts, pattern_analysis);
                        start3 = at(start3, m3.back);
                    } else {
                        start3 = 0;
                        m3 = nomatch;
                    }
                    if m3.len <= m2.len {
                        // No better match: ML1 and ML2.
                        if start2 < at(ip, m1.len) {
                            m1.len = start2 as isize - ip as isize;
                        }
                        sequence(out, input, anchor, ip, m1.len as usize, m1.off)?;
                        anchor = at(ip, m1.len);
                        ip = start2;
                        sequence(out, input, anchor, ip, m2.len as usize, m2.off)?;
                        ip = at(ip, m2.len);
                        anchor = ip;
                        break 'search2;
                    }
                    if start3 < at(ip, m1.len + 3) {
                        // Not enough room for ML2: remove it.
                        if start3 >= at(ip, m1.len) {
                            if start2 < at(ip, m1.len) {
                                let correction = at(ip, m1.len) as isize - start2 as isize;
                                start2 = at(start2, correction);
                                m2.len -= correction;
                                if m2.len < MINMATCH as isize {
                                    start2 = start3;
                                    m2 = m3;
                                }
                            }
                            sequence(out, input, anchor, ip, m1.len as usize, m1.off)?;
                            ip = at(ip, m1.len);
                            anchor = ip;
                            ip = start3;
                            m1 = m3;
                            start0 = start2;
                            m0 = m2;
                            continue 'search2;
                        }
                        start2 = start3;
                        m2 = m3;
                        continue;
                    }
                    // Three ascending matches: write ML1.
                    if start2 < at(ip, m1.len) {
                        if (start2 as isize - ip as isize) < OPTIMAL_ML {
                            if m1.len > OPTIMAL_ML {
                                m1.len = OPTIMAL_ML;
                            }
                            if at(ip, m1.len) as isize > start2 as isize + m2.len - MINMATCH as isize {
                                m1.len = start2 as isize - ip as isize + m2.len - MINMATCH as isize;
                            }
                            let correction = m1.len - (start2 as isize - ip as isize);
                            if correction > 0 {
                                start2 = at(start2, correction);
                                m2.len -= correction;
                            }
                        } else {
                            m1.len = start2 as isize - ip as isize;
                        }
                    }
                    sequence(out, input, anchor, ip, m1.len as usize, m1.off)?;
                    ip = at(ip, m1.len);
                    anchor = ip;
                    ip = start2;
                    m1 = m2;
                    start2 = start3;
                    m2 = m3;
                }
            }
        }
    }
    last_literals(out, input, anchor)
}

#[cfg(test)]
mod tests {
    use super::compress;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn roundtrips_through_lz4_flex() {
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 5], vec![7; 13], vec![3; 100_000]];
        inputs.push((0..70_000u32).map(|i| ((i / 5) % 253) as u8 ^ (i % 7) as u8).collect());
        inputs.push((0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect());
        inputs
            .push((0..150_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize] ^ ((i / 997) as u8)).collect());
        for data in inputs {
            for clevel in 1u8..=9 {
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
