//! Hash chains (levels 3 to 9): `LZ4HC_compress_hashChain` in limited-output mode, with
//! `LZ4HC_InsertAndGetWiderMatch` as the match finder.

use super::super::encode::{
    LASTLITERALS, MAX_DISTANCE, MFLIMIT, MIN_LENGTH, MINMATCH, Out, PRIME32, count, read_u32,
};
use super::sequence::{OPTIMAL_ML, last_literals, read2, sequence};
use super::tables::{CHAIN_SIZE, HEAD_LOG, Tables};

/// Chains longer than this get the repeated-pattern analysis (level 9).
const PATTERN_ANALYSIS_ABOVE: u32 = 128;

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
    head: &'a mut [u32; 1 << HEAD_LOG],
    chain: &'a mut [u16; CHAIN_SIZE],
    /// The index of `input[0]` (`lowLimit`).
    base: u32,
    next_to_update: u32,
    /// Where the block starts in `input` (after the dictionary) and its index (`dictLimit`).
    dsize: usize,
    prefix_idx: u32,
}

#[inline(always)]
fn hc_hash(input: &[u8], p: usize) -> usize {
    (read_u32(input, p).wrapping_mul(PRIME32) >> (32 - HEAD_LOG)) as usize
}

/// Bytes from `p` on that repeat `pattern` (its little-endian bytes in turn), before `end`.
/// Eight bytes at a time as `LZ4HC_countPattern`.
fn count_pattern(input: &[u8], p: usize, end: usize, pattern: u32) -> usize {
    let Some(s) = input.get(p..end) else {
        return 0;
    };
    let pattern = u64::from(pattern) | (u64::from(pattern) << 32);
    let (chunks, rest) = s.as_chunks::<8>();
    let mut n = 0;
    for c in chunks {
        let diff = u64::from_le_bytes(*c) ^ pattern;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + rest.iter().zip(pattern.to_le_bytes()).take_while(|&(&a, b)| a == b).count()
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
/// Eight bytes at a time from the end.
#[inline(always)]
fn count_back(input: &[u8], ip: usize, m: usize, ip_min: usize, m_min: usize) -> isize {
    let limit = (ip - ip_min).min(m - m_min);
    let (Some(a), Some(b)) = (input.get(ip - limit..ip), input.get(m - limit..m)) else {
        return 0;
    };
    let (a_rest, a_chunks) = a.as_rchunks::<8>();
    let (b_rest, b_chunks) = b.as_rchunks::<8>();
    let mut k = 0;
    for (x, y) in a_chunks.iter().rev().zip(b_chunks.iter().rev()) {
        let diff = u64::from_le_bytes(*x) ^ u64::from_le_bytes(*y);
        if diff != 0 {
            return -((k + diff.leading_zeros() as usize / 8) as isize);
        }
        k += 8;
    }
    -((k + a_rest.iter().rev().zip(b_rest.iter().rev()).take_while(|(x, y)| x == y).count()) as isize)
}

/// `LZ4HC_protectDictEnd` for a dictionary that ends at `prefix_idx`.
fn protect_dict_end(prefix_idx: u32, match_index: u32) -> bool {
    (prefix_idx - 1).wrapping_sub(match_index) >= 3
}

impl Chains<'_> {
    #[inline(always)]
    fn link(&self, index: u32) -> u32 {
        u32::from(self.chain[index as u16 as usize])
    }

    /// `LZ4HC_Insert`: hashes every position before `ip` not yet in the tables.
    #[inline(always)]
    fn insert(&mut self, ip: usize) {
        let target = ip as u32 + self.base;
        let mut idx = self.next_to_update;
        while idx < target {
            let h = hc_hash(self.input, (idx - self.base) as usize);
            let delta = idx.wrapping_sub(self.head[h]).min(MAX_DISTANCE as u32);
            self.chain[idx as u16 as usize] = delta as u16;
            self.head[h] = idx;
            idx += 1;
        }
        self.next_to_update = target;
    }

    /// The parser's first searches from `ip` on, up to `mflimit`, until one finds a match
    /// (`LZ4HC_InsertAndGetWiderMatch` with `iLowLimit == ip` and `longest == MINMATCH - 1`,
    /// the position moving on by one after each miss), without a dictionary or the pattern
    /// analysis: the position and the match, or a position past `mflimit` and no match. As
    /// [`Chains::wider_match`] at each position, in fewer steps:
    ///
    /// * each position goes into the tables when it is searched, with the hash its search
    ///   computes (liblz4 inserts it at the next search, before anything else reads the
    ///   tables: the same links and heads); the walk starts from the head it replaced, the
    ///   candidate liblz4 reads first;
    /// * until a candidate matches, the probe is its first 4 bytes alone (the two-byte probe
    ///   at `longest - 1 == 2` reads bytes 2 and 3 of the same 4); nothing reaches back
    ///   (`back` is 0 when `iLowLimit == ip`);
    /// * the loop over positions is a function of its own, its values in registers.
    ///
    /// Where positions from `ip` on are already in the tables (not the parser's case), those
    /// are searched by [`Chains::wider_match`].
    #[inline(never)]
    fn next_match(&mut self, mut ip: usize, mflimit: usize, i_high: usize, attempts: u32) -> (usize, Match) {
        let none = Match { len: MINMATCH as isize - 1, off: 0, back: 0 };
        let base = self.base;
        while ip <= mflimit && self.next_to_update > ip as u32 + base {
            let m = self.wider_match::<false, false>(ip, ip, i_high, MINMATCH as isize - 1, attempts);
            if m.len >= MINMATCH as isize {
                return (ip, m);
            }
            ip += 1;
        }
        if ip > mflimit {
            return (ip, none);
        }
        self.insert(ip);
        let input = self.input;
        let (head, chain) = (&mut *self.head, &mut *self.chain);
        while ip <= mflimit {
            let ip_index = ip as u32 + base;
            let lowest = ip_index.saturating_sub(MAX_DISTANCE as u32).max(base);
            let pattern = read_u32(input, ip);
            let h = (pattern.wrapping_mul(PRIME32) >> (32 - HEAD_LOG)) as usize;
            let mut match_index = head[h];
            chain[ip_index as u16 as usize] =
                ip_index.wrapping_sub(match_index).min(MAX_DISTANCE as u32) as u16;
            head[h] = ip_index;
            let mut attempts_left = attempts;
            // No match yet: the first 4 bytes decide.
            while match_index >= lowest && attempts_left > 0 {
                attempts_left -= 1;
                let dist_next = u32::from(chain[match_index as u16 as usize]);
                let m = (match_index - base) as usize;
                if read_u32(input, m) == pattern {
                    let mut longest = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize;
                    let mut offset = ip_index.wrapping_sub(match_index) as usize;
                    let mut tail = read2(input, ip + (longest - 1) as usize);
                    match_index = match_index.wrapping_sub(dist_next);
                    // A match: the candidates after it must repeat its last two bytes.
                    while match_index >= lowest && attempts_left > 0 {
                        attempts_left -= 1;
                        let dist_next = u32::from(chain[match_index as u16 as usize]);
                        let m = (match_index - base) as usize;
                        if tail == read2(input, m + (longest - 1) as usize) && read_u32(input, m) == pattern {
                            let len = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize;
                            if len > longest {
                                longest = len;
                                offset = ip_index.wrapping_sub(match_index) as usize;
                                tail = read2(input, ip + (longest - 1) as usize);
                            }
                        }
                        match_index = match_index.wrapping_sub(dist_next);
                    }
                    self.next_to_update = ip_index + 1;
                    return (ip, Match { len: longest, off: offset, back: 0 });
                }
                match_index = match_index.wrapping_sub(dist_next);
            }
            ip += 1;
        }
        self.next_to_update = ip as u32 + base;
        (ip, none)
    }

    /// `LZ4HC_InsertAndGetWiderMatch` (external dictionary or none, no chain swap, favouring
    /// ratio): the longest match around `ip` that may start as far back as `i_low`, longer than
    /// `longest`. `DICT`: whether there is a dictionary; `PATTERN`: whether the repeated-pattern
    /// analysis runs (each pair its own loop, as liblz4's inlining gives).
    #[inline(always)]
    fn wider_match<const DICT: bool, const PATTERN: bool>(
        &mut self,
        ip: usize,
        i_low: usize,
        i_high: usize,
        mut longest: isize,
        attempts: u32,
    ) -> Match {
        let input = self.input;
        let (dsize, prefix_idx, base) = (self.dsize, self.prefix_idx, self.base);
        let protect_dict_end = |index| protect_dict_end(prefix_idx, index);
        let ip_index = ip as u32 + base;
        let lowest =
            if base + MAX_DISTANCE as u32 + 1 > ip_index { base } else { ip_index - MAX_DISTANCE as u32 };
        let look_back = ip - i_low;
        let mut attempts_left = attempts;
        let pattern = read_u32(input, ip);
        let mut repeat: Option<bool> = None;
        let mut src_pattern_len = 0usize;
        let mut offset = 0usize;
        let mut s_back = 0isize;
        self.insert(ip);
        let mut match_index = self.head[hc_hash(input, ip)];
        // The two bytes at the end of the longest match so far, which a longer one must repeat.
        let mut tail = read2(input, i_low + (longest - 1) as usize);
        while match_index >= lowest && attempts_left > 0 {
            attempts_left -= 1;
            // The next link is read first, so that its load overlaps the candidate's.
            let dist_next = self.link(match_index);
            let m = (match_index - base) as usize;
            if !DICT || match_index >= prefix_idx {
                if tail == read2(input, (m + (longest - 1) as usize).wrapping_sub(look_back))
                    && read_u32(input, m) == pattern
                {
                    let back = if look_back > 0 { count_back(input, ip, m, i_low, dsize) } else { 0 };
                    let len = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize - back;
                    if len > longest {
                        longest = len;
                        offset = ip_index.wrapping_sub(match_index) as usize;
                        s_back = back;
                        tail = read2(input, i_low + (longest - 1) as usize);
                    }
                }
            } else if match_index + MINMATCH as u32 <= prefix_idx && read_u32(input, m) == pattern {
                // In the dictionary: the match may run on into the block (liblz4 counts to the
                // dictionary's end, then from the block's start) and reach back to its start.
                let back = if look_back > 0 { count_back(input, ip, m, i_low, 0) } else { 0 };
                let len = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize - back;
                if len > longest {
                    longest = len;
                    offset = ip_index.wrapping_sub(match_index) as usize;
                    s_back = back;
                    tail = read2(input, i_low + (longest - 1) as usize);
                }
            }
            if PATTERN && dist_next == 1 {
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
                    let mp = (candidate - base) as usize;
                    if read_u32(input, mp) == pattern {
                        let forward = count_pattern(input, mp + 4, i_high, pattern) + 4;
                        let back_len = reverse_count_pattern(input, mp, 0, pattern);
                        let back_len = candidate - candidate.wrapping_sub(back_len as u32).max(lowest);
                        let segment = back_len as usize + forward;
                        if segment >= src_pattern_len && forward <= src_pattern_len {
                            let new_index =
                                candidate.wrapping_add(forward as u32).wrapping_sub(src_pattern_len as u32);
                            match_index = if protect_dict_end(new_index) { new_index } else { prefix_idx };
                        } else {
                            let new_index = candidate - back_len;
                            if !protect_dict_end(new_index) {
                                match_index = prefix_idx;
                            } else {
                                match_index = new_index;
                                if look_back == 0 {
                                    let max_ml = segment.min(src_pattern_len);
                                    if (longest as usize) < max_ml {
                                        if ip_index.wrapping_sub(match_index) > MAX_DISTANCE as u32 {
                                            break;
                                        }
                                        longest = max_ml as isize;
                                        tail = read2(input, i_low + (longest - 1) as usize);
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

    /// The next match of the parser (`_Search2`, `_Search3`): after the one of `len` at `p`,
    /// searched from `len - from_end` bytes on and reaching back to `low`; its start and itself,
    /// none (start 0) when the one at `p` ends past `mflimit`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn overlapping<const DICT: bool, const PATTERN: bool>(
        &mut self,
        p: usize,
        len: isize,
        from_end: isize,
        low: usize,
        mflimit: usize,
        matchlimit: usize,
        attempts: u32,
    ) -> (usize, Match) {
        if p.wrapping_add_signed(len) > mflimit {
            return (0, Match::default());
        }
        let start = p.wrapping_add_signed(len - from_end);
        let m = self.wider_match::<DICT, PATTERN>(start, low, matchlimit, len, attempts);
        (start.wrapping_add_signed(m.back), m)
    }
}

/// `LZ4HC_compress_hashChain` in limited-output mode of the block `input[dsize..]`, with the
/// external dictionary `input[..dsize]` (inserted first, as `LZ4_loadDictHC`) when `dsize > 0`.
pub(super) fn hash_chain(
    input: &[u8],
    dsize: usize,
    out: &mut Out<'_>,
    attempts: u32,
    tables: &mut Tables,
) -> Option<usize> {
    match (dsize > 0, attempts > PATTERN_ANALYSIS_ABOVE) {
        (false, false) => hash_chain_as::<false, false>(input, dsize, out, attempts, tables),
        (false, true) => hash_chain_as::<false, true>(input, dsize, out, attempts, tables),
        (true, false) => hash_chain_as::<true, false>(input, dsize, out, attempts, tables),
        (true, true) => hash_chain_as::<true, true>(input, dsize, out, attempts, tables),
    }
}

fn hash_chain_as<const DICT: bool, const PATTERN: bool>(
    input: &[u8],
    dsize: usize,
    out: &mut Out<'_>,
    attempts: u32,
    tables: &mut Tables,
) -> Option<usize> {
    let n = input.len() - dsize;
    let mut anchor = dsize;
    if n >= MIN_LENGTH {
        let base = tables.start(input.len());
        let mut c = Chains {
            input,
            head: tables.heads.as_flattened_mut().try_into().ok()?,
            chain: &mut tables.chain,
            base,
            next_to_update: base,
            dsize,
            prefix_idx: base + dsize as u32,
        };
        if dsize >= MINMATCH {
            // LZ4_loadDictHC: every position but the last 3; then LZ4HC_setExternalDict
            // resumes at the block.
            c.insert(dsize - 3);
        }
        c.next_to_update = c.prefix_idx;
        let mflimit = dsize + n - MFLIMIT;
        let matchlimit = dsize + n - LASTLITERALS;
        let mut ip = dsize;
        // Positions are signed where liblz4 subtracts pointers.
        let at = |p: usize, d: isize| p.wrapping_add_signed(d);
        while ip <= mflimit {
            let mut m1 = if DICT || PATTERN {
                c.wider_match::<DICT, PATTERN>(ip, ip, matchlimit, MINMATCH as isize - 1, attempts)
            } else {
                let (at, m) = c.next_match(ip, mflimit, matchlimit, attempts);
                ip = at;
                m
            };
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
                (start2, m2) =
                    c.overlapping::<DICT, PATTERN>(ip, m1.len, 2, ip, mflimit, matchlimit, attempts);
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
                    (start3, m3) = c.overlapping::<DICT, PATTERN>(
                        start2, m2.len, 3, start2, mflimit, matchlimit, attempts,
                    );
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
