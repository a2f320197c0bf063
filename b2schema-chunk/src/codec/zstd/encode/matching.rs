//! What every match finder uses: little-endian reads, the length of a common prefix, and
//! libzstd's multiplicative hashes of the first 4 to 8 bytes of a position.

/// Positions not in a table.
pub(crate) const EMPTY: u32 = u32::MAX;

/// Bytes a finder may read past a position it hashes (libzstd's `HASH_READ_SIZE`).
pub(crate) const READ: usize = 8;

/// A position as the tables hold it: offset by the frame's `base` (see
/// [`super::match_fast::Window::stamp`] for why the base keeps older frames' entries out).
#[inline(always)]
pub(crate) fn stamp(pos: usize, base: u32) -> u32 {
    (pos as u32).wrapping_add(base)
}

/// The position of a table entry made by [`stamp`] with the same `base`.
#[inline(always)]
pub(crate) fn unstamp(v: u32, base: u32) -> usize {
    v.wrapping_sub(base) as usize
}

/// Asks the CPU to bring the line of `x` into its caches (libzstd's `PREFETCH_L1`); nothing
/// where `safe_arch` is not built. It changes no result, only when the line arrives.
#[inline(always)]
pub(crate) fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(x);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// The 4 bytes at `at` (0 past the end). Every position an encoder reads is below `2^32` (a
/// frame's source is shorter, [`super::frame::compress_with`]): cut to 32 bits, `at + 4` cannot
/// wrap, so that the read costs one compare, not two.
#[inline(always)]
pub(crate) fn read32(s: &[u8], at: usize) -> u32 {
    let at = at as u32 as usize;
    match s.get(at..at + 4) {
        Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        None => 0,
    }
}

/// The 8 bytes at `at` (0 past the end), cut to 32 bits as [`read32`].
#[inline(always)]
pub(crate) fn read64(s: &[u8], at: usize) -> u64 {
    let at = at as u32 as usize;
    match s.get(at..at + 8) {
        Some(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        None => 0,
    }
}

/// The 8 bytes at `at`, or at `max` when `at` is past it (`max + 8` at most `s.len()`, 0 if
/// not): a conditional move where [`read64`] compares and branches, for a finder that knows
/// its positions at or below `max` (the clamp then changes none) or tests those it may change
/// (a candidate out of the prefix: see [`super::match_fast::Cands`]).
#[inline(always)]
pub(crate) fn read8_upto(s: &[u8], max: usize, at: usize) -> u64 {
    let at = at.min(max);
    s.get(at..at + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
}

/// The 4 bytes at `at`, or at `max` when `at` is past it, as [`read8_upto`].
#[inline(always)]
pub(crate) fn read4_upto(s: &[u8], max: usize, at: usize) -> u32 {
    let at = at.min(max);
    s.get(at..at + 4).map_or(0, |b| u32::from_le_bytes(b.try_into().unwrap_or_default()))
}

/// The length of the common prefix of `s[a..end]` and `s[b..]` (`b < a`), eight bytes at a
/// time over two slices cut once.
#[inline(always)]
pub(crate) fn count(s: &[u8], a: usize, b: usize, end: usize) -> usize {
    let end = end.min(s.len());
    // Most matches end within their first eight bytes (libzstd's `ZSTD_count` tests them first).
    if a + 8 <= end {
        let d = read64(s, a) ^ read64(s, b);
        if d != 0 {
            return (d.trailing_zeros() >> 3) as usize;
        }
    }
    let n = end.saturating_sub(a);
    let (Some(x), Some(y)) = (s.get(a..a + n), s.get(b..b + n)) else {
        return 0;
    };
    let mut i = 0;
    let (xc, _) = x.as_chunks::<8>();
    let (yc, _) = y.as_chunks::<8>();
    for (cx, cy) in xc.iter().zip(yc) {
        let d = u64::from_le_bytes(*cx) ^ u64::from_le_bytes(*cy);
        if d != 0 {
            return i + (d.trailing_zeros() >> 3) as usize;
        }
        i += 8;
    }
    while i < n && x[i] == y[i] {
        i += 1;
    }
    i
}

/// [`count`], its first eight bytes compared in line and the rest out of line, for the loops
/// that test many positions and rarely find the first eight bytes equal: inlined whole, its
/// preparation of its slices was hoisted out of the loop and paid at every position (the row
/// finder's candidate loop, 35 instructions a search with a candidate; the lazy parser's
/// repeat tests). Callgrind, level 9 over 512 KiB streams (`zstd_own` with
/// `ZSTD_OWN_ONLY=ours ZSTD_OWN_PASSES=1`, less the run with 0 passes), in the row finder: float64
/// smooth 261.0 -> 252.7 M instructions a pass, normal 245.2 -> 237.1 M; in the lazy parser's repeat tests: text 984.4 -> 971.9 M, normal 229.8 -> 227.9 M.
#[inline(always)]
pub(crate) fn count_split(s: &[u8], a: usize, b: usize, end: usize) -> usize {
    if a + 8 <= end.min(s.len()) {
        let d = read64(s, a) ^ read64(s, b);
        if d != 0 {
            return (d.trailing_zeros() >> 3) as usize;
        }
        return 8 + count_rest(s, a + 8, b + 8, end);
    }
    count_rest(s, a, b, end)
}

/// [`count`] out of line, for [`count_split`]: without [`count`]'s first step (the caller's
/// read is that step, most often equal here), 16 bytes a step (libzstd's `ZSTD_count` takes 8).
/// Callgrind, level 9 over 64 KiB split streams (`zstd_own` with `ZSTD_OWN_SPLIT=1
/// ZSTD_OWN_STREAMS=64 ZSTD_OWN_ONLY=ours ZSTD_OWN_PASSES=1`, less the run with 0 passes): int64
/// counter (long matches) 127.8 -> 119.8 M instructions a pass, float64 smooth 266.0 -> 263.9 M,
/// normal 300.4 -> 300.6 M, text 1324.8 -> 1326.8 M (its rests are short). Its two sides cut
/// from the source cut at the end, not to their exact length (callgrind as above, level 9
/// whole pass): int64 counter 116.9 -> 112.4 M, float64 smooth 245.1 -> 242.6 M, normal
/// 290.6 -> 290.1 M, text 1295.7 -> 1292.7 M.
#[inline(never)]
pub(crate) fn count_rest(s: &[u8], a: usize, b: usize, end: usize) -> usize {
    // The source cut once at the end, then both sides from their starts (`b < a`: the side at
    // `b` is the longer, the zips end with the one at `a`): two compares, where slices of the
    // exact length cost two each for their overflows.
    let s = &s[..end.min(s.len())];
    let (Some(x), Some(y)) = (s.get(a..), s.get(b..)) else {
        return 0;
    };
    // The first 8 bytes alone: most rests end within them (the 16-byte steps' setup would
    // weigh on them).
    let mut i = 0;
    if let (Some(cx), Some(cy)) = (x.first_chunk::<8>(), y.first_chunk::<8>()) {
        let d = u64::from_le_bytes(*cx) ^ u64::from_le_bytes(*cy);
        if d != 0 {
            return (d.trailing_zeros() >> 3) as usize;
        }
        i = 8;
    }
    let (x, y) = (x.get(i..).unwrap_or_default(), y.get(i..).unwrap_or_default());
    let (xc, _) = x.as_chunks::<16>();
    let (yc, _) = y.as_chunks::<16>();
    let mut j = 0;
    for (cx, cy) in xc.iter().zip(yc) {
        let d = u128::from_le_bytes(*cx) ^ u128::from_le_bytes(*cy);
        if d != 0 {
            return i + j + (d.trailing_zeros() >> 3) as usize;
        }
        j += 16;
    }
    i += j;
    let (mut x, mut y) = (x.get(j..).unwrap_or_default(), y.get(j..).unwrap_or_default());
    if let (Some(cx), Some(cy)) = (x.first_chunk::<8>(), y.first_chunk::<8>()) {
        let d = u64::from_le_bytes(*cx) ^ u64::from_le_bytes(*cy);
        if d != 0 {
            return i + (d.trailing_zeros() >> 3) as usize;
        }
        i += 8;
        (x, y) = (x.get(8..).unwrap_or_default(), y.get(8..).unwrap_or_default());
    }
    i + x.iter().zip(y).take_while(|(p, q)| p == q).count()
}

const PRIME3: u32 = 506_832_829;
const PRIME4: u32 = 2_654_435_761;
const PRIME5: u64 = 889_523_592_379;
const PRIME6: u64 = 227_718_039_650_203;
const PRIME7: u64 = 58_295_818_150_454_627;
const PRIME8: u64 = 0xCF1B_BCDC_B7A5_6463;

/// libzstd's `ZSTD_hashPtr`: the first `mls` bytes at `at` hashed to `log` bits.
#[inline(always)]
pub(crate) fn hash(s: &[u8], at: usize, log: u32, mls: u32) -> usize {
    match mls {
        5 => hash_n::<5>(s, at, log),
        6 => hash_n::<6>(s, at, log),
        7 => hash_n::<7>(s, at, log),
        8 => hash_n::<8>(s, at, log),
        3 => hash_n::<3>(s, at, log),
        _ => hash_n::<4>(s, at, log),
    }
}

/// [`hash`] of a constant length.
#[inline(always)]
pub(crate) fn hash_n<const MLS: u32>(s: &[u8], at: usize, log: u32) -> usize {
    match MLS {
        5..=8 => hash_v::<MLS>(read64(s, at), log),
        _ => hash_v::<MLS>(u64::from(read32(s, at)), log),
    }
}

/// [`hash_n`] of the 8 bytes `v` read at a position (of which it hashes the first `MLS`), for
/// a finder that reads them once for its hashes and compares.
#[inline(always)]
pub(crate) fn hash_v<const MLS: u32>(v: u64, log: u32) -> usize {
    match MLS {
        5 => ((v << 24).wrapping_mul(PRIME5) >> (64 - log)) as usize,
        6 => ((v << 16).wrapping_mul(PRIME6) >> (64 - log)) as usize,
        7 => ((v << 8).wrapping_mul(PRIME7) >> (64 - log)) as usize,
        8 => (v.wrapping_mul(PRIME8) >> (64 - log)) as usize,
        3 => (((v as u32) << 8).wrapping_mul(PRIME3) >> (32 - log)) as usize,
        _ => ((v as u32).wrapping_mul(PRIME4) >> (32 - log)) as usize,
    }
}

/// The minimum match length a finder hashes (libzstd clamps `minMatch` to 4..=6 or 4..=7).
pub(crate) fn mls(min_match: u32, max: u32) -> u32 {
    min_match.clamp(4, max)
}
