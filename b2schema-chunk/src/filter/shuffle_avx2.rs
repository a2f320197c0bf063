//! Byte shuffle and unshuffle of 4- and 8-byte items, and the bit step of the forward
//! bitshuffle, with AVX2, chosen at run time (the `std`
//! feature, x86-64): `pulp`'s `V3` token exists only on a CPU that has AVX2 (detected once by
//! the standard library), and `V3::vectorize` runs our safe kernel compiled for it. This crate
//! keeps `#![forbid(unsafe_code)]`: the intrinsics are `pulp`'s safe wrappers, the loads and
//! stores are array copies of slices whose bounds our code checks.
//!
//! A tile is 32 elements: the SSE2 byte transposes of [`super::shuffle_sse2`] run on both
//! 128-bit lanes at once (AVX2 interleaves within lanes), the low lane on elements 0..16, the
//! high lane on 16..32, and one lane exchange (`permute2x128`) joins or splits the halves, as
//! c-blosc2's `shuffle_avx2` / `unshuffle_avx2` do.

use core::arch::x86_64::__m256i;
use pulp::x86::V3;

/// Elements per tile.
const TILE: usize = 32;

/// The AVX2 token, when the CPU has AVX2 (and the rest of x86-64-v3).
#[inline]
fn token() -> Option<V3> {
    V3::try_new()
}

#[inline(always)]
fn load(bytes: &[u8]) -> __m256i {
    pulp::cast(<[u8; 32]>::try_from(bytes).unwrap_or([0; 32]))
}

#[inline(always)]
fn store(v: __m256i, out: &mut [u8]) {
    out.copy_from_slice(&pulp::cast::<__m256i, [u8; 32]>(v));
}

/// Interleaves the bytes of 4 planes per lane: vector `r` holds elements `4r..4r + 4` of each
/// lane's 16.
#[inline(always)]
fn transpose4(s: V3, p: [__m256i; 4]) -> [__m256i; 4] {
    let a = s.avx2;
    let (a0, a1) = (a._mm256_unpacklo_epi8(p[0], p[1]), a._mm256_unpackhi_epi8(p[0], p[1]));
    let (b0, b1) = (a._mm256_unpacklo_epi8(p[2], p[3]), a._mm256_unpackhi_epi8(p[2], p[3]));
    [
        a._mm256_unpacklo_epi16(a0, b0),
        a._mm256_unpackhi_epi16(a0, b0),
        a._mm256_unpacklo_epi16(a1, b1),
        a._mm256_unpackhi_epi16(a1, b1),
    ]
}

/// Transposes 8 planes per lane: vector `r` holds elements `2r` and `2r + 1` of each lane's 16.
#[inline(always)]
fn transpose8(s: V3, p: &[__m256i; 8]) -> [__m256i; 8] {
    let ab = transpose4(s, [p[0], p[1], p[2], p[3]]);
    let cd = transpose4(s, [p[4], p[5], p[6], p[7]]);
    core::array::from_fn(|r| {
        let q = r / 2;
        if r % 2 == 0 {
            s.avx2._mm256_unpacklo_epi32(ab[q], cd[q])
        } else {
            s.avx2._mm256_unpackhi_epi32(ab[q], cd[q])
        }
    })
}

/// Unshuffles the first `n / 32 * 32` elements of `T` bytes (`T` 4 or 8) of the `T` planes of
/// `n` bytes in `src` into `dst`; `None` without AVX2 or for another `T`, else the elements done.
pub(crate) fn unshuffle(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) -> Option<usize> {
    let s = token()?;
    match typesize {
        4 => Some(s.vectorize(|| unshuffle_tiles::<4>(s, src, dst, n))),
        8 => Some(s.vectorize(|| unshuffle_tiles::<8>(s, src, dst, n))),
        _ => None,
    }
}

#[inline(always)]
fn unshuffle_tiles<const T: usize>(s: V3, src: &[u8], dst: &mut [u8], n: usize) -> usize {
    let tiles = n / TILE;
    let Some(dst) = dst.get_mut(..tiles * TILE * T) else {
        return 0;
    };
    let mut planes: [core::slice::ChunksExact<'_, u8>; T] =
        core::array::from_fn(|j| src.get(j * n..j * n + tiles * TILE).unwrap_or(&[]).chunks_exact(TILE));
    let a = s.avx2;
    for out in dst.chunks_exact_mut(TILE * T) {
        let p: [__m256i; T] = core::array::from_fn(|j| planes[j].next().map_or(pulp::cast([0u8; 32]), load));
        // Vector r: the low lane holds row r of elements 0..16, the high lane of 16..32.
        let mut rows = [pulp::cast([0u8; 32]); 8];
        let rows = match T {
            4 => {
                rows[..4].copy_from_slice(&transpose4(s, [p[0], p[1], p[2], p[3]]));
                &rows[..4]
            }
            _ => {
                rows = transpose8(s, &core::array::from_fn(|j| p[j % T]));
                &rows[..]
            }
        };
        // Elements 0..16 are the low lanes in order, 16..32 the high lanes.
        let (first, second) = out.split_at_mut(TILE / 2 * T);
        for (q, pair) in rows.chunks_exact(2).enumerate() {
            store(a._mm256_permute2x128_si256::<0x20>(pair[0], pair[1]), &mut first[32 * q..32 * q + 32]);
            store(a._mm256_permute2x128_si256::<0x31>(pair[0], pair[1]), &mut second[32 * q..32 * q + 32]);
        }
    }
    tiles * TILE
}

/// Shuffles the first `n / 32 * 32` elements of `T` bytes (`T` 4 or 8; `src` holds `n`
/// elements) into `T` byte planes of `n` bytes in `dst`; `None` without AVX2 or for another
/// `T`, else the elements done.
pub(crate) fn shuffle(typesize: usize, src: &[u8], dst: &mut [u8], n: usize) -> Option<usize> {
    let s = token()?;
    match typesize {
        4 => Some(s.vectorize(|| shuffle_tiles::<4>(s, src, dst, n))),
        8 => Some(s.vectorize(|| shuffle_tiles::<8>(s, src, dst, n))),
        _ => None,
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
        let mut v: [__m256i; T] = core::array::from_fn(|r| {
            let (x, y) = (
                load(&first[32 * (r / 2)..32 * (r / 2) + 32]),
                load(&second[32 * (r / 2)..32 * (r / 2) + 32]),
            );
            if r % 2 == 0 {
                a._mm256_permute2x128_si256::<0x20>(x, y)
            } else {
                a._mm256_permute2x128_si256::<0x31>(x, y)
            }
        });
        // Each round interleaves vectors k/2 and k/2 + T/2 (see `shuffle_sse2::shuffle_tiles`):
        // log2(16) rounds take "element, byte" to "byte, element" in each lane.
        for _ in 0..4 {
            v = core::array::from_fn(|k| {
                let (x, y) = (v[k / 2], v[k / 2 + T / 2]);
                if k % 2 == 0 { a._mm256_unpacklo_epi8(x, y) } else { a._mm256_unpackhi_epi8(x, y) }
            });
        }
        for (j, plane) in v.into_iter().enumerate() {
            store(plane, &mut dst[j * n + t * TILE..j * n + (t + 1) * TILE]);
        }
    }
    tiles * TILE
}

/// The bit step of the forward bitshuffle for one byte plane (`plane`: `8 * rowlen` bytes, one
/// per element) into its 8 bit-rows (`rows`: 8 rows of `rowlen` bytes; bit `i % 8` of byte
/// `i / 8` of row `k` is bit `k` of byte `i`), 32 bytes at a time: `movemask` gathers the top bit
/// of 32 bytes into the 4 row bytes, then each byte is doubled to bring up the next bit (as
/// c-blosc2's `bitshuffle_avx2`). `None` without AVX2, else the plane bytes done.
pub(crate) fn plane_to_bit_rows(plane: &[u8], rows: &mut [u8], rowlen: usize) -> Option<usize> {
    let s = token()?;
    Some(s.vectorize(|| plane_to_bit_rows_tiles(s, plane, rows, rowlen)))
}

#[inline(always)]
fn plane_to_bit_rows_tiles(s: V3, plane: &[u8], rows: &mut [u8], rowlen: usize) -> usize {
    let tiles = plane.len().min(rowlen * 8) / TILE;
    if rows.len() < 8 * rowlen {
        return 0;
    }
    let a = s.avx2;
    for (m, bytes) in plane.chunks_exact(TILE).take(tiles).enumerate() {
        let mut x = load(bytes);
        for k in (0..8).rev() {
            let mask = a._mm256_movemask_epi8(x) as u32;
            rows[k * rowlen + 4 * m..k * rowlen + 4 * m + 4].copy_from_slice(&mask.to_le_bytes());
            x = a._mm256_add_epi8(x, x);
        }
    }
    tiles * TILE
}

#[cfg(test)]
mod tests {
    /// On a CPU with AVX2 the kernels run (so the property tests of `shuffle` and `unshuffle`,
    /// which compare them with the definition, test them); elsewhere they say so by `None`.
    #[test]
    fn avx2_kernels_run_where_the_cpu_has_avx2() {
        let avx2 = std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma");
        let src = [7u8; 8 * 64];
        let mut dst = [0u8; 8 * 64];
        assert_eq!(super::unshuffle(8, &src, &mut dst, 64), avx2.then_some(64));
        assert_eq!(super::shuffle(4, &src, &mut dst, 128), avx2.then_some(128));
        assert_eq!(super::shuffle(2, &src, &mut dst, 256), None, "2-byte items are SSE2's");
        assert_eq!(super::plane_to_bit_rows(&src[..64], &mut dst[..64], 8), avx2.then_some(64));
        println!("AVX2 kernels in use: {avx2}");
    }
}
