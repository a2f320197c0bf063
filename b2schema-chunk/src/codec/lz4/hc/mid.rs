//! `lz4mid` (levels 1 and 2): `LZ4MID_compress` in limited-output mode.

use super::super::encode::{
    LASTLITERALS, MAX_DISTANCE, MFLIMIT, MIN_LENGTH, MINMATCH, Out, PRIME32, count, read_u32, read_u64,
};
use super::sequence::{last_literals, sequence};
use super::tables::{HALF_LOG, Tables};

/// The 64-bit multiplier of `LZ4MID_hash7`.
const PRIME7: u64 = 58_295_818_150_454_627;
/// `LZ4MID_HASHSIZE`.
const MID_HASH_SIZE: usize = 8;

#[inline(always)]
fn hash4(input: &[u8], p: usize) -> usize {
    (read_u32(input, p).wrapping_mul(PRIME32) >> (32 - HALF_LOG)) as usize
}

#[inline(always)]
fn hash8(input: &[u8], p: usize) -> usize {
    ((read_u64(input, p) << 8).wrapping_mul(PRIME7) >> (64 - HALF_LOG)) as usize
}

/// `LZ4MID_compress` of the block `input[dsize..]`, with the external dictionary
/// `input[..dsize]` (`LZ4MID_fillHTable` first) when `dsize > 0`.
pub(super) fn mid(input: &[u8], dsize: usize, out: &mut Out<'_>, tables: &mut Tables) -> Option<usize> {
    let n = input.len() - dsize;
    let mut anchor = dsize;
    if n < MIN_LENGTH {
        return last_literals(out, input, anchor);
    }
    // The dictionary's first index (`lowLimit`) and the block's (`dictLimit`).
    let base = tables.start(input.len());
    let [h4t, h8t] = &mut *tables.heads;
    let idx = |p: usize| p as u32 + base;
    let prefix_idx = idx(dsize);
    if dsize > MID_HASH_SIZE {
        // LZ4MID_fillHTable, run by LZ4_loadDictHC while the dictionary is the prefix.
        let target = idx(dsize - MID_HASH_SIZE);
        let mut i = base;
        while i < target {
            let p = (i - base) as usize;
            h4t[hash4(input, p)] = i;
            h8t[hash8(input, p + 1)] = i + 1;
            i += 3;
        }
        i = if dsize > 32 * 1024 + MID_HASH_SIZE { target - 32 * 1024 } else { base };
        while i < target {
            h8t[hash8(input, (i - base) as usize)] = i;
            i += 1;
        }
    }
    let mflimit = dsize + n - MFLIMIT;
    let matchlimit = dsize + n - LASTLITERALS;
    let ilimit_idx = idx(dsize + n - MID_HASH_SIZE);
    // A candidate in the dictionary counts up to its end only (`safeLen`).
    let limit = |ip: usize, pos: u32| -> usize {
        if pos >= prefix_idx { matchlimit } else { ip + ((prefix_idx - pos) as usize).min(matchlimit - ip) }
    };
    // An index of this stream within reach (an empty slot or an earlier stream's is below `base`).
    let reach = |from: u32, pos: u32| from.wrapping_sub(pos) <= MAX_DISTANCE as u32 && pos >= base;
    let mut ip = dsize;
    while ip <= mflimit {
        let ip_index = idx(ip);
        let mut found: Option<(usize, u32)> = None;
        // Long match first.
        let h8 = hash8(input, ip);
        let pos8 = h8t[h8];
        h8t[h8] = ip_index;
        if reach(ip_index, pos8) {
            let ml = count(input, ip, (pos8 - base) as usize, limit(ip, pos8));
            if ml >= MINMATCH {
                found = Some((ml, ip_index - pos8));
            }
        }
        if found.is_none() {
            let h4 = hash4(input, ip);
            let pos4 = h4t[h4];
            h4t[h4] = ip_index;
            if reach(ip_index, pos4) {
                let ml = count(input, ip, (pos4 - base) as usize, limit(ip, pos4));
                if ml >= MINMATCH && pos4 < prefix_idx {
                    // In the dictionary: no look at the next position.
                    found = Some((ml, ip_index - pos4));
                } else if ml >= MINMATCH {
                    // A short match: the next position's long candidate may be longer.
                    let h8b = hash8(input, ip + 1);
                    let pos8b = h8t[h8b];
                    let m2_dist = (ip_index + 1).wrapping_sub(pos8b);
                    let mut best = (ml, ip_index - pos4);
                    if m2_dist <= MAX_DISTANCE as u32 && pos8b >= prefix_idx && ip < mflimit {
                        let ml2 = count(input, ip + 1, (pos8b - base) as usize, matchlimit);
                        if ml2 > ml {
                            h8t[h8b] = ip_index + 1;
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
        h8t[hash8(input, ip + 1)] = ip_index + 1;
        h8t[hash8(input, ip + 2)] = ip_index + 2;
        h4t[hash4(input, ip + 1)] = ip_index + 1;
        sequence(out, input, anchor, ip, ml, d)?;
        ip += ml;
        anchor = ip;
        let end_idx = idx(ip);
        if end_idx - 2 < ilimit_idx {
            if ip - dsize > 5 {
                h8t[hash8(input, ip - 5)] = end_idx - 5;
            }
            h8t[hash8(input, ip - 3)] = end_idx - 3;
            h8t[hash8(input, ip - 2)] = end_idx - 2;
            h4t[hash4(input, ip - 2)] = end_idx - 2;
            h4t[hash4(input, ip - 1)] = end_idx - 1;
        }
    }
    last_literals(out, input, anchor)
}
