//! The match search along a hash chain, as zlib-rs 0.6.8's `longest_match` (levels 2-8) and
//! `longest_match_slow` (level 9, which also jumps to the chains of later bytes of the match).
//! The candidates it skips and where it stops are zlib-rs's: a first 8-byte compare while the
//! best match is shorter than 8, then a check of the first 8 bytes and of the 8 ending at the
//! best length, an early exit at levels below 5 on a candidate that is no longer.

use super::{MAX_DIST, STD_MAX_MATCH, STD_MIN_MATCH, State, W_MASK, WINDOW_BUF};

/// Levels below this stop at the first candidate that is not longer.
const EARLY_EXIT_TRIGGER_LEVEL: u8 = 5;
/// The first lazy level (`deflate_slow`), the only ones that search with a previous match.
const LAZY_LEVEL: u8 = 7;

/// The 8 bytes at `at`, little-endian.
#[inline(always)]
fn read_u64(window: &[u8], at: usize) -> u64 {
    match window.get(at..at + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => 0,
    }
}

/// The 8 bytes at a 16-bit position of an array that holds every such position and the 8 bytes
/// after it (the padded window, or a [`view_from`] it): no bounds check.
#[inline(always)]
fn read_at<const N: usize>(bytes: &[u8; N], at: u16) -> u64 {
    const { assert!(N >= VIEW) };
    let a = usize::from(at);
    let b = &bytes[a..a + 8];
    u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])
}

/// Bytes of a view of the window from an offset: any 16-bit position and the 8 bytes after it.
const VIEW: usize = (1 << 16) + 8;

/// The window from `offset` (at most 255) on, as an array: reads at 16-bit positions in it need
/// no bounds check, and its start is computed once a search rather than at every candidate.
#[inline(always)]
fn view_from(window: &[u8; WINDOW_BUF], offset: u8) -> Option<&[u8; VIEW]> {
    const { assert!(VIEW + u8::MAX as usize <= WINDOW_BUF) };
    let start = usize::from(offset);
    window.get(start..start + VIEW)?.try_into().ok()
}

/// Equal leading bytes of `a` and `b`, at most 256.
#[inline(always)]
pub(super) fn compare256_at(window: &[u8], a: usize, b: usize) -> usize {
    let (Some(x), Some(y)) = (window.get(a..a + 256), window.get(b..b + 256)) else {
        return 0;
    };
    for (i, (p, q)) in x.chunks_exact(8).zip(y.chunks_exact(8)).enumerate() {
        let diff = read_u64(p, 0) ^ read_u64(q, 0);
        if diff != 0 {
            return i * 8 + (diff.trailing_zeros() / 8) as usize;
        }
    }
    256
}

/// Where the check of the match's end starts, for a best length `best_len`.
#[inline(always)]
fn end_offset(best_len: usize) -> usize {
    let mut offset = best_len - 1;
    if best_len >= 4 {
        offset -= 2;
        if best_len >= 8 {
            offset -= 4;
        }
    }
    offset
}

impl State<'_> {
    /// The longest match at `strstart` along the chain from `cur_match`: its length (at most the
    /// look-ahead) and start; the length is `prev_length` (or 2) when none is longer. `SLOW`:
    /// level 9's search; `NO_LAZY`: called by levels 2-6.
    #[inline(always)]
    pub(super) fn longest_match<const SLOW: bool, const NO_LAZY: bool>(
        &self,
        mut cur_match: u16,
    ) -> (usize, u16) {
        let mut match_start = self.match_start;
        let strstart = self.strstart;
        let window = &*self.window;
        let prev = &self.prev[..];
        let lookahead = self.lookahead;
        let mut match_offset: u16 = 0;

        // Only the lazy levels (`SLOW` or not) keep a previous match; levels 2-6 always start
        // from no match, below every level's `good_match` (4 or 8): the whole chain.
        let lazy = self.level >= LAZY_LEVEL;
        debug_assert!(lazy || (self.prev_length == 0 && self.good_match > STD_MIN_MATCH as u16));
        let mut best_len =
            if lazy && self.prev_length > 0 { usize::from(self.prev_length) } else { STD_MIN_MATCH - 1 };
        let mut offset = end_offset(best_len);
        let mut chain_length = self.max_chain_length;
        if lazy && best_len >= usize::from(self.good_match) {
            chain_length >>= 2;
        }
        let nice_match = usize::from(self.nice_match);
        let mut limit = strstart.saturating_sub(MAX_DIST) as u16;
        let limit_base;
        let early_exit;
        let stop = |best_len: usize, match_start: u16| (best_len.min(lookahead), match_start);

        if SLOW {
            limit_base = limit;
            if best_len >= STD_MIN_MATCH {
                // Continuing a lazy search: follow the chain of the rarest later 3 bytes.
                let Some(scan) = window.get(strstart..strstart + best_len + 1) else {
                    return stop(best_len, match_start);
                };
                let mut hash = self.update_hash(0, u32::from(scan[1]));
                hash = self.update_hash(hash, u32::from(scan[2]));
                for (i, &b) in scan[3..].iter().enumerate() {
                    hash = self.update_hash(hash, u32::from(b));
                    let pos = self.head[hash as usize];
                    if pos < cur_match {
                        match_offset = (i + 1) as u16;
                        cur_match = pos;
                    }
                }
                limit = limit_base.wrapping_add(match_offset);
                if cur_match <= limit {
                    return stop(best_len, match_start);
                }
            }
            early_exit = false;
        } else {
            limit_base = 0;
            early_exit = self.level < EARLY_EXIT_TRIGGER_LEVEL;
        }

        // The next candidate of the chain, or the end of the search.
        macro_rules! next_in_chain {
            () => {
                chain_length = chain_length.wrapping_sub(1);
                if chain_length > 0 {
                    cur_match = prev[usize::from(cur_match) & W_MASK];
                    if cur_match > limit {
                        continue;
                    }
                }
                return (best_len, match_start);
            };
        }

        loop {
            if usize::from(cur_match) >= strstart {
                break;
            }
            let mut len = 0;
            if best_len < 8 {
                let scan_val = read_u64(window, strstart);
                loop {
                    let cmp = scan_val ^ read_at(window, cur_match.wrapping_sub(match_offset));
                    if cmp == 0 {
                        break;
                    }
                    let cmp_len = (cmp.trailing_zeros() / 8) as usize;
                    if cmp_len > best_len {
                        len = cmp_len;
                        break;
                    }
                    next_in_chain!();
                }
            } else {
                let (scan_start, scan_end) =
                    (read_u64(window, strstart), read_u64(window, strstart + offset));
                // `best_len` is at most 258 here: the offset fits a byte.
                debug_assert!(offset <= usize::from(u8::MAX));
                let Some(ends) = view_from(window, offset as u8) else {
                    return stop(best_len, match_start);
                };
                if SLOW || !NO_LAZY {
                    loop {
                        let at = cur_match.wrapping_sub(match_offset);
                        if read_at(ends, at) == scan_end && read_at(window, at) == scan_start {
                            break;
                        }
                        next_in_chain!();
                    }
                } else {
                    // The same steps (no match offset below level 9) with the position in a
                    // full register: no 16-bit extension or compare a candidate. Levels 2-6
                    // only (`NO_LAZY`): in the lazy levels' loop, where both searches are in
                    // line, it cost level 9 6 % more instructions (callgrind, `zlib_own`).
                    let lim = usize::from(limit);
                    let mut cur = usize::from(cur_match);
                    loop {
                        let at = cur as u16;
                        if read_at(ends, at) == scan_end && read_at(window, at) == scan_start {
                            break;
                        }
                        chain_length = chain_length.wrapping_sub(1);
                        if chain_length == 0 {
                            return (best_len, match_start);
                        }
                        cur = usize::from(prev[cur & W_MASK]);
                        if cur <= lim {
                            return (best_len, match_start);
                        }
                    }
                    cur_match = cur as u16;
                }
            }
            if len == 0 {
                let at = usize::from(cur_match.wrapping_sub(match_offset));
                len = compare256_at(window, strstart + 2, at + 2) + 2;
            }

            if len > best_len {
                match_start = cur_match.wrapping_sub(match_offset);
                if len >= lookahead {
                    return (lookahead, match_start);
                }
                best_len = len;
                if best_len >= nice_match {
                    return (best_len, match_start);
                }
                offset = end_offset(best_len);

                if SLOW && len > STD_MIN_MATCH && usize::from(match_start) + len < strstart {
                    // Switch to the most distant chain among the match's positions.
                    cur_match = cur_match.wrapping_sub(match_offset);
                    match_offset = 0;
                    let mut next_pos = cur_match;
                    for i in 0..=len - STD_MIN_MATCH {
                        let pos = prev[(usize::from(cur_match) + i) & W_MASK];
                        if pos < next_pos {
                            if pos <= limit_base.wrapping_add(i as u16) {
                                return stop(best_len, match_start);
                            }
                            next_pos = pos;
                            match_offset = i as u16;
                        }
                    }
                    cur_match = next_pos;

                    // And the chain of the 3 bytes before the match's end, if earlier.
                    let at = strstart + len - (STD_MIN_MATCH + 1);
                    let Some(&[s0, s1, s2]) = window.get(at..at + 3) else {
                        return stop(best_len, match_start);
                    };
                    let mut hash = self.update_hash(0, u32::from(s0));
                    hash = self.update_hash(hash, u32::from(s1));
                    hash = self.update_hash(hash, u32::from(s2));
                    let pos = self.head[hash as usize];
                    if pos < cur_match {
                        match_offset = (len - (STD_MIN_MATCH + 1)) as u16;
                        if pos <= limit_base.wrapping_add(match_offset) {
                            return stop(best_len, match_start);
                        }
                        cur_match = pos;
                    }
                    limit = limit_base.wrapping_add(match_offset);
                    continue;
                }
            } else if !SLOW && early_exit {
                break;
            }
            next_in_chain!();
        }
        debug_assert!(best_len <= STD_MAX_MATCH);
        (best_len, match_start)
    }
}
