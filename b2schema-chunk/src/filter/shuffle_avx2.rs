//! Byte shuffle and unshuffle of 2-, 4-, 8- and 16-byte items with AVX2, chosen at run time
//! ([`super::avx2_kernel`]: the token, how a kernel runs, loads and stores).
//!
//! A tile is 32 elements: the SSE2 byte transposes of [`super::shuffle_sse2`] run on both
//! 128-bit lanes at once (AVX2 interleaves within lanes), the low lane on elements 0..16, the
//! high lane on 16..32, and one lane exchange (`permute2x128`) joins or splits the halves, as
//! c-blosc2's `shuffle_avx2` / `unshuffle_avx2` do. The unshuffle tile loop
//! ([`unshuffle_tiles_with`]) is shared with the bit unshuffle ([`super::bitshuffle_avx2`]) and
//! the one-pass undo of bytedelta and shuffle ([`super::bytedelta_avx2`]).

use super::avx2_kernel::{Kernel, TILE, load, run, store, zero};
use core::arch::x86_64::__m256i;
use core::ops::Range;
use pulp::x86::V3;

/// Interleaves the bytes of 2 planes per lane: vector `r` holds elements `8r..8r + 8` of each
/// lane's 16.
#[inline(always)]
fn transpose2(s: V3, p: [__m256i; 2]) -> [__m256i; 2] {
    [s.avx2._mm256_unpacklo_epi8(p[0], p[1]), s.avx2._mm256_unpackhi_epi8(p[0], p[1])]
}

/// Interleaves the bytes of 4 planes per lane: vector `r` holds elements `4r..4r + 4` of each
/// lane's 16.
#[inline(always)]
fn transpose4(s: V3, p: [__m256i; 4]) -> [__m256i; 4] {
    let a = s.avx2;
    let [a0, a1] = transpose2(s, [p[0], p[1]]);
    let [b0, b1] = transpose2(s, [p[2], p[3]]);
    [
        a._mm256_unpacklo_epi16(a0, b0),
        a._mm256_unpackhi_epi16(a0, b0),
        a._mm256_unpacklo_epi16(a1, b1),
        a._mm256_unpackhi_epi16(a1, b1),
    ]
}

/// Transposes 8 planes per lane: vector `r` holds elements `2r` and `2r + 1` of each lane's 16.
#[inline(always)]
fn transpose8(s: V3, p: &[__m256i]) -> [__m256i; 8] {
    let ab = transpose4(s, [p[0], p[1], p[2], p[3]]);
    let cd = transpose4(s, [p[4], p[5], p[6], p[7]]);
    // Loops, not `array::from_fn`, here and below: a closure does not inherit the AVX2
    // target feature, and the intrinsics in its body could stay calls.
    let mut rows = [zero(); 8];
    for (q, pair) in rows.chunks_exact_mut(2).enumerate() {
        pair[0] = s.avx2._mm256_unpacklo_epi32(ab[q], cd[q]);
        pair[1] = s.avx2._mm256_unpackhi_epi32(ab[q], cd[q]);
    }
    rows
}

/// The in-lane byte transpose of `T` planes (`T` 2, 4, 8 or 16) into `T` rows: row `r` holds,
/// in each lane, the elements `r * 16 / T ..` of that lane's 16 (for 16-byte items, element
/// `r`: a 64-bit interleave joins the halves of two 8-plane transposes).
#[inline(always)]
fn transpose_rows<const T: usize>(s: V3, p: &[__m256i; T]) -> [__m256i; T] {
    let mut rows = [zero(); 16];
    match T {
        2 => rows[..2].copy_from_slice(&transpose2(s, [p[0], p[1]])),
        4 => rows[..4].copy_from_slice(&transpose4(s, [p[0], p[1], p[2], p[3]])),
        8 => rows[..8].copy_from_slice(&transpose8(s, &p[..])),
        _ => {
            let lo = transpose8(s, &p[..8]);
            let hi = transpose8(s, &p[8..]);
            for (r, (l, h)) in lo.into_iter().zip(hi).enumerate() {
                rows[2 * r] = s.avx2._mm256_unpacklo_epi64(l, h);
                rows[2 * r + 1] = s.avx2._mm256_unpackhi_epi64(l, h);
            }
        }
    }
    core::array::from_fn(|r| rows[r])
}

/// What the unshuffle tile loop does to the vectors besides moving them. Methods, not
/// closures: a closure does not inherit the AVX2 target feature, and the intrinsics in its body
/// would stay calls; `#[inline(always)]` methods are compiled inside the kernel.
pub(super) trait TileSteps {
    /// Applied to each 32-byte load of plane `j`, in plane order, tile after tile.
    #[inline(always)]
    fn pre(&mut self, _s: V3, _j: usize, v: __m256i) -> __m256i {
        v
    }

    /// Applied to each 32-byte output vector before it is stored.
    #[inline(always)]
    fn post(&self, _s: V3, v: __m256i) -> __m256i {
        v
    }
}

/// The plain byte unshuffle: vectors only moved.
struct Moved;

impl TileSteps for Moved {}

/// The `T` byte planes of `n` bytes each that `src` holds one after the other.
#[inline(always)]
pub(super) fn planes_of<const T: usize>(src: &[u8], n: usize) -> [&[u8]; T] {
    core::array::from_fn(|j| src.get(j * n..(j + 1) * n).unwrap_or(&[]))
}

/// The unshuffle tile loop: elements `first..first + (n - first) / 32 * 32` of `T` bytes (`T`
/// 2, 4, 8 or 16) from the `T` planes of `n` bytes each (anywhere in memory: a block's planes
/// can be its streams where they lie) into `dst`, through `steps`. Returns the elements done
/// (after `first`).
#[inline(always)]
pub(super) fn unshuffle_tiles_with<const T: usize>(
    s: V3,
    planes: [&[u8]; T],
    dst: &mut [u8],
    n: usize,
    first: usize,
    steps: &mut impl TileSteps,
) -> usize {
    let tiles = n.saturating_sub(first) / TILE;
    let Some(dst) = dst.get_mut(first * T..(first + tiles * TILE) * T) else {
        return 0;
    };
    let mut planes: [core::slice::ChunksExact<'_, u8>; T] =
        planes.map(|p| p.get(first..first + tiles * TILE).unwrap_or(&[]).chunks_exact(TILE));
    let a = s.avx2;
    for out in dst.chunks_exact_mut(TILE * T) {
        // A loop, not `array::from_fn`: `pre` runs intrinsics, which a closure body would call.
        let mut p = [zero(); T];
        for (j, (v, plane)) in p.iter_mut().zip(&mut planes).enumerate() {
            *v = steps.pre(s, j, plane.next().map_or(zero(), load));
        }
        let rows = transpose_rows::<T>(s, &p);
        // Elements 0..16 are the low lanes in order, 16..32 the high lanes.
        let (first, second) = out.split_at_mut(TILE / 2 * T);
        for (q, pair) in rows.chunks_exact(2).enumerate() {
            let (x, y) = (steps.post(s, pair[0]), steps.post(s, pair[1]));
            store(a._mm256_permute2x128_si256::<0x20>(x, y), &mut first[32 * q..32 * q + 32]);
            store(a._mm256_permute2x128_si256::<0x31>(x, y), &mut second[32 * q..32 * q + 32]);
        }
    }
    tiles * TILE
}

/// Unshuffles whole tiles of 32 elements of `typesize` bytes (2, 4, 8 or 16) of the planes of
/// `n` bytes in `src` into `dst`, from the first element whose output is 32-byte aligned (a
/// 32-byte store across two cache lines costs more than the kernel gains: measured at 0.6 to
/// 0.9 of SSE2 on 256 KiB blocks whose output was 16 bytes off, 1.1 aligned); `None` without
/// AVX2 or for another size, else the elements done (the caller does the others).
pub(crate) fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) -> Option<Range<usize>> {
    match typesize {
        2 => unshuffle_planes(planes_of::<2>(src, n), dst, n),
        4 => unshuffle_planes(planes_of::<4>(src, n), dst, n),
        8 => unshuffle_planes(planes_of::<8>(src, n), dst, n),
        16 => unshuffle_planes(planes_of::<16>(src, n), dst, n),
        _ => None,
    }
}

/// [`unshuffle`] from `T` separate planes of `n` bytes each.
pub(crate) fn unshuffle_planes<const T: usize>(
    planes: [&[u8]; T],
    dst: &mut [u8],
    n: usize,
) -> Option<Range<usize>> {
    let off = dst.as_ptr() as usize % 32;
    let first = (0..32).find(|k| (off + k * T).is_multiple_of(32)).unwrap_or(0).min(n);
    let done = run(Unshuffle::<T> { planes, dst, n, first })?;
    Some(first..first + done)
}

/// The byte unshuffle of `T`-byte items: the planes of `n` bytes into `dst`, whole tiles from
/// element `first`.
struct Unshuffle<'a, const T: usize> {
    planes: [&'a [u8]; T],
    dst: &'a mut [u8],
    n: usize,
    first: usize,
}

impl<const T: usize> Kernel for Unshuffle<'_, T> {
    type Output = usize;

    #[inline(always)]
    fn run(self, s: V3) -> usize {
        unshuffle_tiles_with::<T>(s, self.planes, self.dst, self.n, self.first, &mut Moved)
    }
}

/// Shuffles the first `n / 32 * 32` elements of `typesize` bytes (2, 4, 8 or 16; `src` holds
/// `n` elements) into byte planes of `n` bytes in `dst`; `None` without AVX2 or for another
/// size, else the elements done.
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) -> Option<usize> {
    match typesize {
        2 => run(Shuffle::<2> { src, dst, n }),
        4 => run(Shuffle::<4> { src, dst, n }),
        8 => run(Shuffle::<8> { src, dst, n }),
        16 => run(Shuffle::<16> { src, dst, n }),
        _ => None,
    }
}

/// The byte shuffle of `n` elements of `T` bytes in `src` into planes of `n` bytes in `dst`.
struct Shuffle<'a, const T: usize> {
    src: &'a [u8],
    dst: &'a mut [u8],
    n: usize,
}

impl<const T: usize> Kernel for Shuffle<'_, T> {
    type Output = usize;

    #[inline(always)]
    fn run(self, s: V3) -> usize {
        shuffle_tiles::<T>(s, self.src, self.dst, self.n)
    }
}

#[inline(always)]
fn shuffle_tiles<const T: usize>(s: V3, src: &[u8], dst: &mut [u8], n: usize) -> usize {
    let tiles = n / TILE;
    let Some(src) = src.get(..tiles * TILE * T) else {
        return 0;
    };
    if dst.len() < T * n {
        return 0;
    }
    let a = s.avx2;
    for (t, tile) in src.chunks_exact(TILE * T).enumerate() {
        // The 16 bytes of row r of elements 0..16 in the low lane, of 16..32 in the high lane.
        let (first, second) = tile.split_at(TILE / 2 * T);
        let mut v = [zero(); T];
        for (q, pair) in v.chunks_exact_mut(2).enumerate() {
            let (x, y) = (load(&first[32 * q..32 * q + 32]), load(&second[32 * q..32 * q + 32]));
            pair[0] = a._mm256_permute2x128_si256::<0x20>(x, y);
            pair[1] = a._mm256_permute2x128_si256::<0x31>(x, y);
        }
        // Each round interleaves vectors k/2 and k/2 + T/2 (see `shuffle_sse2::shuffle_tiles`):
        // log2(16) rounds take "element, byte" to "byte, element" in each lane.
        for _ in 0..4 {
            let w = v;
            for (k, pair) in v.chunks_exact_mut(2).enumerate() {
                pair[0] = a._mm256_unpacklo_epi8(w[k], w[k + T / 2]);
                pair[1] = a._mm256_unpackhi_epi8(w[k], w[k + T / 2]);
            }
        }
        for (j, plane) in v.into_iter().enumerate() {
            store(plane, &mut dst[j * n + t * TILE..j * n + (t + 1) * TILE]);
        }
    }
    tiles * TILE
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    /// On a CPU with AVX2 the kernels run (so the property tests of `shuffle` and `unshuffle`,
    /// which compare them with the definition, test them); elsewhere they say so by `None`.
    #[test]
    fn avx2_kernels_run_where_the_cpu_has_avx2() {
        let avx2 = crate::filter::avx2_detected();
        let src = [7u8; 16 * 64];
        let mut dst = [0u8; 16 * 64];
        for ts in [2, 4, 8, 16] {
            assert_eq!(
                super::unshuffle(ts, &src, &mut dst, 64).map(|r| r.len() >= 32),
                avx2.then_some(true),
                "{ts}"
            );
            assert_eq!(super::shuffle(ts, &src, &mut dst, 64), avx2.then_some(64), "{ts}");
        }
        assert_eq!(super::shuffle(3, &src, &mut dst, 64), None, "3-byte items are the scalar loop's");
        println!("AVX2 kernels in use: {avx2}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// The kernels alone, on slices starting at any offset of larger buffers: every whole
        /// tile they report done equals the definition, they do all whole tiles (the unshuffle
        /// from the first element whose output is 32-byte aligned, where one is), and they
        /// leave the rest of `dst` alone.
        #[test]
        fn kernels_equal_the_definition_at_any_offset(
            ts in proptest::sample::select(&[2usize, 4, 8, 16][..]),
            offset in 0usize..64,
            dst_offset in 0usize..64,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..6000),
        ) {
            let data = &data[offset.min(data.len())..];
            let n = data.len() / ts;
            let whole = n / 32 * 32;
            let mut planes = vec![0x5Au8; data.len()];
            let done = super::shuffle(ts, data, &mut planes, n);
            if !crate::filter::avx2_detected() {
                proptest::prop_assert_eq!(done, None, "no AVX2: the kernel says so");
                return Ok(());
            }
            proptest::prop_assert_eq!(done, Some(whole));
            for j in 0..ts {
                for i in 0..n {
                    let want = if i < whole { data[i * ts + j] } else { 0x5A };
                    proptest::prop_assert_eq!(planes[j * n + i], want, "shuffle plane {} element {}", j, i);
                }
            }
            let mut back = vec![0xA5u8; data.len() + 64];
            let back = &mut back[dst_offset..dst_offset + data.len()];
            let done = super::unshuffle(ts, data, back, n).unwrap_or(0..0);
            let aligned = (0..32).find(|k| (back.as_ptr() as usize + k * ts).is_multiple_of(32));
            let first = aligned.unwrap_or(0).min(n);
            proptest::prop_assert_eq!(done.clone(), first..first + (n - first) / 32 * 32);
            if aligned.is_some() && !done.is_empty() {
                proptest::prop_assert_eq!((back.as_ptr() as usize + done.start * ts) % 32, 0);
            }
            for i in 0..n {
                for j in 0..ts {
                    let want = if done.contains(&i) { data[j * n + i] } else { 0xA5 };
                    proptest::prop_assert_eq!(back[i * ts + j], want, "unshuffle element {} byte {}", i, j);
                }
            }
        }
    }
}
