//! LZ4 block compression as liblz4 1.10.0 (the version c-blosc2 3.3.5 builds) does it.
//!
//! c-blosc2 calls `LZ4_compress_fast(src, dst, neblock, maxout, 10 - clevel)` per stream, with
//! `maxout` at most the stream's length, which is always below `LZ4_compressBound`: liblz4 then
//! runs its *limited output* mode, which gives up (returns 0) as soon as a conservative bound says
//! the next sequence or the last literals might not fit. [`compress`] follows
//! `LZ4_compress_generic_validated` for that case (no dictionary, one memory segment):
//!
//! * streams shorter than `LZ4_64Klimit` (64 KiB + 11) hash 4 bytes into a 2^13-entry table of
//!   16-bit positions (`byU16`); longer ones hash 5 bytes (the 64-bit `LZ4_hash5`) into a
//!   2^12-entry table of 32-bit positions (`byU32`), and a candidate more than 65 535 bytes back
//!   is skipped. Both tables start zeroed, so an empty slot names position 0;
//! * the search steps forward by `1 + (n >> 6)` after `n` misses past `acceleration << 6`;
//! * a match is extended backwards over literals (`catch up`), then forwards up to
//!   `LASTLITERALS` bytes before the end; a match never starts in the last `MFLIMIT` bytes;
//! * after a match the position two bytes back is hashed in, and the position right after it is
//!   tried once before searching again.
//!
//! With `use_dict`, c-blosc2 calls `LZ4_loadDict` then `LZ4_compress_fast_continue` per stream
//! instead: [`compress_with_dict`] (the `usingExtDict` variant of the same loop).
//!
//! The shared pieces (reads, match counting, the sequence writer) are used by [`super::hc`].

/// Shortest match of the LZ4 format (`MINMATCH`).
pub(crate) const MINMATCH: usize = 4;
/// The last 5 bytes are always literals (`LASTLITERALS`).
pub(crate) const LASTLITERALS: usize = 5;
/// A match must start at least 12 bytes before the end (`MFLIMIT`).
pub(crate) const MFLIMIT: usize = 12;
/// Shorter streams are all literals (`LZ4_minLength`).
pub(crate) const MIN_LENGTH: usize = MFLIMIT + 1;
/// Largest match distance (`LZ4_DISTANCE_MAX`).
pub(crate) const MAX_DISTANCE: usize = 65_535;
/// The 4-bit length fields' escape value (`RUN_MASK`, `ML_MASK`).
pub(crate) const LEN_MASK: usize = 15;
/// The literal runs shorter than the 4-bit field's escape are copied as this many bytes.
const WILD: usize = 16;
/// Streams shorter than this use the 16-bit table (`LZ4_64Klimit`).
const LIMIT_64K: usize = 65_536 + MFLIMIT - 1;
/// `LZ4_HASHLOG` for the default `LZ4_MEMORY_USAGE` of 14.
const HASH_LOG: u32 = 12;
/// Misses before the search step grows (`LZ4_skipTrigger`).
const SKIP_TRIGGER: u32 = 6;
/// `LZ4_ACCELERATION_MAX`.
const ACCELERATION_MAX: u32 = 65_537;
/// Knuth's multiplicative hash constant used by `LZ4_hash4` and lz4hc.
pub(crate) const PRIME32: u32 = 2_654_435_761;
/// `LZ4_hash5`'s multiplier (little-endian machines).
const PRIME5BYTES: u64 = 889_523_592_379;

#[inline(always)]
pub(crate) fn read_u32(buf: &[u8], at: usize) -> u32 {
    match buf.get(at..at.wrapping_add(4)) {
        Some(&[a, b, c, d]) => u32::from_le_bytes([a, b, c, d]),
        _ => 0,
    }
}

#[inline(always)]
pub(crate) fn read_u64(buf: &[u8], at: usize) -> u64 {
    match buf.get(at..at.wrapping_add(8)).and_then(|s| s.first_chunk::<8>()) {
        Some(s) => u64::from_le_bytes(*s),
        None => 0,
    }
}

/// Length of the common run of `buf[a..]` and `buf[b..]`, not reading `a` past `limit`
/// (`LZ4_count(buf + a, buf + b, buf + limit)`, `b < a`): 8 bytes at a time, the first
/// difference found by the trailing zeros of their XOR.
#[inline(always)]
pub(crate) fn count(buf: &[u8], a: usize, b: usize, limit: usize) -> usize {
    let (Some(x), Some(y)) = (buf.get(a..limit), buf.get(b..)) else {
        return 0;
    };
    let (xs, _) = x.as_chunks::<8>();
    let (ys, _) = y.as_chunks::<8>();
    let mut n = 0;
    for (p, q) in xs.iter().zip(ys) {
        let diff = u64::from_le_bytes(*p) ^ u64::from_le_bytes(*q);
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    let (Some(x), Some(y)) = (x.get(n..), y.get(n..)) else {
        return n;
    };
    n + x.iter().zip(y).take_while(|(p, q)| p == q).count()
}

/// The output of one block: writes fail (`None`) past the end of the buffer. The callers check
/// liblz4's own bounds first; the buffer's end is the last guard.
pub(crate) struct Out<'a> {
    pub(crate) buf: &'a mut [u8],
    pub(crate) op: usize,
}

impl Out<'_> {
    #[inline(always)]
    pub(crate) fn push(&mut self, b: u8) -> Option<()> {
        *self.buf.get_mut(self.op)? = b;
        self.op += 1;
        Some(())
    }

    #[inline(always)]
    pub(crate) fn extend(&mut self, s: &[u8]) -> Option<()> {
        self.buf.get_mut(self.op..self.op + s.len())?.copy_from_slice(s);
        self.op += s.len();
        Some(())
    }

    /// The bytes after a 4-bit length field that reached 15: `n - 15` in 255s and a rest.
    #[inline(always)]
    pub(crate) fn length(&mut self, n: usize) -> Option<()> {
        let mut n = n - LEN_MASK;
        while n >= 255 {
            self.push(255)?;
            n -= 255;
        }
        self.push(n as u8)
    }

    /// A token with `literals.len()` in its high half (low half 0), then the literals.
    #[inline(always)]
    pub(crate) fn literals(&mut self, literals: &[u8]) -> Option<usize> {
        let token = self.op;
        let ll = literals.len();
        self.push((ll.min(LEN_MASK) as u8) << 4)?;
        if ll >= LEN_MASK {
            self.length(ll)?;
        }
        self.extend(literals)?;
        Some(token)
    }

    /// [`Out::literals`] of `input[anchor..ip]`; a short run is copied as 16 bytes when both
    /// sides have them (the bytes past the run are written over by what follows, or lie past
    /// the returned length), which saves a `memcpy` call per sequence.
    #[inline(always)]
    pub(crate) fn literals_of(&mut self, input: &[u8], anchor: usize, ip: usize) -> Option<usize> {
        let ll = ip.checked_sub(anchor)?;
        if ll < LEN_MASK {
            let token = self.op;
            let src = input.get(anchor..).and_then(|s| s.first_chunk::<WILD>());
            let dst = self.buf.get_mut(token..).and_then(|s| s.split_first_mut());
            if let (Some(src), Some((t, rest))) = (src, dst)
                && let Some(dst) = rest.first_chunk_mut::<WILD>()
            {
                *t = (ll as u8) << 4;
                *dst = *src;
                self.op = token + 1 + ll;
                return Some(token);
            }
        }
        self.literals(input.get(anchor..ip)?)
    }

    /// The match part of the sequence whose token is at `token`: its offset, then its length
    /// (`mlen >= MINMATCH`).
    #[inline(always)]
    pub(crate) fn match_offset(&mut self, dist: usize) -> Option<()> {
        self.extend(&(dist as u16).to_le_bytes())
    }

    #[inline(always)]
    pub(crate) fn match_length(&mut self, token: usize, mlen: usize) -> Option<()> {
        let code = mlen - MINMATCH;
        *self.buf.get_mut(token)? |= code.min(LEN_MASK) as u8;
        if code >= LEN_MASK { self.length(code) } else { Some(()) }
    }

    /// The last sequence: literals only.
    pub(crate) fn last_literals(&mut self, literals: &[u8]) -> Option<()> {
        self.literals(literals).map(|_| ())
    }
}

/// The hash table of one of liblz4's two layouts.
trait Table {
    fn hash(input: &[u8], p: usize) -> usize;
    fn get(&self, h: usize) -> usize;
    fn put(&mut self, h: usize, p: usize);
    /// Whether the candidate distance has to be checked (`byU32`).
    const CHECK_DISTANCE: bool;
}

/// `byU16`: 4-byte hash, 2^13 entries.
struct U16Table([u16; 1 << (HASH_LOG + 1)]);

impl Table for U16Table {
    #[inline(always)]
    fn hash(input: &[u8], p: usize) -> usize {
        (read_u32(input, p).wrapping_mul(PRIME32) >> (32 - (HASH_LOG + 1))) as usize
    }
    #[inline(always)]
    fn get(&self, h: usize) -> usize {
        self.0.get(h).map_or(0, |&v| v as usize)
    }
    #[inline(always)]
    fn put(&mut self, h: usize, p: usize) {
        if let Some(slot) = self.0.get_mut(h) {
            *slot = p as u16;
        }
    }
    const CHECK_DISTANCE: bool = false;
}

/// `byU32`: 5-byte hash (`LZ4_hash5` on a 64-bit machine), 2^12 entries.
struct U32Table([u32; 1 << HASH_LOG]);

impl Table for U32Table {
    #[inline(always)]
    fn hash(input: &[u8], p: usize) -> usize {
        ((read_u64(input, p) << 24).wrapping_mul(PRIME5BYTES) >> (64 - HASH_LOG)) as usize
    }
    #[inline(always)]
    fn get(&self, h: usize) -> usize {
        self.0.get(h).map_or(0, |&v| v as usize)
    }
    #[inline(always)]
    fn put(&mut self, h: usize, p: usize) {
        if let Some(slot) = self.0.get_mut(h) {
            *slot = p as u32;
        }
    }
    const CHECK_DISTANCE: bool = true;
}

/// The acceleration c-blosc2 passes for `clevel` (`get_accel`: `10 - clevel`), clamped as
/// `LZ4_compress_fast_extState` does.
pub(crate) fn acceleration(clevel: u8) -> u32 {
    (10u32.saturating_sub(u32::from(clevel))).clamp(1, ACCELERATION_MAX)
}

/// Compresses `input` as one LZ4 block into `output` (whose length is the limit) as
/// `LZ4_compress_fast(.., acceleration)` does in limited-output mode; 0 when it gives up.
pub(crate) fn compress(acceleration: u32, input: &[u8], output: &mut [u8]) -> usize {
    let accel = acceleration.clamp(1, ACCELERATION_MAX);
    if input.len() > i32::MAX as usize {
        return 0;
    }
    let mut out = Out { buf: output, op: 0 };
    let r = if input.len() < LIMIT_64K {
        let mut t = U16Table([0; 1 << (HASH_LOG + 1)]);
        encode(&mut t, accel, input, &mut out)
    } else {
        // 16 KiB, as liblz4's state; boxed so that the stack stays small.
        let mut t = alloc::boxed::Box::new(U32Table([0; 1 << HASH_LOG]));
        encode(&mut *t, accel, input, &mut out)
    };
    r.unwrap_or(0)
}

#[inline(always)]
fn encode<T: Table>(table: &mut T, accel: u32, input: &[u8], out: &mut Out<'_>) -> Option<usize> {
    let n = input.len();
    let olimit = out.buf.len();
    let mut anchor = 0usize;
    'last: {
        if n < MIN_LENGTH {
            break 'last;
        }
        let mflimit_plus_one = n - MFLIMIT + 1;
        let matchlimit = n - LASTLITERALS;
        table.put(T::hash(input, 0), 0);
        let mut ip = 1usize;
        let mut forward_h = T::hash(input, ip);
        loop {
            // Find a match.
            let mut mat;
            {
                let mut forward_ip = ip;
                let mut step = 1usize;
                let mut search = accel << SKIP_TRIGGER;
                loop {
                    let h = forward_h;
                    let current = forward_ip;
                    mat = table.get(h);
                    ip = forward_ip;
                    forward_ip += step;
                    step = (search >> SKIP_TRIGGER) as usize;
                    search += 1;
                    if forward_ip > mflimit_plus_one {
                        break 'last;
                    }
                    forward_h = T::hash(input, forward_ip);
                    table.put(h, current);
                    if T::CHECK_DISTANCE && mat + MAX_DISTANCE < current {
                        continue;
                    }
                    if read_u32(input, mat) == read_u32(input, ip) {
                        break;
                    }
                }
            }
            // Catch up.
            while ip > anchor && mat > 0 && input.get(ip - 1) == input.get(mat - 1) {
                ip -= 1;
                mat -= 1;
            }
            // Literals.
            let ll = ip - anchor;
            if out.op + 1 + ll + (2 + 1 + LASTLITERALS) + ll / 255 > olimit {
                return None;
            }
            let mut token = out.literals_of(input, anchor, ip)?;
            loop {
                // The match at `ip`, `mat` earlier.
                out.match_offset(ip - mat)?;
                let code = count(input, ip + MINMATCH, mat + MINMATCH, matchlimit);
                ip += code + MINMATCH;
                if out.op + (1 + LASTLITERALS) + (code + 240) / 255 > olimit {
                    return None;
                }
                out.match_length(token, code + MINMATCH)?;
                anchor = ip;
                if ip >= mflimit_plus_one {
                    break 'last;
                }
                table.put(T::hash(input, ip - 2), ip - 2);
                // Test the next position.
                let h = T::hash(input, ip);
                mat = table.get(h);
                table.put(h, ip);
                if (!T::CHECK_DISTANCE || mat + MAX_DISTANCE >= ip)
                    && read_u32(input, mat) == read_u32(input, ip)
                {
                    token = out.op;
                    out.push(0)?;
                    continue;
                }
                break;
            }
            ip += 1;
            forward_h = T::hash(input, ip);
        }
    }
    // Last literals.
    let last = n - anchor;
    if out.op + last + 1 + (last + 255 - LEN_MASK) / 255 > olimit {
        return None;
    }
    out.last_literals(input.get(anchor..)?)?;
    Some(out.op)
}

/// The window of an LZ4 dictionary: `LZ4_loadDict` keeps its last 64 KiB.
const DICT_WINDOW: usize = 64 * 1024;
/// `LZ4_loadDict` hashes one position in 3 while 8 bytes remain (`HASH_UNIT`, 64-bit).
const DICT_HASH_UNIT: usize = 8;

/// Compresses `input` as one LZ4 block that may reference `dict` (the 64 KiB before it), as
/// c-blosc2's `lz4_wrap_compress` does with a dictionary: `LZ4_loadDict(stream, dict)` then
/// `LZ4_compress_fast_continue(stream, .., acceleration)` in limited-output mode; 0 when it
/// gives up. It decodes with `LZ4_decompress_safe_usingDict(.., dict)`.
///
/// As liblz4 1.10.0 (`usingExtDict`, `byU32`, `dictSmall` below 64 KiB of dictionary):
///
/// * the dictionary's last 64 KiB are hashed (`LZ4_hash5`, 2^12 slots of 32-bit indexes), one
///   position in 3 while 8 bytes remain; the dictionary ends at index 65 536 where the block
///   starts, so that an empty slot (index 0) lies before the dictionary and is skipped;
/// * candidates must lie inside the dictionary or the block and at most 65 535 bytes back;
/// * a match found in the dictionary is caught up backwards within the dictionary, one found in
///   the block within the block, and a match in the dictionary may run on past its end into
///   the block's first bytes;
/// * the rest (search step, next-position test, output bounds) as [`compress`].
///
/// The block and the dictionary's window are laid end to end in one buffer (allocated here;
/// 0 when that fails). A dictionary under 8 bytes hashes no position (liblz4 drops it too).
pub(crate) fn compress_with_dict(acceleration: u32, dict: &[u8], input: &[u8], output: &mut [u8]) -> usize {
    let accel = acceleration.clamp(1, ACCELERATION_MAX);
    if input.len() > i32::MAX as usize - 2 * DICT_WINDOW {
        return 0;
    }
    let window = &dict[dict.len().saturating_sub(DICT_WINDOW)..];
    let window = if window.len() < DICT_HASH_UNIT { &[][..] } else { window };
    let mut buf = alloc::vec::Vec::new();
    if buf.try_reserve_exact(window.len() + input.len()).is_err() {
        return 0;
    }
    buf.extend_from_slice(window);
    buf.extend_from_slice(input);
    let mut table = alloc::boxed::Box::new(U32Table([0; 1 << HASH_LOG]));
    let mut out = Out { buf: output, op: 0 };
    encode_ext_dict(&mut table, accel, &buf, window.len(), &mut out).unwrap_or(0)
}

/// [`compress_with_dict`]'s encoder over `buf` = dictionary window (`dsize` bytes) then block.
/// Positions are buffer offsets; the table holds liblz4's indexes, `position + base`.
fn encode_ext_dict(
    table: &mut U32Table,
    accel: u32,
    buf: &[u8],
    dsize: usize,
    out: &mut Out<'_>,
) -> Option<usize> {
    let n = buf.len() - dsize;
    let olimit = out.buf.len();
    // liblz4's index of the block's first byte is 64 KiB; the dictionary's first is 64 KiB
    // minus its size, the lowest valid index (`prefixIdxLimit`).
    let base = DICT_WINDOW - dsize;
    let mut p = 0;
    while p + DICT_HASH_UNIT <= dsize {
        table.put(U32Table::hash(buf, p), p + base);
        p += 3;
    }
    let mut anchor = dsize;
    'last: {
        if n < MIN_LENGTH {
            break 'last;
        }
        let mflimit_plus_one = dsize + n - MFLIMIT + 1;
        let matchlimit = dsize + n - LASTLITERALS;
        table.put(U32Table::hash(buf, dsize), dsize + base);
        let mut ip = dsize + 1;
        let mut forward_h = U32Table::hash(buf, ip);
        loop {
            // Find a match.
            let mut mat;
            {
                let mut forward_ip = ip;
                let mut step = 1usize;
                let mut search = accel << SKIP_TRIGGER;
                loop {
                    let h = forward_h;
                    let current = forward_ip;
                    let index = table.get(h);
                    ip = forward_ip;
                    forward_ip += step;
                    step = (search >> SKIP_TRIGGER) as usize;
                    search += 1;
                    if forward_ip > mflimit_plus_one {
                        break 'last;
                    }
                    forward_h = U32Table::hash(buf, forward_ip);
                    table.put(h, current + base);
                    // Before the dictionary (an empty slot), or too far back.
                    if index < base || index + MAX_DISTANCE < current + base {
                        continue;
                    }
                    mat = index - base;
                    if read_u32(buf, mat) == read_u32(buf, ip) {
                        break;
                    }
                }
            }
            // Catch up, within the dictionary or within the block (`lowLimit`).
            let low = if mat < dsize { 0 } else { dsize };
            while ip > anchor && mat > low && buf.get(ip - 1) == buf.get(mat - 1) {
                ip -= 1;
                mat -= 1;
            }
            // Literals.
            let ll = ip - anchor;
            if out.op + 1 + ll + (2 + 1 + LASTLITERALS) + ll / 255 > olimit {
                return None;
            }
            let mut token = out.literals_of(buf, anchor, ip)?;
            loop {
                // The match at `ip`, `mat` earlier; from the dictionary it may run on into the
                // block (liblz4 counts to the dictionary's end, then from the block's start).
                out.match_offset(ip - mat)?;
                let code = count(buf, ip + MINMATCH, mat + MINMATCH, matchlimit);
                ip += code + MINMATCH;
                if out.op + (1 + LASTLITERALS) + (code + 240) / 255 > olimit {
                    return None;
                }
                out.match_length(token, code + MINMATCH)?;
                anchor = ip;
                if ip >= mflimit_plus_one {
                    break 'last;
                }
                table.put(U32Table::hash(buf, ip - 2), ip - 2 + base);
                // Test the next position.
                let h = U32Table::hash(buf, ip);
                let index = table.get(h);
                table.put(h, ip + base);
                if index >= base
                    && index + MAX_DISTANCE >= ip + base
                    && read_u32(buf, index - base) == read_u32(buf, ip)
                {
                    mat = index - base;
                    token = out.op;
                    out.push(0)?;
                    continue;
                }
                break;
            }
            ip += 1;
            forward_h = U32Table::hash(buf, ip);
        }
    }
    // Last literals.
    let last = dsize + n - anchor;
    if out.op + last + 1 + (last + 255 - LEN_MASK) / 255 > olimit {
        return None;
    }
    out.last_literals(buf.get(anchor..)?)?;
    Some(out.op)
}

/// Tests, and the helpers the lz4hc tests share.
#[cfg(test)]
pub(super) mod tests {
    use super::{acceleration, compress, compress_with_dict};
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn roundtrips_through_lz4_flex() {
        let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 5], vec![7; 13], vec![3; 100_000]];
        inputs.push((0..70_000u32).map(|i| ((i / 5) % 253) as u8 ^ (i % 7) as u8).collect());
        inputs.push((0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect());
        inputs.push((0..200_000u32).map(|i| ((i / 3) % 251) as u8).collect());
        for data in inputs {
            for clevel in [1u8, 5, 9] {
                let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                let n = compress(acceleration(clevel), &data, &mut out);
                assert!(n > 0);
                let mut back = vec![0u8; data.len()];
                assert_eq!(lz4_flex::block::decompress_into(&out[..n], &mut back).unwrap(), data.len());
                assert_eq!(back, data);
            }
        }
    }

    /// xorshift bytes: no matches of their own.
    pub(in crate::codec) fn noise(n: usize, seed: u64) -> Vec<u8> {
        let mut x = seed | 1;
        (0..n)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect()
    }

    /// Decodes with `dict` as the history through lz4_flex; `None` when it refuses.
    pub(in crate::codec) fn flex(block: &[u8], n: usize, dict: &[u8]) -> Option<Vec<u8>> {
        let mut back = vec![0u8; n];
        let got = lz4_flex::block::decompress_into_with_dict(block, &mut back, dict).ok()?;
        (got == n).then_some(back)
    }

    #[test]
    fn dictionary_streams_roundtrip_through_lz4_flex() {
        let dicts = [noise(256, 1), noise(32 * 1024, 2), noise(100_000, 3), noise(5, 4), vec![]];
        for dict in &dicts {
            let mut inputs: Vec<Vec<u8>> = vec![vec![], vec![7; 12], vec![7; 13], noise(3000, 9)];
            let d = dict.len();
            let mut mixed = crate::test_data::dict_pieces(dict);
            mixed.extend((0..80_000u32).map(|i| ((i / 3) % 251) as u8));
            mixed.extend_from_slice(&dict[d.saturating_sub(300)..]);
            inputs.push(mixed);
            for data in &inputs {
                for clevel in [1u8, 5, 9] {
                    let mut out = vec![0u8; data.len() + data.len() / 255 + 16];
                    let n = compress_with_dict(acceleration(clevel), dict, data, &mut out);
                    assert!(n > 0, "dict {d} input {}", data.len());
                    let back = flex(&out[..n], data.len(), dict);
                    assert!(
                        back.as_deref() == Some(&data[..]),
                        "dict {d} input {} clevel {clevel}",
                        data.len()
                    );
                    // Too little room: 0, never a panic or a truncated stream.
                    assert_eq!(compress_with_dict(acceleration(clevel), dict, data, &mut out[..n - 1]), 0);
                }
            }
        }
    }

    #[test]
    fn dictionary_matches_reach_into_the_dictionary() {
        // A block made of the dictionary's own bytes (its end first, then its start) is a few
        // matches into it, which nothing decodes without the dictionary; the dictionary's
        // first bytes lie more than 64 KiB back when it is longer, and are not used then.
        for dsize in [1000usize, 32 * 1024, 65_536, 90_000] {
            let dict = noise(dsize, dsize as u64);
            let mut data = dict[dsize - 500..].to_vec();
            data.extend_from_slice(&dict[..500]);
            data.extend_from_slice(&noise(20, 77));
            let mut out = vec![0u8; data.len()];
            let n = compress_with_dict(acceleration(5), &dict, &data, &mut out);
            let far = dsize > 65_536 - 500;
            assert!(n > 0 && (far || n < 100), "dsize {dsize}: {n} bytes");
            assert!(flex(&out[..n], data.len(), &dict).as_deref() == Some(&data[..]), "dsize {dsize}");
            assert!(
                flex(&out[..n], data.len(), &[]).is_none(),
                "dsize {dsize}: decodes without the dictionary"
            );
            // Without the dictionary, the same block does not compress.
            assert_eq!(compress(acceleration(5), &data, &mut out), 0, "dsize {dsize}");
        }
    }
}
