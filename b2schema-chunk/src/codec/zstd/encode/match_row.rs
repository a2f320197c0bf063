//! libzstd's row-based match finder (`ZSTD_RowFindBestMatch`, lib/compress/zstd_lazy.c of zstd
//! 1.5.x), which its greedy, lazy and lazy2 run when the window is larger than 16 KiB: the hash
//! table cut into rows of `ROW` entries (16, 32 or 64: `rowLog` is `searchLog` bounded to 4..=6);
//! a position's hash picks its row (the high bits) and an 8-bit tag (the low ones). Beside each
//! row of positions, a row of tags whose byte 0 is the row's head: the slot of its newest entry,
//! a ring written backwards over slots `1..ROW`. A search compares the position's tag with the
//! whole row of tags at once (a bit mask, [`tag_mask`]), rotates the mask to start at the head
//! (newest first) and verifies at most `1 << min(searchLog, rowLog)` of the positions whose tag
//! matches, stopping at the first one out of the window.
//!
//! As libzstd, every position is inserted up to the one searched, except after long matches
//! (more than 384 positions behind: only the first 96 and the last 32) and in the lazy parser's
//! skipping mode (only the positions searched). As libzstd, the hashes are computed 8 positions
//! ahead into a ring (`hashCache`, [`Rows::cache`]) and their rows' tags and first positions
//! prefetched then, so that they are in the cache when the position is inserted or searched; the
//! tags are compared 16 at a time with SSE2 on x86-64 (`safe_arch`'s wrappers: the crate has no
//! `unsafe`), 8 at a time in a `u64` elsewhere (libzstd's SWAR fallback), the same masks. The tables are kept between frames as the hash chain's
//! ([`super::match_fast::Window::stamp`]): an entry of an earlier frame reads as a position past
//! the one searched and ends the walk of its row, as libzstd's `matchIndex < lowLimit`; all
//! entries behind it in the walk are older.

use super::match_fast::Window;
use super::match_lazy::Search;
use super::matching::{count_split, hash, hash_n, hash_v, prefetch, read32};
use alloc::vec::Vec;

/// libzstd's `ZSTD_ROW_HASH_TAG_BITS`.
pub(crate) const TAG_BITS: u32 = 8;

/// How many positions behind the one searched the update inserts all of (libzstd's
/// `kSkipThreshold`), and how many at the start and the end of the gap it inserts beyond that
/// (`kMaxMatchStartPositionsToUpdate`, `kMaxMatchEndPositionsToUpdate`).
const SKIP_THRESHOLD: usize = 384;
const UPDATE_START: usize = 96;
const UPDATE_END: usize = 32;

/// Bytes before the end of a block past which the lazy parser over rows does not search
/// (libzstd's `ilimit`: `iend - 8 - ZSTD_ROW_HASH_CACHE_SIZE`).
pub(crate) const ROW_READ: usize = 16;

/// The rows' `rowLog` for a level's `searchLog` (libzstd's `BOUNDED(4, searchLog, 6)`).
pub(crate) fn row_log(search_log: u32) -> u32 {
    search_log.clamp(4, 6)
}

/// The bit mask of the slots of `tags` equal to `tag` (bit `i` for slot `i`), rotated right by
/// `head` within `ROW` bits: bit 0 is then the head's slot, bit 1 the slot after it.
#[inline(always)]
pub(crate) fn tag_mask<const ROW: usize>(tags: &[u8; ROW], tag: u8, head: u32) -> u64 {
    #[cfg(target_arch = "x86_64")]
    let m = equal_sse2(tags, tag);
    #[cfg(not(target_arch = "x86_64"))]
    let m = equal_swar(tags, tag);
    // One rotate of the row's width (libzstd's `ZSTD_rotateRight_U16` and its siblings).
    match ROW {
        16 => u64::from((m as u16).rotate_right(head)),
        32 => u64::from((m as u32).rotate_right(head)),
        _ => m.rotate_right(head),
    }
}

/// The slots of `tags` equal to `tag`, bit `i` for slot `i`: 16 at a time with SSE2 (every
/// x86-64 CPU; libzstd's `ZSTD_row_getSSEMask`: a byte compare and a move mask), through
/// `safe_arch`'s wrappers.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn equal_sse2<const ROW: usize>(tags: &[u8; ROW], tag: u8) -> u64 {
    use safe_arch::{cmp_eq_mask_i8_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let splat = set_splat_i8_m128i(tag as i8);
    let mut m = 0u64;
    for (c, chunk) in tags.as_chunks::<16>().0.iter().enumerate() {
        let eq = cmp_eq_mask_i8_m128i(m128i::from(*chunk), splat);
        m |= u64::from(move_mask_i8_m128i(eq) as u16) << (16 * c);
    }
    m
}

/// [`equal_sse2`] without SIMD, 8 slots at a time in a `u64` (libzstd's SWAR fallback): a byte of
/// `tags ^ tag` is zero where they are equal; its bit 7 is set where it is not, and a multiply
/// gathers the eight bits 7 into the top byte. (A loop of byte compares is not turned into
/// `pmovmskb` by LLVM but into unpacks and shifts, slower.)
#[cfg(any(not(target_arch = "x86_64"), test))]
#[inline(always)]
pub(crate) fn equal_swar<const ROW: usize>(tags: &[u8; ROW], tag: u8) -> u64 {
    const X01: u64 = 0x0101_0101_0101_0101;
    const X80: u64 = X01 << 7;
    const GATHER: u64 = 0x0002_0408_1020_4081;
    let splat = u64::from(tag) * X01;
    let mut ne = 0u64;
    for (c, chunk) in tags.as_chunks::<8>().0.iter().enumerate() {
        let x = u64::from_le_bytes(*chunk) ^ splat;
        let nonzero = (((x | X80) - X01) | x) & X80;
        ne |= (nonzero.wrapping_mul(GATHER) >> 56) << (8 * c);
    }
    if ROW == 64 { !ne } else { !ne & ((1u64 << ROW) - 1) }
}

/// The first `n` entries of `buf` from a cache line (64 bytes) on, `buf` grown with `fill`
/// as far as that needs (as many entries as a line holds, less one, beyond `n`): a row of up to
/// 64 tags is then on one line, and a row of 16, 32 or 64 positions on one, two or four lines
/// (one search reads one or two lines of positions, not two or three as from a `Vec<u32>`,
/// aligned to 16 bytes). The frame's tables, as many rows of `ROW` entries each, indexed by the
/// same row. Where they start depends on where the buffer was allocated, and so what a row finds
/// in them at a frame's start is another frame's tags and positions (below the frame's base:
/// they end the row's walk); which matches a frame finds does not depend on those ([`salt`]).
pub(crate) fn aligned<T: Clone>(buf: &mut Vec<T>, n: usize, fill: T) -> &mut [T] {
    let size = core::mem::size_of::<T>().max(1);
    if buf.len() < n + 63 / size {
        buf.resize(n + 63 / size, fill);
    }
    let off = (buf.as_ptr().addr().wrapping_neg() & 63) / size;
    &mut buf[off..off + n]
}

/// The rows of one frame's finder, in a [`super::context::Context`]'s tables: rows of `ROW`
/// entries.
pub(crate) struct Rows<'t, const ROW: usize> {
    /// Each row's positions (slot 0 unused).
    pub(crate) table: &'t mut [[u32; ROW]],
    /// Each row's tags, its head in slot 0: as many rows as `table` (else the shorter one's
    /// rows only are used).
    pub(crate) tags: &'t mut [[u8; ROW]],
    /// The hash's bits: the rows' log plus [`TAG_BITS`].
    pub(crate) hash_bits: u32,
    /// Positions verified at most per search.
    pub(crate) attempts: u32,
    /// What the frame adds to positions in the tables (as [`Window::stamp`]).
    pub(crate) base: u32,
    /// The next position to insert (libzstd's `nextToUpdate`).
    pub(crate) next: usize,
    /// libzstd's `lazySkipping`: only the searched positions are inserted.
    pub(crate) skipping: bool,
    /// The hashes of the 8 positions from [`Rows::next`] on, position `p`'s at `p % 8`
    /// (libzstd's `hashCache`); their rows were prefetched when they were computed.
    pub(crate) cache: [u32; CACHE],
    /// What this frame's hashes are XORed with ([`salt`]).
    pub(crate) salt: usize,
}

/// The salt of the frame of base `base` for hashes of `bits` bits (libzstd 1.5.6's `hashSalt`):
/// every hash of the frame XORed with it, its rows and tags are those of the unsalted hash
/// permuted, so that the frame finds the same matches whatever its salt. What the salt changes
/// is the tags an earlier frame left: stale entries, their positions below the base, which
/// end a row's walk (all entries behind them are older still) and so never change a match,
/// but each one whose tag is equal costs a read of its row's positions, often a cache miss.
/// Unsalted, a frame over the same or similar data as the frame before it (a Blosc chunk's
/// blocks; the benchmark's repeated passes) found the earlier frame's tags equal at nearly
/// every search. Derived from the base (no entropy collected, as libzstd does from its
/// hashes): the same frames, the same salts.
pub(crate) fn salt(base: u32, bits: u32) -> usize {
    let mixed = (u64::from(base) ^ 0x5bd1_e995).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (mixed >> (64 - bits.clamp(1, 32))) as usize
}

/// libzstd's `ZSTD_ROW_HASH_CACHE_SIZE`: how many positions ahead the rows are prefetched.
pub(crate) const CACHE: usize = 8;

impl<const ROW: usize> Rows<'_, ROW> {
    /// The slot a row's next entry goes to, for each byte its head may hold: `(head - 1) mod
    /// ROW`, 0 read as `ROW - 1`; any byte (an earlier frame's rows may have had another length)
    /// gives a slot in `1..ROW`. One load in place of the arithmetic and its compare
    /// (callgrind, as [`count_split`]: 252.7 -> 243.0 M instructions a pass on float64 smooth,
    /// 237.1 -> 230.0 M on normal: fewer live values in the loops, fewer spills).
    const NEXT_SLOT: [u8; 256] = {
        let mut t = [0u8; 256];
        let mut i = 0usize;
        while i < 256 {
            let slot = i.wrapping_sub(1) & (ROW - 1);
            t[i] = if slot == 0 { ROW - 1 } else { slot } as u8;
            i += 1;
        }
        t
    };

    /// The row of hash `h` in a table of `rows` rows (a power of two, as the hash's bits: the
    /// mask changes no row, and tells the compiler the index is in the table, so that it checks
    /// nothing; the callers return early on an empty table).
    #[inline(always)]
    fn row_of(h: usize, rows: usize) -> usize {
        (h >> TAG_BITS) & rows.wrapping_sub(1)
    }

    /// The two tables cut to the same number of rows: one row index, masked once, reads both
    /// without a bounds check (callgrind, as [`count_split`]: 234.4 -> 225.9 M
    /// instructions a pass on float64 smooth, 231.8 -> 229.8 M on normal).
    #[inline(always)]
    fn same_rows<'a>(
        table: &'a mut [[u32; ROW]],
        tags: &'a mut [[u8; ROW]],
    ) -> (&'a mut [[u32; ROW]], &'a mut [[u8; ROW]]) {
        let n = table.len().min(tags.len());
        (&mut table[..n], &mut tags[..n])
    }

    /// Prefetches the tags and the first 32 positions of the row of hash `h` (libzstd's
    /// `ZSTD_row_prefetch`); the tables are not empty, and as long as each other.
    #[inline(always)]
    fn prefetch_row(table: &[[u32; ROW]], tags: &[[u8; ROW]], h: usize) {
        let r = Self::row_of(h, table.len());
        prefetch(&tags[r]);
        let row = &table[r];
        prefetch(&row[0]);
        if ROW > 16 {
            prefetch(&row[16]);
        }
    }

    /// Whether either table is empty (then the finder inserts and finds nothing).
    #[inline(always)]
    fn empty(&self) -> bool {
        self.table.is_empty() || self.tags.is_empty()
    }

    /// The tables as long as each other ([`Rows::same_rows`]).
    #[inline(always)]
    fn tables(&mut self) -> (&mut [[u32; ROW]], &mut [[u8; ROW]]) {
        Self::same_rows(self.table, self.tags)
    }

    /// Fills the cache from [`Rows::next`] on, for a block parsed with `mls`-byte hashes
    /// (libzstd does at the start of each block).
    pub(crate) fn start(&mut self, s: &[u8], mls: u32) {
        match mls {
            5 => self.fill_cache::<5>(s, self.next),
            6 => self.fill_cache::<6>(s, self.next),
            _ => self.fill_cache::<4>(s, self.next),
        }
    }

    /// Hashes the 8 positions from `from` on into the cache and prefetches their rows (libzstd's
    /// `ZSTD_row_fillHashCache`).
    #[inline(always)]
    pub(crate) fn fill_cache<const MLS: u32>(&mut self, s: &[u8], from: usize) {
        if self.empty() {
            return;
        }
        let (bits, salt) = (self.hash_bits, self.salt);
        let mut cache = self.cache;
        let (table, tags) = self.tables();
        for p in from..from + CACHE {
            let h = hash_n::<MLS>(s, p, bits) ^ salt;
            Self::prefetch_row(table, tags, h);
            cache[p % CACHE] = h as u32;
        }
        self.cache = cache;
    }

    /// The hash of `p` from the cache, replaced by that of `p + 8`, whose row is prefetched
    /// (libzstd's `ZSTD_row_nextCachedHash`). The cache holds `p`'s: the positions are taken
    /// in order from the last fill on. The tables are not empty.
    #[inline(always)]
    fn cached_hash<const MLS: u32>(&mut self, s: &[u8], p: usize) -> usize {
        let ahead = hash_n::<MLS>(s, p + CACHE, self.hash_bits) ^ self.salt;
        let (table, tags) = self.tables();
        Self::prefetch_row(table, tags, ahead);
        core::mem::replace(&mut self.cache[p % CACHE], ahead as u32) as usize
    }

    /// Writes position `pos` of hash `h` at its row's next slot (libzstd's `ZSTD_row_nextIndex`:
    /// the head moves back by one, over slots `ROW - 1` to 1). The tables are not empty, and
    /// as long as each other.
    #[inline(always)]
    fn put(table: &mut [[u32; ROW]], tags: &mut [[u8; ROW]], base: u32, h: usize, pos: usize) {
        let r = Self::row_of(h, table.len());
        let tags = &mut tags[r];
        let slot = usize::from(Self::NEXT_SLOT[usize::from(tags[0])]);
        tags[0] = slot as u8;
        tags[slot] = h as u8;
        table[r][slot] = (pos as u32).wrapping_add(base);
    }

    /// Inserts positions `from..to`, their hashes from the cache ([`Rows::cached_hash`], the
    /// fields in locals: behind `&mut self` they would be reloaded after every store). The
    /// 8 bytes hashed 8 positions ahead are read from one slice cut once (the positions
    /// inserted are all 16 bytes before the block's end, see [`ROW_READ`]; else one read each).
    #[inline(always)]
    fn insert_range<const MLS: u32>(&mut self, s: &[u8], from: usize, to: usize) {
        if from >= to || self.empty() {
            return;
        }
        let mut cache = self.cache;
        let (bits, base, salt) = (self.hash_bits, self.base, self.salt);
        let (table, tags) = Self::same_rows(self.table, self.tags);
        if let Some(ahead) = s.get(from + CACHE..to + CACHE + 8) {
            for (p, w) in (from..to).zip(ahead.windows(8)) {
                let v = u64::from_le_bytes([w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]]);
                let next = hash_v::<MLS>(v, bits) ^ salt;
                Self::prefetch_row(table, tags, next);
                let h = core::mem::replace(&mut cache[p % CACHE], next as u32) as usize;
                Self::put(table, tags, base, h, p);
            }
        } else {
            for p in from..to {
                let next = hash_n::<MLS>(s, p + CACHE, bits) ^ salt;
                Self::prefetch_row(table, tags, next);
                let h = core::mem::replace(&mut cache[p % CACHE], next as u32) as usize;
                Self::put(table, tags, base, h, p);
            }
        }
        self.cache = cache;
    }

    /// Inserts every position before `ip` from [`Rows::next`] on (libzstd's
    /// `ZSTD_row_update_internal` with its hash cache: a gap longer than [`SKIP_THRESHOLD`] gets
    /// only its first and last positions).
    #[inline(always)]
    fn update<const MLS: u32>(&mut self, s: &[u8], ip: usize) {
        let mut idx = self.next;
        if ip.saturating_sub(idx) > SKIP_THRESHOLD {
            self.insert_range::<MLS>(s, idx, idx + UPDATE_START);
            idx = ip - UPDATE_END;
            self.fill_cache::<MLS>(s, idx);
        }
        self.insert_range::<MLS>(s, idx, ip);
        self.next = ip;
    }

    /// Inserts every position of `src[..end]` of `mls`-byte hashes without skipping (a
    /// dictionary's, as libzstd's `ZSTD_row_update` when it loads one).
    pub(crate) fn fill(&mut self, s: &[u8], mls: u32, end: usize) {
        if self.empty() {
            self.next = self.next.max(end);
            return;
        }
        let (bits, salt, base) = (self.hash_bits, self.salt, self.base);
        let (table, tags) = Self::same_rows(self.table, self.tags);
        for p in self.next..end {
            let h = hash(s, p, bits, mls) ^ salt;
            Self::put(table, tags, base, h, p);
        }
        self.next = self.next.max(end);
    }
}

impl<const ROW: usize> Search for Rows<'_, ROW> {
    #[inline(always)]
    fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        self.search::<MLS>(w, ip)
    }

    #[inline(always)]
    fn skip<const MLS: u32>(&mut self, s: &[u8], on: bool) {
        if self.skipping && !on {
            self.fill_cache::<MLS>(s, self.next);
        }
        self.skipping = on;
    }
}

impl<const ROW: usize> Rows<'_, ROW> {
    /// [`Search::best`], out of line as libzstd's `ZSTD_RowFindBestMatch` (and so compiled for
    /// the baseline CPU, the exception to [`crate::codec::zstd::dispatch`]'s rule): inlined
    /// twice into the lazy parser, among its many live values, the finder kept its own on the
    /// stack. Callgrind, level 9 over float64 normal 512 KiB streams (`zstd_own` with
    /// `ZSTD_OWN_ONLY=ours`, one pass less the run with none): parser and finder 184 M
    /// instructions a pass inlined, 174 M out of line (libzstd's: 141 M).
    #[inline(never)]
    fn search<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
        let s = w.src;
        if self.empty() {
            self.next = ip + 1;
            return (0, 0);
        }
        // While skipping, the cache is left behind (libzstd's too) and refilled when it ends.
        let h = if self.skipping {
            self.next = ip;
            hash_n::<MLS>(s, ip, self.hash_bits) ^ self.salt
        } else {
            // Most searches follow the one before (nothing to insert): the update's tests
            // skipped. Callgrind, level 9 over 64 KiB split streams (`zstd_own` with
            // `ZSTD_OWN_SPLIT=1 ZSTD_OWN_STREAMS=64 ZSTD_OWN_ONLY=ours ZSTD_OWN_PASSES=1` less
            // the run with 0 passes): float64 smooth 263.9 -> 253.3 M instructions a pass,
            // normal 300.6 -> 295.5 M, int64 counter 119.8 -> 117.5 M, text 1326.8 -> 1302.8 M.
            if self.next != ip {
                self.update::<MLS>(s, ip);
            }
            self.cached_hash::<MLS>(s, ip)
        };
        let low = w.low.max(ip.saturating_sub(w.max_dist));
        let (attempts, base) = (self.attempts, self.base);
        let (table, tags) = self.tables();
        let r = Self::row_of(h, table.len());
        let low_stamp = (low as u32).wrapping_add(base);
        let sp = Span { s, ip, low, end: w.end };
        let found = if (attempts as usize) < ROW - 1 {
            candidates::<ROW, true>(&table[r], &tags[r], h as u8, attempts, low_stamp, sp)
        } else {
            candidates::<ROW, false>(&table[r], &tags[r], h as u8, attempts, low_stamp, sp)
        };
        // The position searched goes in too (libzstd's "speed opt").
        Self::put(table, tags, base, h, ip);
        self.next = ip + 1;
        found
    }
}

/// What a search compares: the source, the position searched, the window's first position,
/// the block's end.
#[derive(Clone, Copy)]
struct Span<'s> {
    s: &'s [u8],
    ip: usize,
    low: usize,
    end: usize,
}

/// The longest match at `sp.ip` among the positions of `row` whose tag in `tags` is `tag`,
/// newest first, at most `attempts` of them, the walk ending at the first one out of the window
/// (`low_stamp`: the window's first position as the table holds it): its length and offset
/// base, or `(0, 0)`.
///
/// Inlined into [`Rows::search`] (out of line).
#[inline(always)]
fn candidates<const ROW: usize, const LIMITED: bool>(
    row: &[u32; ROW],
    tags: &[u8; ROW],
    tag: u8,
    attempts: u32,
    low_stamp: u32,
    sp: Span<'_>,
) -> (usize, u32) {
    let Span { s, ip, low, end } = sp;
    let head = u32::from(tags[0]) & (ROW as u32 - 1);
    // Slot 0 holds the head, not a position: its bit (at `-head` after the rotation) is cleared
    // once, not tested at each candidate.
    let mut m = tag_mask::<ROW>(tags, tag, head) & !(1u64 << ((ROW as u32 - head) & (ROW as u32 - 1)));
    // Most searches find no tag equal (float64 smooth, 64 KiB streams: 486 of 700 thousand): the
    // walk's preparation skipped. Callgrind as [`Rows::search`]'s fast path: float64 smooth
    // 253.3 -> 247.8 M instructions a pass, normal 295.5 -> 294.0 M, int64 117.5 -> 116.7 M,
    // text 1302.8 -> 1297.8 M.
    if m == 0 {
        return (0, 0);
    }
    // At most `attempts` candidates, counted only when `LIMITED`: a mask has at most `ROW - 1`
    // bits, all tried where `attempts` is `ROW` (levels 7 to 12).
    let mut attempts = attempts;
    // The window `[low, ip)` as one compare of stamps: `stamp - low_stamp` (wrapping; positions
    // are below 2^32) below `span`. An entry of an earlier frame (below the base) or empty wraps
    // past it.
    let span = ip.saturating_sub(low) as u32;
    let mut ml = 3usize;
    let mut off = 0u32;
    // libzstd's filter: the four bytes ending where a longer match would end, read at `ip` once
    // for each length to beat, and at each candidate from `at`: the source from `low + ml - 3`
    // on, cut once for each length (then a candidate's read is one compare: `d` is 32 bits).
    let mut want = read32(s, ip + ml - 3);
    let mut at = s.get(low + ml - 3..).unwrap_or_default();
    while m != 0 && (!LIMITED || attempts > 0) {
        let slot = (head + m.trailing_zeros()) as usize & (ROW - 1);
        m &= m - 1;
        let d = row[slot].wrapping_sub(low_stamp);
        if d >= span {
            break;
        }
        if LIMITED {
            attempts -= 1;
        }
        let d = d as usize;
        let there = match at.get(d..d + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        };
        if there == want {
            let pos = low + d;
            let l = count_split(s, ip, pos, end);
            if l > ml {
                ml = l;
                off = (ip - pos) as u32 + 3;
                if ip + l == end {
                    break;
                }
                want = read32(s, ip + ml - 3);
                at = s.get(low + ml - 3..).unwrap_or_default();
            }
        }
    }
    if off == 0 { (0, 0) } else { (ml, off) }
}

#[cfg(test)]
mod tests {
    use super::{Rows, SKIP_THRESHOLD, Search, UPDATE_END, UPDATE_START, tag_mask};
    use crate::codec::zstd::encode::match_fast::Window;
    use crate::codec::zstd::encode::matching::{count, hash_n};
    use crate::test_data::{finder_input, finder_max_dist, finder_steps, noise};
    use alloc::collections::VecDeque;
    use alloc::vec;
    use alloc::vec::Vec;
    use proptest::prelude::*;

    /// A salt is a hash of its bits (the rows and tags it permutes are the table's), and the
    /// frames that follow one another get different ones.
    #[test]
    fn salts_fit_their_bits_and_change_from_frame_to_frame() {
        for bits in [8u32, 12, 20, 28, 32] {
            let salts: Vec<usize> = (0..64u32).map(|i| super::salt(i * 131_072, bits)).collect();
            assert!(salts.iter().all(|&x| (x as u64) < 1u64 << bits), "bits {bits}");
            assert!(salts.windows(2).all(|w| w[0] != w[1]), "bits {bits}");
        }
    }

    /// The mask has a bit for each slot holding the tag, counted from the head, wrapping.
    #[test]
    fn tag_masks_start_at_the_head_and_wrap() {
        let mut row = [0u8; 16];
        row[3] = 7;
        row[15] = 7;
        row[0] = 7;
        assert_eq!(tag_mask::<16>(&row, 7, 0), 1 | 1 << 3 | 1 << 15);
        // From head 3: slot 3 is bit 0, slot 15 bit 12, slot 0 bit 13.
        assert_eq!(tag_mask::<16>(&row, 7, 3), 1 | 1 << 12 | 1 << 13);
        let mut row = [1u8; 32];
        row[31] = 2;
        assert_eq!(tag_mask::<32>(&row, 2, 31), 1);
        assert_eq!(tag_mask::<32>(&row, 2, 1), 1 << 30);
        let mut row = [9u8; 64];
        row[0] = 4;
        row[63] = 4;
        assert_eq!(tag_mask::<64>(&row, 4, 63), 0b11);
        // Bytes that differ from the tag only in bit 7, or by borrows, are not equal.
        let row: [u8; 16] = core::array::from_fn(|i| [0x80, 0x00, 0x01, 0xff, 0x7f][i % 5]);
        for tag in [0x00u8, 0x80, 0x7f, 0xff, 0x01] {
            let want = (0..16).filter(|&i| row[i] == tag).fold(0u64, |m, i| m | 1 << i);
            assert_eq!(tag_mask::<16>(&row, tag, 0), want, "tag {tag:#x}");
        }
    }

    /// The row finder as a plain model: each row a list of (tag, position), newest first, at most
    /// `ROW - 1` long; the same updates (all positions, or the ends of a long gap, or none while
    /// skipping) and the same walk (tags equal, newest first, at most `attempts`, ending at the
    /// first position out of the window), without slots, heads, masks or stamps.
    struct Model {
        rows: Vec<VecDeque<(u8, usize)>>,
        cap: usize,
        hash_bits: u32,
        attempts: u32,
        next: usize,
        skipping: bool,
    }

    impl Model {
        fn put<const MLS: u32>(&mut self, s: &[u8], p: usize) {
            let h = hash_n::<MLS>(s, p, self.hash_bits);
            let row = &mut self.rows[h >> 8];
            row.push_front((h as u8, p));
            row.truncate(self.cap);
        }

        fn best<const MLS: u32>(&mut self, w: &Window<'_>, ip: usize) -> (usize, u32) {
            let s = w.src;
            if !self.skipping {
                let mut idx = self.next;
                if ip.saturating_sub(idx) > SKIP_THRESHOLD {
                    (idx..idx + UPDATE_START).for_each(|p| self.put::<MLS>(s, p));
                    idx = ip - UPDATE_END;
                }
                (idx..ip).for_each(|p| self.put::<MLS>(s, p));
            }
            let h = hash_n::<MLS>(s, ip, self.hash_bits);
            let low = w.low.max(ip.saturating_sub(w.max_dist));
            let (mut ml, mut off, mut attempts) = (3, 0, self.attempts);
            for &(tag, p) in self.rows[h >> 8].iter().filter(|(t, _)| *t == h as u8) {
                if attempts == 0 || p < low {
                    break;
                }
                attempts -= 1;
                let l = count(s, ip, p, w.end);
                if l > ml {
                    (ml, off) = (l, (ip - p) as u32 + 3);
                    if ip + l == w.end {
                        break;
                    }
                }
                let _ = tag;
            }
            self.put::<MLS>(s, ip);
            self.next = ip + 1;
            if off == 0 { (0, 0) } else { (ml, off) }
        }
    }

    /// One walk over `s`: searches at positions `steps` apart (the long steps are longer than the
    /// update's gap threshold), skipping where `skips` says, compared with the model at each.
    /// The tables start with what an earlier frame left: random tags and heads, positions below
    /// the base.
    fn walk<const ROW: usize, const MLS: u32>(
        s: &[u8],
        rows_log: u32,
        search_log: u32,
        max_dist: usize,
        steps: &[(usize, bool)],
        seed: u64,
    ) -> Result<(), TestCaseError> {
        let n_rows = 1usize << rows_log;
        let base = 1u32 << 24;
        let junk = noise(n_rows * ROW * 5 + 64, seed);
        let mut table: Vec<[u32; ROW]> = (0..n_rows)
            .map(|r| {
                core::array::from_fn(|i| {
                    let b = &junk[(r * ROW + i) * 4..][..4];
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]]) % base
                })
            })
            .collect();
        let mut tags: Vec<[u8; ROW]> =
            (0..n_rows).map(|r| core::array::from_fn(|i| junk[n_rows * ROW * 4 + r * ROW + i])).collect();
        let attempts = 1 << search_log.min(ROW.trailing_zeros());
        let hash_bits = rows_log + super::TAG_BITS;
        let mut rows = Rows::<ROW> {
            table: &mut table,
            tags: &mut tags,
            hash_bits,
            attempts,
            base,
            next: 0,
            skipping: false,
            cache: [0; super::CACHE],
            salt: super::salt(seed as u32, hash_bits),
        };
        rows.fill_cache::<MLS>(s, 0);
        let mut model = Model {
            rows: vec![VecDeque::new(); n_rows],
            cap: ROW - 1,
            hash_bits,
            attempts,
            next: 0,
            skipping: false,
        };
        let w = Window { src: s, start: 0, end: s.len(), low: 0, max_dist, base };
        let limit = s.len().saturating_sub(super::ROW_READ);
        let mut ip = 1;
        for &(step, skip) in steps.iter().cycle() {
            if ip >= limit {
                break;
            }
            rows.skip::<MLS>(s, skip);
            model.skipping = skip;
            let got = rows.best::<MLS>(&w, ip);
            let want = model.best::<MLS>(&w, ip);
            prop_assert_eq!(got, want, "position {}", ip);
            ip += step;
        }
        Ok(())
    }

    /// The slots equal to `tag`, one byte at a time.
    #[cfg(target_arch = "x86_64")]
    fn plain_equal(tags: &[u8], tag: u8) -> u64 {
        tags.iter().enumerate().filter(|(_, t)| **t == tag).fold(0, |m, (i, _)| m | 1 << i)
    }

    proptest! {
        /// SSE2's compare and move mask, lane `i` to bit `i`, give the SWAR fallback's mask (and
        /// a byte loop's) on rows of 16, 32 and 64 tags, of few values (many equal) or any, and
        /// on tags that differ in one bit only (bit 7 among them, the sign SSE2 compares as).
        #[test]
        #[cfg(target_arch = "x86_64")]
        fn the_sse2_tag_mask_is_the_swar_mask(
            row in proptest::collection::vec(any::<u8>(), 64),
            few in any::<bool>(),
            tag in any::<u8>(),
            flip in 0u32..8,
        ) {
            use super::{equal_sse2, equal_swar};
            let row: Vec<u8> = if few { row.iter().map(|b| (b & 3) ^ (tag & !3)).collect() } else { row };
            let mut row64 = [0u8; 64];
            row64.copy_from_slice(&row);
            if !few {
                row64[usize::from(tag) % 64] = tag;
                row64[(usize::from(tag) + 7) % 64] = tag ^ (1 << flip);
            }
            let row16: [u8; 16] = core::array::from_fn(|i| row64[i]);
            let row32: [u8; 32] = core::array::from_fn(|i| row64[i]);
            prop_assert_eq!(equal_sse2(&row16, tag), plain_equal(&row16, tag));
            prop_assert_eq!(equal_sse2(&row16, tag), equal_swar(&row16, tag));
            prop_assert_eq!(equal_sse2(&row32, tag), plain_equal(&row32, tag));
            prop_assert_eq!(equal_sse2(&row32, tag), equal_swar(&row32, tag));
            prop_assert_eq!(equal_sse2(&row64, tag), plain_equal(&row64, tag));
            prop_assert_eq!(equal_sse2(&row64, tag), equal_swar(&row64, tag));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
        /// The row finder finds what the model finds, at every position searched: rows that wrap
        /// around many times (few rows, data of few hashes), long gaps after "matches", the
        /// skipping mode, windows shorter than the data, tables holding an earlier frame's
        /// entries. A wrong tag mask, a head not moved or read from the wrong slot, a walk not
        /// newest first or not stopped at the window all find other matches than the model's.
        #[test]
        fn the_row_finder_finds_what_the_model_finds(
            kind in 0u8..4,
            n in 100usize..6000,
            seed in any::<u64>(),
            rows_log in 0u32..5,
            search_log in 1u32..7,
            row in 0u8..3,
            mls in 4u32..7,
            max_dist in finder_max_dist(),
            steps in finder_steps(),
        ) {
            let s = finder_input(kind, n, seed);
            match (row, mls) {
                (0, 4) => walk::<16, 4>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (0, 5) => walk::<16, 5>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (0, _) => walk::<16, 6>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (1, 4) => walk::<32, 4>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (1, 5) => walk::<32, 5>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (1, _) => walk::<32, 6>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (_, 4) => walk::<64, 4>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                (_, 5) => walk::<64, 5>(&s, rows_log, search_log, max_dist, &steps, seed)?,
                _ => walk::<64, 6>(&s, rows_log, search_log, max_dist, &steps, seed)?,
            }
        }
    }
}
