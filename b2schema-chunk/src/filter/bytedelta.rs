//! Undo of the byte-delta filters (c-blosc2 plugin `bytedelta`, ids 34 and 35).
//!
//! The block is seen as `typesize` channels of `len / typesize` consecutive
//! bytes (the filter expects byte-shuffled input).  Each channel stores the
//! byte-wise differences of its bytes, starting from 0; undoing it is a
//! running (wrapping) sum per channel.  Bytes after the last whole channel
//! are not touched by c-blosc2 (their content is unspecified there); this
//! decoder passes them through.
//!
//! Filter 34 is the original, buggy version kept by c-blosc2 for old data:
//! on x86-64 and ARM64 (the SIMD builds every python-blosc2 wheel uses) the
//! running sum restarts at 0 after the largest multiple of 16 bytes of each
//! channel.  Filter 35 is the fixed version (one running sum per channel).

/// Undoes filter 35 (`fixed == true`) or 34 (`fixed == false`), from `src` into `dst`.
pub(crate) fn decode(typesize: usize, fixed: bool, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    let typesize = typesize.max(1);
    let stream_len = len / typesize;
    let body = stream_len * typesize;
    if stream_len > 0 {
        // The channels' whole 16-byte groups carry the sum; the rest restarts from 0 in the
        // buggy filter (34), as its SIMD builds do.
        let whole = stream_len / 16 * 16;
        for (d, s) in dst[..body].chunks_exact_mut(stream_len).zip(src[..body].chunks_exact(stream_len)) {
            let (d_head, d_tail) = d.split_at_mut(whole);
            let (s_head, s_tail) = s.split_at(whole);
            let mut acc = running_sums(s_head, d_head);
            if !fixed {
                acc = 0;
            }
            for (o, &v) in d_tail.iter_mut().zip(s_tail) {
                acc = acc.wrapping_add(v);
                *o = acc;
            }
        }
    }
    dst[body..].copy_from_slice(&src[body..]);
}

/// Undoes filter 35 (`fixed`) or 34 and then the byte shuffle of the same `typesize` (at most
/// 8), from `src` into `dst`, in one pass (AVX2 or SSE2 tiles for `typesize` 4 and 8): the same bytes
/// as [`decode`] then [`super::shuffle::unshuffle`].
pub(crate) fn decode_unshuffle(typesize: usize, fixed: bool, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    let typesize = typesize.clamp(1, 8);
    let n = len / typesize;
    let mut sums = [0u8; 8];
    let mut done = 0;
    // AVX2 (chosen at run time), else SSE2, for 4- and 8-byte items.
    let simd = super::avx2::undelta_unshuffle(typesize, src, dst, n);
    if let Some((d, s)) = simd {
        (done, sums) = (d, s);
    }
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    if simd.is_none() {
        use super::shuffle_sse2::undelta_unshuffle_tiles;
        if typesize == 4 {
            let (d, s) = undelta_unshuffle_tiles::<4>(src, dst, n);
            sums[..4].copy_from_slice(&s);
            done = d;
        } else if typesize == 8 {
            (done, sums) = undelta_unshuffle_tiles::<8>(src, dst, n);
        }
    }
    // The elements after the whole tiles, one byte at a time: each channel's sum carried on,
    // restarted from 0 after its whole 16-byte groups in filter 34 (as `decode`).
    let whole = n / 16 * 16;
    for (j, &sum) in sums[..typesize].iter().enumerate() {
        let mut acc = sum;
        for i in done..n {
            if !fixed && i == whole {
                acc = 0;
            }
            acc = acc.wrapping_add(src[j * n + i]);
            dst[i * typesize + j] = acc;
        }
    }
    let body = n * typesize;
    dst[body..].copy_from_slice(&src[body..]);
}

/// The running (wrapping) sums of `src` into `dst`, both a multiple of 16 bytes long, from 0;
/// returns the last sum: AVX2 (chosen at run time) on 32 bytes at a time, the rest by
/// [`running_sums_16`].
fn running_sums(src: &[u8], dst: &mut [u8]) -> u8 {
    if let Some((done, acc)) = super::avx2::running_sums(src, dst) {
        return running_sums_16(&src[done..], &mut dst[done..], acc);
    }
    running_sums_16(src, dst, 0)
}

/// The running (wrapping) sums of `src` into `dst`, both a multiple of 16 bytes long, from
/// `acc`; returns the last sum. SSE2: each 16-byte group's own prefix sums in four
/// shift-and-add steps, then the sum carried in from the groups before (a scalar chain of one
/// add per group, so the groups' work overlaps).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub(super) fn running_sums_16(src: &[u8], dst: &mut [u8], mut acc: u8) -> u8 {
    use safe_arch::{add_i8_m128i, byte_shl_imm_u128_m128i, m128i, set_splat_i8_m128i};
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let mut x = m128i::from(<[u8; 16]>::try_from(s).unwrap_or([0; 16]));
        x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<1>(x));
        x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<2>(x));
        x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<4>(x));
        x = add_i8_m128i(x, byte_shl_imm_u128_m128i::<8>(x));
        let group_sum = <[u8; 16]>::from(x)[15];
        let out = add_i8_m128i(x, set_splat_i8_m128i(acc as i8));
        d.copy_from_slice(&<[u8; 16]>::from(out));
        acc = acc.wrapping_add(group_sum);
    }
    acc
}

/// [`running_sums_16`] without SSE2: one add per byte.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
pub(super) fn running_sums_16(src: &[u8], dst: &mut [u8], mut acc: u8) -> u8 {
    for (o, &v) in dst.iter_mut().zip(src) {
        acc = acc.wrapping_add(v);
        *o = acc;
    }
    acc
}

/// Byte delta (filter 35): `typesize` channels of `len / typesize` bytes, each byte replaced
/// by its difference to the previous byte of its channel (the first to 0); trailing bytes
/// copied.
pub(crate) fn encode(typesize: usize, src: &[u8], dst: &mut [u8]) {
    let len = src.len().min(dst.len());
    let typesize = typesize.max(1);
    let stream_len = len / typesize;
    let body = stream_len * typesize;
    if stream_len > 0 {
        for (d, s) in dst[..body].chunks_exact_mut(stream_len).zip(src[..body].chunks_exact(stream_len)) {
            // AVX2 (chosen at run time) on 32 bytes at a time, the rest one byte at a time.
            let done = super::avx2::differences(s, d).unwrap_or(0);
            let mut prev = if done > 0 { s[done - 1] } else { 0 };
            for (o, &v) in d[done..].iter_mut().zip(&s[done..]) {
                *o = v.wrapping_sub(prev);
                prev = v;
            }
        }
    }
    dst[body..len].copy_from_slice(&src[body..len]);
}

#[cfg(test)]
mod tests {
    use super::{decode, encode};
    use alloc::vec;
    use alloc::vec::Vec;

    /// Filters 35 and 34 as their definitions state them: per channel, a running sum, which the
    /// buggy one restarts after the channel's largest multiple of 16 bytes.
    fn plain_decode(typesize: usize, fixed: bool, src: &[u8]) -> Vec<u8> {
        let mut out = src.to_vec();
        let n = src.len() / typesize;
        if n == 0 {
            return out;
        }
        for channel in out[..n * typesize].chunks_exact_mut(n) {
            let mut acc = 0u8;
            for (i, b) in channel.iter_mut().enumerate() {
                if !fixed && i == n / 16 * 16 {
                    acc = 0;
                }
                acc = acc.wrapping_add(*b);
                *b = acc;
            }
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// The fast decoder equals the definition for both filters, every typesize and length,
        /// and undoes the encoder (filter 35).
        #[test]
        fn decode_matches_its_definition(
            ts in 1usize..=17,
            fixed in proptest::prelude::any::<bool>(),
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
        ) {
            let mut fast = vec![0u8; data.len()];
            decode(ts, fixed, &data, &mut fast);
            proptest::prop_assert_eq!(&fast, &plain_decode(ts, fixed, &data));
            let mut enc = vec![0u8; data.len()];
            encode(ts, &data, &mut enc);
            let mut back = vec![0u8; data.len()];
            decode(ts, true, &enc, &mut back);
            proptest::prop_assert_eq!(back, data);
        }

        /// The one-pass undo of bytedelta then shuffle equals the two filters undone in turn.
        #[test]
        fn decode_unshuffle_is_both_undone(
            ts in 1usize..=8,
            fixed in proptest::prelude::any::<bool>(),
            data in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..3000),
        ) {
            let mut mid = vec![0u8; data.len()];
            decode(ts, fixed, &data, &mut mid);
            let mut want = vec![0u8; data.len()];
            crate::filter::shuffle::unshuffle(ts, &mid, &mut want);
            let mut got = vec![0xA5u8; data.len()];
            super::decode_unshuffle(ts, fixed, &data, &mut got);
            proptest::prop_assert_eq!(got, want);
        }
    }

    #[test]
    fn running_sum_per_channel() {
        let src = [1u8, 1, 1, 10, 10, 10, 99];
        let mut dst = [0u8; 7];
        decode(2, true, &src, &mut dst);
        assert_eq!(dst, [1, 2, 3, 10, 20, 30, 99]);
    }

    #[test]
    fn buggy_variant_restarts_after_simd_part() {
        let src = [1u8; 18];
        let mut dst = [0u8; 18];
        decode(1, false, &src, &mut dst);
        assert_eq!(dst[15], 16);
        assert_eq!(dst[16], 1);
        assert_eq!(dst[17], 2);
    }
}
