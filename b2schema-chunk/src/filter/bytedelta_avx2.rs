//! Bytedelta (filters 34 and 35) with AVX2, chosen at run time ([`super::avx2_kernel`]; the
//! unshuffle tile loop of [`super::shuffle_avx2`]).
//!
//! - Undo, [`running_sums`]: each 32-byte group's own prefix sums in four shift-and-add steps
//!   per 128-bit lane, the low lane's total added to the high lane, then the sum carried in
//!   from the groups before; the carry is updated from the group's total, not from the output,
//!   so the chain between groups is one add (c-blosc2's `bytedelta.c` does the shifts and adds
//!   with 16-byte vectors).
//! - Undo fused with the byte unshuffle, [`undelta_unshuffle`]: the same sums taken on each
//!   plane's 32 bytes as the unshuffle tile loads them.
//! - Forward, [`differences`]: each byte minus the one before it, two overlapping loads.

use super::avx2_kernel::{Kernel, TILE, load, run, store, zero};
use super::shuffle_avx2::{TileSteps, planes_of, unshuffle_tiles_with};
use core::arch::x86_64::__m256i;
use pulp::x86::V3;

/// The prefix (wrapping) byte sums of the 32 bytes of `x`.
#[inline(always)]
fn prefix_sums(s: V3, x: __m256i) -> __m256i {
    let a = s.avx2;
    let x = a._mm256_add_epi8(x, a._mm256_bslli_epi128::<1>(x));
    let x = a._mm256_add_epi8(x, a._mm256_bslli_epi128::<2>(x));
    let x = a._mm256_add_epi8(x, a._mm256_bslli_epi128::<4>(x));
    let x = a._mm256_add_epi8(x, a._mm256_bslli_epi128::<8>(x));
    // Byte 15 of each lane in all its bytes; the low lane's goes to the high lane.
    let last = a._mm256_shuffle_epi8(x, s.avx._mm256_set1_epi8(15));
    a._mm256_add_epi8(x, a._mm256_permute2x128_si256::<0x08>(last, last))
}

/// Byte 31 of `x` in every byte.
#[inline(always)]
fn splat_last(s: V3, x: __m256i) -> __m256i {
    let a = s.avx2;
    let last = a._mm256_shuffle_epi8(x, s.avx._mm256_set1_epi8(15));
    a._mm256_permute2x128_si256::<0x11>(last, last)
}

/// The running (wrapping) sums of the first `len / 32 * 32` bytes of `src` into `dst` (same
/// length), from 0; `None` without AVX2, else the bytes done and the last sum.
pub(crate) fn running_sums(src: &[u8], dst: &mut [u8]) -> Option<(usize, u8)> {
    run(RunningSums { src, dst })
}

/// The running sums of `src` into `dst`.
struct RunningSums<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
}

impl Kernel for RunningSums<'_> {
    type Output = (usize, u8);

    #[inline(always)]
    fn run(self, s: V3) -> (usize, u8) {
        running_sums_tiles(s, self.src, self.dst)
    }
}

#[inline(always)]
fn running_sums_tiles(s: V3, src: &[u8], dst: &mut [u8]) -> (usize, u8) {
    let mut carry = zero();
    let len = src.len().min(dst.len()) / TILE * TILE;
    for (d, x) in dst[..len].chunks_exact_mut(TILE).zip(src[..len].chunks_exact(TILE)) {
        let x = prefix_sums(s, load(x));
        store(s.avx2._mm256_add_epi8(x, carry), d);
        carry = s.avx2._mm256_add_epi8(carry, splat_last(s, x));
    }
    (len, pulp::cast::<__m256i, [u8; 32]>(carry)[0])
}

/// The undo of bytedelta then of the byte shuffle of `typesize` (4 or 8, the sizes the
/// pipeline fuses) bytes, for the
/// first `n / 32 * 32` elements of the planes of `n` bytes in `src`, into `dst`: `None` without
/// AVX2 or for another size, else the elements done and each plane's sum after them.
pub(crate) fn undelta_unshuffle(
    typesize: usize,
    src: &[u8],
    dst: &mut [u8],
    n: usize,
) -> Option<(usize, [u8; 8])> {
    match typesize {
        4 => run(UndeltaUnshuffle::<4> { src, dst, n }),
        8 => run(UndeltaUnshuffle::<8> { src, dst, n }),
        _ => None,
    }
}

/// Bytedelta and the byte shuffle of `T`-byte items undone: the planes of `n` bytes in `src`
/// into `dst`.
struct UndeltaUnshuffle<'a, const T: usize> {
    src: &'a [u8],
    dst: &'a mut [u8],
    n: usize,
}

impl<const T: usize> Kernel for UndeltaUnshuffle<'_, T> {
    type Output = (usize, [u8; 8]);

    #[inline(always)]
    fn run(self, s: V3) -> (usize, [u8; 8]) {
        undelta_unshuffle_tiles::<T>(s, self.src, self.dst, self.n)
    }
}

/// Each plane's running sums as the unshuffle tile loop loads it: `carry[j]` holds plane `j`'s
/// sum so far in every byte.
struct Sums<const T: usize> {
    carry: [__m256i; T],
}

impl<const T: usize> TileSteps for Sums<T> {
    #[inline(always)]
    fn pre(&mut self, s: V3, j: usize, v: __m256i) -> __m256i {
        let x = prefix_sums(s, v);
        let out = s.avx2._mm256_add_epi8(x, self.carry[j]);
        self.carry[j] = s.avx2._mm256_add_epi8(self.carry[j], splat_last(s, x));
        out
    }
}

#[inline(always)]
fn undelta_unshuffle_tiles<const T: usize>(s: V3, src: &[u8], dst: &mut [u8], n: usize) -> (usize, [u8; 8]) {
    let mut steps = Sums { carry: [zero(); T] };
    let done = unshuffle_tiles_with::<T>(s, planes_of(src, n), dst, n, 0, &mut steps);
    let mut sums = [0u8; 8];
    for (sum, c) in sums.iter_mut().zip(steps.carry) {
        *sum = pulp::cast::<__m256i, [u8; 32]>(c)[0];
    }
    (done, sums)
}

/// Byte differences of one channel: `dst[i] = src[i] - src[i - 1]` (`src[-1]` taken as 0) for
/// the bytes before the first `i >= 1` where `dst` is 32-byte aligned one at a time, then
/// whole tiles of 32 (aligned stores: a 32-byte store across two cache lines cost a third of
/// the speed on 256 KiB blocks); `None` without AVX2, else the bytes done.
pub(crate) fn differences(src: &[u8], dst: &mut [u8]) -> Option<usize> {
    run(Differences { src, dst })
}

/// The byte differences of `src` into `dst`.
struct Differences<'a> {
    src: &'a [u8],
    dst: &'a mut [u8],
}

impl Kernel for Differences<'_> {
    type Output = usize;

    #[inline(always)]
    fn run(self, s: V3) -> usize {
        differences_tiles(s, self.src, self.dst)
    }
}

#[inline(always)]
fn differences_tiles(s: V3, src: &[u8], dst: &mut [u8]) -> usize {
    let len = src.len().min(dst.len());
    let (Some(&first), Some(d0)) = (src.first(), dst.first_mut()) else {
        return 0;
    };
    *d0 = first;
    let start = aligned_from(dst, 1).min(len);
    for i in 1..start {
        dst[i] = src[i].wrapping_sub(src[i - 1]);
    }
    let groups = (len - start) / TILE;
    // Bytes start.. against bytes start - 1..: chunk iterators, so that the loop has no bounds
    // checks.
    let (cur, prev) = (src[start..len].chunks_exact(TILE), src[start - 1..len - 1].chunks_exact(TILE));
    for ((d, x), p) in dst[start..len].chunks_exact_mut(TILE).zip(cur).zip(prev) {
        store(s.avx2._mm256_sub_epi8(load(x), load(p)), d);
    }
    start + groups * TILE
}

/// The first index `i >= from` where `buf[i..]` starts on a 32-byte boundary.
pub(super) fn aligned_from(buf: &[u8], from: usize) -> usize {
    from + (32 - (buf.as_ptr() as usize + from) % 32) % 32
}

#[cfg(test)]
mod tests {
    use alloc::vec;
    use alloc::vec::Vec;

    /// On a CPU with AVX2 the kernels run (so the property tests of `bytedelta`, which compare
    /// them with the definition, test them); elsewhere they say so by `None`.
    #[test]
    fn avx2_bytedelta_kernels_run_where_the_cpu_has_avx2() {
        let avx2 = crate::filter::avx2_detected();
        let src = [1u8; 8 * 64];
        let mut dst = [0u8; 8 * 64];
        assert_eq!(super::running_sums(&src[..70], &mut dst[..70]), avx2.then_some((64, 64)));
        assert_eq!(super::differences(&src[..70], &mut dst[..70]).map(|d| d > 32), avx2.then_some(true));
        assert_eq!(super::undelta_unshuffle(8, &src, &mut dst, 64).map(|r| r.0), avx2.then_some(64));
        assert_eq!(super::undelta_unshuffle(16, &src, &mut dst, 32), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(500))]
        /// The three kernels alone, on slices starting at any offset of a larger buffer,
        /// against their definitions: running sums, byte differences, and running sums per
        /// plane then unshuffle; every whole tile done, the rest of the output left alone.
        #[test]
        fn kernels_equal_the_definition_at_any_offset(
            ts in proptest::sample::select(&[4usize, 8][..]),
            offset in 0usize..64,
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..4000),
        ) {
            let data = &data[offset.min(data.len())..];
            let len = data.len();
            let mut sums = vec![0xA5u8; len];
            let got = super::running_sums(data, &mut sums);
            if !crate::filter::avx2_detected() {
                proptest::prop_assert_eq!(got, None, "no AVX2: the kernel says so");
                return Ok(());
            }
            let whole = len / 32 * 32;
            let mut acc = 0u8;
            for (i, &b) in data.iter().enumerate() {
                acc = acc.wrapping_add(b);
                proptest::prop_assert_eq!(sums[i], if i < whole { acc } else { 0xA5 }, "sum {}", i);
            }
            let last = data[..whole].iter().fold(0u8, |a, &b| a.wrapping_add(b));
            proptest::prop_assert_eq!(got, Some((whole, last)));

            // The output at any offset from a 32-byte boundary too.
            let mut diffs_buf = vec![0xA5u8; len + 32];
            let diffs = &mut diffs_buf[offset % 32..offset % 32 + len];
            let start = (1..).find(|i| (diffs.as_ptr() as usize + i).is_multiple_of(32)).unwrap_or(1).min(len);
            let done = if len == 0 { 0 } else { start + (len - start) / 32 * 32 };
            proptest::prop_assert_eq!(super::differences(data, diffs), Some(done));
            for i in 0..len {
                let want = if i >= done { 0xA5 } else if i == 0 { data[0] } else { data[i].wrapping_sub(data[i - 1]) };
                proptest::prop_assert_eq!(diffs[i], want, "difference {}", i);
            }

            let n = len / ts;
            let tiles = n / 32 * 32;
            let mut out = vec![0xA5u8; len];
            let got = super::undelta_unshuffle(ts, data, &mut out, n);
            let plane_sums: Vec<u8> =
                (0..ts).map(|j| data[j * n..j * n + tiles].iter().fold(0u8, |a, &b| a.wrapping_add(b))).collect();
            proptest::prop_assert_eq!(got.map(|(d, s)| (d, s[..ts].to_vec())), Some((tiles, plane_sums)));
            for j in 0..ts {
                let mut acc = 0u8;
                for i in 0..n {
                    acc = acc.wrapping_add(data[j * n + i]);
                    proptest::prop_assert_eq!(out[i * ts + j], if i < tiles { acc } else { 0xA5 }, "element {} byte {}", i, j);
                }
            }
        }
    }
}
