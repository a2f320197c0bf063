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
//! With `use_dict`, c-blosc2 loads the chunk's dictionary into an HC stream for each stream
//! (`LZ4_loadDictHC`) and compresses with `LZ4_compress_HC_continue`: [`compress_with_dict`]
//! runs the same two strategies with the dictionary as an external one before the block.
//!
//! Positions are kept as liblz4's indexes (`position + 64 KiB`, its fresh-state
//! `dictLimit`), so that an empty table slot (0) is always out of reach and the 16-bit chain
//! table aliases exactly as liblz4's does. Levels 10-12 (the optimal parser) are not
//! implemented: c-blosc2's clevel stops at 9.

use alloc::vec::Vec;

use super::encode::{
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
/// `LZ4MID_HASHSIZE`.
const MID_HASH_SIZE: usize = 8;
/// The last level of the `lz4mid` strategy.
const MID_LEVEL_MAX: u8 = 2;

/// Compresses `input` as one LZ4 block into `output` (whose length is the limit) as
/// `LZ4_compress_HC(.., clevel)` does; 0 when it gives up.
pub(crate) fn compress(clevel: u8, input: &[u8], output: &mut [u8]) -> usize {
    if input.len() > i32::MAX as usize - PREFIX as usize {
        return 0;
    }
    encode(clevel, input, 0, output)
}

/// The window of an LZ4 dictionary: `LZ4_loadDictHC` keeps its last 64 KiB.
const DICT_WINDOW: usize = 64 * 1024;

/// Compresses `input` as one LZ4 block that may reference `dict` (the 64 KiB before it), as
/// c-blosc2's `lz4hc_wrap_compress` does with a dictionary: `LZ4_resetStreamHC_fast(stream,
/// clevel)`, `LZ4_loadDictHC(stream, dict)`, then `LZ4_compress_HC_continue` in
/// limited-output mode (the dictionary an external one: `LZ4HC_setExternalDict`); 0 when it
/// gives up. It decodes with `LZ4_decompress_safe_usingDict(.., dict)`.
///
/// The dictionary's window and the block are laid end to end in one buffer (allocated here; 0
/// when that fails), with liblz4's indexes: the dictionary from 64 KiB (`lowLimit`), the block
/// right after it (`dictLimit`). As liblz4 1.10.0:
///
/// * `lz4mid` (levels 1-2): the dictionary is hashed as `LZ4MID_fillHTable` does (one
///   position in 3 into both tables, then every position of its last 32 KiB into the long
///   one); a match found in the dictionary stops at its end, is not caught up backwards, and
///   a short one does not try the next position;
/// * hash chains (levels 3-9): `LZ4HC_Insert` up to the dictionary's last 3 bytes; a match in
///   the dictionary may run on into the block and reach back to the dictionary's start, one in
///   the block back to the block's start; the repeated-pattern analysis sees the dictionary
///   and the block as one.
pub(crate) fn compress_with_dict(clevel: u8, dict: &[u8], input: &[u8], output: &mut [u8]) -> usize {
    if input.len() > i32::MAX as usize - PREFIX as usize - DICT_WINDOW {
        return 0;
    }
    let window = &dict[dict.len().saturating_sub(DICT_WINDOW)..];
    let mut buf = Vec::new();
    if buf.try_reserve_exact(window.len() + input.len()).is_err() {
        return 0;
    }
    buf.extend_from_slice(window);
    buf.extend_from_slice(input);
    encode(clevel, &buf, window.len(), output)
}

/// The block `buf[dsize..]` after the dictionary `buf[..dsize]` (none when `dsize` is 0).
fn encode(clevel: u8, buf: &[u8], dsize: usize, output: &mut [u8]) -> usize {
    let level = clevel.clamp(1, 9);
    let mut out = Out { buf: output, op: 0 };
    let r = if level <= MID_LEVEL_MAX {
        mid(buf, dsize, &mut out)
    } else {
        hash_chain(buf, dsize, &mut out, 1 << (level - 1))
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

/// `LZ4MID_compress` in limited-output mode of the block `input[dsize..]`, with the external
/// dictionary `input[..dsize]` (`LZ4MID_fillHTable` first) when `dsize > 0`.
fn mid(input: &[u8], dsize: usize, out: &mut Out<'_>) -> Option<usize> {
    let n = input.len() - dsize;
    let mut anchor = dsize;
    if n >= MIN_LENGTH {
        let mut h4t: Vec<u32> = zeroed(1 << MID_HASH_LOG)?;
        let mut h8t: Vec<u32> = zeroed(1 << MID_HASH_LOG)?;
        let idx = |p: usize| p as u32 + PREFIX;
        // The block's first index (`dictLimit`); the dictionary's is PREFIX (`lowLimit`).
        let prefix_idx = idx(dsize);
        if dsize > MID_HASH_SIZE {
            // LZ4MID_fillHTable, run by LZ4_loadDictHC while the dictionary is the prefix.
            let target = idx(dsize - MID_HASH_SIZE);
            let mut i = PREFIX;
            while i < target {
                let p = (i - PREFIX) as usize;
                put(&mut h4t, mid_hash4(input, p), i);
                put(&mut h8t, mid_hash8(input, p + 1), i + 1);
                i += 3;
            }
            i = if dsize > 32 * 1024 + MID_HASH_SIZE { target - 32 * 1024 } else { PREFIX };
            while i < target {
                put(&mut h8t, mid_hash8(input, (i - PREFIX) as usize), i);
                i += 1;
            }
        }
        let mflimit = dsize + n - MFLIMIT;
        let matchlimit = dsize + n - LASTLITERALS;
        let ilimit_idx = idx(dsize + n - MID_HASH_SIZE);
        // A candidate in the dictionary counts up to its end only (`safeLen`).
        let candidate = |ip: usize, pos: u32| -> usize {
            let m = (pos - PREFIX) as usize;
            if pos >= prefix_idx {
                count(input, ip, m, matchlimit)
            } else {
                count(input, ip, m, ip + ((prefix_idx - pos) as usize).min(matchlimit - ip))
            }
        };
        let mut ip = dsize;
        while ip <= mflimit {
            let ip_index = idx(ip);
            let mut found: Option<(usize, u32)> = None;
            // Long match first.
            let h8 = mid_hash8(input, ip);
            let pos8 = get(&h8t, h8);
            put(&mut h8t, h8, ip_index);
            if ip_index.wrapping_sub(pos8) <= MAX_DISTANCE as u32 && pos8 >= PREFIX {
                let ml = candidate(ip, pos8);
                if ml >= MINMATCH {
                    found = Some((ml, ip_index - pos8));
                }
            }
            if found.is_none() {
                let h4 = mid_hash4(input, ip);
                let pos4 = get(&h4t, h4);
                put(&mut h4t, h4, ip_index);
                if ip_index.wrapping_sub(pos4) <= MAX_DISTANCE as u32 && pos4 >= PREFIX {
                    let ml = candidate(ip, pos4);
                    if ml >= MINMATCH && pos4 < prefix_idx {
                        // In the dictionary: no look at the next position.
                        found = Some((ml, ip_index - pos4));
                    } else if ml >= MINMATCH {
                        // A short match: the next position's long candidate may be longer.
                        let h8b = mid_hash8(input, ip + 1);
                        let pos8b = get(&h8t, h8b);
                        let m2_dist = (ip_index + 1).wrapping_sub(pos8b);
                        let mut best = (ml, ip_index - pos4);
                        if m2_dist <= MAX_DISTANCE as u32 && pos8b >= prefix_idx && ip < mflimit {
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
            // Catch back, within the block only.
            while ip > anchor && ip - dsize > d && input.get(ip - 1) == input.get(ip - d - 1) {
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
                if ip - dsize > 5 {
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
    /// Where the block starts in `input` (after the dictionary) and its index (`dictLimit`).
    dsize: usize,
    prefix_idx: u32,
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

/// `LZ4HC_protectDictEnd` for a dictionary that ends at `prefix_idx`.
fn protect_dict_end(prefix_idx: u32, match_index: u32) -> bool {
    (prefix_idx - 1).wrapping_sub(match_index) >= 3
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

    /// `LZ4HC_InsertAndGetWiderMatch` (external dictionary or none, no chain swap, favouring
    /// ratio): the longest match around `ip` that may start as far back as `i_low`, longer than
    /// `longest`.
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
        let (dsize, prefix_idx) = (self.dsize, self.prefix_idx);
        let protect_dict_end = |index| protect_dict_end(prefix_idx, index);
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
            if match_index >= prefix_idx {
                if read_u16(input, i_low + probe) == read_u16(input, (m + probe).wrapping_sub(look_back))
                    && read_u32(input, m) == pattern
                {
                    let back = if look_back > 0 { count_back(input, ip, m, i_low, dsize) } else { 0 };
                    let len = (MINMATCH + count(input, ip + MINMATCH, m + MINMATCH, i_high)) as isize - back;
                    if len > longest {
                        longest = len;
                        offset = ip_index.wrapping_sub(match_index) as usize;
                        s_back = back;
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

/// `LZ4HC_compress_hashChain` in limited-output mode of the block `input[dsize..]`, with the
/// external dictionary `input[..dsize]` (inserted first, as `LZ4_loadDictHC`) when `dsize > 0`.
fn hash_chain(input: &[u8], dsize: usize, out: &mut Out<'_>, attempts: u32) -> Option<usize> {
    let n = input.len() - dsize;
    let mut anchor = dsize;
    if n >= MIN_LENGTH {
        let pattern_analysis = attempts > PATTERN_ANALYSIS_ABOVE;
        let mut c = Chains {
            input,
            head: zeroed(1 << HC_HASH_LOG)?,
            chain: zeroed(CHAIN_SIZE)?,
            next_to_update: PREFIX,
            dsize,
            prefix_idx: PREFIX + dsize as u32,
        };
        if dsize >= MINMATCH {
            // LZ4_loadDictHC: every position but the last 3; then LZ4HC_setExternalDict
            // resumes at the block.
            c.insert(dsize - 3);
        }
        c.next_to_update = c.prefix_idx;
        let mflimit = dsize + n - MFLIMIT;
        let matchlimit = dsize + n - LASTLITERALS;
        let nomatch = Match::default();
        let mut ip = dsize;
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
    use super::super::encode::tests::{flex, noise};
    use super::{compress, compress_with_dict};
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

    #[test]
    fn dictionary_streams_roundtrip_through_lz4_flex() {
        // Dictionaries of noise and of repeated patterns (the pattern analysis at level 9 runs
        // across the dictionary's end), short and over the 64 KiB window.
        let pattern: Vec<u8> = (0..40_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize]).collect();
        let mut runs = noise(3000, 5);
        runs.extend_from_slice(&[0xAA; 5000]);
        let dicts =
            [noise(256, 1), noise(32 * 1024, 2), noise(100_000, 3), pattern, runs, vec![1, 2, 3], vec![]];
        for dict in &dicts {
            let d = dict.len();
            let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 12], vec![7; 13], noise(3000, 9)];
            let mut mixed = Vec::new();
            for (a, b) in [
                (0, d.min(700)),
                (d.saturating_sub(900), d),
                (d.saturating_sub(70_000), d.saturating_sub(60_000)),
            ] {
                mixed.extend_from_slice(&dict[a..b]);
                mixed.extend_from_slice(&noise(50, b as u64));
            }
            mixed.extend_from_slice(&[0xAA; 3000]);
            mixed.extend((0..80_000u32).map(|i| [1u8, 2, 1, 2, 9][(i % 5) as usize] ^ ((i / 997) as u8)));
            inputs.push(mixed);
            // Starts with what the dictionary ends with.
            let mut cont = dict[d.saturating_sub(2000)..].to_vec();
            cont.extend_from_slice(&dict[d.saturating_sub(2000)..]);
            cont.extend_from_slice(&noise(100, 8));
            inputs.push(cont);
            for data in &inputs {
                for clevel in 1u8..=9 {
                    let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                    let n = compress_with_dict(clevel, dict, data, &mut out);
                    assert!(n > 0, "dict {d} input {} clevel {clevel}", data.len());
                    let back = flex(&out[..n], data.len(), dict);
                    assert!(
                        back.as_deref() == Some(&data[..]),
                        "dict {d} input {} clevel {clevel}",
                        data.len()
                    );
                    assert_eq!(compress_with_dict(clevel, dict, data, &mut out[..n - 1]), 0);
                }
            }
        }
    }

    #[test]
    fn dictionary_matches_reach_into_the_dictionary() {
        for dsize in [1000usize, 32 * 1024, 65_536] {
            let dict = noise(dsize, dsize as u64);
            let mut data = dict[dsize - 500..].to_vec();
            data.extend_from_slice(&dict[..500]);
            data.extend_from_slice(&noise(20, 77));
            for clevel in 1u8..=9 {
                let mut out = vec![0u8; data.len()];
                let n = compress_with_dict(clevel, &dict, &data, &mut out);
                // The dictionary's first bytes are within reach when it is under 64 KiB - 500.
                let far = dsize > 65_536 - 500;
                assert!(n > 0 && (far || n < 100), "dsize {dsize} clevel {clevel}: {n} bytes");
                assert!(flex(&out[..n], data.len(), &dict).as_deref() == Some(&data[..]), "dsize {dsize}");
                assert!(
                    flex(&out[..n], data.len(), &[]).is_none(),
                    "dsize {dsize}: decodes without the dictionary"
                );
                assert_eq!(compress(clevel, &data, &mut out), 0, "dsize {dsize}");
            }
        }
    }
}
