//! Byte unshuffle (c-blosc2 `unshuffle_generic`).
//!
//! A shuffled block of `n = len / typesize` elements stores byte `j` of every
//! element contiguously: `src[j * n + i]` is byte `j` of element `i`.  The
//! `len % typesize` trailing bytes are stored unchanged.
//!
//! The work is done on 8x8 byte tiles: 8 bytes from each of up to 8 planes
//! are loaded as `u64`s, transposed, and stored as 8 elements.

/// Transposes the 8x8 byte matrix whose rows are `x[0..8]` (byte `c` of
/// `x[r]` is entry `(r, c)`): afterwards byte `r` of `x[c]` is the old
/// entry `(r, c)`.
#[inline]
pub(crate) fn transpose_bytes_8x8(x: &mut [u64; 8]) {
    for r in 0..4 {
        let t = ((x[r] >> 32) ^ x[r + 4]) & 0x0000_0000_FFFF_FFFF;
        x[r] ^= t << 32;
        x[r + 4] ^= t;
    }
    for r in [0, 1, 4, 5] {
        let t = ((x[r] >> 16) ^ x[r + 2]) & 0x0000_FFFF_0000_FFFF;
        x[r] ^= t << 16;
        x[r + 2] ^= t;
    }
    for r in [0, 2, 4, 6] {
        let t = ((x[r] >> 8) ^ x[r + 1]) & 0x00FF_00FF_00FF_00FF;
        x[r] ^= t << 8;
        x[r + 1] ^= t;
    }
}

/// Reads 8 bytes at `off` as a little-endian `u64` (0 when out of range).
#[inline]
fn load8(buf: &[u8], off: usize) -> u64 {
    buf.get(off..off + 8).and_then(|s| <[u8; 8]>::try_from(s).ok()).map_or(0, u64::from_le_bytes)
}

/// Geometry of one group of up to 8 byte planes.
struct Tiles {
    n: usize,
    typesize: usize,
    group: usize,
    tiles: usize,
}

impl Tiles {
    /// Unshuffles planes `group..group + R` of the first `tiles` elements.
    #[inline]
    fn run<const R: usize>(&self, src: &[u8], dst: &mut [u8]) {
        for i0 in (0..self.tiles).step_by(8) {
            let mut x = [0u64; 8];
            for (r, v) in x.iter_mut().enumerate().take(R) {
                *v = load8(src, (self.group + r) * self.n + i0);
            }
            transpose_bytes_8x8(&mut x);
            for (k, v) in x.iter().enumerate() {
                let at = (i0 + k) * self.typesize + self.group;
                if let Some(d) = dst.get_mut(at..at + R) {
                    d.copy_from_slice(&v.to_le_bytes()[..R]);
                }
            }
        }
    }
}

/// Undoes the byte shuffle of `src` into `dst` (same length).
pub(crate) fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    if typesize <= 1 || len < typesize {
        dst.copy_from_slice(src);
        return;
    }
    let n = len / typesize;
    let body = n * typesize;
    if let Some(done) = super::avx2::unshuffle(typesize, src, dst, n) {
        tail(typesize, src, dst, n, 0..done.start);
        tail(typesize, src, dst, n, done.end..n);
        dst[body..].copy_from_slice(&src[body..]);
        return;
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        use super::shuffle_sse2::unshuffle_tiles;
        let done = match typesize {
            2 => unshuffle_tiles::<2>(src, dst, n),
            4 => unshuffle_tiles::<4>(src, dst, n),
            8 => unshuffle_tiles::<8>(src, dst, n),
            16 => unshuffle_tiles::<16>(src, dst, n),
            _ => 0,
        };
        if done > 0 || matches!(typesize, 2 | 4 | 8 | 16) {
            tail(typesize, src, dst, n, done..n);
            dst[body..].copy_from_slice(&src[body..]);
            return;
        }
    }
    let tiles = n / 8 * 8;
    match typesize {
        2 => small_planes::<2>(src, dst, n),
        3 => tiles_n::<3>(src, dst, n),
        4 => small_planes::<4>(src, dst, n),
        5 => tiles_n::<5>(src, dst, n),
        6 => tiles_n::<6>(src, dst, n),
        7 => tiles_n::<7>(src, dst, n),
        8 => tiles_n::<8>(src, dst, n),
        9 => tiles_n::<9>(src, dst, n),
        10 => tiles_n::<10>(src, dst, n),
        12 => tiles_n::<12>(src, dst, n),
        16 => tiles_n::<16>(src, dst, n),
        _ => tile_groups(src, dst, n, typesize),
    }
    tail(typesize, src, dst, n, tiles..n);
    dst[body..].copy_from_slice(&src[body..]);
}

/// Undoes the byte shuffle of a block whose `planes` (one per byte of its items, of `n` bytes
/// each) lie apart, as its streams were decoded or stored, into `dst[..n * planes.len()]`.
/// `false`, with `dst` untouched, where no kernel reads planes apart (no AVX2, an item size
/// other than 2, 4, 8 or 16, planes of unequal lengths, `dst` too short): the caller then puts
/// them in one buffer for [`unshuffle`].
pub(crate) fn unshuffle_planes(planes: &[&[u8]], dst: &mut [u8]) -> bool {
    match planes.len() {
        2 => planes_kernel::<2>(planes, dst),
        4 => planes_kernel::<4>(planes, dst),
        8 => planes_kernel::<8>(planes, dst),
        16 => planes_kernel::<16>(planes, dst),
        _ => false,
    }
}

/// [`unshuffle_planes`] for `T` planes.
fn planes_kernel<const T: usize>(planes: &[&[u8]], dst: &mut [u8]) -> bool {
    let Ok(planes) = <[&[u8]; T]>::try_from(planes) else { return false };
    let n = planes[0].len();
    if planes.iter().any(|p| p.len() != n) || dst.len() < n * T {
        return false;
    }
    let Some(done) = super::avx2::unshuffle_planes(planes, dst, n) else { return false };
    for i in (0..done.start).chain(done.end..n) {
        for (j, plane) in planes.iter().enumerate() {
            dst[i * T + j] = plane[i];
        }
    }
    true
}

/// Unshuffles elements `range` one byte at a time (those before and after the whole tiles).
fn tail(typesize: usize, src: &[u8], dst: &mut [u8], n: usize, range: core::ops::Range<usize>) {
    for i in range {
        for j in 0..typesize {
            if let (Some(d), Some(&s)) = (dst.get_mut(i * typesize + j), src.get(j * n + i)) {
                *d = s;
            }
        }
    }
}

/// Unshuffles the first `n / 8 * 8` elements for 2 or 4 planes: 8 bytes
/// of every plane per step, written as 8 whole elements (this shape
/// vectorises well for few planes).
fn small_planes<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let planes: [&[u8]; T] = core::array::from_fn(|j| src.get(j * n..(j + 1) * n).unwrap_or(&[]));
    let mut iters = planes.map(|p| p.chunks_exact(8));
    let tiles = n / 8;
    let Some(dst) = dst.get_mut(..tiles * 8 * T) else {
        return;
    };
    for out in dst.chunks_exact_mut(8 * T) {
        let rows: [[u8; 8]; T] = core::array::from_fn(|j| {
            iters[j].next().and_then(|c| <[u8; 8]>::try_from(c).ok()).unwrap_or([0; 8])
        });
        for k in 0..8 {
            for j in 0..T {
                out[k * T + j] = rows[j][k];
            }
        }
    }
}

/// Unshuffles the first `n / 8 * 8` elements of `T` bytes (the common item sizes): per tile of
/// 8 elements, one 8-byte load from each plane, an 8x8 byte transpose per group of 8 planes
/// and whole 8-byte stores; the `T % 8` remaining planes are scattered byte by byte. The tile
/// and plane counts are constants, so the compiler unrolls the tile and drops its bounds checks.
fn tiles_n<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let tiles = n / 8;
    let Some(dst) = dst.get_mut(..tiles * 8 * T) else {
        return;
    };
    let mut planes: [core::slice::ChunksExact<'_, u8>; T] =
        core::array::from_fn(|j| src.get(j * n..j * n + tiles * 8).unwrap_or(&[]).chunks_exact(8));
    let whole = T / 8 * 8;
    for out in dst.chunks_exact_mut(8 * T) {
        let rows: [u64; T] = core::array::from_fn(|j| {
            planes[j].next().and_then(|c| <[u8; 8]>::try_from(c).ok()).map_or(0, u64::from_le_bytes)
        });
        for g in (0..whole).step_by(8) {
            let mut x: [u64; 8] = core::array::from_fn(|r| rows[g + r]);
            transpose_bytes_8x8(&mut x);
            for (elem, v) in out.chunks_exact_mut(T).zip(x) {
                if let Some(d) = elem.get_mut(g..g + 8) {
                    d.copy_from_slice(&v.to_le_bytes());
                }
            }
        }
        if whole < T {
            for (k, elem) in out.chunks_exact_mut(T).enumerate() {
                for (d, row) in elem[whole..].iter_mut().zip(&rows[whole..]) {
                    *d = (row >> (8 * k)) as u8;
                }
            }
        }
    }
}

/// Unshuffles the first `n / 8 * 8` elements in groups of up to 8 planes
/// with 8x8 byte-tile transposes (item sizes without a specialisation).
fn tile_groups(src: &[u8], dst: &mut [u8], n: usize, typesize: usize) {
    let tiles = n / 8 * 8;
    for group in (0..typesize).step_by(8) {
        let t = Tiles { n, typesize, group, tiles };
        match typesize - group {
            1 => t.run::<1>(src, dst),
            2 => t.run::<2>(src, dst),
            3 => t.run::<3>(src, dst),
            4 => t.run::<4>(src, dst),
            5 => t.run::<5>(src, dst),
            6 => t.run::<6>(src, dst),
            7 => t.run::<7>(src, dst),
            _ => t.run::<8>(src, dst),
        }
    }
}

/// Byte shuffle: byte `j` of element `i` goes to `dst[j * n + i]` (`n` whole elements).
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    if typesize <= 1 || len < typesize {
        dst.copy_from_slice(src);
        return;
    }
    let n = len / typesize;
    let body = n * typesize;
    let simd = super::avx2::shuffle(typesize, src, dst, n);
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    let simd = simd.or_else(|| {
        use super::shuffle_sse2::shuffle_tiles;
        match typesize {
            2 => Some(shuffle_tiles::<2>(src, dst, n)),
            4 => Some(shuffle_tiles::<4>(src, dst, n)),
            8 => Some(shuffle_tiles::<8>(src, dst, n)),
            16 => Some(shuffle_tiles::<16>(src, dst, n)),
            _ => None,
        }
    });
    if let Some(done) = simd {
        for i in done..n {
            for j in 0..typesize {
                dst[j * n + i] = src[i * typesize + j];
            }
        }
        dst[body..].copy_from_slice(&src[body..]);
        return;
    }
    match typesize {
        2 => shuffle_n::<2>(&src[..body], &mut dst[..body], n),
        4 => shuffle_n::<4>(&src[..body], &mut dst[..body], n),
        8 => shuffle_n::<8>(&src[..body], &mut dst[..body], n),
        16 => shuffle_n::<16>(&src[..body], &mut dst[..body], n),
        _ => {
            for (j, plane) in dst[..body].chunks_exact_mut(n).enumerate() {
                for (d, elem) in plane.iter_mut().zip(src[..body].chunks_exact(typesize)) {
                    *d = elem.get(j).copied().unwrap_or(0);
                }
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// [`shuffle`] of `n` whole elements of `T` bytes: 8 elements at a time, one 8-byte store per
/// plane.
fn shuffle_n<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) {
    let tiles = n / 8;
    for t in 0..tiles {
        let mut rows = [[0u8; 8]; T];
        for (k, elem) in src[t * 8 * T..(t + 1) * 8 * T].chunks_exact(T).enumerate() {
            for (j, row) in rows.iter_mut().enumerate() {
                row[k] = elem[j];
            }
        }
        for (j, row) in rows.iter().enumerate() {
            dst[j * n + t * 8..j * n + t * 8 + 8].copy_from_slice(row);
        }
    }
    for i in tiles * 8..n {
        for j in 0..T {
            dst[j * n + i] = src[i * T + j];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shuffle(typesize: usize, src: &[u8]) -> alloc::vec::Vec<u8> {
        let n = src.len() / typesize;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                out[j * n + i] = src[i * typesize + j];
            }
        }
        out
    }

    #[test]
    fn byte_transpose() {
        let mut x: [u64; 8] =
            core::array::from_fn(|r| u64::from_le_bytes(core::array::from_fn(|c| (r * 8 + c) as u8)));
        transpose_bytes_8x8(&mut x);
        for (c, v) in x.iter().enumerate() {
            for (r, b) in v.to_le_bytes().iter().enumerate() {
                assert_eq!(*b as usize, r * 8 + c);
            }
        }
    }

    #[test]
    fn roundtrip_various_sizes() {
        for ts in [1usize, 2, 3, 4, 7, 8, 9, 16, 17, 300] {
            for len in [0usize, 1, 5, 64, 1000, 4099] {
                let data: alloc::vec::Vec<u8> = (0..len).map(|i| (i * 31 + 7) as u8).collect();
                let s = shuffle(ts, &data);
                let mut back = alloc::vec![0u8; len];
                unshuffle(ts, &s, &mut back);
                assert_eq!(back, data, "ts {ts} len {len}");
            }
        }
    }

    /// The plain loop the fast paths must equal: byte `j` of element `i` is `src[j * n + i]`,
    /// the bytes after the last whole element are copied.
    fn plain_unshuffle(typesize: usize, src: &[u8]) -> alloc::vec::Vec<u8> {
        let n = src.len() / typesize;
        let mut out = src.to_vec();
        for i in 0..n {
            for j in 0..typesize {
                out[i * typesize + j] = src[j * n + i];
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Every item size 1..=32 (the specialised ones and the others), any length (not a
        /// multiple of 8 or of the item size), any bytes.
        #[test]
        fn fast_unshuffle_equals_the_plain_loop(
            typesize in 1usize..=32,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..1200),
        ) {
            let mut fast = alloc::vec![0xA5u8; data.len()];
            unshuffle(typesize, &data, &mut fast);
            proptest::prop_assert_eq!(fast, plain_unshuffle(typesize, &data));
        }
    }
}

#[cfg(test)]
mod forward_tests {
    use super::shuffle;
    use alloc::vec;
    use alloc::vec::Vec;

    /// The byte shuffle as its definition states it.
    fn plain_shuffle(ts: usize, src: &[u8]) -> Vec<u8> {
        let n = src.len() / ts;
        let mut dst = src.to_vec();
        for i in 0..n {
            for j in 0..ts {
                dst[j * n + i] = src[i * ts + j];
            }
        }
        dst
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// The tiled (SSE2 for 2, 4, 8 and 16 bytes) shuffle equals the definition, tails and
        /// leftover bytes included, and the decoder's unshuffle undoes it.
        #[test]
        fn shuffle_matches_its_definition(
            ts in 1usize..=17,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..2500),
        ) {
            let mut fast = vec![0u8; data.len()];
            shuffle(ts, &data, &mut fast);
            proptest::prop_assert_eq!(&fast, &plain_shuffle(ts, &data));
            let mut back = vec![0u8; data.len()];
            super::unshuffle(ts, &fast, &mut back);
            proptest::prop_assert_eq!(back, data);
        }
    }
}
