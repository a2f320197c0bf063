//! Byte unshuffle (and shuffle, for the compressor) of the common item sizes (2, 4, 8 and 16
//! bytes), and the bit-rows-to-byte-plane
//! step of bitunshuffle, with SSE2, which every
//! x86-64 CPU has, through `safe_arch`'s safe wrappers of the intrinsics (this crate keeps
//! `#![forbid(unsafe_code)]`).
//!
//! Per tile of 16 elements, one 16-byte load from each of the `T` byte planes, then the byte
//! transpose as rounds of interleaves (8-bit, 16-bit, 32-bit, and 64-bit for 16-byte items),
//! then `T` 16-byte stores: c-blosc2's `unshuffle_sse2` does the same. Measured on this
//! project's machine at 3x the scalar 8x8 tile transpose for 8-byte items (see
//! BENCHMARKS.md).

use safe_arch::{
    add_i8_m128i, bitand_m128i, bitxor_m128i, byte_shl_imm_u128_m128i, m128i, set_splat_i64_m128i,
    shl_imm_u64_m128i, shr_imm_u64_m128i, shuffle_ai_f32_all_m128i, shuffle_ai_i16_h64all_m128i,
    unpack_high_i8_m128i, unpack_high_i16_m128i, unpack_high_i32_m128i, unpack_high_i64_m128i,
    unpack_low_i8_m128i, unpack_low_i16_m128i, unpack_low_i32_m128i, unpack_low_i64_m128i,
};

/// Elements per tile.
const TILE: usize = 16;

#[inline(always)]
fn load(bytes: &[u8]) -> m128i {
    m128i::from(<[u8; 16]>::try_from(bytes).unwrap_or([0; 16]))
}

#[inline(always)]
fn store(v: m128i, out: &mut [u8]) {
    out.copy_from_slice(&<[u8; 16]>::from(v));
}

/// Interleaves the bytes of 2 planes: elements 0..8 then 8..16 of 2 bytes.
#[inline(always)]
fn transpose2(p: [m128i; 2]) -> [m128i; 2] {
    [unpack_low_i8_m128i(p[0], p[1]), unpack_high_i8_m128i(p[0], p[1])]
}

/// Transposes 4 planes: vector `r` holds elements `4r..4r + 4` of 4 bytes.
#[inline(always)]
fn transpose4(p: [m128i; 4]) -> [m128i; 4] {
    let [a0, a1] = transpose2([p[0], p[1]]);
    let [b0, b1] = transpose2([p[2], p[3]]);
    [
        unpack_low_i16_m128i(a0, b0),
        unpack_high_i16_m128i(a0, b0),
        unpack_low_i16_m128i(a1, b1),
        unpack_high_i16_m128i(a1, b1),
    ]
}

/// Transposes 8 planes: vector `r` holds elements `2r` and `2r + 1` of 8 bytes.
#[inline(always)]
fn transpose8(p: &[m128i]) -> [m128i; 8] {
    let ab = transpose4([p[0], p[1], p[2], p[3]]);
    let cd = transpose4([p[4], p[5], p[6], p[7]]);
    core::array::from_fn(|r| {
        let q = r / 2;
        if r % 2 == 0 { unpack_low_i32_m128i(ab[q], cd[q]) } else { unpack_high_i32_m128i(ab[q], cd[q]) }
    })
}

/// Unshuffles the first `n / 16 * 16` elements of `T` bytes (`T` in 2, 4, 8, 16; `src` holds
/// the `T` planes of `n` bytes) into `dst`; returns how many elements it wrote.
pub(crate) fn unshuffle_tiles<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) -> usize {
    let tiles = n / TILE;
    let Some(dst) = dst.get_mut(..tiles * TILE * T) else {
        return 0;
    };
    let mut planes: [core::slice::ChunksExact<'_, u8>; T] =
        core::array::from_fn(|j| src.get(j * n..j * n + tiles * TILE).unwrap_or(&[]).chunks_exact(TILE));
    for out in dst.chunks_exact_mut(TILE * T) {
        let p: [m128i; T] = core::array::from_fn(|j| planes[j].next().map_or(m128i::default(), load));
        let mut outs = out.chunks_exact_mut(16);
        let mut put = |v: m128i| {
            if let Some(o) = outs.next() {
                store(v, o);
            }
        };
        match T {
            2 => transpose2([p[0], p[1]]).into_iter().for_each(&mut put),
            4 => transpose4([p[0], p[1], p[2], p[3]]).into_iter().for_each(&mut put),
            8 => transpose8(&p).into_iter().for_each(&mut put),
            _ => {
                // 16 bytes: the low and high halves of each element come from two 8-plane
                // transposes; one 64-bit interleave joins them.
                let lo = transpose8(&p[..8]);
                let hi = transpose8(&p[8..]);
                for (l, h) in lo.into_iter().zip(hi) {
                    put(unpack_low_i64_m128i(l, h));
                    put(unpack_high_i64_m128i(l, h));
                }
            }
        }
    }
    tiles * TILE
}

/// The running (wrapping) byte sums of `x`, plus `carry` (a vector of one byte).
#[inline(always)]
fn running_sums(x: m128i, carry: m128i) -> m128i {
    let x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<1>(x));
    let x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<2>(x));
    let x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<4>(x));
    let x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<8>(x));
    add_i8_m128i(x, carry)
}

/// Byte 15 of `x` in every byte.
#[inline(always)]
fn splat_last(x: m128i) -> m128i {
    let w = unpack_high_i8_m128i(x, x);
    let w = shuffle_ai_i16_h64all_m128i::<0xFF>(w);
    shuffle_ai_f32_all_m128i::<0xFF>(w)
}

/// [`unshuffle_tiles`] (`T` 4 or 8) of planes holding byte deltas (bytedelta, filters 34 and 35, undone
/// first): each plane's running sum is taken as its 16 bytes are loaded, so the sums need no
/// pass over the block of their own. Returns the elements done and each plane's sum after them.
pub(crate) fn undelta_unshuffle_tiles<const T: usize>(
    src: &[u8],
    dst: &mut [u8],
    n: usize,
) -> (usize, [u8; T]) {
    let tiles = n / TILE;
    let Some(dst) = dst.get_mut(..tiles * TILE * T) else {
        return (0, [0; T]);
    };
    let mut planes: [core::slice::ChunksExact<'_, u8>; T] =
        core::array::from_fn(|j| src.get(j * n..j * n + tiles * TILE).unwrap_or(&[]).chunks_exact(TILE));
    let mut carry = [m128i::default(); T];
    for out in dst.chunks_exact_mut(TILE * T) {
        let p: [m128i; T] = core::array::from_fn(|j| {
            let x = running_sums(planes[j].next().map_or(m128i::default(), load), carry[j]);
            carry[j] = splat_last(x);
            x
        });
        let mut outs = out.chunks_exact_mut(16);
        let mut put = |v: m128i| {
            if let Some(o) = outs.next() {
                store(v, o);
            }
        };
        match T {
            4 => transpose4([p[0], p[1], p[2], p[3]]).into_iter().for_each(&mut put),
            _ => transpose8(&p).into_iter().for_each(&mut put),
        }
    }
    (tiles * TILE, core::array::from_fn(|j| <[u8; 16]>::from(carry[j])[0]))
}

/// Shuffles the first `n / 16 * 16` elements of `T` bytes (`T` in 2, 4, 8, 16; `src` holds `n`
/// elements) into `T` byte planes of `n` bytes in `dst`; returns how many elements it did. Per
/// tile of 16 elements, `T` 16-byte loads, then four rounds that interleave the bytes of
/// vectors `i` and `i + T / 2` into vectors `2i` and `2i + 1` (each round rotates the tile's
/// byte index by one bit: four rounds take "element, byte" to "byte, element"), then one
/// 16-byte store per plane.
pub(crate) fn shuffle_tiles<const T: usize>(src: &[u8], dst: &mut [u8], n: usize) -> usize {
    let tiles = n / TILE;
    let Some(src) = src.get(..tiles * TILE * T) else {
        return 0;
    };
    if dst.len() < T * n {
        return 0;
    }
    for (t, tile) in src.chunks_exact(TILE * T).enumerate() {
        let mut v: [m128i; T] = core::array::from_fn(|r| load(&tile[TILE * r..TILE * (r + 1)]));
        for _ in 0..4 {
            v = core::array::from_fn(|k| {
                let (a, b) = (v[k / 2], v[k / 2 + T / 2]);
                if k % 2 == 0 { unpack_low_i8_m128i(a, b) } else { unpack_high_i8_m128i(a, b) }
            });
        }
        for (j, plane) in v.into_iter().enumerate() {
            store(plane, &mut dst[j * n + t * TILE..j * n + (t + 1) * TILE]);
        }
    }
    tiles * TILE
}

/// One round of the 8x8 bit transpose of [`super::bitshuffle`] (`transpose_bits_8x8`), on both
/// 64-bit lanes at once.
#[inline(always)]
fn bit_round<const S: i32>(x: m128i, mask: i64) -> m128i {
    let t = bitand_m128i(bitxor_m128i(x, shr_imm_u64_m128i::<S>(x)), set_splat_i64_m128i(mask));
    bitxor_m128i(bitxor_m128i(x, t), shl_imm_u64_m128i::<S>(t))
}

/// Turns the first `rowlen / 16 * 16` bytes of each of the 8 bit-rows of one byte plane (`rows`:
/// 8 rows of `rowlen` bytes) into the first `8 * that` bytes of the plane; returns how many
/// row bytes it did. Per tile of 16 row bytes: the 8-plane byte transpose above puts the 8 row
/// bytes of each output group of 8 in one 64-bit lane, and the bit transpose runs on two lanes
/// at once.
pub(crate) fn bit_rows_to_plane(rows: &[u8], rowlen: usize, plane: &mut [u8]) -> usize {
    let tiles = rowlen / TILE;
    let Some(plane) = plane.get_mut(..tiles * TILE * 8) else {
        return 0;
    };
    let mut row_iters: [core::slice::ChunksExact<'_, u8>; 8] = core::array::from_fn(|k| {
        rows.get(k * rowlen..k * rowlen + tiles * TILE).unwrap_or(&[]).chunks_exact(TILE)
    });
    for out in plane.chunks_exact_mut(TILE * 8) {
        let p: [m128i; 8] = core::array::from_fn(|k| row_iters[k].next().map_or(m128i::default(), load));
        for (v, o) in transpose8(&p).into_iter().zip(out.chunks_exact_mut(16)) {
            let v = bit_round::<7>(v, 0x00AA_00AA_00AA_00AA);
            let v = bit_round::<14>(v, 0x0000_CCCC_0000_CCCC);
            let v = bit_round::<28>(v, 0x0000_0000_F0F0_F0F0);
            store(v, o);
        }
    }
    tiles * TILE
}
